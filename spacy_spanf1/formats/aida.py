"""`aida`: the AIDA CoNLL-YAGO TSV layout (AIDA-YAGO2-dataset.tsv), one
token a line, tab-separated: the token alone, or the token, `B` or `I`,
the whole mention, its YAGO2 entity or `--NME--` (no entity: NIL), and
for a linked mention its Wikipedia URL, Wikipedia page id and Freebase
mid. `-DOCSTART- (1 EU)` lines start documents (the id in parentheses is
the document's key), blank lines end sentences (a document's tokens run
on across them).

A mention is a B token and the I tokens after it; every token of it names
the same mention and the same entity (a broken run is an error naming its
line). Mentions carry no type: their label is `MENTION`. The kb id is the
YAGO2 entity (`kb_column="yago"`, the default) or the Wikipedia URL
(`kb_column="wikipedia"`); `--NME--` and a missing URL are NIL. Unit:
`token`.
"""

from typing import Any, Iterator, List, Optional, Tuple

from ..registry import formats
from ..settings import check_choice
from ..spans import Span
from .base import Document, Format, InputError, PathLike, read_lines

__all__ = ["KB_COLUMNS", "LABEL", "NME", "read_aida"]

#: The columns a kb id may come from, and their index.
KB_COLUMNS = {"yago": 3, "wikipedia": 4}
#: The label of every mention (the layout has no types).
LABEL = "MENTION"
#: The layout's "no entity".
NME = "--NME--"
_SHAPE = "TOKEN<TAB>B|I<TAB>MENTION<TAB>YAGO2 ENTITY or --NME--[<TAB>WIKIPEDIA URL<TAB>...]"


def read_aida(path: PathLike, kb_column: str = "yago") -> Iterator[Document]:
    """The documents of an AIDA CoNLL-YAGO TSV file, one at a time, each
    with its mentions as spans and their kb ids as `Document.links`."""
    check_choice("kb_column", kb_column, tuple(KB_COLUMNS))
    return _read(path, KB_COLUMNS[kb_column])


class _Doc:
    """A document being read."""

    def __init__(self, key: Optional[str], lineno: int) -> None:
        self.key, self.lineno = key, lineno
        self.tokens: List[str] = []
        self.links: List[Tuple[Span, str]] = []
        # the open mention: (start, mention, kb id, line of its B)
        self.open: Optional[Tuple[int, str, str, int]] = None

    def close(self) -> None:
        if self.open is not None:
            start, _, kb_id, _ = self.open
            self.links.append((Span(start, len(self.tokens), LABEL), kb_id))
            self.open = None

    def document(self, index: int, path: PathLike) -> Document:
        self.close()
        name = f"document {self.key!r}" if self.key is not None else f"document {index + 1}"
        spans = sorted({span for span, _ in self.links})
        return Document(
            name,
            spans,
            " ".join(self.tokens),
            self.tokens,
            line=self.lineno,
            key=self.key,
            source=str(path),
            links=sorted(self.links),
        )


def _read(path: PathLike, kb_at: int) -> Iterator[Document]:
    doc: Optional[_Doc] = None
    n = 0
    for lineno, line in read_lines(path):
        line = line.rstrip("\r\n")
        if line.startswith("-DOCSTART-"):
            if doc is not None and (doc.tokens or doc.key is not None):
                yield doc.document(n, path)
                n += 1
            rest = line[len("-DOCSTART-") :].strip()
            key = rest[1:-1].strip() if rest.startswith("(") and rest.endswith(")") else (rest or None)
            doc = _Doc(key, lineno)
            continue
        if doc is None:
            doc = _Doc(None, lineno)
        if not line.strip():
            doc.close()  # a mention ends with its sentence
            continue
        cols = line.split("\t")
        if len(cols) == 1:
            doc.close()
            doc.tokens.append(cols[0])
            continue
        _token(doc, cols, kb_at, path, lineno)
    if doc is not None and (doc.tokens or doc.key is not None):
        yield doc.document(n, path)


def _token(doc: _Doc, cols: List[str], kb_at: int, path: PathLike, lineno: int) -> None:
    """Read a token of a mention (its B or I line)."""
    token, tag = cols[0], cols[1]
    if tag not in ("B", "I") or len(cols) < 4:
        raise InputError(f"expected {_SHAPE} or a token alone, got {'<TAB>'.join(cols)[:80]!r}", path, lineno)
    mention = cols[2]
    kb_id = cols[kb_at] if len(cols) > kb_at and cols[3] != NME else ""
    if tag == "I":
        if doc.open is None:
            raise InputError(
                f"the token {token!r} is tagged I with no B before it in its sentence (a mention starts with B)",
                path,
                lineno,
            )
        _, opened, opened_kb, b_line = doc.open
        if mention != opened or kb_id != opened_kb:
            what, was, now = ("mention", opened, mention) if mention != opened else ("entity", opened_kb, kb_id)
            raise InputError(
                f"the {what} column changes inside a mention: {now!r} after {was!r} (its B on line {b_line})",
                path,
                lineno,
            )
    else:
        doc.close()
        doc.open = (len(doc.tokens), mention, kb_id, lineno)
    doc.tokens.append(token)


class AidaFormat(Format):
    """AIDA CoNLL-YAGO TSV (unit token): mentions with YAGO2 entities or
    Wikipedia URLs, keyed by their `-DOCSTART-` ids."""

    name = "aida"
    units = ("token",)
    extensions = ()
    options = ("kb_column",)
    keyed = True
    key_name = '"-DOCSTART-" id'
    unique_keys = True

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        return read_aida(path, kb_column=options.get("kb_column") or "yago")


AIDA = AidaFormat()
formats.register("aida", func=AIDA)
