"""Bootstrap intervals of P, R and F from per-document count rows.

A resample is a weighted sum of count rows (docs/analysis.md, "How sure is a score"):
the weights are how often each document (or group) was drawn, so no span
is matched again. The draws and the arithmetic of the interval are those
of `scipy.stats.bootstrap(..., paired=True, vectorized=True)` step by
step, so the intervals are bit-identical to scipy's:

- draws: `rng.integers(0, n, size=(batch, n))` of one
  `numpy.random.default_rng(seed)`, batch after batch (numpy's stream does
  not depend on how the draws are cut into batches);
- percentile: scipy.stats.quantile's default "linear" method on the
  replicates at (1 - confidence) / 2 and 1 - (1 - confidence) / 2;
- BCa: scipy's `_bca_interval` (z0 from the mean percentile of the full
  estimate among the replicates, the acceleration from the jackknife); the
  jackknife's leave-one-out counts are total - row.

Counts are integers, and sums of integers in float64 are exact below
2**53, so summing in another order (a matrix product) changes nothing.
"""

import warnings
from dataclasses import asdict, dataclass
from typing import Any, Dict, Hashable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union, cast, overload

import numpy

from ..results import SchemeResult
from ..exceptions import SettingError
from ..settings import (
    CONFIDENCE,
    METHODS,
    N_RESAMPLES,
    SEED,
    check_choice,
    check_n_resamples,
    check_open_fraction,
    check_seed,
)
from ..engine.matching import SEMEVAL_RULES
from ..engine.metrics import prf_of_counts

#: The most elements a (resamples x units) array may hold; batches of
#: resamples are cut to stay below it (memory stays bounded).
MAX_ELEMENTS = 2**22
METRICS: Tuple[str, ...] = ("p", "r", "f")


@dataclass(frozen=True)
class Interval:
    """A bootstrap interval of one metric.

    estimate (float): The value on the full data (result.precision & co.).
    low, high (float): The interval's ends.
    std_error (float): Standard deviation of the replicates (ddof=1).
    method (str): "percentile" or "BCa".
    n_resamples (int), seed (int), confidence (float): As asked.
    unit (str): "document" or "group": what was resampled.
    """

    estimate: float
    low: float
    high: float
    std_error: float
    method: str
    n_resamples: int
    seed: int
    confidence: float
    unit: str

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): the fields, floats as Python floats."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Interval":
        """The interval `to_dict` wrote."""
        try:
            return cls(**data)
        except TypeError as err:
            raise ValueError(f"not an Interval as to_dict writes it ({err})") from None


@dataclass(frozen=True)
class SchemeInterval:
    """The intervals of P, R and F of one scheme, from the same draws.

    n_units (int): How many documents (or groups) were resampled.
    """

    scheme: str
    p: Interval
    r: Interval
    f: Interval
    n_units: int

    def __getitem__(self, metric: str) -> Interval:
        if metric not in METRICS:
            raise KeyError(f"Unknown metric {metric!r}. Valid metrics: {', '.join(METRICS)}")
        return getattr(self, metric)

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): {"scheme", "n_units", "p", "r", "f"},
        each metric a dict of JSON-ready values."""
        out: Dict[str, Any] = {"scheme": self.scheme, "n_units": self.n_units}
        out.update({m: self[m].to_dict() for m in METRICS})
        return out


def family_of(scheme: str) -> str:
    """ "semeval" for strict/exact/partial/type, "prf" for iou/overlap."""
    return "semeval" if scheme in SEMEVAL_RULES else "prf"


def rows_of(result: Any, setting: str = "result") -> numpy.ndarray:
    """The per-document count rows of a SchemeResult; an error when there
    are none."""
    if not isinstance(result, SchemeResult):
        raise TypeError(
            f"'{setting}' must be a SchemeResult or the dict evaluate_spans returns, got {type(result).__name__}."
        )
    if result.per_doc is None:
        raise ValueError(
            f"'{setting}' ({result.scheme!r}) has no per-document counts: score with "
            "per_doc=True (evaluate_spans, SpanScorer)."
        )
    return numpy.asarray(result.per_doc, dtype=numpy.int64)


def group_index(groups: Optional[Sequence[Hashable]], n_docs: int) -> Optional[numpy.ndarray]:
    """Each document's group number, groups numbered in the order they
    first occur; None without groups."""
    if groups is None:
        return None
    if isinstance(groups, (str, bytes)) or not hasattr(groups, "__len__"):
        raise TypeError(f"'groups' must be a sequence of one hashable key per document, got {type(groups).__name__}.")
    if len(groups) != n_docs:
        raise ValueError(
            f"'groups' has {len(groups)} keys but the result has {n_docs} documents: give one group key per document."
        )
    numbers: Dict[Hashable, int] = {}
    index = numpy.empty(n_docs, dtype=numpy.int64)
    for doc, key in enumerate(groups):
        try:
            index[doc] = numbers.setdefault(key, len(numbers))
        except TypeError:
            raise TypeError(
                f"'groups' holds the unhashable key {key!r} (document {doc}): keys must be hashable."
            ) from None
    return index


def unit_rows(rows: numpy.ndarray, index: Optional[numpy.ndarray]) -> numpy.ndarray:
    """The rows to resample: the documents' own, or per group the sum of
    its documents' rows (groups in order of first occurrence)."""
    if index is None:
        return rows
    grouped = numpy.zeros((int(index.max()) + 1 if len(index) else 0, rows.shape[1]), dtype=numpy.int64)
    numpy.add.at(grouped, index, rows)
    return grouped


def check_units(n: int, unit: str) -> None:
    if n < 2:
        raise ValueError(
            f"Resampling needs at least 2 {unit}s, got {n}: score more documents"
            + (" or use finer groups." if unit == "group" else ".")
        )


def batch_size(n: int) -> int:
    """Resamples a batch: as many as keep (batch x n) under MAX_ELEMENTS."""
    return max(1, MAX_ELEMENTS // max(n, 1))


def resampled_counts(rows: numpy.ndarray, n_resamples: int, seed: int) -> Iterator[numpy.ndarray]:
    """Per batch of resamples, the summed count rows (batch x columns, as
    float64) of rng.integers(0, n, size=(batch, n)) drawn from
    default_rng(seed): the draws of scipy.stats.bootstrap."""
    rng = numpy.random.default_rng(seed)
    n = rows.shape[0]
    table = rows.astype(numpy.float64)
    size = batch_size(n)
    for start in range(0, n_resamples, size):
        b = min(size, n_resamples - start)
        draws = rng.integers(0, n, size=(b, n))
        draws += (numpy.arange(b, dtype=numpy.int64) * n)[:, None]
        weights = numpy.bincount(draws.ravel(), minlength=b * n).reshape(b, n)
        del draws
        yield weights.astype(numpy.float64) @ table


def quantile_linear(values: numpy.ndarray, probabilities: numpy.ndarray) -> numpy.ndarray:
    """scipy.stats.quantile(values, probabilities) with its default method
    "linear" (Hyndman & Fan 7), step by step as scipy 1.17 computes it."""
    y = numpy.sort(values)
    p = numpy.asarray(probabilities, dtype=numpy.float64)
    bad = (p > 1) | (p < 0) | numpy.isnan(p)
    p = numpy.where(bad, 0.5, p)
    n = numpy.asarray(float(y.shape[-1]))
    m = 1 - p
    jg = p * n + m
    jp1 = jg // 1
    j = jp1 - 1
    g = jg % 1
    g = numpy.where(j < 0, 0.0, g)
    j = numpy.clip(j, 0.0, n - 1)
    jp1 = numpy.clip(jp1, 0.0, n - 1)
    res = (1 - g) * y[j.astype(numpy.int64)] + g * y[jp1.astype(numpy.int64)]
    return numpy.where(bad, numpy.nan, res)


def percentile_of_score(replicates: numpy.ndarray, score: float) -> numpy.float64:
    """scipy's `_percentile_of_score` ("mean" kind), as a fraction."""
    score = numpy.float64(score)
    count = numpy.count_nonzero(replicates < score) + numpy.count_nonzero(replicates <= score)
    return numpy.float64(count) / (2 * replicates.shape[-1])


def bca_probabilities(
    replicates: numpy.ndarray, estimate: float, jackknife: numpy.ndarray, alpha: float
) -> numpy.ndarray:
    """The two quantile levels of the BCa interval, as scipy's
    `_bca_interval` computes them; jackknife: the leave-one-out values."""
    try:
        from scipy.special import ndtr, ndtri
    except ImportError:
        raise SettingError(
            "method='BCa' needs scipy (its normal quantiles): pip install 'spacy-spanf1[stats]' "
            "(or scipy), or use method='percentile'.",
            "method",
        ) from None

    z0_hat = ndtri(percentile_of_score(replicates, estimate))
    n = float(jackknife.shape[-1])
    theta_dot = numpy.mean(jackknife, axis=-1, keepdims=True)
    u = (n - 1) * (theta_dot - jackknife)
    num = numpy.sum(u**3, axis=-1) / n**3
    den = numpy.sum(u**2, axis=-1) / n**2
    with numpy.errstate(invalid="ignore", divide="ignore"):
        a_hat = 1 / 6 * num / den ** (3 / 2)
        z_alpha = float(ndtri(alpha))
        z_1alpha = -z_alpha
        num1 = z0_hat + z_alpha
        alpha_1 = ndtr(z0_hat + num1 / (1 - a_hat * num1))
        num2 = z0_hat + z_1alpha
        alpha_2 = ndtr(z0_hat + num2 / (1 - a_hat * num2))
    return numpy.stack([alpha_1, alpha_2], axis=-1)


def percentile_probabilities(confidence: float) -> numpy.ndarray:
    alpha = numpy.asarray((1 - confidence) / 2, dtype=numpy.float64)
    return numpy.stack([alpha, 1 - alpha], axis=-1)


def interval_of(
    replicates: numpy.ndarray,
    estimate: float,
    jackknife: Optional[numpy.ndarray],
    method: str,
    n_resamples: int,
    seed: int,
    confidence: float,
    unit: str,
) -> Interval:
    """The interval of one statistic from its replicates (and, for BCa,
    its leave-one-out values `jackknife`), as scipy.stats.bootstrap
    computes it; for any statistic of resampled count rows."""
    if method == "BCa":
        # BCa's callers always give the jackknife values
        probabilities = bca_probabilities(replicates, estimate, cast(numpy.ndarray, jackknife), (1 - confidence) / 2)
    else:
        probabilities = percentile_probabilities(confidence)
    low, high = quantile_linear(replicates, probabilities).tolist()
    if method == "BCa" and (numpy.isnan(low) or numpy.isnan(high)):
        warnings.warn(
            "The BCa interval cannot be computed (the replicates are degenerate, e.g. all "
            "equal); low and high are nan. Use method='percentile'.",
            UserWarning,
            stacklevel=4,
        )
    return Interval(
        estimate=float(estimate),
        low=float(low),
        high=float(high),
        std_error=float(numpy.std(replicates, axis=-1, ddof=1)),
        method=method,
        n_resamples=n_resamples,
        seed=seed,
        confidence=confidence,
        unit=unit,
    )


@overload
def bootstrap_ci(
    result: SchemeResult,
    *,
    n_resamples: int = ...,
    confidence: float = ...,
    seed: int = ...,
    method: str = ...,
    groups: Optional[Sequence[Hashable]] = ...,
) -> SchemeInterval: ...


@overload
def bootstrap_ci(
    result: Mapping[str, SchemeResult],
    *,
    n_resamples: int = ...,
    confidence: float = ...,
    seed: int = ...,
    method: str = ...,
    groups: Optional[Sequence[Hashable]] = ...,
) -> Dict[str, SchemeInterval]: ...


def bootstrap_ci(
    result: Union[SchemeResult, Mapping[str, SchemeResult]],
    *,
    n_resamples: int = N_RESAMPLES,
    confidence: float = CONFIDENCE,
    seed: int = SEED,
    method: str = METHODS[0],
    groups: Optional[Sequence[Hashable]] = None,
) -> Union[SchemeInterval, Dict[str, SchemeInterval]]:
    """Bootstrap intervals of a scheme's P, R and F.

    result (SchemeResult or Dict[str, SchemeResult]): Scored with
        per_doc=True; a dict (as evaluate_spans returns it) gives a dict.
    n_resamples (int): Resamples, at least 1.
    confidence (float): Confidence level, in (0, 1).
    seed (int): Seed of numpy.random.default_rng.
    method (str): "percentile" or "BCa" (BCa needs scipy.special).
    groups (Optional[Sequence[Hashable]]): One key per document: resample
        groups (their summed rows) instead of documents; groups are
        numbered in the order they first occur.
    RETURNS (SchemeInterval or Dict[str, SchemeInterval]): per scheme, the
        intervals .p, .r, .f. Bit-identical to scipy.stats.bootstrap((rows,),
        statistic, paired=True, vectorized=True, method=method,
        confidence_level=confidence, n_resamples=n_resamples,
        rng=default_rng(seed)) with rows the (group-summed) count rows.

    All schemes of a dict share the draws (each would draw the same). A
    BCa interval of degenerate replicates is (nan, nan), with a warning.
    """
    n_resamples = check_n_resamples(n_resamples)
    confidence = check_open_fraction("confidence", confidence)
    seed = check_seed(seed)
    method = check_choice("method", method, METHODS)
    single = isinstance(result, SchemeResult)
    results = results_dict(result, "result")
    tables = {scheme: rows_of(r, f"result[{scheme!r}]" if not single else "result") for scheme, r in results.items()}
    n_docs = _same_n_docs(tables)
    index = group_index(groups, n_docs)
    unit = "document" if index is None else "group"
    units = {scheme: unit_rows(rows, index) for scheme, rows in tables.items()}
    n = next(iter(units.values())).shape[0]
    check_units(n, unit)
    schemes = list(units)
    table = numpy.concatenate([units[s] for s in schemes], axis=1)
    edges = numpy.cumsum([0] + [units[s].shape[1] for s in schemes])
    replicates: Dict[str, List[List[numpy.ndarray]]] = {s: [[], [], []] for s in schemes}
    for counts in resampled_counts(table, n_resamples, seed):
        for i, scheme in enumerate(schemes):
            prf = prf_of_counts(counts[:, edges[i] : edges[i + 1]], family_of(scheme))
            for store, values in zip(replicates[scheme], prf):
                store.append(values)
    out: Dict[str, SchemeInterval] = {}
    for scheme in schemes:
        rows = units[scheme]
        family = family_of(scheme)
        jackknife: Tuple[Any, ...] = (None, None, None)
        if method == "BCa":
            jackknife = prf_of_counts(rows.sum(axis=0) - rows, family)
        res = results[scheme]
        estimates = (res.precision, res.recall, res.f1)
        intervals = [
            interval_of(
                numpy.concatenate(replicates[scheme][k]),
                estimates[k],
                jackknife[k],
                method,
                n_resamples,
                seed,
                confidence,
                unit,
            )
            for k in range(3)
        ]
        p, r, f = intervals
        out[scheme] = SchemeInterval(scheme, p, r, f, n_units=n)
    return out[schemes[0]] if single else out


def results_dict(result: Any, setting: str) -> Dict[str, SchemeResult]:
    if isinstance(result, SchemeResult):
        return {result.scheme: result}
    if isinstance(result, Mapping):
        if not result:
            raise ValueError(f"'{setting}' is an empty dict: give the dict evaluate_spans returns.")
        for scheme, r in result.items():
            if not isinstance(r, SchemeResult):
                raise TypeError(f"'{setting}[{scheme!r}]' must be a SchemeResult, got {type(r).__name__}.")
        return dict(result)
    raise TypeError(
        f"'{setting}' must be a SchemeResult or the dict evaluate_spans returns, got {type(result).__name__}."
    )


def _same_n_docs(tables: Mapping[str, numpy.ndarray]) -> int:
    sizes = {scheme: rows.shape[0] for scheme, rows in tables.items()}
    if len(set(sizes.values())) > 1:
        listed = ", ".join(f"{s}: {n}" for s, n in sizes.items())
        raise ValueError(f"The results cover different numbers of documents ({listed}): score them together.")
    return next(iter(sizes.values()))
