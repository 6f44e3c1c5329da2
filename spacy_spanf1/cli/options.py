"""Every argument and option of the command line, declared once.

An `Option` names the setting it sets (as the library names it:
`iou_threshold`), its flags (`--iou-threshold`), its help and its type;
its default is the settings class's own (`MatchSettings.iou_threshold`),
never written again here. A command lists the names of the options it
takes (`command`), and an error about a setting is shown with the flag of
that same declaration (`flag`, `flags_of`).
"""

import inspect
import re
import textwrap
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, cast

import typer
from typer.core import TyperCommand
from typer.exceptions import TyperException

from ..formats import extension_map, format_names, get_format
from ..label_map import MAP_UNLISTED
from ..settings import (
    GROUNDINGS,
    HTML_DOCS,
    MISSING_PRED,
    SCHEMES,
    RELATION_SCHEMES,
    STRING_SCHEMES,
    LINK_SCHEMES,
    TEXT_MISMATCH,
    TEST_RESAMPLES,
    AgreementSettings,
    AnalysisSettings,
    MatchSettings,
    RunSettings,
    default_of,
)
from ..sweeps.settings import PIPE, SweepSettings
from ..tags import TAG_MODES, TAG_SCHEMES


@dataclass(frozen=True)
class Option:
    """One option (or argument) of the command line.

    setting (str): The setting (and the command function's parameter) it sets.
    flags (Tuple[str, ...]): Its flags, the long one first; an argument
        has its metavar here instead.
    type (Any): Its Python type (typer reads it).
    help (str): What it does.
    of (Optional[type]): The settings class whose default it shows.
    argument (bool): A positional argument, not an option.
    required (bool): It must be given.
    own_default (Any): The default of an option that sets no setting of a
        settings class (a switch, the size of a page).
    extra (Mapping[str, Any]): Further typer settings (min, dir_okay, ...).
    stands_for (Tuple[str, ...]): The library settings it is in its command
        (a sweep's TARGET is the `pred_path` of a sweep of files), so that
        their messages name it there.
    """

    setting: str
    flags: Tuple[str, ...]
    type: Any
    help: str
    of: Optional[type] = None
    argument: bool = False
    required: bool = False
    own_default: Any = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    stands_for: Tuple[str, ...] = ()

    @property
    def flag(self) -> str:
        """How messages name it: its long flag, or its argument's metavar
        ("[PRED]" and "DATA..." are named PRED and DATA)."""
        return self.flags[0].strip("[]").rstrip(".") if self.argument else self.flags[0]

    @property
    def default(self) -> Any:
        if self.required:
            return ...
        return self.own_default if self.of is None else default_of(self.of, self.setting)

    def parameter(self) -> inspect.Parameter:
        """The typer parameter of a command function."""
        extra = dict(self.extra)
        if self.argument:
            info = typer.Argument(self.default, metavar=self.flags[0], help=self.help, **extra)
        else:
            extra.setdefault("show_default", self.default is not None and self.default is not False)
            info = typer.Option(self.default, *self.flags, help=self.help, **extra)
        return inspect.Parameter(self.setting, inspect.Parameter.KEYWORD_ONLY, default=info, annotation=self.type)


def _format_help() -> str:
    by_format: Dict[str, List[str]] = {}
    for ext, name in extension_map().items():
        by_format.setdefault(name, []).append(ext or "a directory")
    default = "; ".join(", ".join(exts) for exts in by_format.values())
    return f"Input format: {', '.join(format_names())}; default: from the extension ({default})"


def formats_help(width: int = 76) -> str:
    """Every registered format, one a line, with the first paragraph of its
    class's docstring, wrapped to width under a hanging indent (a block of a
    command's help that click prints as written)."""
    names = format_names()
    indent = max(len(name) for name in names) + 4
    lines = []
    for name in names:
        doc = type(get_format(name)).__dict__.get("__doc__") or ""
        summary = " ".join(doc.strip().split("\n\n")[0].split())
        lines.append(
            textwrap.fill(
                summary or "-",
                width,
                initial_indent=f"  {name:<{indent - 2}}",
                subsequent_indent=" " * indent,
                break_on_hyphens=False,
            )
        )
    return "\n".join(lines)


_OPTIONAL_PATH = Optional[Path]
_OPTIONAL_STR = Optional[str]
_OPTIONAL_INT = Optional[int]

# One option a line: the table reads as a table.
# fmt: off
DECLARED: Tuple[Option, ...] = (
    # arguments
    Option("model", ("MODEL",), str, "Pipeline to run: an installed package name or a path", argument=True, required=True),
    Option("data_path", ("DATA...",), List[Path], "Reference documents: .spacy DocBins, directories of them or globs; each file is a shard", argument=True, required=True, extra={"show_default": False}),
    Option("gold_path", ("GOLD",), Path, "Gold file (a brat directory), or a directory of gold shards paired by file name with PRED's", argument=True, required=True, extra={"show_default": False}),
    Option("pred_path", ("[PRED]",), _OPTIONAL_PATH, "Predicted file (or directory of shards) of the same documents, in the same format or another (--pred-format); left out for one file holding both sides (CoNLL with --gold-column and --pred-column, a Label Studio export)", argument=True, extra={"show_default": False}),
    Option("input_paths", ("INPUT...",), List[Path], "The annotators' files (or brat directories), one per annotator in one format; or one export naming its annotators (Label Studio completed_by, Prodigy _annotator_id/_session_id, JSONL \"annotator\")", argument=True, required=True, extra={"show_default": False}),
    Option("sweep_source", ("SOURCE",), str, "sweep: a pipeline (an installed package name, or a directory with config.cfg), or a gold file", argument=True, required=True, stands_for=("gold_path",)),
    Option("sweep_target", ("[TARGET]",), _OPTIONAL_PATH, "sweep: the .spacy corpus the pipeline runs over, or the file of scored predictions of the gold file's documents (left out for one file holding both sides)", argument=True, extra={"show_default": False}, stands_for=("pred_path", "corpus_path")),
    # what shapes the numbers
    Option("schemes", ("--schemes", "-s"), Optional[List[str]], f"Comma-separated schemes, the first is primary (required; give the option once): {','.join(SCHEMES)}; and, after a span scheme, the string schemes {','.join(STRING_SCHEMES)} (compare (string, label) pairs: unitxt's NER, UniversalNER's rule), the link schemes {','.join(LINK_SCHEMES)} (compare knowledge-base ids: neleval's measures, GERBIL's weak match, spaCy's score_links) and the relation schemes {','.join(RELATION_SCHEMES)} (relations between spans, of files that hold them)", extra={"show_default": False}),
    Option("spans_key", ("--spans-key", "-k"), _OPTIONAL_STR, "Score Doc.spans[KEY] instead of Doc.ents (spaCy documents); agree: write a .spacy consensus into Doc.spans[KEY]", of=MatchSettings),
    Option("unit", ("--unit", "-u"), _OPTIONAL_STR, 'Offsets the scores count: token or char. Default: token for a pipeline and spacy files (predictions aligned to the reference tokens as spaCy does), char for jsonl (--unit token reads "start"/"end" as offsets into each record\'s "tokens"), token for conll and kaggle', of=MatchSettings),
    Option("labels", ("--labels", "-l"), _OPTIONAL_STR, "Comma-separated labels to score (default: all); each must occur in gold or prediction", of=MatchSettings),
    Option("iou_threshold", ("--iou-threshold",), float, "Combined IoU a gold span needs under iou, in (0, 1]", of=MatchSettings),
    Option("overlap_threshold", ("--overlap-threshold",), float, "Coverage both ways under overlap, in (0, 1]", of=MatchSettings),
    Option("min_overlap", ("--min-overlap",), Optional[float], "Share of a gold span a prediction must cover to overlap it (strict/exact/partial/type), in (0, 1]; default: any overlap", of=MatchSettings),
    Option("label_map", ("--label-map",), _OPTIONAL_PATH, 'A JSON file of labels renamed, merged or dropped before matching: {"PERSON": "PER", "NORP": null} on both sides, or {"gold": {...}, "pred": {...}}; labels it does not name are scored as they are and listed', of=MatchSettings, extra={"show_default": False}),
    Option("map_unlisted", ("--map-unlisted",), str, f"With --label-map, labels the map does not name: {', '.join(MAP_UNLISTED)} (error: refuse them)", of=MatchSettings),
    Option("symmetric", ("--symmetric",), _OPTIONAL_STR, "With a relation scheme: comma-separated relation labels whose (head, tail) and (tail, head) are one relation, on both sides", extra={"show_default": False}),
    Option("relation_labels", ("--relation-labels",), _OPTIONAL_STR, "With a relation scheme: comma-separated relation labels to score and macro-average (one without support counts F 0) [default: the labels of both sides]", extra={"show_default": False}),
    Option("view", ("--view",), str, "Which mentions count, for discontinuous spans: all, disc_docs (the documents with a discontinuous gold span), disc_mentions (discontinuous spans only); several, comma-separated, are reported side by side", of=MatchSettings),
    # what shapes reading
    Option("format", ("--format", "-f"), _OPTIONAL_STR, _format_help(), extra={"show_default": False}),
    Option("gold_format", ("--gold-format",), _OPTIONAL_STR, f"compare: the format of GOLD alone ({', '.join(format_names())}), over --format (e.g. --gold-format spacy --pred-format jsonl); default: --format, else from GOLD's extension", extra={"show_default": False}),
    Option("pred_format", ("--pred-format",), _OPTIONAL_STR, f"compare: the format of PRED alone ({', '.join(format_names())}), over --format (gold and predictions in two formats that describe the same documents: docs/formats.md); default: --format, else from PRED's extension", extra={"show_default": False}),
    Option("tag_column", ("--tag-column",), _OPTIONAL_INT, "conll: 0-based column of the tags, negative from the end [default: -1, the last]", extra={"show_default": False}),
    Option("gold_column", ("--gold-column",), _OPTIONAL_INT, "conll, one file holding both sides (token gold pred, as conlleval): the gold tag column, 0-based, negative from the end (with --pred-column; PRED left out)", extra={"show_default": False}),
    Option("pred_column", ("--pred-column",), _OPTIONAL_INT, "conll, one file holding both sides: the predicted tag column, 0-based, negative from the end (e.g. --gold-column 1 --pred-column 2, or -2 and -1)", extra={"show_default": False}),
    Option("tag_mode", ("--tag-mode",), _OPTIONAL_STR, f"conll: how tags become spans, as seqeval: {', '.join(TAG_MODES)} [default: conll]", extra={"show_default": False}),
    Option("tag_scheme", ("--tag-scheme",), _OPTIONAL_STR, f"conll, with --tag-mode strict: {', '.join(TAG_SCHEMES)}", extra={"show_default": False}),
    Option("fragments", ("--fragments",), _OPTIONAL_STR, "brat: discontinuous entities: error (default), keep (one span of several fragments), merge (one span) or split (one span per fragment); fragments split only by whitespace are always merged", extra={"show_default": False}),
    Option("fragment_relation", ("--fragment-relation",), _OPTIONAL_STR, "labelstudio, doccano: the relation label that joins the pieces of one discontinuous entity: regions of one label linked by relations of this label (directly or in a chain) are one span of several fragments, and those relations are not scored as relations [default: none joins]", extra={"show_default": False}),
    Option("kb_column", ("--kb-column",), _OPTIONAL_STR, "aida: the column of the kb ids: yago (default: the YAGO2 entity) or wikipedia (the Wikipedia URL); --NME-- is NIL", extra={"show_default": False}),
    Option("newlines", ("--newlines",), _OPTIONAL_STR, "brat: brat (default: offsets count \\r\\n as one character, as brat reads the .txt) or keep", extra={"show_default": False}),
    Option("text_mismatch", ("--text-mismatch",), _OPTIONAL_STR, f"brat, jsonl, labelstudio, prodigy: a span whose quoted text is not the text at its offsets: {', '.join(TEXT_MISMATCH)} (default {TEXT_MISMATCH[0]}: scored at its offsets, counted and shown; offsets explained by UTF-16 code units or CRLF line breaks are converted and counted)", extra={"show_default": False}),
    Option("missing_pred", ("--missing-pred",), _OPTIONAL_STR, f"A gold document without a prediction (a brat file pair or an id missing, a record without its span field, a Label Studio task without predictions): {', '.join(MISSING_PRED)} (default {MISSING_PRED[0]}: scored as predicting nothing, counted and shown)", extra={"show_default": False}),
    Option("ground", ("--ground",), _OPTIONAL_STR, f"mentions: how mentions take occurrences of their strings: {', '.join(GROUNDINGS)} (default {GROUNDINGS[0]}: the k-th listing of a string its k-th occurrence)", extra={"show_default": False}),
    Option("fuzzy", ("--fuzzy",), Optional[float], "mentions: ground mentions no exact or normalized search finds by fuzzy alignment with at least this similarity, in (0, 1] (needs rapidfuzz: the [llm] extra) [default: off]", extra={"show_default": False}),
    Option("annotator", ("--annotator",), _OPTIONAL_STR, "labelstudio: the annotation to read, by completed_by id or e-mail [default: the first not cancelled]", extra={"show_default": False}),
    Option("pred_annotator", ("--pred-annotator",), _OPTIONAL_STR, "labelstudio, with --pred-from annotations: the annotator whose annotation is the prediction (completed_by id or e-mail) [default: --annotator's]; needed when one export holds both sides", extra={"show_default": False}),
    Option("model_version", ("--model-version",), _OPTIONAL_STR, "labelstudio: the prediction to read, by model_version [default: the first]", extra={"show_default": False}),
    Option("pred_from", ("--pred-from",), _OPTIONAL_STR, "labelstudio: predictions (default) or annotations (a second export's annotations)", extra={"show_default": False}),
    Option("kb_from", ("--kb-from",), _OPTIONAL_STR, "labelstudio: the per-region control (its name) whose TextArea/Choices/Taxonomy results hold each region's kb id", extra={"show_default": False}),
    Option("text_field", ("--text-field",), _OPTIONAL_STR, "labelstudio: the data field of the text [default: text]", extra={"show_default": False}),
    Option("tag_field", ("--tag-field",), _OPTIONAL_STR, "tags: the field of the tags [default: ner_tags]", extra={"show_default": False}),
    Option("token_field", ("--token-field",), _OPTIONAL_STR, "tags: the field of the tokens [default: tokens]", extra={"show_default": False}),
    Option("label_names", ("--label-names",), _OPTIONAL_STR, "tags: comma-separated names of integer tag ids [default: from dataset_info.json beside the file]", extra={"show_default": False}),
    # running a pipeline
    Option("n_process", ("--n-process", "-n"), int, "Processes for nlp.pipe", of=RunSettings, extra={"min": 1}),
    Option("batch_size", ("--batch-size", "-b"), int, "Batch size for nlp.pipe", of=RunSettings, extra={"min": 1}),
    Option("shard_docs", ("--shard-docs",), _OPTIONAL_INT, "Split the files into shards of N documents", of=RunSettings, extra={"min": 1, "show_default": False}),
    Option("code", ("--code", "-c"), _OPTIONAL_PATH, "Python file with registered functions (custom components) to import first, also on every worker", extra={"dir_okay": False, "show_default": False}),
    # analysis
    Option("bootstrap", ("--bootstrap",), _OPTIONAL_INT, "Bootstrap intervals of every scheme's P, R and F from N resamples of the documents (or of --resample-by groups); prints F [low, high]", of=AnalysisSettings, extra={"show_default": False}),
    Option("confidence", ("--confidence",), float, "Confidence level of the intervals, in (0, 1)", of=AnalysisSettings),
    Option("method", ("--method",), str, "Interval method: percentile, or BCa (bias-corrected and accelerated; needs scipy: pip install 'spacy-spanf1[stats]')", of=AnalysisSettings),
    Option("seed", ("--seed",), int, "Seed of the resampling (intervals and tests)", of=AnalysisSettings),
    Option("resample_by", ("--resample-by",), _OPTIONAL_STR, "Metadata field (JSONL record field, DocBin user_data key): documents with the same value are resampled and swapped together (e.g. the sentences of one source document)", of=AnalysisSettings, extra={"show_default": False}),
    Option("baseline", ("--baseline",), _OPTIONAL_STR, "The baseline system: a second pipeline run over the same DocBin (evaluate), or a second predicted file of the same documents (compare); a paired test against it, per scheme", extra={"metavar": "BASELINE", "show_default": False}),
    Option("test", ("--test",), str, f"Paired test against --baseline: randomization (approximate randomization, {TEST_RESAMPLES['randomization']} rounds) or bootstrap (paired bootstrap, {TEST_RESAMPLES['bootstrap']} resamples)", of=AnalysisSettings),
    Option("alpha", ("--alpha",), float, "Significance level of the paired test, in (0, 1); the interval of the difference is at 1 - alpha", of=AnalysisSettings),
    Option("by", ("--by",), _OPTIONAL_STR, "Comma-separated breakdowns: span_length, label, doc_length, density, or a metadata field (e.g. genre); one table per attribute for the primary scheme, every scheme in the JSON", extra={"show_default": False}),
    Option("buckets", ("--buckets",), int, "How many intervals a numeric breakdown attribute is cut into (at most)", of=AnalysisSettings),
    # agreement
    Option("names", ("--names",), _OPTIONAL_STR, "agree: comma-separated annotator names, in the order of the files (or of their first appearance in one export) [default: the file names, or the export's names]", extra={"show_default": False}),
    Option("o_tokens", ("--o-tokens",), str, "agree: token figures (kappas, alpha) include the positions every annotator left O, or exclude them (the common convention for NER)", of=AgreementSettings),
    Option("min_votes", ("--min-votes",), _OPTIONAL_INT, "agree, with --consensus: a span is kept when at least N of the annotators who did its document have it (same start, end, label) [default: a strict majority of them]", extra={"show_default": False}),
    Option("consensus_path", ("--consensus",), _OPTIONAL_PATH, "agree: write the consensus spans as a gold file, and score each annotator against it: JSONL in the unit read (text, spans; in token unit tokens too, spans as token offsets), or a spaCy DocBin when FILE ends in .spacy (spans in Doc.ents when none overlap, else in Doc.spans[--spans-key or sc])", extra={"dir_okay": False, "show_default": False}),
    Option("disagreements_path", ("--disagreements",), _OPTIONAL_PATH, "agree: write one JSON line per span not shared by all who did its document: who has it, and what the others have there instead", extra={"dir_okay": False, "show_default": False}),
    # sweeps
    Option("n_thresholds", ("--n-thresholds",), _OPTIONAL_INT, "sweep: report N evenly spaced thresholds in [0, 1] (numpy.linspace(0, 1, N)) [default: every distinct score]", of=SweepSettings, extra={"min": 2, "show_default": False}),
    Option("grid", ("--grid",), _OPTIONAL_STR, "sweep: spacy: the thresholds spacy find-threshold tries (numpy.linspace(0, 1, --n-trials)), ties to the lowest as it breaks them", of=SweepSettings, extra={"show_default": False}),
    Option("n_trials", ("--n-trials",), int, "sweep: the number of thresholds of --grid spacy", of=SweepSettings, extra={"min": 2}),
    Option("pipe", ("--pipe",), str, "sweep: the pipeline's span categorizer (its cfg threshold is swept)", own_default=PIPE),
    Option("config_path", ("--write-config",), _OPTIONAL_PATH, "sweep: write the pipeline's config with the primary scheme's best threshold set on --pipe", extra={"dir_okay": False, "show_default": False}),
    # outputs
    Option("output_path", ("--output", "-o"), _OPTIONAL_PATH, "Write every figure as JSON, with the signature of the run", extra={"dir_okay": False}),
    Option("errors_path", ("--errors",), _OPTIONAL_PATH, "Write one JSON line per error of the primary (first) scheme: doc, name, scheme, kind (missed, spurious, wrong_type, wrong_boundaries, low_overlap), count (inc, par, mis, spu; fp, fn), gold and predicted spans with their text, IoU and coverage both ways", extra={"dir_okay": False}),
    Option("html_path", ("--html",), _OPTIONAL_PATH, "Write a self-contained HTML page: scores, per-label chart, and each document with errors, gold and predicted spans side by side; agree: the pairwise F heat map, kappas and alpha, and each document the annotators disagree on, every annotator's spans one above the other; sweep: the precision-recall, F-by-threshold and reliability charts with the best thresholds", extra={"dir_okay": False}),
    Option("html_docs", ("--html-docs",), int, "Show at most N documents with errors (agree: with disagreements) in the --html page, the most first", own_default=HTML_DOCS, extra={"min": 0}),
    Option("silent", ("--silent",), bool, "Print nothing but errors", own_default=False),
    Option("confusion", ("--confusion",), bool, "Print a confusion matrix per scheme: rows gold labels, columns predicted labels, O for no span (the matrices are in the --output JSON either way)", own_default=False),
    # clusters
    Option("cluster", ("--cluster",), _OPTIONAL_STR, "Run on a local Dask cluster of N worker processes (local:N), started and closed by the command; needs the [dask] extra", extra={"show_default": False}),
    Option("scheduler", ("--scheduler",), _OPTIONAL_STR, "Run on a running Dask cluster: the scheduler's address (tcp://HOST:8786)", extra={"show_default": False}),
    Option("scheduler_file", ("--scheduler-file",), _OPTIONAL_PATH, "Run on a running Dask cluster: its scheduler file (dask scheduler --scheduler-file)", extra={"dir_okay": False, "show_default": False}),
)
# fmt: on

#: setting -> its Option.
OPTIONS: Dict[str, Option] = {option.setting: option for option in DECLARED}
#: The settings named in messages, longest first (so that 'by' is not
#: found inside 'resample_by').
_NAMES = sorted(OPTIONS, key=len, reverse=True)
_SETTING = re.compile(r"'({0})'|\b({0})=".format("|".join(_NAMES)))


def flag(setting: Optional[str], command: Sequence[str] = ()) -> Optional[str]:
    """The flag (or argument) of a setting; the setting itself when the
    command line has none. command: the settings of the command's own
    options, one of which may stand for it (`Option.stands_for`)."""
    if setting is None:
        return None
    if setting not in command:
        for name in command:
            if name in OPTIONS and setting in OPTIONS[name].stands_for:
                return OPTIONS[name].flag
    return OPTIONS[setting].flag if setting in OPTIONS else setting


def flags_of(message: str, command: Sequence[str] = ()) -> str:
    """A library message with its setting names ('spans_key', tag_mode=)
    written as this command line's flags ('--spans-key', --tag-mode=);
    command as `flag` takes it."""

    def repl(match: "re.Match[str]") -> str:
        if match.group(1):
            if _UNKNOWN.search(message, max(0, match.start() - 40), match.start()):
                return match.group(0)  # the value a user gave ("Unknown scheme 'fuzzy'"), not a setting
            return f"'{flag(match.group(1), command)}'"
        return f"{flag(match.group(2), command)}="

    return _SETTING.sub(repl, message)


#: What comes before a value in a message ("Unknown scheme 'fuzzy'").
_UNKNOWN = re.compile(r"\bUnknown(?: [\w-]+){1,3} $")


def parameters(names: Sequence[str]) -> List[inspect.Parameter]:
    """The typer parameters of the arguments and options named."""
    return [OPTIONS[name].parameter() for name in names]


#: Runs of options that several commands list in the same order (their
#: `--help` order): the match settings after the labels, the outputs of a
#: score, the intervals, the comparison with a baseline and the breakdowns.
MATCH_THRESHOLDS = ("iou_threshold", "overlap_threshold", "min_overlap", "label_map", "map_unlisted")
RELATION_OPTIONS = ("symmetric", "relation_labels")
SCORE_OUTPUTS = ("output_path", "errors_path", "html_path")
INTERVALS = ("bootstrap", "confidence", "method", "seed", "resample_by")
COMPARISON = ("baseline", "test", "alpha", "by", "buckets")


def command(
    app: typer.Typer, name: str, names: Sequence[str], help_text: Optional[str] = None
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register func(ctx, **values) as the command `name`, taking the
    arguments and options named (each as declared in DECLARED); its help is
    help_text, else func's docstring."""

    def register(func: Callable[..., Any]) -> Callable[..., Any]:
        params = [inspect.Parameter("ctx", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=typer.Context)]
        params += parameters(names)

        def run(ctx: typer.Context, **values: Any) -> Any:
            return func(ctx, **values)

        run.__name__ = func.__name__
        run.__doc__ = func.__doc__ if help_text is None else help_text
        run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
        run.__annotations__ = {param.name: param.annotation for param in params}
        app.command(name, cls=OnceCommand)(run)
        return func

    return register


class OnceCommand(TyperCommand):
    """A command whose options that take one value are given at most once:
    click keeps the last of a repeated option (`--by label --by genre` would
    break down by genre alone), so a repeat is a usage error instead, as a
    repeated --schemes is."""

    def parse_args(self, ctx: typer.Context, args: List[str]) -> List[str]:  # type: ignore[override]  # typer gives its Context
        found = repeated_option(self, ctx, args)
        if found is not None:
            option, values = found
            raise typer.BadParameter(repeated_message(option, values), ctx=ctx, param_hint=f"'{flag(option.name)}'")
        return super().parse_args(ctx, args)


def _is_option(param: Any) -> bool:
    """A click option (not an argument); typer's click is its own copy, so
    click's classes are not checked against."""
    return getattr(param, "param_type_name", None) == "option"


def repeated_option(command: TyperCommand, ctx: typer.Context, args: Sequence[str]) -> Optional[Tuple[Any, List[str]]]:
    """The first option taking one value that `args` give more than once,
    and the values given (as written; empty when they cannot be told
    apart); None when there is none, when --help is asked for, or when the
    arguments do not parse (click then says why)."""
    try:
        _, _, order = command.make_parser(ctx).parse_args(args=list(args))
    except TyperException:  # a usage error (an unknown option, a missing value): the real parse reports it
        return None
    if any(_is_option(param) and param.is_eager for param in order):
        return None
    counts: Dict[Any, int] = {}
    for param in cast(List[Any], order):  # options (typer's click copy) among click's parameters
        if _is_option(param) and not (param.multiple or param.is_flag or param.count):
            counts[param] = counts.get(param, 0) + 1
    option = next((param for param, n in counts.items() if n > 1), None)
    if option is None:
        return None
    values = _values_of(option, args)
    return option, values if len(values) == counts[option] else []


def _values_of(option: Any, args: Sequence[str]) -> List[str]:
    """The values `args` give an option (`--by x`, `--by=x`, `-ux`)."""
    values = []
    args = list(args)
    for i, arg in enumerate(args):
        if arg == "--":
            break
        for opt in option.opts + option.secondary_opts:
            if arg == opt and i + 1 < len(args):
                values.append(args[i + 1])
            elif opt.startswith("--") and arg.startswith(opt + "="):
                values.append(arg[len(opt) + 1 :])
            elif not opt.startswith("--") and arg.startswith(opt) and len(arg) > len(opt):
                values.append(arg[len(opt) :])
    return values


def repeated_message(option: Any, values: Sequence[str]) -> str:
    """ "'--by' is given 2 times (--by label --by genre); give it once,
    comma-separated: --by label,genre"."""
    long_flag = flag(option.name)
    given = f" ({' '.join(f'{long_flag} {value}' for value in values)})" if values else ""
    times = f"{len(values)} times" if values else "more than once"
    message = f"'{long_flag}' is given {times}{given}; give it once"
    if values and option.name in OPTIONS and "comma-separated" in OPTIONS[option.name].help.lower():
        message += f", comma-separated: {long_flag} {','.join(values)}"
    return message
