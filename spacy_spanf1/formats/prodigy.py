"""Prodigy JSONL (`prodigy db-out`): `{"text", "tokens", "spans",
"answer", "_input_hash", ...}` a line.

Spans have character offsets `start`/`end` (end exclusive) and token
offsets `token_start`/`token_end` (INCLUSIVE in Prodigy: the end here is
token_end + 1, with the record's `tokens` list of {"text", "start", "end",
"id"} giving tokens and offsets). On the gold side only records with
"answer": "accept" are annotation; "reject", "ignore" and records without an
answer are yielded with spans None (skipped by the pairing code) and
counted. On the pred side every record is taken as it is. The key is
`_input_hash` when present.
"""
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ..registry import formats
from ..spans import Span, is_int, span_problem
from .base import Document, Format, PathLike
from .base import InputError
from .records import char_span, check_read, check_span_text, json_lines, record_text, with_counts

#: Fields that are read, or Prodigy's own bookkeeping: not passed to meta
#: (nor is any other field whose name starts with "_").
READ_FIELDS = ("text", "tokens", "spans", "answer", "relations", "meta")
#: Gold records that are not annotation, by answer -> their count in _counts
#: (any other answer, or none, counts as "unanswered").
SKIPPED_ANSWERS = {"reject": "rejected", "ignore": "ignored"}


class ProdigyFormat(Format):
    """Prodigy JSONL (unit char or token); no options."""

    name = "prodigy"
    units = ("char", "token")
    extensions = ()
    options = ()

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        check_read(self, side, unit, options)
        return _read(Path(path), side, unit)


def _read(path: Path, side: str, unit: str) -> Iterator[Document]:
    for lineno, record in json_lines(path):
        text = record_text(record, "text", "the record", path, lineno)
        tokens = offsets = None
        if unit == "token":
            tokens, offsets = _tokens(record, text, path, lineno)
        counts: Dict[str, int] = {}
        answer = record.get("answer")
        if side == "gold" and answer != "accept":
            counts[SKIPPED_ANSWERS.get(answer, "unanswered")] = 1
            spans: Optional[List[Span]] = None
        else:
            spans = _spans(record, text, offsets, unit, path, lineno)
        if isinstance(record.get("relations"), list):
            counts["relations"] = len(record["relations"])
        meta = {k: v for k, v in record.items() if k not in READ_FIELDS and not k.startswith("_")}
        if isinstance(record.get("meta"), dict):
            meta.update(record["meta"])
        key = str(record["_input_hash"]) if "_input_hash" in record else None
        yield Document(
            f"line {lineno}",
            spans,
            text,
            tokens,
            offsets,
            meta=with_counts(meta, counts),
            line=lineno,
            key=key,
            source=str(path),
        )


def _tokens(record: Dict[str, Any], text: str, path: Path, lineno: int) -> Tuple[List[str], List[Tuple[int, int]]]:
    tokens = record.get("tokens")
    if not isinstance(tokens, list):
        raise InputError('unit token needs a "tokens" list ({"text", "start", "end", "id"}) in every record', path, lineno)
    words, offsets = [], []
    for k, token in enumerate(tokens):
        if not (isinstance(token, dict) and isinstance(token.get("text"), str)):
            raise InputError(f'token {k} is {token!r}, not an object {{"text", "start", "end", "id"}}', path, lineno)
        start, end = token.get("start"), token.get("end")
        if not (is_int(start) and is_int(end) and 0 <= start <= end <= len(text)) or text[start:end] != token["text"]:
            raise InputError(
                f"token {k} ({token['text']!r}) has start={start!r}, end={end!r}, which do not give "
                f"its text in the record's text",
                path,
                lineno,
            )
        words.append(token["text"])
        offsets.append((int(start), int(end)))
    return words, offsets


def _spans(
    record: Dict[str, Any], text: str, offsets: Optional[List[Tuple[int, int]]], unit: str, path: Path, lineno: int
) -> List[Span]:
    items = record.get("spans", [])
    if not isinstance(items, list):
        raise InputError(f'"spans" is a {type(items).__name__}, not a list', path, lineno)
    spans = set()
    for i, item in enumerate(items):
        where = f"span {i}"
        keys = ("start", "end", "label") if unit == "char" else ("token_start", "token_end", "label")
        if not isinstance(item, dict):
            raise InputError(f"{where} is {item!r}, not an object", path, lineno)
        missing = [k for k in keys if k not in item]
        if missing:
            raise InputError(f"{where} lacks {', '.join(map(repr, missing))} (unit {unit}): {item!r}", path, lineno)
        if unit == "char":
            span = char_span(item["start"], item["end"], item["label"], text, where, path, lineno)
            if "text" in item:
                check_span_text(span, item["text"], text, where, path, lineno)
        else:
            span = _token_span(item, len(offsets), where, path, lineno)
        spans.add(span)
    return sorted(spans)


def _token_span(item: Dict[str, Any], n_tokens: int, where: str, path: Path, lineno: int) -> Span:
    start, last, label = item["token_start"], item["token_end"], item["label"]
    if not (is_int(start) and is_int(last)):
        raise InputError(f"{where} has non-integer token_start={start!r}, token_end={last!r}", path, lineno)
    if not 0 <= start <= last < n_tokens:
        raise InputError(
            f"{where} has token_start={start}, token_end={last}; Prodigy's token_end is inclusive: "
            f"0 <= token_start <= token_end < {n_tokens} (the number of tokens)",
            path,
            lineno,
        )
    problem = span_problem(start, last + 1, label, limit=n_tokens, empty_label=False)
    if problem is not None:
        raise InputError(f"{where} {problem}", path, lineno)
    return Span(int(start), int(last) + 1, label)


PRODIGY = ProdigyFormat()
formats.register("prodigy", func=PRODIGY)
