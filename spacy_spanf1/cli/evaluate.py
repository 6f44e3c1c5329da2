"""`spacy-spanf1 evaluate`: a pipeline over a .spacy corpus."""
from pathlib import Path
from typing import Any, Dict, Optional

import typer

from ..api import evaluate_pipeline
from ..report import HTML_DOCS
from .main import app, run_command
from .options import command
from .output import report

#: The arguments and options of the command, as cli/options.py declares them.
NAMES = (
    "model", "data_path", "schemes", "spans_key", "unit", "labels", "iou_threshold", "overlap_threshold",
    "min_overlap", "output_path", "errors_path", "html_path", "n_process", "batch_size", "silent", "bootstrap",
    "confidence", "method", "seed", "resample_by", "baseline", "test", "alpha", "by", "buckets", "html_docs",
    "shard_docs", "cluster", "scheduler", "scheduler_file", "code",
)


def evaluate_model(
    model: str,
    data_path: Any,
    *,
    schemes: Optional[str],
    output_path: Optional[Path] = None,
    errors_path: Optional[Path] = None,
    html_path: Optional[Path] = None,
    silent: bool = False,
    html_docs: int = HTML_DOCS,
    **settings: Any,
) -> Dict[str, Any]:
    """`evaluate_pipeline`, printed and written as the command does.
    RETURNS (Dict[str, Any]): `CorpusScores.to_dict()`."""
    scores = evaluate_pipeline(
        model, data_path, schemes=schemes, keep_errors=bool(errors_path or html_path),
        progress=not silent, **settings,
    )
    return report(scores, silent=silent, output_path=output_path, errors_path=errors_path, html_path=html_path,
                  html_docs=html_docs)


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
