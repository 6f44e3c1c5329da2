"""The errors of a relation scheme a batch of paired documents at a time,
as the stream scores them: handed to the `on_errors` callback after the
batch's span errors, and kept with their documents when the errors are
kept whole (so that the shards of a sharded run carry the relation errors
of documents without a span error, delivered once they are merged)."""

from typing import Any, Dict, List, Mapping, Optional, Sequence

from ..formats import DocPair
from ..relations import RelationError, ValueDoc, relation_errors
from ..settings import RELATION_SCHEMES, MatchSettings

__all__ = ["batch_relation_errors", "relation_error_scheme", "relation_settings"]


def relation_settings(match: MatchSettings) -> Dict[str, Any]:
    """The `settings` of `batch_relation_errors` that a run's settings give."""
    return {
        "symmetric": tuple(match.symmetric),
        "relation_labels": match.relation_labels,
        "overlap_threshold": match.overlap_threshold,
        "min_overlap": match.min_overlap,
    }


def relation_error_scheme(schemes: Sequence[str]) -> Optional[str]:
    """The relation scheme whose errors are streamed and written: the first
    relation scheme among the schemes named; None when none is."""
    return next((name for name in schemes if name in RELATION_SCHEMES), None)


def batch_relation_errors(
    pairs: Mapping[int, DocPair], scheme: str, settings: Mapping[str, Any]
) -> List[RelationError]:
    """The errors of the relation scheme over the documents (in their
    order), under the run's relation and matching settings (`settings`:
    the keywords `relation_settings` gives); each error's `doc` is its
    document's key in `pairs`."""
    keys = sorted(pairs)
    docs = [pairs[key] for key in keys]
    if not any(pair.gold_relations or pair.pred_relations for pair in docs):
        return []
    found = relation_errors(
        [ValueDoc(pair.gold, pair.gold_relations, pair.name) for pair in docs],
        [ValueDoc(pair.pred, pair.pred_relations, pair.name) for pair in docs],
        schemes=[scheme],
        **settings,
    )[scheme]
    return [error._replace(doc=keys[error.doc]) for error in found]
