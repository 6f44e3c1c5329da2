"""`RelationScorer`: the relation schemes over documents added one at a
time (or a batch at a time), scored a batch at a time on arrays."""

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy

from ..engine.columns import Side
from ..engine.confusion import Confusion
from ..engine.counts import PRFCounts
from ..engine.result import Counts, SchemeResult
from ..engine.scorer import BATCH_SIZE, SpanScorer
from ..settings import UNITS, MatchSettings
from .arguments import matched_arguments
from .errors import RelationError, batch_errors, relation_keys
from .read import RelationBatch, read_relation_docs, symmetric_codes

__all__ = ["RelationScorer", "relation_counts", "span_scheme_of"]


def span_scheme_of(scheme: str) -> str:
    """The span scheme whose pairing a relation scheme's arguments take
    (`rel_strict` -> `strict`)."""
    return scheme[len("rel_") :]


class _Tally:
    """One relation scheme's counts so far: totals, per label, per document."""

    def __init__(self, per_doc: bool) -> None:
        self.totals = numpy.zeros(3, dtype=numpy.int64)
        self.per_label: Dict[str, numpy.ndarray] = {}
        self.rows: Optional[List[numpy.ndarray]] = [] if per_doc else None

    def add(self, labels: List[str], table: numpy.ndarray, rows: Optional[numpy.ndarray]) -> None:
        self.totals += table.sum(axis=0)
        for code, label in enumerate(labels):
            if label in self.per_label:
                self.per_label[label] = self.per_label[label] + table[code]
            else:
                self.per_label[label] = table[code].copy()
        if self.rows is not None and rows is not None:
            self.rows.append(rows)

    def result(self, scheme: str, n_docs: int, labels: Optional[Sequence[str]]) -> SchemeResult:
        names = sorted(self.per_label) if labels is None else list(labels)
        zero = numpy.zeros(3, dtype=numpy.int64)
        per_label: Dict[str, Counts] = {label: PRFCounts(*map(int, self.per_label.get(label, zero))) for label in names}
        per_doc = None
        if self.rows is not None:
            per_doc = numpy.concatenate(self.rows) if self.rows else numpy.zeros((0, 3), dtype=numpy.int64)
        return SchemeResult(
            scheme, PRFCounts(*map(int, self.totals)), per_label, Confusion(), (), per_doc, None, n_docs
        )


def relation_counts(
    batch: RelationBatch, matched: numpy.ndarray, symmetric: numpy.ndarray, correct: Optional[numpy.ndarray] = None
) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """(per relation label (n_labels × 3), per document (n_docs × 3)) [tp,
    fp, fn] of one relation scheme: a predicted relation is correct when its
    head and tail match (`matched`: pred span -> gold span or -1) the head
    and tail of a gold relation of its label (`correct`, when known)."""
    gold, pred = batch.gold, batch.pred
    n_labels = max(len(batch.relation_labels), 1)
    correct = relation_keys(batch, matched, symmetric)[0] if correct is None else correct
    tp = numpy.bincount(pred.label[correct], minlength=n_labels)
    table = numpy.stack(
        [
            tp,
            numpy.bincount(pred.label, minlength=n_labels) - tp,
            numpy.bincount(gold.label, minlength=n_labels) - tp,
        ],
        axis=1,
    )
    n_docs = batch.n_docs
    pred_doc, gold_doc = pred.doc, gold.doc
    tp_doc = numpy.bincount(pred_doc[correct], minlength=n_docs)
    rows = numpy.stack(
        [
            tp_doc,
            numpy.bincount(pred_doc, minlength=n_docs) - tp_doc,
            numpy.bincount(gold_doc, minlength=n_docs) - tp_doc,
        ],
        axis=1,
    )
    return table[: len(batch.relation_labels)], rows


class RelationScorer:
    """Accumulates relation schemes over documents.

    schemes (Sequence[str]): Relation schemes (checked by the caller).
    symmetric (frozenset): Relation labels whose (head, tail) and (tail,
        head) are one relation.
    relation_labels (Optional[Sequence[str]]): Score only these relation
        labels and average macro F over them; None: the labels found.
    overlap_threshold, min_overlap: Of the span schemes' pairing.
    unit (str): Of the spans given as spaCy Spans.
    per_doc (bool): Keep one row of (tp, fp, fn) per document.
    span_scorer (Optional[SpanScorer]): Also given every batch's spans,
        for span schemes reported beside.
    keep_errors (bool): Keep each scheme's errors (`errors`: scheme ->
        RelationErrors, by document).
    """

    def __init__(
        self,
        schemes: Sequence[str],
        *,
        symmetric: frozenset = frozenset(),
        relation_labels: Optional[Sequence[str]] = None,
        overlap_threshold: float = MatchSettings.overlap_threshold,
        min_overlap: Optional[float] = MatchSettings.min_overlap,
        unit: str = UNITS[0],
        per_doc: bool = False,
        span_scorer: Optional[SpanScorer] = None,
        batch_size: int = BATCH_SIZE,
        keep_errors: bool = False,
    ) -> None:
        self.schemes = tuple(schemes)
        self.keep_errors = keep_errors
        self.errors: Dict[str, List[RelationError]] = {name: [] for name in self.schemes}
        self.symmetric = symmetric
        self.relation_labels = None if relation_labels is None else tuple(relation_labels)
        self._wanted = None if relation_labels is None else frozenset(relation_labels)
        self.overlap_threshold = overlap_threshold
        self.min_overlap = min_overlap
        self.unit = unit
        self.span_scorer = span_scorer
        self.batch_size = batch_size
        self.n_docs = 0
        self._arguments = list(dict.fromkeys(span_scheme_of(name) for name in self.schemes))
        self._tallies = {name: _Tally(per_doc) for name in self.schemes}
        self._gold: List[Any] = []
        self._pred: List[Any] = []

    def add(self, gold: Any, pred: Any) -> None:
        """One document of each side (see `evaluate_relations`)."""
        self._gold.append(gold)
        self._pred.append(pred)
        if len(self._gold) >= self.batch_size:
            self.flush()

    def flush(self) -> None:
        """Score the documents added since the last batch."""
        if not self._gold:
            return
        gold, pred = self._gold, self._pred
        self._gold, self._pred = [], []
        self.add_many(gold, pred)

    def add_many(self, gold_docs: Sequence[Any], pred_docs: Sequence[Any]) -> None:
        """Score a batch of documents (the same number on both sides)."""
        self.flush()
        batch = read_relation_docs(gold_docs, pred_docs, self.unit, self.n_docs, self.symmetric, self._wanted)
        self.n_docs += batch.n_docs
        gold_spans, pred_spans = batch.gold.spans, batch.pred.spans
        if self.span_scorer is not None:
            codes = self.span_scorer.label_ids(batch.span_labels)
            self.span_scorer.add_sides(_recoded(gold_spans, codes), _recoded(pred_spans, codes), batch.n_docs)
        matched = matched_arguments(
            gold_spans,
            pred_spans,
            batch.n_docs,
            len(batch.span_labels),
            self._arguments,
            self.min_overlap,
            self.overlap_threshold,
        )
        flags = symmetric_codes({label: code for code, label in enumerate(batch.relation_labels)}, self.symmetric)
        for name in self.schemes:
            argument = matched[span_scheme_of(name)]
            correct = None
            if self.keep_errors:
                correct, found, _ = relation_keys(batch, argument, flags)
                texts = [
                    doc.get("text") if isinstance(doc, dict) and self.unit == "char" else None for doc in gold_docs
                ]
                self.errors[name].extend(
                    batch_errors(batch, argument, correct, found, self.n_docs - batch.n_docs, texts)
                )
            table, rows = relation_counts(batch, argument, flags, correct)
            self._tallies[name].add(batch.relation_labels, table, rows)

    def results(self) -> Dict[str, SchemeResult]:
        """RETURNS (Dict[str, SchemeResult]): relation scheme -> result."""
        self.flush()
        return {name: self._tallies[name].result(name, self.n_docs, self.relation_labels) for name in self.schemes}


def _recoded(side: Side, codes: numpy.ndarray) -> Side:
    """The side with its label codes as the span scorer numbers them."""
    label = codes[side.label] if len(side.label) else side.label
    return Side(side.doc, side.start, side.end, label)
