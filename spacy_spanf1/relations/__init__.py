"""Relations between spans: the relation schemes.

`evaluate_relations` scores them: under `rel_S` (one for each one-to-one
span scheme S: `rel_strict`, `rel_exact`, `rel_partial`, `rel_type`,
`rel_overlap`) a predicted relation is correct when it has a gold
relation's label and its head and tail are each paired with that
relation's head and tail as a match by S's one-to-one matching of the
document's spans (`arguments`, the engine's own pairing), from documents
read onto arrays (`read`). Each scheme gives a SchemeResult of PRFCounts.
"""

from .errors import RelationError
from .evaluate import check_relation_schemes, evaluate_relations, relation_errors
from .read import ValueDoc
from .scorer import RelationScorer, span_scheme_of

__all__ = [
    "RelationError",
    "RelationScorer",
    "ValueDoc",
    "check_relation_schemes",
    "evaluate_relations",
    "relation_errors",
    "span_scheme_of",
]
