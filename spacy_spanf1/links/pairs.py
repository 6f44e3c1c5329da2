"""neleval's span measures where no side has two spans at one place: the
common case, counted from the pairs of gold and predicted spans at the
same place.

With one span of a side per place, the key of a span measure (its span,
with its type or kb id or both) stands for one span, so the sets neleval
compares are the spans that pass the filter: a pair at one place is a TP
when both pass and agree on the key's fields; FP and FN are the rest of
each side. `entity_match` compares the sets of (document, kb id) of the
linked spans of each side. `tagging_counts` hands the documents with a
place twice on one side to the sorted keys (`tagging.group_counts`).
"""

from typing import Dict, List

import numpy

from .spans import LinkSide, LinkTable
from . import tagging
from .tagging import TAGGING, Counted, group_counts

__all__ = ["tagging_counts"]


def tagging_counts(table: LinkTable, measures: List[str], per_doc: bool = False) -> Dict[str, Counted]:
    """The counts of the named neleval measures over a batch: measure ->
    Counted (totals, per label, per document)."""
    repeated = _repeated_docs(table)
    if repeated.all():
        return group_counts(table, measures, per_doc)
    found = _pair_counts(_docs_of(table, ~repeated) if repeated.any() else table, measures, per_doc)
    if repeated.any():
        other = group_counts(_docs_of(table, repeated), measures, per_doc)
        for name, counts in other.items():
            mine = found[name]
            found[name] = Counted(
                mine.totals + counts.totals,
                mine.per_label + counts.per_label,
                None if mine.per_doc is None or counts.per_doc is None else mine.per_doc + counts.per_doc,
            )
    return found


def _repeated_docs(table: LinkTable) -> numpy.ndarray:
    """Which documents have two spans at one place on one side."""
    mask = numpy.zeros(table.n_docs, dtype=bool)
    for side in (table.gold, table.pred):
        doc = side.doc
        same = (doc[1:] == doc[:-1]) & (side.start[1:] == side.start[:-1]) & (side.end[1:] == side.end[:-1])
        mask[doc[1:][same]] = True
    return mask


def _docs_of(table: LinkTable, keep: numpy.ndarray) -> LinkTable:
    """The table cut down to the documents kept (their numbers unchanged)."""
    return table._replace(gold=table.gold.select(keep[table.gold.doc]), pred=table.pred.select(keep[table.pred.doc]))


def _places(gold: LinkSide, pred: LinkSide, n_docs: int):
    """(gold, pred) place keys: (doc, start, end) as one increasing integer."""
    width = int(max(gold.end.max(initial=0), pred.end.max(initial=0))) + 1
    if max(n_docs, 1) * width * width < tagging.KEY_LIMIT:
        return (gold.doc * width + gold.start) * width + gold.end, (pred.doc * width + pred.start) * width + pred.end
    columns = [numpy.r_[gold.doc, pred.doc], numpy.r_[gold.start, pred.start], numpy.r_[gold.end, pred.end]]
    order = numpy.lexsort(tuple(reversed(columns)))
    new = numpy.zeros(len(order), dtype=bool)
    new[:1] = True
    for column in columns:
        new[1:] |= column[order][1:] != column[order][:-1]
    rank = numpy.empty(len(order), dtype=numpy.int64)
    rank[order] = numpy.cumsum(new) - 1
    return rank[: len(gold.doc)], rank[len(gold.doc) :]


def _unique(values: numpy.ndarray) -> numpy.ndarray:
    """The sorted distinct values (a sort: `numpy.unique` is many times
    slower on integers)."""
    ordered = numpy.sort(values)
    return ordered[numpy.r_[True, ordered[1:] != ordered[:-1]]] if len(ordered) else ordered


def _common(a: numpy.ndarray, b: numpy.ndarray) -> numpy.ndarray:
    """The values of both sorted distinct arrays."""
    both = numpy.sort(numpy.r_[a, b])
    return both[1:][both[1:] == both[:-1]]


def _entity_counts(table: LinkTable, g_linked: numpy.ndarray, p_linked: numpy.ndarray, per_doc: bool) -> Counted:
    """`entity_match`: the sets of (document, kb id) of linked spans, and
    of (document, kb id, type) for the types apart."""
    gold, pred = table.gold, table.pred
    n_kb, n_labels = max(len(table.kb_ids), 1), max(len(table.labels), 1)
    if max(table.n_docs, 1) * n_kb * n_labels >= tagging.KEY_LIMIT:
        return group_counts(table, ["entity_match"], per_doc)["entity_match"]
    g_key = gold.doc[g_linked] * n_kb + gold.kb[g_linked]
    p_key = pred.doc[p_linked] * n_kb + pred.kb[p_linked]
    g_set, p_set = _unique(g_key), _unique(p_key)
    both = _common(g_set, p_set)
    tp = len(both)
    totals = numpy.array([tp, len(p_set) - tp, len(g_set) - tp], dtype=numpy.int64)
    g_typed = _unique(g_key * n_labels + gold.label[g_linked])
    p_typed = _unique(p_key * n_labels + pred.label[p_linked])
    both_typed = _common(g_typed, p_typed)
    tp_label = numpy.bincount(both_typed % n_labels, minlength=n_labels)
    per_label = numpy.stack(
        [
            tp_label,
            numpy.bincount(p_typed % n_labels, minlength=n_labels) - tp_label,
            numpy.bincount(g_typed % n_labels, minlength=n_labels) - tp_label,
        ],
        axis=1,
    )
    rows = None
    if per_doc:
        n_docs = table.n_docs
        tp_doc = numpy.bincount(both // n_kb, minlength=n_docs)
        rows = numpy.stack(
            [
                tp_doc,
                numpy.bincount(p_set // n_kb, minlength=n_docs) - tp_doc,
                numpy.bincount(g_set // n_kb, minlength=n_docs) - tp_doc,
            ],
            axis=1,
        )
    return Counted(totals, per_label, rows)


def _pair_counts(table: LinkTable, measures: List[str], per_doc: bool) -> Dict[str, Counted]:
    gold, pred, n_docs = table.gold, table.pred, table.n_docs
    n_labels = max(len(table.labels), 1)
    g_linked, p_linked = ~table.nil[gold.kb], ~table.nil[pred.kb]
    g_place, p_place = _places(gold, pred, n_docs)
    at = numpy.searchsorted(g_place, p_place)
    if len(g_place):
        at[at == len(g_place)] = 0
        matched = g_place[at] == p_place
    else:
        matched = numpy.zeros(len(p_place), dtype=bool)
    gi, pi = at[matched], numpy.flatnonzero(matched)
    g_label, p_label = gold.label[gi], pred.label[pi]
    same_type = g_label == p_label
    # neleval's kbid: the id of a linked span, None for every NIL
    both_linked = g_linked[gi] & p_linked[pi]
    same_kb = (both_linked & (gold.kb[gi] == pred.kb[pi])) | (~g_linked[gi] & ~p_linked[pi])
    everything = (numpy.ones(len(gold.doc), dtype=bool), numpy.ones(len(pred.doc), dtype=bool))
    filters = {None: everything, "is_linked": (g_linked, p_linked), "is_nil": (~g_linked, ~p_linked)}
    sums: Dict[object, numpy.ndarray] = {}

    def bincount(what: str, side: LinkSide, mask: numpy.ndarray, column: str, size: int) -> numpy.ndarray:
        key = (what, column)
        if key not in sums:
            sums[key] = numpy.bincount((side.label if column == "label" else side.doc)[mask], minlength=size)
        return sums[key]

    found: Dict[str, Counted] = {}
    if "entity_match" in measures:
        found["entity_match"] = _entity_counts(table, g_linked, p_linked, per_doc)
    for name in measures:
        if name in found:
            continue
        measure = TAGGING[name]
        g_in, p_in = filters[measure.filter]
        ok = g_in[gi] & p_in[pi]
        if "kbid" in measure.key:
            ok &= same_kb
        typed = ok & same_type
        if "type" in measure.key:
            ok = typed
        tp = int(ok.sum())
        totals = numpy.array([tp, int(p_in.sum()) - tp, int(g_in.sum()) - tp], dtype=numpy.int64)
        tp_label = numpy.bincount(g_label[typed], minlength=n_labels)
        per_label = numpy.stack(
            [
                tp_label,
                bincount(f"p{measure.filter}", pred, p_in, "label", n_labels) - tp_label,
                bincount(f"g{measure.filter}", gold, g_in, "label", n_labels) - tp_label,
            ],
            axis=1,
        )
        rows = None
        if per_doc:
            tp_doc = numpy.bincount(gold.doc[gi][ok], minlength=n_docs)
            rows = numpy.stack(
                [
                    tp_doc,
                    bincount(f"p{measure.filter}", pred, p_in, "doc", n_docs) - tp_doc,
                    bincount(f"g{measure.filter}", gold, g_in, "doc", n_docs) - tp_doc,
                ],
                axis=1,
            )
        found[name] = Counted(totals, per_label, rows)
    return {name: found[name] for name in measures}
