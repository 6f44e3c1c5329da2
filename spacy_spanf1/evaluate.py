"""The one loop over documents: every scheme scored in a single pass."""
from collections import defaultdict
from dataclasses import dataclass, field
from functools import cached_property
from itertools import chain, islice
from operator import itemgetter

import numpy
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from .counts import PRFCounts, SemEvalCounts
from .errors import check_fraction, check_labels, check_schemes, check_unit
from .matching import (
    SEMEVAL_RULES,
    SpanError,
    find_overlaps,
    iou_document,
    overlap_document,
    semeval_counts,
)
from .batched import Batch, Side, overlapping_docs
from .metrics import mean
from .spans import Span, read_doc_spans

Counts = Union[SemEvalCounts, PRFCounts]


@dataclass(frozen=True)
class SchemeResult:
    """The score of one scheme over a corpus (or a part of one).

    totals: the pooled counts. per_label: counts of each label's spans
    alone. confusion and errors: only for `iou`. Results of the same scheme
    add up (`a + b`), so a corpus can be scored in parts (the errors keep
    the document indices of their part).

    error_parts: lists of errors, or functions that make them: the errors
    are built when first read, so scoring pays nothing for them.
    """

    scheme: str
    totals: Counts
    per_label: Dict[str, Counts] = field(default_factory=dict)
    confusion: Dict[Tuple[str, str], int] = field(default_factory=dict)
    error_parts: Tuple[Any, ...] = field(default=(), repr=False, compare=False)

    @cached_property
    def errors(self) -> Tuple[SpanError, ...]:
        """The errors of `iou`, by document, then by position."""
        errors: List[SpanError] = []
        for part in self.error_parts:
            errors.extend(part() if callable(part) else part)
        return tuple(sorted(errors, key=_error_order))

    @property
    def precision(self) -> float:
        return self.totals.precision

    @property
    def recall(self) -> float:
        return self.totals.recall

    @property
    def f1(self) -> float:
        return self.totals.f1

    @property
    def macro_f1(self) -> float:
        """Mean F1 over the labels present in gold or prediction."""
        return mean(c.f1 for c in self.per_label.values() if not c.is_empty)

    @property
    def counts(self) -> Dict[str, int]:
        return self.totals.to_dict()

    @property
    def per_type(self) -> Dict[str, Counts]:
        """label -> counts, with .precision, .recall and .f1."""
        return dict(sorted(self.per_label.items()))

    def __add__(self, other: "SchemeResult") -> "SchemeResult":
        if not isinstance(other, SchemeResult) or other.scheme != self.scheme:
            return NotImplemented
        per_label = dict(self.per_label)
        for label, counts in other.per_label.items():
            per_label[label] = per_label[label] + counts if label in per_label else counts
        confusion = dict(self.confusion)
        for key, n in other.confusion.items():
            confusion[key] = confusion.get(key, 0) + n
        return SchemeResult(
            self.scheme,
            self.totals + other.totals,
            per_label,
            confusion,
            self.error_parts + other.error_parts,
        )

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): p, r, f, macro_f, counts and per_type
        (label -> {"p", "r", "f"}), as the command line writes them."""
        return {
            "p": self.precision,
            "r": self.recall,
            "f": self.f1,
            "macro_f": self.macro_f1,
            "counts": self.counts,
            "per_type": {
                label: {"p": c.precision, "r": c.recall, "f": c.f1}
                for label, c in self.per_type.items()
            },
        }


class SpanScorer:
    """Accumulates every requested scheme over documents.

    Documents are buffered and scored a batch at a time on flat arrays
    (`batched.py`); a document in which spans of one side overlap each
    other (a span group, or the same span twice) is scored on its own by
    `matching.py`. Both give the same counts.

    schemes (Sequence[str]): The schemes to compute (required).
    iou_threshold (float): Combined IoU a gold span needs for `iou`, in (0, 1].
    overlap_threshold (float): Coverage both ways for `overlap`, in (0, 1].
    min_overlap (Optional[float]): Share of a gold span a prediction must
        cover to count as overlapping it in the SemEval schemes; None: any.
    labels (Optional[Iterable[str]]): Score only spans with these labels.
    batch_size (int): Documents scored together.
    batched (bool): False scores every document on its own with
        `matching.py` (the reference the batched path is tested against).
    """

    def __init__(
        self,
        schemes: Sequence[str],
        *,
        iou_threshold: float = 0.5,
        overlap_threshold: float = 0.5,
        min_overlap: Optional[float] = None,
        labels: Optional[Iterable[str]] = None,
        batch_size: int = 4096,
        batched: bool = True,
    ) -> None:
        self.schemes = check_schemes(schemes)
        self.iou_threshold = check_fraction("iou_threshold", iou_threshold)
        self.overlap_threshold = check_fraction("overlap_threshold", overlap_threshold)
        self.min_overlap = check_fraction("min_overlap", min_overlap, optional=True)
        self.labels = check_labels(labels)
        self.batch_size = batch_size
        self.batched = batched
        self.n_docs = 0
        self._semeval = [s for s in self.schemes if s in SEMEVAL_RULES]
        self._semeval_totals = {s: [0, 0, 0, 0, 0] for s in self._semeval}
        self._tallies: Dict[str, Dict[str, List[int]]] = {
            s: defaultdict(lambda: [0, 0, 0]) if s in ("iou", "overlap") else
            defaultdict(lambda: [0, 0, 0, 0, 0])
            for s in self.schemes
        }
        self._confusion: Dict[Tuple[str, str], int] = {}
        self._errors: List[Any] = []  # error lists, or functions that make them
        self._label_ids: Dict[str, int] = {}
        self._gold_buffer: List[Sequence[Span]] = []
        self._pred_buffer: List[Sequence[Span]] = []

    def add(self, gold: Sequence[Span], pred: Sequence[Span]) -> None:
        """Score one document. Both lists hold Span tuples sorted by
        (start, end, label); identical spans in a list count as often as
        they occur."""
        self._gold_buffer.append(gold)
        self._pred_buffer.append(pred)
        if len(self._gold_buffer) >= self.batch_size:
            self.flush()

    def flush(self) -> None:
        """Score the buffered documents."""
        gold_docs, pred_docs = self._gold_buffer, self._pred_buffer
        if not gold_docs:
            return
        self._gold_buffer, self._pred_buffer = [], []
        self._score(
            self._side(gold_docs), self._side(pred_docs), len(gold_docs),
            lambda doc: (gold_docs[doc], pred_docs[doc]),
        )

    def add_many(self, gold_docs: Sequence[Any], pred_docs: Sequence[Any]) -> None:
        """Score documents given as the user gave them: lists of (start, end,
        label) tuples or {"start", "end", "label"} dicts, in any order, with
        identical spans counted once. Bad spans raise a ValueError naming
        the document and span."""
        self.flush()
        offset = self.n_docs
        gold = self._plain_side(gold_docs)
        pred = self._plain_side(pred_docs)
        if gold is None or pred is None:
            gold_docs = [read_doc_spans(d, "gold", offset + i) for i, d in enumerate(gold_docs)]
            pred_docs = [read_doc_spans(d, "pred", offset + i) for i, d in enumerate(pred_docs)]
            gold, pred = self._side(gold_docs), self._side(pred_docs)
            spans_of = lambda doc: (gold_docs[doc], pred_docs[doc])  # noqa: E731
        else:
            spans_of = lambda doc: (  # noqa: E731
                read_doc_spans(gold_docs[doc], "gold", offset + doc),
                read_doc_spans(pred_docs[doc], "pred", offset + doc),
            )
        self._score(gold, pred, len(gold_docs), spans_of)

    def label_ids(self, labels: Sequence[str]) -> numpy.ndarray:
        """The ids of these labels on a Side's label column; a label not
        seen before gets the next id (new labels in sorted order)."""
        ids = self._label_ids
        for label in sorted(set(labels).difference(ids)):
            ids[label] = len(ids)
        return numpy.array(list(map(ids.__getitem__, labels)), dtype=numpy.int64)

    def add_sides(self, gold: Side, pred: Side, n: int) -> None:
        """Score n documents given as Sides: sorted spans on arrays, labels
        as ids from `label_ids`, identical spans counted as often as they
        occur."""
        self.flush()
        names = list(self._label_ids)

        def spans_of(doc: int) -> Tuple[List[Span], List[Span]]:
            return _side_spans(gold, doc, names), _side_spans(pred, doc, names)

        self._score(gold, pred, n, spans_of)

    def _score(self, gold: Side, pred: Side, n: int, spans_of) -> None:
        """Score n documents: those in which no side overlaps itself as one
        batch, the others one by one (spans_of(doc) -> (gold, pred) lists)."""
        offset = self.n_docs
        self.n_docs += n
        if self.labels is not None:
            allowed = numpy.array(
                [label in self.labels for label in self._label_ids], dtype=bool
            )
            gold = _select(gold, allowed[gold.label]) if len(allowed) else gold
            pred = _select(pred, allowed[pred.label]) if len(allowed) else pred
        if self.batched:
            alone = overlapping_docs(gold, n) | overlapping_docs(pred, n)
        else:
            alone = numpy.ones(n, dtype=bool)
        if alone.any():
            for doc in numpy.flatnonzero(alone).tolist():
                self._add_document(offset + doc, *spans_of(doc))
            gold = _select(gold, ~alone[gold.doc])
            pred = _select(pred, ~alone[pred.doc])
        if len(gold.doc) or len(pred.doc):
            self._add_batch(Batch(gold, pred, n, len(self._label_ids)), offset)

    def _plain_side(self, docs: Sequence[Any]) -> Optional[Side]:
        """The spans of plain (start, end, label) tuples, checked, sorted and
        with identical spans once, on arrays; None when the input is of
        another form or has a bad span (read span by span then)."""
        try:
            lengths = [len(d) for d in docs]
            flat = list(chain.from_iterable(docs))
            if set(map(len, flat)) - {3}:
                return None
            starts = list(map(itemgetter(0), flat))
            ends = list(map(itemgetter(1), flat))
            labels = list(map(itemgetter(2), flat))
        except (TypeError, KeyError):
            return None
        if set(map(type, starts)) - {int} or set(map(type, ends)) - {int}:
            return None
        if any(type(label) is not str for label in set(labels).difference(self._label_ids)):
            return None
        start = numpy.array(starts, dtype=numpy.int64)
        end = numpy.array(ends, dtype=numpy.int64)
        if (start < 0).any() or (start >= end).any():
            return None
        label = self.label_ids(labels)
        doc = numpy.repeat(numpy.arange(len(lengths)), lengths)
        side = Side(doc, start, end, label)
        sorted_already = (
            not len(doc)
            or ((doc[1:] > doc[:-1]) | ((doc[1:] == doc[:-1]) & (start[1:] >= end[:-1]))).all()
        )
        if sorted_already:  # and so no span twice in a document
            return side
        order = numpy.lexsort((label, end, start, doc))
        side = Side(*(column[order] for column in side))
        repeat = numpy.zeros(len(order), dtype=bool)
        repeat[1:] = (
            (side.doc[1:] == side.doc[:-1]) & (side.start[1:] == side.start[:-1])
            & (side.end[1:] == side.end[:-1]) & (side.label[1:] == side.label[:-1])
        )
        return _select(side, ~repeat) if repeat.any() else side

    def _side(self, docs: List[Sequence[Span]]) -> Side:
        """The spans of checked, sorted documents, on arrays."""
        flat = list(chain.from_iterable(docs))
        return Side(
            numpy.repeat(numpy.arange(len(docs)), [len(d) for d in docs]),
            numpy.array(list(map(itemgetter(0), flat)), dtype=numpy.int64),
            numpy.array(list(map(itemgetter(1), flat)), dtype=numpy.int64),
            self.label_ids(list(map(itemgetter(2), flat))),
        )

    def _add_batch(self, batch: Batch, offset: int) -> None:
        names = list(self._label_ids)
        for scheme in self.schemes:
            if scheme in SEMEVAL_RULES:
                total, table = batch.semeval_counts(scheme, self.min_overlap)
                totals = self._semeval_totals[scheme]
                for i in range(5):
                    totals[i] += total[i]
            elif scheme == "iou":
                table, confusion, errors = batch.iou(self.iou_threshold, names, offset)
                for key, count in confusion.items():
                    self._confusion[key] = self._confusion.get(key, 0) + count
                self._errors.append(errors)
            else:
                table = batch.overlap(self.overlap_threshold)
            tally = self._tallies[scheme]
            for label_id in numpy.flatnonzero(table.any(axis=1)).tolist():
                row = tally[names[label_id]]
                for i, count in enumerate(table[label_id].tolist()):
                    row[i] += count

    def _add_document(self, doc: int, gold: Sequence[Span], pred: Sequence[Span]) -> None:
        if self.labels is not None:
            gold = [s for s in gold if s[2] in self.labels]
            pred = [s for s in pred if s[2] in self.labels]
        if not gold and not pred:
            return
        pairs = find_overlaps(gold, pred) if gold and pred else []
        if self._semeval:
            self._add_semeval(gold, pred, pairs)
        if "iou" in self._tallies:
            errors: List[SpanError] = []
            iou_document(
                doc, gold, pred, pairs, self.iou_threshold,
                self._tallies["iou"], self._confusion, errors,
            )
            if errors:
                self._errors.append(errors)
        if "overlap" in self._tallies:
            overlap_document(gold, pred, pairs, self.overlap_threshold, self._tallies["overlap"])

    def _add_semeval(self, gold, pred, pairs) -> None:
        candidates: Dict[int, List[Tuple[int, int]]] = defaultdict(list)
        label_candidates: Dict[int, List[Tuple[int, int]]] = defaultdict(list)
        for gi, pi, shared in sorted(pairs, key=lambda pair: (pair[1], pair[0])):
            candidates[pi].append((gi, shared))
            if gold[gi][2] == pred[pi][2]:
                label_candidates[pi].append((gi, shared))
        gold_by_label: Dict[str, List[int]] = defaultdict(list)
        pred_by_label: Dict[str, List[int]] = defaultdict(list)
        for gi, g in enumerate(gold):
            gold_by_label[g[2]].append(gi)
        for pi, p in enumerate(pred):
            pred_by_label[p[2]].append(pi)
        all_gold, all_pred = range(len(gold)), range(len(pred))
        labels = set(gold_by_label) | set(pred_by_label)
        for scheme in self._semeval:
            rule = SEMEVAL_RULES[scheme]
            counts = semeval_counts(gold, pred, all_gold, all_pred, candidates, rule, self.min_overlap)
            total = self._semeval_totals[scheme]
            for i in range(5):
                total[i] += counts[i]
            tally = self._tallies[scheme]
            for label in labels:
                label_counts = semeval_counts(
                    gold, pred, gold_by_label.get(label, ()), pred_by_label.get(label, ()),
                    label_candidates, rule, self.min_overlap,
                )
                row = tally[label]
                for i in range(5):
                    row[i] += label_counts[i]

    def results(self) -> Dict[str, SchemeResult]:
        """RETURNS (Dict[str, SchemeResult]): scheme -> result, in the order
        the schemes were given."""
        self.flush()
        out = {}
        for scheme in self.schemes:
            tally = self._tallies[scheme]
            if scheme in SEMEVAL_RULES:
                per_label = {label: SemEvalCounts(*row) for label, row in tally.items()}
                totals = SemEvalCounts(*self._semeval_totals[scheme])
            else:
                per_label = {label: PRFCounts(*row) for label, row in tally.items()}
                totals = sum(per_label.values(), PRFCounts())
            if scheme == "iou":
                out[scheme] = SchemeResult(
                    scheme, totals, per_label, dict(self._confusion), tuple(self._errors)
                )
            else:
                out[scheme] = SchemeResult(scheme, totals, per_label)
        return out


def evaluate_spans(
    gold_docs: Iterable[Iterable[Any]],
    pred_docs: Iterable[Iterable[Any]],
    *,
    schemes: Sequence[str],
    iou_threshold: float = 0.5,
    overlap_threshold: float = 0.5,
    min_overlap: Optional[float] = None,
    labels: Optional[Iterable[str]] = None,
    unit: str = "token",
) -> Dict[str, SchemeResult]:
    """Score predicted spans against gold spans under the named schemes.

    gold_docs, pred_docs (Iterable): One list of spans per document, in the
        same order; a span is a (start, end, label) tuple with an exclusive
        end or a {"start", "end", "label"} dict. Generators are fine: the
        documents are read once, one at a time.
    schemes (Sequence[str]): strict, exact, partial, type, iou, overlap.
        Required: there is no default scheme.
    unit (str): "token" or "char": what the offsets count. Plain spans are
        scored as given; the unit is checked and kept for the record.
    RETURNS (Dict[str, SchemeResult]): scheme -> result.

    A ratio whose denominator is zero is 0.0.
    """
    if schemes is None:
        check_schemes(None)
    check_unit(unit)
    scorer = SpanScorer(
        schemes,
        iou_threshold=iou_threshold,
        overlap_threshold=overlap_threshold,
        min_overlap=min_overlap,
        labels=labels,
    )
    gold_iter, pred_iter = iter(gold_docs), iter(pred_docs)
    while True:
        gold_chunk = list(islice(gold_iter, scorer.batch_size))
        pred_chunk = list(islice(pred_iter, scorer.batch_size))
        if len(gold_chunk) != len(pred_chunk):
            read = scorer.n_docs
            raise ValueError(
                f"Unequal numbers of documents: "
                f"{_n_docs(gold_docs, gold_iter, read + len(gold_chunk))} gold and "
                f"{_n_docs(pred_docs, pred_iter, read + len(pred_chunk))} predicted. "
                "gold_docs and pred_docs must list the same documents in the same order."
            )
        if not gold_chunk:
            break
        scorer.add_many(gold_chunk, pred_chunk)
    return scorer.results()


def _n_docs(docs: Iterable[Any], rest: Iterable[Any], read: int) -> int:
    """How many documents docs holds, `read` of them read from `rest`."""
    if hasattr(docs, "__len__"):
        return len(docs)
    return read + sum(1 for _ in rest)


def _select(side: Side, keep: numpy.ndarray) -> Side:
    return Side(*(column[keep] for column in side))


def _side_spans(side: Side, doc: int, names: List[str]) -> List[Span]:
    rows = side.doc == doc
    return [
        Span(start, end, names[label])
        for start, end, label in zip(
            side.start[rows].tolist(), side.end[rows].tolist(), side.label[rows].tolist()
        )
    ]


def _error_order(error: SpanError):
    """Errors listed by document, then by where they are."""
    anchor = error.gold if error.gold is not None else error.pred[0]
    return (error.doc, anchor, error.gold is None, error.pred)
