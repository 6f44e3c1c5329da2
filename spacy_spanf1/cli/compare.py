"""`spacy-spanf1 compare`: any system's output against gold, no model."""
from pathlib import Path
from typing import Any, Dict, Optional

import typer

from ..api import compare_files
from .main import app, run_command
from .options import command
from .output import score_and_report

#: The arguments and options of the command, as cli/options.py declares them.
NAMES = (
    "gold_path", "pred_path", "schemes", "format", "gold_format", "pred_format", "spans_key", "unit", "labels", "tag_column", "gold_column",
    "pred_column", "tag_mode", "tag_scheme", "fragments", "newlines", "text_mismatch", "missing_pred", "ground", "fuzzy", "annotator", "pred_annotator", "model_version", "pred_from",
    "text_field", "tag_field", "token_field", "label_names", "iou_threshold", "overlap_threshold", "min_overlap",
    "output_path", "errors_path", "html_path", "silent", "bootstrap", "confidence", "method", "seed",
    "resample_by", "baseline", "test", "alpha", "by", "buckets", "html_docs", "cluster", "scheduler",
    "scheduler_file",
)


def compare_command(gold_path: Path, pred_path: Optional[Path], **options: Any) -> Dict[str, Any]:
    """`compare_files`, printed and written as the command does (options: schemes,
    output_path, errors_path, html_path, silent, html_docs, and the settings
    of `compare_files`). RETURNS (Dict[str, Any]): `CorpusScores.to_dict()`."""
    return score_and_report(compare_files, gold_path, pred_path, **options)


@command(app, "compare", NAMES)
def compare_cli(ctx: typer.Context, **values: Any) -> None:
    """Score predicted spans against gold spans of the same documents, with
    no model. Formats: spacy (.spacy DocBins; tokenization may differ, texts
    may not); jsonl ({"text", "spans": [{"start", "end", "label"}]} a line,
    character offsets, scored in char unit so that no tokenizer is involved
    and a span off token boundaries is scored as written; --unit token reads
    token offsets into each record's "tokens" instead; a gold line without
    "spans" is skipped and counted); conll (token and tag
    columns, a blank line between sentences, -DOCSTART- lines skipped, one
    document per sentence); kaggle (Feedback Prize CSV: id, class,
    predictionstring of word indices; ids in any order; the overlap scheme
    also prints the official score, the mean F1 of the gold classes). A text
    or token mismatch between the files is an error. Gold and predictions may
    be in two formats of the same documents (gold.spacy with pred.jsonl, or
    --gold-format and --pred-format).

    \b
    Example:
    spacy-spanf1 compare gold.jsonl pred.jsonl --schemes strict,partial
    """
    run_command(ctx, compare_command, ("gold_path", "pred_path"), values)
