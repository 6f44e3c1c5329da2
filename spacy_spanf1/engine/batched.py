"""Every scheme over many documents at once, on flat numpy arrays.

This is the fast path of `SpanScorer` for documents in which neither the
gold nor the predicted spans overlap each other (always so for `Doc.ents`
and tag sequences). It gives the same counts as the per-document engine in
`matching.py`, which scores every other document; tests hold the two equal.

All documents of a batch are laid end to end on one line (each shifted past
the previous one), so the overlapping (gold, prediction) pairs of the whole
batch come from two binary searches. When neither side overlaps itself,
an exact match is a component of its own in the overlap graph, and so is
almost every other pair; only the few longer chains (a prediction over two
gold spans, ...) are walked in Python, exactly as `matching.py` walks them.
"""

from functools import cached_property
from typing import Dict, List, Optional, Tuple

import numpy

from . import outcomes as oc
from .columns import Side, Units, best_partner, interval_pairs, named_cells, ones, units_of
from .fragment_batch import FragmentColumns, fragment_pairs
from .matching import SEMEVAL_RULES, SemEvalRule

COR, INC, PAR = 1, 2, 3  # a prediction's outcome in `Batch.semeval`; 0: spurious
_SEMEVAL_CODE = numpy.array([oc.SPU, oc.COR, oc.INC, oc.PAR], dtype=numpy.int8)


class Batch:
    """The overlap pairs of a batch and what every scheme needs from them.

    gold, pred: Sides in which no two spans of one document overlap.
    fragments: the fragments of each side's spans (`fragment_batch`), for
        spans of several fragments (then their outer bounds are on the
        Sides); None: every span is contiguous.
    """

    def __init__(
        self,
        gold: Side,
        pred: Side,
        n_docs: int,
        n_labels: int,
        fragments: Optional[Tuple[FragmentColumns, FragmentColumns]] = None,
    ) -> None:
        self.gold, self.pred, self.n_labels = gold, pred, n_labels
        self.n_gold, self.n_pred = len(gold.start), len(pred.start)
        self.fragments = fragments
        if fragments is None:
            self.pp, self.pg, self.shared = interval_pairs(gold, pred, n_docs)
            self.g_len = gold.end - gold.start
            self.p_len = pred.end - pred.start
        else:  # the pairs, the positions they share and the sizes counted on the fragments
            self.pp, self.pg, self.shared = fragment_pairs(gold, pred, fragments, n_docs)
            self.g_len, self.p_len = fragments[0].size, fragments[1].size
        self.same_label = gold.label[self.pg] == pred.label[self.pp]
        self.same_bounds = self.same_positions(self.pg, self.pp)

    def same_positions(self, g: numpy.ndarray, p: numpy.ndarray) -> numpy.ndarray:
        """Whether gold spans g cover the same positions as predictions p
        (equal bounds, and equal fragments)."""
        gold, pred = self.gold, self.pred
        same = (gold.start[g] == pred.start[p]) & (gold.end[g] == pred.end[p])
        if self.fragments is not None:
            same &= self.fragments[0].key[g] == self.fragments[1].key[p]
        return same

    def label_counts(self, labels: numpy.ndarray) -> numpy.ndarray:
        return numpy.bincount(labels, minlength=self.n_labels)

    @cached_property
    def gold_label_counts(self) -> numpy.ndarray:
        """How many gold spans each label has."""
        return self.label_counts(self.gold.label)

    # SemEval ------------------------------------------------------------

    def semeval(self, rule: SemEvalRule, min_overlap, per_label: bool):
        """(pred outcome: 0 spurious / COR / INC / PAR, gold matched, the
        gold index each prediction is paired with or -1) for the whole
        batch, on all pairs or (per_label) on same-label pairs only."""
        keep = self.same_label if per_label else numpy.ones(len(self.pp), dtype=bool)
        exact = self.same_bounds & keep
        if rule.same_label:
            exact &= self.same_label
        outcome = numpy.zeros(self.n_pred, dtype=numpy.int8)
        matched = numpy.zeros(self.n_gold, dtype=bool)
        partner = numpy.full(self.n_pred, -1, dtype=numpy.int64)
        outcome[self.pp[exact]] = COR
        matched[self.pg[exact]] = True
        partner[self.pp[exact]] = self.pg[exact]
        rest = keep & ~exact
        if min_overlap is not None:
            rest &= ~(self.shared / self.g_len[self.pg] < min_overlap)
        pg, pp = self.pg[rest], self.pp[rest]
        deg_p = numpy.bincount(pp, minlength=self.n_pred)
        deg_g = numpy.bincount(pg, minlength=self.n_gold)
        alone = (deg_p[pp] == 1) & (deg_g[pg] == 1)
        if rule.leftover == "closest":
            outcome[pp[alone]] = numpy.where(self.same_label[rest][alone], COR, INC)
        else:
            outcome[pp[alone]] = PAR if rule.leftover == "par" else INC
        matched[pg[alone]] = True
        partner[pp[alone]] = pg[alone]
        chained = ~alone
        if chained.any():
            self._walk_chains(rule, pg[chained], pp[chained], outcome, matched, partner)
        return outcome, matched, partner

    def _walk_chains(self, rule, pg, pp, outcome, matched, partner) -> None:
        """The pairing loop of `matching.semeval_counts`, step 2, on the
        pairs of the longer components (sorted by prediction, then gold)."""
        g_start, g_end, g_label = self.gold.start, self.gold.end, self.gold.label
        p_start, p_end, p_label = self.pred.start, self.pred.end, self.pred.label
        closest_rule = rule.leftover == "closest"
        leftover = PAR if rule.leftover == "par" else INC
        pg_list, pp_list = pg.tolist(), pp.tolist()
        i, n = 0, len(pp_list)
        while i < n:
            pi = pp_list[i]
            first = closest = None
            closest_distance = 0
            while i < n and pp_list[i] == pi:
                gi = pg_list[i]
                i += 1
                if matched[gi]:
                    continue
                if closest_rule and g_label[gi] == p_label[pi]:
                    distance = abs(int(p_start[pi]) - int(g_start[gi])) + abs(int(p_end[pi]) - int(g_end[gi]))
                    if closest is None or distance < closest_distance:
                        closest, closest_distance = gi, distance
                elif first is None:
                    first = gi
            if closest is not None:
                matched[closest] = True
                outcome[pi] = COR
                partner[pi] = closest
            elif first is not None:
                matched[first] = True
                outcome[pi] = leftover
                partner[pi] = first

    def semeval_counts(self, scheme: str, min_overlap, labels: List[str], want_units: bool = False):
        """Overall [cor, inc, par, mis, spu], per label (n_labels × 5), the
        confusion cells of the overall matching ((gold, predicted) -> n,
        labels named from `labels`) and its Units (None unless want_units)."""
        rule = SEMEVAL_RULES[scheme]
        outcome, matched, partner = self.semeval(rule, min_overlap, per_label=False)
        kinds = numpy.bincount(outcome, minlength=4)
        total = [int(kinds[COR]), int(kinds[INC]), int(kinds[PAR]), int(self.n_gold - matched.sum()), int(kinds[0])]
        cells = self._semeval_cells(rule, outcome, partner, labels)
        units = self._semeval_units(rule, outcome, matched, partner) if want_units else None
        outcome, matched, _ = self.semeval(rule, min_overlap, per_label=True)
        p_label = self.pred.label
        table = numpy.stack(
            [
                self.label_counts(p_label[outcome == COR]),
                self.label_counts(p_label[outcome == INC]),
                self.label_counts(p_label[outcome == PAR]),
                self.label_counts(self.gold.label[~matched]),
                self.label_counts(p_label[outcome == 0]),
            ],
            axis=1,
        )
        return total, table, cells, units

    def _semeval_cells(self, rule: SemEvalRule, outcome, partner, labels: List[str]) -> Dict[Tuple[str, str], int]:
        """The confusion cells of the overall matching: a pair adds (gold,
        predicted), except an INC pair of `strict` / `exact` whose
        boundaries differ, which adds (gold, O) and (O, predicted); a
        missed gold span adds (gold, O), a spurious prediction (O, predicted)."""
        gold, pred = self.gold, self.pred
        n_labels = self.n_labels
        width = n_labels + 1
        joined = partner >= 0
        if rule.leftover == "inc":  # strict, exact: an INC pair whose boundaries differ is split
            inc = numpy.flatnonzero(outcome == INC)
            joined[inc[~self.same_positions(partner[inc], inc)]] = False
        # a prediction: (its partner's label, or O, and its label)
        rows = numpy.where(joined, gold.label[partner], n_labels) if self.n_gold else numpy.full(self.n_pred, n_labels)
        cells = numpy.bincount(rows * width + pred.label, minlength=width * width).reshape(width, width)
        # a gold span in no joined pair: (its label, O), as many as its
        # label's gold spans less those in the label's row so far
        cells[:n_labels, n_labels] = self.gold_label_counts - cells[:n_labels].sum(axis=1)
        return named_cells(cells.ravel(), n_labels, labels, counted=True)

    def _semeval_units(self, rule: SemEvalRule, outcome, matched, partner) -> Units:
        gold, pred = self.gold, self.pred
        kind = numpy.full(self.n_pred, oc.NOT_AN_ERROR, dtype=numpy.int64)
        kind[outcome == 0] = oc.SPURIOUS
        wrong = (outcome == INC) | (outcome == PAR)
        if not rule.same_label:
            kind[wrong] = oc.WRONG_BOUNDARIES
        elif rule.leftover == "closest":
            kind[wrong] = oc.WRONG_TYPE
        else:
            g = partner[wrong]
            same_bounds = self.same_positions(g, numpy.flatnonzero(wrong))
            same_label = gold.label[g] == pred.label[wrong]
            kind[wrong] = numpy.where(
                same_bounds, oc.WRONG_TYPE, numpy.where(same_label, oc.WRONG_BOUNDARIES, oc.LOW_OVERLAP)
            )
        missed = numpy.flatnonzero(~matched)
        n_missed = len(missed)
        return units_of(
            [
                (pred.doc, _SEMEVAL_CODE[outcome], kind, partner, ones(self.n_pred), numpy.arange(self.n_pred)),
                (
                    gold.doc[missed],
                    numpy.full(n_missed, oc.MIS),
                    numpy.full(n_missed, oc.MISSED),
                    missed,
                    numpy.zeros(n_missed, dtype=numpy.int64),
                    numpy.zeros(0, dtype=numpy.int64),
                ),
            ]
        )

    # iou ----------------------------------------------------------------

    def iou(self, threshold: float, labels: List[str], want_units: bool = False):
        """Per label [tp, fp, fn] (n_labels × 3), confusion, and the Units
        (None unless want_units)."""
        n_labels = self.n_labels
        p_label, g_label = self.pred.label, self.gold.label
        key = self.pg * n_labels + p_label[self.pp]
        order = numpy.argsort(key, kind="stable")
        key_sorted = key[order]
        empty = numpy.zeros(0, dtype=numpy.int64)
        starts = numpy.flatnonzero(numpy.r_[True, key_sorted[1:] != key_sorted[:-1]]) if len(key) else empty
        group_key = key_sorted[starts]
        group_gold = group_key // n_labels
        group_label = group_key % n_labels
        inter = numpy.add.reduceat(self.shared[order], starts) if len(starts) else empty
        pred_len = numpy.add.reduceat(self.p_len[self.pp[order]], starts) if len(starts) else empty
        iou = inter / (self.g_len[group_gold] + pred_len - inter)
        group_gold_label = g_label[group_gold]
        same = group_label == group_gold_label
        reached = iou >= threshold
        tp_group = same & reached
        wrong_type = ~same & reached
        fp_group = ~tp_group
        gold_tp = numpy.zeros(self.n_gold, dtype=bool)
        gold_tp[group_gold[tp_group]] = True
        spurious = numpy.bincount(self.pp, minlength=self.n_pred) == 0
        table = numpy.stack(
            [
                self.label_counts(group_label[tp_group]),
                self.label_counts(group_label[fp_group]) + self.label_counts(p_label[spurious]),
                self.label_counts(g_label[~gold_tp]),
            ],
            axis=1,
        )
        confusion = self._iou_cells(
            order, starts, group_gold, group_gold_label, group_label, same, reached, spurious, labels
        )
        if not want_units:
            return table, confusion, None
        n_groups = len(starts)
        group_kind = numpy.select(
            [tp_group, same, wrong_type], [oc.NOT_AN_ERROR, oc.WRONG_BOUNDARIES, oc.WRONG_TYPE], oc.LOW_OVERLAP
        )
        has_group = numpy.zeros(self.n_gold, dtype=bool)
        has_group[group_gold] = True
        fn = numpy.flatnonzero(~gold_tp)
        spurious_ids = numpy.flatnonzero(spurious)
        n_spurious = len(spurious_ids)
        units = units_of(
            [
                (
                    self.gold.doc[group_gold],
                    numpy.where(tp_group, oc.TP, oc.FP),
                    group_kind,
                    group_gold,
                    numpy.diff(numpy.r_[starts, len(order)]) if n_groups else empty,
                    self.pp[order],
                ),
                (
                    self.pred.doc[spurious_ids],
                    numpy.full(n_spurious, oc.FP),
                    numpy.full(n_spurious, oc.SPURIOUS),
                    numpy.full(n_spurious, -1),
                    ones(n_spurious),
                    spurious_ids,
                ),
                (
                    self.gold.doc[fn],
                    numpy.full(len(fn), oc.FN),
                    numpy.where(has_group[fn], oc.NOT_AN_ERROR, oc.MISSED),
                    fn,
                    numpy.zeros(len(fn), dtype=numpy.int64),
                    empty,
                ),
            ]
        )
        return table, confusion, units

    def _iou_cells(
        self, order, starts, group_gold, group_gold_label, group_label, same, reached, spurious, labels: List[str]
    ) -> Dict[Tuple[str, str], int]:
        """`iou`'s confusion cells as presidio-evaluator 0.3.2 fills them:
        a group reaching the threshold adds (gold, its label), one below it
        (O, its label); a group of another label below the threshold also
        adds (gold, O), and so does one of the gold label below it when it
        is the first group over its gold span (in order of start); a gold
        span that nothing overlaps adds (gold, O), a prediction that
        overlaps nothing (O, its label)."""
        n_labels = self.n_labels
        width = n_labels + 1
        # groups of one gold span are side by side
        new_gold = numpy.r_[True, group_gold[1:] != group_gold[:-1]] if len(starts) else numpy.zeros(0, dtype=bool)
        also_outside = ~same & ~reached
        low_same = numpy.flatnonzero(same & ~reached)
        if len(low_same):
            # Is the group the first over its gold span? No prediction of a
            # batch overlaps another, so those over a gold span are
            # consecutive: it is first unless the prediction just before
            # its first one overlaps the gold span too.
            first_pred = self.pp[order[starts[low_same]]]
            gold_ids = group_gold[low_same]
            if self.fragments is None:
                before = numpy.maximum(first_pred - 1, 0)
                later = (
                    (first_pred > 0)
                    & (self.pred.doc[before] == self.gold.doc[gold_ids])
                    & (self.pred.end[before] > self.gold.start[gold_ids])
                )
            else:  # a prediction between may meet the bounds only: the first is the least that shares a position
                least = numpy.full(self.n_gold, self.n_pred, dtype=numpy.int64)
                numpy.minimum.at(least, self.pg, self.pp)
                later = first_pred > least[gold_ids]
            also_outside[low_same[~later]] = True
        codes = numpy.concatenate(
            [
                numpy.where(reached, group_gold_label, n_labels) * width + group_label,
                group_gold_label[also_outside] * width + n_labels,
                n_labels * width + self.pred.label[spurious],
            ]
        )
        cells = numpy.bincount(codes, minlength=width * width).reshape(width, width)
        # gold spans that nothing overlaps: (their label, O)
        cells[:n_labels, n_labels] += self.gold_label_counts - self.label_counts(group_gold_label[new_gold])
        return named_cells(cells.ravel(), n_labels, labels, counted=True)

    # overlap ------------------------------------------------------------

    def overlap_matches(self, threshold: float) -> numpy.ndarray:
        """For each gold span, the prediction `overlap` matches it with (-1:
        none): what `overlap` counts, for a caller that needs no table."""
        gold_cover = self.shared / self.g_len[self.pg]
        pred_cover = self.shared / self.p_len[self.pp]
        cand = self.same_label & (gold_cover >= threshold) & (pred_cover >= threshold)
        pg, pp = self.pg[cand], self.pp[cand]
        deg_p = numpy.bincount(pp, minlength=self.n_pred)
        deg_g = numpy.bincount(pg, minlength=self.n_gold)
        alone = (deg_p[pp] == 1) & (deg_g[pg] == 1)
        matched_gold = numpy.full(self.n_gold, -1, dtype=numpy.int64)  # the prediction it is matched with
        matched_gold[pg[alone]] = pp[alone]
        if not alone.all():
            chained = ~alone
            items = sorted(
                zip(
                    (-gold_cover[cand][chained]).tolist(),
                    (-pred_cover[cand][chained]).tolist(),
                    pg[chained].tolist(),
                    pp[chained].tolist(),
                )
            )
            used_pred = set()
            for _, _, gi, pi in items:
                if matched_gold[gi] >= 0 or pi in used_pred:
                    continue
                matched_gold[gi] = pi
                used_pred.add(pi)
        return matched_gold

    def overlap(self, threshold: float, want_units: bool = False):
        """Per label [tp, fp, fn] (n_labels × 3), and the Units (None unless
        want_units; an unmatched span is shown with the span of the other
        side it shares most positions with)."""
        matched_gold = self.overlap_matches(threshold)
        is_matched = matched_gold >= 0
        tp = self.label_counts(self.gold.label[is_matched])
        table = numpy.stack(
            [tp, self.label_counts(self.pred.label) - tp, self.label_counts(self.gold.label) - tp],
            axis=1,
        )
        if not want_units:
            return table, None
        gold, pred = self.gold, self.pred
        matched = numpy.flatnonzero(is_matched)
        pred_matched = numpy.zeros(self.n_pred, dtype=bool)
        pred_matched[matched_gold[matched]] = True
        fp = numpy.flatnonzero(~pred_matched)
        fn = numpy.flatnonzero(~is_matched)
        best_gold, gold_shared = best_partner(self.pp, self.pg, self.shared, self.n_pred)
        best_pred, pred_shared = best_partner(self.pg, self.pp, self.shared, self.n_gold)

        def kinds(g, p, shared, alone_kind):
            """The kind of each unmatched span, judged against its best partner."""
            kind = numpy.full(len(g), alone_kind, dtype=numpy.int64)
            has = (g >= 0) & (p >= 0)
            g, p, shared = g[has], p[has], shared[has]
            both = (shared / self.g_len[g] >= threshold) & (shared / self.p_len[p] >= threshold)
            kind[has] = numpy.where(
                gold.label[g] == pred.label[p],
                oc.WRONG_BOUNDARIES,
                numpy.where(both, oc.WRONG_TYPE, oc.LOW_OVERLAP),
            )
            return kind

        fp_gold = best_gold[fp]
        fn_pred = best_pred[fn]
        n_fn_with = int((fn_pred >= 0).sum())
        units = units_of(
            [
                (
                    gold.doc[matched],
                    numpy.full(len(matched), oc.TP),
                    numpy.full(len(matched), oc.NOT_AN_ERROR),
                    matched,
                    ones(len(matched)),
                    matched_gold[matched],
                ),
                (
                    pred.doc[fp],
                    numpy.full(len(fp), oc.FP),
                    kinds(fp_gold, fp, gold_shared[fp], oc.SPURIOUS),
                    fp_gold,
                    ones(len(fp)),
                    fp,
                ),
                (
                    gold.doc[fn],
                    numpy.full(len(fn), oc.FN),
                    kinds(fn, fn_pred, pred_shared[fn], oc.MISSED),
                    fn,
                    (fn_pred >= 0).astype(numpy.int64),
                    fn_pred[fn_pred >= 0] if n_fn_with else fn_pred[:0],
                ),
            ]
        )
        return table, units
