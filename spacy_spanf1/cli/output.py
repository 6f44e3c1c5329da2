"""What the commands print (wasabi tables) and write (--output, --errors,
--html). Output is plain text (no ANSI escape codes) when stdout is not a
terminal or NO_COLOR is set; messages are printed unwrapped."""

import contextlib
import functools
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import srsly
from wasabi import Printer, color

from ..exceptions import InputError
from ..notes import grounding_report, note_lines, warnings_shown
from ..html.compare import render_html
from ..html.page import write_html
from ..report import ErrorFile, error_records, format_counts, format_delta, format_pct, write_errors
from ..results import CorpusScores
from ..report.links import link_error_lines, link_error_scheme
from ..settings import HTML_DOCS, LINK_SCHEMES, SEMEVAL_SCHEMES, comma_list
from .options import flags_of


def use_color(stream=None) -> bool:
    """Colours only on a terminal, and never with NO_COLOR set."""
    stream = stream or sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)()) and not os.environ.get("NO_COLOR")


_ANSI = re.compile(r"\x1b\[[0-9;]*m")


class PlainPrinter(Printer):
    """wasabi's Printer, whose table titles (dividers) are bold even with
    colours off: here they are plain text then."""

    def divider(self, text: str = "", char: str = "=", show: bool = True, icon: Optional[str] = None):
        no_print, self.no_print = self.no_print, True
        try:
            line = super().divider(text, char, show, icon)
        finally:
            self.no_print = no_print
        if line is None:
            return None
        if not self.show_color:
            line = _ANSI.sub("", line)
        if self.no_print:
            return line
        print(line)
        return None


def printer(silent: bool) -> Printer:
    """A wasabi Printer that colours only on a terminal without NO_COLOR."""
    msg = PlainPrinter(no_print=silent, pretty=not silent)
    msg.show_color = msg.show_color and use_color()
    return msg


def say(msg: Printer, kind: str, text: str) -> None:
    """One message line, not wrapped (wasabi wraps at 80 columns, which
    cuts names): the icon of `kind` (good, info, warn, fail), then text."""
    if msg.no_print:
        return
    line = f"{msg.icons.get(kind, '')} {text}".strip() if msg.pretty else text
    if msg.show_color:
        line = color(line, fg=msg.colors.get(kind))
    print(line)


def print_grounding(msg: Printer, scores: CorpusScores) -> None:
    """The grounding report of mentions without offsets, one line."""
    counts = grounding_report(scores.notes.get("pred", {}))
    if counts:
        parts = ", ".join(f"{kind.replace('_', ' ')} {n}" for kind, n in counts.items() if kind != "mentions")
        say(msg, "info", f"Grounding ({scores.sources[1]}): {counts['mentions']} mentions: {parts}")


def print_scores(msg: Printer, scores: CorpusScores) -> None:
    """One table with a row per scheme, then the primary scheme per label."""
    print_grounding(msg, scores)
    results = scores.results
    rows = [
        (
            name,
            format_pct(r.precision),
            format_pct(r.recall),
            format_pct(r.f1),
            format_pct(r.macro_f1),
            format_counts(r.counts),
        )
        for name, r in results.items()
    ]
    msg.table(
        rows,
        header=("", "P", "R", "F", "macro F", "counts"),
        aligns=("l", "r", "r", "r", "r", "l"),
        max_col=80,
        title=f"Scores ({scores.unit} unit)",
    )
    primary = scores.primary
    per_type = results[primary].per_type
    if per_type:
        label_rows = [
            (label, format_pct(c.precision), format_pct(c.recall), format_pct(c.f1), format_counts(c.to_dict()))
            for label, c in per_type.items()
        ]
        msg.table(
            label_rows,
            header=("", "P", "R", "F", "counts"),
            aligns=("l", "r", "r", "r", "l"),
            max_col=80,
            title=f"{primary} (per type)",
        )
        if primary in SEMEVAL_SCHEMES:
            say(
                msg,
                "text",
                "Per type, each label is scored on its own spans (as nervaluate does): the counts "
                "need not add up to the totals (a wrong label is one INC there, a MIS and a SPU here).",
            )
    say(msg, "info", f"Documents: {scores.documents}, scored: {scores.scored}, skipped: {scores.skipped}")
    if scores.skipped:
        names = scores.skipped_names
        shown = ", ".join(names) + (", …" if scores.skipped > len(names) else "")
        say(msg, "warn", f"{scores.skipped} gold document(s) without annotation were skipped: {shown}")
    for side, counts in scores.not_scored.items():
        listed = ", ".join(f"{what} {n}" for what, n in sorted(counts.items()))
        where = scores.sources[0] if side == "gold" else scores.sources[1]
        say(msg, "info", f"Read but not scored ({'gold' if side == 'gold' else 'predicted'}, {where}): {listed}")
    print_notes(msg, scores)
    print_warnings(msg, scores.warnings)
    if scores.official_score is not None:
        n = len([c for c in scores.gold_labels if c in scores.results["overlap"].per_type])
        say(
            msg,
            "text",
            f"Feedback Prize score (overlap scheme, mean F1 of the {n} gold classes): {scores.official_score:.4f}",
        )


def print_warnings(msg: Printer, warnings: Any) -> None:
    """One ⚠ line per warning of a result, its setting names as flags."""
    for warning in warnings:
        say(msg, "warn", flags_of(warning))


def print_notes(msg: Printer, scores: CorpusScores) -> None:
    """One line per note of the readers and the pairing, by side, with the
    first examples; the settings they name ('newlines') as flags."""
    for icon, line in note_lines(scores.notes, scores.sources, scores.baseline_source):
        say(msg, icon, flags_of(line))


def writing(path: Path, write: Callable[[Path], Any]) -> Any:
    """write(path), its folder made first; an OSError is an InputError
    naming the file."""
    path = Path(path)
    try:
        if not path.parent.exists():
            path.parent.mkdir(parents=True)
        return write(path)
    except OSError as err:
        raise InputError(f"can't write the file: {err.strerror or err}", path) from None


def write_outputs(
    scores: CorpusScores,
    *,
    output_path: Optional[Path],
    errors_path: Optional[Path],
    html_path: Optional[Path],
    msg: Printer,
    html_docs: int = HTML_DOCS,
    error_file: Optional[ErrorFile] = None,
) -> None:
    """Write the scores JSON, the error lines and the HTML page (each if
    asked). error_file: the error lines were written as the corpus was
    scored: it is put in place; else they are written from the scores'
    errors. The page shows the documents the scores kept, and counts all
    errors (`scores.error_counts`)."""
    data = scores.to_dict()
    kb_ids = any(name in LINK_SCHEMES for name in scores.results)
    kept = error_records(scores.errors, scores.pairs, scores.primary, kb_ids) if (errors_path or html_path) else []
    jobs: List[Tuple[Path, Callable[[Path], None], str]] = []
    if output_path is not None:
        jobs.append((output_path, lambda p: srsly.write_json(p, data), "scores"))
    if error_file is not None:
        jobs.append((error_file.path, lambda p: error_file.commit(), f"{error_file.written} error records"))
    elif errors_path is not None:
        jobs.append((errors_path, lambda p: write_errors(p, kept), f"{len(kept)} error records"))
    if html_path is not None:
        page = lambda: render_html(  # noqa: E731
            data,
            list(scores.pairs.values()),
            kept,
            sources=scores.sources,
            unit=scores.unit,
            max_docs=html_docs,
            counts=scores.error_counts,
        )
        jobs.append((html_path, lambda p: write_html(p, page()), "HTML report"))
    for path, write, what in jobs:
        writing(path, write)
        say(msg, "good", f"Saved {what} {path}")


def report(
    scores: CorpusScores,
    *,
    silent: bool,
    output_path,
    errors_path,
    html_path,
    html_docs: int = HTML_DOCS,
    error_file: Optional[ErrorFile] = None,
    confusion: bool = False,
) -> Dict[str, Any]:
    msg = printer(silent)
    print_scores(msg, scores)
    if confusion:
        print_confusion(msg, scores)
    print_analysis(msg, scores)
    write_outputs(
        scores,
        output_path=output_path,
        errors_path=errors_path,
        html_path=html_path,
        msg=msg,
        html_docs=html_docs,
        error_file=error_file,
    )
    return scores.to_dict()


def print_confusion(msg: Printer, scores: CorpusScores) -> None:
    """One table per scheme: a row per gold label, a column per predicted
    label, labels sorted and O (no span) last."""
    for name, result in scores.results.items():
        confusion = result.confusion
        labels = confusion.labels
        rows = [(gold, *row) for gold, row in zip(labels, confusion.matrix)]
        msg.table(
            rows,
            header=("gold \\ pred", *labels),
            aligns=("l",) + ("r",) * len(labels),
            max_col=80,
            title=f"{name} confusion (rows gold, columns predicted, O: no span)",
        )


def format_ci(value: float, low: float, high: float) -> str:
    """ "40.00 [21.05, 58.82]": a ratio and its interval, as percentages."""
    return f"{format_pct(value)} [{format_pct(low)}, {format_pct(high)}]"


def _unit_text(scores: CorpusScores) -> str:
    settings = scores.analysis_settings
    by = settings.resample_by if settings is not None else None
    return "documents" if by is None else f"groups of documents with the same {by!r}"


def print_analysis(msg: Printer, scores: CorpusScores) -> None:
    """The intervals of every scheme, the comparison with the baseline and
    one breakdown table per attribute (primary scheme), each if computed."""
    settings = scores.analysis_settings
    if settings is None:
        return
    rows: List[Tuple[Any, ...]]
    if scores.intervals:
        rows = [
            (
                name,
                format_ci(ci.p.estimate, ci.p.low, ci.p.high),
                format_ci(ci.r.estimate, ci.r.low, ci.r.high),
                format_ci(ci.f.estimate, ci.f.low, ci.f.high),
                ci.n_units,
            )
            for name, ci in scores.intervals.items()
        ]
        msg.table(
            rows,
            header=("", "P [low, high]", "R [low, high]", "F [low, high]", "units"),
            aligns=("l", "r", "r", "r", "r"),
            max_col=80,
            title=f"{settings.confidence * 100:g} % bootstrap intervals ({settings.bootstrap} resamples of "
            f"{_unit_text(scores)}, seed {settings.seed})",
        )
    if scores.comparison:
        first = next(iter(scores.comparison.values()))
        rounds = "every assignment" if first.exact else f"{first.n_resamples} rounds"
        rows = []
        for name, t in scores.comparison.items():
            rows.append(
                (
                    name,
                    format_pct(scores.baseline_results[name].f1),
                    format_pct(scores.results[name].f1),
                    format_delta(t.delta),
                    f"[{format_delta(t.low)}, {format_delta(t.high)}]",
                    f"{t.p_value:.4f}",
                    "*" if t.significant else "",
                )
            )
        msg.table(
            rows,
            header=(
                "",
                "F baseline",
                "F",
                "delta F",
                f"{(1 - first.alpha) * 100:g} % interval",
                "p",
                f"p < {first.alpha:g}",
            ),
            aligns=("l", "r", "r", "r", "r", "r", "c"),
            max_col=80,
            title=f"Against the baseline ({first.method} test, {rounds}, seed {first.seed})",
        )
        say(
            msg,
            "text",
            f"Baseline: {scores.baseline_source}; delta = F - F(baseline), same gold documents "
            f"({first.n_units} {first.unit}s); * marks p < {first.alpha:g}.",
        )
    primary = scores.primary
    for name, by_scheme in scores.breakdowns.items():
        buckets = by_scheme.get(primary, [])
        cis = scores.breakdown_intervals.get(name, {}).get(primary)
        if cis is not None and all(ci is None for ci in cis):
            cis = None  # no bucket has 2 units to resample
        header = ["", "P", "R", "F"] + (["F [low, high]"] if cis is not None else []) + ["gold", "pred"]
        rows = []
        for i, b in enumerate(buckets):
            row = [b.name, format_pct(b.precision), format_pct(b.recall), format_pct(b.f1)]
            if cis is not None:
                ci = cis[i]
                row.append("" if ci is None else format_ci(ci.f.estimate, ci.f.low, ci.f.high))
            rows.append(tuple(row + [b.n_gold, b.n_pred]))
        kind = "spans" if name in ("span_length", "label") else "documents"
        msg.table(
            rows,
            header=tuple(header),
            aligns=("l",) + ("r",) * (len(header) - 1),
            max_col=80,
            title=f"{primary} by {name} ({kind})",
        )


def score_and_report(
    front_door: Callable[..., CorpusScores],
    *inputs: Any,
    schemes: Optional[str],
    output_path: Optional[Path] = None,
    errors_path: Optional[Path] = None,
    html_path: Optional[Path] = None,
    silent: bool = False,
    html_docs: int = HTML_DOCS,
    confusion: bool = False,
    **settings: Any,
) -> Dict[str, Any]:
    """front_door(*inputs, **settings) (`compare_files`, `evaluate_pipeline`),
    printed and written as the commands do, a progress bar unless silent.
    Memory does not grow with the errors: the --errors lines are written a
    batch at a time as the corpus is scored (`ErrorFile`), and only the
    html_docs documents the --html page shows are kept (with the counts
    of all errors).

    The result's warnings are printed, not given as UserWarnings;
    confusion: print every scheme's confusion matrix too.

    RETURNS (Dict[str, Any]): `CorpusScores.to_dict()`."""
    with warnings_shown():
        return _score_and_report(
            front_door,
            *inputs,
            schemes=schemes,
            output_path=output_path,
            errors_path=errors_path,
            html_path=html_path,
            silent=silent,
            html_docs=html_docs,
            confusion=confusion,
            **settings,
        )


def _score_and_report(
    front_door: Callable[..., CorpusScores],
    *inputs: Any,
    schemes: Optional[str],
    output_path: Optional[Path],
    errors_path: Optional[Path],
    html_path: Optional[Path],
    silent: bool,
    html_docs: int,
    confusion: bool,
    **settings: Any,
) -> Dict[str, Any]:
    if not (errors_path or html_path):
        scores = front_door(*inputs, schemes=schemes, progress=not silent, **settings)
        return report(
            scores, silent=silent, output_path=output_path, errors_path=None, html_path=None, confusion=confusion
        )
    named = comma_list(",".join(schemes) if isinstance(schemes, (list, tuple)) else schemes or "")
    linked = [name for name in named if name in LINK_SCHEMES]
    error_file = None
    if errors_path is not None:
        link_scheme = link_error_scheme(linked)
        link_lines = None if link_scheme is None else functools.partial(link_error_lines, scheme=link_scheme)
        error_file = writing(errors_path, lambda p: ErrorFile(p, kb_ids=bool(linked), link_lines=link_lines))
    with error_file or contextlib.nullcontext():
        scores = front_door(
            *inputs,
            schemes=schemes,
            keep_errors=True,
            max_error_docs=html_docs if html_path else 0,
            on_errors=error_file,
            progress=not silent,
            **settings,
        )
        return report(
            scores,
            silent=silent,
            output_path=output_path,
            errors_path=errors_path,
            html_path=html_path,
            html_docs=html_docs,
            error_file=error_file,
            confusion=confusion,
        )
