"""`spacy-spanf1 agree`: how much annotators agree, from their files."""

import json
from pathlib import Path
from typing import Any, Dict, List, Optional

import typer

from ..agreements.consensus import Disagreement, disagreements
from ..agreements.page import render_agreement_html
from ..agreements.tokens import position_name
from ..agreements.written import is_docbin_path, prepare_consensus
from ..api import agree_files
from ..exceptions import SettingError
from ..html.page import write_html
from ..notes import warnings_shown
from ..settings import HTML_DOCS
from .main import app, run_command
from .options import INTERVALS, MATCH_THRESHOLDS, command
from .output import print_warnings, printer, say, writing

#: The arguments and options of the command, as cli/options.py declares them.
NAMES = (
    "input_paths",
    "schemes",
    "format",
    "names",
    "unit",
    "labels",
    *MATCH_THRESHOLDS,
    "o_tokens",
    *INTERVALS,
    "min_votes",
    "consensus_path",
    "spans_key",
    "disagreements_path",
    "html_path",
    "html_docs",
    "output_path",
    "silent",
)


def _percent(value: Optional[float]) -> str:
    return "-" if value is None else f"{value * 100:.2f}"


def _figure(value: Optional[float]) -> str:
    return "n/a" if value is None or value != value else f"{value:.4f}"


def agree_command(
    input_paths: List[Path],
    *,
    schemes: str,
    min_votes: Optional[int] = None,
    consensus_path: Optional[Path] = None,
    spans_key: Optional[str] = None,
    disagreements_path: Optional[Path] = None,
    html_path: Optional[Path] = None,
    html_docs: int = HTML_DOCS,
    output_path: Optional[Path] = None,
    silent: bool = False,
    **settings: Any,
) -> Dict[str, Any]:
    """`agree_files` (with the consensus when --consensus is given),
    printed and written as the command does. RETURNS (Dict[str, Any]):
    `AgreementResult.to_dict()`. Every figure and file is made before anything
    is printed, so that bad settings fail before any output."""
    settings = {name: value for name, value in settings.items() if value is not None}
    if consensus_path is None and min_votes is not None:
        raise SettingError("'min_votes' sets the votes of the consensus: give 'consensus_path' too", "min_votes")
    if spans_key is not None and (consensus_path is None or not is_docbin_path(consensus_path)):
        raise SettingError(
            "'spans_key' names the span group of a .spacy consensus: give 'consensus_path' ending in .spacy",
            "spans_key",
        )
    with warnings_shown():  # printed below
        result = agree_files(
            list(input_paths),
            schemes=schemes,
            min_votes=min_votes,
            consensus=consensus_path is not None,
            **settings,
        )
    files = result.files
    data = result.to_dict()
    written = None
    if consensus_path is not None and result.consensus is not None and result.consensus.spans is not None:
        written = prepare_consensus(consensus_path, files, result.consensus.spans, spans_key)
    found: List[Disagreement] = []
    if disagreements_path is not None or html_path is not None:
        found = disagreements(files.annotations, unit=files.unit)
    page = None
    if html_path is not None:
        page = render_agreement_html(
            result,
            files,
            found,
            sources=[str(p) for p in input_paths] if len(input_paths) == len(result.annotators) else (),
            max_docs=html_docs,
        )
    _print(printer(silent), result, data.get("consensus"), written, consensus_path)
    if written is not None and consensus_path is not None:
        writing(consensus_path, written.write)
    if page is not None and html_path is not None:
        writing(html_path, lambda path: write_html(path, page))
    if disagreements_path is not None:
        writing(
            disagreements_path,
            lambda path: path.write_text(
                "".join(json.dumps({**d.to_dict(), "text": _span_text(files, d.doc, d.span)}) + "\n" for d in found),
                encoding="utf-8",
            ),
        )
    if output_path is not None:
        writing(output_path, lambda path: path.write_text(json.dumps(data, indent=2), encoding="utf-8"))
    return data


def _span_text(files, doc: int, span) -> str:
    """The text a span covers, in either unit."""
    if files.unit == "token" and files.offsets[doc]:
        offsets = files.offsets[doc]
        return files.texts[doc][offsets[span.start][0] : offsets[span.end - 1][1]]
    return files.texts[doc][span.start : span.end]


def _print(msg, result, against: Optional[Dict[str, Any]], written, consensus_path: Optional[Path]) -> None:
    primary = result.schemes[0]
    matrix = result.matrix(primary)
    rows = [[a] + [_percent(matrix[a][b]) for b in result.annotators] for a in result.annotators]
    msg.table(
        rows,
        header=("reference \\ scored",) + result.annotators,
        aligns=("l",) + ("r",) * len(result.annotators),
        title=f"Pairwise F ({primary}): the column scored against the row",
    )
    intervals = result.intervals
    for scheme in result.schemes:
        ci = ""
        if intervals is not None:
            ci = f" [{_percent(intervals.mean_f[scheme].low)}, {_percent(intervals.mean_f[scheme].high)}]"
        say(
            msg,
            "info",
            f"{scheme}: mean pairwise F {_percent(result.mean_f[scheme])}{ci}, "
            f"micro F {_percent(result.micro_f[scheme])}",
        )
    tokens = result.tokens
    position = position_name(result.files.unit)
    if tokens is None:
        say(msg, "warn", f"{position} figures: none (no document lengths)")
    else:
        alpha = f"alpha {_figure(tokens.alpha)}"
        if intervals is not None and intervals.alpha is not None:
            alpha += f" [{_figure(intervals.alpha.low)}, {_figure(intervals.alpha.high)}]"
        say(
            msg,
            "info",
            f"{position}s (O positions {tokens.o_tokens}d, {tokens.positions} positions): "
            f"Cohen's kappa {_figure(tokens.cohen_kappa)}, Fleiss' kappa {_figure(tokens.fleiss_kappa)}, "
            f"Krippendorff's {alpha}",
        )
    if result.notes.get("cancelled_annotations"):
        say(msg, "info", f"{result.notes['cancelled_annotations']} cancelled annotations skipped")
    print_warnings(msg, result.warnings)
    if against is not None:
        if written.where != "spans":
            say(msg, "info", f"consensus: {consensus_path} (spans in doc.{written.where})")
        for name, scores in against.items():
            say(msg, "info", f"{name} against the consensus: F ({primary}) {_percent(scores[primary]['f'])}")


@command(app, "agree", NAMES)
def agree_cli(ctx: typer.Context, **values: Any) -> None:
    """How much annotators agree: every ordered pair scored under every
    scheme (the column annotator against the row annotator as gold), the
    mean and micro pairwise F, and per token Cohen's kappa (two
    annotators), Fleiss' kappa (documents every annotator did) and
    Krippendorff's alpha. Documents are matched by key or text; a pair is
    scored over the documents both did.

    \\b
    Example:
    spacy-spanf1 agree ann1.jsonl ann2.jsonl ann3.jsonl --schemes strict,partial,iou
    """
    run_command(ctx, agree_command, ("input_paths",), values)
