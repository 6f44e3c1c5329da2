"""Span agreement of every ordered pair of annotators: B scored against A
as if A were gold, under every scheme, over the documents both did.

Each pair is scored by the engine's `SpanScorer` on the arrays the
annotations were read into once (`Annotations.select`), so a pair costs
the matching alone, never a reading of the spans.

(b, a) need not be matched again under the SemEval schemes in the
documents where the matching is one-to-one: where no annotator's spans
overlap each other, every span of a overlaps at most one of b's and the
other way round, and `min_overlap` is not set, each pair of overlapping
spans is the same match read from either side (COR, INC or PAR), a's
spans left alone are b's MIS and b's are a's SPU. There, (b, a) is (a, b)
with MIS and SPU swapped, per label and per document too; the other
documents, and the schemes iou and overlap, are matched both ways.
"""

from itertools import permutations
from typing import Dict, List, Tuple, Union, cast

import numpy

from ..engine.batched import Batch
from ..engine.columns import Side, overlapping_docs
from ..engine.counts import PRFCounts, SemEvalCounts
from ..engine.matching import SEMEVAL_RULES
from ..engine.scorer import SpanScorer
from ..results import SchemeResult
from ..settings import MatchSettings
from .annotations import Annotations

Pair = Tuple[str, str]


def ordered_pairs(names: Tuple[str, ...]) -> List[Tuple[int, int]]:
    """Every ordered pair (reference, scored) of annotator indices, in the
    order of the names: (0, 1), (0, 2), ..., (1, 0), ..."""
    return list(permutations(range(len(names)), 2))


def score_annotator_pairs(
    annotations: Annotations, match: MatchSettings, per_doc: bool
) -> Dict[str, Dict[Pair, SchemeResult]]:
    """RETURNS (Dict[str, Dict[Pair, SchemeResult]]): scheme -> (a, b) ->
    b scored against a over the documents both did (with per-document
    count rows, one per shared document in corpus order, when per_doc)."""
    names = annotations.names
    found: Dict[str, Dict[Pair, SchemeResult]] = {scheme: {} for scheme in match.schemes}
    semeval = [scheme for scheme in match.schemes if scheme in SEMEVAL_RULES]
    others = [scheme for scheme in match.schemes if scheme not in SEMEVAL_RULES]
    for a, b in ordered_pairs(names):
        if a > b:
            continue
        docs = annotations.shared(a, b)
        n = int(docs.sum())
        side_a, side_b = annotations.select(a, docs), annotations.select(b, docs)
        mirrored = numpy.zeros(n, dtype=bool)
        if semeval and match.min_overlap is None:
            mirrored = one_to_one_docs(side_a, side_b, n)
        if not mirrored.any():
            forward = _score(annotations, match, match.schemes, side_a, side_b, n, per_doc)
            backward = _score(annotations, match, match.schemes, side_b, side_a, n, per_doc)
        else:
            rest = ~mirrored
            parts = [(mask, _subset(side_a, mask), _subset(side_b, mask), int(mask.sum())) for mask in (mirrored, rest)]
            (_, a_one, b_one, n_one), (_, a_rest, b_rest, n_rest) = parts
            forward_one = _score(annotations, match, match.schemes, a_one, b_one, n_one, per_doc)
            forward_rest = _score(annotations, match, match.schemes, a_rest, b_rest, n_rest, per_doc)
            backward_one = {scheme: mirror(forward_one[scheme]) for scheme in semeval}
            if others:
                backward_one.update(_score(annotations, match, others, b_one, a_one, n_one, per_doc))
            backward_rest = _score(annotations, match, match.schemes, b_rest, a_rest, n_rest, per_doc)
            forward = {s: _joined(forward_one[s], forward_rest[s], mirrored) for s in match.schemes}
            backward = {s: _joined(backward_one[s], backward_rest[s], mirrored) for s in match.schemes}
        for scheme in match.schemes:
            found[scheme][(names[a], names[b])] = forward[scheme]
            found[scheme][(names[b], names[a])] = backward[scheme]
    # every scheme's pairs in the order of ordered_pairs
    order = [(names[a], names[b]) for a, b in ordered_pairs(names)]
    return {scheme: {pair: pairs[pair] for pair in order} for scheme, pairs in found.items()}


def _score(
    annotations: Annotations, match: MatchSettings, schemes, gold: Side, pred: Side, n: int, per_doc: bool
) -> Dict[str, SchemeResult]:
    scorer = SpanScorer.from_settings(match.replace(schemes=tuple(schemes)), per_doc=per_doc)
    scorer.label_ids(annotations.labels)  # the scorer's label ids are the annotations' own
    scorer.add_sides(gold, pred, n)
    return scorer.results()


def one_to_one_docs(a: Side, b: Side, n: int) -> numpy.ndarray:
    """Bool mask of the n documents in which neither side's spans overlap
    each other and every span overlaps at most one span of the other side."""
    plain = ~(overlapping_docs(a, n) | overlapping_docs(b, n))
    a, b = _subset(a, plain, renumber=False), _subset(b, plain, renumber=False)
    batch = Batch(a, b, n, 1)
    many = numpy.zeros(n, dtype=bool)
    from_b = numpy.bincount(batch.pp, minlength=batch.n_pred) > 1
    from_a = numpy.bincount(batch.pg, minlength=batch.n_gold) > 1
    many[b.doc[from_b]] = True
    many[a.doc[from_a]] = True
    return plain & ~many


def _subset(side: Side, docs: numpy.ndarray, renumber: bool = True) -> Side:
    """The spans of the documents of the mask `docs` (numbered again from 0
    in order when renumber)."""
    keep = docs[side.doc]
    doc = side.doc[keep]
    if renumber:
        doc = (numpy.cumsum(docs) - 1)[doc]
    return Side(doc, side.start[keep], side.end[keep], side.label[keep])


#: A SemEval count row read from the other side: MIS and SPU swap.
MIRRORED_COLUMNS = [0, 1, 2, 4, 3]


def mirror(result: SchemeResult) -> SchemeResult:
    """A SemEval result of (a, b) in documents matched one-to-one, as the
    result of (b, a) there."""

    def swapped(counts: Union[SemEvalCounts, PRFCounts]) -> SemEvalCounts:
        counts = cast(SemEvalCounts, counts)  # a SemEval result's
        return SemEvalCounts(counts.cor, counts.inc, counts.par, counts.spu, counts.mis)

    per_doc = None if result.per_doc is None else result.per_doc[:, MIRRORED_COLUMNS]
    return SchemeResult(
        result.scheme,
        swapped(result.totals),
        {label: swapped(counts) for label, counts in result.per_label.items()},
        result.confusion.transposed(),
        (),
        per_doc,
        None,
        result.n_docs,
    )


def _joined(first: SchemeResult, second: SchemeResult, is_first: numpy.ndarray) -> SchemeResult:
    """The results of two parts of the documents as one, the per-document
    rows back in document order (is_first: which documents the first holds)."""
    total = first + second
    if total.per_doc is None:
        return total
    rows = numpy.empty_like(total.per_doc)
    rows[is_first] = first.per_doc
    rows[~is_first] = second.per_doc
    return SchemeResult(total.scheme, total.totals, total.per_label, total.confusion, (), rows, None, total.n_docs)


def shared_counts(annotations: Annotations) -> Dict[Pair, int]:
    """(a, b) -> how many documents a and b both did, for every ordered pair."""
    names = annotations.names
    return {(names[a], names[b]): int(annotations.shared(a, b).sum()) for a, b in ordered_pairs(names)}


def shared_index(annotations: Annotations, a: int, b: int) -> numpy.ndarray:
    """The corpus numbers of the documents a and b both did, in order (the
    rows of their pair's per-document counts)."""
    return numpy.flatnonzero(annotations.shared(a, b))
