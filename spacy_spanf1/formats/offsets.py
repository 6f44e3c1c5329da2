"""Offsets that disagree with the text a file quotes for them.

brat, Label Studio and Prodigy files give each span its offsets and the
text it covers. The offsets are authoritative, as in brat and BratEval:
the quoted text is a convenience, and tools get it wrong (BratEval's own
ChEMU data quotes 43 of a span's 79 characters). `place_spans` applies one
policy for every reader (`text_mismatch`):

- "warn" (default): a span whose quoted text is not the text at its
  offsets is scored at its offsets, and counted with the first few
  examples (`Document.notes`, shown in the summary and the JSON);
- "error": such a span is an InputError naming the file, document and span;
- "ignore": the quoted texts are not compared.

Before a document's mismatches are counted, two common causes are tried:
offsets counted in UTF-16 code units (browser front ends counted them so
for years: an emoji is two units, so every later offset is one too far)
and offsets that count a "\\r\\n" line break as one character (a browser
normalizes line breaks). When one of them (or both together) explains every
quoted text of the document, its offsets are converted to the characters
of the text, and the document is counted under "utf16_offsets" or
"newline_offsets" instead: converted, and said so. A document whose spans
quote no text (doccano) is converted only when its offsets run past the
text and a browser's reading (UTF-16 code units, with CRLF as one when the
text has it) places every one of them.
"""

import json
from dataclasses import dataclass
from typing import Dict, Iterator, List, Optional, Sequence, Tuple

from ..exceptions import InputError, PathLike
from ..settings import NOTE_EXAMPLES, TEXT_MISMATCH, check_choice
from ..notes import Notes, note

#: Fragments of a span: (start, end) pairs, end exclusive.
Fragments = List[Tuple[int, int]]
#: The note kinds `place_spans` gives: documents whose offsets it
#: converted, by the cause, and spans whose quoted text disagrees.
CONVERSIONS: Tuple[str, ...] = ("utf16_offsets", "newline_offsets", "utf16_newline_offsets")
MISMATCH = "text_mismatch"


@dataclass
class QuotedSpan:
    """A span as a file writes it, before its offsets are trusted.

    fragments (Fragments): Its offsets as written (one pair for a
        continuous span).
    label (str): Its label.
    quoted (Optional[str]): The text the file gives for it (fragments
        joined by a space, as brat writes them); None: none given.
    where (str): How messages name it ("entity T13", "span 2").
    line (Optional[int]): The line of its file, when it has its own.
    """

    fragments: Fragments
    label: str
    quoted: Optional[str]
    where: str
    line: Optional[int] = None


def check_text_mismatch(value: Optional[str]) -> str:
    """The policy named (default "warn"); SettingError naming
    'text_mismatch' for another value."""
    policy = TEXT_MISMATCH[0] if value is None else value
    check_choice("text_mismatch", policy, TEXT_MISMATCH)
    return policy


def place_spans(
    spans: Sequence[QuotedSpan],
    text: str,
    *,
    policy: str,
    document: str,
    path: PathLike,
    line: Optional[int] = None,
    hint: str = "",
    guess: bool = False,
) -> Tuple[List[Fragments], Notes]:
    """The fragments of each span in characters of text, and the notes of
    the document (a conversion, or the mismatches counted).

    policy (str): One of TEXT_MISMATCH.
    document (str): How messages name the document ("file 'a.ann'").
    hint (str): Added to the error of a mismatch or of offsets outside the
        text (a reader's advice).
    guess (bool): Spans that quote no text and run past the end of the text
        are read as a browser's offsets when that places them all (doccano,
        whose browser front end counted UTF-16 code units).
    Raises InputError for offsets outside the text (whatever the policy),
    and for a mismatch under "error".
    """
    as_written = [span.fragments for span in spans]
    if policy == "ignore" or all(span.quoted is None for span in spans):
        if guess and policy != "ignore" and not all(_agrees(span.fragments, None, text) for span in spans):
            # No quoted text to compare, but offsets past the text: a browser's
            # offsets (UTF-16 code units, and CRLF as one when the text has it)?
            for kind, positions in reversed(list(_readings(text))):
                converted = _convert_all(spans, positions)
                if converted is not None:
                    return converted, {kind: note(1, [document])}
        _check_bounds(spans, text, path, line, hint)
        return as_written, {}
    bad = [span for span in spans if not _agrees(span.fragments, span.quoted, text)]
    if not bad:
        return as_written, {}
    for kind, positions in _readings(text):
        crlf = kind != CONVERSIONS[0]
        converted = _convert_all(spans, positions)
        if converted is not None and all(_agrees(c, span.quoted, text, crlf) for c, span in zip(converted, spans)):
            return converted, {kind: note(1, [document])}
    _check_bounds(spans, text, path, line, hint)
    if policy == "error":
        first = bad[0]
        raise InputError(
            f"{_describe(first, text, document)}; offsets and quoted texts must agree "
            f"(or pass text_mismatch=warn to score the offsets){hint}",
            path,
            line if first.line is None else first.line,
        )
    examples = [_describe(span, text, document) for span in bad[:NOTE_EXAMPLES]]
    if hint:
        examples[0] += hint
    return as_written, {MISMATCH: note(len(bad), examples)}


def _agrees(fragments: Fragments, quoted: Optional[str], text: str, crlf: bool = False) -> bool:
    """Whether the fragments are in the text and give the quoted text (with
    crlf, line breaks compared as "\\n": a tool that counts "\\r\\n" as one
    character quotes it as one)."""
    if not all(0 <= s < e <= len(text) for s, e in fragments):
        return False
    if quoted is None:
        return True
    found = (
        text[fragments[0][0] : fragments[0][1]] if len(fragments) == 1 else " ".join(text[s:e] for s, e in fragments)
    )
    if crlf:
        return found.replace("\r\n", "\n") == quoted.replace("\r\n", "\n")
    return found == quoted


def _check_bounds(spans: Sequence[QuotedSpan], text: str, path: PathLike, line: Optional[int], hint: str = "") -> None:
    for span in spans:
        for start, end in span.fragments:
            if not 0 <= start < end <= len(text):
                raise InputError(
                    f"{span.where} ({span.label}) has the offsets {start}-{end}; offsets need "
                    f"0 <= start < end <= {len(text)} (the length of the text){hint}",
                    path,
                    line if span.line is None else span.line,
                )


def _readings(text: str) -> Iterator[Tuple[str, Dict[int, int]]]:
    """Other ways a tool may have counted offsets into text, each as a map
    from such an offset to the character it means; only the ways that
    differ from counting characters."""
    astral = any(ord(c) > 0xFFFF for c in text)
    crlf = "\r\n" in text
    if astral:
        yield CONVERSIONS[0], _positions(text, utf16=True, crlf=False)
    if crlf:
        yield CONVERSIONS[1], _positions(text, utf16=False, crlf=True)
    if astral and crlf:
        yield CONVERSIONS[2], _positions(text, utf16=True, crlf=True)


def _positions(text: str, *, utf16: bool, crlf: bool) -> Dict[int, int]:
    """offset -> character, for offsets counting UTF-16 code units (utf16)
    and "\\r\\n" as one character (crlf)."""
    positions: Dict[int, int] = {}
    unit = 0
    previous = ""
    for i, char in enumerate(text):
        if crlf and char == "\n" and previous == "\r":
            previous = char
            continue
        positions[unit] = i
        unit += 2 if utf16 and ord(char) > 0xFFFF else 1
        previous = char
    positions[unit] = len(text)
    return positions


def _convert_all(spans: Sequence[QuotedSpan], positions: Dict[int, int]) -> Optional[List[Fragments]]:
    """Every span's fragments read through positions; None when one of them
    does not fall on a character (inside a surrogate pair, past the text)."""
    converted = [_convert(span.fragments, positions) for span in spans]
    return None if any(c is None for c in converted) else converted  # type: ignore[return-value]


def _convert(fragments: Fragments, positions: Dict[int, int]) -> Optional[Fragments]:
    converted = []
    for start, end in fragments:
        if start not in positions or end not in positions:
            return None
        converted.append((positions[start], positions[end]))
    return converted


def _describe(span: QuotedSpan, text: str, document: str) -> str:
    where = ";".join(f"{s}-{e}" for s, e in span.fragments)
    found = " ".join(text[s:e] for s, e in span.fragments)
    name = span.where if span.where.startswith(document) else f"{document}, {span.where}"
    return f"{name} ({span.label} {where}) quotes {_cut(span.quoted)} but the text at its offsets is {_cut(found)}"


def _cut(value: Optional[str], n: int = 50) -> str:
    """Data in a message, in double quotes (settings are named in single
    quotes, which the command line turns into flags), cut to n characters."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= n else text[: n - 2] + "…" + text[-1]
