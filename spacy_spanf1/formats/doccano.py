"""doccano JSONL exports of sequence labeling projects.

A line is `{"text": ..., "label": [[start, end, label], ...]}` (the
sequence-labeling export; doccano 1.x writes the same list under "labels")
or `{"text": ..., "entities": [{"id",
"start_offset", "end_offset", "label"}], "relations": [...]}` (the export
of projects with relations); relations are counted, other fields go to
meta. Documents pair by order (doccano's "id" is kept in meta).
"""
from pathlib import Path
from typing import Any, Dict, Iterator, List

from ..registry import formats
from ..spans import Span
from .base import Document, Format, PathLike
from .base import InputError
from .records import (
    SpanFields,
    char_span,
    check_read,
    check_span_object,
    json_lines,
    no_annotation,
    record_text,
    with_counts,
)

#: The fields doccano exports keep spans under ("labels": doccano 1.x).
SPAN_FIELDS = ("label", "labels", "entities")
#: Fields that hold [start, end, label] lists.
LIST_FIELDS = ("label", "labels")


class DoccanoFormat(Format):
    """doccano sequence-labeling JSONL (unit char); no options."""

    name = "doccano"
    units = ("char",)
    extensions = ()
    options = ()

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        check_read(self, side, unit, options)
        return _read(Path(path), side)


def _read(path: Path, side: str) -> Iterator[Document]:
    fields = SpanFields(path, side, SPAN_FIELDS)
    for lineno, record in json_lines(path):
        text = record_text(record, "text", "the record", path, lineno)
        fields.see(record, lineno)
        present = [f for f in SPAN_FIELDS if f in record]
        counts: Dict[str, int] = {}
        if len(present) > 1:
            both = " and ".join(f'"{f}"' for f in present)
            raise InputError(f"the record has {both}; doccano writes one of them", path, lineno)
        if not present:
            spans = no_annotation(side)
        elif present[0] in LIST_FIELDS:
            spans = _label_spans(record[present[0]], present[0], text, path, lineno)
        else:
            spans = _entity_spans(record["entities"], text, path, lineno)
        relations = record.get("relations")
        if isinstance(relations, list):
            counts["relations"] = len(relations)
        meta = {k: v for k, v in record.items() if k not in ("text", "relations") + SPAN_FIELDS}
        yield Document(
            f"line {lineno}", spans, text, meta=with_counts(meta, counts), line=lineno, source=str(path)
        )
    fields.finish()


def _label_spans(items: Any, field: str, text: str, path: Path, lineno: int) -> List[Span]:
    if not isinstance(items, list):
        raise InputError(f'"{field}" is a {type(items).__name__}, not a list of [start, end, label]', path, lineno)
    spans = set()
    for i, item in enumerate(items):
        if not (isinstance(item, list) and len(item) == 3):
            hint = " (a text-classification export?)" if isinstance(item, str) else ""
            raise InputError(f'item {i} of "{field}" is {item!r}, not [start, end, label]{hint}', path, lineno)
        spans.add(char_span(item[0], item[1], item[2], text, f'item {i} of "{field}"', path, lineno))
    return sorted(spans)


def _entity_spans(items: Any, text: str, path: Path, lineno: int) -> List[Span]:
    if not isinstance(items, list):
        raise InputError(f'"entities" is a {type(items).__name__}, not a list of objects', path, lineno)
    spans = set()
    for i, item in enumerate(items):
        where = f"entity {i}"
        check_span_object(item, ("start_offset", "end_offset", "label"), where, path, lineno)
        spans.add(char_span(item["start_offset"], item["end_offset"], item["label"], text, where, path, lineno))
    return sorted(spans)


DOCCANO = DoccanoFormat()
formats.register("doccano", func=DOCCANO)
