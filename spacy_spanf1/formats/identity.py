"""Whether a gold and a predicted document are the same document: the
identity error pairing raises, naming the first differing character or
token, and where it is in both files."""

from typing import Any, List, Optional, Sequence, Tuple, cast

from ..exceptions import InputError
from .base import Document


def _first_difference(a: Sequence[Any], b: Sequence[Any]) -> int:
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b))


def _excerpt(text: str, i: int, width: int = 24) -> str:
    start = max(0, i - width // 2)
    piece = text[start : start + width]
    return ("…" if start > 0 else "") + piece + ("…" if start + width < len(text) else "")


def token_offsets(tokens: Sequence[str]) -> List[Tuple[int, int]]:
    """Character offsets of tokens joined by single spaces."""
    offsets = []
    pos = 0
    for token in tokens:
        offsets.append((pos, pos + len(token)))
        pos += len(token) + 1
    return offsets


def _token_at(doc: Document, j: int) -> str:
    """Token j of a document that has tokens and offsets."""
    offsets, tokens = cast(List[Tuple[int, int]], doc.offsets), cast(List[str], doc.tokens)
    if j >= len(offsets):
        return "the end of the tokens"
    start, end = offsets[j]
    return f"{tokens[j]!r} at characters {start}-{end}"


def identity_error(
    i: int, gold: Document, pred: Document, gold_source: str, pred_source: str, aligned: bool, keyed: bool = False
) -> Optional[InputError]:
    """The identity error of the i-th pair, or None (documents paired by
    key are named by their own names, not their place)."""
    if (
        not aligned
        and gold.tokens is not None
        and pred.tokens is not None
        and (gold.offsets is None or pred.offsets is None)
    ):
        # Tokens are all there is (the text is made from them): name the token.
        if gold.tokens != pred.tokens:
            j = _first_difference(gold.tokens, pred.tokens)
            end = f"the end of the {gold.name.rsplit(' ', 1)[0]}"
            g = repr(gold.tokens[j]) if j < len(gold.tokens) else end
            p = repr(pred.tokens[j]) if j < len(pred.tokens) else end
            # a CoNLL sentence has a token a line; a record has its tokens on its line
            per_line = pred.name.startswith("sentence ")
            line = None if pred.line is None else (pred.line + j if per_line and j < len(pred.tokens) else pred.line)
            gold_where = (
                gold.name
                if gold.line is None or gold.name.startswith("line ")
                else f"{gold.name.rsplit(' ', 1)[0]} starting at line {gold.line}"
            )
            return InputError(
                f"{pred.name} differs from {gold_source} ({gold_where}) at token {j}: gold has {g}, predicted has {p}",
                pred_source,
                line,
            )
        return None
    if gold.text != pred.text:
        k = _first_difference(gold.text, pred.text)
        pred_where = f"record {i + 1}" if pred.line is not None and not keyed else pred.name
        return InputError(
            f"the text of {pred_where} differs from {gold.name} of {gold_source} at character {k}: "
            f"gold {_excerpt(gold.text, k)!r}, predicted {_excerpt(pred.text, k)!r}",
            pred_source,
            pred.line,
        )
    if not aligned and gold.offsets is not None and pred.offsets is not None and gold.offsets != pred.offsets:
        j = _first_difference(gold.offsets, pred.offsets)
        return InputError(
            f"the tokens of {pred.name if keyed else f'record {i + 1}'} differ from {gold.name} of {gold_source} at token {j}: "
            f"gold {_token_at(gold, j)}, predicted {_token_at(pred, j)}",
            pred_source,
            pred.line,
        )
    return None
