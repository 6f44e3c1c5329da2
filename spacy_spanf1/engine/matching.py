"""Matching gold and predicted spans of one document under every scheme.

The overlaps between gold and predicted spans are found once, by a sweep
over both lists sorted by start (`find_overlaps`); each scheme then works on
those pairs only, never on all gold × predicted pairs.

Spans are `Span(start, end, label)` tuples with an exclusive end, and each
list is sorted by (start, end, label). The SemEval counts also take spans
of several fragments (`spans.FragmentedSpan`, whose fourth field holds
them): an exact match is then an equal fragment set, and a gold span's
size its number of positions (`fragments.py` gives the pairs).
"""

from collections import defaultdict
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from .outcomes import (
    overlap_measures,
    COR,
    FN,
    FP,
    INC,
    LOW_OVERLAP,
    MIS,
    MISSED,
    NOT_AN_ERROR,
    PAR,
    SPU,
    SPURIOUS,
    TP,
    WRONG_BOUNDARIES,
    WRONG_TYPE,
)
from ..spans import Span, span_size

#: One outcome of a document: (count code, error kind code, gold index or
#: -1, predicted indices).
Unit = Tuple[int, int, int, Tuple[int, ...]]

#: (gold index, predicted index, number of shared positions)
Overlap = Tuple[int, int, int]


class SemEvalRule(NamedTuple):
    """How one SemEval scheme pairs a prediction with a gold span.

    same_label: an exact match must also have the same label.
    leftover: what a prediction that overlaps an unmatched gold span but
        matches none exactly counts as: "inc" (first overlapping gold, in
        order), "par" (likewise, half credit) or "closest" (the same-label
        gold with the smallest |Δstart| + |Δend| is correct, else the first
        other-label gold is incorrect), as nervaluate 1.2.1 does.
    """

    same_label: bool
    leftover: str


SEMEVAL_RULES: Dict[str, SemEvalRule] = {
    "strict": SemEvalRule(same_label=True, leftover="inc"),
    "exact": SemEvalRule(same_label=False, leftover="inc"),
    "partial": SemEvalRule(same_label=False, leftover="par"),
    "type": SemEvalRule(same_label=True, leftover="closest"),
}


def find_overlaps(gold: Sequence[Span], pred: Sequence[Span]) -> List[Overlap]:
    """All (gold, prediction) pairs that share at least one position.

    A single sweep over both lists in order of start: each span, when
    reached, is paired with the still-open spans of the other list.
    """
    pairs: List[Overlap] = []
    open_gold: List[int] = []
    open_pred: List[int] = []
    n_gold, n_pred = len(gold), len(pred)
    gi = pi = 0
    while gi < n_gold or pi < n_pred:
        if pi >= n_pred or (gi < n_gold and gold[gi][0] <= pred[pi][0]):
            start, end = gold[gi][0], gold[gi][1]
            if open_pred:
                open_pred = [j for j in open_pred if pred[j][1] > start]
                for j in open_pred:
                    pairs.append((gi, j, min(end, pred[j][1]) - start))
            open_gold.append(gi)
            gi += 1
        else:
            start, end = pred[pi][0], pred[pi][1]
            if open_gold:
                open_gold = [i for i in open_gold if gold[i][1] > start]
                for i in open_gold:
                    pairs.append((i, pi, min(end, gold[i][1]) - start))
            open_pred.append(pi)
            pi += 1
    return pairs


def semeval_kind(rule: SemEvalRule, g: Span, p: Span) -> int:
    """The error kind of an INC or PAR pair under a SemEval scheme."""
    if not rule.same_label:  # exact, partial: labels are not judged
        return WRONG_BOUNDARIES
    if rule.leftover == "closest":  # type: overlapping boundaries are good enough
        return WRONG_TYPE
    if same_positions(g, p):
        return WRONG_TYPE
    return WRONG_BOUNDARIES if g[2] == p[2] else LOW_OVERLAP


def same_positions(g: Span, p: Span) -> bool:
    """Whether two spans cover the same positions: equal bounds, and equal
    fragments (normal fragments, `spans.normal_fragments`: a span of several
    never covers what a contiguous one does; () == () for two contiguous)."""
    return g[0] == p[0] and g[1] == p[1] and g[3:] == p[3:]


def semeval_counts(
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
    """SemEval counts (cor, inc, par, mis, spu) of one document.

    gold_ids, pred_ids: the spans taking part (all, or those of one label),
        in sorted order.
    candidates: prediction index -> [(gold index, shared positions)] in
        gold order, restricted to the spans taking part.
    units: when given, one outcome per prediction and per missed gold span
        is appended to it.
    cells: when given, the confusion cells of the matching are added to it
        (`semeval_cells`).
    Exact matches are paired first; the other predictions are then matched
    in order to the remaining gold spans as nervaluate 1.2.1 does.
    """
    matched_gold = set()
    unmatched_pred = []
    cor = inc = par = spu = 0
    same_label = rule.same_label
    for pi in pred_ids:
        p = pred[pi]
        for gi, _ in candidates.get(pi, ()):
            g = gold[gi]
            # strict: the same span (bounds, label and fragments, if any); exact: the same positions
            if (g == p if same_label else g[0] == p[0] and g[1] == p[1] and g[3:] == p[3:]) and gi not in matched_gold:
                matched_gold.add(gi)
                cor += 1
                if units is not None:
                    units.append((COR, NOT_AN_ERROR, gi, (pi,)))
                if cells is not None:
                    _add_cell(cells, g[2], p[2])
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
            if min_overlap is not None and shared / (g[1] - g[0] if len(g) == 3 else span_size(g)) < min_overlap:
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
                _add_cell(cells, gold[closest][2], p[2])
        elif first is not None:
            matched_gold.add(first)
            code = PAR if leftover == "par" else INC
            if code == PAR:
                par += 1
            else:
                inc += 1
            if units is not None:
                units.append((code, semeval_kind(rule, gold[first], p), first, (pi,)))
            if cells is not None:
                g = gold[first]
                if code == INC and leftover == "inc" and not same_positions(g, p):
                    _add_cell(cells, g[2], "O")
                    _add_cell(cells, "O", p[2])
                else:
                    _add_cell(cells, g[2], p[2])
        else:
            spu += 1
            if units is not None:
                units.append((SPU, SPURIOUS, -1, (pi,)))
            if cells is not None:
                _add_cell(cells, "O", p[2])
    mis = len(gold_ids) - len(matched_gold)
    if units is not None and mis:
        units.extend((MIS, MISSED, gi, ()) for gi in gold_ids if gi not in matched_gold)
    if cells is not None and mis:
        for gi in gold_ids:
            if gi not in matched_gold:
                _add_cell(cells, gold[gi][2], "O")
    return cor, inc, par, mis, spu


def _add_cell(cells: Dict[Tuple[str, str], int], gold: str, pred: str) -> None:
    cells[(gold, pred)] = cells.get((gold, pred), 0) + 1


def combined_iou(g: Span, group: Sequence[Span]) -> float:
    """|g ∩ ⋃group| / |g ∪ ⋃group| over positions; group sorted by start."""
    if len(group) == 1:
        p = group[0]
        inter = min(g[1], p[1]) - max(g[0], p[0])
        return inter / ((g[1] - g[0]) + (p[1] - p[0]) - inter)
    return overlap_measures(g, group)[0]


def iou_document(
    gold: Sequence[Span],
    pred: Sequence[Span],
    pairs: Sequence[Overlap],
    threshold: float,
    tally: Dict[str, List[int]],
    confusion: Dict[Tuple[str, str], int],
    units: List[Unit],
    measure=combined_iou,
) -> None:
    """Add one document's `iou` counts to tally (label -> [tp, fp, fn]) and
    its confusion counts; append its outcomes to units: one per group of
    same-label predictions over a gold span, per gold span not matched, per
    prediction over no gold span. measure(g, group): the combined IoU
    (`fragments.positions_iou` for spans of several fragments)."""
    by_gold: Dict[int, Dict[str, List[int]]] = defaultdict(dict)
    overlapped = set()
    for gi, pi, _ in pairs:
        by_gold[gi].setdefault(pred[pi][2], []).append(pi)
        overlapped.add(pi)
    for gi, g in enumerate(gold):
        label = g[2]
        groups = by_gold.get(gi)
        if not groups:
            tally[label][2] += 1
            _add_cell(confusion, label, "O")
            units.append((FN, MISSED, gi, ()))
            continue
        matched = False
        # The groups in order of their first prediction's start, as
        # presidio-evaluator 0.3.2 takes them for its confusion cells.
        for k, (pred_label, members) in enumerate(groups.items()):
            iou = measure(g, [pred[pi] for pi in members])
            if pred_label == label:
                if iou >= threshold:
                    matched = True
                    tally[label][0] += 1
                    _add_cell(confusion, label, label)
                    units.append((TP, NOT_AN_ERROR, gi, tuple(members)))
                    continue
                kind = WRONG_BOUNDARIES
                _add_cell(confusion, "O", pred_label)
                if k == 0:  # presidio: (gold, O) when nothing over the gold span counted before
                    _add_cell(confusion, label, "O")
            elif iou >= threshold:
                kind = WRONG_TYPE
                _add_cell(confusion, label, pred_label)
            else:
                kind = LOW_OVERLAP
                _add_cell(confusion, "O", pred_label)
                _add_cell(confusion, label, "O")
            tally[pred_label][1] += 1
            units.append((FP, kind, gi, tuple(members)))
        if not matched:
            tally[label][2] += 1
            units.append((FN, NOT_AN_ERROR, gi, ()))
    for pi, p in enumerate(pred):
        if pi not in overlapped:
            tally[p[2]][1] += 1
            _add_cell(confusion, "O", p[2])
            units.append((FP, SPURIOUS, -1, (pi,)))


def overlap_kind(g: Span, p: Span, shared: int, threshold: float) -> int:
    """The error kind of an unmatched span under `overlap`, judged against
    the span of the other side it shares most with."""
    if g[2] == p[2]:
        return WRONG_BOUNDARIES
    if shared / (g[1] - g[0]) >= threshold and shared / (p[1] - p[0]) >= threshold:
        return WRONG_TYPE
    return LOW_OVERLAP


def overlap_document(
    gold: Sequence[Span],
    pred: Sequence[Span],
    pairs: Sequence[Overlap],
    threshold: float,
    tally: Dict[str, List[int]],
    units: Optional[List[Unit]] = None,
) -> None:
    """Add one document's `overlap` counts to tally (label -> [tp, fp, fn]).

    A same-label pair is a candidate when the shared positions cover at
    least `threshold` of the gold span and of the prediction; candidates are
    accepted greedily, highest gold coverage first (ties: higher prediction
    coverage, then earlier gold, then earlier prediction), one-to-one.
    units: when given, gets one outcome per matched pair, per unmatched
    prediction and per unmatched gold span; an unmatched span is shown with
    the span of the other side it shares most positions with.
    """
    candidates = []
    for gi, pi, shared in pairs:
        g, p = gold[gi], pred[pi]
        if g[2] != p[2]:
            continue
        gold_cover = shared / (g[1] - g[0])
        pred_cover = shared / (p[1] - p[0])
        if gold_cover >= threshold and pred_cover >= threshold:
            candidates.append((-gold_cover, -pred_cover, gi, pi))
    matched_gold = {}
    matched_pred = set()
    if len(candidates) > 1:
        candidates.sort()
    for _, _, gi, pi in candidates:
        if gi in matched_gold or pi in matched_pred:
            continue
        matched_gold[gi] = pi
        matched_pred.add(pi)
        tally[gold[gi][2]][0] += 1
    for pi, p in enumerate(pred):
        if pi not in matched_pred:
            tally[p[2]][1] += 1
    for gi, g in enumerate(gold):
        if gi not in matched_gold:
            tally[g[2]][2] += 1
    if units is None:
        return
    best_gold: Dict[int, Tuple[int, int]] = {}
    best_pred: Dict[int, Tuple[int, int]] = {}
    for gi, pi, shared in pairs:
        if pi not in best_gold or shared > best_gold[pi][1]:
            best_gold[pi] = (gi, shared)
        if gi not in best_pred or shared > best_pred[gi][1]:
            best_pred[gi] = (pi, shared)
    for gi in sorted(matched_gold):
        units.append((TP, NOT_AN_ERROR, gi, (matched_gold[gi],)))
    for pi in range(len(pred)):
        if pi in matched_pred:
            continue
        if pi in best_gold:
            gi, shared = best_gold[pi]
            units.append((FP, overlap_kind(gold[gi], pred[pi], shared, threshold), gi, (pi,)))
        else:
            units.append((FP, SPURIOUS, -1, (pi,)))
    for gi in range(len(gold)):
        if gi in matched_gold:
            continue
        if gi in best_pred:
            pi, shared = best_pred[gi]
            units.append((FN, overlap_kind(gold[gi], pred[pi], shared, threshold), gi, (pi,)))
        else:
            units.append((FN, MISSED, gi, ()))
