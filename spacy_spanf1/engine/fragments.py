"""Matching one document whose spans may have several fragments.

A span of several fragments (`spans.FragmentedSpan`) is scored as the set
of positions its fragments cover; a contiguous span is the interval it
always was. This module generalises `matching.py` to such position sets:

- the pairs: `matching.find_overlaps` on the outer bounds finds the
  candidate pairs, and the shared positions are counted on the fragments
  (a pair whose bounds overlap but whose fragments do not is dropped);
- the SemEval schemes: `matching.semeval_counts` itself, which takes
  spans of several fragments (an exact match is an equal fragment set, and
  label for `strict`; a gold span's size is its number of positions, for
  `min_overlap`; `type`'s closest gold is measured on the outer bounds);
- `iou`: the combined IoU over position sets (`positions_iou`, given to
  `matching.iou_document`);
- `overlap`: the sizes are numbers of positions (`sized`, spans as
  `matching.overlap_document` reads them).

On contiguous spans every function here gives what `matching.py` gives
(tested). The batched engine scores most documents with spans of several
fragments (`fragment_batch.py`); those in which two spans of one side
share a position, and every one when errors are kept, come here.
"""

from typing import List, Sequence

from .matching import SEMEVAL_RULES, Overlap, find_overlaps
from ..settings import VIEWS
from ..spans import Span, shared_positions, span_fragments, span_size, union_fragments


def fragment_overlaps(gold: Sequence[Span], pred: Sequence[Span]) -> List[Overlap]:
    """All (gold, prediction, shared positions) pairs whose position sets
    intersect, in the order `find_overlaps` gives them."""
    pairs = []
    for gi, pi, shared in find_overlaps(gold, pred):
        g, p = gold[gi], pred[pi]
        if len(g) > 3 or len(p) > 3:
            shared = shared_positions(span_fragments(g), span_fragments(p))
            if not shared:
                continue
        pairs.append((gi, pi, shared))
    return pairs


def positions_iou(g: Span, group: Sequence[Span]) -> float:
    """|g ∩ ⋃group| / |g ∪ ⋃group| over the positions of the fragments."""
    union = union_fragments(group)
    inter = shared_positions(span_fragments(g), union)
    return inter / (span_size(g) + sum(end - start for start, end in union) - inter)


def sized(spans: Sequence[Span]) -> List[Span]:
    """Spans as (0, number of positions, label): what the sizes and labels
    `matching.overlap_document` reads off a span are then right for any
    shape (it reads nothing else)."""
    return [Span(0, span_size(span), span[2]) for span in spans]


def has_fragments(spans: Sequence[Span]) -> bool:
    """Whether any span of a list has several fragments."""
    return any(len(span) > 3 for span in spans)


def view_spans(spans: Sequence[Span], view: str) -> Sequence[Span]:
    """The spans a view scores of one document's list (`VIEWS`): under
    `disc_mentions` only those of several fragments."""
    if view == "disc_mentions":
        return [span for span in spans if len(span) > 3]
    return spans


__all__ = [
    "SEMEVAL_RULES",
    "VIEWS",
    "fragment_overlaps",
    "has_fragments",
    "positions_iou",
    "sized",
    "view_spans",
]
