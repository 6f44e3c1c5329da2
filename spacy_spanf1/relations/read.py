"""Documents of spans and relations read onto arrays, checked.

A document is a dict {"spans": [...], "relations": [...]} whose relations
are {"head": i, "tail": j, "label": L} dicts or (i, j, L) tuples, i and j
indices into its "spans" (a span: a (start, end, label) tuple, a
{"start", "end", "label"} dict or a spaCy Span), or a `Document` whose
`relations` are (head span, tail span, label) by value. Spans are a set
(identical spans once), and so are relations; a relation whose head or
tail is not a span of its document, that has no label, or that joins a
span to itself is an InputError naming it.
"""

from itertools import chain, repeat
from operator import itemgetter
from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Set, Tuple

import numpy

from ..engine.columns import Side
from ..exceptions import InputError
from ..model import Document
from ..settings import UNITS
from ..spans import Span, all_ints, checked_offsets, is_int, read_span, spacy_span_tuples, span_problem

__all__ = ["RelationSide", "ValueDoc", "read_relation_docs"]

_SHAPE_HELP = (
    "A document is a dict with 'spans' (a list of spans) and 'relations' (a list of "
    "{'head': i, 'tail': j, 'label': ...} dicts, i and j indices into its spans), or a Document."
)
_RELATION_HELP = "A relation is a {'head': i, 'tail': j, 'label': ...} dict or an (i, j, label) tuple."
_TUPLE = (itemgetter(0), itemgetter(1), itemgetter(2))
_DICT = (itemgetter("start"), itemgetter("end"), itemgetter("label"))
_RELATION_DICT = (itemgetter("head"), itemgetter("tail"), itemgetter("label"))


class ValueDoc(NamedTuple):
    """A document whose relations name their spans by value, as
    `Document.relations` does: (head span, tail span, label)."""

    spans: List[Span]
    relations: Optional[List[Tuple[Span, Span, str]]]
    name: str = ""


class RelationSide(NamedTuple):
    """One side of a batch on arrays.

    spans (Side): Its spans sorted by (doc, start, end, label code),
        identical spans once; label codes into the batch's span labels.
    head, tail (numpy.ndarray): Each relation's arguments, as indices into
        `spans`; relations once each, a symmetric label's with head < tail.
    label (numpy.ndarray): Each relation's label, a code into the batch's
        relation labels.
    """

    spans: Side
    head: numpy.ndarray
    tail: numpy.ndarray
    label: numpy.ndarray

    @property
    def doc(self) -> numpy.ndarray:
        """The document of each relation."""
        return self.spans.doc[self.head]


class RelationBatch(NamedTuple):
    gold: RelationSide
    pred: RelationSide
    n_docs: int
    span_labels: List[str]
    relation_labels: List[str]


class _Raw(NamedTuple):
    """A side as read: flat span columns and relations on raw positions."""

    starts: List[int]
    ends: List[int]
    labels: List[str]
    lengths: List[int]
    heads: numpy.ndarray  # positions among the side's spans, all documents end to end
    tails: numpy.ndarray
    rel_labels: List[str]
    rel_doc: numpy.ndarray  # the document of each relation, in the batch


def read_relation_docs(
    gold_docs: Sequence[Any],
    pred_docs: Sequence[Any],
    unit: str = UNITS[0],
    offset: int = 0,
    symmetric: frozenset = frozenset(),
    relation_labels: Optional[frozenset] = None,
) -> RelationBatch:
    """Both sides of a batch of documents, checked (documents counted from
    `offset` in messages); relations of labels outside `relation_labels`
    (when given) left out."""
    raws = [_read_side(docs, side, unit, offset) for side, docs in (("gold", gold_docs), ("pred", pred_docs))]
    span_labels = sorted(set(raws[0].labels).union(raws[1].labels))
    span_codes = {label: code for code, label in enumerate(span_labels)}
    names = sorted(set(raws[0].rel_labels).union(raws[1].rel_labels))
    if relation_labels is not None:
        names = [label for label in names if label in relation_labels]
    rel_codes = {label: code for code, label in enumerate(names)}
    sides = [
        _on_arrays(raw, side, offset, span_codes, rel_codes, symmetric, span_labels)
        for side, raw in zip(("gold", "pred"), raws)
    ]
    return RelationBatch(sides[0], sides[1], len(gold_docs), span_labels, names)


def _read_side(docs: Sequence[Any], side: str, unit: str, offset: int) -> _Raw:
    span_lists: List[Any] = []
    rel_lists: List[Any] = []
    for n, doc in enumerate(docs):
        at = offset + n
        if isinstance(doc, (Document, ValueDoc)):
            spans: Any = doc.spans or []
            relations = _by_value(spans, doc.relations, side, at, doc.name)
        elif isinstance(doc, dict):
            if "spans" not in doc:
                raise InputError(f"Document {at} of the {side} side has no 'spans': {_keys(doc)}. {_SHAPE_HELP}")
            spans = doc["spans"]
            relations = doc.get("relations") or []
        else:
            raise InputError(f"Document {at} of the {side} side is a {type(doc).__name__}. {_SHAPE_HELP}")
        spans = spacy_span_tuples(spans, unit)
        if isinstance(spans, (str, bytes, dict)) or not hasattr(spans, "__len__"):
            raise InputError(f"The 'spans' of {side} document {at} are {spans!r}, not a list of spans.")
        span_lists.append(spans)
        if isinstance(relations, (str, bytes, dict)) or not hasattr(relations, "__iter__"):
            raise InputError(f"The 'relations' of {side} document {at} are {relations!r}, not a list. {_RELATION_HELP}")
        rel_lists.append(relations if type(relations) is list else list(relations))
    starts, ends, labels = _span_columns(span_lists, side, unit, offset)
    lengths = list(map(len, span_lists))
    heads, tails, rel_labels, rel_doc = _relation_columns(rel_lists, lengths, side, offset)
    return _Raw(starts, ends, labels, lengths, heads, tails, rel_labels, rel_doc)


def _relation_columns(
    rel_lists: List[List[Any]], lengths: List[int], side: str, offset: int
) -> Tuple[numpy.ndarray, numpy.ndarray, List[str], numpy.ndarray]:
    """(heads, tails: positions among the side's spans end to end; labels;
    the document of each) of the relations of a side, checked: all at once
    when every relation is well formed, else one by one, which says what
    is wrong with the first bad one."""
    counts = list(map(len, rel_lists))
    doc = numpy.repeat(numpy.arange(len(rel_lists), dtype=numpy.int64), counts)
    base = numpy.cumsum([0, *lengths[:-1]]).astype(numpy.int64) if lengths else numpy.zeros(0, dtype=numpy.int64)
    flat = list(chain.from_iterable(rel_lists))
    columns = _three_columns(flat, _RELATION_DICT, {tuple, list})
    if columns is not None and all_ints(columns[0]) and all_ints(columns[1]) and set(map(type, columns[2])) <= {str}:
        heads, tails, labels = columns
        if "" not in labels:
            head = numpy.fromiter(heads, dtype=numpy.int64, count=len(flat))
            tail = numpy.fromiter(tails, dtype=numpy.int64, count=len(flat))
            limit = numpy.asarray(lengths, dtype=numpy.int64)[doc]
            if ((head >= 0) & (head < limit) & (tail >= 0) & (tail < limit)).all():
                return head + base[doc], tail + base[doc], labels, doc
    found = [
        _relation(relation, side, offset + n, k, lengths[n])
        for n, relations in enumerate(rel_lists)
        for k, relation in enumerate(relations)
    ]
    head = numpy.array([h for h, _, _ in found], dtype=numpy.int64)
    tail = numpy.array([t for _, t, _ in found], dtype=numpy.int64)
    return head + base[doc], tail + base[doc], [label for _, _, label in found], doc


def _keys(doc: Dict[str, Any]) -> str:
    return "its keys are " + (", ".join(repr(k) for k in doc) or "none")


def _relation(relation: Any, side: str, doc: int, k: int, n_spans: int) -> Tuple[int, int, str]:
    """(head, tail, label) of one relation, checked."""
    name = f"Relation {k} of {side} document {doc}"
    if isinstance(relation, dict):
        missing = [key for key in ("head", "tail") if key not in relation]
        if missing:
            raise InputError(f"{name} lacks {', '.join(repr(key) for key in missing)}: {relation!r}. {_RELATION_HELP}")
        head, tail, label = relation["head"], relation["tail"], relation.get("label")
    elif isinstance(relation, (tuple, list)) and len(relation) == 3:
        head, tail, label = relation
    else:
        raise InputError(f"{name} is {relation!r}. {_RELATION_HELP}")
    if label is None or label == "":
        raise InputError(f"{name} has no label: {relation!r}. Every relation needs a label (a non-empty string).")
    if not isinstance(label, str):
        raise InputError(f"{name} has a label of type {type(label).__name__} ({label!r}); labels are strings.")
    for role, index in (("head", head), ("tail", tail)):
        if not is_int(index):
            raise InputError(f"{name} has {role} {index!r}: it must be the index of a span of the document.")
        if not 0 <= index < n_spans:
            has = f"spans 0 to {n_spans - 1}" if n_spans else "no spans"
            raise InputError(
                f"{name} ({label!r}) names span {index} as its {role}, which the document lacks (it has {has})."
            )
    return int(head), int(tail), label


def _by_value(spans: List[Span], relations: Any, side: str, at: int, name: str) -> List[Tuple[int, int, str]]:
    """Relations that name their spans by value as span indices."""
    if not relations:
        return []
    index = {span: i for i, span in enumerate(spans)}
    found = []
    for k, (head, tail, label) in enumerate(relations):
        for role, span in (("head", head), ("tail", tail)):
            if span not in index:
                named = f" ({name})" if name else ""
                raise InputError(
                    f"Relation {k} ({label!r}) of {side} document {at}{named} has the {role} {tuple(span)!r}, "
                    "which is not among the document's spans."
                )
        found.append((index[head], index[tail], label))
    return found


def _span_columns(span_lists: List[Any], side: str, unit: str, offset: int) -> Tuple[List[Any], List[Any], List[Any]]:
    """(starts, ends, labels) of every span of a side, checked."""
    columns = _three_columns(list(chain.from_iterable(span_lists)), _DICT, {tuple, list, Span})
    if columns is not None and all_ints(columns[0]) and all_ints(columns[1]):
        starts, ends, labels = columns
    else:
        rows = [
            read_span(item, f"{i} of {side} document {offset + n}", unit)
            for n, spans in enumerate(span_lists)
            for i, item in enumerate(spans)
        ]
        starts, ends, labels = ([row[c] for row in rows] for c in range(3))
    bad = checked_offsets(starts, ends, labels)[0]
    if bad is not None:
        doc, i = _locate(list(map(len, span_lists)), bad)
        raise ValueError(
            f"Span {i} of {side} document {offset + doc} {span_problem(starts[bad], ends[bad], labels[bad])}"
        )
    return starts, ends, labels


def _three_columns(
    flat: List[Any], by_key: Tuple[Any, ...], sequences: Set[type]
) -> Optional[Tuple[List[Any], List[Any], List[Any]]]:
    """The three columns of items that are all dicts (read by the getters
    `by_key`) or all sequences of three of the types `sequences`, at once;
    None when they are not, or a dict lacks a key (then the items are read
    one by one, which says what is wrong)."""
    kinds = set(map(type, flat))
    if kinds == {dict}:
        columns = by_key
    elif kinds <= sequences and set(map(len, flat)) <= {3}:
        columns = _TUPLE
    else:
        return None
    try:
        first, second, third = (list(map(get, flat)) for get in columns)
    except (KeyError, TypeError):
        return None
    return first, second, third


def _locate(lengths: List[int], at: int) -> Tuple[int, int]:
    """(document, index in it) of the at-th span of a side."""
    ends = numpy.cumsum(lengths)
    doc = int(numpy.searchsorted(ends, at, side="right"))
    return doc, at - (int(ends[doc - 1]) if doc else 0)


def _on_arrays(
    raw: _Raw,
    side: str,
    offset: int,
    span_codes: Dict[str, int],
    rel_codes: Dict[str, int],
    symmetric: frozenset,
    span_labels: List[str],
) -> RelationSide:
    n = len(raw.starts)
    doc = numpy.repeat(numpy.arange(len(raw.lengths), dtype=numpy.int64), raw.lengths)
    start = numpy.fromiter(raw.starts, dtype=numpy.int64, count=n)
    end = numpy.fromiter(raw.ends, dtype=numpy.int64, count=n)
    label = numpy.fromiter(map(span_codes.__getitem__, raw.labels), dtype=numpy.int64, count=n)
    # sorted, identical spans once; `rank`: each raw position's place among them
    order = numpy.lexsort((label, end, start, doc))
    new = numpy.ones(n, dtype=bool)
    if n > 1:
        o = order
        new[1:] = (
            (doc[o[1:]] != doc[o[:-1]])
            | (start[o[1:]] != start[o[:-1]])
            | (end[o[1:]] != end[o[:-1]])
            | (label[o[1:]] != label[o[:-1]])
        )
    rank = numpy.empty(n, dtype=numpy.int64)
    rank[order] = numpy.cumsum(new) - 1
    kept = order[new]
    spans = Side(doc[kept], start[kept], end[kept], label[kept])
    head = rank[raw.heads]
    tail = rank[raw.tails]
    same = numpy.flatnonzero(head == tail)
    if len(same):
        first = int(same[0])
        in_doc = raw.rel_doc[:first] == raw.rel_doc[first]
        at, k = offset + int(raw.rel_doc[first]), int(in_doc.sum())
        s = int(head[same[0]])
        span = (int(spans.start[s]), int(spans.end[s]), span_labels[int(spans.label[s])])
        raise InputError(
            f"Relation {k} ({raw.rel_labels[same[0]]!r}) of {side} document {at} joins the span {span!r} to itself: "
            "a relation is between two different spans."
        )
    n_rel = len(raw.rel_labels)
    rel = numpy.fromiter(map(rel_codes.get, raw.rel_labels, repeat(-1, n_rel)), dtype=numpy.int64, count=n_rel)
    keep = rel >= 0
    if not keep.all():
        head, tail, rel = head[keep], tail[keep], rel[keep]
    head, tail = symmetric_order(head, tail, rel, symmetric_codes(rel_codes, symmetric))
    return RelationSide(spans, *unique_relations(head, tail, rel, max(n, 1), max(len(rel_codes), 1)))


def symmetric_codes(rel_codes: Dict[str, int], symmetric: frozenset) -> numpy.ndarray:
    """For each relation label code, whether the label is symmetric."""
    flags = numpy.zeros(max(len(rel_codes), 1), dtype=bool)
    for label, code in rel_codes.items():
        flags[code] = label in symmetric
    return flags


def symmetric_order(
    head: numpy.ndarray, tail: numpy.ndarray, label: numpy.ndarray, symmetric: numpy.ndarray
) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """(head, tail) with the arguments of symmetric labels in order (the
    smaller index first), so that (a, b) and (b, a) are one relation."""
    if not symmetric.any() or not len(label):
        return head, tail
    swap = symmetric[label] & (head > tail)
    return numpy.where(swap, tail, head), numpy.where(swap, head, tail)


def unique_relations(
    head: numpy.ndarray, tail: numpy.ndarray, label: numpy.ndarray, n_spans: int, n_labels: int
) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """The relations once each, sorted by (head, tail, label)."""
    key = (head * n_spans + tail) * n_labels + label
    key = numpy.unique(key)
    label = key % n_labels
    pair = key // n_labels
    return pair // n_spans, pair % n_spans, label
