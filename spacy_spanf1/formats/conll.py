"""`conll`: CoNLL/BIO columns, one token a line (token column, tag
column), a blank line between sentences, `-DOCSTART-` lines skipped. Each
sentence is a document; tags are decoded by `tags.spans_from_tags` (mode
and scheme as for `evaluate_tags`). Unit: `token`. Columns are 0-based, a
negative one counts from the end (-1: the last column); one file may hold
the gold and the predicted tags in two columns (read it twice, with
tag_column set to each).
"""

import re
from typing import Any, Iterator, List, Optional

from ..exceptions import InputError, SettingError
from ..registry import formats
from ..spans import Span
from ..tags import TAG_MODES, check_tag_options, spans_from_tags
from .base import Document, Format, PathLike, read_lines


def check_tag_settings(mode: str, scheme: Optional[str]) -> None:
    """The readers' settings tag_mode and tag_scheme: raises SettingError
    (naming the one at fault) unless they suit `spans_from_tags` (whose
    check, `tags.check_tag_options`, raises ValueError)."""
    try:
        check_tag_options(mode, scheme, names=("tag_mode", "tag_scheme"))
    except ValueError as err:
        raise SettingError(str(err), "tag_mode" if mode not in TAG_MODES else "tag_scheme") from None


def read_conll(
    path: PathLike,
    *,
    token_column: int = 0,
    tag_column: int = -1,
    tag_mode: str = "conll",
    tag_scheme: Optional[str] = None,
) -> Iterator[Document]:
    """Sentences of a CoNLL/BIO file, one document each, one at a time.

    token_column, tag_column (int): 0-based column indices; a negative one
        counts from the end (-1: the last column). Columns are separated by
        whitespace (tabs or spaces).
    tag_mode, tag_scheme: as for `tags.spans_from_tags`.
    """
    check_tag_settings(tag_mode, tag_scheme)
    return _read(path, token_column, tag_column, tag_mode, tag_scheme)


#: What an IOB-like tag looks like: O, or a prefix letter before (B-PER) or
#: after (PER-B) the label, or alone (seqeval's "B").
TAG_LIKE = re.compile(r"O|[BIESLU](?:[-_].*)?|.*[-_][BIESLU]")


def _read(path, token_column, tag_column, tag_mode, tag_scheme) -> Iterator[Document]:
    words: List[str] = []
    tags: List[str] = []
    lines: List[int] = []
    n = 0
    found_tag = False  # some tag looks like one (else: not a CoNLL file, or the wrong column)
    first_tags: List[str] = []
    for lineno, line in read_lines(path):
        cols = line.split()
        if not cols or cols[0] == "-DOCSTART-":
            if words:
                yield _conll_doc(n, words, tags, lines, path, tag_mode, tag_scheme)
                n += 1
                words, tags, lines = [], [], []
            continue
        if len(cols) < 2:
            raise InputError(f"expected a token and a tag column, found one column {line.strip()!r}", path, lineno)
        try:
            tag = cols[tag_column]
            word = cols[token_column]
        except IndexError:
            raise InputError(
                f"the line has {len(cols)} columns; there is no tag column {tag_column} "
                f"or token column {token_column} (0-based, negative from the end)",
                path,
                lineno,
            ) from None
        if not found_tag:
            found_tag = TAG_LIKE.fullmatch(tag) is not None
            if len(first_tags) < 3:
                first_tags.append(tag)
        words.append(word)
        tags.append(tag)
        lines.append(lineno)
    if words:
        yield _conll_doc(n, words, tags, lines, path, tag_mode, tag_scheme)
    if first_tags and not found_tag:
        raise InputError(
            f"no tag of column {tag_column} looks like an IOB tag (O, B-PER, I-PER, ...): it holds "
            f"{', '.join(map(repr, first_tags))}, ...; is this a CoNLL file, and the right 'tag_column'?",
            path,
        )


def _conll_doc(index, words, tags, lines, path, mode, scheme) -> Document:
    try:
        found = spans_from_tags(tags, mode=mode, scheme=scheme)
    except ValueError:
        # Find the tag at fault, to name its line.
        for tag, lineno in zip(tags, lines):
            try:
                spans_from_tags([tag], mode=mode, scheme=scheme)
            except ValueError as err:
                problem = str(err).replace(" at tags[0]", "")
                raise InputError(problem, path, lineno) from None
        raise
    spans = sorted({Span(start, end, label) for start, end, label in found})
    return Document(f"sentence {index + 1}", spans, " ".join(words), words, line=lines[0], source=str(path))


class ConllFormat(Format):
    """CoNLL/BIO token and tag columns (unit token), a blank line between
    sentences, -DOCSTART- lines skipped, one document per sentence."""

    name = "conll"
    units = ("token",)
    extensions = (".conll", ".iob", ".bio", ".txt")
    options = ("tag_column", "tag_mode", "tag_scheme")
    counted_as = "sentences"
    mixes_as = "tokens"

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        return read_conll(
            path,
            tag_column=options.get("tag_column", -1),
            tag_mode=options.get("tag_mode") or "conll",
            tag_scheme=options.get("tag_scheme"),
        )


CONLL = ConllFormat()
formats.register("conll", func=CONLL)
