"""Matching gold and predicted spans of one document under every scheme.

The overlaps between gold and predicted spans are found once, by a sweep
over both lists sorted by start (`find_overlaps`); each scheme then works on
those pairs only, never on all gold × predicted pairs.

Spans are `Span(start, end, label)` tuples with an exclusive end, and each
list is sorted by (start, end, label).
"""
from collections import defaultdict
from typing import Dict, List, NamedTuple, Optional, Sequence, Tuple

from .spans import Span

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


class SpanError(NamedTuple):
    """One error of the `iou` scheme.

    doc: index of the document. kind: "missed", "spurious", "wrong_type" or
    "low_overlap". gold: the gold span, or None for a spurious prediction.
    pred: the predicted span(s) of the group (empty for a missed span).
    iou: the group's combined IoU with the gold span (0.0 when missed or
    spurious).
    """

    doc: int
    kind: str
    gold: Optional[Span]
    pred: Tuple[Span, ...]
    iou: float


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


def semeval_counts(
    gold: Sequence[Span],
    pred: Sequence[Span],
    gold_ids: Sequence[int],
    pred_ids: Sequence[int],
    candidates: Dict[int, List[Tuple[int, int]]],
    rule: SemEvalRule,
    min_overlap: Optional[float],
) -> Tuple[int, int, int, int, int]:
    """SemEval counts (cor, inc, par, mis, spu) of one document.

    gold_ids, pred_ids: the spans taking part (all, or those of one label),
        in sorted order.
    candidates: prediction index -> [(gold index, shared positions)] in
        gold order, restricted to the spans taking part.
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
            if (
                g[0] == p[0]
                and g[1] == p[1]
                and (not same_label or g[2] == p[2])
                and gi not in matched_gold
            ):
                matched_gold.add(gi)
                cor += 1
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
            if min_overlap is not None and shared / (g[1] - g[0]) < min_overlap:
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
        elif first is not None:
            matched_gold.add(first)
            if leftover == "par":
                par += 1
            else:
                inc += 1
        else:
            spu += 1
    mis = len(gold_ids) - len(matched_gold)
    return cor, inc, par, mis, spu


def _covered(intervals: List[Tuple[int, int]]) -> int:
    """Number of positions covered by a list of intervals sorted by start."""
    total = 0
    cur_start, cur_end = intervals[0]
    for start, end in intervals[1:]:
        if start >= cur_end:
            total += cur_end - cur_start
            cur_start, cur_end = start, end
        elif end > cur_end:
            cur_end = end
    return total + cur_end - cur_start


def combined_iou(g: Span, group: Sequence[Span]) -> float:
    """|g ∩ ⋃group| / |g ∪ ⋃group| over positions; group sorted by start."""
    if len(group) == 1:
        p = group[0]
        inter = min(g[1], p[1]) - max(g[0], p[0])
        return inter / ((g[1] - g[0]) + (p[1] - p[0]) - inter)
    union_pred = _covered([(p[0], p[1]) for p in group])
    inter = _covered([(max(g[0], p[0]), min(g[1], p[1])) for p in group])
    return inter / ((g[1] - g[0]) + union_pred - inter)


def iou_document(
    doc: int,
    gold: Sequence[Span],
    pred: Sequence[Span],
    pairs: Sequence[Overlap],
    threshold: float,
    tally: Dict[str, List[int]],
    confusion: Dict[Tuple[str, str], int],
    errors: List[SpanError],
) -> None:
    """Add one document's `iou` counts to tally (label -> [tp, fp, fn]),
    its confusion counts and its errors. See SPEC.md § iou."""
    by_gold: Dict[int, Dict[str, List[Span]]] = defaultdict(dict)
    overlapped = set()
    for gi, pi, _ in pairs:
        p = pred[pi]
        by_gold[gi].setdefault(p[2], []).append(p)
        overlapped.add(pi)
    for gi, g in enumerate(gold):
        label = g[2]
        groups = by_gold.get(gi)
        if not groups:
            tally[label][2] += 1
            confusion[(label, "O")] = confusion.get((label, "O"), 0) + 1
            errors.append(SpanError(doc, "missed", g, (), 0.0))
            continue
        matched = False
        wrong_type = False
        for pred_label, group in groups.items():
            iou = combined_iou(g, group)
            if pred_label == label:
                if iou >= threshold:
                    matched = True
                    tally[label][0] += 1
                    confusion[(label, label)] = confusion.get((label, label), 0) + 1
                    continue
                kind = "low_overlap"
            else:
                kind = "wrong_type" if iou >= threshold else "low_overlap"
            tally[pred_label][1] += 1
            if kind == "wrong_type":
                wrong_type = True
                key = (label, pred_label)
            else:
                key = ("O", pred_label)
            confusion[key] = confusion.get(key, 0) + 1
            errors.append(SpanError(doc, kind, g, tuple(group), iou))
        if not matched:
            tally[label][2] += 1
            if not wrong_type:
                confusion[(label, "O")] = confusion.get((label, "O"), 0) + 1
    for pi, p in enumerate(pred):
        if pi not in overlapped:
            tally[p[2]][1] += 1
            confusion[("O", p[2])] = confusion.get(("O", p[2]), 0) + 1
            errors.append(SpanError(doc, "spurious", None, (p,), 0.0))


def overlap_document(
    gold: Sequence[Span],
    pred: Sequence[Span],
    pairs: Sequence[Overlap],
    threshold: float,
    tally: Dict[str, List[int]],
) -> None:
    """Add one document's `overlap` counts to tally (label -> [tp, fp, fn]).

    A same-label pair is a candidate when the shared positions cover at
    least `threshold` of the gold span and of the prediction; candidates are
    accepted greedily, highest gold coverage first (ties: higher prediction
    coverage, then earlier gold, then earlier prediction), one-to-one.
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
    matched_gold = set()
    matched_pred = set()
    if len(candidates) > 1:
        candidates.sort()
    for _, _, gi, pi in candidates:
        if gi in matched_gold or pi in matched_pred:
            continue
        matched_gold.add(gi)
        matched_pred.add(pi)
        tally[gold[gi][2]][0] += 1
    for pi, p in enumerate(pred):
        if pi not in matched_pred:
            tally[p[2]][1] += 1
    for gi, g in enumerate(gold):
        if gi not in matched_gold:
            tally[g[2]][2] += 1
