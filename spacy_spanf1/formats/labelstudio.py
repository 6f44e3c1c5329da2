"""Label Studio JSON export: a JSON array of tasks.

A task is `{"id", "data": {"text": ...}, "annotations": [{"result": [...]}],
"predictions": [{"result": [...]}], "meta"}`; results of type "labels" are
spans (`value.start`, `value.end`, `value.labels`: one span per label),
checked against `value.text` when present. One file can hold both sides:
the gold side reads annotations, the pred side reads predictions (option
`pred_from`, default "predictions"; "annotations" reads a second export's
annotations as the prediction).

".json" is too generic to imply this format, so there is no extension:
pass `--format labelstudio`.
"""
import json
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ..registry import formats
from ..spans import Span
from ..exceptions import InputError
from ..settings import check_choice
from .base import Document, Format, PathLike, read_text
from .records import (
    char_span,
    check_read,
    check_span_text,
    no_annotation,
    record_text,
    with_counts,
)

PRED_FROM: Tuple[str, ...] = ("predictions", "annotations")


class LabelStudioFormat(Format):
    """Label Studio JSON exports (unit char).

    text_field (Optional[str]): The `data` key of the text (default "text").
    pred_from (Optional[str]): What the pred side reads: "predictions"
        (default) or "annotations". The gold side reads annotations.
    annotator (Optional[str]): Read the annotation whose `completed_by` is
        this id or e-mail (default: the first annotation not cancelled).
    model_version (Optional[str]): Read the prediction of this
        `model_version` (default: the first prediction).
    """

    name = "labelstudio"
    units = ("char",)
    extensions = ()
    options = ("text_field", "pred_from", "annotator", "model_version")
    both_sides = True  # one export holds annotations (gold) and predictions

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        opts = check_read(self, side, unit, options)
        pred_from = opts.get("pred_from", "predictions")
        check_choice("pred_from", pred_from, PRED_FROM)
        source = "annotations" if side == "gold" else pred_from
        return _read(
            Path(path),
            side,
            source,
            opts.get("text_field", "text"),
            opts.get("annotator"),
            opts.get("model_version"),
        )


def _load(path: Path) -> List[Any]:
    try:
        tasks = json.loads(read_text(path))
    except json.JSONDecodeError as err:
        raise InputError(f"invalid JSON ({err.msg}, column {err.colno})", path, err.lineno) from None
    if not isinstance(tasks, list):
        raise InputError(
            f"expected a JSON array of tasks (Label Studio's JSON export), got a {type(tasks).__name__}",
            path,
        )
    return tasks


def _read(
    path: Path,
    side: str,
    source: str,
    text_field: str,
    annotator: Optional[str],
    model_version: Optional[str],
) -> Iterator[Document]:
    tasks = _load(path)
    if source == "predictions" and tasks and not any(
        isinstance(t, dict) and t.get("predictions") for t in tasks
    ):
        raise InputError(
            "no task has predictions; to read this file's annotations as the prediction, "
            "pass pred_from=annotations",
            path,
        )
    for position, task in enumerate(tasks, 1):
        where = f"task {task['id']}" if isinstance(task, dict) and "id" in task else f"task #{position}"
        if not isinstance(task, dict):
            raise InputError(f"{where} is a {type(task).__name__}, not an object {{\"data\", \"annotations\"}}", path)
        data = task.get("data")
        if not isinstance(data, dict):
            raise InputError(f'{where} has no "data" object', path)
        text = record_text(data, text_field, f"the data of {where}", path, None)
        counts: Dict[str, int] = {}
        entry = _choose(task, source, annotator, model_version, where, path, counts)
        if entry is None:
            spans = no_annotation(side)
            if side == "pred":
                counts[f"tasks_without_{source}"] = 1
        else:
            spans = _spans(entry, text, where, path, counts)
        meta = {k: v for k, v in data.items() if k != text_field}
        if isinstance(task.get("meta"), dict):
            meta.update(task["meta"])
        key = str(task["id"]) if "id" in task else None
        yield Document(where, spans, text, meta=with_counts(meta, counts), key=key, source=str(path))


def _choose(
    task: Dict[str, Any],
    source: str,
    annotator: Optional[str],
    model_version: Optional[str],
    where: str,
    path: Path,
    counts: Dict[str, int],
) -> Optional[Dict[str, Any]]:
    """The annotation or prediction to read (None: none fits), counting
    the cancelled annotations and the unused others."""
    entries = task.get(source) or []
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise InputError(f'{where} has "{source}" that is not a list of objects', path)
    if source == "annotations":
        usable = [e for e in entries if not e.get("was_cancelled")]
        counts["cancelled_annotations"] = len(entries) - len(usable)
        if annotator is not None:
            fits = [e for e in usable if _annotator_matches(e.get("completed_by"), str(annotator))]
        else:
            fits = usable
    else:
        usable = entries
        if model_version is not None:
            fits = [e for e in usable if str(e.get("model_version")) == str(model_version)]
        else:
            fits = usable
    chosen = fits[0] if fits else None
    counts[f"unused_{source}"] = len(usable) - (chosen is not None)
    return chosen


def _annotator_matches(completed_by: Any, wanted: str) -> bool:
    if isinstance(completed_by, dict):
        return wanted in (str(completed_by.get("id")), str(completed_by.get("email")))
    return completed_by is not None and str(completed_by) == wanted


def _spans(entry: Dict[str, Any], text: str, where: str, path: Path, counts: Dict[str, int]) -> List[Span]:
    results = entry.get("result", [])
    if not isinstance(results, list):
        raise InputError(f'{where} has a "result" that is not a list', path)
    spans = set()
    for i, result in enumerate(results):
        rid = f"result {result.get('id', i)!s}" if isinstance(result, dict) else f"result {i}"
        if not isinstance(result, dict):
            raise InputError(f"{where}, {rid} is a {type(result).__name__}, not an object", path)
        kind = result.get("type")
        if kind == "relation":
            counts["relations"] = counts.get("relations", 0) + 1
            continue
        if kind != "labels":
            counts["other_results"] = counts.get("other_results", 0) + 1
            continue
        value = result.get("value")
        if not isinstance(value, dict):
            raise InputError(f'{where}, {rid} has no "value" object', path)
        labels = value.get("labels")
        if not isinstance(labels, list) or not labels:
            raise InputError(
                f'{where}, {rid} has "labels" {labels!r}; a labels result names one or more labels', path
            )
        for label in labels:
            span = char_span(value.get("start"), value.get("end"), label, text, f"{where}, {rid}", path, None)
            if "text" in value:
                check_span_text(span, value["text"], text, f"{where}, {rid}", path, None)
            spans.add(span)
    return sorted(spans)


LABELSTUDIO = LabelStudioFormat()
formats.register("labelstudio", func=LABELSTUDIO)
