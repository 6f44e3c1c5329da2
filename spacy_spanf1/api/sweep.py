"""The sweeps of scored predictions from files (`sweep_files`), from a
pipeline's span categorizer (`sweep_pipeline`), and from either, told
apart by the source (`sweep_source`, what `spacy-spanf1 sweep` calls)."""

from pathlib import Path, PurePath
from typing import Any, Dict, Optional, Tuple, Union, Unpack

from ..exceptions import InputError, PathLike, SettingError
from ..keyword_types import FormatKeywords, ReaderKeywords, SpanGroupKeywords, SweepDoorKeywords
from ..keywords import UNSET, Maybe, built, front_door, given, refuse_set, with_options
from ..settings import AnalysisSettings, MatchSettings, ReadSettings
from ..sweeps.files import sweep_scored_files
from ..sweeps.pipeline import sweep_spancat
from ..sweeps.results import SweepResult
from ..sweeps.api import UNUSED
from ..sweeps.settings import PIPE, SweepSettings
from .scores import annotated_files_door

__all__ = ["is_pipeline", "sweep_files", "sweep_pipeline", "sweep_source"]

#: What a sweep of files does not apply of the read settings.
UNUSED_READ = ("gold_column", "pred_column")


class SweepSourceKeywords(SweepDoorKeywords, ReaderKeywords, SpanGroupKeywords, total=False):
    """The keywords of `sweep_source`: and the reader settings (of files)."""


class SweepFilesKeywords(SweepSourceKeywords, FormatKeywords, total=False):
    """The keywords of `sweep_files`: and the formats of the files."""


def _applied(
    match: Optional[MatchSettings], sweep: Optional[SweepSettings], analysis: Optional[AnalysisSettings]
) -> Tuple[MatchSettings, SweepSettings, AnalysisSettings]:
    """A sweep door's settings (`front_door` built them), with a SettingError
    for a match or analysis setting a sweep does not apply."""
    refuse_set(built(match), UNUSED["match"], "a sweep")
    refuse_set(built(analysis), UNUSED["analysis"], "a sweep")
    return built(match), built(sweep), built(analysis)


@annotated_files_door(match=MatchSettings, sweep=SweepSettings, analysis=AnalysisSettings, read=ReadSettings)
def sweep_files(
    gold_path: PathLike,
    pred_path: Optional[PathLike] = None,
    *,
    match: Optional[MatchSettings] = None,
    read: Optional[ReadSettings] = None,
    sweep: Optional[SweepSettings] = None,
    analysis: Optional[AnalysisSettings] = None,
    **keywords: Unpack[SweepFilesKeywords],
) -> SweepResult:
    """Sweep the scored predictions of a file against its gold file.

    gold_path, pred_path: As `compare_files` (pred_path None: one file
        holding both sides).
    match (Optional[MatchSettings]): Or its fields as keywords: schemes
        (required, span schemes), unit, iou_threshold, overlap_threshold,
        min_overlap, label_map (a dict, a LabelMap or the path of a JSON
        file of one: labels renamed, merged or dropped per side before the
        sweep, as `sweep` applies it), map_unlisted.
    read (Optional[ReadSettings]): Or its fields as keywords: format,
        gold_format, pred_format; `options` as **reader_options.
    sweep (Optional[SweepSettings]): Which thresholds; or its fields as
        keywords: thresholds, n_thresholds, grid, n_trials.
    analysis (Optional[AnalysisSettings]): bootstrap (resamples of the
        interval of F at each best threshold), or it as a keyword.
        A keyword given beside its object is written over the object's field.
    **keywords: The fields of match, read, sweep and analysis above,
        and the reader settings (text_mismatch, missing_pred,
        spans_key, ...), written over `read.options`.
    RETURNS (SweepResult): As `sweep`; the signature also says how the
        files were read ("read", as `compare_files` signs it; the unit is
        the match block's).
    Raises InputError naming the documents whose predicted spans have no
    score, or the span with a bad one.
    """
    match, sweep, analysis = _applied(match, sweep, analysis)
    read = with_options(built(read), keywords)
    refuse_set(read, UNUSED_READ, "a sweep")
    return sweep_scored_files(gold_path, pred_path, match, read, sweep, analysis)


@front_door(match=MatchSettings, sweep=SweepSettings, analysis=AnalysisSettings)
def sweep_pipeline(
    model: Any,
    corpus_path: PathLike,
    *,
    match: Optional[MatchSettings] = None,
    sweep: Optional[SweepSettings] = None,
    analysis: Optional[AnalysisSettings] = None,
    pipe: str = PIPE,
    batch_size: Optional[int] = None,
    **keywords: Unpack[SweepDoorKeywords],
) -> SweepResult:
    """Run a span categorizer once over a DocBin with every suggested span
    kept, and sweep its scores against the DocBin's spans.

    model (str, Path or Language): A package name or path, or a loaded
        pipeline (its component's cfg is changed: threshold 0,
        max_positive None).
    corpus_path (PathLike): A .spacy DocBin holding the reference spans in
        `Doc.spans[key]`, key the component's spans key.
    match, sweep, analysis: As `sweep_files` (their keywords too; unit:
        default token).
    pipe (str): The component's name; it has `cfg["threshold"]` and a
        spans key (spancat).
    batch_size (Optional[int]): Of `nlp.pipe`; None: the pipeline's own.
    RETURNS (SweepResult): As `sweep`; the signature also names the
        component and its spans key ("pipeline").
    """
    match, sweep, analysis = _applied(match, sweep, analysis)
    return sweep_spancat(model, corpus_path, match, sweep, analysis, pipe=pipe, batch_size=batch_size)


def is_pipeline(source: Union[str, PurePath]) -> bool:
    """Whether a sweep's source names a pipeline: a directory with a
    config.cfg, or an installed package that is not a file here."""
    path = Path(source)
    if path.is_dir():
        return (path / "config.cfg").is_file()
    if path.exists():
        return False
    from spacy.util import is_package

    return is_package(str(source))


@annotated_files_door(match=MatchSettings, sweep=SweepSettings, analysis=AnalysisSettings)
def sweep_source(
    source: Union[str, PurePath],
    target: Optional[PathLike] = None,
    *,
    match: Optional[MatchSettings] = None,
    read: Optional[ReadSettings] = None,
    sweep: Optional[SweepSettings] = None,
    analysis: Optional[AnalysisSettings] = None,
    format: Maybe[Optional[str]] = UNSET,
    pipe: Optional[str] = None,
    batch_size: Optional[int] = None,
    **keywords: Unpack[SweepSourceKeywords],
) -> SweepResult:
    """`sweep_pipeline(source, target, ...)` when source names a pipeline
    (`is_pipeline`; target: the .spacy corpus), else `sweep_files(source,
    target, ...)`. The settings are those of the two, each only where it
    applies: read settings (format, reader options) for files, pipe and
    batch_size (None: sweep_pipeline's defaults) for a pipeline; one given
    to the other is a SettingError.
    """
    options = keywords
    match, sweep, analysis = _applied(match, sweep, analysis)
    for_files = {"read": read, **given(format=format), **{k: v for k, v in options.items() if v is not None}}
    for_pipeline: Dict[str, Any] = {
        name: value for name, value in (("pipe", pipe), ("batch_size", batch_size)) if value is not None
    }
    pipeline = is_pipeline(source)
    wrong = [name for name, value in (for_files if pipeline else for_pipeline).items() if value is not None]
    if wrong:
        given_, other = ("files", "a pipeline") if pipeline else ("a pipeline", "files")
        raise SettingError(f"'{wrong[0]}' applies to a sweep of {given_}, not of {other}", wrong[0])
    if pipeline:
        if target is None:
            raise InputError(f"give the .spacy corpus the pipeline {str(source)!r} runs over")
        return sweep_pipeline(source, target, match=match, sweep=sweep, analysis=analysis, **for_pipeline)
    return sweep_files(
        Path(source), target, match=match, read=read, sweep=sweep, analysis=analysis, **given(format=format), **options
    )
