"""`nel`: spaCy's `Scorer.score_links`, on a batch's arrays.

spaCy judges only the predictions with the boundaries of a gold entity
(to score the linker apart from the recognizer), each under the label of
that gold entity, comparing the two ids as strings (`""` and `NIL0042`
are ids like any other; only `negative_labels`, `["NIL"]` for spaCy's
`EntityLinker`, mean no link):

- both ids negative: not counted (the label is listed all the same);
- the same id: TP;
- the gold id negative: FP; the predicted id negative: FN;
- two different ids: FP and FN.

When several gold spans have the same offsets (which `doc.ents` cannot
hold), the last of them in (start, end, label, kb id) order judges, as
spaCy's dict of gold entities by offsets keeps the last. Labels are listed
in the order spaCy meets them (by document, then prediction), which is
the order its macro averages add them up in: `nel_scores` gives spaCy's
keys from the result, bit for bit (`evaluate.score_links`: of spaCy Examples).
"""

from typing import Any, Dict, Iterable, List, Tuple

import numpy

from ..engine.result import SchemeResult
from . import tagging
from .spans import LinkTable

__all__ = ["NEGATIVE_LABELS", "nel_counts", "nel_scores"]

#: spaCy's `EntityLinker.NIL`, the negative label its scorer is given.
NEGATIVE_LABELS: Tuple[str, ...] = ("NIL",)


def nel_counts(
    table: LinkTable, negative_labels: Iterable[str]
) -> Tuple[List[Tuple[str, numpy.ndarray]], numpy.ndarray]:
    """([(label, [tp, fp, fn])] in the order spaCy meets the labels, per
    document (n_docs × 3)) of `nel` over a batch."""
    gold, pred = table.gold, table.pred
    n_docs = table.n_docs
    rows = numpy.zeros((n_docs, 3), dtype=numpy.int64)
    if not len(gold.doc) or not len(pred.doc):
        return [], rows
    # the place of each span: (doc, start, end) on one line, gold's last per place
    width = int(max(gold.end.max(), pred.end.max())) + 1
    if n_docs * width * width < tagging.KEY_LIMIT:
        g_place = (gold.doc * width + gold.start) * width + gold.end
        p_place = (pred.doc * width + pred.start) * width + pred.end
    else:
        places = numpy.unique(
            numpy.stack(
                [numpy.r_[gold.doc, pred.doc], numpy.r_[gold.start, pred.start], numpy.r_[gold.end, pred.end]], axis=1
            ),
            axis=0,
            return_inverse=True,
        )[1]
        places = places.reshape(-1)
        g_place, p_place = places[: len(gold.doc)], places[len(gold.doc) :]
    last = numpy.r_[g_place[1:] != g_place[:-1], True]  # gold is sorted by place
    g_place, g_row = g_place[last], numpy.flatnonzero(last)
    at = numpy.searchsorted(g_place, p_place)
    at[at == len(g_place)] = 0
    judged = g_place[at] == p_place if len(g_place) else numpy.zeros(len(p_place), dtype=bool)
    g_row = g_row[at[judged]]
    p_row = numpy.flatnonzero(judged)
    negative = set(negative_labels)
    neg = numpy.fromiter((kb in negative for kb in table.kb_ids), dtype=bool, count=len(table.kb_ids))
    g_kb, p_kb = gold.kb[g_row], pred.kb[p_row]
    g_neg, p_neg = neg[g_kb], neg[p_kb]
    counted = ~(g_neg & p_neg)
    same = counted & (g_kb == p_kb)
    fp = counted & ~same & ~p_neg
    fn = counted & ~same & ~g_neg
    label = gold.label[g_row]
    doc = pred.doc[p_row]
    for column, hits in enumerate((same, fp, fn)):
        rows[:, column] = numpy.bincount(doc[hits], minlength=n_docs)
    if not len(label):
        return [], rows
    n_labels = len(table.labels)
    per_label = numpy.stack([numpy.bincount(label[c], minlength=n_labels) for c in (same, fp, fn)], axis=1)
    # the labels in the order of their first judged prediction
    order = numpy.argsort(label.astype(numpy.int32 if n_labels < 2**31 else numpy.int64), kind="stable")
    ordered = label[order]
    starts = numpy.flatnonzero(numpy.r_[True, ordered[1:] != ordered[:-1]])
    met = ordered[starts][numpy.argsort(order[starts])].tolist()
    return [(table.labels[code], per_label[code]) for code in met], rows


def nel_scores(result: Any) -> Dict[str, Any]:
    """spaCy's `Scorer.score_links` keys from the SchemeResult of `nel`,
    bit for bit: nel_score, nel_score_desc, nel_micro_p/r/f, nel_macro_p/r/f
    (over every label listed, as spaCy averages them) and nel_f_per_type.

    result (SchemeResult): `evaluate_links(..., schemes=["nel"])["nel"]`.
    RETURNS (Dict[str, Any]): The keys and values `score_links` gives.
    """
    if not isinstance(result, SchemeResult) or result.scheme != "nel":
        raise ValueError(f"nel_scores takes the result of the 'nel' scheme, not {result!r}")
    per_type = result.per_label
    micro = _PRF(result.totals)
    n_labels = len(per_type) + 1e-100
    scores = [_PRF(c) for c in per_type.values()]
    macro_p: float = sum([s.precision for s in scores], 0) / n_labels
    macro_r: float = sum([s.recall for s in scores], 0) / n_labels
    macro_f: float = sum([s.fscore for s in scores], 0) / n_labels
    return {
        "nel_score": micro.fscore,
        "nel_score_desc": "micro F",
        "nel_micro_p": micro.precision,
        "nel_micro_r": micro.recall,
        "nel_micro_f": micro.fscore,
        "nel_macro_p": macro_p,
        "nel_macro_r": macro_r,
        "nel_macro_f": macro_f,
        "nel_f_per_type": {
            label: {"p": _PRF(c).precision, "r": _PRF(c).recall, "f": _PRF(c).fscore} for label, c in per_type.items()
        },
    }


class _PRF:
    """spaCy's `PRFScore` ratios, in its order of operations."""

    def __init__(self, counts: Any) -> None:
        self.tp, self.fp, self.fn = counts.tp, counts.fp, counts.fn

    @property
    def precision(self) -> float:
        return self.tp / (self.tp + self.fp + 1e-100)

    @property
    def recall(self) -> float:
        return self.tp / (self.tp + self.fn + 1e-100)

    @property
    def fscore(self) -> float:
        p, r = self.precision, self.recall
        return 2 * ((p * r) / (p + r + 1e-100))
