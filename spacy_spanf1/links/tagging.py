"""neleval's tagging measures, on a batch's arrays at once.

neleval 3.1.1 (`configs.MEASURES`) turns every annotation that passes a
measure's filter into a tuple of the measure's key fields, a set per side
and document, and counts TP = |gold ∩ pred|, FP and FN from the sets. So
here: the key of every row of both sides, sorted (three orders serve every
measure: a filter keeps a sorted column sorted, and a key's prefixes are
grouped in its order), one group per distinct key, and the group is a TP
when both sides have it.

`pairs.py` counts the same more directly where no side has two spans at
one place (each key then stands for one span of each side).

Per type, as neleval's `--by-type` groups the annotations: each type's
annotations alone, which for a measure without the type in its key is
the typed measure's groups of that type (restricting `span` to one type
is keying on `(span, type)` and keeping that type).
"""

from typing import Dict, List, NamedTuple, Optional, Tuple

import numpy

from .spans import LinkTable

__all__ = ["KEY_LIMIT", "TAGGING", "Counted", "TaggingMeasure", "group_counts"]


class TaggingMeasure(NamedTuple):
    """A measure as neleval defines it: its key fields and its filter
    (None, "is_linked" or "is_nil")."""

    key: Tuple[str, ...]
    filter: Optional[str] = None


#: neleval 3.1.1's tagging measures (`neleval.configs.MEASURES`), in its order.
TAGGING: Dict[str, TaggingMeasure] = {
    "strong_mention_match": TaggingMeasure(("span",)),
    "strong_typed_mention_match": TaggingMeasure(("span", "type")),
    "strong_linked_mention_match": TaggingMeasure(("span",), "is_linked"),
    "strong_link_match": TaggingMeasure(("span", "kbid"), "is_linked"),
    "strong_nil_match": TaggingMeasure(("span",), "is_nil"),
    "strong_all_match": TaggingMeasure(("span", "kbid")),
    "strong_typed_link_match": TaggingMeasure(("span", "type", "kbid"), "is_linked"),
    "strong_typed_nil_match": TaggingMeasure(("span", "type"), "is_nil"),
    "strong_typed_all_match": TaggingMeasure(("span", "type", "kbid")),
    "entity_match": TaggingMeasure(("docid", "kbid"), "is_linked"),
}

#: A measure's sort order and key prefix: "s" (span, type, kb), "k" (span,
#: kb) or "d" (doc, kb, type) order; how many of its fields make the key.
_ORDERS: Dict[Tuple[str, ...], Tuple[str, int]] = {
    ("span",): ("s", 1),
    ("span", "type"): ("s", 2),
    ("span", "type", "kbid"): ("s", 3),
    ("span", "kbid"): ("k", 2),
    ("docid", "kbid"): ("d", 2),
}
#: The typed key each measure's per-type counts are grouped by.
_TYPED: Dict[Tuple[str, ...], Tuple[str, ...]] = {
    ("span",): ("span", "type"),
    ("span", "kbid"): ("span", "type", "kbid"),
    ("docid", "kbid"): ("docid", "kbid", "type"),
}
_TYPED_ORDERS: Dict[Tuple[str, ...], Tuple[str, int]] = {("docid", "kbid", "type"): ("d", 3)}


#: The largest composite key built on int64 columns; past it, keys are ranks.
KEY_LIMIT = 2**62


class Counted(NamedTuple):
    """The counts of one measure over a batch: totals (tp, fp, fn), per
    label code (n_labels × 3) and per document (n_docs × 3, or None)."""

    totals: numpy.ndarray
    per_label: numpy.ndarray
    per_doc: Optional[numpy.ndarray]


class _Rows:
    """Both sides of a batch as one column each, in the three key orders."""

    def __init__(self, table: LinkTable) -> None:
        gold, pred = table.gold, table.pred
        self.n_docs, self.n_labels = table.n_docs, max(len(table.labels), 1)
        self.side = numpy.r_[numpy.zeros(len(gold.doc), numpy.int64), numpy.ones(len(pred.doc), numpy.int64)]
        self.doc = numpy.r_[gold.doc, pred.doc]
        self.label = numpy.r_[gold.label, pred.label]
        raw = numpy.r_[gold.kb, pred.kb]
        nil = table.nil[raw] if len(raw) else numpy.zeros(0, dtype=bool)
        # neleval's kbid: the id of a linked annotation, None (here 0) for NIL
        self.kb = numpy.where(nil, 0, raw + 1)
        self.linked = ~nil
        self.n_kb = len(table.kb_ids) + 1
        self.start, self.end = numpy.r_[gold.start, pred.start], numpy.r_[gold.end, pred.end]
        self._orders: Dict[str, Tuple[numpy.ndarray, List[numpy.ndarray]]] = {}

    def order(self, name: str) -> Tuple[numpy.ndarray, List[numpy.ndarray]]:
        """The rows in order "s" (span, type, kb), "k" (span, kb) or "d"
        (doc, kb, type): (row order, key column of each prefix length)."""
        if name not in self._orders:
            L, K = self.n_labels, self.n_kb
            if name == "d":
                self._orders[name] = self._order((self.doc, self.kb, self.label), (max(self.n_docs, 1), K, L))
            else:
                span = _dense(self.doc, self.start, self.end)
                n_spans = int(span.max()) + 1 if len(span) else 1
                columns = (span, self.label, self.kb) if name == "s" else (span, self.kb)
                self._orders[name] = self._order(columns, (n_spans, L, K) if name == "s" else (n_spans, K))
        return self._orders[name]

    def _order(self, columns, sizes):
        """(row order, key column of each prefix length) for columns sorted
        lexicographically (then by side, so a group's gold rows come
        first)."""
        limit = 1
        for size in sizes:
            limit *= size
        if limit * 2 < KEY_LIMIT:
            key = numpy.zeros(len(self.side), dtype=numpy.int64)
            prefixes = []
            for column, size in zip(columns, sizes):
                key = key * size + column
                prefixes.append(key)
            order = numpy.argsort(key * 2 + self.side)
            return order, [prefix[order] for prefix in prefixes]
        order = numpy.lexsort((self.side,) + tuple(reversed(columns)))
        ranks: List[numpy.ndarray] = []
        for column in columns:
            ranks.append(column[order] if not ranks else _dense(ranks[-1], column[order]))
        return order, ranks


def _dense(*columns: numpy.ndarray) -> numpy.ndarray:
    """The dense rank of each row's tuple of columns (0, 1, ...)."""
    if not len(columns[0]):
        return numpy.zeros(0, dtype=numpy.int64)
    order = numpy.lexsort(tuple(reversed(columns)))
    new = numpy.zeros(len(order), dtype=bool)
    new[0] = True
    for column in columns:
        ordered = column[order]
        new[1:] |= ordered[1:] != ordered[:-1]
    rank = numpy.empty(len(order), dtype=numpy.int64)
    rank[order] = numpy.cumsum(new) - 1
    return rank


def _groups(rows: _Rows, key: Tuple[str, ...], mask_name: Optional[str], per_doc: bool, by_label: bool) -> Counted:
    """The set counts of one key (and filter) over the batch."""
    order_name, length = _ORDERS.get(key) or _TYPED_ORDERS[key]
    order, prefixes = rows.order(order_name)
    keys = prefixes[length - 1]
    side = rows.side[order]
    if mask_name is not None:
        keep = rows.linked[order] if mask_name == "is_linked" else ~rows.linked[order]
        keys, side, order = keys[keep], side[keep], order[keep]
    n_labels = rows.n_labels
    zeros = numpy.zeros(3, dtype=numpy.int64)
    if not len(keys):
        return Counted(
            zeros,
            numpy.zeros((n_labels, 3), dtype=numpy.int64),
            numpy.zeros((rows.n_docs, 3), dtype=numpy.int64) if per_doc else None,
        )
    new = numpy.empty(len(keys), dtype=bool)
    new[0] = True
    new[1:] = keys[1:] != keys[:-1]
    group = numpy.cumsum(new) - 1
    n = int(group[-1]) + 1
    has_gold = numpy.zeros(n, dtype=bool)
    has_pred = numpy.zeros(n, dtype=bool)
    has_gold[group[side == 0]] = True
    has_pred[group[side == 1]] = True
    tp = has_gold & has_pred
    fp = has_pred & ~has_gold
    fn = has_gold & ~has_pred
    first = order[new]
    totals = numpy.array([tp.sum(), fp.sum(), fn.sum()], dtype=numpy.int64)
    per_label = numpy.zeros((n_labels, 3), dtype=numpy.int64)
    if by_label:
        label = rows.label[first]
        per_label = numpy.stack([numpy.bincount(label[c], minlength=n_labels) for c in (tp, fp, fn)], axis=1)
    doc_rows = None
    if per_doc:
        doc = rows.doc[first]
        doc_rows = numpy.stack([numpy.bincount(doc[c], minlength=rows.n_docs) for c in (tp, fp, fn)], axis=1)
    return Counted(totals, per_label, doc_rows)


def group_counts(table: LinkTable, measures, per_doc: bool = False) -> Dict[str, Counted]:
    """The counts of the named neleval measures over a batch, by sorted
    keys (any batch): measure -> Counted (totals, per label, per document)."""
    rows = _Rows(table)
    found: Dict[str, Counted] = {}
    done: Dict[Tuple[Tuple[str, ...], Optional[str], bool], Counted] = {}

    def counted(key: Tuple[str, ...], mask: Optional[str], want_docs: bool, by_label: bool) -> Counted:
        at = (key, mask, by_label)
        if at not in done or (want_docs and done[at].per_doc is None):
            done[at] = _groups(rows, key, mask, want_docs, by_label)
        return done[at]

    for name in measures:
        measure = TAGGING[name]
        typed = _TYPED.get(measure.key)
        whole = counted(measure.key, measure.filter, per_doc, typed is None)
        labelled = whole if typed is None else counted(typed, measure.filter, False, True)
        found[name] = Counted(whole.totals, labelled.per_label, whole.per_doc)
    return found
