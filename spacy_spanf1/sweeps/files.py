"""A sweep of scored predictions read from files: the readers keep a
predicted span's score (a JSONL span's "score") beside the document's
spans, and the pairs are swept as `sweep` sweeps spans given in Python."""

from typing import List, Optional

from ..exceptions import InputError, PathLike
from ..settings import AnalysisSettings, MatchSettings, ReadSettings
from ..signature import read_block
from .api import sweep
from .results import SweepResult
from .scored import score_problem
from .settings import SweepSettings

#: At most this many documents are named in an error.
NAMED = 5


def sweep_scored_files(
    gold_path: PathLike,
    pred_path: Optional[PathLike],
    match: MatchSettings,
    read: ReadSettings,
    thresholds: SweepSettings,
    analysis: AnalysisSettings,
) -> SweepResult:
    """Sweep the scored predictions of a file against its gold file (the
    front door, with its keywords: `api.sweep_files`).

    gold_path, pred_path: As `compare_files` (pred_path None: one file
        holding both sides).
    match (MatchSettings): schemes, unit, iou_threshold, overlap_threshold,
        min_overlap, label_map, map_unlisted (as `sweep` takes them).
    read (ReadSettings): format, gold_format, pred_format and the reader
        options (text_mismatch, missing_pred, ...).
    thresholds (SweepSettings), analysis (AnalysisSettings): Which
        thresholds; the bootstrap of `sweep`.
    RETURNS (SweepResult): As `sweep`; the signature also says how the
        files were read ("read", as `compare_files` signs it; the unit is
        the match block's).
    Raises InputError naming the documents whose predicted spans have no
    score, or the span with a bad one.
    """
    from ..corpus.files import open_files

    # as compare opens them: one file holds both sides only in a format that can
    pairs = open_files(gold_path, pred_path, match, read, columns=False)
    gold: List[list] = []
    pred: List[list] = []
    unscored: List[str] = []
    for pair in pairs:
        gold.append(pair.gold)
        if pair.pred_scores is None:
            if pair.pred:
                unscored.append(pair.name)
            pred.append([])
            continue
        doc = []
        for i, (span, score) in enumerate(pair.pred_scores):
            problem = "no score" if score is None else score_problem(score)
            if problem:
                raise InputError(
                    f"{pair.name}: predicted span {i} ({span.start}, {span.end}, {span.label!r}) has {problem}",
                    pairs.sources[1],
                )
            doc.append((span.start, span.end, span.label, float(score)))
        pred.append(doc)
    if unscored:
        named = ", ".join(unscored[:NAMED]) + (f" and {len(unscored) - NAMED} more" if len(unscored) > NAMED else "")
        raise InputError(
            f"{len(unscored)} of the {len(pred)} predicted documents have spans without scores ({named}): "
            "a sweep needs a score in [0, 1] on every predicted span",
            pairs.sources[1],
        )
    if not any(pred):
        raise InputError(
            f"none of the {len(pred)} predicted documents holds a scored span: nothing to sweep", pairs.sources[1]
        )
    result = sweep_settled(gold, pred, pairs.unit, match, thresholds, analysis)
    return result.replace(signature=result.signature.replace(read=read_block(read, pairs.format.name, pairs.sides)))


def sweep_settled(
    gold: List, pred: List, unit: str, match: MatchSettings, thresholds: SweepSettings, analysis: AnalysisSettings
) -> SweepResult:
    """`sweep` of scored spans under the settings objects of a sweep's
    front door (what `sweep_scored_files` and `sweep_spancat` run)."""
    return sweep(gold, pred, unit=unit, match=match, sweep=thresholds, analysis=analysis)
