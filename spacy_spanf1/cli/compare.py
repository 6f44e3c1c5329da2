"""`spacy-spanf1 compare`: any system's output against gold, no model."""

from pathlib import Path
from typing import Any, Dict, Optional

import typer

from ..api import compare_files
from .main import app, run_command
from .options import COMPARISON, INTERVALS, MATCH_THRESHOLDS, RELATION_OPTIONS, SCORE_OUTPUTS, command, formats_help
from .output import score_and_report
from .views import views_side_by_side

#: The arguments and options of the command, as cli/options.py declares them.
NAMES = (
    "gold_path",
    "pred_path",
    "schemes",
    "format",
    "gold_format",
    "pred_format",
    "spans_key",
    "unit",
    "labels",
    "tag_column",
    "gold_column",
    "pred_column",
    "tag_mode",
    "tag_scheme",
    "fragments",
    "fragment_relation",
    "newlines",
    "kb_column",
    "kb_from",
    "text_mismatch",
    "missing_pred",
    "ground",
    "fuzzy",
    "annotator",
    "pred_annotator",
    "model_version",
    "pred_from",
    "text_field",
    "tag_field",
    "token_field",
    "label_names",
    *MATCH_THRESHOLDS,
    *RELATION_OPTIONS,
    "view",
    *SCORE_OUTPUTS,
    "silent",
    "confusion",
    *INTERVALS,
    *COMPARISON,
    "html_docs",
    "cluster",
    "scheduler",
    "scheduler_file",
)


def compare_command(gold_path: Path, pred_path: Optional[Path], **options: Any) -> Dict[str, Any]:
    """`compare_files`, printed and written as the command does (options: schemes,
    output_path, errors_path, html_path, silent, html_docs, and the settings
    of `compare_files`). RETURNS (Dict[str, Any]): `CorpusScores.to_dict()`."""
    views = str(options.get("view") or "").split(",")
    if len(views) > 1:  # each view scored, then shown side by side
        return views_side_by_side(compare_files, gold_path, pred_path, views=views, **options)
    return score_and_report(compare_files, gold_path, pred_path, **options)


#: The command's help; its formats are the registered ones, each with the
#: first paragraph of its docstring.
HELP = f"""Score predicted spans against gold spans of the same documents, with no
model. A text or token mismatch between the files is an error. Gold and
predictions may be in two formats of the same documents (gold.spacy with
pred.jsonl, or --gold-format and --pred-format).

\b
Formats (--format; default: from the extension):
{formats_help()}

\b
Example:
spacy-spanf1 compare gold.jsonl pred.jsonl --schemes strict,partial
"""


@command(app, "compare", NAMES, help_text=HELP)
def compare_cli(ctx: typer.Context, **values: Any) -> None:
    """The `compare` command (its help: HELP)."""
    run_command(ctx, compare_command, ("gold_path", "pred_path"), values)
