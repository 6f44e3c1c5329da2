"""One integer per span: packed keys that sort as their columns sort.

A sweep compares spans of gold and prediction (the same span, the same
boundaries) and sorts them by (document, start, end, label) many times.
Packing the columns into one integer does each of those with one sort or
one binary search instead of a sort over four columns: the key of
(c1, c2, ...) is c1 * (b2 * b3 ...) + c2 * (b3 ...) + ... with b the
bound of each column over every side, so that keys order as the rows
order lexicographically and are equal exactly when the rows are. When the
bounds would overflow 62 bits (very long documents in characters over
very many documents), the key is instead each row's rank among the
distinct rows of every side: the same order and the same equalities.
"""

from typing import Dict, List, Sequence, Tuple

import numpy

#: Packed keys stay below 2**62.
_LIMIT = 1 << 62


def pack_keys(*sides: Sequence[numpy.ndarray]) -> List[numpy.ndarray]:
    """Per side, one int64 key per row of its columns (every side the same
    columns, non-negative integers, most significant first)."""
    n_columns = len(sides[0])
    bounds = [max((int(side[i].max()) + 1 if len(side[i]) else 1) for side in sides) for i in range(n_columns)]
    total = 1
    for bound in bounds:
        total *= bound
    if total < _LIMIT:
        out = []
        for side in sides:
            key = numpy.asarray(side[0], dtype=numpy.int64).copy()
            for column, bound in zip(side[1:], bounds[1:]):
                key *= bound
                key += column
            out.append(key)
        return out
    columns = [
        numpy.concatenate([numpy.asarray(side[i], dtype=numpy.int64) for side in sides]) for i in range(n_columns)
    ]
    order = numpy.lexsort(columns[::-1])
    new = numpy.ones(len(order), dtype=bool)
    if len(order):
        new[1:] = numpy.any([column[order][1:] != column[order][:-1] for column in columns], axis=0)
    rank = numpy.empty(len(order), dtype=numpy.int64)
    rank[order] = numpy.cumsum(new) - 1
    sizes = numpy.cumsum([0] + [len(side[0]) for side in sides])
    return [rank[sizes[i] : sizes[i + 1]] for i in range(len(sides))]


def member(sorted_keys: numpy.ndarray, keys: numpy.ndarray) -> numpy.ndarray:
    """Whether each of keys is in sorted_keys (sorted ascending)."""
    if not len(sorted_keys):
        return numpy.zeros(len(keys), dtype=bool)
    at = numpy.minimum(numpy.searchsorted(sorted_keys, keys), len(sorted_keys) - 1)
    return sorted_keys[at] == keys


def counts_in(sorted_keys: numpy.ndarray, keys: numpy.ndarray) -> numpy.ndarray:
    """How often each of keys occurs in sorted_keys (sorted ascending)."""
    return numpy.searchsorted(sorted_keys, keys, side="right") - numpy.searchsorted(sorted_keys, keys, side="left")


def rank_within(keys: numpy.ndarray) -> numpy.ndarray:
    """For keys sorted ascending, each one's position among the equal keys
    before it (0 for the first of a run)."""
    n = len(keys)
    if not n:
        return numpy.zeros(0, dtype=numpy.int64)
    new = numpy.ones(n, dtype=bool)
    new[1:] = keys[1:] != keys[:-1]
    index = numpy.arange(n)
    return index - numpy.maximum.accumulate(numpy.where(new, index, 0))


def exact_ranks_correct(
    gold_bounds: numpy.ndarray, pred_bounds: numpy.ndarray, pred_level: numpy.ndarray
) -> numpy.ndarray:
    """Whether each prediction adds a correct one under `exact` at its own
    score: among the predictions of its boundaries (keys), by level from
    the highest (ties: in their order), it ranks below the number of gold
    spans of those boundaries. gold_bounds: sorted ascending."""
    order = numpy.lexsort((-pred_level, pred_bounds))
    ranked = pred_bounds[order]
    correct = numpy.zeros(len(pred_bounds), dtype=bool)
    correct[order] = rank_within(ranked) < counts_in(gold_bounds, ranked)
    return correct


def unique_first(keys: numpy.ndarray, scores=None) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """The order that sorts keys ascending (each equal run by score, highest
    first), and which of the sorted rows is the first of its key."""
    n = len(keys)
    if n and (keys[1:] > keys[:-1]).all():  # sorted, each once: what plain input mostly is
        return numpy.arange(n), numpy.ones(n, dtype=bool)
    order = numpy.argsort(keys, kind="stable") if scores is None else numpy.lexsort((-scores, keys))
    first = numpy.ones(n, dtype=bool)
    ranked = keys[order]
    first[1:] = ranked[1:] != ranked[:-1]
    return order, first


def label_ids(labels: Sequence[str], ids: Dict[str, int]) -> numpy.ndarray:
    """The id of each label (labels as a list or a sequence)."""
    return numpy.fromiter(map(ids.__getitem__, labels), dtype=numpy.int64, count=len(labels))


def as_int64(column) -> numpy.ndarray:
    return numpy.asarray(column, dtype=numpy.int64)
