"""A sweep of scored predictions read from files: the readers keep a
predicted span's score (a JSONL span's "score") beside the document's
spans, and the pairs are swept as `sweep` sweeps spans given in Python."""
from typing import Any, List, Optional

from ..exceptions import InputError, PathLike
from ..settings import ReadSettings
from ..signature import read_block
from .api import sweep
from .results import SweepResult
from .scored import score_problem

#: The keywords of `sweep` (the others are the readers').
SWEEP_SETTINGS = (
    "schemes", "thresholds", "n_thresholds", "grid", "n_trials", "bootstrap", "iou_threshold",
    "overlap_threshold", "min_overlap",
)
#: At most this many documents are named in an error.
NAMED = 5


def sweep_files(gold_path: PathLike, pred_path: Optional[PathLike] = None, *, format: Optional[str] = None,
                unit: Optional[str] = None, **settings: Any) -> SweepResult:
    """Sweep the scored predictions of a file against its gold file.

    gold_path, pred_path, format, unit: As `compare_files` (pred_path None:
        one file holding both sides).
    **settings: Of `sweep` (schemes, required; thresholds, n_thresholds,
        grid, n_trials, bootstrap, iou_threshold, overlap_threshold,
        min_overlap) and of the reader (text_mismatch, missing_pred, ...).
    RETURNS (SweepResult): As `sweep`; the signature also says how the
        files were read ("read", as `compare_files` signs it; the unit is
        the match block's).
    Raises InputError naming the documents whose predicted spans have no
    score, or the span with a bad one.
    """
    from ..formats import open_pairs

    swept = {k: settings.pop(k) for k in SWEEP_SETTINGS if k in settings}
    pairs = open_pairs(gold_path, pred_path, format, unit=unit, **settings)
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
                raise InputError(f"{pair.name}: predicted span {i} ({span.start}, {span.end}, {span.label!r}) "
                                 f"has {problem}", pairs.sources[1])
            doc.append((span.start, span.end, span.label, float(score)))
        pred.append(doc)
    if unscored:
        named = ", ".join(unscored[:NAMED]) + (f" and {len(unscored) - NAMED} more" if len(unscored) > NAMED else "")
        raise InputError(
            f"{len(unscored)} of the {len(pred)} predicted documents have spans without scores ({named}): "
            "a sweep needs a score in [0, 1] on every predicted span", pairs.sources[1],
        )
    if not any(pred):
        raise InputError(f"none of the {len(pred)} predicted documents holds a scored span: nothing to sweep",
                         pairs.sources[1])
    result = sweep(gold, pred, unit=pairs.unit, **swept)
    sides = {name: settings.pop(name, None) for name in ("gold_format", "pred_format")}
    read = ReadSettings(format=format, options=settings, **sides)
    return result.replace(signature=result.signature.replace(read=read_block(read, pairs.format.name, pairs.sides)))
