"""Intervals, paired tests and breakdowns of a scored corpus: the settings
`compare_files` and `evaluate_pipeline` take (`AnalysisSettings`), what the
streaming scorer must keep for them (`AnalysisSettings.keep`), and the
statistics of `spacy_spanf1.stats` applied to a `CorpusScores` (`analyze`).
No statistics are computed here: only `bootstrap_ci`, `paired_test`,
`breakdown` and `assign` are called.

What is kept while streaming, and only when asked:

- intervals and tests: one row of counts per document and scheme (`per_doc`),
  plus, with `resample_by`, one group key per document;
- breakdowns (`by`): the gold and predicted span lists of every document
  (memory grows with the spans), one value per document of each metadata
  field asked for, and each document's length (tokens in token unit,
  characters in char unit). The buckets are those of `stats.breakdown` on
  those span lists, so they equal it by construction.
"""
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Union

from .errors import check_n_resamples, check_open_fraction, check_seed
from .formats import DocPair, InputError, UsageError
from .stats import TESTS, bootstrap_ci, breakdown, paired_test
from .stats.breakdown import ATTRIBUTES, DOC_ATTRIBUTES, SPAN_ATTRIBUTES

__all__ = ["AnalysisSettings", "check_analysis", "analyze", "doc_length", "meta_value"]


@dataclass
class AnalysisSettings:
    """What to compute besides the scores.

    bootstrap (Optional[int]): Resamples of the bootstrap intervals; None:
        no intervals.
    confidence (float): Of the intervals, in (0, 1).
    seed (int): Of every draw (intervals and tests).
    resample_by (Optional[str]): A metadata field: documents with the same
        value are resampled (and swapped) together.
    baseline (Any): The baseline system (a predicted file, a pipeline);
        None: no comparison.
    test (str): "randomization" or "bootstrap".
    alpha (float): Significance level of the test, in (0, 1).
    by (List[str]): Breakdown attributes: span_length, label, doc_length,
        density, or a metadata field.
    buckets (int): Intervals of a numeric attribute.
    """

    bootstrap: Optional[int] = None
    confidence: float = 0.95
    seed: int = 12345
    resample_by: Optional[str] = None
    baseline: Any = None
    test: str = "randomization"
    alpha: float = 0.05
    by: List[str] = field(default_factory=list)
    buckets: int = 4

    @property
    def active(self) -> bool:
        return self.bootstrap is not None or self.baseline is not None or bool(self.by)

    @property
    def per_doc(self) -> bool:
        return self.bootstrap is not None or self.baseline is not None or bool(self.by)

    def meta_fields(self) -> List[str]:
        """The metadata fields to read from every document."""
        names = [name for name in self.by if name not in ATTRIBUTES]
        if self.resample_by is not None and (self.bootstrap is not None or self.baseline is not None):
            names.append(self.resample_by)
        return list(dict.fromkeys(names))

    def keep(self) -> Dict[str, Any]:
        """The settings of score_pairs that keep what this analysis needs."""
        return {
            "per_doc": self.per_doc,
            "meta_fields": self.meta_fields(),
            "doc_lengths": any(name in DOC_ATTRIBUTES for name in self.by),
            "keep_spans": bool(self.by),
            "by_fields": [name for name in self.by if name not in ATTRIBUTES],
        }

    def for_baseline(self) -> "AnalysisSettings":
        """The baseline run keeps per-document rows and nothing else."""
        return AnalysisSettings(bootstrap=None, baseline=None, by=[], seed=self.seed)


def check_analysis(
    bootstrap: Optional[int] = None,
    confidence: float = 0.95,
    seed: int = 12345,
    resample_by: Optional[str] = None,
    baseline: Any = None,
    test: str = "randomization",
    alpha: float = 0.05,
    by: Union[None, str, Sequence[str]] = None,
    buckets: int = 4,
) -> AnalysisSettings:
    """Every setting checked; UsageError naming the setting otherwise.
    `by` may be a comma-separated string."""
    def usage(setting, check, *args):
        try:
            return check(*args)
        except (TypeError, ValueError) as err:
            raise UsageError(str(err), setting) from None

    if bootstrap is not None:
        bootstrap = usage("bootstrap", check_n_resamples, bootstrap, "bootstrap")
    confidence = usage("confidence", check_open_fraction, "confidence", confidence)
    seed = usage("seed", check_seed, seed)
    alpha = usage("alpha", check_open_fraction, "alpha", alpha)
    if not isinstance(test, str) or test not in TESTS:
        raise UsageError(f"Unknown test {test!r}. Valid tests: {', '.join(TESTS)}", "test")
    if isinstance(buckets, bool) or not isinstance(buckets, int) or buckets < 1:
        raise UsageError(f"'buckets' must be an integer >= 1, got {buckets!r}", "buckets")
    if isinstance(by, str):
        by = [item.strip() for item in by.split(",") if item.strip()]
    by_list = list(dict.fromkeys(by or []))
    for name in by_list:
        if not isinstance(name, str):
            raise UsageError(f"'by' holds {name!r}: give attribute or field names", "by")
    if resample_by is not None and (not isinstance(resample_by, str) or not resample_by.strip()):
        raise UsageError(f"'resample_by' must be a metadata field name, got {resample_by!r}", "resample_by")
    return AnalysisSettings(bootstrap, confidence, seed, resample_by, baseline, test, alpha, by_list, buckets)


def meta_value(pair: DocPair, name: str, setting: str) -> Any:
    """A document's metadata field; InputError naming the field, the
    document and the fields it has when it lacks it."""
    meta = pair.meta or {}
    if name not in meta:
        fields = ", ".join(sorted(meta)) or "none"
        known = f" (or one of {', '.join(ATTRIBUTES)})" if setting == "by" else ""
        raise InputError(
            f"document {pair.index} ({pair.name}) has no metadata field {name!r}{known}. "
            f"Its fields: {fields}",
            setting=setting,
        )
    value = meta[name]
    if not isinstance(value, (str, int, float)) or isinstance(value, bool):
        value = str(value)
    return value


def doc_length(pair: DocPair, unit: str) -> int:
    """Tokens (token unit) or characters (char unit) of the document."""
    if unit == "char":
        return len(pair.text)
    if pair.offsets is not None:
        return len(pair.offsets)
    return max((s.end for s in pair.gold + pair.pred), default=0)


def _groups(scores: Any, settings: AnalysisSettings) -> Optional[List[Any]]:
    if settings.resample_by is None:
        return None
    return scores.doc_meta[settings.resample_by]


def _stats_error(err: Exception, setting: str) -> InputError:
    return InputError(" ".join(str(err).split()).rstrip("."), setting=setting)


def analyze(scores: Any, settings: AnalysisSettings, baseline: Any = None, score_settings: Optional[Dict[str, Any]] = None) -> None:
    """Fill `scores.intervals`, `.comparison` and `.breakdowns` (as the
    settings ask) from what score_pairs kept. baseline (CorpusScores): the
    baseline system scored on the same gold with per_doc."""
    score_settings = dict(score_settings or {})
    scores.analysis = settings
    groups = _groups(scores, settings)
    if settings.bootstrap is not None:
        try:
            scores.intervals = bootstrap_ci(
                scores.results, n_resamples=settings.bootstrap, confidence=settings.confidence,
                seed=settings.seed, groups=groups,
            )
        except ValueError as err:
            raise _stats_error(err, "resample_by" if groups is not None else "bootstrap") from None
    if baseline is not None:
        try:
            scores.comparison = paired_test(
                baseline.results, scores.results, method=settings.test, seed=settings.seed,
                groups=groups, alpha=settings.alpha,
            )
        except ValueError as err:
            raise _stats_error(err, "baseline") from None
        scores.baseline_source = baseline.sources[1]
        scores.baseline_results = baseline.results
    if settings.by:
        gold_docs, pred_docs = scores.doc_spans
        common = {k: v for k, v in score_settings.items() if v is not None}
        common["unit"] = scores.unit
        for name in settings.by:
            if name in SPAN_ATTRIBUTES:
                found = breakdown(gold_docs, pred_docs, schemes=list(scores.results), by=name,
                                  buckets=settings.buckets, **common)
            elif name in DOC_ATTRIBUTES:
                found = breakdown(gold_docs, pred_docs, schemes=list(scores.results), by=name,
                                  buckets=settings.buckets, doc_lengths=scores.doc_lengths, **common)
            else:
                try:
                    found = breakdown(gold_docs, pred_docs, schemes=list(scores.results),
                                      by=scores.doc_meta[name], buckets=settings.buckets, **common)
                except ValueError as err:
                    raise _stats_error(err, "by") from None
            scores.breakdowns[name] = found
            if settings.bootstrap is not None and name not in SPAN_ATTRIBUTES:
                scores.breakdown_intervals[name] = _bucket_intervals(found, settings, groups)


def _bucket_intervals(found, settings, groups) -> Dict[str, List[Optional[Any]]]:
    """Per scheme and document bucket, bootstrap_ci of the bucket's result
    (grouped like the corpus), or None when it has fewer than 2 units."""
    out: Dict[str, List[Optional[Any]]] = {}
    for scheme, buckets in found.items():
        cis: List[Optional[Any]] = []
        for bucket in buckets:
            bucket_groups = None if groups is None else [groups[d] for d in bucket.docs]
            try:
                cis.append(bootstrap_ci(
                    bucket.result, n_resamples=settings.bootstrap, confidence=settings.confidence,
                    seed=settings.seed, groups=bucket_groups,
                ))
            except ValueError:  # fewer than 2 documents or groups in the bucket
                cis.append(None)
        out[scheme] = cis
    return out


def analysis_dict(scores: Any, data: Dict[str, Any]) -> None:
    """Add the `ci`, `comparison` and `breakdown` blocks to `data` (the
    JSON of CorpusScores.to_dict)."""
    settings: Optional[AnalysisSettings] = getattr(scores, "analysis", None)
    if settings is None:
        return
    for scheme, interval in scores.intervals.items():
        block = interval.to_dict()
        block.pop("scheme", None)
        block["resample_by"] = settings.resample_by
        data["schemes"][scheme]["ci"] = block
    if scores.comparison:
        first = next(iter(scores.comparison.values()))
        data["comparison"] = {
            "baseline": scores.baseline_source,
            "method": first.method,
            "n_resamples": first.n_resamples,
            "seed": first.seed,
            "alpha": first.alpha,
            "unit": first.unit,
            "n_units": first.n_units,
            "resample_by": settings.resample_by,
            "schemes": {
                scheme: {
                    "f_baseline": scores.baseline_results[scheme].f1,
                    "f": scores.results[scheme].f1,
                    **{key: test.to_dict()[key]
                       for key in ("delta", "low", "high", "p_value", "significant", "delta_p", "delta_r", "exact")},
                }
                for scheme, test in scores.comparison.items()
            },
        }
    if scores.breakdowns:
        attributes: Dict[str, Any] = {}
        for name, by_scheme in scores.breakdowns.items():
            cis = scores.breakdown_intervals.get(name, {})
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
        data["breakdown"] = {
            "buckets": settings.buckets,
            "by": list(settings.by),
            "kind": {name: "span" if name in SPAN_ATTRIBUTES else "document" for name in scores.breakdowns},
            "attributes": attributes,
        }


def keep_document(scores_state: Dict[str, Any], pair: DocPair, keep: Dict[str, Any], unit: str) -> None:
    """While streaming: keep what the analysis needs of one document."""
    for name in keep.get("meta_fields", ()):
        setting = "by" if name in keep.get("by_fields", ()) else "resample_by"
        scores_state["doc_meta"].setdefault(name, []).append(meta_value(pair, name, setting))
    if keep.get("doc_lengths"):
        scores_state["doc_lengths"].append(doc_length(pair, unit))
    if keep.get("keep_spans"):
        scores_state["gold"].append(list(pair.gold))
        scores_state["pred"].append(list(pair.pred))

