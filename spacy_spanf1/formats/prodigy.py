"""Prodigy JSONL (`prodigy db-out`): `{"text", "tokens", "spans",
"answer", "_input_hash", ...}` a line.

Spans have character offsets `start`/`end` (end exclusive) and token
offsets `token_start`/`token_end` (INCLUSIVE in Prodigy: the end here is
token_end + 1, with the record's `tokens` list of {"text", "start", "end",
"id"} giving tokens and offsets). On the gold side only records with
"answer": "accept" are annotation; "reject", "ignore" and records without an
answer are yielded with spans None (skipped by the pairing code) and
counted. On the pred side every record is taken as it is. The key is
`_input_hash` when present. A span that gives both character and token
offsets must give the same characters by both; a span's "text" is compared
with the text at its offsets (option `text_mismatch`). `rel.manual`'s
"relations" (`head_span` to `child_span`, `label`) are relations between
the record's spans. A span's "kb_id", or the id an entity-linking task
accepts (`entity_linker.manual`: one span, "options", "accept"), is its
kb id (`kb.prodigy_links`).
"""

from pathlib import Path
from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple, cast

from ..registry import formats
from ..spans import Span, is_int, span_problem
from .base import EMPTY, Document, Format, InputError, Marks, PathLike
from .offsets import check_text_mismatch, place_spans
from .records import SpanFields, check_read, json_lines, quoted_span, record_text
from .kb import prodigy_links
from .relations import prodigy_relations

#: Fields that are read, or Prodigy's own bookkeeping: not passed to meta
#: (nor is any other field whose name starts with "_").
READ_FIELDS = ("text", "tokens", "spans", "answer", "relations", "meta")
#: Gold records that are not annotation, by answer -> their name in the
#: Document's `counts`
#: (any other answer, or none, counts as "unanswered").
SKIPPED_ANSWERS: Dict[Optional[str], str] = {"reject": "rejected", "ignore": "ignored"}


class ProdigyFormat(Format):
    """Prodigy JSONL (unit char or token).

    text_mismatch (Optional[str]): A span whose "text" is not the text at
        its character offsets: "warn" (default: scored at its offsets,
        counted and shown), "error" or "ignore" (`offsets.place_spans`).
    """

    name = "prodigy"
    units = ("char", "token")
    extensions = ()
    options = ("text_mismatch",)
    keyed = True
    key_field = "_input_hash"
    mixes_as = "text"
    names_annotators = True  # each answer's `_annotator_id` (or `_session_id`)
    annotator_field = '"_annotator_id" or "_session_id"'

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        opts = check_read(self, side, unit, options)
        return _read(Path(path), side, unit, check_text_mismatch(opts.get("text_mismatch")))


def _read(path: Path, side: str, unit: str, text_mismatch: str) -> Iterator[Document]:
    fields = SpanFields(path, side, ("spans",))
    for lineno, record in json_lines(path):
        text = record_text(record, "text", "the record", path, lineno)
        tokens = offsets = None
        if unit == "token":
            tokens, offsets = _tokens(record, text, path, lineno)
        counts: Dict[str, int] = {}
        answer = record.get("answer")
        fields.see(record, lineno)
        if answer is not None and not isinstance(answer, str):
            raise InputError(f'"answer" is {answer!r}, not "accept", "reject" or "ignore"', path, lineno)
        if side == "gold" and answer != "accept":
            counts[SKIPPED_ANSWERS.get(answer, "unanswered")] = 1
            marks = Marks(None)
        else:
            marks = _spans(record, text, offsets, unit, path, lineno, text_mismatch)
        meta = {k: v for k, v in record.items() if k not in READ_FIELDS and not k.startswith("_")}
        if isinstance(record.get("meta"), dict):
            meta.update(record["meta"])
        key = str(record["_input_hash"]) if "_input_hash" in record else None
        yield Document.of_marks(
            f"line {lineno}",
            text,
            marks,
            counts,
            path,
            tokens=tokens,
            offsets=offsets,
            meta=meta,
            line=lineno,
            key=key,
            annotator=_annotator(record),
        )
    fields.finish()


def _annotator(record: Dict[str, Any]) -> Optional[str]:
    """Who gave the answer: its `_annotator_id`, else its `_session_id`."""
    for key in ("_annotator_id", "_session_id"):
        if record.get(key) is not None:
            return str(record[key])
    return None


def _tokens(record: Dict[str, Any], text: str, path: Path, lineno: int) -> Tuple[List[str], List[Tuple[int, int]]]:
    tokens = record.get("tokens")
    if not isinstance(tokens, list):
        raise InputError(
            'unit token needs a "tokens" list ({"text", "start", "end", "id"}) in every record', path, lineno
        )
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


def _token_offsets(record: Dict[str, Any], text: str) -> Optional[List[Tuple[int, int]]]:
    """The tokens' character offsets when the record has well-formed tokens
    (to check spans that give both kinds of offsets), else None."""
    try:
        return _tokens(record, text, Path(), 0)[1]
    except InputError:
        return None


def _spans(
    record: Dict[str, Any],
    text: str,
    offsets: Optional[List[Tuple[int, int]]],
    unit: str,
    path: Path,
    lineno: int,
    text_mismatch: str,
) -> Marks:
    """The spans of a record, its reader's notes, when a span has a
    "score", each span's (for sweeps), their kb ids when it has any, and
    its relations between them (rel.manual)."""
    items = record.get("spans", [])
    if not isinstance(items, list):
        raise InputError(f'"spans" is a {type(items).__name__}, not a list', path, lineno)
    keys = ("start", "end", "label") if unit == "char" else ("token_start", "token_end", "label")
    checked = []
    for i, item in enumerate(items):
        where = f"span {i}"
        if not isinstance(item, dict):
            raise InputError(f"{where} is {item!r}, not an object", path, lineno)
        missing = [k for k in keys if k not in item]
        if missing:
            raise InputError(f"{where} lacks {', '.join(map(repr, missing))} (unit {unit}): {item!r}", path, lineno)
        checked.append((where, item))
    notes: Mapping[str, Dict[str, Any]] = EMPTY
    if unit == "token":
        listed = [
            _token_span(item, len(cast(List[Tuple[int, int]], offsets)), where, path, lineno) for where, item in checked
        ]
        _check_both_offsets(checked, offsets, path, lineno)
    else:
        quoted = [
            quoted_span(item["start"], item["end"], item["label"], item.get("text"), where, path, lineno)
            for where, item in checked
        ]
        placed, notes = place_spans(
            quoted, text, policy=text_mismatch, document=f"line {lineno}", path=path, line=lineno
        )
        if any("token_start" in item for _, item in checked):
            _check_both_offsets(checked, _token_offsets(record, text), path, lineno)
        listed = [Span(f[0][0], f[0][1], span.label) for span, f in zip(quoted, placed)]
    links = prodigy_links(record, [item for _, item in checked], listed, path, lineno)
    spans = sorted(set(listed))
    relations = None
    if record.get("relations"):  # rel.manual: between its spans
        relations = prodigy_relations(record["relations"], spans, unit, path, lineno)
    return Marks(spans, notes, _scores(listed, checked), relations, links, None)


def _scores(listed: List[Span], checked: List[Tuple[str, Dict[str, Any]]]) -> Optional[List[Tuple[Span, Any]]]:
    """Each span with its item's "score", when any item has one."""
    if not any("score" in item for _, item in checked):
        return None
    return [(span, item.get("score")) for span, (_, item) in zip(listed, checked)]


def _check_both_offsets(
    checked: List[Tuple[str, Dict[str, Any]]], offsets: Optional[List[Tuple[int, int]]], path: Path, lineno: int
) -> None:
    """InputError for a span whose character offsets (start, end) are not
    those of its tokens (token_start, token_end inclusive): whichever unit
    is scored, the other offsets would say something else."""
    if not offsets:
        return
    for where, item in checked:
        start, end, first, last = (item.get(k) for k in ("start", "end", "token_start", "token_end"))
        if not (is_int(start) and is_int(end) and is_int(first) and is_int(last)) or not 0 <= first <= last < len(
            offsets
        ):
            continue
        chars = (offsets[first][0], offsets[last][1])
        if chars != (start, end):
            raise InputError(
                f"{where} ({item.get('label')}) has the characters {start}-{end} but its tokens "
                f"{first}-{last} (token_end inclusive) cover the characters {chars[0]}-{chars[1]}; "
                "its character and token offsets must agree",
                path,
                lineno,
            )


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
