"""The one loop over documents: every scheme scored in a single pass."""
from collections import defaultdict
from dataclasses import dataclass, field
from itertools import zip_longest
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
from .metrics import mean
from .spans import Span, read_doc_spans

Counts = Union[SemEvalCounts, PRFCounts]


@dataclass(frozen=True)
class SchemeResult:
    """The score of one scheme over a corpus (or a part of one).

    totals: the pooled counts. per_label: counts of each label's spans
    alone. confusion and errors: only for `iou`. Results of the same scheme
    add up (`a + b`), so a corpus can be scored in parts.
    """

    scheme: str
    totals: Counts
    per_label: Dict[str, Counts] = field(default_factory=dict)
    confusion: Dict[Tuple[str, str], int] = field(default_factory=dict)
    errors: Tuple[SpanError, ...] = ()

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
            self.errors + other.errors,
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
    """Accumulates every requested scheme over documents, one at a time.

    schemes (Sequence[str]): The schemes to compute (required).
    iou_threshold (float): Combined IoU a gold span needs for `iou`, in (0, 1].
    overlap_threshold (float): Coverage both ways for `overlap`, in (0, 1].
    min_overlap (Optional[float]): Share of a gold span a prediction must
        cover to count as overlapping it in the SemEval schemes; None: any.
    labels (Optional[Iterable[str]]): Score only spans with these labels.
    """

    def __init__(
        self,
        schemes: Sequence[str],
        *,
        iou_threshold: float = 0.5,
        overlap_threshold: float = 0.5,
        min_overlap: Optional[float] = None,
        labels: Optional[Iterable[str]] = None,
    ) -> None:
        self.schemes = check_schemes(schemes)
        self.iou_threshold = check_fraction("iou_threshold", iou_threshold)
        self.overlap_threshold = check_fraction("overlap_threshold", overlap_threshold)
        self.min_overlap = check_fraction("min_overlap", min_overlap, optional=True)
        self.labels = check_labels(labels)
        self.n_docs = 0
        self._semeval = [s for s in self.schemes if s in SEMEVAL_RULES]
        self._semeval_totals = {s: [0, 0, 0, 0, 0] for s in self._semeval}
        self._tallies: Dict[str, Dict[str, List[int]]] = {
            s: defaultdict(lambda: [0, 0, 0]) if s in ("iou", "overlap") else
            defaultdict(lambda: [0, 0, 0, 0, 0])
            for s in self.schemes
        }
        self._confusion: Dict[Tuple[str, str], int] = {}
        self._errors: List[SpanError] = []

    def add(self, gold: Sequence[Span], pred: Sequence[Span]) -> None:
        """Score one document. Both lists hold Span tuples sorted by
        (start, end, label)."""
        doc = self.n_docs
        self.n_docs += 1
        if self.labels is not None:
            gold = [s for s in gold if s[2] in self.labels]
            pred = [s for s in pred if s[2] in self.labels]
        if not gold and not pred:
            return
        pairs = find_overlaps(gold, pred) if gold and pred else []
        if self._semeval:
            self._add_semeval(gold, pred, pairs)
        if "iou" in self._tallies:
            iou_document(
                doc, gold, pred, pairs, self.iou_threshold,
                self._tallies["iou"], self._confusion, self._errors,
            )
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
    for index, (gold, pred) in enumerate(zip_longest(gold_docs, pred_docs, fillvalue=_END)):
        if gold is _END or pred is _END:
            n_gold = _n_docs(gold_docs, index + (gold is not _END))
            n_pred = _n_docs(pred_docs, index + (pred is not _END))
            raise ValueError(
                f"Unequal numbers of documents: {n_gold} gold and {n_pred} predicted. "
                "gold_docs and pred_docs must list the same documents in the same order."
            )
        scorer.add(read_doc_spans(gold, "gold", index), read_doc_spans(pred, "pred", index))
    return scorer.results()


_END = object()


def _n_docs(docs: Iterable[Any], read: int) -> int:
    """How many documents docs holds, `read` of them already read."""
    if hasattr(docs, "__len__"):
        return len(docs)
    return read + sum(1 for _ in docs)
