"""doccano JSONL exports of sequence labeling projects.

A line is `{"text": ..., "label": [[start, end, label], ...]}` (the
sequence-labeling export; doccano 1.x writes the same list under "labels")
or `{"text": ..., "entities": [{"id",
"start_offset", "end_offset", "label"}], "relations": [...]}` (the export
of projects with relations; doccano before 1.0 wrote the same objects under
"annotations", with a "user"); relations (`from_id`, `to_id`: entity
ids; `type`: the label) are relations between them, other fields go to
meta. A predicted span may carry a score for sweeps: a fourth item
`[start, end, label, score]`, or an entity's "score"; the scores are kept
only when a record has one. A label that is an id, not a name, is an error. Documents pair by order (doccano's "id" is kept in meta). Offsets
past the end of a text that has characters outside the Basic Multilingual
Plane (emoji) are read as UTF-16 code units when that places every span of
the record, as doccano's browser front end counted them (counted under
"utf16_offsets"); doccano gives no span text to check offsets otherwise.
With `fragment_relation`, the entities its relations of that "type" link
are the pieces of one discontinuous entity (formats/pieces.py).
"""

from numbers import Real
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ..registry import formats
from ..spans import Span
from ..notes import Notes
from .base import Document, Format, InputError, Marks, PathLike
from .offsets import QuotedSpan, place_spans
from .pieces import Joining, check_fragment_relation, doccano_joined
from .relations import by_id
from .records import (
    SpanFields,
    check_read,
    quoted_span,
    check_span_object,
    json_lines,
    no_annotation,
    record_text,
)

#: The fields doccano exports keep spans under ("labels": doccano 1.x;
#: "annotations": the JSON export of doccano before 1.0).
SPAN_FIELDS = ("label", "labels", "entities", "annotations")
#: Fields that hold [start, end, label] lists.
LIST_FIELDS = ("label", "labels")


class DoccanoFormat(Format):
    """doccano sequence-labeling JSONL (unit char).

    fragment_relation (Optional[str]): The relation type that joins the
        pieces of one discontinuous entity: entities linked by relations of
        this type are one span of several fragments (`pieces.join_pieces`),
        and those relations are not relations of the record (default: none
        joins).
    """

    name = "doccano"
    units = ("char",)
    extensions = ()
    options = ("fragment_relation",)
    mixes_as = "text"

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        opts = check_read(self, side, unit, options)
        return _read(Path(path), side, check_fragment_relation(opts.get("fragment_relation")))


def _read(path: Path, side: str, joining: Optional[Joining] = None) -> Iterator[Document]:
    fields = SpanFields(path, side, SPAN_FIELDS)
    for lineno, record in json_lines(path):
        text = record_text(record, "text", "the record", path, lineno)
        fields.see(record, lineno)
        present = [f for f in SPAN_FIELDS if f in record]
        counts: Dict[str, int] = {}
        if len(present) > 1:
            both = " and ".join(f'"{f}"' for f in present)
            raise InputError(f"the record has {both}; doccano writes one of them", path, lineno)
        notes: Notes = {}
        scores = found = fragments = None
        listed: List[Span] = []
        listed_scores: List[Any] = []
        if not present:
            spans = no_annotation(side)
        else:
            if present[0] in LIST_FIELDS:
                items, listed_scores = _label_spans(record[present[0]], present[0], path, lineno)
            else:
                items, listed_scores = _entity_spans(record[present[0]], present[0], path, lineno)
            placed, notes = place_spans(
                items, text, policy="warn", document=f"line {lineno}", path=path, line=lineno, guess=True
            )
            listed = [Span(f[0][0], f[0][1], item.label) for item, f in zip(items, placed)]
            spans = sorted(set(listed))
            if any(score is not None for score in listed_scores):
                scores = list(zip(listed, listed_scores))
        if record.get("relations"):  # between entities, by their "id"
            entities = record[present[0]] if present and present[0] not in LIST_FIELDS else []
            ids = [item.get("id") for item in entities]
            if joining is None or not present:
                found = by_id(record["relations"], ids, listed, path, lineno)
            else:
                spans, scores, found, fragments = doccano_joined(
                    listed, listed_scores, ids, record["relations"], joining, path, lineno
                )
        meta = {k: v for k, v in record.items() if k not in ("text", "relations") + SPAN_FIELDS}
        marks = Marks(spans, notes, scores, found, None, fragments)
        yield Document.of_marks(f"line {lineno}", text, marks, counts, path, meta=meta, line=lineno)
    fields.finish()
    if joining is not None:
        joining.finish(side, path)


def _label_spans(items: Any, field: str, path: Path, lineno: int) -> Tuple[List[QuotedSpan], List[Any]]:
    """The spans of [start, end, label] items, and each item's score (a
    fourth item, which must be a number, else None; its range is checked
    by the sweep)."""
    if not isinstance(items, list):
        raise InputError(f'"{field}" is a {type(items).__name__}, not a list of [start, end, label]', path, lineno)
    spans, scores = [], []
    for i, item in enumerate(items):
        if not (isinstance(item, list) and len(item) in (3, 4)):
            hint = " (a text-classification export?)" if isinstance(item, str) else ""
            raise InputError(
                f'item {i} of "{field}" is {item!r}, not [start, end, label] or [start, end, label, score]{hint}',
                path,
                lineno,
            )
        if len(item) == 4 and (isinstance(item[3], bool) or not isinstance(item[3], Real)):
            raise InputError(
                f'item {i} of "{field}" is {item!r}, whose fourth item is not a number: items are '
                "[start, end, label], or [start, end, label, score] with a score in [0, 1]",
                path,
                lineno,
            )
        spans.append(quoted_span(item[0], item[1], item[2], None, f'item {i} of "{field}"', path, lineno))
        scores.append(item[3] if len(item) == 4 else None)
    return spans, scores


def _entity_spans(items: Any, field: str, path: Path, lineno: int) -> Tuple[List[QuotedSpan], List[Any]]:
    """The spans of entity objects, and each one's "score" (a number; None
    without)."""
    if not isinstance(items, list):
        raise InputError(f'"{field}" is a {type(items).__name__}, not a list of objects', path, lineno)
    spans, scores = [], []
    for i, item in enumerate(items):
        where = f"entity {i}" if field == "entities" else f'item {i} of "{field}"'
        check_span_object(item, ("start_offset", "end_offset", "label"), where, path, lineno)
        if isinstance(item["label"], int) and not isinstance(item["label"], bool):
            raise InputError(
                f"{where} has the label id {item['label']} (doccano before 1.0 exported label ids): export the "
                "project again with label names (doccano 1.x JSONL), or replace the ids by their names",
                path,
                lineno,
            )
        score = item.get("score")
        if score is not None and (isinstance(score, bool) or not isinstance(score, Real)):
            raise InputError(
                f'{where} has the "score" {score!r}, not a number: a score is a number in [0, 1]', path, lineno
            )
        spans.append(quoted_span(item["start_offset"], item["end_offset"], item["label"], None, where, path, lineno))
        scores.append(score)
    return spans, scores


DOCCANO = DoccanoFormat()
formats.register("doccano", func=DOCCANO)
