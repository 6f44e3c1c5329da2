"""`jsonl`: one JSON object a line, `{"text": ..., "spans": [{"start",
"end", "label"}]}`, character offsets with an exclusive end (spaCy/Prodigy
span annotation). Scored in `char` unit: no tokenizer is involved, so a span
that does not fall on token boundaries is scored as it is written. With unit
`token`, each record also holds "tokens" (strings, or Prodigy's {"text",
"start", "end"} dicts) and "start"/"end" are token offsets, end exclusive.
A gold line without "spans" has no annotation and is skipped (counted); a
predicted line without "spans" predicts nothing. Blank lines are not records.

Lines are read lazily and parsed with srsly; the spans of a block of lines
are checked at once (`spans.check_spans`).
"""
from itertools import islice, repeat
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy
import srsly

from ..registry import formats
from ..spans import Span, check_spans, is_int, span_problem
from ..types import Document, Format, PathLike
from .base import InputError, read_lines

#: Records parsed and checked together.
BLOCK = 2048
#: Fields other formats keep their spans under: field -> the format to use.
OTHER_SPAN_FIELDS: Dict[str, str] = {
    "entities": "doccano",
    "label": "doccano",
    "labels": "doccano",
    "ner": "tags",
}


def _record(line: str, path: PathLike, lineno: int) -> Dict[str, Any]:
    try:
        record = srsly.json_loads(line)
    except ValueError as err:
        raise InputError(f"invalid JSON ({_json_reason(line, err)})", path, lineno) from None
    if not isinstance(record, dict):
        raise InputError(
            f'expected a JSON object {{"text": ..., "spans": [...]}}, got {type(record).__name__}',
            path,
            lineno,
        )
    return record


def _json_reason(line: str, err: Exception) -> str:
    import json

    try:
        json.loads(line)
    except json.JSONDecodeError as exact:
        return f"{exact.msg}, column {exact.colno}"
    except ValueError as exact:  # e.g. numbers out of range
        return str(exact)
    return str(err)


def read_tokens(record: Dict[str, Any], text: str, path: PathLike, lineno: int) -> Tuple[List[str], List[Tuple[int, int]]]:
    """Token strings and their character offsets in text, from "tokens":
    strings (found in the text in order) or {"text", "start", "end"} dicts."""
    tokens = record.get("tokens")
    if not isinstance(tokens, list):
        raise InputError('unit token needs a "tokens" list in every record (token offsets)', path, lineno)
    words, offsets, pos = [], [], 0
    for k, token in enumerate(tokens):
        if isinstance(token, dict) and isinstance(token.get("text"), str):
            word = token["text"]
            start, end = token.get("start"), token.get("end")
            if not (is_int(start) and is_int(end) and text[start:end] == word):
                start = text.find(word, pos)
                end = start + len(word)
        elif isinstance(token, str):
            word = token
            start = text.find(word, pos)
            end = start + len(word)
        else:
            raise InputError(f"token {k} is {token!r}, not a string or a {{\"text\", ...}} object", path, lineno)
        if start < 0:
            raise InputError(f"token {k} ({word!r}) is not in the text after character {pos}", path, lineno)
        words.append(word)
        offsets.append((start, end))
        pos = end
    return words, offsets


def record_meta(record: Dict[str, Any]) -> Dict[str, Any]:
    """A record's metadata, for breakdowns and grouped resampling: its fields
    other than "text", "spans" and "tokens", and the contents of a "meta"
    object (spaCy's and Prodigy's place for them); `_`-fields are left out."""
    meta = {k: v for k, v in record.items() if k not in ("text", "spans", "tokens", "meta") and not k.startswith("_")}
    inner = record.get("meta")
    if isinstance(inner, dict):
        meta.update({k: v for k, v in inner.items() if isinstance(k, str) and not k.startswith("_")})
    elif "meta" in record:
        meta["meta"] = inner
    return meta


def _block_documents(block: List[Tuple[int, str]], path: PathLike, unit: str) -> List[Document]:
    """The documents of a block of lines, their spans checked at once."""
    docs: List[Document] = []
    items_of: List[Optional[list]] = []
    for lineno, line in block:
        record = _record(line, path, lineno)
        text = record.get("text")
        if not isinstance(text, str):
            problem = "no" if "text" not in record else f"a non-string ({type(text).__name__})"
            raise InputError(f'the record has {problem} "text"', path, lineno)
        tokens = offsets = None
        if unit == "token":
            tokens, offsets = read_tokens(record, text, path, lineno)
        items = record.get("spans")
        if items is None and "spans" not in record:
            for name, fmt in OTHER_SPAN_FIELDS.items():
                if name in record:
                    raise InputError(
                        f'the record has no "spans" but has "{name}": spans under "{name}" are another '
                        f"format's; read the file with 'format' {fmt} (jsonl, like spaCy and Prodigy, "
                        'keeps them under "spans")',
                        path,
                        lineno,
                    )
        elif not isinstance(items, list):
            raise InputError(f'"spans" is a {type(items).__name__}, not a list', path, lineno)
        items_of.append(items)
        docs.append(Document(f"line {lineno}", None, text, tokens, offsets, record_meta(record),
                             line=lineno, source=str(path)))
    # Every span of the block, checked at once.
    starts: List[Any] = []
    ends: List[Any] = []
    labels: List[Any] = []
    limits: List[int] = []
    for doc, items in zip(docs, items_of):
        if not items:
            continue
        limit = len(doc.text) if doc.tokens is None else len(doc.tokens)
        try:
            starts.extend([item["start"] for item in items])
            ends.extend([item["end"] for item in items])
            labels.extend([item["label"] for item in items])
        except (TypeError, KeyError):
            _span_error(doc, items, unit, path)
        limits.extend([limit] * len(items))
    bad = check_spans(starts, ends, labels, limits, empty_label=False)
    if bad is not None:
        for doc, items in zip(docs, items_of):
            if items and bad >= len(items):
                bad -= len(items)
            elif items:
                _span_error(doc, items, unit, path)
    # Span tuples made in C (tuple.__new__). A record whose spans come in
    # order without overlap (found for the whole block at once) is sorted and
    # unique already; the others are sorted, identical spans once.
    flat = list(map(tuple.__new__, repeat(Span), zip(starts, ends, labels)))
    counts = [len(items) if items else 0 for items in items_of]
    unsorted = set()
    if len(flat) > 1:
        start = numpy.fromiter(starts, dtype=numpy.int64, count=len(flat))
        end = numpy.fromiter(ends, dtype=numpy.int64, count=len(flat))
        doc_of = numpy.repeat(numpy.arange(len(counts)), counts)
        same = doc_of[1:] == doc_of[:-1]
        unsorted = set(doc_of[1:][same & (start[1:] < end[:-1])].tolist())
    pos = 0
    for k, (doc, items) in enumerate(zip(docs, items_of)):
        if items is None:
            continue
        n = counts[k]
        doc.spans = sorted(set(flat[pos : pos + n])) if k in unsorted else flat[pos : pos + n]
        pos += n
    return docs


def _span_error(doc: Document, items: list, unit: str, path: PathLike) -> None:
    """Raise the InputError of the first bad span of a record."""
    limit = len(doc.text) if doc.tokens is None else len(doc.tokens)
    for i, item in enumerate(items):
        where = f"span {i}"
        if not isinstance(item, dict):
            raise InputError(f'{where} is {item!r}, not an object {{"start", "end", "label"}}', path, doc.line)
        missing = [key for key in ("start", "end", "label") if key not in item]
        if missing:
            raise InputError(f"{where} lacks {', '.join(repr(k) for k in missing)}: {item!r}", path, doc.line)
        problem = span_problem(item["start"], item["end"], item["label"], limit=limit, unit=unit, empty_label=False)
        if problem is not None:
            raise InputError(f"{where} {problem}", path, doc.line)
    raise AssertionError("no bad span found")  # pragma: no cover


def read_jsonl(path: PathLike, unit: str = "char") -> Iterator[Document]:
    """Documents of a JSONL file, one at a time. Raises InputError naming the
    line of any problem."""
    lines = (item for item in read_lines(path) if item[1].strip())
    while True:
        block = list(islice(lines, BLOCK))
        if not block:
            return
        yield from _block_documents(block, path, unit)


class JsonlFormat(Format):
    name = "jsonl"
    units = ("char", "token")
    extensions = (".jsonl",)
    options = ()
    counted_as = "documents (JSONL records)"

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        return read_jsonl(path, unit)


JSONL = JsonlFormat()
formats.register("jsonl", func=JSONL)
