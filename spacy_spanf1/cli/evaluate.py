"""`spacy-spanf1 evaluate`: a pipeline over a .spacy corpus."""

from typing import Any, Dict

import typer

from ..api import evaluate_pipeline
from .main import app, run_command
from .options import COMPARISON, INTERVALS, MATCH_THRESHOLDS, RELATION_OPTIONS, SCORE_OUTPUTS, command
from .output import score_and_report

#: The arguments and options of the command, as cli/options.py declares them.
NAMES = (
    "model",
    "data_path",
    "schemes",
    "spans_key",
    "unit",
    "labels",
    *MATCH_THRESHOLDS,
    *RELATION_OPTIONS,
    *SCORE_OUTPUTS,
    "n_process",
    "batch_size",
    "silent",
    "confusion",
    *INTERVALS,
    *COMPARISON,
    "html_docs",
    "shard_docs",
    "cluster",
    "scheduler",
    "scheduler_file",
    "code",
)


def evaluate_model(model: str, data_path: Any, **options: Any) -> Dict[str, Any]:
    """`evaluate_pipeline`, printed and written as the command does (options: schemes,
    output_path, errors_path, html_path, silent, html_docs, and the settings
    of `evaluate_pipeline`). RETURNS (Dict[str, Any]): `CorpusScores.to_dict()`."""
    return score_and_report(evaluate_pipeline, model, data_path, **options)


@command(app, "evaluate", NAMES)
def evaluate_cli(ctx: typer.Context, **values: Any) -> None:
    """Run a pipeline over the texts of a .spacy DocBin and score its spans
    against the DocBin's own under each scheme. Prints one row per scheme
    (P, R, F, macro F, counts) and the primary (first) scheme per label.
    A reference doc without annotation (no entity annotation, or no span
    group --spans-key) is skipped and counted.

    \b
    Example:
    spacy-spanf1 evaluate ./model dev.spacy --schemes strict,iou -o scores.json
    """
    run_command(ctx, evaluate_model, ("model", "data_path"), values)
