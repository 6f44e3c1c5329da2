"""`sweep`: every scheme's P, R and F at every threshold of scored
predictions, from one pass, with AP, best thresholds and calibration."""

from itertools import chain
from operator import itemgetter
from typing import Any, Dict, Iterable, List, Optional, Sequence, Unpack, cast

import numpy

from ..engine.outcomes import OutcomeBlock
from ..engine.scorer import evaluate_spans
from ..exceptions import SettingError
from ..keyword_types import SweepDoorKeywords
from ..keywords import built, front_door, refuse_set
from ..notes import label_warnings, spans_counted, unmapped_note, warn_each
from ..signature import make_signature
from ..settings import SCHEMES, UNITS, AnalysisSettings, MatchSettings, check_unit
from ..spans import Span, checked_offsets, read_doc_spans, spacy_span_tuples
from .curves import (
    CLUSTER_SCHEMES,
    Flat,
    Tally,
    closed_form_tally,
    exact_correct,
    label_level_sums,
    overlaps_gold,
    run_scorers,
    score_cluster_steps,
    strict_correct,
)
from .results import BestThreshold, LabelCurve, SchemeSweep, SweepResult
from .flatdocs import batch_of, correct_preds, self_overlapping
from .iou import iou_tally
from .keys import as_int64, label_ids, pack_keys, unique_first
from .mapped import map_columns
from .scored import flat_scored
from .measures import average_precision, best_threshold, calibration, cumulative, level_positions, prf
from .settings import SweepSettings

#: What a sweep does not apply of the settings objects it takes.
UNUSED = {
    "match": ("spans_key", "labels", "beta", "view", "symmetric", "relation_labels"),
    "analysis": ("confidence", "method", "seed", "resample_by", "baseline", "test", "alpha", "by", "buckets"),
}

#: Calibration bins: equal-width over [0, 1], bin = min(floor(10 * score), 9).


@front_door(match=MatchSettings, sweep=SweepSettings, analysis=AnalysisSettings)
def sweep(
    gold: Iterable[Iterable[Any]],
    pred: Iterable[Iterable[Any]],
    *,
    match: Optional[MatchSettings] = None,
    sweep: Optional[SweepSettings] = None,
    analysis: Optional[AnalysisSettings] = None,
    **keywords: Unpack[SweepDoorKeywords],
) -> SweepResult:
    """P, R and F of every scheme at every threshold of scored predictions.

    gold (Iterable): One list of gold spans per document, as evaluate_spans
        takes them.
    pred (Iterable): One list of scored predictions per document, in the
        same order: (start, end, label, score) tuples, dicts with "score",
        or a SpanGroup with attrs["scores"]. A span predicted twice counts
        once, with its highest score.
    match (Optional[MatchSettings]): How spans are matched; or its fields
        as keywords: schemes (required: strict, exact, partial, type, iou,
        overlap), unit (default token), iou_threshold, overlap_threshold,
        min_overlap, label_map, map_unlisted. labels, spans_key, beta,
        view and the relation settings do not apply (a SettingError).
    sweep (Optional[SweepSettings]): Which thresholds to report; or its
        fields as keywords: thresholds, n_thresholds, grid, n_trials; by
        default every distinct score.
    analysis (Optional[AnalysisSettings]): bootstrap (resamples of the
        bootstrap interval of F at each best threshold; None: no
        intervals), or it as a keyword; nothing else applies.
        A keyword given beside its object is written over its field.
    label_map (Mapping): Labels renamed, merged or dropped before the
        sweep, as evaluate_spans takes it (a dict, a LabelMap or the path
        of a JSON file of one); spans it puts at one place with one label
        count once, a prediction with the highest score of those merged.
        Labels it does not name are kept, counted in the result's
        `unmapped` and named in a warning, or an error with
        map_unlisted="error".
    RETURNS (SweepResult): scheme -> SchemeSweep, and the signature.

    At threshold t the predictions with score >= t are scored exactly as
    evaluate_spans scores them. Above the highest score nothing is
    predicted: P = R = F = 0. AP is taken over the distinct scores; when
    thresholds are asked for (thresholds, n_thresholds, grid) and every
    score is at or above the lowest of them, the predictions are scored at
    those thresholds only, and AP is taken over them. A predicted label that
    never occurs in the gold is in the result's `warnings` (with the
    closest gold label) and given as a UserWarning.
    """
    match, settings, analysis = built(match), built(sweep), built(analysis)
    for obj, unused in ((match, UNUSED["match"]), (analysis, UNUSED["analysis"])):
        refuse_set(obj, unused, "a sweep")
    unit = match.unit or UNITS[0]
    check_unit(unit)
    if match.string_schemes:
        raise SettingError(
            f"the scheme {match.string_schemes[0]!r} compares span texts; a sweep scores span offsets: name span "
            f"schemes only: {', '.join(SCHEMES)}",
            "schemes",
        )
    if match.link_schemes:
        raise SettingError(
            f"the scheme {match.link_schemes[0]!r} compares knowledge-base ids, which a sweep does not read: it "
            "sweeps the scores of spans, their curves, AP and calibration judged by offsets and labels; score "
            "linked spans at a threshold by keeping the predictions scored at or above it (compare, "
            f"evaluate_links). Name span schemes only: {', '.join(SCHEMES)}",
            "schemes",
        )
    gold_docs = [spacy_span_tuples(d, unit) for d in gold]
    pred_docs = list(pred)
    gold_columns = flat_gold(gold_docs, unit)
    pred_columns = flat_scored(pred_docs, unit)
    if len(gold_docs) != len(pred_docs):
        raise ValueError(
            f"Unequal numbers of documents: {len(gold_docs)} gold and {len(pred_docs)} predicted. "
            "gold and pred must list the same documents in the same order."
        )
    result = sweep_columns(gold_columns, pred_columns, len(gold_docs), match, settings, analysis, unit)
    warn_each(result.warnings)
    return result


def sweep_columns(
    gold_columns,
    pred_columns,
    n_docs: int,
    match: MatchSettings,
    settings: SweepSettings,
    analysis: AnalysisSettings,
    unit: str,
) -> SweepResult:
    """`sweep` on read spans: gold (document, start, end, label) columns and
    scored (document, start, end, label, score) columns, spans checked
    (the match settings' label map not yet applied)."""
    unmapped: Dict[str, Dict[str, int]] = {}
    notes: List[str] = []
    if match.label_map is not None:
        given = len(pred_columns[0])
        gold_columns, pred_columns, unmapped = map_columns(
            gold_columns, pred_columns, match.label_map, match.map_unlisted == "error"
        )
        if given and not len(pred_columns[0]):
            notes.append(f"the label map drops every prediction ({spans_counted(given)}): nothing is left to sweep")
    labels = sorted(set(gold_columns[3]) | set(pred_columns[3]))
    label_id = {label: i for i, label in enumerate(labels)}
    gold, _ = _unique(gold_columns[:4], None, label_id)
    pred, scores = _unique(pred_columns[:4], numpy.asarray(pred_columns[4], dtype=numpy.float64), label_id)
    points = settings.grid_points()
    if points is not None and len(scores) and scores.min() >= points[0] and len(numpy.unique(points)) == len(points):
        # Thresholds asked for: a prediction's level is the highest of them at or
        # below its score, so the predictions are scored at those thresholds
        # only (a dense span categorizer has a distinct score for nearly every
        # suggested span); the curve at each of them is the same.
        levels = numpy.sort(points)
        pred = pred._replace(level=numpy.searchsorted(levels, scores, side="right") - 1)
    else:
        levels = numpy.unique(scores)
        pred = pred._replace(level=numpy.searchsorted(levels, scores))
    n_labels, n_levels = len(labels), len(levels)
    strict = strict_correct(gold, pred) if {"strict", "exact"} & set(match.schemes) else None
    iou = iou_tally(gold, pred, n_labels, n_levels, match.iou_threshold) if "iou" in match.schemes else None
    tallies = scheme_tallies(gold, pred, match, labels, n_levels, strict, None if iou is None else iou[0])
    correct = correct_at_lowest(gold, pred, n_docs, match, labels, strict, None if iou is None else iou[1])
    n_gold = len(gold.doc)
    gold_of_label = numpy.bincount(gold.label, minlength=n_labels)
    out = {}
    for scheme in match.schemes:
        tally = tallies[scheme]
        credit, predicted = cumulative(tally.credit), cumulative(tally.predicted)
        ap = average_precision(credit, predicted, n_gold)
        reported = levels if points is None else points
        at = slice(0, n_levels) if points is None else level_positions(levels, reported)  # every level: its own
        p, r, f = prf(credit[at], predicted[at], n_gold)
        best = best_threshold(reported, f, settings.ties)
        if best is not None and analysis.bootstrap is not None:
            best = _with_interval(best, scheme, gold, pred, scores, n_docs, match, analysis, labels)
        per_label, per_label_best = {}, {}
        label_p, label_r, label_f = prf(
            cumulative(tally.label_credit)[:, at], cumulative(tally.label_predicted)[:, at], gold_of_label[:, None]
        )  # every label at once, row by row
        for i, label in enumerate(labels):
            per_label[label] = LabelCurve(label_p[i], label_r[i], label_f[i])
            label_best = best_threshold(reported, label_f[i], settings.ties)
            if label_best is not None:
                per_label_best[label] = label_best
        out[scheme] = SchemeSweep(
            scheme,
            numpy.asarray(reported, dtype=numpy.float64),
            p,
            r,
            f,
            ap,
            best,
            per_label,
            per_label_best,
            calibration(scores, correct[scheme]),
        )
    signature = make_signature(
        match,
        unit=unit,
        analysis=analysis if analysis.bootstrap is not None else None,
        sweep=dict(settings.to_dict(), ties=settings.ties),
    )
    pred_of_label = numpy.bincount(pred.label, minlength=n_labels)
    found = label_warnings(
        {label: int(gold_of_label[i]) for i, label in enumerate(labels) if gold_of_label[i]},
        {label: int(pred_of_label[i]) for i, label in enumerate(labels) if pred_of_label[i]},
    )
    note = unmapped_note(unmapped)
    notes.extend(() if note is None else (note,))
    return SweepResult(out, signature, tuple(found) + tuple(notes), unmapped)


def flat_gold(docs: Sequence[Any], unit: str):
    """The gold spans of every document as (document, start, end, label)
    columns, checked (all at once for plain tuples, on arrays; else span by
    span, to name a bad one)."""
    lengths = [len(d) if isinstance(d, (list, tuple)) else -1 for d in docs]
    if min(lengths, default=0) >= 0:
        flat = list(chain.from_iterable(docs))
        if set(map(type, flat)) <= {tuple} and set(map(len, flat)) <= {3}:
            starts, ends, names = (list(map(itemgetter(i), flat)) for i in range(3))
            bad, start, end = checked_offsets(starts, ends, names)
            if bad is None and start is not None and end is not None:
                return numpy.repeat(numpy.arange(len(docs)), lengths), start, end, names
    read = [read_doc_spans(d, "gold", i, unit) for i, d in enumerate(docs)]
    return (
        [i for i, d in enumerate(read) for _ in d],
        [s[0] for d in read for s in d],
        [s[1] for d in read for s in d],
        [s[2] for d in read for s in d],
    )


def _unique(columns, scores, label_id):
    """Flat spans sorted by (document, start, end, label), each once (with
    its highest score); and the scores in that order."""
    doc, start, end = (as_int64(c) for c in columns[:3])
    label = label_ids(columns[3], label_id)
    [keys] = pack_keys((doc, start, end, label))
    order, first = unique_first(keys, scores)
    flat = Flat(doc[order][first], start[order][first], end[order][first], label[order][first])
    return flat, None if scores is None else scores[order][first]


def scheme_tallies(
    gold: Flat,
    pred: Flat,
    match: MatchSettings,
    labels: Sequence[str],
    n_levels: int,
    strict_hits: Optional[numpy.ndarray] = None,
    iou: Optional[Tally] = None,
) -> Dict[str, Tally]:
    """Per scheme, what each score level adds (see curves.py); strict_hits:
    strict_correct, if known; iou: the iou tally, if known (iou.py)."""
    n_labels = len(labels)
    out: Dict[str, Tally] = {} if iou is None else {"iou": iou}
    if "strict" in match.schemes or "exact" in match.schemes:
        hits = strict_correct(gold, pred) if strict_hits is None else strict_hits
        strict = closed_form_tally(hits, pred, n_labels, n_levels)
        if "strict" in match.schemes:
            out["strict"] = strict
        if "exact" in match.schemes:
            overall = closed_form_tally(exact_correct(gold, pred), pred, n_labels, n_levels)
            out["exact"] = overall._replace(label_credit=strict.label_credit, label_predicted=strict.label_predicted)
    cluster_schemes = [s for s in CLUSTER_SCHEMES if s in match.schemes and s not in out]
    if not cluster_schemes:
        return out
    settings = _match_settings(match)
    overall = _view_tally(
        gold,
        pred,
        numpy.zeros(len(gold.doc), dtype=numpy.int64),
        numpy.zeros(len(pred.doc), dtype=numpy.int64),
        cluster_schemes,
        labels,
        settings,
        1,
        n_levels,
    )
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
    spurious = label_level_sums(view_pred[alone], cast(numpy.ndarray, pred.level)[alone], None, n_views, n_levels)
    rows = score_cluster_steps(gold, pred.select(near), view_gold, view_pred[near], schemes, labels, settings)
    out = {}
    for scheme in schemes:
        credit = label_level_sums(rows.view, rows.level, rows.credit[scheme], n_views, n_levels)
        predicted = label_level_sums(rows.view, rows.level, rows.predicted[scheme], n_views, n_levels) + spurious
        out[scheme] = (credit, predicted)
    return out


def correct_at_lowest(
    gold: Flat,
    pred: Flat,
    n_docs: int,
    match: MatchSettings,
    labels,
    strict: Optional[numpy.ndarray] = None,
    iou: Optional[numpy.ndarray] = None,
) -> Dict[str, numpy.ndarray]:
    """Per scheme, whether each prediction (in flat order) is correct (COR,
    TP) with every prediction present, as SpanScorer judges it; under
    `iou`, a prediction of a TP group. strict, iou: what strict_correct
    and iou_tally found, if known."""
    out = {} if iou is None else {"iou": iou}
    if "strict" in match.schemes:
        out["strict"] = strict_correct(gold, pred) if strict is None else strict
    others = [s for s in match.schemes if s not in out]
    if not others:
        return out
    settings = _match_settings(match)
    alone = self_overlapping(gold, pred, n_docs)  # scored by SpanScorer, the others on one Batch
    if "iou" in others:  # iou's groups were too large for iou.py: every document by SpanScorer
        alone[:] = True
    on_batch = ~alone[pred.doc]
    batch = batch_of(gold.select(~alone[gold.doc]), pred.select(on_batch), n_docs, len(labels))
    lonely = numpy.flatnonzero(alone)
    renumber = numpy.full(n_docs, -1, dtype=numpy.int64)
    renumber[lonely] = numpy.arange(len(lonely))
    g, p = gold.select(alone[gold.doc]), pred.select(~on_batch)
    runs = (
        run_scorers(
            g._replace(doc=renumber[g.doc]),
            p._replace(doc=renumber[p.doc]),
            len(lonely),
            others,
            labels,
            settings,
            keep_outcomes=True,
        )
        if len(lonely)
        else []
    )
    label_of = {label: i for i, label in enumerate(labels)}
    for scheme in others:
        correct = numpy.zeros(len(pred.doc), dtype=bool)
        if on_batch.any():
            correct[on_batch] = correct_preds(batch, scheme, settings)
        found: List[Sequence[numpy.ndarray]] = []
        for scorer, docs in runs:
            docs = lonely[docs]
            for offset, part in scorer.outcome_parts(scheme):
                if isinstance(part, OutcomeBlock):
                    sizes = numpy.diff(part.pred_ptr)
                    owner = numpy.repeat(numpy.arange(len(part.doc)), sizes)
                    hit = part.code[owner] == 0  # COR, TP
                    rows = part.pred[hit].astype(numpy.int64)
                    found.append((docs[part.doc[owner][hit] + offset], rows[:, 0], rows[:, 1], rows[:, 2]))
                else:
                    spans = [
                        (int(docs[o.doc + offset]), s.start, s.end, label_of[s.label])
                        for o in part
                        if o.count in ("cor", "tp")
                        for s in o.pred
                    ]
                    found.append(tuple(as_int64(c) for c in zip(*spans)) if spans else ())
        if any(found):
            columns = [numpy.concatenate([f[i] for f in found if f]) for i in range(4)]
            flat_keys, hits = pack_keys((pred.doc, pred.start, pred.end, pred.label), columns)  # flat order: sorted
            correct[numpy.searchsorted(flat_keys, hits)] = True
        out[scheme] = correct
    return out


def doc_lists(flat: Flat, n_docs: int, labels) -> List[List[Span]]:
    """The spans of each document as sorted lists of Span tuples."""
    out: List[List[Span]] = [[] for _ in range(n_docs)]
    for doc, start, end, label in zip(flat.doc.tolist(), flat.start.tolist(), flat.end.tolist(), flat.label.tolist()):
        out[doc].append(Span(start, end, labels[label]))
    return out


def _match_settings(match: MatchSettings) -> Dict[str, Any]:
    return {name: getattr(match, name) for name in ("iou_threshold", "overlap_threshold", "min_overlap")}


def _with_interval(
    best: BestThreshold,
    scheme: str,
    gold: Flat,
    pred: Flat,
    scores,
    n_docs: int,
    match: MatchSettings,
    analysis: AnalysisSettings,
    labels,
) -> BestThreshold:
    """best with the bootstrap interval of F at its threshold."""
    from ..stats.bootstrap import bootstrap_ci

    kept = pred.select(scores >= best.threshold)
    result = evaluate_spans(
        doc_lists(gold, n_docs, labels),
        doc_lists(kept, n_docs, labels),
        schemes=[scheme],
        per_doc=True,
        **_match_settings(match),
    )
    interval = bootstrap_ci(
        result[scheme],
        n_resamples=cast(int, analysis.bootstrap),
        confidence=analysis.confidence,
        seed=analysis.seed,
        method=analysis.method,
    )
    return BestThreshold(best.threshold, best.f1, interval.f)
