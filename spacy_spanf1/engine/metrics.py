"""Every ratio the package reports. Nothing else divides.

Precision and recall are divided the plain way, with 0.0 where the
denominator is zero. F is computed from P and R the way spaCy's
`PRFScore.fscore` does (`2 * ((p * r) / (p + r))`), so that the strict
figures are bit-equal to spaCy's `ents_f` and `spans_<key>_f`; tag reports
use seqeval's formula (`f_score_seqeval`), to be bit-equal to seqeval's.
"""

from typing import Iterable


def safe_div(numerator: float, denominator: float) -> float:
    """numerator / denominator, or 0.0 when the denominator is zero."""
    return numerator / denominator if denominator else 0.0


def f_score(precision: float, recall: float) -> float:
    """Harmonic mean of P and R, 0.0 when both are zero (spaCy's formula)."""
    total = precision + recall
    return 2 * ((precision * recall) / total) if total else 0.0


def f_score_seqeval(precision: float, recall: float) -> float:
    """F1 as seqeval computes it for tag reports: (1 + 1)·P·R / (1·P + R),
    the denominator 1 when it is 0, in seqeval's order of operations, so
    that tag reports are bit-equal to seqeval's (spaCy's formula can differ
    in the last bit)."""
    denom = 1.0 * precision + recall
    return 2.0 * precision * recall / (denom if denom != 0.0 else 1)


def f_beta(precision: float, recall: float, beta: float) -> float:
    """F-beta: (1 + b²)·P·R / (b²·P + R), 0.0 when the denominator is zero."""
    b2 = beta * beta
    return safe_div((1 + b2) * precision * recall, b2 * precision + recall)


def mean(values: Iterable[float]) -> float:
    """Arithmetic mean, 0.0 for no values (macro F over no labels)."""
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def prf_of_counts(counts, family: str):
    """P, R and F of count rows, one ratio per row, computed as the count
    records compute them (so bit-equal to `SchemeResult.precision` & co.).

    counts (numpy.ndarray): (..., 5) SemEval counts (cor, inc, par, mis,
        spu) when family is "semeval", (..., 3) (tp, fp, fn) when "prf".
    RETURNS (Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]): P, R, F,
        0.0 where a denominator is zero.
    """
    import numpy

    counts = numpy.asarray(counts, dtype=numpy.float64)
    if family == "semeval":
        cor, inc, par, mis, spu = (counts[..., i] for i in range(5))
        credit = cor + 0.5 * par
        predicted = cor + inc + par + spu
        possible = cor + inc + par + mis
    elif family == "prf":
        tp, fp, fn = (counts[..., i] for i in range(3))
        credit, predicted, possible = tp, tp + fp, tp + fn
    else:
        raise ValueError(f"Unknown count family {family!r}. Valid families: semeval, prf")
    precision = _divide(credit, predicted)
    recall = _divide(credit, possible)
    total = precision + recall
    f = 2 * _divide(precision * recall, total)
    return precision, recall, f


def _divide(numerator, denominator):
    """numerator / denominator element-wise, 0.0 where the denominator is 0."""
    import numpy

    safe = numpy.where(denominator == 0, 1.0, denominator)
    return numpy.where(denominator == 0, 0.0, numerator / safe)
