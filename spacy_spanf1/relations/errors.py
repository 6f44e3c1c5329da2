"""The errors of a relation scheme: each missed gold relation and each
spurious prediction, with its two arguments (and their texts, when the
document gives its text) and which of them found no match."""

from typing import Any, List, NamedTuple, Optional, Sequence, Tuple

import numpy

from ..spans import Span
from .read import RelationBatch, RelationSide, symmetric_order

__all__ = ["RelationError", "batch_errors", "relation_keys"]


class RelationError(NamedTuple):
    """One error of a relation scheme.

    doc (int): The document. kind (str): "missed" (a gold relation no
    prediction matches) or "spurious" (a prediction that matches none).
    label (str): The relation's label. head, tail (Span): Its arguments.
    unmatched (Tuple[str, ...]): The arguments the span scheme's pairing
    left without a match on the other side: ("head",), ("tail",), both,
    or () when both have one (the label or the direction is wrong).
    head_text, tail_text (Optional[str]): The arguments' texts, when the
    document gives its "text" and offsets count its characters.
    """

    doc: int
    kind: str
    label: str
    head: Span
    tail: Span
    unmatched: Tuple[str, ...]
    head_text: Optional[str] = None
    tail_text: Optional[str] = None


def relation_keys(
    batch: RelationBatch, matched: numpy.ndarray, symmetric: numpy.ndarray
) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """(which predicted relations are correct, which gold relations one of
    them matches, whether both arguments of each prediction match)."""
    gold, pred = batch.gold, batch.pred
    n_labels = max(len(batch.relation_labels), 1)
    n_gold = max(len(gold.spans.doc), 1)
    head, tail = matched[pred.head], matched[pred.tail]
    both = (head >= 0) & (tail >= 0)
    head, tail = symmetric_order(head, tail, pred.label, symmetric)
    gold_keys = (gold.head * n_gold + gold.tail) * n_labels + gold.label
    pred_keys = (head * n_gold + tail) * n_labels + pred.label
    correct = both & numpy.isin(pred_keys, gold_keys)
    found = numpy.isin(gold_keys, pred_keys[correct])
    return correct, found, both


def _span(side: RelationSide, i: int, names: List[str]) -> Span:
    return Span(int(side.spans.start[i]), int(side.spans.end[i]), names[int(side.spans.label[i])])


def batch_errors(
    batch: RelationBatch,
    matched: numpy.ndarray,
    correct: numpy.ndarray,
    found: numpy.ndarray,
    offset: int,
    texts: Sequence[Optional[str]],
) -> List[RelationError]:
    """The errors of one batch (documents counted from `offset`)."""
    has_match = numpy.zeros(len(batch.gold.spans.doc), dtype=bool)
    has_match[matched[matched >= 0]] = True
    names, labels = batch.span_labels, batch.relation_labels
    errors: List[RelationError] = []
    for kind, side, wrong, paired in (
        ("missed", batch.gold, ~found, has_match),
        ("spurious", batch.pred, ~correct, matched >= 0),
    ):
        for i in numpy.flatnonzero(wrong).tolist():
            h, t = int(side.head[i]), int(side.tail[i])
            doc = int(side.spans.doc[h])
            head, tail = _span(side, h, names), _span(side, t, names)
            unmatched = tuple(role for role, at in (("head", h), ("tail", t)) if not paired[at])
            text: Any = texts[doc] if doc < len(texts) else None
            ht, tt = (text[head.start : head.end], text[tail.start : tail.end]) if text else (None, None)
            errors.append(RelationError(offset + doc, kind, labels[int(side.label[i])], head, tail, unmatched, ht, tt))
    errors.sort(key=lambda e: (e.doc, e.kind != "missed", e.head, e.tail, e.label))
    return errors
