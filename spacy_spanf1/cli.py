"""The `spacy-spanf1` command line (also `python -m spacy_spanf1`).

Each command is a thin typer wrapper over a plain function that takes
`silent` and returns the scores: `evaluate_model`, `compare_files`,
`prf_from_text`. Bad input raises `InputError` (the command prints one line
on stderr and exits with status 1); bad options raise `UsageError` (status 2).
"""
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import srsly
import typer
from wasabi import Printer, color

from .errors import SCHEMES, check_fraction, check_schemes
from .evaluate import SchemeResult, SpanScorer
from .formats import (
    FORMATS,
    Corpus,
    InputError,
    UsageError,
    check_file,
    infer_format,
    load_corpus,
    pairs_from_examples,
    read_docbin,
)
from .matching import SpanError
from .report import error_records, format_counts, format_pct, render_html, write_errors, write_html
from .spans import Span
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

SCHEMES_HELP = f"Comma-separated schemes, the first is primary (required): {','.join(SCHEMES)}"
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


def string_to_list(value: Optional[str]) -> Optional[List[str]]:
    """A comma-separated string as a list of its non-empty items, as spaCy's
    CLI takes lists ("strict,iou" -> ["strict", "iou"]); None stays None."""
    if value is None:
        return None
    return [item.strip() for item in value.split(",") if item.strip()]


# --------------------------------------------------------------------------
# Shared: settings, scoring, printing, writing
# --------------------------------------------------------------------------


def _check_settings(
    schemes: Optional[str],
    labels: Optional[str],
    iou_threshold: float,
    overlap_threshold: float,
    min_overlap: Optional[float],
) -> Tuple[Tuple[str, ...], Optional[List[str]]]:
    if schemes is None:
        raise UsageError(
            f"Missing option '--schemes': name at least one scheme, e.g. --schemes strict,iou. "
            f"Valid schemes: {', '.join(SCHEMES)}"
        )
    try:
        scheme_list = check_schemes(string_to_list(schemes), setting="--schemes")
    except (TypeError, ValueError) as err:
        raise UsageError(str(err), "--schemes") from None
    for name, value, optional in (
        ("--iou-threshold", iou_threshold, False),
        ("--overlap-threshold", overlap_threshold, False),
        ("--min-overlap", min_overlap, True),
    ):
        try:
            check_fraction(name, value, optional=optional)
        except ValueError as err:
            raise UsageError(str(err), name) from None
    label_list = string_to_list(labels)
    if label_list is not None and not label_list:
        raise UsageError("--labels is empty; leave it out to score every label", "--labels")
    return scheme_list, label_list


def score_corpus(
    corpus: Corpus,
    schemes: Sequence[str],
    *,
    labels: Optional[Sequence[str]] = None,
    iou_threshold: float = 0.5,
    overlap_threshold: float = 0.5,
    min_overlap: Optional[float] = None,
    keep_errors: bool = False,
) -> Tuple[Dict[str, SchemeResult], List[SpanError]]:
    """Score paired documents under the schemes.

    RETURNS: (scheme -> SchemeResult, the errors of the primary (first)
        scheme when keep_errors; their `doc` indexes corpus.pairs).
    Raises InputError for a label (in `labels`) found in neither file.
    """
    if labels is not None:
        found = corpus.labels
        for label in labels:
            if label not in found:
                listed = ", ".join(sorted(found)) or "none"
                raise InputError(
                    f"--labels: the label {label!r} occurs in neither {corpus.sources[0]} "
                    f"nor {corpus.sources[1]}. Labels found: {listed}"
                )
    scorer = SpanScorer(
        schemes,
        iou_threshold=iou_threshold,
        overlap_threshold=overlap_threshold,
        min_overlap=min_overlap,
        labels=labels,
        keep_errors=keep_errors,
    )
    for pair in corpus.pairs:
        scorer.add(pair.gold, pair.pred)
    results = scorer.results()
    errors: List[SpanError] = list(results[schemes[0]].errors) if keep_errors else []
    return results, errors


def scores_data(results: Dict[str, SchemeResult], corpus: Corpus) -> Dict[str, Any]:
    """The JSON every scoring command writes."""
    return {
        "schemes": {name: result.to_dict() for name, result in results.items()},
        "documents": corpus.n_docs,
        "skipped": len(corpus.skipped),
    }


def print_scores(msg: Printer, results: Dict[str, SchemeResult], corpus: Corpus) -> None:
    """One table with a row per scheme, then the primary scheme per label."""
    rows = [
        (name, format_pct(r.precision), format_pct(r.recall), format_pct(r.f1), format_pct(r.macro_f1), format_counts(r.counts))
        for name, r in results.items()
    ]
    msg.table(
        rows,
        header=("", "P", "R", "F", "macro F", "counts"),
        aligns=("l", "r", "r", "r", "r", "l"),
        max_col=80,
        title=f"Scores ({corpus.unit} unit)",
    )
    primary = next(iter(results))
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
    msg.info(f"Documents: {corpus.n_docs}, scored: {len(corpus.pairs)}, skipped: {len(corpus.skipped)}")
    if corpus.skipped:
        shown = ", ".join(corpus.skipped[:5]) + (", …" if len(corpus.skipped) > 5 else "")
        msg.warn(
            f"{len(corpus.skipped)} gold document(s) without annotation were skipped: {shown}"
        )


def write_outputs(
    data: Dict[str, Any],
    corpus: Corpus,
    errors: Sequence[SpanError],
    *,
    output_path: Optional[Path],
    errors_path: Optional[Path],
    html_path: Optional[Path],
    msg: Printer,
) -> None:
    """Write the scores JSON, the error lines and the HTML page (each if asked)."""
    primary = next(iter(data["schemes"]))
    records = error_records(errors, corpus.pairs, primary) if (errors_path or html_path) else []
    jobs: List[Tuple[Path, Callable[[Path], None], str]] = []
    if output_path is not None:
        jobs.append((output_path, lambda p: srsly.write_json(p, data), "scores"))
    if errors_path is not None:
        jobs.append((errors_path, lambda p: write_errors(p, records), f"{len(records)} error records"))
    if html_path is not None:
        page = lambda: render_html(  # noqa: E731
            data, corpus.pairs, records, sources=corpus.sources, unit=corpus.unit
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
        msg.good(f"Saved {what}", str(path))


# --------------------------------------------------------------------------
# evaluate
# --------------------------------------------------------------------------


def _pipeline_input(nlp, reference):
    """What the pipeline runs on, as spaCy's Corpus makes it for `spacy
    evaluate`: the reference words when the reference doc was built from
    words alone (unknown spaces), else its text."""
    from spacy.tokens import Doc

    if reference.has_unknown_spaces:
        words = [token.text for token in reference]
        spaces = [bool(token.whitespace_) for token in reference]
        return Doc(nlp.vocab, words=words, spaces=spaces)
    return reference.text


def evaluate_model(
    model: str,
    data_path: Path,
    *,
    schemes: Optional[str],
    spans_key: Optional[str] = None,
    unit: str = "token",
    labels: Optional[str] = None,
    iou_threshold: float = 0.5,
    overlap_threshold: float = 0.5,
    min_overlap: Optional[float] = None,
    output_path: Optional[Path] = None,
    errors_path: Optional[Path] = None,
    html_path: Optional[Path] = None,
    n_process: int = 1,
    batch_size: int = 64,
    silent: bool = False,
) -> Dict[str, Any]:
    """Run a pipeline over the texts of a DocBin and score its spans.

    RETURNS (Dict[str, Any]): {"schemes": {name: SchemeResult.to_dict()},
        "documents": n, "skipped": n}.
    """
    import spacy
    from spacy.training import Example
    from tqdm import tqdm

    msg = Printer(no_print=silent, pretty=not silent)
    scheme_list, label_list = _check_settings(schemes, labels, iou_threshold, overlap_threshold, min_overlap)
    if unit not in ("token", "char"):
        raise UsageError(f"Unknown unit {unit!r}. Valid units: token, char", "--unit")
    if n_process < 1:
        raise UsageError(f"--n-process must be at least 1, got {n_process}", "--n-process")
    check_file(data_path)
    try:
        nlp = spacy.load(model)
    except Exception as err:  # spaCy raises OSError, ValueError, config errors...
        lines = str(err).strip().splitlines()
        reason = lines[0] if lines else type(err).__name__
        raise InputError(f"can't load the pipeline: {reason}", model) from None
    refs = read_docbin(data_path, nlp.vocab)
    preds = nlp.pipe(
        (_pipeline_input(nlp, ref) for ref in refs), n_process=n_process, batch_size=batch_size
    )
    bar = tqdm(preds, total=len(refs), desc="Running pipeline", unit="doc", file=sys.stderr, disable=silent, leave=False)
    examples = (Example(pred, ref) for pred, ref in zip(bar, refs))
    sources = (str(data_path), f"pipeline {model}")
    corpus = pairs_from_examples(examples, spans_key=spans_key, unit=unit, sources=sources)
    results, errors = score_corpus(
        corpus,
        scheme_list,
        labels=label_list,
        iou_threshold=iou_threshold,
        overlap_threshold=overlap_threshold,
        min_overlap=min_overlap,
        keep_errors=bool(errors_path or html_path),
    )
    data = scores_data(results, corpus)
    print_scores(msg, results, corpus)
    write_outputs(
        data, corpus, errors,
        output_path=output_path, errors_path=errors_path, html_path=html_path, msg=msg,
    )
    return data


# --------------------------------------------------------------------------
# compare
# --------------------------------------------------------------------------


def compare_files(
    gold_path: Path,
    pred_path: Path,
    *,
    schemes: Optional[str],
    fmt: Optional[str] = None,
    spans_key: Optional[str] = None,
    unit: Optional[str] = None,
    labels: Optional[str] = None,
    tag_column: Optional[int] = None,
    tag_mode: Optional[str] = None,
    tag_scheme: Optional[str] = None,
    iou_threshold: float = 0.5,
    overlap_threshold: float = 0.5,
    min_overlap: Optional[float] = None,
    output_path: Optional[Path] = None,
    errors_path: Optional[Path] = None,
    html_path: Optional[Path] = None,
    silent: bool = False,
) -> Dict[str, Any]:
    """Score a file of predicted spans against a gold file of the same
    documents (formats: see `formats.py`).

    RETURNS (Dict[str, Any]): As `evaluate_model`; for kaggle input with the
        overlap scheme, also "official_score": the mean F1 of the gold classes.
    """
    msg = Printer(no_print=silent, pretty=not silent)
    scheme_list, label_list = _check_settings(schemes, labels, iou_threshold, overlap_threshold, min_overlap)
    corpus = load_corpus(
        gold_path,
        pred_path,
        fmt,
        spans_key=spans_key,
        unit=unit,
        tag_column=tag_column,
        tag_mode=tag_mode,
        tag_scheme=tag_scheme,
    )
    results, errors = score_corpus(
        corpus,
        scheme_list,
        labels=label_list,
        iou_threshold=iou_threshold,
        overlap_threshold=overlap_threshold,
        min_overlap=min_overlap,
        keep_errors=bool(errors_path or html_path),
    )
    data = scores_data(results, corpus)
    print_scores(msg, results, corpus)
    if infer_format(gold_path, fmt) == "kaggle" and "overlap" in results:
        gold_classes = sorted({s.label for p in corpus.pairs for s in p.gold})
        per_type = results["overlap"].per_type
        f1s = [per_type[c].f1 for c in gold_classes if c in per_type]
        official = sum(f1s) / len(f1s) if f1s else 0.0
        data["official_score"] = official
        msg.text(f"Feedback Prize score (overlap scheme, mean F1 of the {len(f1s)} gold classes): {official:.4f}")
    write_outputs(
        data, corpus, errors,
        output_path=output_path, errors_path=errors_path, html_path=html_path, msg=msg,
    )
    return data


# --------------------------------------------------------------------------
# prf
# --------------------------------------------------------------------------


def prf_from_text(text: str, source: str = "stdin") -> Tuple[float, float, float]:
    """Exact-match precision, recall and F1 of the plain format: P, then P
    spans `start end type`, then G, then G spans; ends inclusive; any
    whitespace between items (one line or many).

    RETURNS (Tuple[float, float, float]): P, R, F1, each rounded to 4
        decimals; 0.0 where a denominator is zero. Identical spans count once.
    """
    from .evaluate import evaluate_spans

    items = [(lineno, tok) for lineno, line in enumerate(text.split("\n"), 1) for tok in line.split()]
    if not items:
        raise InputError(
            "no input: expected P, then P lines 'start end type', then G, then G lines", source
        )
    pos = 0

    def take(what: str) -> Tuple[int, str]:
        nonlocal pos
        if pos >= len(items):
            last = items[-1][0]
            raise InputError(f"input ends where {what} was expected", source, last)
        item = items[pos]
        pos += 1
        return item

    def take_int(what: str) -> Tuple[int, int]:
        lineno, tok = take(what)
        try:
            value = int(tok)
        except ValueError:
            raise InputError(f"{what} must be an integer, got {tok!r}", source, lineno) from None
        if value < 0:
            raise InputError(f"{what} must not be negative, got {value}", source, lineno)
        return lineno, value

    def take_spans(side: str) -> List[Span]:
        _, count = take_int(f"the number of {side} spans")
        spans = []
        for i in range(count):
            where = f"{side} span {i + 1} of {count}"
            lineno, start = take_int(f"the start of {where}")
            _, end = take_int(f"the end of {where}")
            _, label = take(f"the type of {where}")
            if end < start:
                raise InputError(f"{where} ends ({end}) before it starts ({start})", source, lineno)
            spans.append(Span(start, end + 1, label))
        return spans

    pred = take_spans("predicted")
    gold = take_spans("gold")
    if pos < len(items):
        lineno, tok = items[pos]
        raise InputError(f"unexpected input {tok!r} after the last gold span", source, lineno)
    result = evaluate_spans([gold], [pred], schemes=["strict"])["strict"]
    return round(result.precision, 4), round(result.recall, 4), round(result.f1, 4)


def prf_from_stdin() -> Tuple[float, float, float]:
    """`prf_from_text` of standard input (UTF-8)."""
    data = sys.stdin.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {data[err.start]:#04x})", "stdin") from None
    return prf_from_text(text)


# --------------------------------------------------------------------------
# Commands
# --------------------------------------------------------------------------


def _fail(message: str, exits: int = 1) -> None:
    """Print one line on stderr and exit."""
    line = " ".join(str(message).split())
    text = f"✘ {line}"
    if sys.stderr.isatty():
        text = color(text, fg="red")
    print(text, file=sys.stderr)
    raise typer.Exit(exits)


def _run(ctx: typer.Context, func: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Run a plain function; bad input -> one line on stderr, status 1; bad
    options -> a usage error, status 2."""
    try:
        return func(*args, **kwargs)
    except UsageError as err:
        if err.param:
            raise typer.BadParameter(err.message, ctx=ctx, param_hint=f"'{err.param}'") from None
        ctx.fail(err.message)
    except InputError as err:
        _fail(str(err), 1)


@app.command("evaluate")
def evaluate_cli(
    # fmt: off
    ctx: typer.Context,
    model: str = Arg(..., metavar="MODEL", help="Pipeline to run: an installed package name or a path"),
    data_path: Path = Arg(..., metavar="DATA", help="Reference documents: a .spacy DocBin", show_default=False),
    schemes: Optional[str] = Opt(None, "--schemes", "-s", help=SCHEMES_HELP, show_default=False),
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
        evaluate_model,
        model,
        data_path,
        schemes=schemes,
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
    )


@app.command("compare")
def compare_cli(
    # fmt: off
    ctx: typer.Context,
    gold_path: Path = Arg(..., metavar="GOLD", help="Gold file", show_default=False),
    pred_path: Path = Arg(..., metavar="PRED", help="Predicted file of the same documents, in the same format", show_default=False),
    schemes: Optional[str] = Opt(None, "--schemes", "-s", help=SCHEMES_HELP, show_default=False),
    fmt: Optional[str] = Opt(None, "--format", "-f", help=f"Input format: {', '.join(FORMATS)}; default: from the extension (.spacy; .jsonl; .conll, .iob, .bio, .txt; .csv)", show_default=False),
    spans_key: Optional[str] = Opt(None, "--spans-key", "-k", help="spacy: score Doc.spans[KEY] instead of Doc.ents"),
    unit: Optional[str] = Opt(None, "--unit", "-u", help='spacy: token (default) or char; jsonl: char (default) or token (then "start"/"end" are offsets into each record\'s "tokens"); conll, kaggle: token', show_default=False),
    labels: Optional[str] = Opt(None, "--labels", "-l", help=LABELS_HELP),
    tag_column: Optional[int] = Opt(None, "--tag-column", help="conll: 0-based column of the tags, negative from the end [default: -1, the last]", show_default=False),
    tag_mode: Optional[str] = Opt(None, "--tag-mode", help=f"conll: how tags become spans, as seqeval: {', '.join(TAG_MODES)} [default: conll]", show_default=False),
    tag_scheme: Optional[str] = Opt(None, "--tag-scheme", help=f"conll, with --tag-mode strict: {', '.join(TAG_SCHEMES)}", show_default=False),
    iou_threshold: float = Opt(0.5, "--iou-threshold", help="Combined IoU a gold span needs under iou, in (0, 1]"),
    overlap_threshold: float = Opt(0.5, "--overlap-threshold", help="Coverage both ways under overlap, in (0, 1]"),
    min_overlap: Optional[float] = Opt(None, "--min-overlap", help="Share of a gold span a prediction must cover to overlap it (strict/exact/partial/type), in (0, 1]; default: any overlap"),
    output_path: Optional[Path] = Opt(None, "--output", "-o", help="Write every figure as JSON", dir_okay=False),
    errors_path: Optional[Path] = Opt(None, "--errors", help=ERRORS_HELP, dir_okay=False),
    html_path: Optional[Path] = Opt(None, "--html", help=HTML_HELP, dir_okay=False),
    silent: bool = Opt(False, "--silent", help="Print nothing but errors"),
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
        compare_files,
        gold_path,
        pred_path,
        schemes=schemes,
        fmt=fmt,
        spans_key=spans_key,
        unit=unit,
        labels=labels,
        tag_column=tag_column,
        tag_mode=tag_mode,
        tag_scheme=tag_scheme,
        iou_threshold=iou_threshold,
        overlap_threshold=overlap_threshold,
        min_overlap=min_overlap,
        output_path=output_path,
        errors_path=errors_path,
        html_path=html_path,
        silent=silent,
    )


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
