"""Spans that carry a knowledge-base id, read from the Python API onto
arrays, checked.

A linked span is a {"start", "end", "label", "kb_id"} dict, a (start, end,
label, kb_id) tuple or a spaCy Span (its `kb_id_`); a dict without
"kb_id" and a (start, end, label) tuple have none. The id is kept as
given (missing and None as "", spaCy's `kb_id_` of a span without one):
`nel` judges the ids as spaCy does; the neleval measures read an id that
is "" or starts with "NIL" as NIL (`LinkTable.nil`).
"""

from itertools import chain
from operator import itemgetter, methodcaller
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy

from ..settings import UNITS
from ..spans import checked_offsets, is_spacy_span, span_problem

__all__ = ["LinkSide", "LinkTable", "is_nil_id", "read_link_docs"]

_KB_HELP = "Knowledge-base ids are strings (missing, None or '' for none)."
_SHAPE_HELP = (
    "A linked span is a (start, end, label, kb_id) tuple, a dict with keys 'start', 'end', "
    "'label' and 'kb_id' (optional), or a spaCy Span."
)
_TUPLE4 = (itemgetter(0), itemgetter(1), itemgetter(2), itemgetter(3))
_KB_KEY = itemgetter("kb_id")
_DICT = (itemgetter("start"), itemgetter("end"), itemgetter("label"), methodcaller("get", "kb_id"))


def is_nil_id(kb_id: str) -> bool:
    """Whether a knowledge-base id is NIL under the neleval measures: ""
    (no id) or an id that starts with "NIL" (neleval's rule; spaCy's
    `EntityLinker.NIL` is "NIL")."""
    return not kb_id or kb_id.startswith("NIL")


class LinkSide(NamedTuple):
    """The linked spans of one side of a batch, sorted by (doc, start, end,
    label, kb id) with identical spans once: columns of codes into the
    LinkTable's `labels` and `kb_ids`."""

    doc: numpy.ndarray
    start: numpy.ndarray
    end: numpy.ndarray
    label: numpy.ndarray
    kb: numpy.ndarray

    def select(self, keep: numpy.ndarray) -> "LinkSide":
        return LinkSide(*(column[keep] for column in self))


class LinkTable(NamedTuple):
    """A batch of documents, both sides, on arrays.

    labels (List[str]): The labels the `label` codes stand for.
    kb_ids (List[str]): The ids the `kb` codes stand for, as given ("" for
        none).
    nil (numpy.ndarray): For each kb code, whether it is NIL for neleval.
    """

    gold: LinkSide
    pred: LinkSide
    n_docs: int
    labels: List[str]
    kb_ids: List[str]
    nil: numpy.ndarray


def read_link_docs(
    gold_docs: Sequence[Any], pred_docs: Sequence[Any], unit: str = UNITS[0], offset: int = 0
) -> LinkTable:
    """The linked spans of a batch of documents (one list of spans per
    document and side), checked; bad input is a ValueError naming the
    document (counted from `offset`) and the span."""
    read = []
    for side, docs in (("gold", gold_docs), ("pred", pred_docs)):
        starts, ends, labels, kbs, lengths = _columns(docs, side, unit, offset)
        bad, start, end = checked_offsets(starts, ends, labels)
        if bad is not None or start is None or end is None:
            doc, i = _locate(lengths, bad or 0)
            problem = span_problem(starts[bad or 0], ends[bad or 0], labels[bad or 0])
            raise ValueError(f"Span {i} of {side} document {offset + doc} {problem}")
        kind = set(map(type, kbs))
        if not kind <= {str, type(None)}:
            at = next(n for n, kb in enumerate(kbs) if kb is not None and type(kb) is not str)
            doc, i = _locate(lengths, at)
            raise ValueError(
                f"Span {i} of {side} document {offset + doc} has a kb_id of type {type(kbs[at]).__name__} "
                f"({kbs[at]!r}). {_KB_HELP}"
            )
        if type(None) in kind:
            kbs = ["" if kb is None else kb for kb in kbs]
        read.append((start, end, labels, kbs, lengths))
    label_codes = _codes(read[0][2], read[1][2])
    kb_codes = _codes(read[0][3], read[1][3])
    sides = []
    for start, end, labels, kbs, lengths in read:
        label = numpy.fromiter(map(label_codes.__getitem__, labels), dtype=numpy.int64, count=len(labels))
        kb = numpy.fromiter(map(kb_codes.__getitem__, kbs), dtype=numpy.int64, count=len(kbs))
        doc_col = numpy.repeat(numpy.arange(len(lengths)), lengths)
        sides.append(_sorted_unique(LinkSide(doc_col, start, end, label, kb)))
    kb_ids = list(kb_codes)
    nil = numpy.fromiter(map(is_nil_id, kb_ids), dtype=bool, count=len(kb_ids))
    return LinkTable(sides[0], sides[1], len(gold_docs), list(label_codes), kb_ids, nil)


def _codes(a: List[str], b: List[str]) -> Dict[str, int]:
    """A code for each string of a and b (0, 1, ... in sorted order, so that
    codes sort as the strings do)."""
    return {value: code for code, value in enumerate(sorted(set(a).union(b)))}


def _columns(docs: Sequence[Any], side: str, unit: str, offset: int) -> Tuple[List[Any], ...]:
    """(starts, ends, labels, kb ids, spans per document) of a side."""
    if not set(map(type, docs)) <= {list, tuple}:
        for n, doc in enumerate(docs):
            if isinstance(doc, (str, bytes, dict)):
                raise ValueError(
                    f"Document {offset + n} of the {side} spans is a {type(doc).__name__}, not a list of spans."
                )
            try:
                len(doc)
            except TypeError:
                raise ValueError(
                    f"Document {offset + n} of the {side} spans is {doc!r}, not a list of spans."
                ) from None
    lengths = list(map(len, docs))
    flat = list(chain.from_iterable(docs))
    if not flat:
        return [], [], [], [], lengths
    kinds = set(map(type, flat))
    getters: Optional[Tuple[Any, ...]] = None
    if kinds == {dict}:
        getters = _DICT
    elif kinds <= {tuple, list} and set(map(len, flat)) == {4}:
        getters = _TUPLE4
    if getters is not None:
        try:
            starts, ends, labels = (list(map(get, flat)) for get in getters[:3])
        except (KeyError, TypeError):
            pass
        else:
            try:
                kbs = list(map(_KB_KEY, flat)) if getters is _DICT else list(map(getters[3], flat))
            except KeyError:  # some dicts have no "kb_id"
                kbs = list(map(getters[3], flat))
            return starts, ends, labels, kbs, lengths
    rows = []
    for at, item in enumerate(flat):
        rows.append(_one_span(item, side, unit, offset, lengths, at))
    return (*(list(column) for column in zip(*rows)), lengths)


def _one_span(item: Any, side: str, unit: str, offset: int, lengths: List[int], at: int) -> Tuple[Any, ...]:
    """(start, end, label, kb_id) of one span of any accepted shape."""
    if is_spacy_span(item):
        if unit == "char":
            return item.start_char, item.end_char, item.label_, item.kb_id_
        return item.start, item.end, item.label_, item.kb_id_
    if isinstance(item, dict):
        missing = [key for key in ("start", "end", "label") if key not in item]
        if not missing:
            return item["start"], item["end"], item["label"], item.get("kb_id")
        doc, i = _locate(lengths, at)
        raise ValueError(
            f"Span {i} of {side} document {offset + doc} lacks {', '.join(repr(k) for k in missing)}: "
            f"{item!r}. {_SHAPE_HELP}"
        )
    if isinstance(item, (tuple, list)) and len(item) in (3, 4):
        return (*item, None) if len(item) == 3 else tuple(item)
    doc, i = _locate(lengths, at)
    raise ValueError(f"Span {i} of {side} document {offset + doc} is {item!r}. {_SHAPE_HELP}")


def _locate(lengths: List[int], at: int) -> Tuple[int, int]:
    """(document, index in it) of the at-th span of a side."""
    ends = numpy.cumsum(lengths)
    doc = int(numpy.searchsorted(ends, at, side="right"))
    return doc, at - (int(ends[doc - 1]) if doc else 0)


def _sorted_unique(side: LinkSide) -> LinkSide:
    """The side sorted by (doc, start, end, label, kb), identical spans once."""
    doc, start, end = side.doc, side.start, side.end
    if not len(doc):
        return side
    if ((doc[1:] > doc[:-1]) | ((doc[1:] == doc[:-1]) & (start[1:] >= end[:-1]))).all():
        return side  # sorted, and so no span twice
    order = numpy.lexsort((side.kb, side.label, end, start, doc))
    side = LinkSide(*(column[order] for column in side))
    same = numpy.ones(len(order) - 1, dtype=bool)
    for column in side:
        same &= column[1:] == column[:-1]
    return side.select(numpy.r_[True, ~same]) if same.any() else side
