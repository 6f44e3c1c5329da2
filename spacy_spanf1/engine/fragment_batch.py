"""Spans of several fragments on flat arrays, for the batched engine.

A document with a span of several fragments (`spans.FragmentedSpan`) is
scored over position sets. When neither of its sides overlaps itself by
the outer bounds of its spans, the batched engine (`batched.Batch`) scores
it with the others of its kind: the pairs come from the outer bounds as
for ordinary spans, and `FragmentColumns` gives each span its fragments,
so that the positions a pair shares, a span's size and whether two spans
cover the same positions are counted on the fragments (interval
arithmetic over fragment pairs, on arrays; a pair whose bounds overlap but
whose fragments do not is dropped).

`mixed_side` reads a corpus of (start, end, label) tuples among which some
spans are {"fragments", "label"} dicts onto arrays at once, as
`SpanScorer._plain_side` reads plain tuples.
"""

from itertools import chain
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy

from .columns import Side, interval_pairs, overlapping_docs
from ..spans import FragmentedSpan, Span, normal_fragments, read_span


class FragmentColumns(NamedTuple):
    """The fragments of one side's spans (each of a contiguous span: itself).

    key: -1 for a contiguous span, else the id of its fragment tuple (two
        spans have the same id exactly when their fragments are equal).
    ptr: span i's fragments are start[ptr[i]:ptr[i + 1]], end[...].
    size: how many positions each span covers.
    """

    key: numpy.ndarray
    ptr: numpy.ndarray
    start: numpy.ndarray
    end: numpy.ndarray
    size: numpy.ndarray


def fragment_columns(side: Side, rows: numpy.ndarray, pieces: Sequence[Any], keys: Dict[Any, int]) -> FragmentColumns:
    """The FragmentColumns of side, whose spans at rows have several
    fragments, pieces (one tuple of (start, end) pairs each); keys:
    fragment tuple -> id, shared by both sides of a batch (filled here)."""
    n = len(side.doc)
    key = numpy.full(n, -1, dtype=numpy.int64)
    counts = numpy.ones(n, dtype=numpy.int64)
    if pieces:
        key[rows] = [keys.setdefault(p, len(keys)) for p in pieces]
        counts[rows] = list(map(len, pieces))
    ptr = numpy.zeros(n + 1, dtype=numpy.int64)
    numpy.cumsum(counts, out=ptr[1:])
    start = numpy.repeat(side.start, counts)
    end = numpy.repeat(side.end, counts)
    if pieces:
        each = counts[rows]
        within = numpy.arange(int(each.sum())) - numpy.repeat(numpy.cumsum(each) - each, each)
        slots = numpy.repeat(ptr[rows], each) + within
        flat = numpy.array(list(chain.from_iterable(pieces)), dtype=numpy.int64).reshape(-1, 2)
        start[slots] = flat[:, 0]
        end[slots] = flat[:, 1]
    size = numpy.add.reduceat(end - start, ptr[:-1]) if n else numpy.zeros(0, dtype=numpy.int64)
    return FragmentColumns(key, ptr, start, end, size)


def fragment_pairs(
    gold: Side, pred: Side, fragments: Tuple[FragmentColumns, FragmentColumns], n_docs: int
) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """(prediction, gold span, shared positions) of every pair that shares
    a position, sorted by prediction then gold span: the overlapping pairs
    of fragments (`columns.interval_pairs`; no two fragments of one side
    overlap), their overlaps summed per pair of spans."""
    (g_rows, g_parent), (p_rows, p_parent) = (
        _fragment_rows(side, columns) for side, columns in zip((gold, pred), fragments)
    )
    fp, fg, overlap = interval_pairs(g_rows, p_rows, n_docs)
    n_gold = max(len(gold.doc), 1)
    key = p_parent[fp] * n_gold + g_parent[fg]
    order = numpy.argsort(key, kind="stable")
    key = key[order]
    empty = numpy.zeros(0, dtype=numpy.int64)
    first = numpy.flatnonzero(numpy.r_[True, key[1:] != key[:-1]]) if len(key) else empty
    shared = numpy.add.reduceat(overlap[order], first) if len(first) else empty
    return key[first] // n_gold, key[first] % n_gold, shared


def _fragment_rows(side: Side, columns: FragmentColumns) -> Tuple[Side, numpy.ndarray]:
    """One side's fragments as a Side sorted by (doc, start) (the label
    column holds nothing), and the span each row is a fragment of."""
    counts = numpy.diff(columns.ptr)
    doc = numpy.repeat(side.doc, counts)
    order = numpy.lexsort((columns.start, doc))
    parent = numpy.repeat(numpy.arange(len(side.doc)), counts)[order]
    return Side(doc[order], columns.start[order], columns.end[order], parent), parent


def select_columns(columns: FragmentColumns, keep: numpy.ndarray) -> FragmentColumns:
    """The FragmentColumns of the spans keep marks."""
    counts = numpy.diff(columns.ptr)
    rows = numpy.repeat(keep, counts)
    ptr = numpy.zeros(int(keep.sum()) + 1, dtype=numpy.int64)
    numpy.cumsum(counts[keep], out=ptr[1:])
    return FragmentColumns(columns.key[keep], ptr, columns.start[rows], columns.end[rows], columns.size[keep])


def sharing_docs(side: Side, columns: FragmentColumns, n_docs: int) -> numpy.ndarray:
    """The documents in which two spans of side share a position."""
    return overlapping_docs(_fragment_rows(side, columns)[0], n_docs)


def fragment_sides(
    docs: Sequence[int],
    lists: Sequence[Tuple[Sequence[Any], Sequence[Any]]],
    n_docs: int,
    label_ids: Callable[[Sequence[str]], numpy.ndarray],
    allowed: Optional[numpy.ndarray],
) -> Tuple[Side, Side, Tuple[FragmentColumns, FragmentColumns], numpy.ndarray]:
    """The documents docs (their (gold, pred) span lists, sorted) as a
    batch: (gold, pred, their FragmentColumns, the documents left out
    because two spans of a side share a position, a mask of n_docs).
    allowed: by label id, whether the label is scored (None: all)."""
    keys: Dict[Any, int] = {}
    sides = []
    for which in (0, 1):
        spans = list(chain.from_iterable(pair[which] for pair in lists))
        doc = numpy.repeat(numpy.array(docs, dtype=numpy.int64), [len(pair[which]) for pair in lists])
        starts, ends, labels = tuple(zip(*spans))[:3] if spans else ((), (), ())
        side = Side(
            doc, numpy.array(starts, dtype=numpy.int64), numpy.array(ends, dtype=numpy.int64), label_ids(labels)
        )
        lengths = numpy.fromiter(map(len, spans), dtype=numpy.int64, count=len(spans))
        rows = numpy.flatnonzero(lengths > 3)
        columns = fragment_columns(side, rows, [spans[i][3] for i in rows.tolist()], keys)
        if allowed is not None and len(allowed) and not allowed[side.label].all():
            keep = allowed[side.label]
            side, columns = Side(*(column[keep] for column in side)), select_columns(columns, keep)
        sides.append((side, columns))
    return _apart(sides, n_docs)


def column_sides(
    gold: "MixedSide", pred: "MixedSide", docs: numpy.ndarray, n_docs: int, allowed: Optional[numpy.ndarray]
) -> Tuple[Side, Side, Tuple[FragmentColumns, FragmentColumns], numpy.ndarray]:
    """`fragment_sides` of the documents the mask docs marks, read off the
    columns of `mixed_side` (no span list made)."""
    keys: Dict[Any, int] = {}
    sides = []
    for mixed in (gold, pred):
        side = mixed.side
        keep = docs[side.doc]
        if allowed is not None and len(allowed):
            keep &= allowed[side.label]
        rows = numpy.flatnonzero(keep)
        position = numpy.full(len(side.doc), -1, dtype=numpy.int64)
        position[rows] = numpy.arange(len(rows))
        at = position[mixed.fragmented_rows]
        kept = at >= 0
        pieces = [mixed.pieces[i] for i in numpy.flatnonzero(kept).tolist()]
        side = Side(*(column[rows] for column in side))
        sides.append((side, fragment_columns(side, at[kept], pieces, keys)))
    return _apart(sides, n_docs)


def _apart(
    sides: List[Tuple[Side, FragmentColumns]], n_docs: int
) -> Tuple[Side, Side, Tuple[FragmentColumns, FragmentColumns], numpy.ndarray]:
    """The sides without the documents in which two spans of a side share
    a position, and those documents (a mask)."""
    (gold, gold_columns), (pred, pred_columns) = sides
    alone = sharing_docs(gold, gold_columns, n_docs) | sharing_docs(pred, pred_columns, n_docs)
    if alone.any():
        for i, (side, columns) in enumerate(sides):
            keep = ~alone[side.doc]
            sides[i] = (Side(*(column[keep] for column in side)), select_columns(columns, keep))
    return sides[0][0], sides[1][0], (sides[0][1], sides[1][1]), alone


class MixedSide(NamedTuple):
    """One side of a corpus read by `mixed_side`."""

    side: Side  # outer bounds, sorted, each span once
    spans: List[Any]  # every span as read, document after document
    offsets: numpy.ndarray  # document i's spans are spans[offsets[i]:offsets[i + 1]]
    fragmented: numpy.ndarray  # the documents with a span of several fragments
    fragmented_rows: numpy.ndarray  # the rows of side that have several fragments, in order
    pieces: List[Any]  # their fragments

    def doc_spans(self, doc: int) -> List[Any]:
        """One document's spans as `spans.read_doc_spans` gives them."""
        low, high = self.offsets[doc], self.offsets[doc + 1]
        return sorted({span if type(span) is not tuple else Span(*span) for span in self.spans[low:high]})


def mixed_side(docs: Sequence[Any], label_ids: Callable[[Sequence[str]], numpy.ndarray]) -> Optional[MixedSide]:
    """The spans of documents of (start, end, label) tuples and
    {"fragments", "label"} or {"start", "end", "label"} dicts, checked, on
    arrays; None for input of another form or with a bad span (read span
    by span then, which says what is wrong)."""
    try:
        lengths = [len(d) for d in docs]
        spans = list(chain.from_iterable(docs))
        others = [i for i, span in enumerate(spans) if type(span) is not tuple]
        for i in others:
            item = spans[i]
            if type(item) is not dict:
                return None
            if "fragments" in item:
                spans[i] = _fragmented(item)
            else:
                spans[i] = (item["start"], item["end"], item["label"])
        if set(map(len, spans)) - {3, 4}:
            return None
        starts, ends, labels = tuple(zip(*spans))[:3] if spans else ((), (), ())
    except (TypeError, KeyError, ValueError):
        return None
    if set(map(type, starts)) - {int} or set(map(type, ends)) - {int} or set(map(type, labels)) - {str}:
        return None
    start = numpy.array(starts, dtype=numpy.int64)
    end = numpy.array(ends, dtype=numpy.int64)
    if (start < 0).any() or (start >= end).any():
        return None
    label = label_ids(labels)
    n = len(lengths)
    offsets = numpy.zeros(n + 1, dtype=numpy.int64)
    numpy.cumsum(lengths, out=offsets[1:])
    doc = numpy.repeat(numpy.arange(n), lengths)
    fragmented = numpy.zeros(n, dtype=bool)
    shape = numpy.full(len(spans), -1, dtype=numpy.int64)  # the fragments' id, told apart when the bounds are equal
    rows = [i for i in others if len(spans[i]) > 3]
    if rows:
        fragmented[doc[rows]] = True
        ids: Dict[Any, int] = {}
        shape[rows] = [ids.setdefault(spans[i][3], len(ids)) for i in rows]
    order = numpy.arange(len(doc))
    same_doc = doc[1:] == doc[:-1]
    if (~same_doc | (start[1:] >= end[:-1])).all():  # sorted already, and so no span twice
        return _mixed(doc, start, end, label, order, shape, spans, offsets, fragmented)
    order = numpy.lexsort((shape, label, end, start, doc))
    doc, start, end, label, shape = doc[order], start[order], end[order], label[order], shape[order]
    repeat = numpy.zeros(len(order), dtype=bool)
    repeat[1:] = (
        (doc[1:] == doc[:-1])
        & (start[1:] == start[:-1])
        & (end[1:] == end[:-1])
        & (label[1:] == label[:-1])
        & (shape[1:] == shape[:-1])
    )
    if repeat.any():
        doc, start, end, label, order, shape = (column[~repeat] for column in (doc, start, end, label, order, shape))
    return _mixed(doc, start, end, label, order, shape, spans, offsets, fragmented)


def _mixed(doc, start, end, label, order, shape, spans, offsets, fragmented) -> MixedSide:
    """The MixedSide of sorted columns (order: each row's span in spans;
    shape: -1 for a contiguous span)."""
    fragmented_rows = numpy.flatnonzero(shape >= 0)
    pieces = [spans[i][3] for i in order[fragmented_rows].tolist()]
    return MixedSide(Side(doc, start, end, label), spans, offsets, fragmented, fragmented_rows, pieces)


def _fragmented(item: Dict[str, Any]) -> Any:
    """The span of a {"fragments", "label"} dict: the usual one of two or
    more [start, end] lists read at once, any other by `spans.read_span`."""
    if len(item) == 2:
        label = item["label"]
        pieces = item["fragments"]
        if type(label) is str and type(pieces) is list and len(pieces) == 2:
            (a, b), (c, d) = pieces
            if type(a) is int and type(b) is int and type(c) is int and type(d) is int and 0 <= a < b < c < d:
                return FragmentedSpan(a, d, label, ((a, b), (c, d)))
        if type(label) is str and type(pieces) is list and len(pieces) > 1:
            fragments = normal_fragments(pieces, "")
            if len(fragments) > 1:
                return FragmentedSpan(fragments[0][0], fragments[-1][1], label, fragments)
    return read_span(item, "")
