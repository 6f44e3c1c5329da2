"""`sweep`: every scheme's P, R and F at every threshold of scored
predictions, from one pass, with AP, best thresholds and calibration."""
from typing import Any, Dict, Iterable, List, Optional, Sequence

import numpy

from ..engine.matching import SEMEVAL_RULES
from ..engine.scorer import evaluate_spans
from ..results import make_signature
from ..settings import UNITS, AnalysisSettings, MatchSettings, check_unit
from ..spans import read_doc_spans, spacy_span_tuples
from .curves import (
    CLUSTER_SCHEMES, Flat, Tally, closed_form_tally, exact_correct, label_level_sums, level_sums, overlaps_gold,
    score_cluster_steps, strict_correct,
)
from .results import BestThreshold, Calibration, CalibrationBin, LabelCurve, SchemeSweep, SweepResult
from .scored import Scored, read_scored_docs
from .settings import SweepSettings

#: Calibration bins: equal-width over [0, 1], bin = min(floor(10 * score), 9).
N_BINS = 10


def sweep(
    gold: Iterable[Iterable[Any]],
    pred: Iterable[Iterable[Any]],
    *,
    schemes: Optional[Sequence[str]] = None,
    unit: str = UNITS[0],
    thresholds: Optional[Sequence[float]] = None,
    n_thresholds: Optional[int] = None,
    grid: Optional[str] = None,
    n_trials: int = SweepSettings.n_trials,
    bootstrap: Optional[int] = None,
    iou_threshold: float = MatchSettings.iou_threshold,
    overlap_threshold: float = MatchSettings.overlap_threshold,
    min_overlap: Optional[float] = MatchSettings.min_overlap,
) -> SweepResult:
    """P, R and F of every scheme at every threshold of scored predictions.

    gold (Iterable): One list of gold spans per document, as evaluate_spans
        takes them.
    pred (Iterable): One list of scored predictions per document, in the
        same order: (start, end, label, score) tuples, dicts with "score",
        or a SpanGroup with attrs["scores"]. A span predicted twice counts
        once, with its highest score.
    schemes (Sequence[str]): Required: strict, exact, partial, type, iou,
        overlap.
    thresholds, n_thresholds, grid, n_trials: Which thresholds to report
        (SweepSettings); by default every distinct score.
    bootstrap (Optional[int]): Resamples of the bootstrap interval of F at
        each best threshold; None: no intervals.
    RETURNS (SweepResult): scheme -> SchemeSweep, and the signature.

    At threshold t the predictions with score >= t are scored exactly as
    evaluate_spans scores them. Above the highest score nothing is
    predicted: P = R = F = 0. AP is taken over the distinct scores whatever
    thresholds are reported.
    """
    check_unit(unit)
    match = MatchSettings(schemes, iou_threshold=iou_threshold, overlap_threshold=overlap_threshold,
                          min_overlap=min_overlap)
    settings = SweepSettings(None if thresholds is None else tuple(thresholds), n_thresholds, grid, n_trials)
    analysis = AnalysisSettings(bootstrap=bootstrap)
    gold_docs = [read_doc_spans(spacy_span_tuples(d, unit), "gold", i, unit) for i, d in enumerate(gold)]
    pred_docs = read_scored_docs(list(pred), unit)
    if len(gold_docs) != len(pred_docs):
        raise ValueError(
            f"Unequal numbers of documents: {len(gold_docs)} gold and {len(pred_docs)} predicted. "
            "gold and pred must list the same documents in the same order."
        )
    return sweep_spans(gold_docs, pred_docs, match, settings, analysis, unit)


def sweep_spans(gold_docs, pred_docs: List[List[Scored]], match: MatchSettings, settings: SweepSettings,
                analysis: AnalysisSettings, unit: str) -> SweepResult:
    """`sweep` on read documents: sorted gold Span lists and sorted scored
    predictions (each span once)."""
    labels = sorted({s[2] for d in gold_docs for s in d} | {s[2] for d in pred_docs for s, _ in d})
    label_id = {label: i for i, label in enumerate(labels)}
    gold = _flat([[s for s in d] for d in gold_docs], label_id)
    scores = numpy.array([score for d in pred_docs for _, score in d], dtype=numpy.float64)
    levels = numpy.unique(scores)
    pred = _flat([[s for s, _ in d] for d in pred_docs], label_id)._replace(level=numpy.searchsorted(levels, scores))
    n_labels, n_levels = len(labels), len(levels)
    tallies = scheme_tallies(gold, pred, match, labels, n_levels)
    correct = correct_at_lowest(gold_docs, pred_docs, gold, pred, match)
    points = settings.grid_points()
    n_gold = len(gold.doc)
    gold_of_label = numpy.bincount(gold.label, minlength=n_labels)
    out = {}
    for scheme in match.schemes:
        tally = tallies[scheme]
        credit, predicted = _cumulative(tally.credit), _cumulative(tally.predicted)
        ap = average_precision(credit, predicted, n_gold)
        reported = levels if points is None else points
        at = _positions(levels, reported)
        p, r, f = prf(credit[at], predicted[at], n_gold)
        best = best_threshold(reported, f, settings.ties)
        if best is not None and analysis.bootstrap is not None:
            best = _with_interval(best, scheme, gold_docs, pred_docs, match, analysis)
        per_label, per_label_best = {}, {}
        for i, label in enumerate(labels):
            lp, lr, lf = prf(_cumulative(tally.label_credit[i])[at], _cumulative(tally.label_predicted[i])[at],
                             int(gold_of_label[i]))
            per_label[label] = LabelCurve(lp, lr, lf)
            label_best = best_threshold(reported, lf, settings.ties)
            if label_best is not None:
                per_label_best[label] = label_best
        out[scheme] = SchemeSweep(
            scheme, numpy.asarray(reported, dtype=numpy.float64), p, r, f, ap, best, per_label, per_label_best,
            calibration(scores, correct[scheme]),
        )
    signature = make_signature(match, unit=unit, analysis=analysis if analysis.bootstrap is not None else None)
    signature["sweep"] = dict(settings.to_dict(), ties=settings.ties)
    return SweepResult(out, signature)


def scheme_tallies(gold: Flat, pred: Flat, match: MatchSettings, labels: Sequence[str], n_levels: int) -> Dict[str, Tally]:
    """Per scheme, what each score level adds (see curves.py)."""
    n_labels = len(labels)
    out: Dict[str, Tally] = {}
    strict = None
    if "strict" in match.schemes or "exact" in match.schemes:
        strict = closed_form_tally(strict_correct(gold, pred), pred, n_labels, n_levels)
    if "strict" in match.schemes:
        out["strict"] = strict
    if "exact" in match.schemes:
        overall = closed_form_tally(exact_correct(gold, pred), pred, n_labels, n_levels)
        out["exact"] = overall._replace(label_credit=strict.label_credit, label_predicted=strict.label_predicted)
    cluster_schemes = [s for s in CLUSTER_SCHEMES if s in match.schemes]
    if not cluster_schemes:
        return out
    settings = {name: getattr(match, name) for name in ("iou_threshold", "overlap_threshold", "min_overlap")}
    overall = _view_tally(gold, pred, numpy.zeros(len(gold.doc), dtype=numpy.int64),
                          numpy.zeros(len(pred.doc), dtype=numpy.int64), cluster_schemes, labels, settings, 1, n_levels)
    filtered = [s for s in cluster_schemes if s != "iou"]
    by_label = {}
    if filtered:  # each label's gold and predictions
        by_label.update(_view_tally(gold, pred, gold.label, pred.label, filtered, labels, settings, n_labels, n_levels))
    if "iou" in cluster_schemes:  # every gold span, each label's predictions
        copies = numpy.repeat(numpy.arange(len(gold.doc)), n_labels)
        every_gold = gold.select(copies)
        view = numpy.tile(numpy.arange(n_labels), len(gold.doc))
        by_label.update(_view_tally(every_gold, pred, view, pred.label, ["iou"], labels, settings, n_labels, n_levels))
    for scheme in cluster_schemes:
        credit, predicted = overall[scheme]
        label_credit, label_predicted = by_label[scheme]
        out[scheme] = Tally(credit[0], predicted[0], label_credit, label_predicted)
    return out


def _view_tally(gold: Flat, pred: Flat, view_gold, view_pred, schemes, labels, settings, n_views, n_levels):
    """Per scheme, (credit, predicted) added per view and level
    (n_views x n_levels), the views swept side by side."""
    near = overlaps_gold(gold, pred, view_gold, view_pred)
    alone = ~near
    spurious = label_level_sums(view_pred[alone], pred.level[alone], None, n_views, n_levels)
    rows = score_cluster_steps(gold, pred.select(near), view_gold, view_pred[near], schemes, labels, settings)
    out = {}
    for scheme in schemes:
        credit = label_level_sums(rows.view, rows.level, rows.credit[scheme], n_views, n_levels)
        predicted = label_level_sums(rows.view, rows.level, rows.predicted[scheme], n_views, n_levels) + spurious
        out[scheme] = (credit, predicted)
    return out


def correct_at_lowest(gold_docs, pred_docs, gold: Flat, pred: Flat, match: MatchSettings) -> Dict[str, numpy.ndarray]:
    """Per scheme, whether each prediction (in flat order) is correct (COR,
    TP) with every prediction present, as evaluate_spans judges it; under
    `iou`, a prediction of a TP group."""
    out = {}
    if "strict" in match.schemes:
        out["strict"] = strict_correct(gold, pred)
    others = [s for s in match.schemes if s != "strict"]
    if not others:
        return out
    spans = [[s for s, _ in d] for d in pred_docs]
    results = evaluate_spans(gold_docs, spans, schemes=others, keep_outcomes=True,
                             **{k: getattr(match, k) for k in ("iou_threshold", "overlap_threshold", "min_overlap")})
    index = {}
    for doc, doc_spans in enumerate(spans):
        for span in doc_spans:
            index[(doc, span)] = len(index)
    for scheme in others:
        correct = numpy.zeros(len(index), dtype=bool)
        for outcome in results[scheme].outcomes:
            if outcome.count in ("cor", "tp"):
                for span in outcome.pred:
                    correct[index[(outcome.doc, span)]] = True
        out[scheme] = correct
    return out


def _flat(docs, label_id) -> Flat:
    flat = [s for d in docs for s in d]
    return Flat(
        numpy.repeat(numpy.arange(len(docs)), [len(d) for d in docs]).astype(numpy.int64),
        numpy.array([s[0] for s in flat], dtype=numpy.int64),
        numpy.array([s[1] for s in flat], dtype=numpy.int64),
        numpy.array([label_id[s[2]] for s in flat], dtype=numpy.int64),
    )


def _cumulative(per_level: numpy.ndarray) -> numpy.ndarray:
    """At each level, the sum over that level and every higher one, with a
    0 after the highest (nothing predicted)."""
    return numpy.r_[numpy.cumsum(per_level[::-1])[::-1], 0.0]


def _positions(levels: numpy.ndarray, points: numpy.ndarray) -> numpy.ndarray:
    """For each threshold, the lowest level kept (score >= threshold);
    len(levels) when none is."""
    return numpy.searchsorted(levels, points, side="left")


def prf(credit: numpy.ndarray, predicted: numpy.ndarray, possible: int):
    """P, R, F as the count records compute them (0.0 where undefined)."""
    precision = _divide(credit, predicted)
    recall = _divide(credit, numpy.full(len(credit), float(possible)))
    total = precision + recall
    return precision, recall, 2 * _divide(precision * recall, total)


def _divide(numerator, denominator):
    safe = numpy.where(denominator == 0, 1.0, denominator)
    return numpy.where(denominator == 0, 0.0, numerator / safe)


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
    for i in range(N_BINS):
        if count[i]:
            mean, share = float(score_sum[i] / count[i]), float(correct_sum[i] / count[i])
            ece += count[i] / n * abs(share - mean)
        else:
            mean = share = None
        bins.append(CalibrationBin(i / N_BINS, (i + 1) / N_BINS, int(count[i]), mean, share))
    return Calibration(tuple(bins), float(ece))


def _with_interval(best: BestThreshold, scheme: str, gold_docs, pred_docs, match: MatchSettings,
                   analysis: AnalysisSettings) -> BestThreshold:
    """best with the bootstrap interval of F at its threshold."""
    from ..stats.bootstrap import bootstrap_ci

    kept = [[s for s, score in d if score >= best.threshold] for d in pred_docs]
    result = evaluate_spans(gold_docs, kept, schemes=[scheme], per_doc=True,
                            **{k: getattr(match, k) for k in ("iou_threshold", "overlap_threshold", "min_overlap")})
    interval = bootstrap_ci(result[scheme], n_resamples=analysis.bootstrap, confidence=analysis.confidence,
                            seed=analysis.seed, method=analysis.method)
    return BestThreshold(best.threshold, best.f1, interval.f)
