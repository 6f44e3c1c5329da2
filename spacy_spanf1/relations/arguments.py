"""Which gold span each predicted span is paired with as a match, under
each one-to-one span scheme: the engine's own pairing, nothing else.

A predicted span matches a gold span under S when S's one-to-one matching
of the document's spans pairs them as a pair S counts as a match: COR
under `strict`, `exact` and `type`, COR or PAR under `partial`, a matched
pair under `overlap`; an INC pair is no match.

Documents in which no side overlaps itself are paired all at once by the
engine's batched pairing (`engine.batched.Batch`); the others one by one by
its per-document reference (`engine.matching`).
"""

from collections import defaultdict
from typing import Any, Dict, List, Optional, Sequence, Tuple, cast

import numpy

from ..engine import outcomes as oc
from ..engine.batched import COR, PAR, Batch
from ..engine.columns import Side, overlapping_docs
from ..engine.matching import SEMEVAL_RULES, find_overlaps, overlap_document, semeval_counts
from ..spans import Span

__all__ = ["matched_arguments"]


def matched_arguments(
    gold: Side,
    pred: Side,
    n_docs: int,
    n_labels: int,
    schemes: Sequence[str],
    min_overlap: Optional[float],
    overlap_threshold: float,
) -> Dict[str, numpy.ndarray]:
    """span scheme -> for each predicted span, the index of the gold span
    it matches (-1: none). Both sides sorted by (doc, start, end, label),
    identical spans once."""
    found = {scheme: numpy.full(len(pred.doc), -1, dtype=numpy.int64) for scheme in schemes}
    alone = overlapping_docs(gold, n_docs) | overlapping_docs(pred, n_docs)
    gold_keep = ~alone[gold.doc]
    pred_keep = ~alone[pred.doc]
    if alone.any():
        for doc in numpy.flatnonzero(alone).tolist():
            _one_document(gold, pred, doc, schemes, min_overlap, overlap_threshold, found)
        gold_at, pred_at = numpy.flatnonzero(gold_keep), numpy.flatnonzero(pred_keep)
        gold = Side(*(column[gold_keep] for column in gold))
        pred = Side(*(column[pred_keep] for column in pred))
    else:
        gold_at, pred_at = numpy.arange(len(gold.doc)), numpy.arange(len(pred.doc))
    if not (len(gold.doc) and len(pred.doc)):
        return found
    batch = Batch(gold, pred, n_docs, max(n_labels, 1))
    for scheme in schemes:
        if scheme == "overlap":
            matched_gold = batch.overlap_matches(overlap_threshold)
            has = matched_gold >= 0
            found[scheme][pred_at[matched_gold[has]]] = gold_at[has]
            continue
        rule = SEMEVAL_RULES[scheme]
        outcome, _, partner = batch.semeval(rule, min_overlap, per_label=False)
        match = outcome == COR
        if scheme == "partial":
            match |= outcome == PAR
        found[scheme][pred_at[match]] = gold_at[partner[match]]
    return found


def _spans(side: Side, low: int, high: int) -> List[Span]:
    """The spans side[low:high] as tuples (label codes for labels: they
    sort as the labels do)."""
    return cast(
        List[Span],
        list(zip(side.start[low:high].tolist(), side.end[low:high].tolist(), side.label[low:high].tolist())),
    )


def _one_document(
    gold: Side,
    pred: Side,
    doc: int,
    schemes: Sequence[str],
    min_overlap: Optional[float],
    overlap_threshold: float,
    found: Dict[str, numpy.ndarray],
) -> None:
    """The pairs of one document whose spans overlap each other, by the
    engine's per-document matching."""
    g_low, g_high = numpy.searchsorted(gold.doc, [doc, doc + 1]).tolist()
    p_low, p_high = numpy.searchsorted(pred.doc, [doc, doc + 1]).tolist()
    g, p = _spans(gold, g_low, g_high), _spans(pred, p_low, p_high)
    if not (g and p):
        return
    pairs = find_overlaps(g, p)
    candidates: Dict[int, List[Tuple[int, int]]] = defaultdict(list)
    for gi, pi, shared in sorted(pairs, key=lambda pair: (pair[1], pair[0])):
        candidates[pi].append((gi, shared))
    for scheme in schemes:
        units: List[Any] = []
        good: Tuple[int, ...]
        if scheme == "overlap":
            tally: Dict[Any, List[int]] = defaultdict(lambda: [0, 0, 0])
            overlap_document(g, p, pairs, overlap_threshold, tally, units)
            good = (oc.TP,)
        else:
            semeval_counts(g, p, range(len(g)), range(len(p)), candidates, SEMEVAL_RULES[scheme], min_overlap, units)
            good = (oc.COR, oc.PAR) if scheme == "partial" else (oc.COR,)
        column = found[scheme]
        for code, _, gi, members in units:
            if code in good:
                column[p_low + members[0]] = g_low + gi
