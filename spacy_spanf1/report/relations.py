"""The relation error records of the --errors file: the errors of a
relation scheme (`relations.relation_errors`) over a batch of documents,
one record each: {"doc", "name", "scheme", "kind" ("missed": a gold
relation no prediction matches, "spurious": a prediction that matches
none), and "gold" (missed) or "pred" (spurious): {"label", "head": a span,
"tail": a span}}, each span as the span records lay it out (`SPAN_KEYS`).
"""

import functools
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence

import srsly

from ..formats import DocPair
from ..relations import ValueDoc, relation_errors
from ..settings import RELATION_SCHEMES, MatchSettings, comma_list
from .records import span_record

__all__ = ["relation_error_lines", "relation_error_records", "relation_error_scheme", "relation_lines_of"]


def relation_error_scheme(schemes: Sequence[str]) -> Optional[str]:
    """The relation scheme whose errors the --errors file writes: the first
    relation scheme among the schemes named; None when none is."""
    return next((name for name in schemes if name in RELATION_SCHEMES), None)


def relation_error_records(
    pairs: Mapping[int, DocPair],
    scheme: str,
    *,
    symmetric: Iterable[str] = (),
    relation_labels: Optional[Iterable[str]] = None,
    overlap_threshold: float = MatchSettings.overlap_threshold,
    min_overlap: Optional[float] = MatchSettings.min_overlap,
) -> List[Dict[str, Any]]:
    """The relation error records of the documents (in their order), of the
    relation scheme, under the run's relation and matching settings."""
    docs = [pairs[n] for n in sorted(pairs)]
    if not any(pair.gold_relations or pair.pred_relations for pair in docs):
        return []
    errors = relation_errors(
        [ValueDoc(pair.gold, pair.gold_relations, pair.name) for pair in docs],
        [ValueDoc(pair.pred, pair.pred_relations, pair.name) for pair in docs],
        schemes=[scheme],
        symmetric=tuple(symmetric),
        relation_labels=None if relation_labels is None else tuple(relation_labels),
        overlap_threshold=overlap_threshold,
        min_overlap=min_overlap,
    )[scheme]
    records = []
    for error in errors:
        pair = docs[error.doc]
        side = "gold" if error.kind == "missed" else "pred"
        relation = {"label": error.label, "head": span_record(pair, error.head), "tail": span_record(pair, error.tail)}
        records.append({"doc": pair.index, "name": pair.name, "scheme": scheme, "kind": error.kind, side: relation})
    return records


def relation_error_lines(
    pairs: Mapping[int, DocPair],
    scheme: str,
    *,
    symmetric: Iterable[str] = (),
    relation_labels: Optional[Iterable[str]] = None,
    overlap_threshold: float = MatchSettings.overlap_threshold,
    min_overlap: Optional[float] = MatchSettings.min_overlap,
) -> List[str]:
    """The JSON lines of `relation_error_records` (without their newlines),
    under the same settings."""
    records = relation_error_records(
        pairs,
        scheme,
        symmetric=symmetric,
        relation_labels=relation_labels,
        overlap_threshold=overlap_threshold,
        min_overlap=min_overlap,
    )
    return [srsly.json_dumps(record) for record in records]


def relation_lines_of(schemes: Sequence[str], settings: Mapping[str, Any]) -> Optional[Callable[..., List[str]]]:
    """The lines of a batch's relation error records (`ErrorFile`'s
    relation_lines) of the first relation scheme named, under a command's
    settings (symmetric and relation_labels comma-separated, as the command
    line gives them; the matching thresholds); None without a relation
    scheme."""
    scheme = relation_error_scheme(schemes)
    if scheme is None:
        return None
    relation_labels = settings.get("relation_labels")
    return functools.partial(
        relation_error_lines,
        scheme=scheme,
        symmetric=comma_list(settings.get("symmetric") or ()),
        relation_labels=None if relation_labels is None else comma_list(relation_labels),
        overlap_threshold=settings.get("overlap_threshold", MatchSettings.overlap_threshold),
        min_overlap=settings.get("min_overlap", MatchSettings.min_overlap),
    )
