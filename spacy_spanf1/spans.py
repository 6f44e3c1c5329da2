"""Spans as plain tuples, read from user input and checked.

A span is `Span(start, end, label)` with an exclusive end. Reading spans
out of spaCy objects lives in `integrations/spacy.py`.
"""

from numbers import Integral
from typing import Any, Dict, Iterable, List, NamedTuple, Optional, Sequence, Set, Tuple, TypeGuard, Union, cast

import numpy
from .settings import UNITS


class Span(NamedTuple):
    """A labelled span of one document; end is exclusive."""

    start: int
    end: int
    label: str


class FragmentedSpan(NamedTuple):
    """A labelled span of several fragments (a discontinuous entity):
    start and end are its outer bounds, fragments its (start, end) pieces,
    sorted, at least two, none touching another (`span_of_fragments` makes
    them so). Every scheme scores it as the set of positions its fragments
    cover."""

    start: int
    end: int
    label: str
    fragments: Tuple[Tuple[int, int], ...]


#: A span as the engine reads it: contiguous, or of several fragments.
AnySpan = Union[Span, FragmentedSpan]


def span_fragments(span: Any) -> Tuple[Tuple[int, int], ...]:
    """The (start, end) fragments of a span of either kind."""
    return span[3] if len(span) > 3 else ((span[0], span[1]),)


def span_size(span: Any) -> int:
    """How many positions a span of either kind covers."""
    if len(span) > 3:
        return sum(end - start for start, end in span[3])
    return span[1] - span[0]


def is_fragmented(span: Any) -> bool:
    """Whether a span has several fragments."""
    return len(span) > 3


def normal_fragments(
    pieces: Any, where: str, *, overlapping: bool = True, limit: Optional[int] = None
) -> Tuple[Tuple[int, int], ...]:
    """The fragments of one span, checked, sorted and merged where they
    touch or overlap. overlapping=False: two fragments that share a
    position are an error (a format that forbids them). limit: the end no
    fragment may pass. A ValueError says what is wrong, naming `where`."""
    if isinstance(pieces, (str, bytes)) or not hasattr(pieces, "__iter__"):
        raise ValueError(f"Span {where} has fragments {pieces!r}; fragments are a list of [start, end] pairs")
    pairs = []
    for piece in pieces:
        if type(piece) in (list, tuple) and len(piece) == 2:  # the usual fragment, checked at once
            start, end = piece
            if type(start) is int and type(end) is int and 0 <= start < end and (limit is None or end <= limit):
                pairs.append((start, end))
                continue
        if not isinstance(piece, (tuple, list)) or len(piece) != 2:
            raise ValueError(f"Span {where} has the fragment {piece!r}; a fragment is a [start, end] pair")
        start, end = piece
        if not (is_int(start) and is_int(end)):
            raise ValueError(f"Span {where} has the fragment {piece!r}; fragment offsets are integers")
        if start >= end:
            raise ValueError(
                f"Span {where} has the empty fragment [{start}, {end}]; a fragment needs start < end (end exclusive)"
            )
        if start < 0 or (limit is not None and end > limit):
            bound = "" if limit is None else f" <= {limit}"
            raise ValueError(
                f"Span {where} has the fragment [{start}, {end}] out of the text: fragments need 0 <= start < end{bound}"
            )
        pairs.append((int(start), int(end)))
    if not pairs:
        raise ValueError(f"Span {where} has no fragments; give at least one [start, end] pair")
    pairs.sort()
    merged = [pairs[0]]
    for start, end in pairs[1:]:
        last_start, last_end = merged[-1]
        if start < last_end and not overlapping:
            raise ValueError(
                f"Span {where} has the overlapping fragments [{last_start}, {last_end}] and [{start}, {end}]; "
                "the fragments of one span may not share a position"
            )
        if start <= last_end:
            merged[-1] = (last_start, max(last_end, end))
        else:
            merged.append((start, end))
    return tuple(merged)


def shared_positions(a: Sequence[Tuple[int, int]], b: Sequence[Tuple[int, int]]) -> int:
    """Positions two sorted, disjoint fragment lists share."""
    i = j = total = 0
    while i < len(a) and j < len(b):
        start = max(a[i][0], b[j][0])
        end = min(a[i][1], b[j][1])
        if start < end:
            total += end - start
        if a[i][1] <= b[j][1]:
            i += 1
        else:
            j += 1
    return total


def union_fragments(spans: Sequence[Span]) -> Tuple[Tuple[int, int], ...]:
    """The positions several spans cover, as sorted, disjoint fragments."""
    pieces = sorted(piece for span in spans for piece in span_fragments(span))
    merged: List[Tuple[int, int]] = []
    for start, end in pieces:
        if merged and start <= merged[-1][1]:
            if end > merged[-1][1]:
                merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return tuple(merged)


def span_of_fragments(fragments: Sequence[Tuple[int, int]], label: str) -> AnySpan:
    """The span of normal fragments (`normal_fragments`): an ordinary Span
    when there is one."""
    if len(fragments) == 1:
        return Span(fragments[0][0], fragments[0][1], label)
    return FragmentedSpan(fragments[0][0], fragments[-1][1], label, tuple(fragments))


def join_fragments(spans: Sequence[Span], fragments: Optional[Sequence[Any]]) -> List[Any]:
    """The engine's spans of a reader's: each span whose `fragments` entry
    is not None becomes a FragmentedSpan; sorted (a document's spans and
    their parallel fragments, `model.Document.fragments`)."""
    if fragments is None:
        return list(spans)
    joined = [
        span if pieces is None else FragmentedSpan(span[0], span[1], span[2], tuple(pieces))
        for span, pieces in zip(spans, fragments)
    ]
    return sorted(set(joined))


def split_fragments(spans: Iterable[Any]) -> Tuple[List[Span], Optional[List[Any]]]:
    """A reader's (sorted spans, parallel fragments or None) of spans of
    either kind, identical spans once."""
    ordered = sorted(set(spans))
    if not any(len(span) > 3 for span in ordered):
        return ordered, None
    return [Span(s[0], s[1], s[2]) for s in ordered], [s[3] if len(s) > 3 else None for s in ordered]


def is_int(value: Any) -> TypeGuard[int]:
    """An integer of any kind (Python's, numpy's, ...), and not a bool."""
    return isinstance(value, Integral) and not isinstance(value, bool)


def all_ints(values: Sequence[Any]) -> bool:
    """Whether every value is an integer (is_int), checked per type."""
    return all(issubclass(kind, Integral) and not issubclass(kind, bool) for kind in set(map(type, values)))


def is_spacy_span(item: Any) -> bool:
    """A spaCy `Span` (duck-typed, so that spaCy is not imported)."""
    return hasattr(item, "label_") and hasattr(item, "start_char")


def spacy_span_tuples(items: Any, unit: str = UNITS[0]) -> Any:
    """The (start, end, label) tuples of a document given as spaCy Spans
    (`doc.ents`, a SpanGroup, a list of Spans): token offsets, or character
    offsets in char unit. Other input is returned as it is."""
    try:
        first = items[0]
    except (TypeError, IndexError, KeyError):
        return items
    if not is_spacy_span(first):
        return items
    if unit == "char":
        return [(s.start_char, s.end_char, s.label_) for s in items]
    return [(s.start, s.end, s.label_) for s in items]


def read_span(item: Any, where: str, unit: str = UNITS[0]) -> Span:
    """One span from a (start, end, label) tuple, a {"start", "end",
    "label"} dict, a {"fragments": [[start, end], ...], "label"} dict (a
    FragmentedSpan, or a Span when the fragments make one piece) or a spaCy
    Span (offsets in `unit`), checked. `where` says where it came from, for
    errors."""
    if type(item) is tuple and len(item) == 3:  # the usual span, checked at once
        start, end, label = item
        if type(start) is int and type(end) is int and type(label) is str and 0 <= start < end:
            return Span(start, end, label)
    if is_spacy_span(item):
        [item] = spacy_span_tuples([item], unit)
    if isinstance(item, dict) and "fragments" in item:
        return cast(Span, _fragmented_span(item, where))  # read as a Span: its start, end and label
    if isinstance(item, FragmentedSpan):
        return cast(Span, _fragmented_span({"fragments": item.fragments, "label": item.label}, where))
    if isinstance(item, dict):
        missing = [key for key in ("start", "end", "label") if key not in item]
        if missing:
            raise ValueError(
                f"Span {where} lacks {', '.join(repr(k) for k in missing)}: {item!r}. "
                "A span is a (start, end, label) tuple, a dict with keys "
                "'start', 'end' and 'label', or a spaCy Span."
            )
        start, end, label = item["start"], item["end"], item["label"]
    elif isinstance(item, (tuple, list)) and len(item) == 3:
        start, end, label = item
    else:
        raise ValueError(
            f"Span {where} is {item!r}. A span is a (start, end, label) tuple, "
            "a dict with keys 'start', 'end' and 'label', or a spaCy Span."
        )
    problem = span_problem(start, end, label)
    if problem is not None:
        raise ValueError(f"Span {where} {problem}")
    return Span(int(start), int(end), label)


def _fragmented_span(item: Dict[str, Any], where: str) -> AnySpan:
    """The span of a {"fragments", "label"} dict; "start" and "end", when
    given, must be its outer bounds."""
    if "label" not in item:
        raise ValueError(f"Span {where} lacks 'label': {item!r}")
    fragments = normal_fragments(item["fragments"], where)
    label = item["label"]
    problem = span_problem(fragments[0][0], fragments[-1][1], label)
    if problem is not None:
        raise ValueError(f"Span {where} {problem}")
    for key, bound in (("start", fragments[0][0]), ("end", fragments[-1][1])):
        if key in item and item[key] != bound:
            raise ValueError(
                f"Span {where} has {key}={item[key]!r}, but its fragments {[list(f) for f in fragments]} "
                f"give {key}={bound}; leave out start and end or give the fragments' outer bounds"
            )
    return span_of_fragments(fragments, label)


def span_problem(
    start: Any,
    end: Any,
    label: Any,
    *,
    limit: Optional[int] = None,
    unit: str = UNITS[0],
    empty_label: bool = True,
) -> Optional[str]:
    """What is wrong with one span, as text that follows "Span 3 " or
    "span 3 " in a message (what it has, and what is valid); None when it
    is fine. The one span check of the package (`check_spans` runs it on a
    whole batch at once).

    limit (Optional[int]): The end no span may pass (the text length in
        char unit, the number of tokens in token unit); None: no limit.
    empty_label (bool): Whether "" is a valid label.
    """
    if not (is_int(start) and is_int(end)):
        return (
            f"has non-integer offsets: start={start!r}, end={end!r}. "
            "Offsets are integers (of any integer type, not bool or float) with "
            "0 <= start < end (end exclusive)."
        )
    if limit is None and (start < 0 or start >= end):
        return f"has start={start}, end={end}. Offsets must satisfy 0 <= start < end (end exclusive)."
    if limit is not None and not 0 <= start < end <= limit:
        kind, size = ("character", "the text length") if unit == "char" else ("token", "the number of tokens")
        return f"has start={start}, end={end}; {kind} offsets need 0 <= start < end <= {limit} ({size})"
    if not isinstance(label, str):
        return f"has a label of type {type(label).__name__} ({label!r}). Labels are strings" + (
            "." if empty_label else ", not empty."
        )
    if not label and not empty_label:
        return f"has the label {label!r}; labels are non-empty strings"
    return None


def check_spans(
    starts: Sequence[Any],
    ends: Sequence[Any],
    labels: Sequence[Any],
    limits: Optional[Union[Sequence[int], numpy.ndarray]] = None,
    *,
    empty_label: bool = True,
) -> Optional[int]:
    """Check a batch of spans at once (flat columns; limits: each span's
    limit, see span_problem). RETURNS (Optional[int]): the index of the
    first bad span, None when every span is fine. Only when one is bad are
    the spans looked at one by one (span_problem then says what is wrong)."""
    return checked_offsets(starts, ends, labels, limits, empty_label=empty_label)[0]


def checked_offsets(
    starts: Sequence[Any],
    ends: Sequence[Any],
    labels: Sequence[Any],
    limits: Any = None,  # a sequence of ints, or an integer array
    *,
    empty_label: bool = True,
) -> Tuple[Optional[int], Optional[numpy.ndarray], Optional[numpy.ndarray]]:
    """`check_spans`, and the offsets it read on the way, for a caller that
    needs them as arrays next: (the index of the first bad span or None,
    starts, ends), the arrays int64 when every span is fine, else None."""
    n = len(starts)
    if not n:
        empty = numpy.zeros(0, dtype=numpy.int64)
        return None, empty, empty
    ok = all_ints(starts) and all_ints(ends)
    if ok:
        label_types = set(map(type, labels))
        ok = label_types == {str} and (empty_label or "" not in labels)
    if ok:
        try:
            start = numpy.fromiter(starts, dtype=numpy.int64, count=n)
            end = numpy.fromiter(ends, dtype=numpy.int64, count=n)
        except OverflowError:
            ok = False
        else:
            bad = (start < 0) | (start >= end)
            if limits is not None:
                bad |= end > numpy.asarray(limits, dtype=numpy.int64)
            ok = not bad.any()
    if ok:
        return None, start, end
    for i in range(n):
        limit = None if limits is None else limits[i]
        if span_problem(starts[i], ends[i], labels[i], limit=limit, empty_label=empty_label) is not None:
            return i, None, None
    return None, None, None


def read_doc_spans(items: Iterable[Any], side: str, doc: int, unit: str = UNITS[0]) -> List[Any]:
    """The checked spans of one document as a sorted list, identical spans
    counted once (spaCy's set semantics).

    side (str): "gold" or "pred", for error messages.
    doc (int): The index of the document, for error messages.
    """
    if isinstance(items, (str, bytes, dict)):
        raise ValueError(f"Document {doc} of the {side} spans is a {type(items).__name__}, not a list of spans.")
    spans: Set[Any] = set()
    add = spans.add
    try:
        for i, item in enumerate(items):
            if type(item) is tuple and len(item) == 3:  # the usual span, checked at once
                start, end, label = item
                if type(start) is int and type(end) is int and type(label) is str and 0 <= start < end:
                    add(Span(start, end, label))
                    continue
            add(read_span(item, f"{i} of {side} document {doc}", unit))
    except TypeError:
        raise ValueError(f"Document {doc} of the {side} spans is {items!r}, not a list of spans.") from None
    return sorted(spans)
