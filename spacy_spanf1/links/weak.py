"""`weak_all_match`: GERBIL's weak annotation match, paired one-to-one as
the engine's `type` scheme pairs, the kb id in place of the label.

A prediction is a TP when the `type` scheme's pairing makes it correct
with the kb id as its label: the same offsets and id first, then an
overlapping gold span of the same id (the closest, |Δstart| + |Δend|);
a prediction that overlaps only gold spans of other ids is paired with
the first of them (the `type` scheme's INC), which it takes from later
predictions. NIL ids are one id (neleval's kbid of a NIL is None), so a
NIL prediction over a NIL gold span matches. TP = COR, FP = the other
predictions, FN = the gold spans not paired as COR. A span is (start,
end, kb id): two spans of one side with the offsets and id of each other
are one. Per type: each type's spans alone.

Documents in which no side overlaps itself are paired all at once by the
engine's batched pairing (`engine.batched.Batch.semeval`); the others one
by one by its reference (`engine.matching.semeval_counts`).
"""

from collections import defaultdict
from typing import Dict, List, Tuple

import numpy

from ..engine.batched import COR, Batch
from ..engine.columns import Side, overlapping_docs
from ..engine.matching import SEMEVAL_RULES, find_overlaps, semeval_counts
from ..spans import Span
from .spans import LinkSide, LinkTable

__all__ = ["weak_counts"]

_RULE = SEMEVAL_RULES["type"]


def weak_counts(table: LinkTable) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """(per document (n_docs × 3), per label code (n_labels × 3)) [tp,
    fp, fn] of `weak_all_match` over a batch."""
    kb = _kb_codes(table)
    gold, pred = table.gold, table.pred
    per_doc = _paired(_weak_side(gold, gold.doc, kb), _weak_side(pred, pred.doc, kb), table.n_docs, table.kb_ids)
    n_labels = max(len(table.labels), 1)
    # each (document, type) a document of its own: the types apart
    group = numpy.r_[gold.doc, pred.doc] * n_labels + numpy.r_[gold.label, pred.label]
    groups, pseudo = _ranked(group, max(table.n_docs, 1) * n_labels)
    n_gold = len(gold.doc)
    by_type = _paired(
        _weak_side(gold, pseudo[:n_gold], kb), _weak_side(pred, pseudo[n_gold:], kb), len(groups), table.kb_ids
    )
    per_label = numpy.zeros((n_labels, 3), dtype=numpy.int64)
    numpy.add.at(per_label, groups % n_labels, by_type)
    return per_doc, per_label


def _ranked(values: numpy.ndarray, limit: int) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """(the distinct values, sorted; the rank of each value among them) of
    integers in [0, limit): `numpy.unique(values, return_inverse=True)`,
    by counting when the range is small."""
    if limit <= 4 * len(values) + (1 << 16):
        present = numpy.bincount(values, minlength=limit) > 0
        return numpy.flatnonzero(present), (numpy.cumsum(present) - 1)[values]
    order = numpy.argsort(values)
    ordered = values[order]
    new = numpy.r_[True, ordered[1:] != ordered[:-1]] if len(values) else numpy.zeros(0, dtype=bool)
    rank = numpy.empty(len(values), dtype=numpy.int64)
    rank[order] = numpy.cumsum(new) - 1
    return ordered[new], rank


def _kb_codes(table: LinkTable) -> numpy.ndarray:
    """For each kb code of the table, its code under weak matching: every
    NIL id one code (0), each other id its own."""
    codes = numpy.arange(1, len(table.kb_ids) + 1, dtype=numpy.int64)
    codes[table.nil] = 0
    return codes


def _weak_side(side: LinkSide, doc: numpy.ndarray, kb: numpy.ndarray) -> Side:
    """The side as the engine's Side with `doc` as its documents and the kb
    id as the label, sorted by doc (the side's own order within one: by
    start, end). Spans that become identical (two types, one id) are in a
    document whose spans overlap, which `_one_document` scores: it counts
    them once."""
    label = kb[side.kb] if len(side.kb) else numpy.zeros(0, dtype=numpy.int64)
    if len(doc) > 1 and (doc[1:] < doc[:-1]).any():
        order = numpy.argsort(doc, kind="stable")
        return Side(doc[order], side.start[order], side.end[order], label[order])
    return Side(doc, side.start, side.end, label)


def _paired(gold: Side, pred: Side, n_docs: int, kb_ids: List[str]) -> numpy.ndarray:
    """(n_docs × 3) [tp, fp, fn] of the type scheme's pairing, kb as label."""
    rows = numpy.zeros((n_docs, 3), dtype=numpy.int64)
    alone = overlapping_docs(gold, n_docs) | overlapping_docs(pred, n_docs)
    if alone.any():
        for doc in numpy.flatnonzero(alone).tolist():
            rows[doc] = _one_document(gold, pred, doc, kb_ids)
        gold = Side(*(column[~alone[gold.doc]] for column in gold))
        pred = Side(*(column[~alone[pred.doc]] for column in pred))
    if not (len(gold.doc) or len(pred.doc)):
        return rows
    n_labels = int(max(gold.label.max(initial=0), pred.label.max(initial=0))) + 1
    batch = Batch(gold, pred, n_docs, n_labels)
    outcome, _, partner = batch.semeval(_RULE, None, per_label=False)
    correct = outcome == COR
    tp = numpy.bincount(pred.doc[correct], minlength=n_docs)
    rows[:, 0] += tp
    rows[:, 1] += numpy.bincount(pred.doc, minlength=n_docs) - tp
    rows[:, 2] += numpy.bincount(gold.doc, minlength=n_docs) - tp
    return rows


def _one_document(gold: Side, pred: Side, doc: int, kb_ids: List[str]) -> List[int]:
    """[tp, fp, fn] of one document whose spans overlap each other, paired
    by the engine's per-document reference (spans with kb ids as labels,
    sorted as the engine sorts them)."""
    names = ["NIL"] + kb_ids
    g = sorted(set(_spans(gold, doc, names)))
    p = sorted(set(_spans(pred, doc, names)))
    candidates: Dict[int, List[Tuple[int, int]]] = defaultdict(list)
    for gi, pi, shared in sorted(find_overlaps(g, p), key=lambda pair: (pair[1], pair[0])):
        candidates[pi].append((gi, shared))
    cor = semeval_counts(g, p, range(len(g)), range(len(p)), candidates, _RULE, None)[0]
    return [cor, len(p) - cor, len(g) - cor]


def _spans(side: Side, doc: int, names: List[str]) -> List[Span]:
    low, high = numpy.searchsorted(side.doc, [doc, doc + 1]).tolist()
    return [
        Span(start, end, names[label])
        for start, end, label in zip(
            side.start[low:high].tolist(), side.end[low:high].tolist(), side.label[low:high].tolist()
        )
    ]
