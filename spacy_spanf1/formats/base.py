"""What every reader shares: the reader protocol (`Format`, its
capabilities declared with their defaults), the one check of a reader's
settings (`check_options`), file checks and lazy reading of lines. The
documents readers yield are `model.Document`s (also importable from here).

Errors (`spacy_spanf1.exceptions`) name settings (`format`, `unit`,
`spans_key`, `tag_column`, ...), never command-line flags.
"""

import contextlib
import gc
from pathlib import Path
from typing import Any, Dict, Iterator, List, Mapping, Optional, Tuple

from ..exceptions import InputError, PathLike, SettingError
from ..model import EMPTY, Document, Marks, nonzero  # noqa: F401 (readers import them from here)
from ..registry import formats as _registry
from ..settings import UNITS
from ..spans import Span

SettingError = SettingError

#: The sides a reader reads.
SIDES: Tuple[str, ...] = ("gold", "pred")

#: (gold spans, predicted spans) of a pair, as `Format.align` gives them.
Aligned = Tuple[Optional[List[Span]], Optional[List[Span]]]
#: (gold spans, predicted spans, unplaced mentions, notes) of a pair, as
#: `Format.place_on_gold` gives them.
Placed = Tuple[Optional[List[Span]], List[Span], Optional[Dict[int, Tuple[str, str]]], Mapping[str, Any]]


class Format:
    """An input format: how to read one path (a file, or a directory for
    brat) into Documents, and what pairing and agreement may ask of it.
    Registered in `registry.formats` by its name. Every capability has a
    default here; a format declares what it does differently.

    name (str): What the `format` setting calls it.
    units (Tuple[str, ...]): The units it can be read in; the first is the
        default.
    extensions (Tuple[str, ...]): File extensions that imply it ("" for a
        directory).
    options (Tuple[str, ...]): The reader settings it takes besides unit
        and side, e.g. ("tag_column", "tag_mode", "tag_scheme"); checked by
        `check_options`, once, before anything is read.
    both_sides (bool): One file holds gold and predictions (a Label
        Studio export): the predicted path may be left out.
    keyed (bool): Its documents carry keys (file names, ids): a predicted
        file without any document still pairs by key (every gold document
        then has no prediction, see the pairing setting `missing_pred`).
    key_name (str): How messages name its keys ('"id"'; "key" by default).
    key_field (Optional[str]): What its keys are ("id", "_input_hash",
        "file name"): two formats mixed pair by key only when they key by
        the same field. None: it has no keys another format shares.
    unique_keys (bool): A key twice on the gold side is an error too (JSONL
        ids), not several answers to one input (Prodigy).
    pairs_by_key (bool): Documents with keys on both sides pair by key
        (False: in order, their keys naming different things).
    counted_as (str): What its documents are called when the two sides
        have unequal numbers of them ("sentences").
    mixes_as (Optional[str]): The kind of its documents, for mixing with
        another format (`formats.mixed`): "text" (a text and character
        offsets), "doc" (spaCy Docs), "tokens" (tokens only); None: it mixes
        with no other format.
    predictions_only (bool): It holds predictions only (mentions): the gold
        is read from a file of its own format, and `place_on_gold` puts the
        predictions on it.
    aligns (bool): Pairs are checked on their text only, and `align` gives
        their spans (spaCy DocBins: the tokenizations may differ).
    aligns_tokens (bool): Documents with character offsets on both sides
        are checked on their text, their tokens may differ (a mix).
    places_on_gold (bool): `place_on_gold` gives the spans of each pair,
        and `place_scores` the scores of its predicted spans.
    names_annotators (bool): One file can name several annotators:
        `read_annotators` reads it as each annotator's documents.
    annotator_field (str): How messages name the field that names a
        document's annotator.
    """

    name: str = ""
    units: Tuple[str, ...] = ("char",)
    extensions: Tuple[str, ...] = ()
    options: Tuple[str, ...] = ()
    both_sides: bool = False
    keyed: bool = False
    key_name: str = "key"
    key_field: Optional[str] = None
    unique_keys: bool = False
    pairs_by_key: bool = True
    counted_as: str = "documents"
    mixes_as: Optional[str] = None
    predictions_only: bool = False
    aligns: bool = False
    aligns_tokens: bool = False
    places_on_gold: bool = False
    names_annotators: bool = False
    annotator_field: str = '"annotator"'

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        """Yield the documents of path one at a time.

        side (str): "gold" or "pred" (a file holding both sides, such as a
            Label Studio export, yields the side asked for).
        unit (str): One of self.units.
        Raises InputError (file, line or document, problem, what is valid).
        """
        raise NotImplementedError

    def check_sides(self, gold: Dict[str, Any], pred: Dict[str, Any], one_file: bool) -> None:
        """Check the reader settings of the two sides before reading (Label
        Studio: one export read as both sides needs two annotators); gold,
        pred: each side's options; one_file: both sides read from one file.
        Raises SettingError; by default every pair of settings is fine."""

    def align(self, gold: Document, pred: Document, *, unit: str, **options: Any) -> Aligned:
        """The (gold spans, predicted spans) of a pair whose documents may be
        tokenized differently, in the unit; only asked
        of a format that `aligns`."""
        raise NotImplementedError(f"{self.name} input does not align documents")

    def place_on_gold(self, gold: Document, pred: Optional[Document], *, unit: str, **options: Any) -> Placed:
        """(gold spans, predicted spans, unplaced mentions or None, notes) of
        a pair (pred None: no predicted document), the predictions placed
        on the gold document; only asked of a format that `places_on_gold`."""
        raise NotImplementedError(f"{self.name} input does not place predictions on the gold")

    def place_scores(
        self, gold: Document, pred: Document, scores: List[Tuple[Span, Any]], *, unit: str, **options: Any
    ) -> List[Tuple[Span, Any]]:
        """The (span, score) pairs of a prediction on the spans
        `place_on_gold` gives; by default as the reader listed them."""
        return scores

    def read_annotators(
        self, path: PathLike, *, unit: str, **options: Any
    ) -> Tuple[Dict[str, List[Document]], Dict[str, int]]:
        """One file read as each annotator's documents, for a format that
        `names_annotators`: (annotator -> their documents in file order,
        what was read and belongs to no annotator, e.g. cancelled
        annotations). By default the gold side read once, each document's
        annotator given by `annotator_of`; a document without one is an
        InputError."""
        found: Dict[str, List[Document]] = {}
        for doc in self.read(path, side="gold", unit=unit, **options):
            who = self.annotator_of(doc)
            if who is None:
                raise InputError(f"{doc.name} has no {self.annotator_field}: every record names its annotator", path)
            found.setdefault(who, []).append(doc)
        return found, {}

    def annotator_of(self, doc: Document) -> Optional[str]:
        """Who annotated a document (`Document.annotator`), or None."""
        return doc.annotator

    def keeps_gold_labels(self, match: Any) -> bool:
        """Whether `official_score` needs the gold labels (`CorpusScores.gold_labels`)."""
        return False

    def official_score(self, scores: Any, match: Any) -> Optional[float]:
        """The format's own score of a whole corpus (a CorpusScores scored
        with `match`); None: it has none."""
        return None


def formats_taking(option: str) -> List[str]:
    """The registered formats that take a reader setting."""
    return [name for name, reader in _registry.get_all().items() if option in reader.options]


def option_error(name: str, where: str, valid: Optional[Tuple[str, ...]] = None) -> SettingError:
    """The error of a reader setting that the format(s) read do not take
    (`where`: "jsonl", "spacy gold or jsonl predictions"), naming the
    formats it applies to, and `valid`, the options they take."""
    message = f"'{name}' applies to {', '.join(formats_taking(name)) or 'no'} input, not {where}"
    if valid is not None:
        message += f": {where} input takes no option {name!r}. Its options: {', '.join(valid) or 'none'}"
    return SettingError(message, name)


def check_options(
    format: Format,
    unit: Optional[str],
    options: Dict[str, Any],
    *,
    side: Optional[str] = None,
    also: Tuple[str, ...] = (),
) -> Tuple[str, Dict[str, Any]]:
    """The one check of what a format is read with: the side (when given),
    the unit and the options. RETURNS the unit to read in (the format's
    first when None) and the options that are set (a value of None means
    the option's default, and is dropped). also: the settings taken
    besides the format's own (pairing's). Raises SettingError naming the
    setting."""
    if side is not None and side not in SIDES:
        raise SettingError(f"Unknown side {side!r}. Valid sides: {', '.join(SIDES)}", "side")
    units = tuple(format.units)
    if unit is not None and unit not in UNITS:
        raise SettingError(
            f"Unknown unit {unit!r}. Valid units: {', '.join(UNITS)} ({format.name} input is scored in "
            f"{' or '.join(units)} unit)",
            "unit",
        )
    if unit is not None and unit not in units:
        raise SettingError(
            f"{format.name} input is scored in {' or '.join(units)} unit; 'unit' {unit} does not apply", "unit"
        )
    taken = tuple(format.options) + tuple(also)
    for name, value in options.items():
        if value is not None and name not in taken:
            raise option_error(name, format.name, tuple(format.options))
    return unit or units[0], {name: value for name, value in options.items() if value is not None}


def check_file(path: PathLike) -> Path:
    """The path, if it names an existing file."""
    path = Path(path)
    if not path.exists():
        raise InputError("file not found", path)
    if not path.is_file():
        raise InputError("not a file (a directory?)", path)
    return path


def decode_utf8(data: bytes, path: PathLike, lineno: int) -> str:
    """data as UTF-8 text; InputError naming the line (counted from lineno)
    of the first byte that is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = lineno + data.count(b"\n", 0, err.start)
        raise InputError(
            f"not UTF-8 text (byte {data[err.start]:#04x}); is this the right file and format?",
            path,
            line,
        ) from None


#: Bytes read at a time: a block of lines (at least one whole line).
CHUNK_BYTES = 1 << 20


def read_line_blocks(path: PathLike, chunk_bytes: int = CHUNK_BYTES) -> Iterator[List[Tuple[int, str]]]:
    """Lists of (line number, line) of a UTF-8 text file, about chunk_bytes
    of it at a time: memory holds one block, and the lines of a block are
    decoded and split at once. Lines end at "\n" only (JSON strings may
    hold U+2028 and friends); a trailing "\r" and a leading byte-order mark
    are dropped."""
    path = check_file(path)
    try:
        f = path.open("rb")
    except OSError as err:
        raise InputError(f"can't read the file: {err.strerror or err}", path) from None
    lineno = 0
    pending: List[bytes] = []  # the start of a line not ended yet (joined once: a long line stays linear)
    with f:
        while True:
            chunk = f.read(chunk_bytes)
            if not chunk:
                break
            cut = chunk.rfind(b"\n") + 1
            if not cut:
                pending.append(chunk)
                continue
            data = b"".join([*pending, chunk[:cut]]) if pending else chunk[:cut]
            pending = [chunk[cut:]] if cut < len(chunk) else []
            lines = decode_utf8(data, path, lineno + 1).split("\n")
            lines.pop()  # after the last "\n"
            yield _numbered(lines, lineno)
            lineno += len(lines)
        if pending:
            yield _numbered([decode_utf8(b"".join(pending), path, lineno + 1)], lineno)


def _numbered(lines: List[str], lineno: int) -> List[Tuple[int, str]]:
    if lineno == 0 and lines[0].startswith("\ufeff"):
        lines[0] = lines[0][1:]
    if any(line.endswith("\r") for line in lines):
        lines = [line[:-1] if line.endswith("\r") else line for line in lines]
    return list(zip(range(lineno + 1, lineno + 1 + len(lines)), lines))


def read_lines(path: PathLike) -> Iterator[Tuple[int, str]]:
    """(line number, line) of a UTF-8 text file, read lazily a block at a
    time (`read_line_blocks`, which says how lines are split)."""
    for block in read_line_blocks(path):
        yield from block


def read_text(path: PathLike) -> str:
    """A whole UTF-8 text file (a leading byte-order mark is dropped), for
    formats whose documents are not in file order (Feedback Prize CSV)."""
    path = check_file(path)
    try:
        data = path.read_bytes()
    except OSError as err:
        raise InputError(f"can't read the file: {err.strerror or err}", path) from None
    text = decode_utf8(data, path, 1)
    return text[1:] if text.startswith("\ufeff") else text


@contextlib.contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector (for work that makes many objects
    and no reference cycles: parsed records, documents in flight), and
    restore its state after, also on errors; a caller that disabled it
    keeps it disabled. Objects made meanwhile are collected later on, as
    usual or by the caller's own `gc.collect`."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()
