"""The flat columns the batched engine works on: the spans of one side of a
batch, the outcomes it gives, and the small numpy steps over them."""

from typing import Dict, List, NamedTuple, Tuple

import numpy


class Side(NamedTuple):
    """The spans of one side of a batch, sorted by (doc, start, end)."""

    doc: numpy.ndarray
    start: numpy.ndarray
    end: numpy.ndarray
    label: numpy.ndarray


class Units(NamedTuple):
    """The outcomes of a batch, on its own indices: for outcome i, its
    document, count code, error kind code (outcomes.py), gold index (-1 for
    none) and predicted indices pred[pred_ptr[i]:pred_ptr[i + 1]]."""

    doc: numpy.ndarray
    code: numpy.ndarray
    kind: numpy.ndarray
    gold: numpy.ndarray
    pred_ptr: numpy.ndarray
    pred: numpy.ndarray


def units_of(parts) -> Units:
    """Units from parts of (doc, code, kind, gold, pred sizes, pred)."""
    doc, code, kind, gold, sizes, pred = (
        numpy.concatenate([numpy.asarray(part[i], dtype=numpy.int64) for part in parts]) for i in range(6)
    )
    return Units(doc, code, kind, gold, numpy.r_[0, numpy.cumsum(sizes)], pred)


def named_cells(
    codes: numpy.ndarray, n_labels: int, labels: List[str], counted: bool = False
) -> Dict[Tuple[str, str], int]:
    """Confusion cells from codes gold * (n_labels + 1) + predicted, label
    ids from 0, n_labels standing for "O" (counted: codes is already the
    count of each code): (gold, predicted) -> n."""
    width = n_labels + 1
    counts = codes if counted else numpy.bincount(codes, minlength=width * width)
    names = list(labels[:n_labels]) + ["O"]
    return {
        (names[code // width], names[code % width]): n
        for code, n in zip(numpy.flatnonzero(counts).tolist(), counts[counts > 0].tolist())
    }


def ones(n: int) -> numpy.ndarray:
    return numpy.ones(n, dtype=numpy.int64)


def best_partner(key: numpy.ndarray, other: numpy.ndarray, shared: numpy.ndarray, n: int):
    """For each of n spans (key), the span of the other side it shares most
    positions with (ties: the earlier), and how many; -1 where none."""
    partner = numpy.full(n, -1, dtype=numpy.int64)
    most = numpy.zeros(n, dtype=numpy.int64)
    if len(key):
        order = numpy.lexsort((other, -shared, key))
        first = order[numpy.r_[True, key[order][1:] != key[order][:-1]]]
        partner[key[first]] = other[first]
        most[key[first]] = shared[first]
    return partner, most


def interval_pairs(gold: Side, pred: Side, n_docs: int) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """(prediction, gold span, shared positions) of the overlapping pairs
    of a batch in which no two spans of one side and document overlap,
    sorted by prediction then gold span: the documents laid end to end on
    one line, each prediction's gold spans found by two binary searches."""
    width = numpy.zeros(n_docs, dtype=numpy.int64)
    numpy.maximum.at(width, gold.doc, gold.end)
    numpy.maximum.at(width, pred.doc, pred.end)
    base = numpy.cumsum(width + 1) - (width + 1)
    g_start = gold.start + base[gold.doc]
    g_end = gold.end + base[gold.doc]
    p_start = pred.start + base[pred.doc]
    p_end = pred.end + base[pred.doc]
    lo = numpy.searchsorted(g_end, p_start, side="right")
    hi = numpy.searchsorted(g_start, p_end, side="left")
    n = numpy.maximum(hi - lo, 0)
    total = int(n.sum())
    pp = numpy.repeat(numpy.arange(len(pred.start)), n)
    first = numpy.cumsum(n) - n
    pg = numpy.repeat(lo, n) + numpy.arange(total) - numpy.repeat(first, n)
    return pp, pg, numpy.minimum(g_end[pg], p_end[pp]) - numpy.maximum(g_start[pg], p_start[pp])


def overlapping_docs(side: Side, n_docs: int) -> numpy.ndarray:
    """Boolean mask of the documents in which two spans of `side` overlap."""
    same_doc = side.doc[1:] == side.doc[:-1]
    clash = same_doc & (side.start[1:] < side.end[:-1])
    mask = numpy.zeros(n_docs, dtype=bool)
    mask[side.doc[1:][clash]] = True
    return mask


def sorted_unique(side: Side) -> Side:
    """side with its spans in (doc, start, end, label) order, each once:
    side itself when every span of a document starts at or after the end
    of the one before (sorted already, and so no span twice)."""
    doc, start, end = side.doc, side.start, side.end
    if not len(doc) or ((doc[1:] > doc[:-1]) | ((doc[1:] == doc[:-1]) & (start[1:] >= end[:-1]))).all():
        return side
    order = numpy.lexsort((side.label, end, start, doc))
    side = Side(*(column[order] for column in side))
    repeat = numpy.zeros(len(order), dtype=bool)
    repeat[1:] = (
        (side.doc[1:] == side.doc[:-1])
        & (side.start[1:] == side.start[:-1])
        & (side.end[1:] == side.end[:-1])
        & (side.label[1:] == side.label[:-1])
    )
    return Side(*(column[~repeat] for column in side)) if repeat.any() else side
