"""`evaluate_relations`: the relation schemes over documents of spans and
relations, the span schemes beside them."""

from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

from ..engine.paired import paired_batches
from ..engine.result import SchemeResult
from ..engine.scorer import SpanScorer
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
from .errors import RelationError
from .scorer import RelationScorer

__all__ = ["check_relation_schemes", "evaluate_relations", "relation_errors"]


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
    relation_schemes = [name for name in names if name in RELATION_SCHEMES]
    span_schemes = [name for name in names if name in SCHEMES]
    spans = None
    if span_schemes:
        spans = SpanScorer(
            span_schemes,
            iou_threshold=iou_threshold,
            overlap_threshold=overlap_threshold,
            min_overlap=min_overlap,
            per_doc=per_doc,
        )
    scorer = RelationScorer(
        relation_schemes,
        symmetric=symmetric_labels,
        relation_labels=wanted,
        overlap_threshold=overlap_threshold,
        min_overlap=min_overlap,
        unit=unit,
        per_doc=per_doc,
        span_scorer=spans,
    )
    _feed(scorer, gold_docs, pred_docs)
    found = {**scorer.results(), **(spans.results() if spans is not None else {})}
    return {name: found[name] for name in names}


def relation_errors(
    gold_docs: Iterable[Any],
    pred_docs: Iterable[Any],
    *,
    schemes: Optional[Sequence[str]] = None,
    symmetric: Iterable[str] = (),
    relation_labels: Optional[Iterable[str]] = None,
    overlap_threshold: float = MatchSettings.overlap_threshold,
    min_overlap: Optional[float] = MatchSettings.min_overlap,
    unit: str = UNITS[0],
) -> Dict[str, List[RelationError]]:
    """The errors of the named relation schemes, documents and settings as
    for `evaluate_relations`: each gold relation no prediction matches
    ("missed") and each prediction that matches none ("spurious"), with its
    arguments, which of them the span scheme left without a match, and
    their texts when a document dict gives its "text" (char unit).

    RETURNS (Dict[str, List[RelationError]]): scheme -> errors, by document.
    """
    names = [name for name in check_relation_schemes(schemes) if name in RELATION_SCHEMES]
    check_unit(unit)
    overlap_threshold = float(check_fraction("overlap_threshold", overlap_threshold))  # type: ignore[arg-type]
    scorer = RelationScorer(
        names,
        symmetric=_label_set(symmetric, "symmetric"),
        relation_labels=None if relation_labels is None else check_labels(relation_labels, "relation_labels"),
        overlap_threshold=overlap_threshold,
        min_overlap=check_fraction("min_overlap", min_overlap, optional=True),
        unit=unit,
        keep_errors=True,
    )
    _feed(scorer, gold_docs, pred_docs)
    scorer.flush()
    return scorer.errors


def _feed(scorer: RelationScorer, gold_docs: Iterable[Any], pred_docs: Iterable[Any]) -> None:
    """Both sides' documents into the scorer, a batch at a time."""
    for gold_chunk, pred_chunk in paired_batches(gold_docs, pred_docs, scorer.batch_size):
        scorer.add_many(gold_chunk, pred_chunk)
