"""The `iou` sweep on arrays, whatever overlaps inside a side.

Under `iou` the unit of counting is a group: a gold span g and the
predictions of one label L that share a position with g. A group is a TP
when L is g's label and |g ∩ ⋃group| / |g ∪ ⋃group| reaches the
threshold, else an FP; a prediction over no gold span is an FP of its own;
a gold span without a TP group is an FN. Groups do not interact, so at
threshold t:

- predicted (TP + FP) counts the groups with a member of score >= t, and
  the spurious predictions of score >= t: each group adds one at the level
  of its best member;
- credit (TP) counts the gold spans whose own-label group reaches the
  threshold. Each position of such a group is covered from the level of
  the best member that covers it, so |g ∩ ⋃| and |⋃| at each level are
  cumulative counts of positions, and the group's TP (0 or 1) at each
  level where it gains positions follows; what it adds at a level is the
  change from the level before.

Per label the engine counts a group under its label, so the per-label
counts are these, split by label, and the overall counts their sums.
The numbers compared are the engine's (integer positions, one division).
"""

from typing import Optional, Tuple, cast

import numpy

from .curves import Flat, Tally, label_level_sums
from .keys import pack_keys

#: Positions expanded at most (beyond it the clusters are scored instead):
#: this many per (gold span, same-label prediction) pair, or in all.
POSITIONS_PER_PAIR = 64
POSITIONS = 4_000_000


def overlap_pairs(gold: Flat, pred: Flat) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """Every (gold, prediction) pair of one document sharing a position, as
    index arrays (gold sorted by document and start; either side may
    overlap itself). A prediction's candidates are the gold spans of its
    document that start before its end and no further back than the
    document's longest gold span."""
    n_docs = int(max(gold.doc.max(initial=-1), pred.doc.max(initial=-1))) + 1
    longest = numpy.zeros(n_docs, dtype=numpy.int64)
    numpy.maximum.at(longest, gold.doc, gold.end - gold.start)
    back = numpy.maximum(pred.start - longest[pred.doc] + 1, 0)
    keys, low, high = pack_keys((gold.doc, gold.start), (pred.doc, back), (pred.doc, pred.end))
    lo = numpy.searchsorted(keys, low, side="left")
    n = numpy.maximum(numpy.searchsorted(keys, high, side="left") - lo, 0)
    pp = numpy.repeat(numpy.arange(len(pred.doc)), n)
    pg = numpy.repeat(lo, n) + numpy.arange(int(n.sum())) - numpy.repeat(numpy.cumsum(n) - n, n)
    shares = gold.end[pg] > pred.start[pp]
    return pg[shares], pp[shares]


def _firsts(keys: numpy.ndarray, level: numpy.ndarray) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """The order that sorts by key, then level from the highest, and which
    sorted rows are the first of their key."""
    order = numpy.lexsort((-level, keys))
    first = numpy.ones(len(order), dtype=bool)
    ranked = keys[order]
    first[1:] = ranked[1:] != ranked[:-1]
    return order, first


def iou_tally(
    gold: Flat, pred: Flat, n_labels: int, n_levels: int, threshold: float
) -> Optional[Tuple[Tally, numpy.ndarray]]:
    """The `iou` tally (see curves.Tally), and whether each prediction is
    of a TP group with every prediction present; None when the groups
    would expand to too many positions."""
    level = cast(numpy.ndarray, pred.level)
    pg, pp = overlap_pairs(gold, pred)
    same = pred.label[pp] == gold.label[pg]
    sg, sp = pg[same], pp[same]
    lengths = pred.end[sp] - pred.start[sp]
    total = int(lengths.sum())
    if total > max(POSITIONS, POSITIONS_PER_PAIR * len(sg)):
        return None
    # predicted: each group at its best member's level, each spurious prediction at its own
    order, first = _firsts(pg * n_labels + pred.label[pp], level[pp])
    best = pp[order][first]
    alone = numpy.bincount(pp, minlength=len(pred.doc)) == 0
    label_predicted = label_level_sums(pred.label[best], level[best], None, n_labels, n_levels) + label_level_sums(
        pred.label[alone], level[alone], None, n_labels, n_levels
    )
    # credit: each position of an own-label group from the best level covering it
    owner = numpy.repeat(sg, lengths)
    where = (
        numpy.repeat(pred.start[sp], lengths)
        + numpy.arange(total)
        - numpy.repeat(numpy.cumsum(lengths) - lengths, lengths)
    )
    covering = numpy.repeat(level[sp], lengths)
    [position] = pack_keys((owner, where))
    order, first = _firsts(position, covering)
    owner, where, covering = owner[order][first], where[order][first], covering[order][first]
    inside = (where >= gold.start[owner]) & (where < gold.end[owner])
    order = numpy.lexsort((-covering, owner))  # each gold span's positions, best level first
    owner, covering, inside = owner[order], covering[order], inside[order]
    inter, union = numpy.cumsum(inside), numpy.arange(1, len(owner) + 1)
    starts = numpy.ones(len(owner), dtype=bool)
    starts[1:] = owner[1:] != owner[:-1]
    base = numpy.maximum.accumulate(numpy.where(starts, numpy.arange(len(owner)), 0))
    before_inside = numpy.r_[0, inter][base]
    inter, union = inter - before_inside, union - base
    last = numpy.ones(len(owner), dtype=bool)  # the last position of each (gold span, level)
    last[:-1] = (owner[1:] != owner[:-1]) | (covering[1:] != covering[:-1])
    step_gold, step_level = owner[last], covering[last]
    inter, union = inter[last], union[last]
    gold_len = gold.end[step_gold] - gold.start[step_gold]
    tp = (inter / (gold_len + union - inter) >= threshold).astype(numpy.float64)
    previous = numpy.zeros(len(tp))
    same_gold = numpy.zeros(len(tp), dtype=bool)
    same_gold[1:] = step_gold[1:] == step_gold[:-1]
    previous[1:] = numpy.where(same_gold[1:], tp[:-1], 0.0)
    label_credit = label_level_sums(gold.label[step_gold], step_level, tp - previous, n_labels, n_levels)
    # with every prediction present: each gold span's last step
    final = numpy.zeros(len(gold.doc), dtype=bool)
    is_last = numpy.ones(len(tp), dtype=bool)
    is_last[:-1] = ~same_gold[1:]
    final[step_gold[is_last]] = tp[is_last] > 0
    correct = numpy.zeros(len(pred.doc), dtype=bool)
    correct[sp[final[sg]]] = True
    tally = Tally(label_credit.sum(axis=0), label_predicted.sum(axis=0), label_credit, label_predicted)
    return tally, correct
