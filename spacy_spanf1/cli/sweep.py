"""`spacy-spanf1 sweep`: P, R and F of scored predictions at every
threshold, from a pipeline's span categorizer or from files."""

from pathlib import Path
from typing import Any, Dict, Optional, cast

import srsly
import typer

from ..api import is_pipeline, sweep_source
from ..exceptions import SettingError
from ..notes import warnings_shown
from ..sweeps.page import write_sweep_html
from ..sweeps.pipeline import write_config
from ..sweeps.results import BestThreshold, SweepResult
from ..sweeps.settings import PIPE
from .main import app, one_schemes, run
from .options import OPTIONS, command
from .output import print_warnings, printer, say, writing

#: The arguments and options of the command, as cli/options.py declares them.
NAMES = (
    "sweep_source",
    "sweep_target",
    "schemes",
    "format",
    "unit",
    "text_mismatch",
    "missing_pred",
    "iou_threshold",
    "overlap_threshold",
    "min_overlap",
    "label_map",
    "map_unlisted",
    "n_thresholds",
    "grid",
    "n_trials",
    "bootstrap",
    "pipe",
    "config_path",
    "batch_size",
    "output_path",
    "html_path",
    "silent",
)
#: The options of a pipeline's sweep that a sweep of files leaves out at their defaults.
PIPELINE_ONLY = ("pipe", "batch_size")


def sweep_command(
    source: str,
    target: Optional[Path],
    *,
    output_path: Optional[Path] = None,
    html_path: Optional[Path] = None,
    config_path: Optional[Path] = None,
    silent: bool = False,
    **options: Any,
) -> Dict[str, Any]:
    """`sweep_source` (a pipeline's sweep, --write-config writing the best
    threshold, or a sweep of files), printed and written as the command
    does (html_path: the page of its charts). RETURNS (Dict[str, Any]): the
    JSON written (its warnings printed, not given as UserWarnings)."""
    with warnings_shown():
        pipeline = is_pipeline(source)
        if config_path is not None and not pipeline:
            raise SettingError("'config_path' applies to a sweep of a pipeline, not of files", "config_path")
        if not pipeline:  # the defaults the command shows of a pipeline's options are not given
            options = {k: v for k, v in options.items() if k not in PIPELINE_ONLY or v != OPTIONS[k].default}
        result = sweep_source(source, target, **{k: v for k, v in options.items() if v is not None})
        out = result.to_dict()
        if config_path is not None:
            pipe = options.get("pipe") or PIPE
            writing(config_path, lambda path: write_config(source, path, result, pipe=pipe))
        print_sweep(result, silent)
        if output_path is not None:
            writing(output_path, lambda path: srsly.write_json(path, out))
        if html_path is not None:
            sources = [str(source)] + ([] if target is None else [str(target)])
            writing(html_path, lambda path: write_sweep_html(path, result, sources=sources))
        if config_path is not None and not silent:
            best = cast(BestThreshold, result[result.primary].best)
            say(printer(silent), "good", f"Wrote the config with threshold {best.threshold:g}: {config_path}")
        return out


def print_sweep(result: SweepResult, silent: bool) -> None:
    """Per scheme AP, best threshold and its F; then per scheme each
    label's best."""
    msg = printer(silent)
    if silent:
        return
    rows = []
    for scheme, swept in result.items():
        best = swept.best
        rows.append(
            (
                scheme,
                f"{swept.ap:.4f}",
                "-" if best is None else f"{best.threshold:.4g}",
                "-" if best is None else f"{best.f1:.4f}",
                len(swept.thresholds),
                f"{swept.calibration.ece:.4f}",
            )
        )
    msg.table(
        rows,
        header=("Scheme", "AP", "Best threshold", "F", "Thresholds", "ECE"),
        divider=True,
        title="Sweep",
        aligns=("l", "r", "r", "r", "r", "r"),
    )
    for scheme, swept in result.items():
        labels = [(label, f"{b.threshold:.4g}", f"{b.f1:.4f}") for label, b in sorted(swept.per_label_best.items())]
        if labels:
            msg.table(
                labels,
                header=("Label", "Best threshold", "F"),
                divider=True,
                title=f"{scheme}: best threshold per label",
                aligns=("l", "r", "r"),
            )
    print_warnings(msg, result.warnings)


@command(app, "sweep", NAMES)
def sweep_cli(ctx: typer.Context, **values: Any) -> None:
    """P, R and F under each scheme at every threshold of scored
    predictions, with average precision, the best threshold (and each
    label's) and calibration. SOURCE is a pipeline (its span categorizer is
    run once over the .spacy corpus TARGET with every suggested span kept)
    or a gold file (TARGET: its scored predictions, e.g. JSONL spans with a
    "score"). --grid spacy reports the thresholds spacy find-threshold
    tries, and its choice of the best.

    \b
    Examples:
    spacy-spanf1 sweep ./model dev.spacy --schemes strict,iou --grid spacy --write-config best.cfg
    spacy-spanf1 sweep gold.jsonl scored.jsonl --schemes strict -o sweep.json --html sweep.html
    """
    source, target, schemes = values.pop("sweep_source"), values.pop("sweep_target"), values.pop("schemes")
    run(ctx, lambda: sweep_command(source, target, schemes=one_schemes(schemes), **values))
