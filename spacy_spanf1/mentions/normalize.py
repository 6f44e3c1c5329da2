"""Normalizing strings: the grounding normalization (`normalize`: NFKC,
case folding, runs of whitespace as one space) with the map back to the
original characters (`normalize_with_offsets`), and the SQuAD answer
normalization of the `strings_normalized` scheme (`squad_normalize`).
"""

import re
import string as string_module
import unicodedata
from typing import Any, List, Tuple

from ..exceptions import InputError
from .parse import short_repr


def check_mention_text(text: Any, where: str) -> str:
    """The text of a document, a string; InputError naming `where` (e.g.
    "texts[3]") otherwise."""
    if not isinstance(text, str):
        raise InputError(f"{where} is {short_repr(text)} ({type(text).__name__}); the text of a document is a string")
    return text


def normalize(text: str) -> str:
    """NFKC, case folding, runs of whitespace as one space, stripped."""
    try:
        if text.isascii():  # NFKC changes no ASCII character; folding is lower case
            return " ".join(text.lower().split())
        return " ".join(unicodedata.normalize("NFKC", text).casefold().split())
    except (AttributeError, TypeError):
        check_mention_text(text, "the text to normalize")
        raise


def normalize_with_offsets(text: str) -> Tuple[str, List[int], List[int]]:
    """text normalized as `normalize` does it (without the strip: leading
    and trailing whitespace become one space), with the original start and
    end of each normalized character. The characters that NFKC composes
    (a base and its combining marks, Hangul jamo) are normalized together
    and all map to the whole stretch."""
    if text.isascii():
        return _normalize_ascii(text)
    out: List[str] = []
    starts: List[int] = []
    ends: List[int] = []
    i, n = 0, len(text)
    while i < n:
        j = i + 1
        if text[i].isspace():
            while j < n and text[j].isspace():
                j += 1
            piece = " "
        else:
            j = _composed_end(text, i)
            piece = unicodedata.normalize("NFKC", text[i:j]).casefold()
            # NFKC can make whitespace (U+00B4 is " " + U+0301): a space,
            # as `normalize` splits on it
            piece = "".join(" " if c.isspace() else c for c in piece)
        for char in piece:
            if char == " " and out and out[-1] == " ":
                ends[-1] = j
                continue
            out.append(char)
            starts.append(i)
            ends.append(j)
        i = j
    return "".join(out), starts, ends


_WHITESPACE = re.compile(r"\s+")
#: The ASCII whitespace that normalizing changes: two spaces, and every
#: whitespace character but the space (what str.split splits on).
_OTHER_WHITESPACE = ("  ",) + tuple(chr(c) for c in range(128) if chr(c).isspace() and c != 32)


def _normalize_ascii(text: str) -> Tuple[str, List[int], List[int]]:
    """`normalize_with_offsets` of an ASCII text, where NFKC changes nothing
    and case folding is lower case: only runs of whitespace change length,
    so the offsets are made a stretch at a time."""
    lowered = text.lower()
    for other in _OTHER_WHITESPACE:  # `in` is many times faster than a regular expression here
        if other in text:
            break
    else:  # single spaces only: every offset stays
        return lowered, range(len(text)), range(1, len(text) + 1)  # type: ignore[return-value]
    pieces: List[str] = []
    starts: List[int] = []
    ends: List[int] = []
    pos = 0
    for run in _WHITESPACE.finditer(text):
        start, end = run.span()
        pieces.append(lowered[pos:start])
        starts.extend(range(pos, start))
        ends.extend(range(pos + 1, start + 1))
        pieces.append(" ")
        starts.append(start)
        ends.append(end)
        pos = end
    pieces.append(lowered[pos:])
    starts.extend(range(pos, len(text)))
    ends.extend(range(pos + 1, len(text) + 1))
    return "".join(pieces), starts, ends


def _composed_end(text: str, i: int) -> int:
    """The end of the stretch from text[i] that NFKC must see whole: the
    combining marks after it, and any further character that NFKC composes
    with what comes before (Hangul jamo, some vowel signs: their combining
    class is 0). Characters below U+0300 compose with nothing before them."""
    j, n = i + 1, len(text)
    while j < n and not text[j].isspace():
        if not unicodedata.combining(text[j]) and (
            ord(text[j]) < 0x300
            or unicodedata.normalize("NFKC", text[i : j + 1])
            == unicodedata.normalize("NFKC", text[i:j]) + unicodedata.normalize("NFKC", text[j])
        ):
            break
        j += 1
    return j


_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = frozenset(string_module.punctuation)


def squad_normalize(text: str) -> str:
    """The SQuAD answer normalization: lower case, punctuation removed,
    articles removed, whitespace collapsed (in that order, as its script)."""
    if not isinstance(text, str):
        check_mention_text(text, "the text to normalize")
    text = "".join(ch for ch in text.lower() if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


__all__ = ["check_mention_text", "normalize", "normalize_with_offsets", "squad_normalize"]
