"""The JSONL reader's fast path: a block of plain records (a "text" and a
"spans" list of start/end/label objects, nothing else) read column by
column, each check one pass in C over a column; any other block is read
record by record (`jsonl._read_block`), which names what is wrong.
Both give the same documents, notes and errors."""

from itertools import accumulate, chain, repeat
from operator import itemgetter
from typing import Any, List, Optional, Tuple

import numpy
import srsly

from ..spans import Span
from .base import Document, PathLike
from .records import check_text

#: srsly's parser without its wrapper (a line of "-" parses to 0, not a dict).
json_loads = srsly.ujson.loads

#: The fields of a plain record, gathered in C.
TEXT, SPANS = itemgetter("text"), itemgetter("spans")
PLAIN = frozenset(("text", "spans"))
#: A block's (line number, line) pairs, taken apart in C.
LINENO, LINE = itemgetter(0), itemgetter(1)
#: The fields of span objects, one column at a time.
START, END, SPAN_LABEL = itemgetter("start"), itemgetter("end"), itemgetter("label")


def plain_block(block: List[Tuple[int, str]], path: PathLike, text_mismatch: str) -> Optional[List[Document]]:
    """The documents of a block (char unit) whose every line is a plain
    record: a JSON object with a string "text" and a "spans" list of span
    objects of "start", "end" and "label", nothing else (no metadata, no
    id, no tokens), and whose spans are all fine (`plain_spans`), each
    step over the whole block in C; else None (`_read_block` then reads
    it, and says what is wrong): the same documents, notes and errors."""
    lines = list(map(LINE, block))
    try:
        records = list(map(json_loads, lines))  # a blank line is not JSON either
        if set(map(type, records)) != {dict} or not all(map(PLAIN.issuperset, records)):
            return None
        texts = list(map(TEXT, records))
        items = list(map(SPANS, records))
        if set(map(type, texts)) != {str} or set(map(type, items)) != {list}:
            return None
        # `_read_block` gives a line holding '"score"' scores, even one whose
        # spans have none: in a plain record, only a string that is "score"
        # or ends with '"score' (an escaped quote) puts it there, the text
        # or a label (`plain_spans` looks at the labels)
        if any(map(str.endswith, texts, repeat("score"))):
            return None
    except (ValueError, KeyError, TypeError):  # not JSON, a field missing
        return None
    counts = list(map(len, items))
    found = plain_spans(list(chain.from_iterable(items)), counts, list(map(len, texts)))
    if found is None:
        return None
    spans, unsorted = found
    linenos = list(map(LINENO, block))
    if not all(map(str.isascii, texts)):
        for lineno, text in zip(linenos, texts):
            if not text.isascii():
                check_text(text, 'the record\'s "text"', path, lineno)
    return documents(linenos, texts, counts, spans, unsorted, path)


def documents(
    linenos: List[int], texts: List[str], counts: List[int], spans: List[Span], unsorted: Any, path: PathLike
) -> List[Document]:
    """The Documents of a plain block: each record's line number, text and
    its `counts` of the block's `spans`, sorted in the records `unsorted`."""
    ends = list(accumulate(counts))
    doc_spans = list(map(spans.__getitem__, map(slice, [0, *ends[:-1]], ends)))
    for k in unsorted:
        doc_spans[k] = sorted(set(doc_spans[k]))
    n = len(texts)
    return list(
        map(
            Document,
            map("line ".__add__, map(str, linenos)),
            doc_spans,
            texts,
            repeat(None, n),
            repeat(None, n),
            [{} for _ in range(n)],
            linenos,
            repeat(None, n),
            repeat(str(path), n),
        )
    )


def plain_spans(objects: List[Any], counts: List[int], limits: List[int]) -> Optional[Tuple[List[Span], Any]]:
    """The Span tuples of a plain block's span objects (`counts` a record,
    `limits` its text's length) and the records (positions in the block)
    whose spans are not in order without overlap; None when an object is
    not one of "start", "end" and "label" alone or a span is bad (the
    checks of `_check_block_spans`, each one pass in C over a column,
    without finding the bad span: `_read_block` then names it)."""
    if not objects:
        return [], ()
    try:
        starts = list(map(START, objects))
        ends = list(map(END, objects))
        labels = list(map(SPAN_LABEL, objects))
        names = set(labels)
    except (KeyError, TypeError):  # not an object, a field missing, an unhashable label
        return None
    # (every object has the three fields, so three a span means no other field)
    if sum(map(len, objects)) != 3 * len(objects) or set(map(type, names)) != {str} or "" in names:
        return None
    if any(label.endswith("score") for label in names):  # '"score"' in the line (see `plain_block`)
        return None
    if set(map(type, starts)) != {int} or set(map(type, ends)) != {int}:
        return None
    n = len(objects)
    try:
        start = numpy.fromiter(starts, dtype=numpy.int64, count=n)
        end = numpy.fromiter(ends, dtype=numpy.int64, count=n)
    except OverflowError:
        return None
    sizes = numpy.array(counts, dtype=numpy.int64)
    if ((start < 0) | (start >= end) | (end > numpy.repeat(numpy.array(limits, dtype=numpy.int64), sizes))).any():
        return None
    doc_of = numpy.repeat(numpy.arange(len(sizes)), sizes)
    same = doc_of[1:] == doc_of[:-1]
    unsorted = set(doc_of[1:][same & (start[1:] < end[:-1])].tolist())
    # Span tuples made in C: zip hands tuple.__new__ one tuple it reuses
    return list(map(tuple.__new__, repeat(Span), zip(starts, ends, labels))), unsorted
