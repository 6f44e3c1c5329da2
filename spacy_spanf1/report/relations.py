"""The relation error records of the --errors file: the errors of a
relation scheme (`relations.relation_errors`) over a batch of documents,
one record each: {"doc", "name", "scheme", "kind" ("missed": a gold
relation no prediction matches, "spurious": a prediction that matches
none), and "gold" (missed) or "pred" (spurious): {"label", "head": a span,
"tail": a span}}, each span as the span records lay it out (`SPAN_KEYS`).
"""

from typing import Any, Dict, Iterable, List, Mapping, Optional

from ..corpus.relation_errors import batch_relation_errors, relation_error_scheme
from ..formats import DocPair
from ..settings import MatchSettings
from .records import relation_records

__all__ = ["relation_error_records", "relation_error_scheme", "relation_records"]


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
    settings = {
        "symmetric": tuple(symmetric),
        "relation_labels": None if relation_labels is None else tuple(relation_labels),
        "overlap_threshold": overlap_threshold,
        "min_overlap": min_overlap,
    }
    errors = batch_relation_errors(pairs, scheme, settings)
    return relation_records(errors, pairs, scheme)
