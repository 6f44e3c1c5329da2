"""Bootstrap intervals of agreement, by document.

One set of draws over all the documents of the corpus
(`stats.bootstrap.resampled_counts`, scipy's draws): a replicate of a
pair's counts is the weighted sum of its shared documents' count rows (a
document the pair did not share weighs nothing for it), and a replicate of
alpha the weighted sum of the documents' coincidence rows. So each pair's
F, the mean pairwise F and alpha come from the same resamples, and no span
is matched again.
"""

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Tuple, cast

import numpy

from ..engine.metrics import prf_of_counts
from ..results import SchemeResult
from ..settings import AnalysisSettings
from ..stats.bootstrap import Interval, check_units, family_of, group_index, interval_of, resampled_counts
from .tokens import alpha_of_rows

Pair = Tuple[str, str]


@dataclass(frozen=True)
class AgreementIntervals:
    """pairwise: scheme -> (a, b) -> the interval of F(a, b); mean_f:
    scheme -> the interval of the mean pairwise F; alpha: of
    Krippendorff's alpha (None without token figures)."""

    pairwise: Mapping[str, Mapping[Pair, Interval]]
    mean_f: Mapping[str, Interval]
    alpha: Optional[Interval]

    def to_dict(self) -> Dict[str, Any]:
        return {
            "pairwise": {
                scheme: [{"reference": a, "scored": b, "f": interval.to_dict()} for (a, b), interval in pairs.items()]
                for scheme, pairs in self.pairwise.items()
            },
            "mean_f": {scheme: interval.to_dict() for scheme, interval in self.mean_f.items()},
            "alpha": None if self.alpha is None else self.alpha.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "AgreementIntervals":
        """The intervals `to_dict` wrote."""
        return cls(
            {
                scheme: {(row["reference"], row["scored"]): Interval.from_dict(row["f"]) for row in rows}
                for scheme, rows in data["pairwise"].items()
            },
            {scheme: Interval.from_dict(block) for scheme, block in data["mean_f"].items()},
            None if data["alpha"] is None else Interval.from_dict(data["alpha"]),
        )


def agreement_intervals(
    pairwise: Mapping[str, Mapping[Pair, SchemeResult]],
    docs_of: Mapping[Pair, numpy.ndarray],
    alpha_rows: Optional[numpy.ndarray],
    alpha: Optional[float],
    n_docs: int,
    analysis: AnalysisSettings,
    groups: Optional[List[Any]] = None,
) -> AgreementIntervals:
    """The intervals of every pair's F, of the mean F per scheme and of
    alpha. docs_of: (a, b) -> the corpus numbers of the pair's rows.
    groups: one key per corpus document: the documents of a group are
    resampled together (their rows summed), as `bootstrap_ci` does."""
    index = group_index(groups, n_docs)
    unit = "document" if index is None else "group"
    check_units(n_docs if index is None else int(index.max()) + 1, unit)
    columns: List[numpy.ndarray] = []
    statistics: Dict[Any, Callable[[numpy.ndarray], numpy.ndarray]] = {}
    width = 0
    for scheme, pairs in pairwise.items():
        for pair, result in pairs.items():
            per_doc = cast(numpy.ndarray, result.per_doc)  # scored per_doc
            rows = numpy.zeros((n_docs, per_doc.shape[1]), dtype=numpy.float64)
            rows[docs_of[pair]] = per_doc
            columns.append(rows)
            cut = slice(width, width + rows.shape[1])
            width += rows.shape[1]
            statistics[(scheme, pair)] = _f_of(cut, family_of(scheme))
    if alpha_rows is not None:
        columns.append(alpha_rows)
        cut = slice(width, width + alpha_rows.shape[1])
        statistics["alpha"] = _alpha_of(cut)
    table = numpy.concatenate(columns, axis=1)
    if index is not None:  # a group's row: its documents' rows summed (alpha's are not integers)
        grouped = numpy.zeros((int(index.max()) + 1, table.shape[1]), dtype=numpy.float64)
        numpy.add.at(grouped, index, table)
        table = grouped
    n_resamples = cast(int, analysis.bootstrap)  # intervals are asked for
    replicates: Dict[Any, List[numpy.ndarray]] = {key: [] for key in statistics}
    for counts in resampled_counts(table, n_resamples, analysis.seed):
        for key, statistic in statistics.items():
            replicates[key].append(statistic(counts))
    values = {key: numpy.concatenate(found) for key, found in replicates.items()}
    jackknife: Dict[Any, Optional[numpy.ndarray]] = {key: None for key in statistics}
    if analysis.method == "BCa":
        left_out = table.sum(axis=0) - table
        jackknife = {key: statistic(left_out) for key, statistic in statistics.items()}

    def interval(key: Any, estimate: float, replicated=None, left=None) -> Interval:
        return interval_of(
            values[key] if replicated is None else replicated,
            estimate,
            jackknife.get(key) if left is None else left,
            analysis.method,
            n_resamples,
            analysis.seed,
            analysis.confidence,
            unit,
        )

    pair_intervals = {
        scheme: {pair: interval((scheme, pair), result.f1) for pair, result in pairs.items()}
        for scheme, pairs in pairwise.items()
    }
    mean_intervals = {}
    for scheme, pairs in pairwise.items():
        keys = [(scheme, pair) for pair in pairs]
        estimate = float(numpy.mean([result.f1 for result in pairs.values()]))
        left = (
            None if analysis.method != "BCa" else numpy.mean([cast(numpy.ndarray, jackknife[k]) for k in keys], axis=0)
        )
        mean_intervals[scheme] = interval(None, estimate, numpy.mean([values[k] for k in keys], axis=0), left)
    alpha_interval = None
    if alpha_rows is not None and alpha is not None:
        alpha_interval = interval("alpha", alpha)
    return AgreementIntervals(pair_intervals, mean_intervals, alpha_interval)


def _alpha_of(cut: slice) -> Callable[[numpy.ndarray], numpy.ndarray]:
    def alpha(counts: numpy.ndarray) -> numpy.ndarray:
        return alpha_of_rows(counts[:, cut])

    return alpha


def _f_of(cut: slice, family: str) -> Callable[[numpy.ndarray], numpy.ndarray]:
    def f(counts: numpy.ndarray) -> numpy.ndarray:
        return prf_of_counts(counts[:, cut], family)[2]

    return f
