"""Credit and predicted counts of every scheme at every distinct score.

At threshold t the predictions are those with score >= t. Each scheme's
P and R at t are credit(t) / predicted(t) and credit(t) / n_gold, so the
curves are cumulative sums over the distinct scores, highest first, of
what each score level adds:

- `strict`: a prediction is correct or not whatever else is predicted
  (gold spans are distinct), so each prediction adds its own credit.
- `exact`: per boundaries, the k-th best-scored prediction is correct
  while k <= the number of gold spans with those boundaries.
- `partial`, `type`, `iou`, `overlap`: what a prediction counts as
  depends on the predictions around it. A prediction that overlaps no gold
  span adds one spurious prediction under every scheme. The others are
  grouped into clusters (gold spans and predictions linked by overlap);
  clusters do not interact, so each cluster is scored by the package's
  engine (`SpanScorer`) once per score level at which it gains predictions,
  and the difference from its previous level is added at that level.
  Every other cluster keeps its counts, so nothing else is scored again.

Per label, each scheme is swept on its own view as the engine counts
labels: the label-filtered gold and predictions (SemEval schemes,
`overlap`), or every gold span and the label's predictions (`iou`, whose
per-label counts are the counts of that label's predictions).
"""

from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple, cast

import numpy

from ..engine.columns import Side, overlapping_docs
from ..engine.matching import SEMEVAL_RULES
from ..engine.scorer import SpanScorer
from ..spans import Span
from .flatdocs import batch_of, doc_credit, self_overlapping
from .keys import exact_ranks_correct, member, pack_keys

#: The schemes swept on clusters (the others have closed forms).
CLUSTER_SCHEMES: Tuple[str, ...] = ("partial", "type", "iou", "overlap")


class Flat(NamedTuple):
    """Spans of a corpus on arrays: document, start, end, label id (and,
    for predictions, the level: index of the score among the distinct
    scores, ascending)."""

    doc: numpy.ndarray
    start: numpy.ndarray
    end: numpy.ndarray
    label: numpy.ndarray
    level: Optional[numpy.ndarray] = None

    def select(self, keep: numpy.ndarray) -> "Flat":
        level = None if self.level is None else self.level[keep]
        return Flat(self.doc[keep], self.start[keep], self.end[keep], self.label[keep], level)


class Tally(NamedTuple):
    """What each score level adds: credit and predicted, per level
    (ascending), overall and per label (n_labels x n_levels)."""

    credit: numpy.ndarray
    predicted: numpy.ndarray
    label_credit: numpy.ndarray
    label_predicted: numpy.ndarray


def level_sums(level: numpy.ndarray, weights: numpy.ndarray, n_levels: int) -> numpy.ndarray:
    return numpy.bincount(level, weights=weights, minlength=n_levels).astype(numpy.float64)


def label_level_sums(label, level, weights, n_labels: int, n_levels: int) -> numpy.ndarray:
    flat = numpy.bincount(label * n_levels + level, weights=weights, minlength=n_labels * n_levels)
    return flat.astype(numpy.float64).reshape(n_labels, n_levels)


def strict_correct(gold: Flat, pred: Flat) -> numpy.ndarray:
    """Whether each prediction has a gold span of the same boundaries and
    label in its document (gold sorted, each span once)."""
    gold_keys, pred_keys = pack_keys(
        (gold.doc, gold.start, gold.end, gold.label), (pred.doc, pred.start, pred.end, pred.label)
    )
    return member(gold_keys, pred_keys)


def exact_correct(gold: Flat, pred: Flat) -> numpy.ndarray:
    """Whether each prediction adds a correct one under `exact` at its own
    score: it ranks (by score, highest first) within the predictions of its
    boundaries no lower than the number of gold spans of those boundaries
    (gold sorted)."""
    gold_bounds, pred_bounds = pack_keys((gold.doc, gold.start, gold.end), (pred.doc, pred.start, pred.end))
    return exact_ranks_correct(gold_bounds, pred_bounds, cast(numpy.ndarray, pred.level))


def closed_form_tally(correct: numpy.ndarray, pred: Flat, n_labels: int, n_levels: int) -> Tally:
    """The tally of a scheme in which each prediction adds its own credit."""
    weights = correct.astype(numpy.float64)
    ones = numpy.ones(len(pred.doc))
    return Tally(
        level_sums(cast(numpy.ndarray, pred.level), weights, n_levels),
        level_sums(cast(numpy.ndarray, pred.level), ones, n_levels),
        label_level_sums(pred.label, pred.level, weights, n_labels, n_levels),
        label_level_sums(pred.label, pred.level, ones, n_labels, n_levels),
    )


def overlaps_gold(gold: Flat, pred: Flat, view_gold: numpy.ndarray, view_pred: numpy.ndarray) -> numpy.ndarray:
    """Whether each prediction shares a position with a gold span of its
    document and view (view_*: a view id per span)."""
    if not len(gold.doc) or not len(pred.doc):
        return numpy.zeros(len(pred.doc), dtype=bool)
    key_gold = view_gold * (int(max(gold.doc.max(), pred.doc.max())) + 1) + gold.doc
    key_pred = view_pred * (int(max(gold.doc.max(), pred.doc.max())) + 1) + pred.doc
    width = int(max(gold.end.max(), pred.end.max())) + 1
    g_start, g_end = key_gold * width + gold.start, key_gold * width + gold.end
    p_start, p_end = key_pred * width + pred.start, key_pred * width + pred.end
    order = numpy.argsort(g_start, kind="stable")
    starts = g_start[order]
    reach = numpy.maximum.accumulate(g_end[order])
    last = numpy.searchsorted(starts, p_end, side="left") - 1
    return (last >= 0) & (reach[numpy.maximum(last, 0)] > p_start)


def cluster_ids(key: numpy.ndarray, start: numpy.ndarray, end: numpy.ndarray) -> numpy.ndarray:
    """Cluster of each span: spans of one key (view and document) linked
    by shared positions, transitively."""
    [packed] = pack_keys((key, start))
    order = numpy.argsort(packed, kind="stable")
    k, s, e = key[order], start[order], end[order]
    new = numpy.ones(len(order), dtype=bool)
    if len(order) > 1:
        width = int(e.max()) + 1
        line_end = numpy.maximum.accumulate(k * width + e)
        new[1:] = (k[1:] != k[:-1]) | (k[1:] * width + s[1:] >= line_end[:-1])
    ids = numpy.empty(len(order), dtype=numpy.int64)
    ids[order] = numpy.cumsum(new) - 1
    return ids


class ClusterRows(NamedTuple):
    """Per scheme, what each (cluster, level step) adds."""

    level: numpy.ndarray  # the level of each step
    view: numpy.ndarray  # the view of each step
    credit: Dict[str, numpy.ndarray]
    predicted: Dict[str, numpy.ndarray]


def score_cluster_steps(
    gold: Flat,
    pred: Flat,
    view_gold: numpy.ndarray,
    view_pred: numpy.ndarray,
    schemes: Sequence[str],
    label_names: Sequence[str],
    scorer_settings: Dict,
) -> ClusterRows:
    """Score every cluster once per level at which it gains predictions.

    gold, pred: The spans of every view; pred only those that overlap a
        gold span of their view.
    RETURNS (ClusterRows): per step (a cluster at one of its levels), its
        level, view, and per scheme the credit and predicted it adds.
    """
    n_gold = len(gold.doc)
    if not len(pred.doc):
        empty = numpy.zeros(0, dtype=numpy.int64)
        return ClusterRows(empty, empty, {s: numpy.zeros(0) for s in schemes}, {s: numpy.zeros(0) for s in schemes})
    key = numpy.concatenate([view_gold, view_pred]) * (int(max(gold.doc.max(initial=0), pred.doc.max(initial=0))) + 1)
    key = key + numpy.concatenate([gold.doc, pred.doc])
    cluster = cluster_ids(key, numpy.concatenate([gold.start, pred.start]), numpy.concatenate([gold.end, pred.end]))
    gold_cluster, pred_cluster = cluster[:n_gold], cluster[n_gold:]
    # the steps of each cluster: its distinct levels, highest first
    level = cast(numpy.ndarray, pred.level)
    [step_key] = pack_keys((pred_cluster, int(level.max()) - level))
    _, first_of_step, pred_step = numpy.unique(step_key, return_index=True, return_inverse=True)
    pred_step = pred_step.reshape(-1)  # a prediction is in its step's virtual document and every later one
    step_cluster, step_level = pred_cluster[first_of_step], level[first_of_step]
    n_steps = len(step_cluster)
    steps_of = numpy.bincount(step_cluster, minlength=int(cluster.max(initial=-1)) + 1)  # per cluster
    last_step = numpy.cumsum(steps_of)
    first_step = last_step - steps_of
    pred_copies = last_step[pred_cluster] - pred_step
    gold_copies = steps_of[gold_cluster]
    vg = _expand(gold_copies, first_step[gold_cluster])
    vp = _expand(pred_copies, pred_step)
    g_index = numpy.repeat(numpy.arange(n_gold), gold_copies)
    p_index = numpy.repeat(numpy.arange(len(pred.doc)), pred_copies)
    virtual_gold = Flat(vg, gold.start[g_index], gold.end[g_index], gold.label[g_index])
    virtual_pred = Flat(vp, pred.start[p_index], pred.end[p_index], pred.label[p_index])
    rows = _virtual_rows(virtual_gold, virtual_pred, n_steps, schemes, label_names, scorer_settings)
    previous = numpy.r_[-1, numpy.arange(n_steps - 1)]
    has_previous = numpy.zeros(n_steps, dtype=bool)
    has_previous[1:] = step_cluster[1:] == step_cluster[:-1]
    credit, predicted = {}, {}
    for scheme, (step_credit, step_predicted) in rows.items():
        before_credit = numpy.where(has_previous, step_credit[numpy.maximum(previous, 0)], 0.0)
        before_predicted = numpy.where(has_previous, step_predicted[numpy.maximum(previous, 0)], 0.0)
        credit[scheme] = step_credit - before_credit
        predicted[scheme] = step_predicted - before_predicted
    step_view = numpy.zeros(n_steps, dtype=numpy.int64)
    if n_steps:
        step_view[pred_step] = view_pred
    return ClusterRows(step_level, step_view, credit, predicted)


def _expand(copies: numpy.ndarray, first: numpy.ndarray) -> numpy.ndarray:
    """first, first + 1, ..., first + copies - 1 for each item, end to end."""
    total = int(copies.sum())
    offsets = numpy.arange(total) - numpy.repeat(numpy.cumsum(copies) - copies, copies)
    return numpy.repeat(first, copies) + offsets


def _virtual_rows(gold: Flat, pred: Flat, n_docs: int, schemes, label_names, scorer_settings):
    """Per scheme, (credit, predicted) of each virtual document: those in
    which no side overlaps itself on one Batch, the others by SpanScorer."""
    out = {s: (numpy.zeros(n_docs), numpy.zeros(n_docs)) for s in schemes}
    # within one virtual document (one view and document) the spans are in
    # their order, sorted: a stable sort by document sorts them all
    gold = gold.select(numpy.argsort(gold.doc, kind="stable"))
    pred = pred.select(numpy.argsort(pred.doc, kind="stable"))
    if "iou" in schemes:  # iou's groups on arrays are iou.py's; here, when they are too large
        for scorer, docs in run_scorers(gold, pred, n_docs, schemes, label_names, scorer_settings, per_doc=True):
            _store(scorer, out, docs)
        return out
    alone = self_overlapping(gold, pred, n_docs)
    batch = batch_of(gold.select(~alone[gold.doc]), pred.select(~alone[pred.doc]), n_docs, len(label_names))
    for scheme in schemes:
        out[scheme] = doc_credit(batch, scheme, n_docs, scorer_settings)
    lonely = numpy.flatnonzero(alone)
    if len(lonely):
        renumber = numpy.full(n_docs, -1, dtype=numpy.int64)
        renumber[lonely] = numpy.arange(len(lonely))
        g, p = gold.select(alone[gold.doc]), pred.select(alone[pred.doc])
        g, p = g._replace(doc=renumber[g.doc]), p._replace(doc=renumber[p.doc])
        for scorer, docs in run_scorers(g, p, len(lonely), schemes, label_names, scorer_settings, per_doc=True):
            _store(scorer, out, lonely[docs])
    return out


def run_scorers(gold: Flat, pred: Flat, n_docs: int, schemes, label_names, scorer_settings, **keep):
    """Score n_docs documents of flat spans (sorted, each once) with
    SpanScorer: documents without overlaps inside a side on arrays, the
    others one by one. RETURNS: (scorer, the documents it scored, in its
    order) pairs. label_names: sorted, so that the scorer's label ids are
    the spans' own."""
    runs: List[Tuple[SpanScorer, numpy.ndarray]] = []
    if not n_docs:
        return runs
    alone = overlapping_docs(Side(gold.doc, gold.start, gold.end, gold.label), n_docs) | overlapping_docs(
        Side(pred.doc, pred.start, pred.end, pred.label), n_docs
    )
    together = numpy.flatnonzero(~alone)
    if len(together):
        renumber = numpy.full(n_docs, -1, dtype=numpy.int64)
        renumber[together] = numpy.arange(len(together))
        scorer = SpanScorer(schemes, **keep, **scorer_settings)
        ids = scorer.label_ids(list(label_names))
        g, p = gold.select(~alone[gold.doc]), pred.select(~alone[pred.doc])
        scorer.add_sides(
            Side(renumber[g.doc], g.start, g.end, ids[g.label]),
            Side(renumber[p.doc], p.start, p.end, ids[p.label]),
            len(together),
        )
        scorer.flush()
        runs.append((scorer, together))
    lonely = numpy.flatnonzero(alone)
    if len(lonely):
        scorer = SpanScorer(schemes, **keep, **scorer_settings)
        scorer.label_ids(list(label_names))
        g_bounds = numpy.searchsorted(gold.doc, numpy.r_[lonely, lonely + 1].reshape(2, -1))
        p_bounds = numpy.searchsorted(pred.doc, numpy.r_[lonely, lonely + 1].reshape(2, -1))
        g_rows = list(zip(gold.start.tolist(), gold.end.tolist(), gold.label.tolist()))
        p_rows = list(zip(pred.start.tolist(), pred.end.tolist(), pred.label.tolist()))
        for (g_lo, p_lo), (g_hi, p_hi) in zip(
            zip(g_bounds[0].tolist(), p_bounds[0].tolist()), zip(g_bounds[1].tolist(), p_bounds[1].tolist())
        ):
            scorer.add(
                [Span(s, e, label_names[k]) for s, e, k in g_rows[g_lo:g_hi]],
                [Span(s, e, label_names[k]) for s, e, k in p_rows[p_lo:p_hi]],
            )
        scorer.flush()
        runs.append((scorer, lonely))
    return runs


def _store(scorer: SpanScorer, out, docs: numpy.ndarray) -> None:
    for scheme, result in scorer.results().items():
        rows = cast(numpy.ndarray, result.per_doc).astype(numpy.float64)  # scored per_doc
        if scheme in SEMEVAL_RULES:
            credit = rows[:, 0] + 0.5 * rows[:, 2]
            predicted = rows[:, 0] + rows[:, 1] + rows[:, 2] + rows[:, 4]
        else:
            credit = rows[:, 0]
            predicted = rows[:, 0] + rows[:, 1]
        out[scheme][0][docs] = credit
        out[scheme][1][docs] = predicted
