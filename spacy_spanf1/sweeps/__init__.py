"""Scored predictions: every threshold's P, R and F from one pass, average
precision, best thresholds and calibration."""

from .api import sweep
from .pipeline import sweep_spancat, write_config
from .results import BestThreshold, Calibration, CalibrationBin, LabelCurve, SchemeSweep, SweepResult
from .settings import SweepSettings

__all__ = [
    "BestThreshold",
    "Calibration",
    "CalibrationBin",
    "LabelCurve",
    "SchemeSweep",
    "SweepResult",
    "SweepSettings",
    "sweep",
    "sweep_spancat",
    "write_config",
]
