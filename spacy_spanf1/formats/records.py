"""What the readers of brat, Label Studio, doccano, Prodigy and tags files
share: the check of what they are read with, JSON Lines records and checked
character spans. What a reader read but did not turn into spans (brat
relations, cancelled Label Studio annotations, rejected Prodigy answers,
...) is a Document's `counts` (`model.nonzero` keeps the non-zero ones), so
that nothing is dropped silently; the pairing code sums and shows them.
"""

import difflib
import json
import re
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

from ..spans import Span, span_problem
from ..exceptions import InputError, PathLike, SettingError
from .base import check_options, read_lines
from .offsets import QuotedSpan


def check_read(format: Any, side: Any, unit: Any, options: Dict[str, Any]) -> Dict[str, Any]:
    """Check side, unit and options for a Format's `read`
    (`base.check_options`, the one check); RETURNS the options that are set
    (a value of None means the option's default)."""
    if unit is None:
        raise SettingError(f"{format.name} input is read in a unit: {' or '.join(format.units)}", "unit")
    return check_options(format, unit, options, side=side)[1]


def record_key(record: Dict[str, Any], field: str = "id") -> Optional[str]:
    """The key a record pairs by: its `field` as a string (an integer id as
    str() writes it), or None when it has none, or one that is not a string
    or an integer (null, a float, a list: no key)."""
    value = record.get(field)
    if isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool)):
        return str(value)
    return None


def no_annotation(side: str) -> Optional[List[Span]]:
    """The spans of a document that carries no annotation: None (skipped and
    counted by the pairing code) on the gold side, no span on the pred side."""
    return None if side == "gold" else []


def json_lines(path: PathLike) -> Iterator[Tuple[int, Dict[str, Any]]]:
    """(line number, record) for each non-blank line of a JSON Lines file;
    InputError for a line that is not a JSON object."""
    for lineno, line in read_lines(path):
        if not line.strip():
            continue
        try:
            record = _json_value(line)
        except json.JSONDecodeError as err:
            raise InputError(f"invalid JSON ({err.msg}, column {err.colno})", path, lineno) from None
        except RecursionError:
            raise InputError(
                "the JSON nests deeper than Python's JSON reader follows (about 1,000 levels)", path, lineno
            ) from None
        if not isinstance(record, dict):
            raise InputError(f"expected a JSON object a line, got a {type(record).__name__}", path, lineno)
        yield lineno, record


#: The C scanner behind `json.loads`, whose Python wrapper costs about a
#: microsecond a line.
_scan = vars(json.JSONDecoder())["scan_once"]  # set by JSONDecoder() for itself


def _json_value(line: str) -> Any:
    """json.loads(line): its scanner called directly on a line that is one
    JSON value alone, json.loads itself on any other line (space around the
    value, more than one value, no value), which raises what it raises."""
    try:
        value, end = _scan(line, 0)
    except (StopIteration, ValueError):
        return json.loads(line)
    return value if end == len(line) else json.loads(line)


def record_text(record: Dict[str, Any], field: str, where: str, path: PathLike, line: Optional[int]) -> str:
    """record[field] if it is a string (checked by `check_text`), else InputError."""
    text = record.get(field)
    if not isinstance(text, str):
        problem = "no" if field not in record else f"a non-string ({type(text).__name__})"
        found = ", ".join(map(repr, record)) or "none"
        raise InputError(f"{where} has {problem} {field!r} field (fields: {found})", path, line)
    return check_text(text, f"{where}'s {field!r}", path, line)


_SURROGATE = re.compile("[\ud800-\udfff]")


def check_text(text: str, where: str, path: PathLike, line: Optional[int]) -> str:
    """The text, unless it holds half of a UTF-16 surrogate pair (valid JSON,
    "\\ud83d", that a tool writes when it cuts an emoji in two): no text of
    a document is that, and it could not be written out again."""
    if not text.isascii():
        found = _SURROGATE.search(text)
        if found is not None:
            raise InputError(
                f"{where} holds a lone UTF-16 surrogate {ascii(found.group())} at character {found.start()} "
                "(half of an emoji or other character outside the BMP, cut by the tool that wrote the file)",
                path,
                line,
            )
    return text


def quoted_span(
    start: Any, end: Any, label: Any, quoted: Any, where: str, path: PathLike, line: Optional[int]
) -> QuotedSpan:
    """A span whose offsets are to be placed in its text (`offsets.place_spans`,
    which checks them against the text): types and label checked here."""
    problem = span_problem(start, end, label, limit=None, unit="char", empty_label=False)
    if problem is not None:
        raise InputError(f"{where} {problem}", path, line)
    if quoted is not None and not isinstance(quoted, str):
        raise InputError(f"{where} has a non-string text {quoted!r}", path, line)
    return QuotedSpan([(int(start), int(end))], label, quoted, where, line)


def check_span_object(item: Any, keys: Tuple[str, str, str], where: str, path: PathLike, lineno: int) -> None:
    """InputError unless a span of a record is an object with these keys
    (start, end and label as the format names them)."""
    if not isinstance(item, dict):
        shape = "{" + ", ".join(f'"{key}"' for key in keys) + "}"
        raise InputError(f"{where} is {item!r}, not an object {shape}", path, lineno)
    missing = [key for key in keys if key not in item]
    if missing:
        raise InputError(f"{where} lacks {', '.join(map(repr, missing))}: {item!r}", path, lineno)


def close_key(record: Dict[str, Any], fields: Sequence[str]) -> Optional[Tuple[str, str]]:
    """(key, field) when the record lacks every one of fields but has a key
    that looks like a misspelling of one ("spnas" for "spans"), else None."""
    for key in record:
        if isinstance(key, str) and key not in fields:
            found = difflib.get_close_matches(key.lower(), fields, n=1, cutoff=0.75)
            if found:
                return key, found[0]
    return None


def misspelled_error(key: str, field: str, path: PathLike, lineno: Optional[int]) -> InputError:
    return InputError(
        f'the record has no "{field}" but has "{key}": a misspelling of "{field}"? Without "{field}" '
        "the record would be read as having no annotation",
        path,
        lineno,
    )


def predicts_nothing_error(fields: Sequence[str], found: Iterable[str], path: PathLike) -> InputError:
    """The error of a predicted file none of whose records has a span field."""
    named = " or ".join(f'"{f}"' for f in fields)
    listed = ", ".join(f'"{key}"' for key in found) or "none"
    return InputError(
        f"no record has {named}, so the file predicts nothing and every score would be 0; its records "
        f"have the fields {listed}. A document without predictions is written with {named.split(' or ')[0]}: []",
        path,
    )


class SpanFields:
    """No silent zeros from a missing span field: a record that lacks the
    field but has a key that looks like a misspelling of it is an error,
    and so is a predicted file none of whose records has it.

    path (PathLike): The file, for messages.
    side (str): "gold" or "pred".
    fields (Sequence[str]): The fields spans may be under ("spans"; doccano:
        "label", "labels", "entities").
    """

    def __init__(self, path: PathLike, side: str, fields: Sequence[str]) -> None:
        self.path = path
        self.side = side
        self.fields = tuple(fields)
        self.records = 0
        self.with_field = 0
        self.first_keys: List[str] = []

    def see(self, record: Dict[str, Any], lineno: Optional[int]) -> bool:
        """Whether the record has a span field; InputError for a misspelled one."""
        self.records += 1
        if any(name in record for name in self.fields):
            self.with_field += 1
            return True
        close = close_key(record, self.fields)
        if close is not None:
            raise misspelled_error(close[0], close[1], self.path, lineno)
        if not self.first_keys:
            self.first_keys = [str(key) for key in record]
        return False

    def finish(self) -> None:
        """InputError when this is a predicted file and no record had a span field."""
        if self.side == "pred" and self.records and not self.with_field:
            raise predicts_nothing_error(self.fields, self.first_keys, self.path)
