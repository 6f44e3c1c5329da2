"""`prf_from_text`: the `prf` calculator, exact-match P, R and F1 of spans
typed in as plain text."""

from typing import List, Tuple

from ..engine.scorer import evaluate_spans
from ..exceptions import InputError
from ..spans import Span

__all__ = ["prf_from_stdin", "prf_from_text"]


def prf_from_text(text: str, source: str = "stdin") -> Tuple[float, float, float]:
    """Exact-match precision, recall and F1 of the plain format: P, then P
    spans `start end type`, then G, then G spans; ends inclusive; any
    whitespace between items (one line or many).

    RETURNS (Tuple[float, float, float]): P, R, F1, each rounded to 4
        decimals; 0.0 where a denominator is zero. Identical spans count once.
    """
    items = [(lineno, tok) for lineno, line in enumerate(text.split("\n"), 1) for tok in line.split()]
    if not items:
        raise InputError("no input: expected P, then P lines 'start end type', then G, then G lines", source)
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
    import sys

    data = sys.stdin.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {data[err.start]:#04x})", "stdin") from None
    return prf_from_text(text)
