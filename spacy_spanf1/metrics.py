"""Every ratio the package reports. Nothing else divides.

Precision and recall are divided the plain way, with 0.0 where the
denominator is zero. F is computed from P and R the way spaCy's
`PRFScore.fscore` does (`2 * ((p * r) / (p + r))`), so that the strict
figures are bit-equal to spaCy's `ents_f` and `spans_<key>_f`.
"""
from typing import Iterable


def safe_div(numerator: float, denominator: float) -> float:
    """numerator / denominator, or 0.0 when the denominator is zero."""
    return numerator / denominator if denominator else 0.0


def f_score(precision: float, recall: float) -> float:
    """Harmonic mean of P and R, 0.0 when both are zero (spaCy's formula)."""
    total = precision + recall
    return 2 * ((precision * recall) / total) if total else 0.0


def f_beta(precision: float, recall: float, beta: float) -> float:
    """F-beta: (1 + b²)·P·R / (b²·P + R), 0.0 when the denominator is zero."""
    b2 = beta * beta
    return safe_div((1 + b2) * precision * recall, b2 * precision + recall)


def mean(values: Iterable[float]) -> float:
    """Arithmetic mean, 0.0 for no values (macro F over no labels)."""
    values = list(values)
    return sum(values) / len(values) if values else 0.0
