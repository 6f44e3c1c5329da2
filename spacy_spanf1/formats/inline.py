"""`inline`: the text-inline format of the discontinuous-NER experiments on
CADEC and ShARe (Dai et al., ACL 2020, and the work that follows them).

Per sentence three lines: the sentence, its tokens separated by spaces; its
mentions, `0,1,4,5 ADR|7,7 ADR` (each mention its fragments as inclusive
token index pairs, a space, its label; mentions separated by "|"; an empty
line for none); a blank line. Each sentence is a document (unit token).
A mention's fragments are sorted and those that touch are joined (as the
experiments' own reader does); fragments that share a token are an error,
and so is an index past the sentence's last token.
"""

from typing import Any, Iterator, List, Optional, Tuple

from ..exceptions import InputError
from ..registry import formats
from ..spans import FragmentedSpan, Span, normal_fragments, split_fragments
from .base import Document, Format, PathLike, read_lines

_SHAPE = "a mention is 'START,END[,START,END...] LABEL' (inclusive token indices), mentions separated by '|'"


def read_inline(path: PathLike) -> Iterator[Document]:
    """The sentences of an inline file, one document each, one at a time."""
    lines = read_lines(path)
    n = 0
    for lineno, sentence in lines:
        if not sentence.strip():
            raise InputError(
                "expected a sentence line; the format is a sentence line, a mention line and a blank line",
                path,
                lineno,
            )
        mention_line = next(lines, None)
        if mention_line is None:
            raise InputError("the sentence has no mention line (an empty line for no mention)", path, lineno)
        blank = next(lines, None)
        if blank is not None and blank[1].strip():
            raise InputError(f"expected a blank line after the mention line, found {blank[1][:60]!r}", path, blank[0])
        tokens = sentence.strip().split(" ")
        spans = _mentions(mention_line[1].strip(), len(tokens), path, mention_line[0])
        ordered, fragments = split_fragments(spans)
        n += 1
        yield Document(
            f"sentence {n}", ordered, " ".join(tokens), tokens, line=lineno, source=str(path), fragments=fragments
        )


def _mentions(line: str, n_tokens: int, path: PathLike, lineno: int) -> List[Any]:
    spans: List[Any] = []
    if not line:
        return spans
    for k, mention in enumerate(line.split("|"), 1):
        parts = mention.split()
        if len(parts) != 2:
            raise InputError(f"mention {k} is {mention!r}; {_SHAPE}", path, lineno)
        indices, label = parts
        try:
            points = [int(i) for i in indices.split(",")]
        except ValueError:
            raise InputError(f"mention {k} has the indices {indices!r}; {_SHAPE}", path, lineno) from None
        if len(points) % 2:
            raise InputError(f"mention {k} has an odd number of indices ({indices}); {_SHAPE}", path, lineno)
        pieces = [(points[i], points[i + 1] + 1) for i in range(0, len(points), 2)]
        joined = _joined(pieces, f"{k} ({mention})", n_tokens, path, lineno)
        if len(joined) == 1:
            spans.append(Span(joined[0][0], joined[0][1], label))
        else:
            spans.append(FragmentedSpan(joined[0][0], joined[-1][1], label, joined))
    return spans


def _joined(
    pieces: List[Tuple[int, int]], where: str, n_tokens: int, path: PathLike, lineno: int
) -> Tuple[Tuple[int, int], ...]:
    """Fragments (exclusive ends) sorted, checked and joined where they touch."""
    for start, end in pieces:
        if start >= end:
            raise InputError(
                f"mention {where} has the fragment {start},{end - 1}, which ends before it starts; "
                "fragments are inclusive START,END pairs with START <= END",
                path,
                lineno,
            )
    try:
        return normal_fragments(pieces, where, overlapping=False, limit=n_tokens)
    except ValueError as err:
        message: Optional[str] = str(err)
        raise InputError(
            f"{message} (tokens, exclusive ends; the sentence has {n_tokens} tokens)", path, lineno
        ) from None


class InlineFormat(Format):
    """The inline format of the CADEC / ShARe discontinuous-NER experiments
    (unit token): a sentence line, a mention line, a blank line."""

    name = "inline"
    units = ("token",)
    extensions = ()
    options = ()
    counted_as = "sentences"
    mixes_as = "tokens"

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        return read_inline(path)


INLINE = InlineFormat()
formats.register("inline", func=INLINE)
