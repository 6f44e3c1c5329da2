"""Reading the gold side of `evaluate_mentions`: per document, its spans
(character offsets into its text, or a spaCy Doc's entities) checked, in
the unit, and their (text, label) pairs for the string schemes.
"""

from itertools import chain
from operator import itemgetter
from typing import Any, List, Sequence, Tuple

import numpy

from ..exceptions import InputError, SettingError
from ..spans import span_problem
from .parse import Mention, short_repr


def gold_documents(
    gold: List[Any], texts: List[str], unit: str, wants_strings: bool
) -> Tuple[List[Sequence[Tuple[int, int, str]]], List[List[Mention]]]:
    """The gold documents' spans (in the unit), checked, and their (text,
    label) pairs (only when wants_strings)."""
    n_docs = len(texts)
    gold_strings: List[List[Mention]] = [[] for _ in range(n_docs)] if wants_strings else []
    if unit == "char" and set(map(type, gold)) <= {list}:  # the common case: all checked below, at once
        gold_spans: List[Sequence[Tuple[int, int, str]]] = list(gold)
        plain: Sequence[int] = range(n_docs)
    else:
        gold_spans, plain = [], []
        for k, (gold_doc, text) in enumerate(zip(gold, texts)):
            if unit == "char" and (type(gold_doc) is list or not _is_doc(gold_doc)):  # checked below, all at once
                gold_spans.append(_span_list(gold_doc, k))
                plain.append(k)
            else:
                gold_doc_spans, strings = _gold_of(gold_doc, text, unit, k, wants_strings)
                gold_spans.append(gold_doc_spans)
                if wants_strings:
                    gold_strings[k] = strings
    if plain and not _plain_gold([gold_spans[k] for k in plain], [len(texts[k]) for k in plain]):
        for k in plain:
            gold_spans[k], _ = _gold_of(gold[k], texts[k], unit, k, False)
    if wants_strings:
        for k in plain:
            text = texts[k]
            gold_strings[k] = [(text[start:end], label) for start, end, label in gold_spans[k]]
    return gold_spans, gold_strings


def _plain_gold(docs: Sequence[Sequence[Any]], n_chars: Sequence[int]) -> bool:
    """Whether every span of these gold documents is a (start, end, label)
    tuple of int, int and str with 0 <= start < end <= its text's length
    (n_chars, per document): checked a column at a time over all of them.
    False sends each document through `_gold_of`, which says what is wrong
    (or takes numpy's integers and strings)."""
    flat = list(chain.from_iterable(docs))
    if not flat:
        return True
    if set(map(type, flat)) != {tuple} or set(map(len, flat)) != {3}:
        return False
    starts, ends = list(map(itemgetter(0), flat)), list(map(itemgetter(1), flat))
    if set(map(type, starts)) != {int} or set(map(type, ends)) != {int}:
        return False
    if set(map(type, set(map(itemgetter(2), flat)))) != {str}:  # the labels, each once
        return False
    try:
        start = numpy.array(starts, dtype=numpy.int64)
        end = numpy.array(ends, dtype=numpy.int64)
    except OverflowError:
        return False
    limit = numpy.repeat(numpy.asarray(n_chars, dtype=numpy.int64), list(map(len, docs)))
    return bool(((start >= 0) & (start < end) & (end <= limit)).all())


def _is_doc(gold_doc: Any) -> bool:
    """A spaCy Doc (duck-typed, so that spaCy is not imported)."""
    return hasattr(gold_doc, "ents") and hasattr(gold_doc, "text")


def _span_list(gold_doc: Any, k: int) -> List[Any]:
    """A gold document of spans as a list (unchecked); InputError for one
    that is no collection of spans."""
    if type(gold_doc) is list:
        return gold_doc
    if isinstance(gold_doc, (str, bytes, dict)) or not hasattr(gold_doc, "__iter__"):
        raise InputError(
            f"gold document {k} is {short_repr(gold_doc)}, not a list of (start, end, label) spans or a spaCy Doc"
        )
    return list(gold_doc)


def _gold_of(
    gold_doc: Any, text: str, unit: str, k: int, wants_strings: bool = True
) -> Tuple[Sequence[Tuple[int, int, str]], List[Mention]]:
    """A gold document's spans (in the unit), checked, and its (text, label)
    pairs (only when wants_strings: the string schemes need them)."""
    if _is_doc(gold_doc):
        if gold_doc.text != text:
            raise SettingError(f"the text of gold document {k} is not texts[{k}]", "texts")
        ents = list(gold_doc.ents)
        if unit == "token":
            spans = [(e.start, e.end, e.label_) for e in ents]
        else:
            spans = [(e.start_char, e.end_char, e.label_) for e in ents]
        return spans, [(e.text, e.label_) for e in ents]
    if unit == "token":
        raise SettingError("unit token needs the gold documents as spaCy Docs (their tokens)", "unit")
    spans = _span_list(gold_doc, k)
    n_chars = len(text)
    for i, span in enumerate(spans):
        # the common case first: a tuple of two ints and a str, in the text
        if type(span) is tuple and len(span) == 3:
            start, end, label = span
            if type(start) is int and type(end) is int and type(label) is str and 0 <= start < end <= n_chars:
                continue
        if spans is gold_doc:
            spans = list(spans)
        spans[i] = _gold_span(span, i, k, n_chars)
    if not wants_strings:
        return spans, []
    return spans, [(text[start:end], label) for start, end, label in spans]


def _gold_span(span: Any, i: int, k: int, n_chars: int) -> Tuple[int, int, str]:
    """Span i of gold document k as (start, end, label) of int, int and str
    (numpy's integers and strings are those), checked against the text's
    length; InputError (a ValueError) saying what is wrong and what is valid."""
    where = f"Span {i} of gold document {k}"
    if isinstance(span, (str, bytes, dict)) or not hasattr(span, "__len__") or len(span) != 3:
        raise InputError(
            f"{where} is {short_repr(span)}; a gold span is a (start, end, label) tuple "
            "of character offsets (end exclusive) and a label"
        )
    start, end, label = span
    problem = span_problem(start, end, label, limit=n_chars, unit="char")
    if problem is not None:
        raise InputError(f"{where} {problem}")
    return int(start), int(end), str(label)


__all__ = ["gold_documents"]
