"""What happened to each span: the outcome table every scheme produces.

Every gold span and every predicted unit (a prediction; for `iou`, a group
of same-label predictions over one gold span) ends up as one outcome: the
count it adds to (COR, INC, PAR, MIS, SPU for the SemEval schemes; TP, FP,
FN for `iou` and `overlap`) and, when it is an error, its kind. Per-document
counts, error lists and span breakdowns are all read off this table.

Error kinds, one taxonomy for every scheme, each made by the scheme's own
rule ("boundaries good enough" is the scheme's: identical for `strict`,
overlapping for `type`, IoU >= threshold for `iou`, coverage both ways for
`overlap`):

- `missed`: a gold span that no prediction overlaps.
- `spurious`: a prediction counted against no gold span.
- `wrong_type`: another label; the boundaries are good enough.
- `wrong_boundaries`: the gold span's label (or a scheme that ignores
  labels); the boundaries are not good enough.
- `low_overlap`: another label, and the boundaries are not good enough.
"""

from typing import List, NamedTuple, Optional, Sequence, Tuple, cast

import numpy

from ..spans import Span, shared_positions, span_fragments, span_size, union_fragments

#: Every error kind, in the order reports list them.
ERROR_KINDS: Tuple[str, ...] = ("missed", "spurious", "wrong_type", "wrong_boundaries", "low_overlap")
MISSED, SPURIOUS, WRONG_TYPE, WRONG_BOUNDARIES, LOW_OVERLAP = range(5)
NOT_AN_ERROR = -1

#: The counts of each family, in the order of their count records' fields.
SEMEVAL_COUNTS: Tuple[str, ...] = ("cor", "inc", "par", "mis", "spu")
PRF_COUNTS: Tuple[str, ...] = ("tp", "fp", "fn")
COR, INC, PAR, MIS, SPU = range(5)
TP, FP, FN = range(3)


class SpanError(NamedTuple):
    """One error of a scheme.

    doc: index of the document. kind: one of ERROR_KINDS. gold: the gold
    span, or None. pred: the predicted span(s) of the unit (empty for a
    missed gold span). iou: combined IoU of gold and predictions (0.0 when
    one side is missing). count: the count the error adds to ("inc", "par",
    "mis", "spu"; "fp", "fn"). gold_coverage, pred_coverage: the share of
    the gold span, and of the predictions, that the other side covers.
    """

    doc: int
    kind: str
    gold: Optional[Span]
    pred: Tuple[Span, ...]
    iou: float
    count: str = ""  # type: ignore[assignment]  # a field named as tuple.count, which it shadows
    gold_coverage: float = 0.0
    pred_coverage: float = 0.0


class SpanOutcome(NamedTuple):
    """One gold span or predicted unit and what it counted as.

    count: the name of the count it adds to. kind: its error kind, or None
    (a match; or, under `iou`, a missed gold span whose predictions are
    listed as their own error).
    """

    doc: int
    count: str  # type: ignore[assignment]  # a field named as tuple.count, which it shadows
    kind: Optional[str]
    gold: Optional[Span]
    pred: Tuple[Span, ...]


def _covered(intervals: List[Tuple[int, int]]) -> int:
    """Positions covered by intervals sorted by start."""
    total = 0
    cur_start, cur_end = intervals[0]
    for start, end in intervals[1:]:
        if start >= cur_end:
            total += cur_end - cur_start
            cur_start, cur_end = start, end
        elif end > cur_end:
            cur_end = end
    return total + cur_end - cur_start


def overlap_measures(gold: Optional[Span], pred: Sequence[Span]) -> Tuple[float, float, float]:
    """(combined IoU, gold coverage, prediction coverage) of a gold span and
    predictions sorted by start; zeros when a side is missing."""
    if gold is None or not pred:
        return 0.0, 0.0, 0.0
    if len(gold) > 3 or any(len(p) > 3 for p in pred):  # spans of several fragments
        return positions_measures(gold, pred)
    clipped = [(max(gold[0], p[0]), min(gold[1], p[1])) for p in pred]
    clipped = [(a, b) for a, b in clipped if a < b]
    inter = _covered(clipped) if clipped else 0
    union_pred = _covered([(p[0], p[1]) for p in pred])
    gold_len = gold[1] - gold[0]
    return inter / (gold_len + union_pred - inter), inter / gold_len, inter / union_pred


def positions_measures(gold: Optional[Span], pred: Sequence[Span]) -> Tuple[float, float, float]:
    """(combined IoU, gold coverage, prediction coverage) over positions,
    as `outcomes.overlap_measures` gives them for contiguous spans."""
    if gold is None or not pred:
        return 0.0, 0.0, 0.0
    union = union_fragments(pred)
    inter = shared_positions(span_fragments(gold), union)
    gold_size = span_size(gold)
    union_size = sum(end - start for start, end in union)
    return inter / (gold_size + union_size - inter), inter / gold_size, inter / union_size


def error_from_outcome(outcome: SpanOutcome) -> SpanError:
    """The SpanError of an outcome that is an error (its kind is set)."""
    iou, gold_cover, pred_cover = overlap_measures(outcome.gold, outcome.pred)
    return SpanError(
        outcome.doc,
        cast(str, outcome.kind),
        outcome.gold,
        outcome.pred,
        iou,
        outcome.count,
        gold_cover,
        pred_cover,
    )


class OutcomeBlock:
    """The outcomes of a batch of documents on compact arrays (picklable).

    doc, code, kind: one entry per outcome (code indexes `count_names`,
    kind ERROR_KINDS or NOT_AN_ERROR). gold: (start, end, label id) rows,
    label -1 for none. pred_ptr: outcome i has the predictions
    pred[pred_ptr[i]:pred_ptr[i + 1]] ((start, end, label id) rows).
    """

    __slots__ = ("count_names", "labels", "doc", "code", "kind", "gold", "pred_ptr", "pred")

    def __init__(self, count_names, labels, doc, code, kind, gold, pred_ptr, pred):
        self.count_names = count_names
        self.labels = tuple(labels)
        self.doc = doc.astype(numpy.int64)
        self.code = code.astype(numpy.int8)
        self.kind = kind.astype(numpy.int8)
        self.gold = gold.astype(numpy.int32)
        self.pred_ptr = pred_ptr.astype(numpy.int64)
        self.pred = pred.astype(numpy.int32)

    def __getstate__(self):
        return {name: getattr(self, name) for name in self.__slots__}

    def __setstate__(self, state):
        for name, value in state.items():
            setattr(self, name, value)

    def __len__(self) -> int:
        return len(self.doc)

    def select(self, keep: numpy.ndarray) -> "OutcomeBlock":
        """The outcomes where keep is True."""
        index = numpy.flatnonzero(keep)
        sizes = numpy.diff(self.pred_ptr)[index]
        starts = self.pred_ptr[:-1][index]
        flat = numpy.repeat(starts - (numpy.cumsum(sizes) - sizes), sizes) + numpy.arange(int(sizes.sum()))
        return OutcomeBlock(
            self.count_names,
            self.labels,
            self.doc[index],
            self.code[index],
            self.kind[index],
            self.gold[index],
            numpy.r_[0, numpy.cumsum(sizes)],
            self.pred[flat],
        )

    def outcomes(self, offset: int = 0) -> List[SpanOutcome]:
        """The outcomes as SpanOutcome, their documents counted from offset."""
        labels, names = self.labels, self.count_names
        gold = [None if label < 0 else Span(start, end, labels[label]) for start, end, label in self.gold.tolist()]
        pred = [Span(start, end, labels[label]) for start, end, label in self.pred.tolist()]
        ptr = self.pred_ptr.tolist()
        return [
            SpanOutcome(doc, names[code], None if kind < 0 else ERROR_KINDS[kind], g, tuple(pred[ptr[i] : ptr[i + 1]]))
            for i, (doc, code, kind, g) in enumerate(
                zip((self.doc + offset).tolist(), self.code.tolist(), self.kind.tolist(), gold)
            )
        ]

    def errors(self, offset: int = 0) -> List[SpanError]:
        """The errors among the outcomes as SpanError (`error_from_outcome`
        of each, the same values), their documents counted from offset, in
        the block's order. The measures of a gold span and a single
        prediction are computed on the arrays at once."""
        if (self.kind < 0).any():
            return self.select(self.kind >= 0).errors(offset)
        labels, names = self.labels, self.count_names
        sizes = numpy.diff(self.pred_ptr)
        gold = self.gold.astype(numpy.int64)
        has_gold = gold[:, 2] >= 0
        single = sizes == 1
        first = (
            self.pred[numpy.minimum(self.pred_ptr[:-1], max(len(self.pred) - 1, 0))].astype(numpy.int64)
            if len(self.pred)
            else numpy.zeros((len(sizes), 3), dtype=numpy.int64)
        )
        both = has_gold & single
        inter = numpy.maximum(numpy.minimum(gold[:, 1], first[:, 1]) - numpy.maximum(gold[:, 0], first[:, 0]), 0)
        gold_len = numpy.where(both, gold[:, 1] - gold[:, 0], 1)
        pred_len = numpy.where(both, first[:, 1] - first[:, 0], 1)
        inter = numpy.where(both, inter, 0)
        iou = (inter / (gold_len + pred_len - inter)).tolist()
        gold_cover = (inter / gold_len).tolist()
        pred_cover = (inter / pred_len).tolist()
        gold_spans = [
            None if label < 0 else Span(start, end, labels[label]) for start, end, label in self.gold.tolist()
        ]
        pred = [Span(start, end, labels[label]) for start, end, label in self.pred.tolist()]
        ptr = self.pred_ptr.tolist()
        found = []
        for i, (doc, code, kind, g, alone) in enumerate(
            zip(
                (self.doc + offset).tolist(),
                self.code.tolist(),
                self.kind.tolist(),
                gold_spans,
                (has_gold & (sizes > 1)).tolist(),
            )
        ):
            preds = tuple(pred[ptr[i] : ptr[i + 1]])
            if alone:  # a gold span and several predictions: measured on their own
                measures = overlap_measures(g, preds)
            else:
                measures = iou[i], gold_cover[i], pred_cover[i]
            found.append(
                SpanError(doc, ERROR_KINDS[kind], g, preds, measures[0], names[code], measures[1], measures[2])
            )
        return found


def outcome_order(outcome) -> tuple:
    """Outcomes and errors listed by document, then by where they are."""
    anchor = outcome.gold if outcome.gold is not None else outcome.pred[0]
    return (outcome.doc, anchor, outcome.gold is None, outcome.pred)


def per_doc_rows(doc: numpy.ndarray, code: numpy.ndarray, n_docs: int, n_counts: int) -> numpy.ndarray:
    """(n_docs × n_counts) counts of the outcomes of each document."""
    flat = numpy.bincount(doc * n_counts + code, minlength=n_docs * n_counts)
    return flat.reshape(n_docs, n_counts).astype(numpy.int64)
