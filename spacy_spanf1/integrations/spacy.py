"""spaCy's side: the registered scorer `spacy-spanf1.scorer.v1`, and the
gold and predicted spans of a spaCy `Example`, as spaCy's scorers see them.

The scorer is registered through the `spacy_scorers` entry point (see
pyproject.toml), so a config names it with no `--code` file:

    [components.ner.scorer]
    @scorers = "spacy-spanf1.scorer.v1"
    schemes = ["strict", "iou", "partial"]

Spans of an Example:

- `Doc.ents` (no spans key) follows `spacy.scorer.get_ner_prf`: a reference
  doc without entity annotation is skipped; each predicted entity is mapped
  onto the reference tokens through the alignment, and one that covers a
  reference token with missing annotation (`ent_iob == 0`) is ignored.
- `Doc.spans[key]` follows `Scorer.score_spans` with `allow_overlap=True`:
  a reference doc without the key is skipped, predicted spans are mapped
  with `Example.get_aligned_spans_x2y`, and identical spans count once.

When both docs have the same tokens (same text, same token offsets), the
alignment is the identity and is not computed.
"""

from bisect import bisect_left, bisect_right
from itertools import islice
from typing import Any, Callable, Dict, Iterable, List, Optional, Tuple, cast

import numpy
from spacy.attrs import ENT_IOB, ENT_TYPE, IDX, LENGTH, ORTH
from spacy.tokens import Doc
from spacy.training import Example

from confection import ConfigValidationError

from ..engine.columns import Side
from ..engine.metrics import f_beta
from ..engine.scorer import BATCH_SIZE, SpanScorer
from ..exceptions import SettingError
from ..results import SchemeResult
from ..links.evaluate import check_link_schemes
from ..links.examples import link_keys, link_results
from ..settings import (
    LINK_SCHEMES,
    N_RESAMPLES,
    SEED,
    UNITS,
    MatchSettings,
    check_n_resamples,
    check_open_fraction,
    check_seed,
    comma_list,
)
from ..spans import Span

SpanPair = Tuple[List[Span], List[Span]]
_TOKEN_ATTRS = [ORTH, IDX]
_ENT_ATTRS = [ORTH, IDX, ENT_IOB, ENT_TYPE]  # the first two are _TOKEN_ATTRS
_IOB, _TYPE = 2, 3


def same_tokens(x: Doc, y: Doc) -> bool:
    """Whether two docs have the same tokens: the same texts at the same
    character offsets (so the alignment between them is the identity)."""
    return _same_token_columns(x.to_array(_TOKEN_ATTRS), y.to_array(_TOKEN_ATTRS))


def _same_token_columns(x_table: numpy.ndarray, y_table: numpy.ndarray) -> bool:
    """same_tokens on two to_array tables whose first columns are ORTH, IDX."""
    return len(x_table) == len(y_table) and x_table[:, :2].tobytes() == y_table[:, :2].tobytes()


def example_spans(example: Example, spans_key: Optional[str] = None, unit: str = UNITS[0]) -> Optional[SpanPair]:
    """(gold, predicted) spans of one example, each sorted, in the given unit.

    RETURNS (Optional[SpanPair]): None when the reference doc is skipped
        (no entity annotation, or no span group `spans_key`).
    """
    if spans_key is None:
        return _ent_spans(example, unit)
    return _group_spans(example, spans_key, unit)


def _to_chars(doc: Doc, spans: List[Span]) -> List[Span]:
    if not spans:
        return spans
    starts = doc.to_array(IDX)
    lengths = doc.to_array(LENGTH)
    return [Span(int(starts[s]), int(starts[e - 1] + lengths[e - 1]), label) for s, e, label in spans]


def _decode_ents(table: numpy.ndarray, doc_start: numpy.ndarray):
    """(starts, ends, ENT_TYPE hashes) of the entities in the ENT_IOB and
    ENT_TYPE columns of one or more docs laid end to end (doc_start marks
    each doc's first token), as `Doc.ents` decodes them: an entity begins at
    a B token (3) with a type and runs over the I tokens (1) after it."""
    iob, ent_type = table[:, _IOB], table[:, _TYPE]
    starts = numpy.flatnonzero((iob == 3) & (ent_type != 0))
    boundaries = numpy.append(numpy.flatnonzero((iob != 1) | doc_start), len(iob))
    ends = boundaries[numpy.searchsorted(boundaries, starts, side="right")]
    return starts, ends, ent_type[starts]


def _ents(doc: Doc, table: numpy.ndarray) -> List[Span]:
    """The spans of `doc.ents`, from its to_array table, without making Span
    objects."""
    doc_start = numpy.zeros(len(table), dtype=bool)
    doc_start[:1] = True
    starts, ends, types = _decode_ents(table, doc_start)
    strings = doc.vocab.strings
    return [
        Span(start, end, strings[label]) for start, end, label in zip(starts.tolist(), ends.tolist(), types.tolist())
    ]


def _unannotated(y_table: numpy.ndarray) -> bool:
    """Whether a reference doc has no entity annotation (every ENT_IOB 0),
    so that spaCy's NER scorer skips it (an empty doc is not skipped)."""
    return len(y_table) > 0 and not y_table[:, _IOB].any()


def _ent_spans(example: Example, unit: str) -> Optional[SpanPair]:
    x, y = example.predicted, example.reference
    y_table = y.to_array(_ENT_ATTRS)
    if _unannotated(y_table):
        return None
    missing = y_table[:, _IOB] == 0
    x_table = x.to_array(_ENT_ATTRS)
    gold = _ents(y, y_table)
    has_missing = bool(missing.any())
    pred_x = _ents(x, x_table)
    if unit == "char":
        pred = _to_chars(x, pred_x)
        if has_missing and pred:
            pred = _drop_char_spans_on_missing(y, missing, pred)
        return sorted(_to_chars(y, gold)), sorted(pred)
    if _same_token_columns(x_table, y_table):
        pred = pred_x  # same tokens: the alignment is the identity
    else:
        align_x2y = example.alignment.x2y
        pred = []
        for start, end, label in pred_x:
            indices = align_x2y[start:end]
            if len(indices):
                pred.append(Span(int(indices[0]), int(indices[-1]) + 1, label))
    if has_missing:
        pred = [p for p in pred if not missing[p.start : p.end].any()]
    return sorted(gold), sorted(pred)


def _drop_char_spans_on_missing(y: Doc, missing, pred: List[Span]) -> List[Span]:
    """Predictions (char offsets) that touch no reference token whose entity
    annotation is missing."""
    starts = y.to_array(IDX).tolist()
    ends = (y.to_array(IDX) + y.to_array(LENGTH)).tolist()
    kept = []
    for span in pred:
        first = bisect_right(ends, span.start)
        last = bisect_left(starts, span.end)
        if not missing[first:last].any():
            kept.append(span)
    return kept


def _group_spans(example: Example, key: str, unit: str) -> Optional[SpanPair]:
    x, y = example.predicted, example.reference
    if key not in y.spans:
        return None
    gold = {Span(s.start, s.end, s.label_) for s in y.spans[key]}
    pred_group = x.spans[key] if key in x.spans else []
    if unit == "char" or same_tokens(x, y):
        pred = {Span(s.start, s.end, s.label_) for s in pred_group}
        if unit == "char":
            return sorted(_to_chars(y, list(gold))), sorted(_to_chars(x, list(pred)))
    else:
        aligned = example.get_aligned_spans_x2y(pred_group, allow_overlap=True)
        pred = {Span(s.start, s.end, s.label_) for s in aligned}
    return sorted(gold), sorted(pred)


def add_ent_examples(scorer: SpanScorer, examples: Iterable[Example], batch_size: int = BATCH_SIZE) -> int:
    """Score the `Doc.ents` of examples in token unit, as `example_spans`
    reads them, a batch of examples at a time: the entity columns of all
    docs with the same tokens on both sides are decoded together on one
    array; the others are aligned one by one.

    RETURNS (int): The number of reference docs skipped (no entity annotation).
    """
    skipped = 0
    examples = iter(examples)
    while True:
        chunk = list(islice(examples, batch_size))
        if not chunk:
            return skipped
        x_tables, y_tables = [], []
        for example in chunk:
            x, y = example.predicted, example.reference
            y_table = y.to_array(_ENT_ATTRS)
            if _unannotated(y_table):
                skipped += 1
                continue
            x_table = x.to_array(_ENT_ATTRS)
            if _same_token_columns(x_table, y_table):
                x_tables.append(x_table)
                y_tables.append(y_table)
            else:
                scorer.add(*cast(SpanPair, _ent_spans(example, "token")))  # annotated: not None
        if x_tables:
            _add_ent_tables(scorer, x_tables, y_tables, example.reference.vocab.strings)


def _add_ent_tables(scorer: SpanScorer, x_tables, y_tables, strings) -> None:
    """Decode and score the entities of docs whose two sides have the same
    tokens, all at once."""
    lengths = numpy.array([len(t) for t in y_tables], dtype=numpy.int64)
    first = numpy.cumsum(lengths) - lengths
    token_doc = numpy.repeat(numpy.arange(len(lengths)), lengths)
    doc_start = numpy.zeros(int(lengths.sum()), dtype=bool)
    doc_start[first[lengths > 0]] = True
    y = numpy.concatenate(y_tables) if len(y_tables) > 1 else y_tables[0]
    x = numpy.concatenate(x_tables) if len(x_tables) > 1 else x_tables[0]
    g_start, g_end, g_type = _decode_ents(y, doc_start)
    p_start, p_end, p_type = _decode_ents(x, doc_start)
    missing = y[:, _IOB] == 0
    if missing.any():
        seen = numpy.concatenate([[0], numpy.cumsum(missing)])
        keep = seen[p_end] == seen[p_start]
        p_start, p_end, p_type = p_start[keep], p_end[keep], p_type[keep]
    hashes, codes = numpy.unique(numpy.concatenate([g_type, p_type]), return_inverse=True)
    ids = scorer.label_ids([strings[h] for h in hashes.tolist()])[codes.ravel()]

    def side(starts, ends, labels):
        doc = token_doc[starts]
        return Side(doc, (starts - first[doc]).astype(numpy.int64), (ends - first[doc]).astype(numpy.int64), labels)

    scorer.add_sides(
        side(g_start, g_end, ids[: len(g_start)]),
        side(p_start, p_end, ids[len(g_start) :]),
        len(lengths),
    )


def add_examples(scorer: SpanScorer, examples: Iterable[Example], spans_key: Optional[str], unit: str) -> None:
    """Score Examples: `Doc.ents` in token unit a batch at a time
    (`add_ent_examples`), anything else one example at a time; reference
    docs without annotation are skipped."""
    if spans_key is None and unit == "token":
        add_ent_examples(scorer, examples)
        return
    for example in examples:
        spans = example_spans(example, spans_key, unit)
        if spans is not None:
            scorer.add(*spans)


# --------------------------------------------------------------------------
# The registered scorer
# --------------------------------------------------------------------------


def make_spanf1_scorer_v1(
    schemes: Optional[List[str]] = None,
    spans_key: Optional[str] = None,
    unit: str = UNITS[0],
    iou_threshold: float = MatchSettings.iou_threshold,
    overlap_threshold: float = MatchSettings.overlap_threshold,
    min_overlap: Optional[float] = MatchSettings.min_overlap,
    labels: Optional[List[str]] = MatchSettings.labels,  # type: ignore[assignment]  # List for the config's validation; the default is None
    beta: float = MatchSettings.beta,
    label_map: Optional[Dict[str, Any]] = None,
    map_unlisted: str = MatchSettings.map_unlisted,
    confidence: Optional[float] = None,
    n_resamples: int = N_RESAMPLES,
    seed: int = SEED,
    confusion: bool = False,
) -> Callable[..., Dict[str, Any]]:
    """Make a scorer that reports span P/R/F under every named scheme.

    schemes (List[str]): Required, non-empty; the first span scheme is the
        primary scheme, reported under spaCy's own keys (`ents_p`, ...).
        Link schemes (on an `entity_linker`) give `nel_<scheme>_p/_r/_f`,
        and `nel` spaCy's own `nel_*` keys too.
    spans_key (Optional[str]): Score `Doc.spans[spans_key]`. None: the key
        the component passes (spancat does), else `Doc.ents`.
    unit (str): "token" or "char" offsets.
    iou_threshold, overlap_threshold (float): In (0, 1].
    min_overlap (Optional[float]): In (0, 1]; None: any overlap.
    labels (Optional[List[str]]): Score only these labels; None: all.
    beta (float): When not 1, an F-beta key is added per scheme.
    label_map (Optional[Dict[str, Any]]): Labels renamed, merged or dropped
        (null) before matching, on both sides or per side ({"gold": {...},
        "pred": {...}}); labels it does not name are scored as they are.
    map_unlisted (str): "keep", or "error": a label the map does not name
        is an error when the scorer runs.
    confidence (Optional[float]): In (0, 1): add bootstrap percentile
        intervals `<prefix>_<scheme>_p_ci`, `_r_ci`, `_f_ci` ([low, high])
        for every scheme (documents resampled). None: no intervals.
    n_resamples (int): Bootstrap resamples (at least 1).
    seed (int): Seed of the bootstrap draws.
    confusion (bool): Add `<prefix>_<scheme>_confusion` for every scheme:
        {"labels": [...], "matrix": [[...], ...]}, rows gold, columns
        predicted, "O" (no span) last. False: the keys stay flat.
    RETURNS (Callable): score(examples, **kwargs) -> Dict[str, Any]. The
        keywords a component passes (labels, threshold, ...) are ignored,
        except `spans_key` when the scorer's own is None.
    """
    try:
        # link schemes (an entity_linker's) are scored apart, under nel_* keys
        names = list(comma_list(schemes)) if isinstance(schemes, (str, list, tuple)) else []
        links = check_link_schemes([n for n in names if n in LINK_SCHEMES]) if set(names) & set(LINK_SCHEMES) else ()
        spans = [n for n in names if n not in LINK_SCHEMES] if links else schemes
        match = MatchSettings(
            (spans or ["strict"]) if links else schemes,  # (only link schemes: the other settings checked all the same)
            unit=unit,
            spans_key=spans_key,
            labels=labels,
            iou_threshold=iou_threshold,
            overlap_threshold=overlap_threshold,
            min_overlap=min_overlap,
            beta=beta,
            label_map=label_map,
            map_unlisted=map_unlisted,
        )
        if confidence is not None:
            confidence = check_open_fraction("confidence", confidence)
        n_resamples = check_n_resamples(n_resamples)
        seed = check_seed(seed)
        if not isinstance(confusion, bool):
            raise SettingError(f"'confusion' must be true or false, not {confusion!r}", "confusion")
    except SettingError as err:
        # spaCy's CLI prints a ConfigValidationError as a message, any other
        # error with a traceback. It is a ValueError too.
        raise ConfigValidationError(
            title="Invalid setting of the scorer spacy-spanf1.scorer.v1", desc=str(err)
        ) from None

    def score_spanf1_v1(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        key = match.spans_key if match.spans_key is not None else kwargs.get("spans_key")
        prefix = "ents" if key is None else f"spans_{key}"
        scores: Dict[str, Any] = {}
        if links:
            examples = list(examples)
            found = link_results(examples, links, key, cast(str, match.unit), per_doc=confidence is not None)
            scores.update(link_keys(found))
            if confidence is not None:
                scores.update(interval_keys(found, "nel", confidence, n_resamples, seed))
            if not spans:
                return scores
        scorer = SpanScorer.from_settings(match, per_doc=confidence is not None)
        add_examples(scorer, examples, key, cast(str, match.unit))  # the factory's unit is never None
        results = scorer.results()
        scores.update(scores_to_keys(results, prefix, match.beta))
        if confidence is not None:
            scores.update(interval_keys(results, prefix, confidence, n_resamples, seed))
        if confusion:
            scores.update({f"{prefix}_{scheme}_confusion": r.confusion.to_dict() for scheme, r in results.items()})
        return scores

    return score_spanf1_v1


def scores_to_keys(results: Dict[str, SchemeResult], prefix: str, beta: float = MatchSettings.beta) -> Dict[str, Any]:
    """spaCy's flat score dict: the primary (first) scheme under
    `<prefix>_p/_r/_f/_per_type`, each scheme under `<prefix>_<scheme>_*`.
    P/R/F are None when no gold and no predicted span was scored."""
    out: Dict[str, Any] = {}
    for i, (scheme, result) in enumerate(results.items()):
        name = f"{prefix}_{scheme}"
        keys = result.flat_keys(name)
        if i == 0:
            out.update({f"{prefix}_{m}": keys[f"{name}_{m}"] for m in ("p", "r", "f", "per_type")})
        out.update(keys)
        if beta != 1.0:
            out[f"{name}_f{beta:g}"] = None if result.totals.is_empty else f_beta(result.precision, result.recall, beta)
    return out


def interval_keys(
    results: Dict[str, SchemeResult], prefix: str, confidence: float, n_resamples: int, seed: int
) -> Dict[str, Any]:
    """`<prefix>_<scheme>_p_ci`, `_r_ci`, `_f_ci`: [low, high] bootstrap
    percentile intervals over documents; None where P/R/F are None (no
    gold and no predicted span) or fewer than 2 documents were scored."""
    from ..stats.bootstrap import bootstrap_ci

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
