"""Intervals, paired tests and breakdowns applied to a scored corpus
(`analyze`), from what the corpus layer kept while streaming (see
`corpus.Keep`): one row of counts per document and scheme, the group key
of each document (`resample_by`), and for breakdowns the gold and
predicted span lists, metadata values and lengths of every document.
No statistics are computed here: only `bootstrap_ci`, `paired_test` and
`breakdown` are called, so the buckets equal `stats.breakdown` on those
span lists by construction. The result is a value (`AnalysisResult`).
"""

import warnings
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, cast

from ..exceptions import InputError
from ..settings import (
    DOC_ATTRIBUTES,
    LINK_SCHEMES,
    RELATION_SCHEMES,
    SPAN_ATTRIBUTES,
    STRING_SCHEMES,
    AnalysisSettings,
    MatchSettings,
)
from .bootstrap import bootstrap_ci
from .breakdown import breakdown
from .paired import paired_test

__all__ = ["AnalysisResult", "analyze"]


@dataclass(frozen=True)
class AnalysisResult:
    """What an analysis found, attached to a CorpusScores as a value
    (`CorpusScores.with_analysis`).

    settings (AnalysisSettings): What was asked.
    intervals (Mapping[str, SchemeInterval]): scheme -> bootstrap_ci.
    comparison (Mapping[str, PairedTest]): scheme -> paired_test(baseline, this).
    breakdowns (Mapping[str, Mapping[str, List[Bucket]]]): attribute ->
        scheme -> buckets (stats.breakdown).
    breakdown_intervals (Mapping[str, Mapping[str, List[Optional[SchemeInterval]]]]):
        document attributes: bootstrap_ci of each bucket (None under 2 units).
    baseline_source (Optional[str]): What the baseline's predictions came from.
    baseline_results (Mapping[str, SchemeResult]): The baseline's scores.
    """

    settings: AnalysisSettings
    intervals: Mapping[str, Any] = field(default_factory=dict)
    comparison: Mapping[str, Any] = field(default_factory=dict)
    breakdowns: Mapping[str, Mapping[str, List[Any]]] = field(default_factory=dict)
    breakdown_intervals: Mapping[str, Mapping[str, List[Any]]] = field(default_factory=dict)
    baseline_source: Optional[str] = None
    baseline_results: Mapping[str, Any] = field(default_factory=dict)

    def add_to(self, data: Dict[str, Any], scores: Any) -> None:
        """Add the `ci`, `comparison` and `breakdown` blocks to `data` (the
        JSON of CorpusScores.to_dict)."""
        settings = self.settings
        for scheme, interval in self.intervals.items():
            block = interval.to_dict()
            block.pop("scheme", None)
            block["resample_by"] = settings.resample_by
            data["schemes"][scheme]["ci"] = block
        if self.comparison:
            data["comparison"] = self._comparison_block(scores)
        if self.breakdowns:
            data["breakdown"] = self._breakdown_block()

    def _comparison_block(self, scores: Any) -> Dict[str, Any]:
        first = next(iter(self.comparison.values()))
        return {
            "baseline": self.baseline_source,
            "method": first.method,
            "n_resamples": first.n_resamples,
            "seed": first.seed,
            "alpha": first.alpha,
            "unit": first.unit,
            "n_units": first.n_units,
            "resample_by": self.settings.resample_by,
            "schemes": {
                scheme: {
                    "f_baseline": self.baseline_results[scheme].f1,
                    "f": scores.results[scheme].f1,
                    **{
                        key: test.to_dict()[key]
                        for key in ("delta", "low", "high", "p_value", "significant", "delta_p", "delta_r", "exact")
                    },
                }
                for scheme, test in self.comparison.items()
            },
        }

    def _breakdown_block(self) -> Dict[str, Any]:
        attributes: Dict[str, Any] = {}
        for name, by_scheme in self.breakdowns.items():
            cis = self.breakdown_intervals.get(name, {})
            attributes[name] = {}
            for scheme, buckets in by_scheme.items():
                rows = []
                for i, bucket in enumerate(buckets):
                    row = bucket.to_dict()
                    if scheme in cis:
                        ci = cis[scheme][i]
                        row["ci"] = None if ci is None else {m: ci[m].to_dict() for m in ("p", "r", "f")}
                    rows.append(row)
                attributes[name][scheme] = rows
        return {
            "buckets": self.settings.buckets,
            "by": list(self.settings.by),
            "kind": {name: "span" if name in SPAN_ATTRIBUTES else "document" for name in self.breakdowns},
            "attributes": attributes,
        }


def _groups(scores: Any, settings: AnalysisSettings) -> Optional[List[Any]]:
    if settings.resample_by is None:
        return None
    return scores.doc_meta[settings.resample_by]


def _stats_error(err: Exception, setting: str) -> InputError:
    return InputError(" ".join(str(err).split()).rstrip("."), setting=setting)


def analyze(
    scores: Any, settings: AnalysisSettings, baseline: Any = None, match: Optional[MatchSettings] = None
) -> AnalysisResult:
    """The intervals, paired test and breakdowns the settings ask for,
    from what the corpus layer kept of `scores`.

    baseline (Optional[CorpusScores]): The baseline system scored on the
        same gold with per-document rows.
    match (Optional[MatchSettings]): The settings `scores` were scored
        with; a breakdown applies them again.
    RETURNS (AnalysisResult)
    """
    groups = _groups(scores, settings)
    found: Dict[str, Any] = {}
    if settings.bootstrap is not None:
        try:
            found["intervals"] = _intervals(scores.results, settings, groups)
        except ValueError as err:
            raise _stats_error(err, "resample_by" if groups is not None else "bootstrap") from None
    if baseline is not None:
        try:
            found["comparison"] = paired_test(
                baseline.results,
                scores.results,
                method=settings.test,
                seed=settings.seed,
                groups=groups,
                alpha=settings.alpha,
            )
        except ValueError as err:
            raise _stats_error(err, "baseline") from None
        found["baseline_source"] = baseline.sources[1]
        found["baseline_results"] = baseline.results
    if settings.by:
        breakdowns, intervals = _breakdowns(scores, settings, match, groups)
        found["breakdowns"], found["breakdown_intervals"] = breakdowns, intervals
    return AnalysisResult(settings, **found)


def _breakdowns(scores: Any, settings: AnalysisSettings, match: Optional[MatchSettings], groups) -> Any:
    # The spans were scored once already, and what that found looks off is in
    # `scores.warnings`: matching them again per bucket warns of nothing new.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return _breakdowns_of(scores, settings, match, groups)


def _breakdowns_of(scores: Any, settings: AnalysisSettings, match: Optional[MatchSettings], groups) -> Any:
    gold_docs, pred_docs = scores.doc_spans
    common = {} if match is None else {k: v for k, v in match.scorer_settings().items() if v is not None}
    common["unit"] = scores.unit
    breakdowns: Dict[str, Any] = {}
    intervals: Dict[str, Any] = {}
    # Breakdowns match spans again; the string schemes compare texts, the link
    # schemes ids and the relation schemes relations: they are left out.
    span_schemes = [
        scheme for scheme in scores.results if scheme not in STRING_SCHEMES + LINK_SCHEMES + RELATION_SCHEMES
    ]
    for name in settings.by:
        if name in SPAN_ATTRIBUTES:
            found = breakdown(gold_docs, pred_docs, schemes=span_schemes, by=name, buckets=settings.buckets, **common)
        elif name in DOC_ATTRIBUTES:
            found = breakdown(
                gold_docs,
                pred_docs,
                schemes=span_schemes,
                by=name,
                buckets=settings.buckets,
                doc_lengths=scores.doc_lengths,
                **common,
            )
        else:
            try:
                found = breakdown(
                    gold_docs,
                    pred_docs,
                    schemes=span_schemes,
                    by=scores.doc_meta[name],
                    buckets=settings.buckets,
                    **common,
                )
            except ValueError as err:
                raise _stats_error(err, "by") from None
        breakdowns[name] = found
        if settings.bootstrap is not None and name not in SPAN_ATTRIBUTES:
            intervals[name] = _bucket_intervals(found, settings, groups)
    return breakdowns, intervals


def _bucket_intervals(found, settings, groups) -> Dict[str, List[Optional[Any]]]:
    """Per scheme and document bucket, bootstrap_ci of the bucket's result
    (grouped like the corpus), or None when it has fewer than 2 units."""
    out: Dict[str, List[Optional[Any]]] = {}
    for scheme, buckets in found.items():
        cis: List[Optional[Any]] = []
        for bucket in buckets:
            bucket_groups = None if groups is None else [groups[d] for d in bucket.docs]
            try:
                cis.append(_intervals(bucket.result, settings, bucket_groups))
            except ValueError:  # fewer than 2 documents or groups in the bucket
                cis.append(None)
        out[scheme] = cis
    return out


def _intervals(results: Any, settings: AnalysisSettings, groups: Optional[Sequence[Any]]) -> Any:
    """`bootstrap_ci` of results under the analysis settings (with bootstrap set)."""
    return bootstrap_ci(
        results,
        n_resamples=cast(int, settings.bootstrap),
        confidence=settings.confidence,
        seed=settings.seed,
        method=settings.method,
        groups=groups,
    )
