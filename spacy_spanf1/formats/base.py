"""What every reader shares: the records readers yield (`Document`), the
reader protocol (`Format`), file checks and lazy reading of lines.

Errors (`spacy_spanf1.exceptions`) name settings (`format`, `unit`,
`spans_key`, `tag_column`, ...), never command-line flags.
"""
import contextlib
import gc
from pathlib import Path
from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ..exceptions import InputError, PathLike

from ..spans import Span

#: A Document's `meta[NOTES_KEY]` holds its reader's notes (`notes.Notes`):
#: what the reader met and handled (span texts that disagree with their
#: offsets, offsets it converted). Pairing sums them by side.
NOTES_KEY = "_notes"
#: A predicted Document's `meta[STRINGS_KEY]`: its (string, label) pairs as
#: listed, when they are not the texts of its spans (mentions without
#: offsets, whose strings need not be in the text); for the string schemes.
STRINGS_KEY = "_strings"
#: A predicted Document's `meta[UNPLACED_KEY]`: the mentions without a place
#: in the text (not found, or duplicates), scored as spans past its end:
#: the start of each such span -> (string, status).
UNPLACED_KEY = "_unplaced"

#: A predicted Document's `meta[SCORES_KEY]`, only when its spans carry
#: scores: (span, score) pairs as listed (scores unchecked; a span listed
#: without one has None), for sweeps over thresholds.
SCORES_KEY = "_scores"


@dataclass
class Document:
    """One document of one side, as a reader yields it.

    name (str): How messages name it, e.g. "line 3", "sentence 2", "id 'A1'",
        "file 'x.ann'".
    spans (Optional[List[Span]]): Sorted, identical spans once, in the unit
        the reader was asked for; None when the document has no annotation
        (a gold document without annotation is skipped and counted).
    text (str): Its text (made from its tokens when the format has none).
    tokens (Optional[List[str]]): Its tokens, in token unit.
    offsets (Optional[List[Tuple[int, int]]]): Each token's characters in text.
    meta (Dict[str, Any]): Metadata passed through (genre, source, ...).
    line (Optional[int]): The line of its file where it starts.
    key (Optional[str]): What pairs it with the other side's document
        (a file name, an id, `_input_hash`); None: paired by position.
    source (str): The file it came from, for messages.
    """

    name: str
    spans: Optional[List[Span]]
    text: str = ""
    tokens: Optional[List[str]] = None
    offsets: Optional[List[Tuple[int, int]]] = None
    meta: Dict[str, Any] = field(default_factory=dict)
    line: Optional[int] = None
    key: Optional[str] = None
    source: str = ""


class Format:
    """An input format: how to read one path (a file, or a directory for
    brat) into Documents. Registered in `registry.formats` by its name.

    name (str): What `--format` calls it.
    units (Tuple[str, ...]): The units it can be read in; the first is the
        default.
    extensions (Tuple[str, ...]): File extensions that imply it ("" for a
        directory).
    options (Tuple[str, ...]): The reader settings it takes besides unit
        and side, e.g. ("tag_column", "tag_mode", "tag_scheme").
    both_sides (bool): One file holds gold and predictions (a Label
        Studio export): the predicted path may be left out.
    keyed (bool): Its documents carry keys (file names, ids): a predicted
        file without any document still pairs by key (every gold document
        then has no prediction, see the pairing setting `missing_pred`).

    A format may check the settings of its two sides before reading,
    `check_sides(gold_options, pred_options, one_file)` (Label Studio: one
    export read as both sides needs two annotators).

    A format may add a score of its own once the corpus is scored (the
    Feedback Prize's official score): `keeps_gold_labels` asks the scorer
    to collect the gold labels, `official_score` computes it.
    """

    name: str = ""
    units: Tuple[str, ...] = ("char",)
    extensions: Tuple[str, ...] = ()
    options: Tuple[str, ...] = ()
    both_sides: bool = False
    keyed: bool = False

    def keeps_gold_labels(self, match: Any) -> bool:
        """Whether `official_score` needs the gold labels (`CorpusScores.gold_labels`)."""
        return False

    def official_score(self, scores: Any, match: Any) -> Optional[float]:
        """The format's own score of a whole corpus (a CorpusScores scored
        with `match`); None: it has none."""
        return None

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        """Yield the documents of path one at a time.

        side (str): "gold" or "pred" (a file holding both sides, such as a
            Label Studio export, yields the side asked for).
        unit (str): One of self.units.
        Raises InputError (file, line or document, problem, what is valid).
        """
        raise NotImplementedError



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
