"""`compare_files` (two files of the same documents, or one holding both
sides) and `evaluate_pipeline` (a spaCy pipeline over DocBins): the
settings gathered into their objects (`keywords.settings_from`), scored
through the corpus layer, analysed and signed; a `CorpusScores`."""

from pathlib import PurePath
from typing import Any, Callable, Dict, Mapping, Optional, Type, TypeVar, Unpack

from ..corpus import Keep, check_outcome, finish, load_pipeline, score_files, score_pipeline
from ..exceptions import PathLike, SettingError
from ..formats import PAIRING_OPTIONS, check_file, format_names, get_format
from ..formats.docbin import read_docbin
from ..keyword_types import (
    AnalysisKeywords,
    FileMatchKeywords,
    KeepKeywords,
    ReaderKeywords,
    ReadKeywords,
    RunKeywords,
)
from ..keywords import built, door_of, front_door, unknown_keyword, with_options
from ..notes import warn_each
from ..results import CorpusScores
from ..settings import AnalysisSettings, MatchSettings, ReadSettings, RunSettings, Settings
from ..signature import make_signature
from ..stats.apply import analyze

__all__ = ["annotated_files_door", "checked_reader_options", "compare_files", "evaluate_pipeline"]


class CompareKeywords(FileMatchKeywords, ReadKeywords, AnalysisKeywords, KeepKeywords, ReaderKeywords, total=False):
    """The keywords of `compare_files`: its settings objects' fields and the reader settings."""


class PipelineKeywords(FileMatchKeywords, RunKeywords, AnalysisKeywords, KeepKeywords, total=False):
    """The keywords of `evaluate_pipeline`: its settings objects' fields."""


def checked_reader_options(where: str, door: Callable[..., Any], options: Mapping[str, Any]) -> Dict[str, Any]:
    """The `**reader_options` of a front door: each must be a reader setting
    of some registered format (or of pairing, `missing_pred`); else it is
    a keyword the door does not take, a TypeError naming those it does and
    the reader settings. (Whether the format read takes it is checked when
    the files are opened: a SettingError.)"""
    if not options:
        return {}
    known = set(PAIRING_OPTIONS)
    for name in format_names():
        known.update(get_format(name).options)
    for name in options:
        if name not in known:
            valid = list(getattr(door, "keywords", ())) + [f"{n} (a reader setting)" for n in sorted(known)]
            raise unknown_keyword(where, name, valid)
    return dict(options)


F = TypeVar("F", bound=Callable[..., Any])


def annotated_files_door(**groups: Type[Settings]) -> Callable[[F], F]:
    """`front_door` of a door of annotators' or scored files (agreement,
    sweeps): its reader settings checked, and `spans_key` the DocBin
    reader's, as its match settings take none."""
    return door_of(groups, check_extra=checked_reader_options, reader_settings=("spans_key",))


@front_door(match=MatchSettings, read=ReadSettings, analysis=AnalysisSettings, check_extra=checked_reader_options)
def compare_files(
    gold_path: PathLike,
    pred_path: Optional[PathLike] = None,
    *,
    match: Optional[MatchSettings] = None,
    read: Optional[ReadSettings] = None,
    analysis: Optional[AnalysisSettings] = None,
    progress: bool = False,
    client: Any = None,
    **keywords: Unpack[CompareKeywords],
) -> CorpusScores:
    """Score a file of predicted spans against a gold file of the same
    documents, reading both as streams.

    gold_path (PathLike): The gold file (or brat directory, or directory of
        shards).
    pred_path (Optional[PathLike]): None: gold_path holds both sides (a
        CoNLL file with gold_column and pred_column, or a format that holds
        both, such as a Label Studio export).
    match (Optional[MatchSettings]): How spans are matched; or its fields
        as keywords: schemes (required), unit, spans_key, labels (a list,
        or a comma-separated string), iou_threshold, overlap_threshold,
        min_overlap, beta, label_map (a dict, a LabelMap or the path of
        a JSON file of one), map_unlisted, view ("all", "disc_docs":
        the documents with a discontinuous gold span, "disc_mentions": the
        discontinuous spans only); with a relation scheme, symmetric (the
        relation labels whose (head, tail) and (tail, head) are one
        relation) and relation_labels (score and macro-average only
        these), each a list or a comma-separated string.
    read (Optional[ReadSettings]): How the files are read; or its fields
        as keywords: format, gold_format and pred_format (the format of one
        side: a .spacy gold with .jsonl predictions), gold_column and
        pred_column; `options` as **reader_options.
    analysis (Optional[AnalysisSettings]): What is computed besides the
        scores; or its fields as keywords: bootstrap, confidence, method,
        seed, resample_by, baseline (a predicted file of the same
        documents, or a CorpusScores of the same gold scored with per_doc),
        test, alpha, by, buckets.
        A keyword given beside its object is written over the object's
        field (`compare_files(g, p, match=m, schemes="iou")`: m under iou).
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
        the records of `--errors` from them. With a relation scheme named,
        then again for a batch with relation errors: its errors of the
        first relation scheme (`RelationError`s, `doc` a key of pairs) and
        that scheme (`report.records.relation_records` makes their
        records). Sharded input or a client: called after the shards are
        merged, in document order.
    per_doc (bool): Keep one row of counts per document (result.per_doc).
    progress (bool): Sharded input: a progress bar over shards on stderr.
    client (Optional[distributed.Client]): Score on this Dask cluster, a
        task per shard (see `distributed.open_client`); None: in-process.
        Two directories of shards (files paired by name; a brat corpus
        directory is one corpus) are sharded input with or without one.
    **keywords: The fields of match, read and analysis above, and the
        reader settings of the format (tag_column,
        tag_mode, tag_scheme, fragments, annotator, text_mismatch, ...),
        written over `read.options`. A name no registered format takes is
        a TypeError; one the format read does not take a SettingError.
    RETURNS (CorpusScores): Also `official_score` for kaggle input scored
        with the overlap scheme.
    """
    match, analysis = built(match), built(analysis)
    keep = Keep.taken(analysis, keywords)  # what is left of keywords are reader settings
    read = with_options(built(read), keywords)
    if analysis.baseline is not None and pred_path is None and not isinstance(analysis.baseline, CorpusScores):
        raise SettingError(
            "'baseline' needs a predicted file 'pred_path' (two files of the same documents)", "baseline"
        )

    def scored(pred: Any, keep: Keep) -> CorpusScores:
        return _compare(gold_path, pred, match, read, keep, client=client, progress=progress)

    return _with_baseline(scored, pred_path, keep, match, analysis, read)


def _with_baseline(
    scored: Callable[[Any, Keep], CorpusScores],
    source: Any,
    keep: Keep,
    match: MatchSettings,
    analysis: AnalysisSettings,
    read: Optional[ReadSettings],
) -> CorpusScores:
    """The scores of `scored(source, keep)` analysed and signed, with
    the baseline's (`scored(baseline, ...)` when it is not a CorpusScores
    already) where one is asked for; their warnings given."""
    scores = scored(source, keep)
    base = analysis.baseline
    if base is not None and not isinstance(base, CorpusScores):
        base = scored(base, Keep(per_doc=True))
    scores = _analysed(scores, match, analysis, base, read)
    warn_each(scores.warnings)
    return scores


def _compare(
    gold_path, pred_path, match: MatchSettings, read: ReadSettings, keep: Keep, *, client: Any, progress: bool
) -> CorpusScores:
    """The checked scores of two files, in-process or sharded."""
    from ..distributed.shards import is_sharded_compare

    if client is not None or is_sharded_compare(gold_path, pred_path):
        if read.one_file or pred_path is None:
            raise SettingError(
                "sharded or distributed scoring takes a gold and a predicted path, not one file with "
                "'gold_column' and 'pred_column'",
                "pred_path",
            )
        from ..distributed.run import run_compare

        scores = run_compare(gold_path, pred_path, match, read, keep, client=client, progress=progress)
    else:
        scores = score_files(gold_path, pred_path, match, read, keep)
    scores = finish(scores, match)
    scores = check_outcome(scores, match)
    return scores


def _analysed(
    scores: CorpusScores, match: MatchSettings, analysis: AnalysisSettings, baseline: Any, read: Optional[ReadSettings]
) -> CorpusScores:
    """The scores signed with every setting, with the analysis attached
    when one was asked for."""
    signed_read = scores.signature.get("read") or {}
    fmt = signed_read.get("format")
    formats = (signed_read["gold_format"], signed_read["pred_format"]) if signed_read.get("gold_format") else None
    scores = scores.replace(
        signature=make_signature(match, unit=scores.unit, read=read, fmt=fmt, analysis=analysis, formats=formats)
    )
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


@front_door(match=MatchSettings, run=RunSettings, analysis=AnalysisSettings)
def evaluate_pipeline(
    model: Any,
    data_path: Any,
    *,
    match: Optional[MatchSettings] = None,
    run: Optional[RunSettings] = None,
    analysis: Optional[AnalysisSettings] = None,
    code: Optional[PathLike] = None,
    progress: bool = False,
    client: Any = None,
    **keywords: Unpack[PipelineKeywords],
) -> CorpusScores:
    """Run a pipeline over the texts of a DocBin and score its spans
    against the DocBin's own, streaming (the DocBin is read as spaCy reads
    it; the pipeline's docs are scored as they come).

    model (str or Language): A package name or path, or a loaded pipeline.
    data_path: A .spacy file, or several .spacy files, directories or globs
        of them (a list): each file is a shard, scored in turn and merged.
    match (Optional[MatchSettings]): As compare_files (its keywords too;
        unit: default token).
    run (Optional[RunSettings]): How the pipeline runs; or its fields as
        keywords: n_process, batch_size, shard_docs (split files into
        shards of this many docs).
    analysis (Optional[AnalysisSettings]): As compare_files (its keywords
        too); baseline: a second pipeline run over the same DocBin, or a
        CorpusScores of the same gold scored with per_doc.
        A keyword given beside its object is written over the object's field.
    code (Optional[PathLike]): A Python file to import first (custom
        components), in-process and on every worker.
    keep_errors, max_error_docs, on_errors, per_doc, progress: as compare_files.
    client (Optional[distributed.Client]): Run on this Dask cluster, a task
        per shard, the pipeline loaded once per worker from `model` (a
        path every worker can read); None: in-process.
    RETURNS (CorpusScores)
    """
    match, run, analysis = built(match), built(run), built(analysis)
    keep = Keep.taken(analysis, keywords)

    def scored(pipeline: Any, keep: Keep) -> CorpusScores:
        return _evaluate(pipeline, data_path, match, run, keep, code=code, client=client, progress=progress)

    return _with_baseline(scored, model, keep, match, analysis, None)


def _evaluate(
    model: Any,
    data_path: Any,
    match: MatchSettings,
    run: RunSettings,
    keep: Keep,
    *,
    code: Any,
    client: Any,
    progress: bool,
) -> CorpusScores:
    """The checked scores of a pipeline over DocBins, in-process or sharded."""
    from ..distributed.shards import is_sharded_pipeline

    if client is not None or is_sharded_pipeline(data_path, run.shard_docs):
        from ..distributed.run import run_pipeline

        scores = run_pipeline(model, data_path, match, run, keep, client=client, code=code, progress=progress)
    else:
        if not isinstance(data_path, (str, PurePath)):
            data_path = list(data_path)[0]
        check_file(data_path)
        nlp = load_pipeline(model, code)
        name = model if isinstance(model, (str, PurePath)) else "pipeline"
        scores = score_pipeline(
            nlp,
            read_docbin(data_path, nlp.vocab),
            match,
            run,
            keep,
            sources=(str(data_path), f"pipeline {name}"),
            progress=progress,
        )
    scores = check_outcome(scores, match)
    return scores
