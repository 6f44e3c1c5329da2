"""Where do errors come from: the score split by an attribute, per bucket.

Span attributes (`span_length`, `label`) follow ExplainaBoard's rule: the
precision of a bucket counts the predicted units whose own attribute falls
in it, its recall the gold spans whose attribute falls in it, and a pair's
outcome (COR, PAR, TP, ...) counts on each side. Every gold span and every
predicted unit lands in exactly one bucket, so the buckets' counts add up to
the scheme's totals.

Document attributes (`doc_length`, `density`, or one value per document)
partition the documents; each bucket is an ordinary result of its documents.
"""

import warnings
from dataclasses import dataclass, field
from numbers import Real
from typing import Any, Dict, Iterable, List, Optional, Sequence, SupportsInt, Tuple, Union, cast, Unpack

import numpy

from ..engine.scorer import SpanScorer, evaluate_spans, warn_unseen_labels
from ..keyword_types import SpanMatchKeywords
from ..keywords import built, front_door, refuse_set
from ..results import SchemeResult
from ..settings import (
    ATTRIBUTES,
    DOC_ATTRIBUTES,
    SPAN_ATTRIBUTES,
    UNITS,
    AnalysisSettings,
    MatchSettings,
    check_count,
)
from ..engine.metrics import f_score, prf_of_counts, safe_div
from ..engine.outcomes import PRF_COUNTS, SEMEVAL_COUNTS
from ..spans import is_int, read_doc_spans, spacy_span_tuples

#: The settings of MatchSettings a breakdown does not apply.
UNUSED: Tuple[str, ...] = ("spans_key", "beta", "symmetric", "relation_labels")

#: The counts on each side: what a predicted unit and a gold span can add to.
_SIDES: Dict[Tuple[str, ...], Dict[str, Tuple[str, ...]]] = {
    SEMEVAL_COUNTS: {"pred": ("cor", "inc", "par", "spu"), "gold": ("cor", "inc", "par", "mis")},
    PRF_COUNTS: {"pred": ("tp", "fp"), "gold": ("tp", "fn")},
}

Interval = Tuple[Real, Real]


@dataclass(frozen=True)
class Bucket:
    """One bucket of a breakdown under one scheme.

    name (str): The value (text attributes) or the interval as text ("1-2",
        or "3" when lo == hi).
    interval (Optional[Tuple]): (lo, hi) for a numeric attribute, else None.
    precision, recall, f1 (float): The bucket's ratios, 0.0 where a
        denominator is zero.
    n_gold, n_pred (int): Gold spans and predicted units in the bucket.
    counts (Dict[str, Dict[str, int]]): {"pred": ..., "gold": ...}, the
        counts of each side (SemEval: cor, inc, par, spu / cor, inc, par,
        mis; iou and overlap: tp, fp / tp, fn).
    result (Optional[SchemeResult]): For document buckets, the full result
        of the bucket's documents (with per_doc); None for span buckets.
    docs (Optional[Tuple[int, ...]]): For document buckets, the indices of
        its documents (the rows of `result.per_doc`, in order); None for
        span buckets.
    """

    name: str
    interval: Optional[Interval]
    precision: float
    recall: float
    f1: float
    n_gold: int
    n_pred: int
    counts: Dict[str, Dict[str, int]]
    result: Optional[SchemeResult] = field(default=None, repr=False, compare=False)
    docs: Optional[Tuple[int, ...]] = field(default=None, repr=False, compare=False)

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): name, interval, p, r, f, n_gold, n_pred
        and counts, JSON-ready (the result and the documents are left out)."""
        return {
            "name": self.name,
            "interval": None if self.interval is None else list(self.interval),
            "p": self.precision,
            "r": self.recall,
            "f": self.f1,
            "n_gold": self.n_gold,
            "n_pred": self.n_pred,
            "counts": {side: dict(c) for side, c in self.counts.items()},
        }


def bucket_edges(values: Iterable[Real], buckets: int = AnalysisSettings.buckets) -> List[Interval]:
    """Cut numbers into at most `buckets` intervals, ExplainaBoard's
    `continuous` rule: sort the values and walk them; at each change of value
    close the current bucket when its index i >= cutoff, then set cutoff =
    i + (n - i) / (buckets - closed); the last bucket takes the rest. Equal
    values are never split, so fewer distinct values give fewer buckets.

    RETURNS (List[Tuple]): (lo, hi) per bucket, sorted; [] for no values.
    """
    buckets = check_count(buckets, "buckets")
    ordered = sorted(_plain(v) for v in values)
    n = len(ordered)
    if not n:
        return []
    edges: List[Interval] = []
    first, cutoff = 0, n / buckets
    for i in range(1, n):
        if len(edges) == buckets - 1:
            break
        if ordered[i] != ordered[i - 1] and i >= cutoff:
            edges.append((ordered[first], ordered[i - 1]))
            first = i
            cutoff = i + (n - i) / (buckets - len(edges))
    edges.append((ordered[first], ordered[-1]))
    return edges


def assign(values: Iterable[Real], intervals: Sequence[Interval]) -> numpy.ndarray:
    """The index of the interval each value goes to: the first with lo <= x
    <= hi; below the first, the first; above the last, the last; in a gap
    between two, the lower one.

    intervals (Sequence[Tuple]): Sorted, disjoint (lo, hi) pairs, as
        bucket_edges gives them (at least one).
    RETURNS (numpy.ndarray): One index per value.
    """
    if not len(intervals):
        raise ValueError("'intervals' is empty: there is no interval to assign values to.")
    lows = numpy.array([lo for lo, _ in intervals], dtype=numpy.float64)
    x = numpy.array(list(values), dtype=numpy.float64)
    return numpy.clip(numpy.searchsorted(lows, x, side="right") - 1, 0, None)


@front_door(match=MatchSettings)
def breakdown(
    gold_docs: Iterable[Iterable[Any]],
    pred_docs: Iterable[Iterable[Any]],
    *,
    by: Union[str, Sequence[Any]],
    buckets: int = AnalysisSettings.buckets,
    doc_lengths: Optional[Sequence[int]] = None,
    match: Optional[MatchSettings] = None,
    **keywords: Unpack[SpanMatchKeywords],
) -> Dict[str, List[Bucket]]:
    """P, R and F per bucket of an attribute, under each scheme.

    gold_docs, pred_docs (Iterable): One list of spans per document, as
        evaluate_spans takes them.
    by (Union[str, Sequence]): "span_length" (end - start, in the unit of
        the spans), "label", "doc_length", "density" (the summed lengths of
        a document's scored gold spans / its length), or one value per
        document (numbers are bucketed, strings are slices).
    buckets (int): How many intervals a numeric attribute is cut into (at
        most; see bucket_edges), from the gold values only: the gold spans'
        for span attributes, the documents' for document attributes.
    doc_lengths (Optional[Sequence[int]]): The length of each document
        (e.g. its token count), for "doc_length" and "density". Without it a
        document's length is the largest span end in it over both sides
        (before the `labels` filter), 0 for a document without spans.
    match (Optional[MatchSettings]): How spans are matched, as
        evaluate_spans matches them; or its fields as keywords: schemes
        (the schemes to break down; required), unit ("token" or "char"; None:
        token), labels, iou_threshold, overlap_threshold, min_overlap,
        label_map, map_unlisted, view. A keyword given beside the object is
        written over its field; spans_key and beta do not apply (a
        SettingError when set). An unknown keyword is a TypeError naming
        the valid ones.
    RETURNS (Dict[str, List[Bucket]]): scheme -> buckets in bucket order.

    Text values give one bucket per value, sorted (a label found only in
    predictions has a bucket too). A predicted span attribute outside the
    gold intervals goes to the nearest interval below it (the first one when
    it is below all). With no gold span, a numeric span attribute gives one
    bucket over the predicted values, or no bucket when there is no
    prediction either; no documents give no bucket.

    The `label` breakdown comes from the overall matching (a gold PER span
    predicted as ORG counts as INC in the PER bucket's recall and in the ORG
    bucket's precision). It differs by design from `SchemeResult.per_type`,
    which scores each label on its own matching (nervaluate's way).
    """
    match = built(match)
    refuse_set(match, UNUSED, "breakdown")
    name = _check_by(by)
    buckets = check_count(buckets, "buckets")
    if doc_lengths is not None and name not in DOC_ATTRIBUTES:
        raise ValueError(f"'doc_lengths' applies to by='doc_length' or by='density', not by={_by_text(by)}.")
    if name in SPAN_ATTRIBUTES:
        results = evaluate_spans(gold_docs, pred_docs, **_scorer_keywords(match), keep_outcomes=True)
        return {scheme: _span_buckets(result, name, buckets) for scheme, result in results.items()}
    return _doc_breakdown(gold_docs, pred_docs, match, by, name, buckets, doc_lengths)


def _scorer_keywords(match: MatchSettings) -> Dict[str, Any]:
    """The keywords of evaluate_spans the match settings give (unit: token
    when the input's own)."""
    return {"schemes": match.schemes, "unit": match.unit or UNITS[0], **match.scorer_settings()}


def _span_buckets(result: SchemeResult, by: str, buckets: int) -> List[Bucket]:
    names = SEMEVAL_COUNTS if "cor" in result.counts else PRF_COUNTS
    code = {count: i for i, count in enumerate(names)}
    sides = _SIDES[names]
    units: Dict[str, Tuple[List[int], List[Any]]] = {"pred": ([], []), "gold": ([], [])}
    for outcome in result.outcomes:
        if outcome.count in sides["gold"]:
            units["gold"][0].append(code[outcome.count])
            units["gold"][1].append(_gold_value(outcome.gold, by))
        if outcome.count in sides["pred"]:
            units["pred"][0].append(code[outcome.count])
            units["pred"][1].append(_pred_value(outcome.pred, by))
    gold_values, pred_values = units["gold"][1], units["pred"][1]
    if by == "label":
        keys: List[Any] = sorted(set(gold_values) | set(pred_values))
        intervals = None
        index = {key: i for i, key in enumerate(keys)}
        where = {side: numpy.array([index[v] for v in units[side][1]], dtype=numpy.int64) for side in units}
    else:
        if gold_values:
            intervals = bucket_edges(gold_values, buckets)
        else:  # no gold span: one bucket over the predictions, if any
            intervals = [(min(pred_values), max(pred_values))] if pred_values else []
        keys = intervals
        where = {
            side: assign(units[side][1], intervals) if intervals else numpy.zeros(0, dtype=numpy.int64)
            for side in units
        }
    rows = {
        side: numpy.bincount(
            where[side] * len(names) + numpy.array(units[side][0], dtype=numpy.int64),
            minlength=len(keys) * len(names),
        ).reshape(len(keys), len(names))
        for side in units
    }
    family = "semeval" if names == SEMEVAL_COUNTS else "prf"
    precision = prf_of_counts(rows["pred"], family)[0]
    recall = prf_of_counts(rows["gold"], family)[1]
    out = []
    for i, key in enumerate(keys):
        p, r = float(precision[i]), float(recall[i])
        counts = {side: {count: int(rows[side][i, code[count]]) for count in sides[side]} for side in sides}
        out.append(
            Bucket(
                _name(key) if intervals else key,
                tuple(key) if intervals else None,
                p,
                r,
                f_score(p, r),
                int(rows["gold"][i].sum()),
                int(rows["pred"][i].sum()),
                counts,
            )
        )
    return out


def _doc_breakdown(gold_docs, pred_docs, match: MatchSettings, by, name, buckets, doc_lengths):
    unit = match.unit or UNITS[0]
    gold = [read_doc_spans(spacy_span_tuples(d, unit), "gold", i, unit) for i, d in enumerate(gold_docs)]
    pred = [read_doc_spans(spacy_span_tuples(d, unit), "pred", i, unit) for i, d in enumerate(pred_docs)]
    if len(gold) != len(pred):
        raise ValueError(
            f"Unequal numbers of documents: {len(gold)} gold and {len(pred)} predicted. "
            "gold_docs and pred_docs must list the same documents in the same order."
        )
    n = len(gold)
    if name is None:
        values = _check_values(by, n)
    else:
        lengths = _doc_lengths(gold, pred, doc_lengths)
        if name == "doc_length":
            values = lengths
        else:
            keep = None if match.labels is None else set(match.labels)
            values = [
                safe_div(sum(s.end - s.start for s in spans if keep is None or s.label in keep), length)
                for spans, length in zip(gold, lengths)
            ]
    if values and isinstance(values[0], str):
        keys: List[Any] = sorted(set(values))
        intervals = None
        index = {key: i for i, key in enumerate(keys)}
        where = [index[v] for v in values]
    else:
        intervals = bucket_edges(values, buckets)
        keys = intervals
        where = assign(values, intervals).tolist() if intervals else []
    members: List[List[int]] = [[] for _ in keys]
    for doc, i in enumerate(where):
        members[i].append(doc)
    out: Dict[str, List[Bucket]] = {}
    with warnings.catch_warnings():
        # A bucket may lack a label of `labels`; the corpus is checked below.
        warnings.simplefilter("ignore", UserWarning)
        for key, docs in zip(keys, members):
            results = evaluate_spans(
                [gold[d] for d in docs], [pred[d] for d in docs], **_scorer_keywords(match), per_doc=True
            )
            for scheme, result in results.items():
                out.setdefault(scheme, []).append(_doc_bucket(result, key, intervals is not None, docs))
    if match.labels is not None:
        scorer = SpanScorer(match.schemes, labels=match.labels)
        scorer.label_ids([s.label for spans in gold + pred for s in spans])
        warn_unseen_labels(scorer)
    if not keys:
        out = {scheme: [] for scheme in SpanScorer(match.schemes).schemes}
    return out


def _doc_bucket(result: SchemeResult, key: Any, numeric: bool, docs: Sequence[int]) -> Bucket:
    counts = result.counts
    sides = _SIDES[SEMEVAL_COUNTS if "cor" in counts else PRF_COUNTS]
    return Bucket(
        _name(key) if numeric else key,
        tuple(key) if numeric else None,
        result.precision,
        result.recall,
        result.f1,
        result.totals.possible,
        result.totals.predicted,
        {side: {count: counts[count] for count in sides[side]} for side in sides},
        result,
        tuple(docs),
    )


def _doc_lengths(gold, pred, doc_lengths) -> List[int]:
    if doc_lengths is None:
        return [max((s.end for s in g + p), default=0) for g, p in zip(gold, pred)]
    doc_lengths = list(doc_lengths)
    if len(doc_lengths) != len(gold):
        raise ValueError(
            f"'doc_lengths' has {len(doc_lengths)} values for {len(gold)} documents: give one length per document."
        )
    bad = [(i, v) for i, v in enumerate(doc_lengths) if not is_int(v) or v < 0]
    if bad:
        raise ValueError(f"'doc_lengths' holds {bad[0][1]!r} (document {bad[0][0]}): lengths are integers >= 0.")
    return [int(v) for v in doc_lengths]


def _check_by(by: Any) -> Optional[str]:
    """The attribute name, or None for a sequence of per-document values."""
    if isinstance(by, str):
        if by not in ATTRIBUTES:
            raise ValueError(
                f"Unknown attribute {by!r} in 'by'. Valid attributes: {', '.join(ATTRIBUTES)}, "
                "or a sequence of one value per document."
            )
        return by
    try:
        len(by)
    except TypeError:
        raise ValueError(
            f"'by' is {by!r}: give one of {', '.join(ATTRIBUTES)}, or a sequence of one value per document."
        ) from None
    return None


def _check_values(by: Sequence[Any], n: int) -> List[Any]:
    values = [_plain(v) for v in by]
    if len(values) != n:
        raise ValueError(f"'by' has {len(values)} values for {n} documents: give one value per document.")
    texts = [isinstance(v, str) for v in values]
    numbers = [isinstance(v, Real) and not isinstance(v, bool) for v in values]
    if not (all(texts) or all(numbers)):
        odd = [v for v, t, x in zip(values, texts, numbers) if not (t or x)]
        detail = f"{odd[0]!r} is neither" if odd else "they mix numbers and strings"
        raise ValueError(f"The values of 'by' must be all numbers or all strings; {detail}.")
    return values


def _plain(value: Any) -> Any:
    """A numpy scalar as the Python value it holds."""
    return value.item() if isinstance(value, numpy.generic) else value


def _gold_value(span, by: str) -> Any:
    return span.label if by == "label" else span.end - span.start


def _pred_value(spans, by: str) -> Any:
    """A predicted unit's attribute: its label, or the number of positions
    its predictions cover (one span's length; the union of an iou group)."""
    if by == "label":
        return spans[0].label
    covered, reach = 0, None
    for start, end, _ in sorted(spans):
        if reach is None or start >= reach:
            covered += end - start
            reach = end
        elif end > reach:
            covered += end - reach
            reach = end
    return covered


def _name(interval: Interval) -> str:
    lo, hi = (_number_text(v) for v in interval)
    return lo if lo == hi else f"{lo}-{hi}"


def _number_text(value: Real) -> str:
    if float(value).is_integer():
        return str(int(cast(SupportsInt, value)))  # every Real converts; numbers.Real does not declare it
    return f"{value:g}"


def _by_text(by: Any) -> str:
    return repr(by) if isinstance(by, str) else "a sequence of values"
