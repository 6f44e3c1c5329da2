"""Is a difference real: paired tests of two systems on the same gold.

randomization (approximate randomization, Riezler & Maxwell 2005): each
round swaps the count rows of A and B of a document (or group) with
probability 1/2; the p-value follows scipy.stats.permutation_test
(permutation_type="samples", alternative="two-sided") exactly: the
observed delta counts as reached by a null value within
100 * eps * |delta| of it, a Monte-Carlo p is (count + 1) / (rounds + 1),
the two-sided p is twice the smaller one-sided p, clipped to 1, and when
2**n <= n_resamples every assignment is enumerated (p exact, no +1).

bootstrap (paired bootstrap, Koehn 2004, as sacrebleu computes it): the
draws of bootstrap_ci, the same for A and B; d_i = |F(B_i) - F(A_i)|,
s_i = d_i - mean(d), p = (#{s_i > |delta|} + 1) / (n_resamples + 1).
"""

from dataclasses import asdict, dataclass, replace
from typing import Any, Dict, Hashable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union

import numpy

from ..results import SchemeResult
from ..settings import (
    ALPHA,
    SEED,
    TEST_RESAMPLES,
    TESTS,
    check_choice,
    check_n_resamples,
    check_open_fraction,
    check_seed,
)
from ..engine.metrics import prf_of_counts
from .bootstrap import (
    MAX_ELEMENTS,
    results_dict,
    check_units,
    family_of,
    group_index,
    percentile_probabilities,
    quantile_linear,
    resampled_counts,
    rows_of,
    unit_rows,
)

#: Rounds of each test when none are given.
DEFAULT_RESAMPLES = TEST_RESAMPLES
#: Resamples of the paired bootstrap that gives a randomization test's interval.
INTERVAL_RESAMPLES = 1000


@dataclass(frozen=True)
class PairedTest:
    """A paired test of B against A under one scheme.

    delta (float): F(B) - F(A); delta_p, delta_r: the same for P and R.
    low, high (float): Percentile interval of delta at confidence
        1 - alpha, from the paired bootstrap (for `randomization`, a paired
        bootstrap of INTERVAL_RESAMPLES resamples with the same seed).
    p_value (float): Two-sided p of delta F; significant: p_value < alpha
        and delta != 0 (an exact zero difference is never significant, and
        its p is 1).
    exact (bool): Every assignment was enumerated (randomization only).
    adjustment (Optional[str]): "holm" once adjusted by `holm`.
    """

    scheme: str
    delta: float
    low: float
    high: float
    p_value: float
    significant: bool
    method: str
    n_resamples: int
    seed: int
    alpha: float
    delta_p: float
    delta_r: float
    unit: str
    n_units: int
    exact: bool = False
    adjustment: Optional[str] = None

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): the fields, JSON-ready."""
        return asdict(self)


def paired_test(
    result_a: Union[SchemeResult, Mapping[str, SchemeResult]],
    result_b: Union[SchemeResult, Mapping[str, SchemeResult]],
    *,
    method: str = TESTS[0],
    n_resamples: Optional[int] = None,
    seed: int = SEED,
    groups: Optional[Sequence[Hashable]] = None,
    alpha: float = ALPHA,
) -> Union[PairedTest, Dict[str, PairedTest]]:
    """Test whether system B scores differently from system A.

    result_a, result_b (SchemeResult or Dict[str, SchemeResult]): Scored
        with per_doc=True on the same gold documents, in the same order.
    method (str): "randomization" or "bootstrap".
    n_resamples (Optional[int]): Rounds; None: the method's own
        (`settings.TEST_RESAMPLES`).
    seed (int): Seed of numpy.random.default_rng.
    groups (Optional[Sequence[Hashable]]): One key per document: swap or
        resample groups instead of documents.
    alpha (float): Significance level, in (0, 1); the interval's
        confidence is 1 - alpha.
    RETURNS (PairedTest or Dict[str, PairedTest]): per scheme.

    Identical systems give delta 0 and p 1. Swapping A and B negates the
    deltas and keeps p (the same draws serve both orders).
    """
    method = check_choice("method", method, TESTS)
    n_resamples = DEFAULT_RESAMPLES[method] if n_resamples is None else check_n_resamples(n_resamples)
    seed = check_seed(seed)
    alpha = check_open_fraction("alpha", alpha)
    single = isinstance(result_a, SchemeResult) and isinstance(result_b, SchemeResult)
    results_a = results_dict(result_a, "result_a")
    results_b = results_dict(result_b, "result_b")
    if list(results_a) != list(results_b):
        if single:
            raise ValueError(
                f"result_a and result_b are of different schemes ({next(iter(results_a))!r} and "
                f"{next(iter(results_b))!r}): compare results of one scheme."
            )
        raise ValueError(
            f"result_a and result_b hold different schemes ({', '.join(results_a)} and "
            f"{', '.join(results_b)}): score both systems with the same schemes."
        )
    schemes = list(results_a)
    rows_a = {s: rows_of(results_a[s], "result_a") for s in schemes}
    rows_b = {s: rows_of(results_b[s], "result_b") for s in schemes}
    for scheme in schemes:
        _check_same_gold(scheme, rows_a[scheme], rows_b[scheme])
    n_docs = rows_a[schemes[0]].shape[0]
    for scheme in schemes[1:]:
        if rows_a[scheme].shape[0] != n_docs:
            raise ValueError(
                f"The results cover different numbers of documents ({schemes[0]}: {n_docs}, "
                f"{scheme}: {rows_a[scheme].shape[0]}): score them together."
            )
    index = group_index(groups, n_docs)
    unit = "document" if index is None else "group"
    units_a = {s: unit_rows(rows_a[s], index) for s in schemes}
    units_b = {s: unit_rows(rows_b[s], index) for s in schemes}
    n = units_a[schemes[0]].shape[0]
    check_units(n, unit)
    table_a = numpy.concatenate([units_a[s] for s in schemes], axis=1)
    table_b = numpy.concatenate([units_b[s] for s in schemes], axis=1)
    edges = numpy.cumsum([0] + [units_a[s].shape[1] for s in schemes])
    families = [family_of(s) for s in schemes]
    deltas = {
        s: (
            results_b[s].precision - results_a[s].precision,
            results_b[s].recall - results_a[s].recall,
            results_b[s].f1 - results_a[s].f1,
        )
        for s in schemes
    }
    boot_resamples = n_resamples if method == "bootstrap" else INTERVAL_RESAMPLES
    boot = _bootstrap_deltas(table_a, table_b, edges, families, boot_resamples, seed)
    exact = False
    if method == "randomization":
        p_values, exact = _randomization_p(table_a, table_b, edges, families, n_resamples, seed)
    else:
        p_values = [_bootstrap_p(boot[i], deltas[s][2]) for i, s in enumerate(schemes)]
    # An exact zero difference is no evidence of one: never significant. The
    # bootstrap's p, (#{s_i > 0} + 1) / (n + 1), would be 1 / (n + 1) for two
    # identical systems; it is 1 then, as the randomization test's is.
    p_values = [1.0 if deltas[s][2] == 0 else p for s, p in zip(schemes, p_values)]
    probabilities = percentile_probabilities(1 - alpha)
    out: Dict[str, PairedTest] = {}
    for i, scheme in enumerate(schemes):
        low, high = quantile_linear(boot[i], probabilities).tolist()
        p = float(p_values[i])
        dp, dr, df = deltas[scheme]
        out[scheme] = PairedTest(
            scheme=scheme,
            delta=float(df),
            low=float(low),
            high=float(high),
            p_value=p,
            significant=bool(p < alpha and df != 0),
            method=method,
            n_resamples=n_resamples,
            seed=seed,
            alpha=alpha,
            delta_p=float(dp),
            delta_r=float(dr),
            unit=unit,
            n_units=n,
            exact=exact,
        )
    return out[schemes[0]] if single else out


def _check_same_gold(scheme: str, rows_a: numpy.ndarray, rows_b: numpy.ndarray) -> None:
    if rows_a.shape[0] != rows_b.shape[0]:
        raise ValueError(
            f"Different numbers of documents under {scheme!r}: result_a has {rows_a.shape[0]}, "
            f"result_b {rows_b.shape[0]}. A paired test needs both systems scored on the same "
            "gold documents."
        )
    columns = [0, 1, 2, 3] if family_of(scheme) == "semeval" else [0, 2]
    gold_a = rows_a[:, columns].sum(axis=1)
    gold_b = rows_b[:, columns].sum(axis=1)
    differ = numpy.flatnonzero(gold_a != gold_b)
    if len(differ):
        doc = int(differ[0])
        raise ValueError(
            f"Different gold under {scheme!r}: document {doc} has {int(gold_a[doc])} gold spans in "
            f"result_a but {int(gold_b[doc])} in result_b ({len(differ)} documents differ). A "
            "paired test needs both systems scored on the same gold documents, in the same order."
        )


def _f_columns(counts: numpy.ndarray, edges: numpy.ndarray, families: List[str]) -> List[numpy.ndarray]:
    return [prf_of_counts(counts[..., edges[i] : edges[i + 1]], family)[2] for i, family in enumerate(families)]


def _bootstrap_deltas(table_a, table_b, edges, families, n_resamples: int, seed: int) -> List[numpy.ndarray]:
    """Per scheme, F(B_i) - F(A_i) over resamples drawn as bootstrap_ci draws."""
    width = table_a.shape[1]
    both = numpy.concatenate([table_a, table_b], axis=1)
    found: List[List[numpy.ndarray]] = [[] for _ in families]
    for counts in resampled_counts(both, n_resamples, seed):
        f_a = _f_columns(counts[:, :width], edges, families)
        f_b = _f_columns(counts[:, width:], edges, families)
        for i in range(len(families)):
            found[i].append(f_b[i] - f_a[i])
    return [numpy.concatenate(parts) for parts in found]


def _bootstrap_p(differences: numpy.ndarray, delta: float) -> float:
    """sacrebleu's paired bootstrap p-value."""
    d = numpy.abs(differences)
    s = d - d.mean()
    return (int(numpy.count_nonzero(s > abs(delta))) + 1) / (len(differences) + 1)


def _swap_masks(n: int, n_resamples: int, seed: int) -> Tuple[Iterator[numpy.ndarray], int, bool]:
    """Batches of swap masks (rounds x n, 1 = swap A and B), the number of
    rounds, and whether the masks enumerate every assignment."""
    size = max(1, MAX_ELEMENTS // n)
    if n < 63 and 2**n <= n_resamples:
        total = 2**n
        bits = numpy.arange(n, dtype=numpy.int64)

        def enumerate_all() -> Iterator[numpy.ndarray]:
            for start in range(0, total, size):
                codes = numpy.arange(start, min(total, start + size), dtype=numpy.int64)
                yield ((codes[:, None] >> bits) & 1).astype(numpy.float64)

        return enumerate_all(), total, True
    words = (n + 63) // 64
    generator = numpy.random.default_rng(seed).bit_generator

    def draw() -> Iterator[numpy.ndarray]:
        for start in range(0, n_resamples, size):
            b = min(size, n_resamples - start)
            raw = generator.random_raw((b, words)).astype("<u8")
            bits = numpy.unpackbits(raw.view(numpy.uint8).reshape(b, words * 8), axis=1, count=n, bitorder="little")
            yield bits.astype(numpy.float64)

    return draw(), n_resamples, False


def _randomization_p(table_a, table_b, edges, families, n_resamples: int, seed: int) -> Tuple[List[float], bool]:
    """Two-sided p of delta F per scheme, as scipy.stats.permutation_test
    computes it (permutation_type="samples")."""
    n = table_a.shape[0]
    total_a = table_a.sum(axis=0)
    total_b = table_b.sum(axis=0)
    observed = [fb - fa for fa, fb in zip(_f_columns(total_a, edges, families), _f_columns(total_b, edges, families))]
    difference = (table_b - table_a).astype(numpy.float64)
    masks, rounds, exact = _swap_masks(n, n_resamples, seed)
    eps = numpy.finfo(numpy.float64).eps * 100
    gammas = [numpy.abs(eps * o) for o in observed]
    less = [0] * len(families)
    greater = [0] * len(families)
    for mask in masks:
        moved = mask @ difference
        f_a = _f_columns(total_a + moved, edges, families)
        f_b = _f_columns(total_b - moved, edges, families)
        for i in range(len(families)):
            null = f_b[i] - f_a[i]
            less[i] += int(numpy.count_nonzero(null <= observed[i] + gammas[i]))
            greater[i] += int(numpy.count_nonzero(null >= observed[i] - gammas[i]))
    adjustment = 0 if exact else 1
    p_values = []
    for i in range(len(families)):
        p_less = float(less[i] + adjustment) / (rounds + adjustment)
        p_greater = float(greater[i] + adjustment) / (rounds + adjustment)
        p_values.append(float(numpy.clip(min(p_less, p_greater) * 2, 0.0, 1.0)))
    return p_values, exact


def holm(p_values: Union[Sequence[Any], Mapping[Any, Any]]) -> Union[List[Any], Dict[Any, Any]]:
    """Holm's step-down adjustment of many p-values (labels, buckets).

    p_values (Sequence or Mapping): p-values (floats) or PairedTests; a
        mapping (label -> p) keeps its keys.
    RETURNS (List or Dict): in the input's order, the adjusted p-values:
        sorted ascending, the i-th smallest (from 0) becomes
        max over j <= i of min(1, (m - j) * p_(j)). PairedTests come back
        with the adjusted p_value, `significant` recomputed and
        adjustment="holm".
    """
    keys = list(p_values) if isinstance(p_values, Mapping) else None
    items = [p_values[k] for k in keys] if keys is not None else list(p_values)
    raw = []
    for item in items:
        value = item.p_value if isinstance(item, PairedTest) else item
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
            raise ValueError(f"'p_values' must hold p-values in [0, 1] or PairedTests, got {item!r}.")
        raw.append(float(value))
    m = len(raw)
    order = sorted(range(m), key=lambda i: raw[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * raw[i]))
        adjusted[i] = running
    out = [
        replace(item, p_value=adjusted[i], significant=adjusted[i] < item.alpha and item.delta != 0, adjustment="holm")
        if isinstance(item, PairedTest)
        else adjusted[i]
        for i, item in enumerate(items)
    ]
    return dict(zip(keys, out)) if keys is not None else out
