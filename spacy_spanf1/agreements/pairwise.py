"""Span agreement of every ordered pair of annotators: B scored against A
as if A were gold, under every scheme, over the documents both did.

Each pair is scored by the engine's `SpanScorer` on the arrays the
annotations were read into once (`Annotations.select`), so a pair costs
the matching alone, never a reading of the spans.
"""
from itertools import permutations
from typing import Dict, List, Tuple

import numpy

from ..engine.scorer import SpanScorer
from ..results import SchemeResult
from ..settings import MatchSettings
from .annotations import Annotations

Pair = Tuple[str, str]


def ordered_pairs(names: Tuple[str, ...]) -> List[Tuple[int, int]]:
    """Every ordered pair (reference, scored) of annotator indices, in the
    order of the names: (0, 1), (0, 2), ..., (1, 0), ..."""
    return list(permutations(range(len(names)), 2))


def score_pairs(annotations: Annotations, match: MatchSettings, per_doc: bool) -> Dict[str, Dict[Pair, SchemeResult]]:
    """RETURNS (Dict[str, Dict[Pair, SchemeResult]]): scheme -> (a, b) ->
    b scored against a over the documents both did (with per-document
    count rows, one per shared document in corpus order, when per_doc)."""
    names = annotations.names
    found: Dict[str, Dict[Pair, SchemeResult]] = {scheme: {} for scheme in match.schemes}
    selected: Dict[Tuple[int, int], Tuple] = {}
    for a, b in ordered_pairs(names):
        key = (min(a, b), max(a, b))
        if key not in selected:
            docs = annotations.shared(a, b)
            selected[key] = (int(docs.sum()), {i: annotations.select(i, docs) for i in key})
        n, sides = selected[key]
        scorer = SpanScorer.from_settings(match, per_doc=per_doc)
        scorer.label_ids(annotations.labels)  # the scorer's label ids are the annotations' own
        scorer.add_sides(sides[a], sides[b], n)
        for scheme, result in scorer.results().items():
            found[scheme][(names[a], names[b])] = result
    return found


def shared_counts(annotations: Annotations) -> Dict[Pair, int]:
    """(a, b) -> how many documents a and b both did, for every ordered pair."""
    names = annotations.names
    return {(names[a], names[b]): int(annotations.shared(a, b).sum()) for a, b in ordered_pairs(names)}


def shared_index(annotations: Annotations, a: int, b: int) -> numpy.ndarray:
    """The corpus numbers of the documents a and b both did, in order (the
    rows of their pair's per-document counts)."""
    return numpy.flatnonzero(annotations.shared(a, b))
