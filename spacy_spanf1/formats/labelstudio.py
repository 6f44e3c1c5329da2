"""Label Studio JSON export: a JSON array of tasks.

A task is `{"id", "data": {"text": ...}, "annotations": [{"result": [...]}],
"predictions": [{"result": [...]}], "meta"}`; results of type "labels" are
spans (`value.start`, `value.end`, `value.labels`: one span per label),
checked against `value.text` when present; results of type "relation"
(`from_id`, `to_id`, `labels`, `direction`) are relations between them;
with `kb_from`, the per-region TextArea, Choices or Taxonomy results of
that control give their region's kb id (`kb.RegionIds`). One file can hold both sides:
the gold side reads annotations, the pred side reads predictions (option
`pred_from`, default "predictions"; "annotations" reads a second export's
annotations as the prediction). With `fragment_relation`, the labels
results its relations link are the pieces of one discontinuous entity
(formats/pieces.py).

".json" is too generic to imply this format, so there is no extension:
pass `--format labelstudio`. Exports of Label Studio before 1.0, which call
the annotations "completions", are read alike.
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ..registry import formats
from ..spans import Span
from ..exceptions import InputError, SettingError
from ..settings import check_choice
from .base import Document, Format, Marks, PathLike, check_file, read_text
from .offsets import QuotedSpan, check_text_mismatch, place_spans
from .pieces import Joining, check_fragment_relation, joined_links, labelstudio_joined
from .records import check_read, quoted_span, record_text
from .kb import RegionIds
from .relations import labelstudio_relations

PRED_FROM: Tuple[str, ...] = ("predictions", "annotations")


class LabelStudioFormat(Format):
    """Label Studio JSON exports (unit char).

    text_field (Optional[str]): The `data` key of the text (default "text").
    pred_from (Optional[str]): What the pred side reads: "predictions"
        (default) or "annotations". The gold side reads annotations.
    annotator (Optional[str]): Read the annotation whose `completed_by` is
        this id or e-mail (default: the first annotation not cancelled).
    pred_annotator (Optional[str]): With pred_from="annotations", the pred
        side reads this annotator's annotation (default: `annotator`'s);
        required when one export holds both sides.
    model_version (Optional[str]): Read the prediction of this
        `model_version` (default: the first prediction).
    text_mismatch (Optional[str]): A result whose `value.text` is not the
        text at its offsets: "warn" (default: scored at its offsets, counted
        and shown), "error" or "ignore". A task whose results all agree once
        its offsets are read as UTF-16 code units, or with "\\r\\n" as one
        character (as Label Studio's browser front end counted them), is
        converted and counted (`offsets.place_spans`).
    fragment_relation (Optional[str]): The relation label that joins the
        pieces of one discontinuous entity: labels results linked by
        relations of this label are one span of several fragments
        (`pieces.join_pieces`), and those relations are not relations of
        the task (default: none joins).
    kb_from (Optional[str]): The name (`from_name`) of the per-region
        control whose results hold the regions' kb ids (default: none).

    An annotator or a model version that no task has is an error listing
    those the file has.
    """

    name = "labelstudio"
    units = ("char",)
    extensions = ()
    options = (
        "text_field",
        "pred_from",
        "annotator",
        "pred_annotator",
        "model_version",
        "text_mismatch",
        "kb_from",
        "fragment_relation",
    )
    both_sides = True  # one export holds annotations (gold) and predictions
    keyed = True
    key_field = "id"
    mixes_as = "text"
    names_annotators = True  # each annotation's `completed_by`

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        opts = check_read(self, side, unit, options)
        pred_from = opts.get("pred_from", "predictions")
        check_choice("pred_from", pred_from, PRED_FROM)
        source = "annotations" if side == "gold" else pred_from
        annotator = opts.get("annotator")
        if side == "pred" and opts.get("pred_annotator") is not None:
            annotator = opts["pred_annotator"]
        choice = Choice(source, annotator, opts.get("model_version"))
        regions = RegionIds(opts.get("kb_from"), path)
        return _read(
            Path(path),
            side,
            choice,
            opts.get("text_field", "text"),
            check_text_mismatch(opts.get("text_mismatch")),
            regions,
            check_fragment_relation(opts.get("fragment_relation")),
        )

    def check_sides(self, gold: Dict[str, Any], pred: Dict[str, Any], one_file: bool) -> None:
        """With one export for both sides and pred_from=annotations, the
        prediction must be another annotator's annotation than the gold."""
        if pred.get("pred_from", "predictions") != "annotations":
            return
        gold_by, pred_by = gold.get("annotator"), pred.get("pred_annotator", pred.get("annotator"))
        if one_file and pred.get("pred_annotator") is None:
            raise SettingError(
                "with one export for both sides, 'pred_from' annotations would read the gold's own annotation "
                "as the prediction: pass 'pred_annotator' (whose annotation is the prediction) and "
                "'annotator' (whose is the gold)",
                "pred_annotator",
            )
        if one_file and gold_by is not None and str(gold_by) == str(pred_by):
            raise SettingError(
                f"'annotator' and 'pred_annotator' are both {gold_by!r}: the same annotation", "pred_annotator"
            )

    def read_annotators(
        self, path: PathLike, *, unit: str, **options: Any
    ) -> Tuple[Dict[str, List[Document]], Dict[str, int]]:
        """Each annotator's annotations (by `completed_by`, in the order they
        first occur) as their documents, and the cancelled annotations,
        which belong to no annotator's documents."""
        annotators, cancelled = annotators_of(path)
        found = {
            who: list(self.read(path, side="gold", unit=unit, **{**options, "annotator": who})) for who in annotators
        }
        return found, {"cancelled_annotations": cancelled}


@dataclass(frozen=True)
class Choice:
    """Which entry of each task a side reads.

    source (str): "annotations" or "predictions".
    annotator (Optional[str]): Of annotations, the one by this annotator.
    model_version (Optional[str]): Of predictions, the one of this version.
    """

    source: str
    annotator: Optional[str] = None
    model_version: Optional[str] = None


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
    for task in tasks:
        # Label Studio before 1.0 called the annotations "completions".
        if isinstance(task, dict) and "completions" in task and "annotations" not in task:
            task["annotations"] = task.pop("completions")
    return tasks


def _read(
    path: Path,
    side: str,
    choice: Choice,
    text_field: str,
    text_mismatch: str,
    regions: RegionIds,
    joining: Optional[Joining] = None,
) -> Iterator[Document]:
    tasks = _load(path)
    source = choice.source
    if source == "predictions" and tasks and not any(isinstance(t, dict) and t.get("predictions") for t in tasks):
        raise InputError(
            "no task has predictions; to read this file's annotations as the prediction, pass pred_from=annotations",
            path,
        )
    _check_choice(tasks, choice, path)
    for position, task in enumerate(tasks, 1):
        where = f"task {task['id']}" if isinstance(task, dict) and "id" in task else f"task #{position}"
        if not isinstance(task, dict):
            raise InputError(f'{where} is a {type(task).__name__}, not an object {{"data", "annotations"}}', path)
        data = task.get("data")
        if not isinstance(data, dict):
            hint = (
                (
                    " (this looks like Label Studio's JSON-MIN export: its flat records do not say which "
                    "results are annotations and which predictions, nor by whom; export the project as JSON)"
                )
                if any(isinstance(v, str) for v in task.values())
                else ""
            )
            raise InputError(f'{where} has no "data" object{hint}', path)
        if not isinstance(data.get(text_field), str) and text_field == "text":
            strings = [key for key, value in data.items() if isinstance(value, str)]
            if strings:
                raise InputError(
                    f'the data of {where} has no "text" but has {", ".join(map(repr, strings))}: pass '
                    f"'text_field' (the data key of the text, as the labeling config names it)",
                    path,
                )
        text = record_text(data, text_field, f"the data of {where}", path, None)
        counts: Dict[str, int] = {}
        entry = _choose(task, choice, where, path, counts)
        if entry is None:
            # gold: skipped and counted; pred: predicts nothing, noted by the pairing
            # as a gold document without a prediction (missing_pred)
            marks = Marks(None)
        else:
            marks = _spans(entry, text, where, path, counts, text_mismatch, regions, joining)
        meta = {k: v for k, v in data.items() if k != text_field}
        if isinstance(task.get("meta"), dict):
            meta.update(task["meta"])
        key = str(task["id"]) if "id" in task else None
        yield Document.of_marks(where, text, marks, counts, path, meta=meta, key=key)
    regions.finish(side)
    if joining is not None:
        joining.finish(side, path)


def _entries(task: Any, source: str) -> List[Any]:
    entries = task.get(source) if isinstance(task, dict) else None
    return entries if isinstance(entries, list) else []


def _check_choice(tasks: List[Any], choice: Choice, path: Path) -> None:
    """InputError when the annotator or model version asked for is in no
    task, listing those the file has."""
    if choice.source == "annotations" and choice.annotator is not None:
        wanted, what, setting = str(choice.annotator), "annotator", "annotator"
        found = [
            e.get("completed_by")
            for t in tasks
            for e in _entries(t, "annotations")
            if isinstance(e, dict) and not e.get("was_cancelled")
        ]
        if any(_annotator_matches(by, wanted) for by in found):
            return
        names = sorted({_annotator_name(by) for by in found if by is not None})
    elif choice.source == "predictions" and choice.model_version is not None:
        wanted, what, setting = str(choice.model_version), "model version", "model_version"
        found = [e.get("model_version") for t in tasks for e in _entries(t, "predictions") if isinstance(e, dict)]
        if wanted in {str(version) for version in found}:
            return
        names = sorted({str(version) for version in found if version is not None})
    else:
        return
    listed = ", ".join(names) or "none (no entry names one)"
    raise InputError(
        f"no task has {choice.source} of the {what} {wanted!r} ('{setting}'); the {what}s in the file: {listed}",
        path,
    )


def _annotator_name(completed_by: Any) -> str:
    if isinstance(completed_by, dict):
        email = completed_by.get("email")
        return f"{completed_by.get('id')} ({email})" if email else str(completed_by.get("id"))
    return str(completed_by)


def _choose(
    task: Dict[str, Any], choice: Choice, where: str, path: Path, counts: Dict[str, int]
) -> Optional[Dict[str, Any]]:
    """The annotation or prediction to read (None: none fits), counting
    the cancelled annotations and the unused others."""
    source, annotator, model_version = choice.source, choice.annotator, choice.model_version
    entries = task.get(source) or []
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        if isinstance(entries, list) and all(isinstance(e, int) for e in entries):
            raise InputError(
                f'{where} has "{source}": {entries!r}, the ids of its {source} but not their results (an export '
                f"without them); export the project as JSON with its {source}"
                + (", or pass 'pred_from' annotations" if source == "predictions" else ""),
                path,
            )
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


def _spans(
    entry: Dict[str, Any],
    text: str,
    where: str,
    path: Path,
    counts: Dict[str, int],
    text_mismatch: str,
    regions: RegionIds,
    joining: Optional[Joining] = None,
) -> Marks:
    """The spans of an annotation or prediction, its reader's notes, when
    any result (or the prediction) has a "score", each span's score (the
    result's own, else the prediction's), its relation results, each
    span's kb id when a result of `regions.kb_from` is there, and the
    spans' fragments when `joining` (the fragment_relation) joins pieces."""
    results = entry.get("result", [])
    given: List[Any] = []
    linked: List[Dict[str, Any]] = []  # relation results
    kb_results: List[Dict[str, Any]] = []  # the regions' kb ids
    result_ids: List[Any] = []  # the id of the result of each span
    if not isinstance(results, list):
        raise InputError(f'{where} has a "result" that is not a list', path)
    quoted: List[QuotedSpan] = []
    for i, result in enumerate(results):
        rid = f"result {result.get('id', i)!s}" if isinstance(result, dict) else f"result {i}"
        if not isinstance(result, dict):
            raise InputError(f"{where}, {rid} is a {type(result).__name__}, not an object", path)
        kind = result.get("type")
        if kind == "relation":
            linked.append(result)
            continue
        if regions.takes(result):
            kb_results.append(result)
            continue
        if kind != "labels":
            counts["other_results"] = counts.get("other_results", 0) + 1
            continue
        value = result.get("value")
        if not isinstance(value, dict):
            raise InputError(f'{where}, {rid} has no "value" object', path)
        labels = value.get("labels")
        if not isinstance(labels, list) or not labels:
            raise InputError(f'{where}, {rid} has "labels" {labels!r}; a labels result names one or more labels', path)
        start, end = value.get("start"), value.get("end")
        for label in labels:
            quoted.append(quoted_span(start, end, label, value.get("text"), f"{where}, {rid}", path, None))
            given.append(result.get("score", entry.get("score")))
            result_ids.append(result.get("id"))
    placed, notes = place_spans(quoted, text, policy=text_mismatch, document=where, path=path)
    listed = [Span(frags[0][0], frags[0][1], span.label) for span, frags in zip(quoted, placed)]
    if joining is not None and linked:
        spans, scores, pairs, fragments, outer = labelstudio_joined(
            listed, given, result_ids, linked, joining, where, path
        )
        joined = None
        if pairs is not None:
            joined, counts["unlabeled_relations"] = pairs
        ids = joined_links(regions.links(kb_results, result_ids, outer, where), where, path)
        return Marks(spans, notes, scores, joined, ids, fragments)
    scores = list(zip(listed, given)) if any(g is not None for g in given) else None
    relations = None
    if linked:
        relations, counts["unlabeled_relations"] = labelstudio_relations(linked, result_ids, listed, where, path)
    return Marks(sorted(set(listed)), notes, scores, relations, regions.links(kb_results, result_ids, listed, where))


LABELSTUDIO = LabelStudioFormat()
formats.register("labelstudio", func=LABELSTUDIO)


def annotators_of(path: PathLike) -> Tuple[List[str], int]:
    """The annotators of an export's annotations that are not cancelled, as
    the `annotator` setting names them (the `completed_by` id), in the order
    they first occur, and how many annotations were cancelled."""
    names: Dict[str, None] = {}
    cancelled = 0
    for task in _load(check_file(path)):
        for entry in _entries(task, "annotations") if isinstance(task, dict) else ():
            if not isinstance(entry, dict):
                continue
            if entry.get("was_cancelled"):
                cancelled += 1
                continue
            by = entry.get("completed_by")
            if by is not None:
                names.setdefault(str(by.get("id")) if isinstance(by, dict) else str(by), None)
    return list(names), cancelled
