"""Spans as plain tuples, read from user input and checked.

A span is `Span(start, end, label)` with an exclusive end. Reading spans
out of spaCy objects lives in `docs.py`.
"""
from typing import Any, Iterable, List, NamedTuple


class Span(NamedTuple):
    """A labelled span of one document; end is exclusive."""

    start: int
    end: int
    label: str


def is_int(value: Any) -> bool:
    """An int, and not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


def read_span(item: Any, where: str) -> Span:
    """One span from a (start, end, label) tuple or a {"start", "end",
    "label"} dict, checked. `where` says where it came from, for errors."""
    if isinstance(item, dict):
        missing = [key for key in ("start", "end", "label") if key not in item]
        if missing:
            raise ValueError(
                f"Span {where} lacks {', '.join(repr(k) for k in missing)}: {item!r}. "
                "A span is a (start, end, label) tuple or a dict with keys "
                "'start', 'end' and 'label'."
            )
        start, end, label = item["start"], item["end"], item["label"]
    elif isinstance(item, (tuple, list)) and len(item) == 3:
        start, end, label = item
    else:
        raise ValueError(
            f"Span {where} is {item!r}. A span is a (start, end, label) tuple "
            "or a dict with keys 'start', 'end' and 'label'."
        )
    if not (is_int(start) and is_int(end)):
        raise ValueError(
            f"Span {where} has non-integer offsets: start={start!r}, end={end!r}. "
            "Offsets are integers with 0 <= start < end (end exclusive)."
        )
    if start < 0 or start >= end:
        raise ValueError(
            f"Span {where} has start={start}, end={end}. "
            "Offsets must satisfy 0 <= start < end (end exclusive)."
        )
    if not isinstance(label, str):
        raise ValueError(
            f"Span {where} has a label of type {type(label).__name__} ({label!r}). "
            "Labels are strings."
        )
    return Span(start, end, label)


def read_doc_spans(items: Iterable[Any], side: str, doc: int) -> List[Span]:
    """The checked spans of one document as a sorted list, identical spans
    counted once (spaCy's set semantics).

    side (str): "gold" or "pred", for error messages.
    doc (int): The index of the document, for error messages.
    """
    if isinstance(items, (str, bytes, dict)):
        raise ValueError(
            f"Document {doc} of the {side} spans is a {type(items).__name__}, "
            "not a list of spans."
        )
    try:
        spans = {read_span(item, f"{i} of {side} document {doc}") for i, item in enumerate(items)}
    except TypeError:
        raise ValueError(
            f"Document {doc} of the {side} spans is {items!r}, not a list of spans."
        ) from None
    return sorted(spans)
