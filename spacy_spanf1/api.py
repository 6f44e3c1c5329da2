"""The plain functions every front end calls: `compare_files` (two files,
or one file holding both sides) and `evaluate_pipeline` (a spaCy pipeline
over DocBins), and `prf_from_text` (the `prf` calculator). They take the
settings as keyword arguments, collect them into the settings objects of
`spacy_spanf1.settings` (each checked there, once), score through the
corpus layer and return a `CorpusScores`; they print and write nothing.

Errors name settings (`schemes`, `format`, `unit`, `spans_key`, ...), not
command-line flags: `SettingError` for a bad setting, `InputError` for bad
input (`spacy_spanf1.exceptions`). What the corpus checks find suspicious
but not wrong is in the result's `warnings`, each also given as a
UserWarning (not inside `notes.warnings_shown`, where the caller shows
them: the commands print them).
"""
from pathlib import PurePath
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple

from .corpus import (
    FULL_COLLECTION,
    Keep,
    check_outcome,
    finish,
    load_pipeline,
    score_files,
    score_pairs,
    score_pipeline,
)
from .exceptions import InputError, PathLike, SettingError
from .formats import check_file
from .formats.docbin import read_docbin
from .notes import warn_each
from .results import CorpusScores
from .signature import make_signature
from .spans import Span
from .settings import AnalysisSettings, MatchSettings, ReadSettings, RunSettings, comma_list, split_keywords
from .stats.apply import analyze

__all__ = [
    "CorpusScores",
    "FULL_COLLECTION",
    "InputError",
    "SettingError",
    "agree_files",
    "compare_files",
    "evaluate_pipeline",
    "prf_from_text",
    "score_pairs",
]

#: Old keyword names the front doors still take: old -> new.
ALIASES = {"fmt": "format"}


def collect_settings(settings: Mapping[str, Any], *classes: Any, options: bool = False, where: str) -> Tuple[Any, ...]:
    """The keyword arguments of a front door as settings objects, one per
    class (each checked as it is built). Comma-separated strings are lists
    (`labels="PER,LOC"`). options: keywords no class takes are the
    reader options of ReadSettings; else they are a SettingError.

    RETURNS (Tuple[Any, ...]): an object per class, in their order.
    """
    settings = {ALIASES.get(name, name): value for name, value in settings.items()}
    if "labels" in settings:
        settings["labels"] = comma_list(settings["labels"])
    *parts, rest = split_keywords(settings, *classes, leftover=options, where=where)
    built = []
    for cls, part in zip(classes, parts):
        if cls is ReadSettings:
            part = {**part, "options": {**part.get("options", {}), **rest}}
        built.append(cls(**part))
    return tuple(built)


def compare_files(gold_path: PathLike, pred_path: Optional[PathLike] = None, *, keep_errors: bool = False,
                  max_error_docs: Optional[int] = None, on_errors: Optional[Callable[..., None]] = None,
                  per_doc: bool = False, progress: bool = False, client: Any = None, **settings: Any) -> CorpusScores:
    """Score a file of predicted spans against a gold file of the same
    documents, reading both as streams.

    pred_path (Optional[PathLike]): None: gold_path holds both sides (a
        CoNLL file with gold_column and pred_column, or a format that holds
        both, such as a Label Studio export).
    keep_errors (bool): Keep the primary scheme's errors and the documents
        that have them (`.errors`, `.pairs`: for error records and the HTML
        report), and count them by kind (`.error_counts`).
    max_error_docs (Optional[int]): With keep_errors, keep only this many
        of those documents, the ones with the most errors (ties: the
        earlier first), and only their errors; `.error_counts` still counts
        every error. Memory then does not grow with the errors of the
        corpus. None: keep every one (memory grows with them).
    on_errors (Optional[Callable]): Called as each batch of documents is
        scored, in document order, with `(errors, pairs, scheme)`: the
        batch's errors of the primary scheme (`SpanError`s), a mapping of
        their documents (`SpanError.doc` -> DocPair; valid during the call)
        and the scheme; `report.error_records(errors, pairs, scheme)` makes
        the records of `--errors` from them. Sharded input or a client:
        called once, after the shards are merged.
    per_doc (bool): Keep one row of counts per document (result.per_doc).
    progress (bool): Sharded input: a progress bar over shards on stderr.
    client (Optional[distributed.Client]): Score on this Dask cluster, a
        task per shard (see `distributed.open_client`); None: in-process.
        Two directories of shards (files paired by name; a brat corpus
        directory is one corpus) are sharded input with or without one.
    **settings: Of `MatchSettings` (schemes, required; unit, spans_key,
        labels, iou_threshold, overlap_threshold, min_overlap), of
        `ReadSettings` (format, also as fmt; gold_format and pred_format, the
        format of one side: a .spacy gold with .jsonl predictions; gold_column,
        pred_column), of
        `AnalysisSettings` (bootstrap, confidence, method, seed,
        resample_by, baseline: a predicted file of the same documents or a
        CorpusScores of the same gold scored with per_doc; test, alpha, by,
        buckets), and any other keyword is a reader option of the format
        (tag_column, tag_mode, tag_scheme, fragments, annotator, ...).
    RETURNS (CorpusScores): Also `official_score` for kaggle input scored
        with the overlap scheme.
    """
    match, read, analysis = collect_settings(
        settings, MatchSettings, ReadSettings, AnalysisSettings, options=True, where="compare_files"
    )
    if analysis.baseline is not None and pred_path is None and not isinstance(analysis.baseline, CorpusScores):
        raise SettingError("'baseline' needs a predicted file 'pred_path' (two files of the same documents)", "baseline")
    keep = Keep.of(analysis, errors=keep_errors, per_doc=per_doc, max_error_docs=max_error_docs, on_errors=on_errors)
    scores = _compare(gold_path, pred_path, match, read, keep, client=client, progress=progress)
    base = analysis.baseline
    if base is not None and not isinstance(base, CorpusScores):
        base = _compare(gold_path, base, match, read, Keep(per_doc=True), client=client, progress=progress)
    scores = _analysed(scores, match, analysis, base, read)
    warn_each(scores.warnings)
    return scores


def _compare(gold_path, pred_path, match: MatchSettings, read: ReadSettings, keep: Keep, *, client: Any,
             progress: bool) -> CorpusScores:
    """The checked scores of two files, in-process or sharded."""
    from .distributed.shards import is_sharded_compare

    if client is not None or is_sharded_compare(gold_path, pred_path):
        if read.one_file or pred_path is None:
            raise SettingError(
                "sharded or distributed scoring takes a gold and a predicted path, not one file with "
                "'gold_column' and 'pred_column'",
                "pred_path",
            )
        from .distributed.run import run_compare

        scores = run_compare(gold_path, pred_path, match, read, keep, client=client, progress=progress)
    else:
        scores = score_files(gold_path, pred_path, match, read, keep)
    scores = finish(scores, match)
    scores = check_outcome(scores, match)
    return scores


def _analysed(scores: CorpusScores, match: MatchSettings, analysis: AnalysisSettings, baseline: Any,
              read: Optional[ReadSettings]) -> CorpusScores:
    """The scores signed with every setting, with the analysis attached
    when one was asked for."""
    signed_read = scores.signature.get("read") or {}
    fmt = signed_read.get("format")
    formats = (signed_read["gold_format"], signed_read["pred_format"]) if signed_read.get("gold_format") else None
    scores = scores.replace(signature=make_signature(match, unit=scores.unit, read=read, fmt=fmt, analysis=analysis,
                                                     formats=formats))
    if not analysis.active:
        return scores
    if isinstance(baseline, CorpusScores):
        scores = _with_baseline_notes(scores, baseline)
    return scores.with_analysis(analyze(scores, analysis, baseline, match))


def _with_baseline_notes(scores: CorpusScores, baseline: CorpusScores) -> CorpusScores:
    """The scores with what reading the baseline noted (its predicted side's
    notes, as side "baseline") and its warnings, so that a baseline of
    zeros is not silent."""
    notes = dict(scores.notes)
    if baseline.notes.get("pred"):
        notes["baseline"] = baseline.notes["pred"]
    warnings = tuple(scores.warnings) + tuple(f"baseline: {w}" for w in baseline.warnings)
    return scores.replace(notes=notes, warnings=warnings)


def evaluate_pipeline(
    model: Any,
    data_path: Any,
    *,
    code: Optional[PathLike] = None,
    keep_errors: bool = False,
    max_error_docs: Optional[int] = None,
    on_errors: Optional[Callable[..., None]] = None,
    per_doc: bool = False,
    progress: bool = False,
    client: Any = None,
    **settings: Any,
) -> CorpusScores:
    """Run a pipeline over the texts of a DocBin and score its spans
    against the DocBin's own, streaming (the DocBin is read as spaCy reads
    it; the pipeline's docs are scored as they come).

    model (str or Language): A package name or path, or a loaded pipeline.
    data_path: A .spacy file, or several .spacy files, directories or globs
        of them (a list): each file is a shard, scored in turn and merged.
    code (Optional[PathLike]): A Python file to import first (custom
        components), in-process and on every worker.
    keep_errors, max_error_docs, on_errors, per_doc, progress: as compare_files.
    client (Optional[distributed.Client]): Run on this Dask cluster, a task
        per shard, the pipeline loaded once per worker from `model` (a
        path every worker can read); None: in-process.
    **settings: Of `MatchSettings` (schemes, required; unit, default
        token; spans_key, labels, iou_threshold, overlap_threshold,
        min_overlap), of `RunSettings` (n_process, batch_size, shard_docs:
        split files into shards of this many docs) and of
        `AnalysisSettings` (as compare_files; baseline: a second pipeline
        run over the same DocBin, or a CorpusScores of the same gold scored
        with per_doc).
    RETURNS (CorpusScores)
    """
    match, run, analysis = collect_settings(
        settings, MatchSettings, RunSettings, AnalysisSettings, where="evaluate_pipeline"
    )
    keep = Keep.of(analysis, errors=keep_errors, per_doc=per_doc, max_error_docs=max_error_docs, on_errors=on_errors)
    scores = _evaluate(model, data_path, match, run, keep, code=code, client=client, progress=progress)
    base = analysis.baseline
    if base is not None and not isinstance(base, CorpusScores):
        base = _evaluate(base, data_path, match, run, Keep(per_doc=True), code=code, client=client, progress=progress)
    scores = _analysed(scores, match, analysis, base, None)
    warn_each(scores.warnings)
    return scores


def _evaluate(model: Any, data_path: Any, match: MatchSettings, run: RunSettings, keep: Keep, *, code: Any,
              client: Any, progress: bool) -> CorpusScores:
    """The checked scores of a pipeline over DocBins, in-process or sharded."""
    from .distributed.shards import is_sharded_pipeline

    if client is not None or is_sharded_pipeline(data_path, run.shard_docs):
        from .distributed.run import run_pipeline

        scores = run_pipeline(model, data_path, match, run, keep, client=client, code=code, progress=progress)
    else:
        if not isinstance(data_path, (str, PurePath)):
            data_path = list(data_path)[0]
        check_file(data_path)
        nlp = load_pipeline(model, code)
        name = model if isinstance(model, (str, PurePath)) else "pipeline"
        scores = score_pipeline(
            nlp, read_docbin(data_path, nlp.vocab), match, run, keep,
            sources=(str(data_path), f"pipeline {name}"), progress=progress,
        )
    scores = check_outcome(scores, match)
    return scores


def agree_files(paths: Any, fmt: Optional[str] = None, names: Optional[Any] = None, **settings: Any):
    """The agreement of annotators given as files.

    paths (PathLike or Sequence[PathLike]): One file (or brat directory)
        per annotator, all in one registered format; or ONE export that
        names its annotators: Label Studio (`completed_by`, several
        annotations a task; cancelled ones skipped and counted), Prodigy
        (`_annotator_id` or `_session_id`; only answer "accept" counts),
        JSONL with an "annotator" field.
    fmt (Optional[str]): The format; None: from the extensions.
    names (Optional[Sequence[str]]): The annotators' names, in the order of
        the files (or of their first appearance in one export); a string is
        comma-separated. Default: the file names (or the export's names).
    **settings: As `agreement` (schemes required; unit, labels,
        thresholds, o_tokens, bootstrap, confidence, method, seed);
        resample_by (a metadata field: with bootstrap, the documents of one
        value are resampled together); and the reader options of the
        format (text_field, fragments, ...).
    RETURNS (AgreementResult): Documents are matched by key or text; each
        pair is scored over the documents both did; the token figures count
        the documents' own tokens (or characters).
    """
    from .agreements.annotations import read_annotations
    from .agreements.files import read_annotator_files
    from .agreements.measure import agreement_of, agreement_settings, TAKEN

    settings = {ALIASES.get(name, name): value for name, value in settings.items()}
    fmt = settings.pop("format", fmt)
    taken = {name for names_ in TAKEN.values() for name in names_}
    reader_options = {name: value for name, value in settings.items() if name not in taken}
    chosen = {name: value for name, value in settings.items() if name in taken}
    match, agree, analysis = agreement_settings(chosen, where="agree_files")
    if isinstance(paths, (str, PurePath)):
        paths = [paths]
    read = ReadSettings(format=fmt, options=reader_options)
    files = read_annotator_files(list(paths), fmt, comma_list(names), match.unit, read.options)
    annotations = read_annotations(files.annotations, files.unit, labels=match.labels, lengths=files.lengths,
                                   label_map=match.label_map, refuse_unlisted=match.map_unlisted == "error")
    groups = None
    if analysis.resample_by is not None and analysis.bootstrap is not None:
        groups = [_group_key(meta, analysis.resample_by, doc, files.texts[doc])
                  for doc, meta in enumerate(files.meta)]
    result = agreement_of(annotations, match, agree, analysis, read_signature=read, groups=groups, fmt=files.format)
    result = result.replace(notes=files.notes, files=files)
    warn_each(result.warnings)
    return result


def _group_key(meta: Dict[str, Any], name: str, doc: int, text: str) -> Any:
    """A document's resampling group: its metadata field `name`."""
    if name not in meta:
        fields = ", ".join(sorted(meta)) or "none"
        raise InputError(
            f"document {doc} ({text[:30]!r}) has no metadata field {name!r}. Its fields: {fields}",
            setting="resample_by",
        )
    value = meta[name]
    return value if isinstance(value, (str, int, float)) and not isinstance(value, bool) else str(value)


def prf_from_text(text: str, source: str = "stdin") -> Tuple[float, float, float]:
    """Exact-match precision, recall and F1 of the plain format: P, then P
    spans `start end type`, then G, then G spans; ends inclusive; any
    whitespace between items (one line or many).

    RETURNS (Tuple[float, float, float]): P, R, F1, each rounded to 4
        decimals; 0.0 where a denominator is zero. Identical spans count once.
    """
    from .engine.scorer import evaluate_spans

    items = [(lineno, tok) for lineno, line in enumerate(text.split("\n"), 1) for tok in line.split()]
    if not items:
        raise InputError(
            "no input: expected P, then P lines 'start end type', then G, then G lines", source
        )
    pos = 0

    def take(what: str) -> Tuple[int, str]:
        nonlocal pos
        if pos >= len(items):
            last = items[-1][0]
            raise InputError(f"input ends where {what} was expected", source, last)
        item = items[pos]
        pos += 1
        return item

    def take_int(what: str) -> Tuple[int, int]:
        lineno, tok = take(what)
        try:
            value = int(tok)
        except ValueError:
            raise InputError(f"{what} must be an integer, got {tok!r}", source, lineno) from None
        if value < 0:
            raise InputError(f"{what} must not be negative, got {value}", source, lineno)
        return lineno, value

    def take_spans(side: str) -> List[Span]:
        _, count = take_int(f"the number of {side} spans")
        spans = []
        for i in range(count):
            where = f"{side} span {i + 1} of {count}"
            lineno, start = take_int(f"the start of {where}")
            _, end = take_int(f"the end of {where}")
            _, label = take(f"the type of {where}")
            if end < start:
                raise InputError(f"{where} ends ({end}) before it starts ({start})", source, lineno)
            spans.append(Span(start, end + 1, label))
        return spans

    pred = take_spans("predicted")
    gold = take_spans("gold")
    if pos < len(items):
        lineno, tok = items[pos]
        raise InputError(f"unexpected input {tok!r} after the last gold span", source, lineno)
    result = evaluate_spans([gold], [pred], schemes=["strict"])["strict"]
    return round(result.precision, 4), round(result.recall, 4), round(result.f1, 4)


def prf_from_stdin() -> Tuple[float, float, float]:
    """`prf_from_text` of standard input (UTF-8)."""
    import sys

    data = sys.stdin.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {data[err.start]:#04x})", "stdin") from None
    return prf_from_text(text)
