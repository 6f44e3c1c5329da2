"""Agreement under the link schemes: every ordered pair of annotators, B
scored against A as if A were gold (`links.LinkScorer`, as
`evaluate_links` scores a prediction), over the documents both did, as the
span schemes' pairs are (`pairwise`). Pairwise only: a consensus is of
spans (`consensus`), and the link schemes score no consensus.

Each annotator's entry of a document is its linked spans: (start, end,
label, kb_id) tuples, {"start", "end", "label", "kb_id"} dicts or spaCy
Spans (their `kb_id_`), a span without an id NIL, as `evaluate_links`
reads them; the spans as given (labels and label maps are for the span
schemes).
"""

from itertools import islice
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..engine.scorer import BATCH_SIZE
from ..links.evaluate import LinkScorer
from ..results import SchemeResult
from .pairwise import Pair, ordered_pairs

__all__ = ["linked_spans", "score_link_pairs", "without_kb_ids"]


def score_link_pairs(
    entries: Mapping[str, Sequence[Optional[Sequence[Any]]]],
    names: Tuple[str, ...],
    schemes: Sequence[str],
    unit: str,
    per_doc: bool,
) -> Dict[str, Dict[Pair, SchemeResult]]:
    """scheme -> (a, b) -> b's linked spans scored against a's under the
    link scheme, over the documents both did (None: not done), in the
    order of `ordered_pairs` (per-document rows, one per shared document
    in corpus order, when per_doc)."""
    found: Dict[str, Dict[Pair, SchemeResult]] = {scheme: {} for scheme in schemes}
    for a, b in ordered_pairs(names):
        mine, theirs = entries[names[a]], entries[names[b]]
        shared = [doc for doc in range(len(mine)) if mine[doc] is not None and theirs[doc] is not None]
        scorer = LinkScorer(schemes, unit=unit, per_doc=per_doc)
        docs = iter(shared)
        while True:
            chunk = list(islice(docs, BATCH_SIZE))
            if not chunk:
                break
            scorer.add([list(mine[doc] or ()) for doc in chunk], [list(theirs[doc] or ()) for doc in chunk])
        for scheme, result in scorer.results().items():
            found[scheme][(names[a], names[b])] = result
    return found


def linked_spans(doc: Any) -> List[Tuple[Any, ...]]:
    """The (start, end, label, kb_id) of each span of a document as read:
    its reader's ids (`Document.links`), NIL where it carries none."""
    if doc.links is None:
        return [(*span, "") for span in doc.spans]
    return [(*span, kb) for span, kb in doc.links]


def without_kb_ids(entry: Optional[Sequence[Any]]) -> Optional[List[Any]]:
    """An entry's spans as the span schemes read them: a (start, end,
    label, kb_id) tuple without its id; None (not done) as it is."""
    if entry is None:
        return None
    return [span[:3] if type(span) is tuple and len(span) == 4 else span for span in entry]
