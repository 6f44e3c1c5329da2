"""What a sweep returns: per scheme the curves, AP, best thresholds and
calibration, with the signature of the run. Each is a value: `to_dict()`
writes it as JSON, `from_dict()` reads it back, equal to the value
written (curves are compared as arrays)."""

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, Mapping, Optional, Tuple

import numpy

from ..signature import Signature


def _curve(values: Any) -> numpy.ndarray:
    return numpy.asarray(values, dtype=numpy.float64)


def _same_curves(a: Tuple[numpy.ndarray, ...], b: Tuple[numpy.ndarray, ...]) -> bool:
    return len(a) == len(b) and all(numpy.array_equal(x, y, equal_nan=True) for x, y in zip(a, b))


def _not_written(what: str, err: Exception) -> ValueError:
    return ValueError(f"not a {what} as to_dict writes it ({type(err).__name__}: {err})")


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

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "BestThreshold":
        from ..stats.bootstrap import Interval

        interval = data.get("interval")
        return cls(
            float(data["threshold"]), float(data["f"]), None if interval is None else Interval.from_dict(interval)
        )


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
        return {
            "lower": self.lower,
            "upper": self.upper,
            "count": self.count,
            "mean_score": self.mean_score,
            "share_correct": self.share_correct,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "CalibrationBin":
        return cls(**data)


@dataclass(frozen=True)
class Calibration:
    """Reliability of the scores: 10 equal-width bins and the expected
    calibration error, sum over bins of (count / n) * |share_correct -
    mean_score|."""

    bins: Tuple[CalibrationBin, ...]
    ece: float

    def to_dict(self) -> Dict[str, Any]:
        return {"bins": [b.to_dict() for b in self.bins], "ece": self.ece}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Calibration":
        return cls(tuple(CalibrationBin.from_dict(b) for b in data["bins"]), float(data["ece"]))


@dataclass(frozen=True, eq=False)
class LabelCurve:
    """One label's P, R and F at each threshold of the sweep."""

    precision: numpy.ndarray
    recall: numpy.ndarray
    f1: numpy.ndarray

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, LabelCurve):
            return NotImplemented
        return _same_curves((self.precision, self.recall, self.f1), (other.precision, other.recall, other.f1))

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> Dict[str, Any]:
        return {"p": self.precision.tolist(), "r": self.recall.tolist(), "f": self.f1.tolist()}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "LabelCurve":
        return cls(_curve(data["p"]), _curve(data["r"]), _curve(data["f"]))


@dataclass(frozen=True, eq=False)
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
    Equal when every field is (the curves as arrays).
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

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, SchemeSweep):
            return NotImplemented
        curves = ("thresholds", "precision", "recall", "f1")
        return _same_curves(tuple(getattr(self, c) for c in curves), tuple(getattr(other, c) for c in curves)) and (
            self.scheme,
            self.ap,
            self.best,
            self.per_label,
            self.per_label_best,
            self.calibration,
        ) == (other.scheme, other.ap, other.best, other.per_label, other.per_label_best, other.calibration)

    __hash__ = None  # type: ignore[assignment]

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): scheme, thresholds, p, r, f, ap, best,
        per_label (each label's p, r and f), per_label_best, calibration
        (JSON-ready)."""
        return {
            "scheme": self.scheme,
            "thresholds": self.thresholds.tolist(),
            "p": self.precision.tolist(),
            "r": self.recall.tolist(),
            "f": self.f1.tolist(),
            "ap": self.ap,
            "best": None if self.best is None else self.best.to_dict(),
            "per_label": {label: curve.to_dict() for label, curve in self.per_label.items()},
            "per_label_best": {label: best.to_dict() for label, best in self.per_label_best.items()},
            "calibration": self.calibration.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "SchemeSweep":
        """The sweep of one scheme `to_dict` wrote."""
        try:
            return cls(
                data["scheme"],
                _curve(data["thresholds"]),
                _curve(data["p"]),
                _curve(data["r"]),
                _curve(data["f"]),
                float(data["ap"]),
                None if data["best"] is None else BestThreshold.from_dict(data["best"]),
                {label: LabelCurve.from_dict(curve) for label, curve in data["per_label"].items()},
                {label: BestThreshold.from_dict(best) for label, best in data["per_label_best"].items()},
                Calibration.from_dict(data["calibration"]),
            )
        except (KeyError, TypeError, AttributeError) as err:
            raise _not_written("SchemeSweep", err) from None


@dataclass(frozen=True)
class SweepResult(Mapping):
    """scheme -> SchemeSweep, in the order the schemes were given, the
    signature of the run (a `Signature`), and its warnings: what looks off
    but is not wrong (a predicted label that never occurs in the gold).
    With a label map, `unmapped` holds by side ("gold", "pred") the labels
    the map does not name and their spans, swept as they are."""

    schemes: Mapping[str, SchemeSweep]
    signature: Any = field(default_factory=dict)  # a Signature (a plain mapping when built by hand)
    warnings: Tuple[str, ...] = ()
    unmapped: Mapping[str, Mapping[str, int]] = field(default_factory=dict, repr=False)

    def replace(self, **changes: Any) -> "SweepResult":
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

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
        """RETURNS (Dict[str, Any]): the JSON the command line writes
        (--output): "sweep" (scheme -> its `to_dict()`), "warnings" and
        "unmapped" (when there are any) and "signature"."""
        out: Dict[str, Any] = {"sweep": {scheme: result.to_dict() for scheme, result in self.schemes.items()}}
        if self.warnings:
            out["warnings"] = list(self.warnings)
        if any(self.unmapped.values()):
            out["unmapped"] = {side: dict(sorted(labels.items())) for side, labels in self.unmapped.items() if labels}
        out["signature"] = dict(self.signature)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "SweepResult":
        """The sweep `to_dict` wrote (e.g. read back from --output)."""
        try:
            schemes = {scheme: SchemeSweep.from_dict(block) for scheme, block in data["sweep"].items()}
            signed = data.get("signature") or {}
            return cls(
                schemes,
                Signature.from_dict(signed) if signed else {},
                tuple(data.get("warnings", ())),
                {side: dict(labels) for side, labels in data.get("unmapped", {}).items()},
            )
        except (KeyError, TypeError, AttributeError) as err:
            raise _not_written("SweepResult", err) from None
