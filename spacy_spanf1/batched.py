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
from typing import Callable, Dict, List, NamedTuple, Tuple

import numpy

from .matching import SEMEVAL_RULES, SemEvalRule, SpanError
from .spans import Span

COR, INC, PAR = 1, 2, 3


class Side(NamedTuple):
    """The spans of one side of a batch, sorted by (doc, start, end)."""

    doc: numpy.ndarray
    start: numpy.ndarray
    end: numpy.ndarray
    label: numpy.ndarray


def overlapping_docs(side: Side, n_docs: int) -> numpy.ndarray:
    """Boolean mask of the documents in which two spans of `side` overlap."""
    same_doc = side.doc[1:] == side.doc[:-1]
    clash = same_doc & (side.start[1:] < side.end[:-1])
    mask = numpy.zeros(n_docs, dtype=bool)
    mask[side.doc[1:][clash]] = True
    return mask


class Batch:
    """The overlap pairs of a batch and what every scheme needs from them.

    gold, pred: Sides in which no two spans of one document overlap.
    """

    def __init__(self, gold: Side, pred: Side, n_docs: int, n_labels: int) -> None:
        self.gold, self.pred, self.n_labels = gold, pred, n_labels
        self.n_gold, self.n_pred = len(gold.start), len(pred.start)
        width = numpy.zeros(n_docs, dtype=numpy.int64)
        numpy.maximum.at(width, gold.doc, gold.end)
        numpy.maximum.at(width, pred.doc, pred.end)
        base = numpy.cumsum(width + 1) - (width + 1)
        g_start = gold.start + base[gold.doc]
        g_end = gold.end + base[gold.doc]
        p_start = pred.start + base[pred.doc]
        p_end = pred.end + base[pred.doc]
        lo = numpy.searchsorted(g_end, p_start, side="right")
        hi = numpy.searchsorted(g_start, p_end, side="left")
        n = numpy.maximum(hi - lo, 0)
        total = int(n.sum())
        self.pp = numpy.repeat(numpy.arange(self.n_pred), n)
        first = numpy.cumsum(n) - n
        self.pg = numpy.repeat(lo, n) + numpy.arange(total) - numpy.repeat(first, n)
        self.shared = numpy.minimum(g_end[self.pg], p_end[self.pp]) - numpy.maximum(
            g_start[self.pg], p_start[self.pp]
        )
        self.g_len = gold.end - gold.start
        self.p_len = pred.end - pred.start
        self.same_label = gold.label[self.pg] == pred.label[self.pp]
        self.same_bounds = (gold.start[self.pg] == pred.start[self.pp]) & (
            gold.end[self.pg] == pred.end[self.pp]
        )

    def label_counts(self, labels: numpy.ndarray) -> numpy.ndarray:
        return numpy.bincount(labels, minlength=self.n_labels)

    # SemEval ------------------------------------------------------------

    def semeval(self, rule: SemEvalRule, min_overlap, per_label: bool):
        """(pred outcome: 0 spurious / COR / INC / PAR, gold matched) for the
        whole batch, on all pairs or (per_label) on same-label pairs only."""
        keep = self.same_label if per_label else numpy.ones(len(self.pp), dtype=bool)
        exact = self.same_bounds & keep
        if rule.same_label:
            exact &= self.same_label
        outcome = numpy.zeros(self.n_pred, dtype=numpy.int8)
        matched = numpy.zeros(self.n_gold, dtype=bool)
        outcome[self.pp[exact]] = COR
        matched[self.pg[exact]] = True
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
        chained = ~alone
        if chained.any():
            self._walk_chains(rule, pg[chained], pp[chained], outcome, matched)
        return outcome, matched

    def _walk_chains(self, rule, pg, pp, outcome, matched) -> None:
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
                    distance = abs(int(p_start[pi]) - int(g_start[gi])) + abs(
                        int(p_end[pi]) - int(g_end[gi])
                    )
                    if closest is None or distance < closest_distance:
                        closest, closest_distance = gi, distance
                elif first is None:
                    first = gi
            if closest is not None:
                matched[closest] = True
                outcome[pi] = COR
            elif first is not None:
                matched[first] = True
                outcome[pi] = leftover

    def semeval_counts(self, scheme: str, min_overlap) -> Tuple[List[int], numpy.ndarray]:
        """Overall [cor, inc, par, mis, spu] and per label (n_labels × 5)."""
        rule = SEMEVAL_RULES[scheme]
        outcome, matched = self.semeval(rule, min_overlap, per_label=False)
        kinds = numpy.bincount(outcome, minlength=4)
        total = [int(kinds[COR]), int(kinds[INC]), int(kinds[PAR]),
                 int(self.n_gold - matched.sum()), int(kinds[0])]
        outcome, matched = self.semeval(rule, min_overlap, per_label=True)
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
        return total, table

    # iou ----------------------------------------------------------------

    def iou(self, threshold: float, labels: List[str], doc_offset: int):
        """Per label [tp, fp, fn] (n_labels × 3), confusion, and a function
        that lists the errors."""
        n_labels = self.n_labels
        p_label, g_label = self.pred.label, self.gold.label
        key = self.pg * n_labels + p_label[self.pp]
        order = numpy.argsort(key, kind="stable")
        key_sorted = key[order]
        starts = numpy.flatnonzero(numpy.r_[True, key_sorted[1:] != key_sorted[:-1]]) if len(key) else numpy.zeros(0, dtype=numpy.int64)
        group_key = key_sorted[starts]
        group_gold = group_key // n_labels
        group_label = group_key % n_labels
        inter = numpy.add.reduceat(self.shared[order], starts) if len(starts) else numpy.zeros(0, dtype=numpy.int64)
        pred_len = numpy.add.reduceat(self.p_len[self.pp[order]], starts) if len(starts) else numpy.zeros(0, dtype=numpy.int64)
        iou = inter / (self.g_len[group_gold] + pred_len - inter)
        same = group_label == g_label[group_gold]
        reached = iou >= threshold
        tp_group = same & reached
        wrong_type = ~same & reached
        fp_group = ~tp_group
        gold_tp = numpy.zeros(self.n_gold, dtype=bool)
        gold_tp[group_gold[tp_group]] = True
        gold_wrong_type = numpy.zeros(self.n_gold, dtype=bool)
        gold_wrong_type[group_gold[wrong_type]] = True
        spurious = numpy.bincount(self.pp, minlength=self.n_pred) == 0
        table = numpy.stack(
            [
                self.label_counts(group_label[tp_group]),
                self.label_counts(group_label[fp_group]) + self.label_counts(p_label[spurious]),
                self.label_counts(g_label[~gold_tp]),
            ],
            axis=1,
        )
        confusion: Dict[Tuple[str, str], int] = {}

        def add_pairs(gold_ids, pred_ids):
            if len(gold_ids) == 0:
                return
            codes, counts = numpy.unique(gold_ids * (n_labels + 1) + pred_ids, return_counts=True)
            for code, count in zip(codes.tolist(), counts.tolist()):
                g, p = divmod(code, n_labels + 1)
                name = (labels[g] if g < n_labels else "O", labels[p] if p < n_labels else "O")
                confusion[name] = confusion.get(name, 0) + count

        outside = numpy.full(1, n_labels)
        add_pairs(group_label[tp_group], group_label[tp_group])
        add_pairs(g_label[group_gold[wrong_type]], group_label[wrong_type])
        other_fp = fp_group & ~wrong_type
        add_pairs(numpy.repeat(outside, other_fp.sum()), group_label[other_fp])
        add_pairs(numpy.repeat(outside, spurious.sum()), p_label[spurious])
        fn_plain = ~gold_tp & ~gold_wrong_type
        add_pairs(g_label[fn_plain], numpy.repeat(outside, fn_plain.sum()))

        errors = self._iou_errors(
            labels, doc_offset, order, starts, group_gold, fp_group, wrong_type, iou,
            ~gold_tp, spurious,
        )
        return table, confusion, errors

    def _iou_errors(self, labels, doc_offset, order, starts, group_gold, fp_group,
                    wrong_type, iou, gold_fn, spurious) -> Callable[[], List[SpanError]]:
        """A function that lists the errors. It keeps only the error spans
        (compact arrays), not the batch, so a long stream of documents holds
        little more than its errors."""
        has_group = numpy.zeros(self.n_gold, dtype=bool)
        has_group[group_gold] = True
        missed = _rows(self.gold, numpy.flatnonzero(gold_fn & ~has_group))
        fp_groups = numpy.flatnonzero(fp_group)
        ends = numpy.r_[starts[1:], len(order)]
        sizes = (ends - starts)[fp_groups]
        first = numpy.repeat(starts[fp_groups], sizes)
        within = numpy.arange(int(sizes.sum())) - numpy.repeat(numpy.cumsum(sizes) - sizes, sizes)
        members = _rows(self.pred, self.pp[order[first + within]])
        group_gold_rows = _rows(self.gold, group_gold[fp_groups])
        kinds = wrong_type[fp_groups].tolist()
        group_iou = iou[fp_groups].tolist()
        spurious_rows = _rows(self.pred, numpy.flatnonzero(spurious))
        sizes = sizes.tolist()

        def errors() -> List[SpanError]:
            def spans(rows):
                docs, starts, ends, label_ids = (c.tolist() for c in rows)
                return docs, [Span(s, e, labels[i]) for s, e, i in zip(starts, ends, label_ids)]

            out = []
            docs, gold = spans(missed)
            out.extend(SpanError(d + doc_offset, "missed", g, (), 0.0) for d, g in zip(docs, gold))
            docs, gold = spans(group_gold_rows)
            _, pred = spans(members)
            at = 0
            for d, g, wrong, value, size in zip(docs, gold, kinds, group_iou, sizes):
                kind = "wrong_type" if wrong else "low_overlap"
                out.append(SpanError(d + doc_offset, kind, g, tuple(pred[at:at + size]), value))
                at += size
            docs, pred = spans(spurious_rows)
            out.extend(SpanError(d + doc_offset, "spurious", None, (p,), 0.0) for d, p in zip(docs, pred))
            return out

        return errors

    # overlap ------------------------------------------------------------

    def overlap(self, threshold: float) -> numpy.ndarray:
        """Per label [tp, fp, fn] (n_labels × 3)."""
        gold_cover = self.shared / self.g_len[self.pg]
        pred_cover = self.shared / self.p_len[self.pp]
        cand = self.same_label & (gold_cover >= threshold) & (pred_cover >= threshold)
        pg, pp = self.pg[cand], self.pp[cand]
        deg_p = numpy.bincount(pp, minlength=self.n_pred)
        deg_g = numpy.bincount(pg, minlength=self.n_gold)
        alone = (deg_p[pp] == 1) & (deg_g[pg] == 1)
        matched_gold = numpy.zeros(self.n_gold, dtype=bool)
        matched_gold[pg[alone]] = True
        if not alone.all():
            chained = ~alone
            items = sorted(zip(
                (-gold_cover[cand][chained]).tolist(), (-pred_cover[cand][chained]).tolist(),
                pg[chained].tolist(), pp[chained].tolist(),
            ))
            used_pred = set()
            for _, _, gi, pi in items:
                if matched_gold[gi] or pi in used_pred:
                    continue
                matched_gold[gi] = True
                used_pred.add(pi)
        tp = self.label_counts(self.gold.label[matched_gold])
        return numpy.stack(
            [tp, self.label_counts(self.pred.label) - tp, self.label_counts(self.gold.label) - tp],
            axis=1,
        )


def _rows(side: Side, index: numpy.ndarray) -> Tuple[numpy.ndarray, ...]:
    """The spans of side at index, as compact int32 columns."""
    return tuple(column[index].astype(numpy.int32) for column in side)
