"""What a sweep computes from its cumulative counts: P, R and F at every
threshold, average precision, the best threshold, and calibration bins."""

from typing import Optional

import numpy

from .results import BestThreshold, Calibration, CalibrationBin

N_BINS = 10


def cumulative(per_level: numpy.ndarray) -> numpy.ndarray:
    """At each level (the last axis), the sum over that level and every
    higher one, with a 0 after the highest (nothing predicted)."""
    summed = numpy.cumsum(per_level[..., ::-1], axis=-1)[..., ::-1]
    return numpy.concatenate([summed, numpy.zeros(per_level.shape[:-1] + (1,))], axis=-1)


def level_positions(levels: numpy.ndarray, points: numpy.ndarray) -> numpy.ndarray:
    """For each threshold, the lowest level kept (score >= threshold);
    len(levels) when none is."""
    return numpy.searchsorted(levels, points, side="left")


def prf(credit: numpy.ndarray, predicted: numpy.ndarray, possible):
    """P, R, F as the count records compute them (0.0 where undefined);
    possible: a number, or one per row of 2-D counts."""
    precision = divide_or_zero(credit, predicted)
    recall = divide_or_zero(credit, numpy.broadcast_to(numpy.asarray(possible, dtype=numpy.float64), credit.shape))
    total = precision + recall
    return precision, recall, 2 * divide_or_zero(precision * recall, total)


def divide_or_zero(numerator, denominator):
    """numerator / denominator, 0.0 where the denominator is 0."""
    out = numpy.zeros(numpy.broadcast(numerator, denominator).shape)
    return numpy.divide(numerator, denominator, out=out, where=denominator != 0)


def average_precision(credit: numpy.ndarray, predicted: numpy.ndarray, n_gold: int) -> float:
    """AP = sum over the distinct scores, highest first, of (R_k - R_k-1) * P_k,
    R_0 = 0, recall over every gold span."""
    p, r, _ = prf(credit[:-1][::-1], predicted[:-1][::-1], n_gold)
    return float(numpy.sum(numpy.diff(numpy.r_[0.0, r]) * p))


def best_threshold(thresholds: numpy.ndarray, f: numpy.ndarray, ties: str) -> Optional[BestThreshold]:
    """The threshold of highest F (ties: the lowest or the highest); None
    when F is 0 at every threshold."""
    if not len(f) or f.max() <= 0:
        return None
    at = numpy.flatnonzero(f == f.max())
    i = int(at[0] if ties == "lowest" else at[-1])
    return BestThreshold(float(thresholds[i]), float(f[i]))


def calibration(scores: numpy.ndarray, correct: numpy.ndarray) -> Calibration:
    """Bins of equal width (bin = min(floor(10 * score), 9)): mean score,
    share correct, count; ECE = sum (n_bin / n) * |share - mean|."""
    which = numpy.minimum(numpy.floor(scores * N_BINS).astype(numpy.int64), N_BINS - 1)
    count = numpy.bincount(which, minlength=N_BINS)
    score_sum = numpy.bincount(which, weights=scores, minlength=N_BINS)
    correct_sum = numpy.bincount(which, weights=correct.astype(numpy.float64), minlength=N_BINS)
    bins, ece, n = [], 0.0, len(scores)
    mean: Optional[float]
    share: Optional[float]
    for i in range(N_BINS):
        if count[i]:
            mean, share = float(score_sum[i] / count[i]), float(correct_sum[i] / count[i])
            ece += count[i] / n * abs(share - mean)
        else:
            mean = share = None
        bins.append(CalibrationBin(i / N_BINS, (i + 1) / N_BINS, int(count[i]), mean, share))
    return Calibration(tuple(bins), float(ece))
