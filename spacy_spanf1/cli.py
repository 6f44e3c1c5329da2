"""The `spacy-spanf1` command line (also `python -m spacy_spanf1`).

Each command is a thin typer wrapper over a plain function of `app.py`
(`evaluate_pipeline`, `compare_files`, `prf_from_stdin`) that returns the
scores; this module only prints (wasabi tables) and writes (--output,
--errors, --html). Bad input raises `InputError` (one line on stderr, exit
status 1); bad settings raise `UsageError` (status 2). The library names
settings (`spans_key`); `FLAGS` maps them to this command line's flags.

Output is plain text (no ANSI escape codes) when stdout is not a terminal
or NO_COLOR is set; messages are printed unwrapped.
"""
import os
import re
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import srsly
import typer
from wasabi import Printer, color

from .app import CorpusScores, compare_files, evaluate_pipeline, prf_from_stdin, prf_from_text, score_pairs  # noqa: F401
from .errors import SCHEMES
from .matching import SEMEVAL_RULES as SEMEVAL_SCHEMES
from .formats import InputError, UsageError, extension_map, format_names
from .report import error_records, format_counts, format_delta, format_pct, render_html, write_errors, write_html
from .tags import TAG_MODES, TAG_SCHEMES

Arg = typer.Argument
Opt = typer.Option

NAME = "spacy-spanf1"
HELP = """Span precision, recall and F1 under explicitly named matching schemes
(strict, exact, partial, type, iou, overlap). Run a command with --help for
its options."""

app = typer.Typer(
    name=NAME,
    help=HELP,
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)

#: Setting (as the library names it) -> flag (or argument) of this CLI.
FLAGS: Dict[str, str] = {
    "schemes": "--schemes",
    "format": "--format",
    "unit": "--unit",
    "spans_key": "--spans-key",
    "labels": "--labels",
    "tag_column": "--tag-column",
    "tag_mode": "--tag-mode",
    "tag_scheme": "--tag-scheme",
    "gold_column": "--gold-column",
    "pred_column": "--pred-column",
    "pred_path": "PRED",
    "iou_threshold": "--iou-threshold",
    "overlap_threshold": "--overlap-threshold",
    "min_overlap": "--min-overlap",
    "n_process": "--n-process",
    "fragments": "--fragments",
    "newlines": "--newlines",
    "annotator": "--annotator",
    "model_version": "--model-version",
    "pred_from": "--pred-from",
    "text_field": "--text-field",
    "tag_field": "--tag-field",
    "token_field": "--token-field",
    "label_names": "--label-names",
    "batch_size": "--batch-size",
    "bootstrap": "--bootstrap",
    "confidence": "--confidence",
    "seed": "--seed",
    "resample_by": "--resample-by",
    "baseline": "--baseline",
    "test": "--test",
    "alpha": "--alpha",
    "by": "--by",
    "buckets": "--buckets",
    "html_docs": "--html-docs",
    "shard_docs": "--shard-docs",
    "cluster": "--cluster",
    "scheduler": "--scheduler",
    "scheduler_file": "--scheduler-file",
    "code": "--code",
    "data_path": "DATA",
}
_SETTING = re.compile(r"'(%s)'|\b(%s)=" % ("|".join(FLAGS), "|".join(FLAGS)))


def flags_of(message: str) -> str:
    """A library message with its setting names ('spans_key', tag_mode=)
    written as this command line's flags ('--spans-key', --tag-mode=)."""
    def repl(match):
        if match.group(1):
            return f"'{FLAGS[match.group(1)]}'"
        return f"{FLAGS[match.group(2)]}="

    return _SETTING.sub(repl, message)


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


SCHEMES_HELP = (
    f"Comma-separated schemes, the first is primary (required; give the option once): {','.join(SCHEMES)}"
)
LABELS_HELP = "Comma-separated labels to score (default: all); each must occur in gold or prediction"
ERRORS_HELP = (
    "Write one JSON line per error of the primary (first) scheme: doc, name, scheme, kind "
    "(missed, spurious, wrong_type, wrong_boundaries, low_overlap), count (inc, par, mis, spu; "
    "fp, fn), gold and predicted spans with their text, IoU and coverage both ways"
)
HTML_HELP = (
    "Write a self-contained HTML page: scores, per-label chart, and each document with errors, "
    "gold and predicted spans side by side"
)


def format_help() -> str:
    by_format: Dict[str, List[str]] = {}
    for ext, name in extension_map().items():
        by_format.setdefault(name, []).append(ext or "a directory")
    default = "; ".join(", ".join(exts) for exts in by_format.values())
    return f"Input format: {', '.join(format_names())}; default: from the extension ({default})"


def string_to_list(value: Optional[str]) -> Optional[List[str]]:
    """A comma-separated string as a list of its non-empty items, as spaCy's
    CLI takes lists ("strict,iou" -> ["strict", "iou"]); None stays None."""
    if value is None:
        return None
    return [item.strip() for item in value.split(",") if item.strip()]


def one_schemes(schemes: Optional[List[str]]) -> str:
    """The --schemes value, given once (a repeated option is an error, not
    "the last one wins")."""
    if not schemes:
        raise UsageError(
            f"Missing option '--schemes': name at least one scheme, e.g. --schemes strict,iou. "
            f"Valid schemes: {', '.join(SCHEMES)}"
        )
    if len(schemes) > 1:
        given = " ".join(f"-s {s}" for s in schemes)
        raise UsageError(
            f"'schemes' is given {len(schemes)} times ({given}); give it once, comma-separated: "
            f"--schemes {','.join(schemes)}",
            "schemes",
        )
    return schemes[0]


# --------------------------------------------------------------------------
# Printing and writing
# --------------------------------------------------------------------------


def print_scores(msg: Printer, scores: CorpusScores) -> None:
    """One table with a row per scheme, then the primary scheme per label."""
    results = scores.results
    rows = [
        (name, format_pct(r.precision), format_pct(r.recall), format_pct(r.f1), format_pct(r.macro_f1), format_counts(r.counts))
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
            say(msg, "text", "Per type, each label is scored on its own spans (as nervaluate does): the counts "
                "need not add up to the totals (a wrong label is one INC there, a MIS and a SPU here).")
    say(msg, "info", f"Documents: {scores.documents}, scored: {scores.scored}, skipped: {scores.skipped}")
    if scores.skipped:
        names = scores.skipped_names
        shown = ", ".join(names) + (", …" if scores.skipped > len(names) else "")
        say(msg, "warn", f"{scores.skipped} gold document(s) without annotation were skipped: {shown}")
    for side, counts in scores.not_scored.items():
        listed = ", ".join(f"{what} {n}" for what, n in sorted(counts.items()))
        where = scores.sources[0] if side == "gold" else scores.sources[1]
        say(msg, "info", f"Read but not scored ({'gold' if side == 'gold' else 'predicted'}, {where}): {listed}")
    if scores.official_score is not None:
        n = len([c for c in scores.gold_labels if c in scores.results["overlap"].per_type])
        say(msg, "text", f"Feedback Prize score (overlap scheme, mean F1 of the {n} gold classes): {scores.official_score:.4f}")


def write_outputs(
    scores: CorpusScores,
    *,
    output_path: Optional[Path],
    errors_path: Optional[Path],
    html_path: Optional[Path],
    msg: Printer,
    html_docs: int = 200,
) -> None:
    """Write the scores JSON, the error lines and the HTML page (each if asked)."""
    data = scores.to_dict()
    records = error_records(scores.errors, scores.pairs, scores.primary) if (errors_path or html_path) else []
    jobs: List[Tuple[Path, Callable[[Path], None], str]] = []
    if output_path is not None:
        jobs.append((output_path, lambda p: srsly.write_json(p, data), "scores"))
    if errors_path is not None:
        jobs.append((errors_path, lambda p: write_errors(p, records), f"{len(records)} error records"))
    if html_path is not None:
        page = lambda: render_html(  # noqa: E731
            data, list(scores.pairs.values()), records, sources=scores.sources, unit=scores.unit,
            max_docs=html_docs,
        )
        jobs.append((html_path, lambda p: write_html(p, page()), "HTML report"))
    for path, write, what in jobs:
        path = Path(path)
        try:
            if not path.parent.exists():
                path.parent.mkdir(parents=True)
            write(path)
        except OSError as err:
            raise InputError(f"can't write the file: {err.strerror or err}", path) from None
        say(msg, "good", f"Saved {what} {path}")


def report(scores: CorpusScores, *, silent: bool, output_path, errors_path, html_path, html_docs: int = 200) -> Dict[str, Any]:
    msg = printer(silent)
    print_scores(msg, scores)
    print_analysis(msg, scores)
    write_outputs(scores, output_path=output_path, errors_path=errors_path, html_path=html_path, msg=msg,
                  html_docs=html_docs)
    return scores.to_dict()


def format_ci(value: float, low: float, high: float) -> str:
    """"40.00 [21.05, 58.82]": a ratio and its interval, as percentages."""
    return f"{format_pct(value)} [{format_pct(low)}, {format_pct(high)}]"


def _unit_text(scores: CorpusScores) -> str:
    by = scores.analysis.resample_by if scores.analysis is not None else None
    return "documents" if by is None else f"groups of documents with the same {by!r}"


def print_analysis(msg: Printer, scores: CorpusScores) -> None:
    """The intervals of every scheme, the comparison with the baseline and
    one breakdown table per attribute (primary scheme), each if computed."""
    settings = scores.analysis
    if settings is None:
        return
    if scores.intervals:
        rows = [
            (name, format_ci(ci.p.estimate, ci.p.low, ci.p.high), format_ci(ci.r.estimate, ci.r.low, ci.r.high),
             format_ci(ci.f.estimate, ci.f.low, ci.f.high), ci.n_units)
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
            rows.append((
                name, format_pct(scores.baseline_results[name].f1), format_pct(scores.results[name].f1), format_delta(t.delta),
                f"[{format_delta(t.low)}, {format_delta(t.high)}]", f"{t.p_value:.4f}",
                "*" if t.significant else "",
            ))
        msg.table(
            rows,
            header=("", "F baseline", "F", "delta F", f"{(1 - first.alpha) * 100:g} % interval", "p", f"p < {first.alpha:g}"),
            aligns=("l", "r", "r", "r", "r", "r", "c"),
            max_col=80,
            title=f"Against the baseline ({first.method} test, {rounds}, seed {first.seed})",
        )
        say(msg, "text", f"Baseline: {scores.baseline_source}; delta = F - F(baseline), same gold documents "
            f"({first.n_units} {first.unit}s); * marks p < {first.alpha:g}.")
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


def evaluate_model(
    model: str,
    data_path: Path,
    *,
    schemes: Optional[str],
    output_path: Optional[Path] = None,
    errors_path: Optional[Path] = None,
    html_path: Optional[Path] = None,
    silent: bool = False,
    html_docs: int = 200,
    **settings: Any,
) -> Dict[str, Any]:
    """`evaluate_pipeline`, printed and written as the command does.
    RETURNS (Dict[str, Any]): `CorpusScores.to_dict()`."""
    _check_html_docs(html_docs)
    scores = evaluate_pipeline(
        model, data_path, schemes=schemes, keep_errors=bool(errors_path or html_path),
        progress=not silent, **settings,
    )
    return report(scores, silent=silent, output_path=output_path, errors_path=errors_path, html_path=html_path,
                  html_docs=html_docs)


def compare_command(
    gold_path: Path,
    pred_path: Optional[Path],
    *,
    schemes: Optional[str],
    output_path: Optional[Path] = None,
    errors_path: Optional[Path] = None,
    html_path: Optional[Path] = None,
    silent: bool = False,
    html_docs: int = 200,
    **settings: Any,
) -> Dict[str, Any]:
    """`compare_files`, printed and written as the command does."""
    _check_html_docs(html_docs)
    scores = compare_files(
        gold_path, pred_path, schemes=schemes, keep_errors=bool(errors_path or html_path), **settings
    )
    return report(scores, silent=silent, output_path=output_path, errors_path=errors_path, html_path=html_path,
                  html_docs=html_docs)


def _check_html_docs(html_docs: Any) -> None:
    if isinstance(html_docs, bool) or not isinstance(html_docs, int) or html_docs < 0:
        raise UsageError(f"'html_docs' must be an integer >= 0, got {html_docs!r}", "html_docs")


BOOTSTRAP_HELP = "Bootstrap intervals of every scheme's P, R and F from N resamples of the documents (or of --resample-by groups); prints F [low, high]"
CONFIDENCE_HELP = "Confidence level of the intervals, in (0, 1)"
SEED_HELP = "Seed of the resampling (intervals and tests)"
RESAMPLE_BY_HELP = "Metadata field (JSONL record field, DocBin user_data key): documents with the same value are resampled and swapped together (e.g. the sentences of one source document)"
TEST_HELP = "Paired test against --baseline: randomization (approximate randomization, 10000 rounds) or bootstrap (paired bootstrap, 1000 resamples)"
ALPHA_HELP = "Significance level of the paired test, in (0, 1); the interval of the difference is at 1 - alpha"
BY_HELP = "Comma-separated breakdowns: span_length, label, doc_length, density, or a metadata field (e.g. genre); one table per attribute for the primary scheme, every scheme in the JSON"
BUCKETS_HELP = "How many intervals a numeric breakdown attribute is cut into (at most)"
HTML_DOCS_HELP = "Show at most N documents with errors in the --html page, the most errors first"


# --------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------

CLUSTER_HELP = "Run on a local Dask cluster of N worker processes (local:N), started and closed by the command; needs the [dask] extra"
SCHEDULER_HELP = "Run on a running Dask cluster: the scheduler's address (tcp://HOST:8786)"
SCHEDULER_FILE_HELP = "Run on a running Dask cluster: its scheduler file (dask scheduler --scheduler-file)"


def on_cluster(func: Callable[..., Any], cluster: Optional[str], scheduler: Optional[str], scheduler_file: Optional[Path]) -> Callable[..., Any]:
    """func(client=...) inside `distributed.open_client` (None: in-process,
    and Dask is not imported); the cluster closes on any exit, Ctrl-C too."""
    def run(**kwargs: Any) -> Any:
        if not (cluster or scheduler or scheduler_file):
            return func(**kwargs)
        from .distributed.run import open_client

        with open_client(cluster, scheduler, None if scheduler_file is None else str(scheduler_file)) as client:
            return func(client=client, **kwargs)

    return run


def _fail(message: str, exits: int = 1) -> None:
    """Print one line on stderr and exit."""
    line = " ".join(str(message).split())
    text = f"✘ {line}"
    if use_color(sys.stderr):
        text = color(text, fg="red")
    print(text, file=sys.stderr)
    raise typer.Exit(exits)


def _run(ctx: typer.Context, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run a plain function; bad input -> one line on stderr, status 1; bad
    settings -> a usage error naming the flag, status 2."""
    try:
        return func(*args, **kwargs)
    except UsageError as err:
        message = flags_of(err.message)
        if err.param:
            hint = FLAGS.get(err.param, err.param)
            raise typer.BadParameter(message, ctx=ctx, param_hint=f"'{hint}'") from None
        ctx.fail(message)
    except InputError as err:
        if err.path is None and err.setting is not None:
            _fail(f"{FLAGS.get(err.setting, err.setting)}: {flags_of(err.message)}", 1)
        _fail(flags_of(str(err)), 1)


@app.command("evaluate")
def evaluate_cli(
    # fmt: off
    ctx: typer.Context,
    model: str = Arg(..., metavar="MODEL", help="Pipeline to run: an installed package name or a path"),
    data_path: List[Path] = Arg(..., metavar="DATA...", help="Reference documents: .spacy DocBins, directories of them or globs; each file is a shard", show_default=False),
    schemes: Optional[List[str]] = Opt(None, "--schemes", "-s", help=SCHEMES_HELP, show_default=False),
    spans_key: Optional[str] = Opt(None, "--spans-key", "-k", help="Score Doc.spans[KEY] instead of Doc.ents"),
    unit: str = Opt("token", "--unit", "-u", help="Offsets the scores count: token (reference tokens, predictions aligned as spaCy does) or char"),
    labels: Optional[str] = Opt(None, "--labels", "-l", help=LABELS_HELP),
    iou_threshold: float = Opt(0.5, "--iou-threshold", help="Combined IoU a gold span needs under iou, in (0, 1]"),
    overlap_threshold: float = Opt(0.5, "--overlap-threshold", help="Coverage both ways under overlap, in (0, 1]"),
    min_overlap: Optional[float] = Opt(None, "--min-overlap", help="Share of a gold span a prediction must cover to overlap it (strict/exact/partial/type), in (0, 1]; default: any overlap"),
    output_path: Optional[Path] = Opt(None, "--output", "-o", help="Write every figure as JSON", dir_okay=False),
    errors_path: Optional[Path] = Opt(None, "--errors", help=ERRORS_HELP, dir_okay=False),
    html_path: Optional[Path] = Opt(None, "--html", help=HTML_HELP, dir_okay=False),
    n_process: int = Opt(1, "--n-process", "-n", help="Processes for nlp.pipe", min=1),
    batch_size: int = Opt(64, "--batch-size", "-b", help="Batch size for nlp.pipe", min=1),
    silent: bool = Opt(False, "--silent", help="Print nothing but errors"),
    bootstrap: Optional[int] = Opt(None, "--bootstrap", help=BOOTSTRAP_HELP, show_default=False),
    confidence: float = Opt(0.95, "--confidence", help=CONFIDENCE_HELP),
    seed: int = Opt(12345, "--seed", help=SEED_HELP),
    resample_by: Optional[str] = Opt(None, "--resample-by", help=RESAMPLE_BY_HELP, show_default=False),
    baseline: Optional[str] = Opt(None, "--baseline", metavar="MODEL_B", help="A second pipeline run over the same DocBin: a paired test of MODEL against it, per scheme", show_default=False),
    test: str = Opt("randomization", "--test", help=TEST_HELP),
    alpha: float = Opt(0.05, "--alpha", help=ALPHA_HELP),
    by: Optional[str] = Opt(None, "--by", help=BY_HELP, show_default=False),
    buckets: int = Opt(4, "--buckets", help=BUCKETS_HELP),
    html_docs: int = Opt(200, "--html-docs", help=HTML_DOCS_HELP),
    shard_docs: Optional[int] = Opt(None, "--shard-docs", help="Split the files into shards of N documents", min=1, show_default=False),
    cluster: Optional[str] = Opt(None, "--cluster", help=CLUSTER_HELP, show_default=False),
    scheduler: Optional[str] = Opt(None, "--scheduler", help=SCHEDULER_HELP, show_default=False),
    scheduler_file: Optional[Path] = Opt(None, "--scheduler-file", help=SCHEDULER_FILE_HELP, dir_okay=False, show_default=False),
    code: Optional[Path] = Opt(None, "--code", "-c", help="Python file with registered functions (custom components) to import first, also on every worker", dir_okay=False, show_default=False),
    # fmt: on
):
    """Run a pipeline over the texts of a .spacy DocBin and score its spans
    against the DocBin's own under each scheme. Prints one row per scheme
    (P, R, F, macro F, counts) and the primary (first) scheme per label.
    A reference doc without annotation (no entity annotation, or no span
    group --spans-key) is skipped and counted.

    \b
    Example:
    spacy-spanf1 evaluate ./model dev.spacy --schemes strict,iou -o scores.json
    """
    _run(
        ctx,
        on_cluster(lambda **kw: evaluate_model(model, data_path, schemes=one_schemes(schemes), **kw), cluster, scheduler, scheduler_file),
        spans_key=spans_key,
        unit=unit,
        labels=labels,
        iou_threshold=iou_threshold,
        overlap_threshold=overlap_threshold,
        min_overlap=min_overlap,
        output_path=output_path,
        errors_path=errors_path,
        html_path=html_path,
        n_process=n_process,
        batch_size=batch_size,
        silent=silent,
        **analysis_options(bootstrap, confidence, seed, resample_by, baseline, test, alpha, by, buckets, html_docs),
        shard_docs=shard_docs,
        code=code,
    )


@app.command("compare")
def compare_cli(
    # fmt: off
    ctx: typer.Context,
    gold_path: Path = Arg(..., metavar="GOLD", help="Gold file (a brat directory), or a directory of gold shards paired by file name with PRED's", show_default=False),
    pred_path: Optional[Path] = Arg(None, metavar="[PRED]", help="Predicted file (or directory of shards) of the same documents, in the same format; left out for one file holding both sides (CoNLL with --gold-column and --pred-column, a Label Studio export)", show_default=False),
    schemes: Optional[List[str]] = Opt(None, "--schemes", "-s", help=SCHEMES_HELP, show_default=False),
    fmt: Optional[str] = Opt(None, "--format", "-f", help=format_help(), show_default=False),
    spans_key: Optional[str] = Opt(None, "--spans-key", "-k", help="spacy: score Doc.spans[KEY] instead of Doc.ents"),
    unit: Optional[str] = Opt(None, "--unit", "-u", help='spacy: token (default) or char; jsonl: char (default) or token (then "start"/"end" are offsets into each record\'s "tokens"); conll, kaggle: token', show_default=False),
    labels: Optional[str] = Opt(None, "--labels", "-l", help=LABELS_HELP),
    tag_column: Optional[int] = Opt(None, "--tag-column", help="conll: 0-based column of the tags, negative from the end [default: -1, the last]", show_default=False),
    gold_column: Optional[int] = Opt(None, "--gold-column", help="conll, one file holding both sides (token gold pred, as conlleval): the gold tag column, 0-based, negative from the end (with --pred-column; PRED left out)", show_default=False),
    pred_column: Optional[int] = Opt(None, "--pred-column", help="conll, one file holding both sides: the predicted tag column, 0-based, negative from the end (e.g. --gold-column 1 --pred-column 2, or -2 and -1)", show_default=False),
    tag_mode: Optional[str] = Opt(None, "--tag-mode", help=f"conll: how tags become spans, as seqeval: {', '.join(TAG_MODES)} [default: conll]", show_default=False),
    tag_scheme: Optional[str] = Opt(None, "--tag-scheme", help=f"conll, with --tag-mode strict: {', '.join(TAG_SCHEMES)}", show_default=False),
    fragments: Optional[str] = Opt(None, "--fragments", help="brat: discontinuous entities: error (default), merge (one span) or split (one span per fragment); fragments split only by whitespace are always merged", show_default=False),
    newlines: Optional[str] = Opt(None, "--newlines", help="brat: brat (default: offsets count \\r\\n as one character, as brat reads the .txt) or keep", show_default=False),
    annotator: Optional[str] = Opt(None, "--annotator", help="labelstudio: the annotation to read, by completed_by id or e-mail [default: the first not cancelled]", show_default=False),
    model_version: Optional[str] = Opt(None, "--model-version", help="labelstudio: the prediction to read, by model_version [default: the first]", show_default=False),
    pred_from: Optional[str] = Opt(None, "--pred-from", help="labelstudio: predictions (default) or annotations (a second export's annotations)", show_default=False),
    text_field: Optional[str] = Opt(None, "--text-field", help="labelstudio: the data field of the text [default: text]", show_default=False),
    tag_field: Optional[str] = Opt(None, "--tag-field", help="tags: the field of the tags [default: ner_tags]", show_default=False),
    token_field: Optional[str] = Opt(None, "--token-field", help="tags: the field of the tokens [default: tokens]", show_default=False),
    label_names: Optional[str] = Opt(None, "--label-names", help="tags: comma-separated names of integer tag ids [default: from dataset_info.json beside the file]", show_default=False),
    iou_threshold: float = Opt(0.5, "--iou-threshold", help="Combined IoU a gold span needs under iou, in (0, 1]"),
    overlap_threshold: float = Opt(0.5, "--overlap-threshold", help="Coverage both ways under overlap, in (0, 1]"),
    min_overlap: Optional[float] = Opt(None, "--min-overlap", help="Share of a gold span a prediction must cover to overlap it (strict/exact/partial/type), in (0, 1]; default: any overlap"),
    output_path: Optional[Path] = Opt(None, "--output", "-o", help="Write every figure as JSON", dir_okay=False),
    errors_path: Optional[Path] = Opt(None, "--errors", help=ERRORS_HELP, dir_okay=False),
    html_path: Optional[Path] = Opt(None, "--html", help=HTML_HELP, dir_okay=False),
    silent: bool = Opt(False, "--silent", help="Print nothing but errors"),
    bootstrap: Optional[int] = Opt(None, "--bootstrap", help=BOOTSTRAP_HELP, show_default=False),
    confidence: float = Opt(0.95, "--confidence", help=CONFIDENCE_HELP),
    seed: int = Opt(12345, "--seed", help=SEED_HELP),
    resample_by: Optional[str] = Opt(None, "--resample-by", help=RESAMPLE_BY_HELP, show_default=False),
    baseline: Optional[Path] = Opt(None, "--baseline", metavar="PRED_B", help="A second predicted file of the same documents: a paired test of PRED against it, per scheme", show_default=False),
    test: str = Opt("randomization", "--test", help=TEST_HELP),
    alpha: float = Opt(0.05, "--alpha", help=ALPHA_HELP),
    by: Optional[str] = Opt(None, "--by", help=BY_HELP, show_default=False),
    buckets: int = Opt(4, "--buckets", help=BUCKETS_HELP),
    html_docs: int = Opt(200, "--html-docs", help=HTML_DOCS_HELP),
    cluster: Optional[str] = Opt(None, "--cluster", help=CLUSTER_HELP, show_default=False),
    scheduler: Optional[str] = Opt(None, "--scheduler", help=SCHEDULER_HELP, show_default=False),
    scheduler_file: Optional[Path] = Opt(None, "--scheduler-file", help=SCHEDULER_FILE_HELP, dir_okay=False, show_default=False),
    # fmt: on
):
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
    or token mismatch between the files is an error.

    \b
    Example:
    spacy-spanf1 compare gold.jsonl pred.jsonl --schemes strict,partial
    """
    _run(
        ctx,
        on_cluster(lambda **kw: compare_command(gold_path, pred_path, schemes=one_schemes(schemes), **kw), cluster, scheduler, scheduler_file),
        fmt=fmt,
        gold_column=gold_column,
        pred_column=pred_column,
        spans_key=spans_key,
        unit=unit,
        labels=labels,
        tag_column=tag_column,
        tag_mode=tag_mode,
        tag_scheme=tag_scheme,
        fragments=fragments,
        newlines=newlines,
        annotator=annotator,
        model_version=model_version,
        pred_from=pred_from,
        text_field=text_field,
        tag_field=tag_field,
        token_field=token_field,
        label_names=label_names,
        iou_threshold=iou_threshold,
        overlap_threshold=overlap_threshold,
        min_overlap=min_overlap,
        output_path=output_path,
        errors_path=errors_path,
        html_path=html_path,
        silent=silent,
        **analysis_options(bootstrap, confidence, seed, resample_by, baseline, test, alpha, by, buckets, html_docs),
        progress=not silent,
    )


def analysis_options(bootstrap, confidence, seed, resample_by, baseline, test, alpha, by, buckets, html_docs) -> Dict[str, Any]:
    """The analysis flags as settings; only those that differ from the
    defaults, so a plain run passes none."""
    given = {
        "bootstrap": (bootstrap, None), "confidence": (confidence, 0.95), "seed": (seed, 12345),
        "resample_by": (resample_by, None), "baseline": (None if baseline is None else str(baseline), None),
        "test": (test, "randomization"), "alpha": (alpha, 0.05), "by": (by, None), "buckets": (buckets, 4),
        "html_docs": (html_docs, 200),
    }
    return {name: value for name, (value, default) in given.items() if value != default}


@app.command("prf")
def prf_cli(ctx: typer.Context):
    """Exact-match precision, recall and F1 of plain spans read from
    standard input: P, then P lines `start end type` (predicted), then G,
    then G lines (gold). Ends are inclusive; the numbers may also come on one
    line, space-separated. Prints `precision recall f1` rounded to 4
    decimals, 0.0 where undefined; identical spans count once.

    \b
    Example:
    echo "3 0 1 PER 4 6 LOC 8 8 ORG 2 0 1 PER 4 6 LOC" | spacy-spanf1 prf
    prints 0.6667 1.0 0.8
    """
    p, r, f = _run(ctx, prf_from_stdin)
    print(f"{p} {r} {f}")


if __name__ == "__main__":
    app()
