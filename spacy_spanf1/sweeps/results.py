"""What a sweep returns: per scheme the curves, AP, best thresholds and
calibration, with the signature of the run."""
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, Mapping, Optional, Tuple

import numpy


@dataclass(frozen=True)
class BestThreshold:
    """The threshold of highest F (ties: see `SweepSettings.ties`).

    interval (Optional[Any]): The bootstrap interval of F at this
        threshold (a stats `Interval`), when intervals were asked for.
    """

    threshold: float
    f1: float
    interval: Optional[Any] = None

    def to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {"threshold": self.threshold, "f": self.f1}
        if self.interval is not None:
            out["interval"] = self.interval.to_dict()
        return out


@dataclass(frozen=True)
class CalibrationBin:
    """Predictions with a score in [lower, upper) (the last bin includes 1).

    mean_score, share_correct: None for an empty bin.
    """

    lower: float
    upper: float
    count: int
    mean_score: Optional[float]
    share_correct: Optional[float]

    def to_dict(self) -> Dict[str, Any]:
        return {"lower": self.lower, "upper": self.upper, "count": self.count,
                "mean_score": self.mean_score, "share_correct": self.share_correct}


@dataclass(frozen=True)
class Calibration:
    """Reliability of the scores: 10 equal-width bins and the expected
    calibration error, sum over bins of (count / n) * |share_correct -
    mean_score|."""

    bins: Tuple[CalibrationBin, ...]
    ece: float

    def to_dict(self) -> Dict[str, Any]:
        return {"bins": [b.to_dict() for b in self.bins], "ece": self.ece}


@dataclass(frozen=True)
class LabelCurve:
    """One label's P, R and F at each threshold of the sweep."""

    precision: numpy.ndarray
    recall: numpy.ndarray
    f1: numpy.ndarray


@dataclass(frozen=True)
class SchemeSweep:
    """One scheme over every threshold of a sweep.

    thresholds (numpy.ndarray): Ascending; at each, the predictions with
        score >= threshold are scored.
    precision, recall, f1 (numpy.ndarray): At each threshold.
    ap (float): Average precision over the distinct scores.
    best (Optional[BestThreshold]): None when F is 0 at every threshold.
    per_label (Dict[str, LabelCurve]): Each label's curves.
    per_label_best (Dict[str, BestThreshold]): Labels whose F is above 0
        at some threshold.
    calibration (Calibration): Every prediction judged with all present.
    """

    scheme: str
    thresholds: numpy.ndarray
    precision: numpy.ndarray
    recall: numpy.ndarray
    f1: numpy.ndarray
    ap: float
    best: Optional[BestThreshold]
    per_label: Dict[str, LabelCurve]
    per_label_best: Dict[str, BestThreshold]
    calibration: Calibration

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): thresholds, p, r, f, ap, best,
        per_label_best, calibration (JSON-ready)."""
        return {
            "thresholds": self.thresholds.tolist(),
            "p": self.precision.tolist(),
            "r": self.recall.tolist(),
            "f": self.f1.tolist(),
            "ap": self.ap,
            "best": None if self.best is None else self.best.to_dict(),
            "per_label_best": {label: best.to_dict() for label, best in self.per_label_best.items()},
            "calibration": self.calibration.to_dict(),
        }


@dataclass(frozen=True)
class SweepResult(Mapping):
    """scheme -> SchemeSweep, in the order the schemes were given, the
    signature of the run, and its warnings: what looks off but is not
    wrong (a predicted label that never occurs in the gold)."""

    schemes: Dict[str, SchemeSweep]
    signature: Dict[str, Any] = field(default_factory=dict)
    warnings: Tuple[str, ...] = ()

    def __getitem__(self, scheme: str) -> SchemeSweep:
        if scheme not in self.schemes:
            raise KeyError(f"No scheme {scheme!r} in this sweep. Schemes swept: {', '.join(self.schemes)}")
        return self.schemes[scheme]

    def __iter__(self) -> Iterator[str]:
        return iter(self.schemes)

    def __len__(self) -> int:
        return len(self.schemes)

    @property
    def primary(self) -> str:
        return next(iter(self.schemes))

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): per scheme its `to_dict()`,
        "warnings" (when there are any) and "signature"."""
        out: Dict[str, Any] = {scheme: result.to_dict() for scheme, result in self.schemes.items()}
        if self.warnings:
            out["warnings"] = list(self.warnings)
        out["signature"] = self.signature
        return out
