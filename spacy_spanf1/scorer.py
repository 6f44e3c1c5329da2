"""The spaCy scorer `spacy-spanf1.scorer.v1`.

Registered through the `spacy_scorers` entry point (see pyproject.toml), so
a config names it with no `--code` file:

    [components.ner.scorer]
    @scorers = "spacy-spanf1.scorer.v1"
    schemes = ["strict", "iou", "partial"]
"""
from typing import Any, Callable, Dict, Iterable, List, Optional

from confection import ConfigValidationError
from spacy.training import Example

from .docs import add_examples
from .errors import (
    check_beta,
    check_fraction,
    check_labels,
    check_n_resamples,
    check_open_fraction,
    check_schemes,
    check_seed,
    check_unit,
)
from .evaluate import SchemeResult, SpanScorer
from .metrics import f_beta


def make_spanf1_scorer_v1(
    schemes: Optional[List[str]] = None,
    spans_key: Optional[str] = None,
    unit: str = "token",
    iou_threshold: float = 0.5,
    overlap_threshold: float = 0.5,
    min_overlap: Optional[float] = None,
    labels: Optional[List[str]] = None,
    beta: float = 1.0,
    confidence: Optional[float] = None,
    n_resamples: int = 1000,
    seed: int = 12345,
) -> Callable[..., Dict[str, Any]]:
    """Make a scorer that reports span P/R/F under every named scheme.

    schemes (List[str]): Required, non-empty; the first is the primary
        scheme, reported under spaCy's own keys (`ents_p`, `ents_r`, ...).
    spans_key (Optional[str]): Score `Doc.spans[spans_key]`. None: the key
        the component passes (spancat does), else `Doc.ents`.
    unit (str): "token" or "char" offsets.
    iou_threshold, overlap_threshold (float): In (0, 1].
    min_overlap (Optional[float]): In (0, 1]; None: any overlap.
    labels (Optional[List[str]]): Score only these labels; None: all.
    beta (float): When not 1, an F-beta key is added per scheme.
    confidence (Optional[float]): In (0, 1): add bootstrap percentile
        intervals `<prefix>_<scheme>_p_ci`, `_r_ci`, `_f_ci` ([low, high])
        for every scheme (documents resampled). None: no intervals.
    n_resamples (int): Bootstrap resamples (at least 1).
    seed (int): Seed of the bootstrap draws.
    RETURNS (Callable): score(examples, **kwargs) -> Dict[str, Any]. The
        keywords a component passes (labels, threshold, ...) are ignored,
        except `spans_key` when the scorer's own is None.
    """
    try:
        schemes = check_schemes(schemes)
        check_unit(unit)
        settings = dict(
            iou_threshold=check_fraction("iou_threshold", iou_threshold),
            overlap_threshold=check_fraction("overlap_threshold", overlap_threshold),
            min_overlap=check_fraction("min_overlap", min_overlap, optional=True),
            labels=check_labels(labels),
        )
        beta = check_beta(beta)
        if confidence is not None:
            confidence = check_open_fraction("confidence", confidence)
        n_resamples = check_n_resamples(n_resamples)
        seed = check_seed(seed)
    except (TypeError, ValueError) as err:
        # spaCy's CLI prints a ConfigValidationError as a message, any other
        # error with a traceback. It is a ValueError too.
        raise ConfigValidationError(
            title="Invalid setting of the scorer spacy-spanf1.scorer.v1", desc=str(err)
        ) from None

    def score_spanf1_v1(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        key = spans_key if spans_key is not None else kwargs.get("spans_key")
        prefix = "ents" if key is None else f"spans_{key}"
        scorer = SpanScorer(schemes, per_doc=confidence is not None, **settings)
        add_examples(scorer, examples, key, unit)
        results = scorer.results()
        scores = scores_to_keys(results, prefix, beta)
        if confidence is not None:
            scores.update(interval_keys(results, prefix, confidence, n_resamples, seed))
        return scores

    return score_spanf1_v1


def scores_to_keys(results: Dict[str, SchemeResult], prefix: str, beta: float = 1.0) -> Dict[str, Any]:
    """spaCy's flat score dict: the primary (first) scheme under
    `<prefix>_p/_r/_f/_per_type`, each scheme under `<prefix>_<scheme>_*`.
    P/R/F are None when no gold and no predicted span was scored."""
    out: Dict[str, Any] = {}
    for i, (scheme, result) in enumerate(results.items()):
        empty = result.totals.is_empty
        p, r, f = (None, None, None) if empty else (result.precision, result.recall, result.f1)
        per_type = None if empty else {
            label: {"p": c.precision, "r": c.recall, "f": c.f1}
            for label, c in result.per_type.items()
        }
        if i == 0:
            out.update({f"{prefix}_p": p, f"{prefix}_r": r, f"{prefix}_f": f, f"{prefix}_per_type": per_type})
        name = f"{prefix}_{scheme}"
        out[f"{name}_p"] = p
        out[f"{name}_r"] = r
        out[f"{name}_f"] = f
        out[f"{name}_macro_f"] = None if empty else result.macro_f1
        out[f"{name}_per_type"] = per_type
        out[f"{name}_counts"] = result.counts
        if beta != 1.0:
            out[f"{name}_f{beta:g}"] = None if empty else f_beta(result.precision, result.recall, beta)
    return out



def interval_keys(
    results: Dict[str, SchemeResult], prefix: str, confidence: float, n_resamples: int, seed: int
) -> Dict[str, Any]:
    """`<prefix>_<scheme>_p_ci`, `_r_ci`, `_f_ci`: [low, high] bootstrap
    percentile intervals over documents; None where P/R/F are None (no
    gold and no predicted span) or fewer than 2 documents were scored."""
    from .stats import bootstrap_ci

    out: Dict[str, Any] = {}
    for scheme, result in results.items():
        name = f"{prefix}_{scheme}"
        if result.totals.is_empty or result.per_doc is None or len(result.per_doc) < 2:
            out.update({f"{name}_{m}_ci": None for m in ("p", "r", "f")})
            continue
        found = bootstrap_ci(result, n_resamples=n_resamples, confidence=confidence, seed=seed)
        for m in ("p", "r", "f"):
            interval = found[m]
            out[f"{name}_{m}_ci"] = [interval.low, interval.high]
    return out
