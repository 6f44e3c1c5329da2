"""Matching one document whose spans may have several fragments.

A span of several fragments (`spans.FragmentedSpan`) is scored as the set
of positions its fragments cover; a contiguous span is the interval it
always was. This module generalises `matching.py` to such position sets:

- the pairs: `matching.find_overlaps` on the outer bounds finds the
  candidate pairs, and the shared positions are counted on the fragments
  (a pair whose bounds overlap but whose fragments do not is dropped);
- the SemEval schemes: an exact match is an equal fragment set (and label
  for `strict`); a gold span's size is its number of positions (for
  `min_overlap`); `type`'s closest gold is measured on the outer bounds;
- `iou`: the combined IoU over position sets (`positions_iou`, given to
  `matching.iou_document`);
- `overlap`: the sizes are numbers of positions (`sized`, spans as
  `matching.overlap_document` reads them).

On contiguous spans every function here gives what `matching.py` gives
(tested); documents without a span of several fragments never come here.
"""

from typing import Dict, List, Optional, Sequence, Tuple

from .matching import SEMEVAL_RULES, Overlap, SemEvalRule, Unit, find_overlaps
from .outcomes import COR, INC, LOW_OVERLAP, MIS, MISSED, NOT_AN_ERROR, PAR, SPU, SPURIOUS, WRONG_BOUNDARIES, WRONG_TYPE
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


def same_positions(g: Span, p: Span) -> bool:
    """Whether two spans cover the same positions (equal fragment sets)."""
    # fragments are normal (`spans.normal_fragments`): a span of several
    # never covers what a contiguous one does, and two of several cover the
    # same positions exactly when their fragments are equal
    return g[0] == p[0] and g[1] == p[1] and g[3:] == p[3:]


def fragment_semeval_kind(rule: SemEvalRule, g: Span, p: Span) -> int:
    """`matching.semeval_kind` with equal fragment sets for equal boundaries."""
    if not rule.same_label:
        return WRONG_BOUNDARIES
    if rule.leftover == "closest":
        return WRONG_TYPE
    if same_positions(g, p):
        return WRONG_TYPE
    return WRONG_BOUNDARIES if g[2] == p[2] else LOW_OVERLAP


def fragment_semeval_counts(
    gold: Sequence[Span],
    pred: Sequence[Span],
    gold_ids: Sequence[int],
    pred_ids: Sequence[int],
    candidates: Dict[int, List[Tuple[int, int]]],
    rule: SemEvalRule,
    min_overlap: Optional[float],
    units: Optional[List[Unit]] = None,
    cells: Optional[Dict[Tuple[str, str], int]] = None,
) -> Tuple[int, int, int, int, int]:
    """`matching.semeval_counts` over position sets: an exact match is an
    equal fragment set, a gold span's size its number of positions; the
    matching order and every count are as there."""
    matched_gold = set()
    unmatched_pred = []
    cor = inc = par = spu = 0
    same_label = rule.same_label
    for pi in pred_ids:
        p = pred[pi]
        for gi, _ in candidates.get(pi, ()):
            g = gold[gi]
            if (
                g[0] == p[0]
                and g[1] == p[1]
                and g[3:] == p[3:]
                and (not same_label or g[2] == p[2])
                and gi not in matched_gold
            ):
                matched_gold.add(gi)
                cor += 1
                if units is not None:
                    units.append((COR, NOT_AN_ERROR, gi, (pi,)))
                if cells is not None:
                    _count_cell(cells, g[2], p[2])
                break
        else:
            unmatched_pred.append(pi)
    leftover = rule.leftover
    for pi in unmatched_pred:
        p = pred[pi]
        first = None
        closest = None
        closest_distance = 0
        for gi, shared in candidates.get(pi, ()):
            if gi in matched_gold:
                continue
            g = gold[gi]
            if min_overlap is not None and shared / span_size(g) < min_overlap:
                continue
            if leftover == "closest" and g[2] == p[2]:
                distance = abs(p[0] - g[0]) + abs(p[1] - g[1])
                if closest is None or distance < closest_distance:
                    closest, closest_distance = gi, distance
            elif first is None:
                first = gi
                if leftover != "closest":
                    break
        if closest is not None:
            matched_gold.add(closest)
            cor += 1
            if units is not None:
                units.append((COR, NOT_AN_ERROR, closest, (pi,)))
            if cells is not None:
                _count_cell(cells, gold[closest][2], p[2])
        elif first is not None:
            matched_gold.add(first)
            code = PAR if leftover == "par" else INC
            if code == PAR:
                par += 1
            else:
                inc += 1
            if units is not None:
                units.append((code, fragment_semeval_kind(rule, gold[first], p), first, (pi,)))
            if cells is not None:
                g = gold[first]
                if code == INC and leftover == "inc" and not same_positions(g, p):
                    _count_cell(cells, g[2], "O")
                    _count_cell(cells, "O", p[2])
                else:
                    _count_cell(cells, g[2], p[2])
        else:
            spu += 1
            if units is not None:
                units.append((SPU, SPURIOUS, -1, (pi,)))
            if cells is not None:
                _count_cell(cells, "O", p[2])
    mis = len(gold_ids) - len(matched_gold)
    if units is not None and mis:
        units.extend((MIS, MISSED, gi, ()) for gi in gold_ids if gi not in matched_gold)
    if cells is not None and mis:
        for gi in gold_ids:
            if gi not in matched_gold:
                _count_cell(cells, gold[gi][2], "O")
    return cor, inc, par, mis, spu


def _count_cell(cells: Dict[Tuple[str, str], int], gold: str, pred: str) -> None:
    cells[(gold, pred)] = cells.get((gold, pred), 0) + 1


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
    "fragment_semeval_counts",
    "sized",
    "view_spans",
]
