"""`evaluate_links`: the link schemes over documents of linked spans."""

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy

from ..engine.confusion import Confusion
from ..engine.counts import PRFCounts
from ..engine.paired import paired_batches
from ..engine.result import Counts, SchemeResult
from ..engine.scorer import BATCH_SIZE
from ..exceptions import SettingError
from ..settings import LINK_SCHEMES, SCHEMES, UNITS, check_unit, scheme_names
from .nel import NEGATIVE_LABELS, nel_counts, nel_scores
from .spans import read_link_docs
from .pairs import tagging_counts
from .tagging import TAGGING
from .weak import weak_counts

__all__ = ["LinkScorer", "check_link_schemes", "evaluate_links", "score_links"]


def check_link_schemes(schemes: Any, setting: str = "schemes") -> Tuple[str, ...]:
    """The link schemes as a tuple of known names, in the order given (a
    string is a comma-separated list). There is no default scheme."""
    span_scheme = "a span scheme: score it with evaluate_spans"
    return scheme_names(schemes, setting, "link scheme", LINK_SCHEMES, dict.fromkeys(SCHEMES, span_scheme))


def _check_negative_labels(negative_labels: Any) -> Tuple[str, ...]:
    try:
        values = None if isinstance(negative_labels, (str, bytes)) else list(negative_labels)
    except TypeError:
        values = None
    if values is None or not all(isinstance(x, str) for x in values):
        raise SettingError(
            f"'negative_labels' must be a list of strings (the ids that mean no link, e.g. ['NIL']), "
            f"got {negative_labels!r}.",
            "negative_labels",
        )
    return tuple(values)


class _Tally:
    """One scheme's counts so far: totals, per label name, per document."""

    def __init__(self, per_doc: bool) -> None:
        self.totals = numpy.zeros(3, dtype=numpy.int64)
        self.per_label: Dict[str, numpy.ndarray] = {}
        self.rows: Optional[List[numpy.ndarray]] = [] if per_doc else None

    def add(
        self, totals: numpy.ndarray, labelled: Iterable[Tuple[str, numpy.ndarray]], rows: Optional[numpy.ndarray]
    ) -> None:
        self.totals += totals
        for label, counts in labelled:
            if label in self.per_label:
                self.per_label[label] = self.per_label[label] + counts
            else:
                self.per_label[label] = numpy.asarray(counts, dtype=numpy.int64).copy()
        if self.rows is not None and rows is not None:
            self.rows.append(rows)

    def result(self, scheme: str, n_docs: int, keep_order: bool) -> SchemeResult:
        labels = list(self.per_label) if keep_order else sorted(self.per_label)
        per_label: Dict[str, Counts] = {label: PRFCounts(*map(int, self.per_label[label])) for label in labels}
        per_doc = None
        if self.rows is not None:
            per_doc = numpy.concatenate(self.rows) if self.rows else numpy.zeros((0, 3), dtype=numpy.int64)
        return SchemeResult(
            scheme, PRFCounts(*map(int, self.totals)), per_label, Confusion(), (), per_doc, None, n_docs
        )


def _labelled(labels: Sequence[str], table: numpy.ndarray):
    """(label, counts) of the labels with a count that is not zero."""
    return [(labels[i], table[i]) for i in numpy.flatnonzero(table.any(axis=1)).tolist() if i < len(labels)]


def evaluate_links(
    gold_docs: Iterable[Iterable[Any]],
    pred_docs: Iterable[Iterable[Any]],
    *,
    schemes: Optional[Sequence[str]] = None,
    unit: str = UNITS[0],
    per_doc: bool = False,
    negative_labels: Iterable[str] = NEGATIVE_LABELS,
) -> Dict[str, SchemeResult]:
    """Score the knowledge-base ids of predicted spans against gold spans
    under the named link schemes, TP/FP/FN, micro and per type.

    gold_docs, pred_docs (Iterable): One list of spans per document, in the
        same order; a span is a (start, end, label, kb_id) tuple, a
        {"start", "end", "label", "kb_id"} dict ("kb_id" optional) or a
        spaCy Span (its `kb_id_`); a span without an id is NIL. Generators
        are fine: the documents are read a batch at a time.
    schemes (Sequence[str]): Link schemes: neleval's strong_mention_match,
        strong_typed_mention_match, strong_linked_mention_match,
        strong_link_match, strong_nil_match, strong_all_match,
        strong_typed_link_match, strong_typed_nil_match,
        strong_typed_all_match and entity_match; weak_all_match; nel.
        Required: there is no default scheme.
    unit (str): "token" or "char": what the offsets count (spaCy Spans give
        their token or character offsets).
    per_doc (bool): Keep one row of (tp, fp, fn) per document.
    negative_labels (Iterable[str]): Under `nel`, the ids that mean no
        link (spaCy's `EntityLinker` passes ["NIL"]).
    RETURNS (Dict[str, SchemeResult]): scheme -> result (PRFCounts).

    Under the neleval measures and weak_all_match an id that is missing,
    None, "" or starts with "NIL" is NIL; under `nel` ids are compared as
    strings, as spaCy does (missing and None are "", spaCy's `kb_id_` of a
    span without one). A ratio whose denominator is zero is 0.0; spaCy's
    own keys of `nel` are `nel_scores(result)`.
    """
    scorer = LinkScorer(schemes, unit=unit, per_doc=per_doc, negative_labels=negative_labels)
    for gold_chunk, pred_chunk in paired_batches(gold_docs, pred_docs, BATCH_SIZE):
        scorer.add(gold_chunk, pred_chunk)
    return scorer.results()


class LinkScorer:
    """The link schemes' counts, a batch of documents at a time (what
    `evaluate_links` and the corpus stream score with): `add` a batch of
    gold and predicted documents of linked spans, `results` at the end."""

    def __init__(
        self,
        schemes: Any,
        *,
        unit: str = UNITS[0],
        per_doc: bool = False,
        negative_labels: Iterable[str] = NEGATIVE_LABELS,
    ) -> None:
        self.names = check_link_schemes(schemes)
        self.unit = check_unit(unit)
        self.negative = _check_negative_labels(negative_labels)
        self.tagging = [name for name in self.names if name in TAGGING]
        self.per_doc = per_doc
        self.tallies = {name: _Tally(per_doc) for name in self.names}
        self.n_docs = 0

    def add(self, gold_docs: Sequence[Any], pred_docs: Sequence[Any]) -> None:
        """Score a batch: one list of linked spans per document and side."""
        tallies = self.tallies
        table = read_link_docs(gold_docs, pred_docs, self.unit, self.n_docs)
        self.n_docs += table.n_docs
        if self.tagging:
            for name, counted in tagging_counts(table, self.tagging, self.per_doc).items():
                tallies[name].add(counted.totals, _labelled(table.labels, counted.per_label), counted.per_doc)
        if "weak_all_match" in tallies:
            rows, per_label = weak_counts(table)
            tallies["weak_all_match"].add(rows.sum(axis=0), _labelled(table.labels, per_label), rows)
        if "nel" in tallies:
            labelled, rows = nel_counts(table, self.negative)
            tallies["nel"].add(rows.sum(axis=0), labelled, rows)

    def results(self) -> Dict[str, SchemeResult]:
        """scheme -> result, in the order the schemes were named."""
        return {name: self.tallies[name].result(name, self.n_docs, keep_order=name == "nel") for name in self.names}


def score_links(examples: Iterable[Any], *, negative_labels: Iterable[str] = NEGATIVE_LABELS) -> Dict[str, Any]:
    """`Scorer.score_links` of spaCy Examples, bit for bit: the entities of
    `example.reference` and `example.predicted` by character offsets.

    examples (Iterable[Example]): The examples to score.
    negative_labels (Iterable[str]): The ids that mean no link.
    RETURNS (Dict[str, Any]): spaCy's keys (`nel_scores`).
    """
    examples = list(examples)
    gold = [list(eg.reference.ents) for eg in examples]
    pred = [list(eg.predicted.ents) for eg in examples]
    results = evaluate_links(gold, pred, schemes=["nel"], unit="char", negative_labels=negative_labels)
    return nel_scores(results["nel"])
