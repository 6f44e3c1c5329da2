"""`evaluate_relations`: the relation schemes over documents of spans and
relations, the span schemes beside them."""

from itertools import islice
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy

from ..engine.columns import Side
from ..engine.confusion import Confusion
from ..engine.counts import PRFCounts
from ..engine.result import Counts, SchemeResult
from ..engine.scorer import BATCH_SIZE, SpanScorer
from ..exceptions import SettingError
from ..settings import (
    LINK_SCHEMES,
    RELATION_SCHEMES,
    SCHEMES,
    UNITS,
    MatchSettings,
    check_fraction,
    check_labels,
    check_unit,
    comma_list,
)
from .arguments import matched_arguments
from .read import RelationBatch, symmetric_order, read_relation_docs, symmetric_codes

__all__ = ["check_relation_schemes", "evaluate_relations", "span_scheme_of"]


def span_scheme_of(scheme: str) -> str:
    """The span scheme whose pairing a relation scheme's arguments take
    (`rel_strict` -> `strict`)."""
    return scheme[len("rel_") :]


def check_relation_schemes(schemes: Any, setting: str = "schemes") -> Tuple[str, ...]:
    """The schemes as a tuple of known names, in the order given (a string
    is a comma-separated list): relation schemes, and span schemes to
    report beside them. There is no default scheme."""
    valid = ", ".join(RELATION_SCHEMES + SCHEMES)
    if schemes is None:
        raise SettingError(f"No '{setting}' given: name at least one relation scheme. Valid schemes: {valid}", setting)
    schemes = tuple(comma_list(schemes))
    if not any(name in RELATION_SCHEMES for name in schemes):
        raise SettingError(
            f"'{setting}' names no relation scheme ({', '.join(map(repr, schemes)) or 'nothing'}): name at least "
            f"one. Valid schemes: {valid}",
            setting,
        )
    for name in schemes:
        if name in LINK_SCHEMES:
            raise SettingError(f"{name!r} in '{setting}' is a link scheme: score it with evaluate_links.", setting)
        if name not in RELATION_SCHEMES and name not in SCHEMES:
            raise SettingError(f"Unknown scheme {name!r} in '{setting}'. Valid schemes: {valid}", setting)
    duplicates = sorted({name for name in schemes if schemes.count(name) > 1})
    if duplicates:
        raise SettingError(f"Scheme {duplicates[0]!r} is named twice in '{setting}'.", setting)
    return schemes


def _label_set(value: Any, setting: str) -> frozenset:
    if value is None:
        return frozenset()
    labels = check_labels(value, setting) if value else ()
    return frozenset(labels or ())


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
    batch: RelationBatch, matched: numpy.ndarray, symmetric: numpy.ndarray
) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """(per relation label (n_labels × 3), per document (n_docs × 3)) [tp,
    fp, fn] of one relation scheme: a predicted relation is correct when its
    head and tail match (`matched`: pred span -> gold span or -1) the head
    and tail of a gold relation of its label."""
    gold, pred = batch.gold, batch.pred
    n_labels = max(len(batch.relation_labels), 1)
    n_gold = max(len(gold.spans.doc), 1)
    head, tail = matched[pred.head], matched[pred.tail]
    both = (head >= 0) & (tail >= 0)
    head, tail = symmetric_order(head, tail, pred.label, symmetric)
    gold_keys = (gold.head * n_gold + gold.tail) * n_labels + gold.label
    pred_keys = (head * n_gold + tail) * n_labels + pred.label
    correct = both & numpy.isin(pred_keys, gold_keys)
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


def evaluate_relations(
    gold_docs: Iterable[Any],
    pred_docs: Iterable[Any],
    *,
    schemes: Optional[Sequence[str]] = None,
    symmetric: Iterable[str] = (),
    relation_labels: Optional[Iterable[str]] = None,
    iou_threshold: float = MatchSettings.iou_threshold,
    overlap_threshold: float = MatchSettings.overlap_threshold,
    min_overlap: Optional[float] = MatchSettings.min_overlap,
    unit: str = UNITS[0],
    per_doc: bool = False,
) -> Dict[str, SchemeResult]:
    """Score predicted relations between spans against gold relations
    under the named relation schemes, and the spans under the span schemes
    named beside them.

    gold_docs, pred_docs (Iterable): One document per item, in the same
        order: a dict {"spans": [...], "relations": [...]}, a relation a
        {"head": i, "tail": j, "label": L} dict or an (i, j, L) tuple, i
        and j indices into the document's spans (a span: a (start, end,
        label) tuple, a {"start", "end", "label"} dict or a spaCy Span);
        or a `Document` (its `relations` name the spans by value).
        Generators are fine: the documents are read a batch at a time.
    schemes (Sequence[str]): Relation schemes: rel_strict, rel_exact,
        rel_partial, rel_type, rel_overlap (under `rel_S` the arguments of a
        predicted relation must each be paired with the gold relation's as
        a match by the span scheme S); span schemes (strict, exact,
        partial, type, iou, overlap) may be named beside them. Required:
        there is no default scheme.
    symmetric (Iterable[str]): Relation labels whose (head, tail) and
        (tail, head) are one relation, on both sides.
    relation_labels (Optional[Iterable[str]]): Score only relations with
        these labels, and average macro F over exactly these (a label
        without support counts as F 0); None: the labels of both sides.
    iou_threshold, overlap_threshold, min_overlap: As for evaluate_spans:
        `iou` (a span scheme only), `overlap` and `rel_overlap`, and the
        overlap the SemEval schemes need.
    unit (str): "token" or "char": what the offsets count.
    per_doc (bool): Keep one row of counts per document.
    RETURNS (Dict[str, SchemeResult]): scheme -> result; a relation
        scheme's counts are PRFCounts (TP, FP, FN; per relation label),
        its macro F the mean over the relation labels.

    Spans are sets, and so are relations (a relation given twice counts
    once). A relation whose head or tail is not a span of the document,
    that has no label or that joins a span to itself is an InputError.
    A ratio whose denominator is zero is 0.0.
    """
    names = check_relation_schemes(schemes)
    check_unit(unit)
    overlap_threshold = float(check_fraction("overlap_threshold", overlap_threshold))  # type: ignore[arg-type]
    min_overlap = check_fraction("min_overlap", min_overlap, optional=True)
    symmetric_labels = _label_set(symmetric, "symmetric")
    wanted = None if relation_labels is None else check_labels(relation_labels, "relation_labels")
    wanted_set = None if wanted is None else frozenset(wanted)
    relation_schemes = [name for name in names if name in RELATION_SCHEMES]
    span_schemes = [name for name in names if name in SCHEMES]
    scorer = None
    if span_schemes:
        scorer = SpanScorer(
            span_schemes,
            iou_threshold=iou_threshold,
            overlap_threshold=overlap_threshold,
            min_overlap=min_overlap,
            per_doc=per_doc,
        )
    arguments = list(dict.fromkeys(span_scheme_of(name) for name in relation_schemes))
    tallies = {name: _Tally(per_doc) for name in relation_schemes}
    n_docs = 0
    gold_iter, pred_iter = iter(gold_docs), iter(pred_docs)
    while True:
        gold_chunk = list(islice(gold_iter, BATCH_SIZE))
        pred_chunk = list(islice(pred_iter, BATCH_SIZE))
        if len(gold_chunk) != len(pred_chunk):
            raise ValueError(
                f"Unequal numbers of documents: {n_docs + len(gold_chunk) + sum(1 for _ in gold_iter)} gold and "
                f"{n_docs + len(pred_chunk) + sum(1 for _ in pred_iter)} predicted. "
                "gold_docs and pred_docs must list the same documents in the same order."
            )
        if not gold_chunk:
            break
        batch = read_relation_docs(gold_chunk, pred_chunk, unit, n_docs, symmetric_labels, wanted_set)
        n_docs += batch.n_docs
        gold_spans, pred_spans = batch.gold.spans, batch.pred.spans
        if scorer is not None:
            codes = scorer.label_ids(batch.span_labels)
            scorer.add_sides(_recoded(gold_spans, codes), _recoded(pred_spans, codes), batch.n_docs)
        matched = matched_arguments(
            gold_spans,
            pred_spans,
            batch.n_docs,
            len(batch.span_labels),
            arguments,
            min_overlap,
            overlap_threshold,
        )
        flags = symmetric_codes({label: code for code, label in enumerate(batch.relation_labels)}, symmetric_labels)
        for name in relation_schemes:
            table, rows = relation_counts(batch, matched[span_scheme_of(name)], flags)
            tallies[name].add(batch.relation_labels, table, rows)
    span_results = scorer.results() if scorer is not None else {}
    return {
        name: tallies[name].result(name, n_docs, wanted) if name in tallies else span_results[name] for name in names
    }


def _recoded(side: Side, codes: numpy.ndarray) -> Side:
    """The side with its label codes as the span scorer numbers them."""
    label = codes[side.label] if len(side.label) else side.label
    return Side(side.doc, side.start, side.end, label)
