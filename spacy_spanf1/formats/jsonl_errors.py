"""The errors of JSONL lines and records: a line that is not JSON, a
Prodigy file, spans under another format's field, and the first bad span
of a record."""

from typing import Any, Dict, Tuple

from ..spans import span_problem
from .base import InputError, PathLike
from .records import check_span_object, close_key, misspelled_error


#: Fields other formats keep their spans under: field -> the format to use.
OTHER_SPAN_FIELDS: Dict[str, str] = {
    "entities": "doccano",
    "annotations": "doccano",
    "label": "doccano",
    "labels": "doccano",
    "ner": "tags",
    "ner_tags": "tags",
    "tags": "tags",
}
#: Fields only Prodigy writes: a record with one is Prodigy's (whose
#: rejected answers are not gold), even when it has "spans".
PRODIGY_FIELDS: Tuple[str, ...] = ("answer", "_input_hash")


def prodigy_error(record: Dict[str, Any], path: PathLike, lineno: int) -> None:
    found = next(name for name in PRODIGY_FIELDS if name in record)
    raise InputError(
        f"the record has \"{found}\": this is a Prodigy file; read it with 'format' prodigy, which "
        'takes only "answer": "accept" records as gold and pairs records by "_input_hash" (jsonl would '
        "score rejected and ignored answers as gold)",
        path,
        lineno,
    )


def other_span_field_error(record: Dict[str, Any], path: PathLike, lineno: int) -> None:
    """The error of a record that keeps its spans under another format's
    field (doccano's "label", Hugging Face's "ner_tags", ...) or under a
    misspelling of "spans"; nothing if it has none of them."""
    close = close_key(record, ("spans",))
    if close is not None:
        raise misspelled_error(close[0], close[1], path, lineno)
    for name, fmt in OTHER_SPAN_FIELDS.items():
        if name in record:
            raise InputError(
                f'the record has no "spans" but has "{name}": spans under "{name}" are another '
                f"format's; read the file with 'format' {fmt} (jsonl, like spaCy and Prodigy, "
                'keeps them under "spans")',
                path,
                lineno,
            )


def first_span_error(limit: int, items: list, unit: str, path: PathLike, lineno: int) -> None:
    """Raise the InputError of the first bad span of a record."""
    for i, item in enumerate(items):
        where = f"span {i}"
        check_span_object(item, ("start", "end", "label"), where, path, lineno)
        problem = span_problem(item["start"], item["end"], item["label"], limit=limit, unit=unit, empty_label=False)
        if problem is not None:
            raise InputError(f"{where} {problem}", path, lineno)
    raise AssertionError("no bad span found")  # pragma: no cover


def json_reason(line: str, err: Exception) -> str:
    """Why a line is not JSON, as Python's json module says it (srsly's
    messages name no column)."""
    import json

    try:
        json.loads(line)
    except json.JSONDecodeError as exact:
        return f"{exact.msg}, column {exact.colno}"
    except ValueError as exact:  # e.g. numbers out of range
        return str(exact)
    return str(err)
