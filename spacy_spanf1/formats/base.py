"""What every reader shares: the two errors, file checks and lazy reading
of lines. `InputError` and `UsageError` live here and are imported from
`spacy_spanf1.formats` (and from `spacy_spanf1.app`).

Errors name settings (`format`, `unit`, `spans_key`, `tag_column`, ...),
never command-line flags: the command line maps settings to its flags.
"""
import contextlib
import gc
from pathlib import Path
from typing import Iterator, List, Optional, Tuple, Union

PathLike = Union[str, Path]


class InputError(ValueError):
    """Bad input data. str() gives one line: `path:line: problem`.

    setting (Optional[str]): The setting the problem is about, if any (e.g.
        "labels", "spans_key"); without a path, str() starts with it.
    """

    def __init__(
        self,
        message: str,
        path: Optional[PathLike] = None,
        line: Optional[int] = None,
        *,
        setting: Optional[str] = None,
    ):
        self.message = message
        self.path = None if path is None else str(path)
        self.line = line
        self.setting = setting
        super().__init__(str(self))

    def __str__(self) -> str:
        if self.path is None:
            return self.message if self.setting is None else f"'{self.setting}': {self.message}"
        if self.line is None:
            return f"{self.path}: {self.message}"
        return f"{self.path}:{self.line}: {self.message}"


class UsageError(ValueError):
    """A bad setting or argument (the command line exits with status 2).

    param (Optional[str]): The setting at fault, e.g. "format", "unit",
        "tag_scheme" (the command line shows its flag).
    """

    def __init__(self, message: str, param: Optional[str] = None):
        self.message = message
        self.param = param
        super().__init__(message if param is None else f"'{param}': {message}")


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
