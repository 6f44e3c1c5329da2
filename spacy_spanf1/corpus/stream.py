"""The stream loop (`score_pairs`): paired documents scored a batch at a
time, every scheme in one pass, holding no more than a batch of them plus
what `Keep` asks for (errors, per-document rows, metadata, lengths,
spans).
"""

import dataclasses
import gc
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union, cast

from ..engine.scorer import BATCH_SIZE, SpanScorer
from ..links.counter import LinkCounter, UnscoredIds
from ..mentions.strings import StringCounter
from ..relations import RelationScorer, ValueDoc
from ..notes import InsideWords
from ..exceptions import InputError
from ..formats import DocPair, Pairs, PairStats
from ..formats.base import gc_paused
from ..results.scores import CorpusScores
from ..signature import make_signature
from ..keywords import front_door
from ..settings import ATTRIBUTES, UNITS, MatchSettings
from .errors import ErrorStream, Keep
from .relation_errors import batch_relation_errors, relation_error_scheme, relation_settings

__all__ = ["FULL_COLLECTION", "score_pairs"]


#: score_pairs: a full garbage collection every this many batches.
FULL_COLLECTION = 8


def as_match(match: Union[None, MatchSettings, str, Sequence[str]]) -> MatchSettings:
    """MatchSettings of `match`: one, or the schemes (checked as
    MatchSettings checks them); anything else is a TypeError."""
    if isinstance(match, MatchSettings):
        return match
    if match is None or isinstance(match, str) or (isinstance(match, Sequence) and not isinstance(match, bytes)):
        return MatchSettings(match)
    raise TypeError(f"'match' must be a MatchSettings or the schemes, got {type(match).__name__}: {match!r}")


@front_door
def score_pairs(
    pairs: Iterable[DocPair],
    match: Union[None, MatchSettings, str, Sequence[str]] = None,
    *,
    keep: Optional[Keep] = None,
    stats: Optional[PairStats] = None,
    unit: Optional[str] = None,
    sources: Optional[Tuple[str, str]] = None,
    batch_size: int = BATCH_SIZE,
    signature: Optional[Mapping[str, Any]] = None,
    keep_errors: bool = False,
    max_error_docs: Optional[int] = None,
    on_errors: Optional[Callable[..., None]] = None,
    per_doc: bool = False,
) -> CorpusScores:
    """Score a stream of paired documents, a batch at a time, holding no
    more than a batch of them (and what `keep` asks for).

    pairs (Iterable[DocPair]): The paired documents; a `Pairs` (what
        `open_pairs` returns) also gives the defaults of stats, unit and
        sources.
    match (MatchSettings or the schemes): How to score
        (`MatchSettings(["iou"], iou_threshold=0.3)`); the schemes alone
        score under MatchSettings' defaults.
    keep (Optional[Keep]): What to keep besides the counts, and where the
        errors stream to.
    stats (Optional[PairStats]): The pairing's counts, read once the stream
        is done (documents, skipped, span groups); None: every pair is a
        document.
    unit (Optional[str]): The unit of the spans; default: the pairs' or
        the settings', else "token".
    sources (Optional[Tuple[str, str]]): What gold and prediction came from.
    batch_size (int): Documents scored at a time.
    signature (Optional[Mapping]): The run's signature; default:
        `make_signature` of the match settings.
    keep_errors, max_error_docs, on_errors, per_doc: The fields of `keep`
        that `compare_files` takes as keywords (errors, max_error_docs,
        on_errors, per_doc), as they are there; one away from its default
        is written over keep's.
    An unknown keyword is a TypeError naming those it takes.
    RETURNS (CorpusScores): Not checked: see `check_outcome`.
    """
    keep = keep or Keep()
    changes: Dict[str, Any] = {
        name: value
        for name, value, default in (
            ("errors", keep_errors, False),
            ("max_error_docs", max_error_docs, None),
            ("on_errors", on_errors, None),
            ("per_doc", per_doc, False),
        )
        if value is not default
    }
    if changes:
        keep = dataclasses.replace(keep, **changes)
    match = as_match(match)
    if isinstance(pairs, Pairs):
        stats = pairs.stats if stats is None else stats
        unit = pairs.unit if unit is None else unit
        sources = pairs.sources if sources is None else sources
    unit = unit or match.unit or UNITS[0]
    sources = sources or ("gold", "predicted")
    primary = match.primary
    with_errors = keep.scores_errors
    errors = ErrorStream(primary, keep)
    # A stream that keeps the errors itself needs the primary scheme's only.
    # The string schemes compare the texts of the spans: counted here, beside the span scorer.
    strings = StringCounter(match.string_schemes, match.labels, keep.per_doc) if match.string_schemes else None
    # The link schemes compare knowledge-base ids, counted beside them too.
    links = LinkCounter(match.link_schemes, unit, keep.per_doc, batch_size) if match.link_schemes else None
    # The relation schemes score the documents' relations, beside the span scorer too.
    relations = None
    if match.relation_schemes:
        relations = RelationScorer(
            match.relation_schemes,
            symmetric=frozenset(match.symmetric),
            relation_labels=match.relation_labels,
            overlap_threshold=match.overlap_threshold,
            min_overlap=match.min_overlap,
            unit=unit,
            per_doc=keep.per_doc,
            batch_size=batch_size,
        )
    unscored_relations = {"gold": 0, "pred": 0}  # read, and no relation scheme named
    # with errors, the first relation scheme's too, a batch at a time
    wants = keep.on_errors is not None or (keep.errors and keep.max_error_docs is None)
    relation_scheme = relation_error_scheme(match.schemes) if with_errors and wants else None
    rel_settings = relation_settings(match)
    beside = strings is not None or links is not None or relations is not None
    scorer = SpanScorer.from_settings(
        match.replace(schemes=match.span_schemes, symmetric=(), relation_labels=None) if beside else match,
        keep_errors=with_errors,
        kept_schemes=(primary,) if errors.bounded else None,
        batch_size=batch_size,
        per_doc=keep.per_doc,
    )
    doc_meta: Dict[str, List[Any]] = {name: [] for name in keep.meta_fields}
    doc_lengths: List[int] = []
    gold_spans: List[Any] = []
    pred_spans: List[Any] = []
    batch: Dict[int, DocPair] = {}
    read = 0
    found_gold: set = set()
    # In char unit, spans cut inside words (token offsets read as characters?).
    inside_words = InsideWords() if unit == "char" else None
    checks_words = inside_words is not None
    n = 0
    # kb ids read with no link scheme named: counted as read, not scored
    unscored_ids = UnscoredIds()

    def take_errors() -> None:
        # The batch's errors, just scored: the stream keeps what it needs
        # of them, and, when it keeps the errors itself, the scorer
        # forgets them (else they are the result's).
        nonlocal read
        parts = scorer.outcome_parts(primary, read)
        read += len(parts)
        errors.add(parts, batch)
        if relation_scheme is not None and batch:  # then the first relation scheme's
            errors.add_relations(relation_scheme, batch_relation_errors(batch, relation_scheme, rel_settings), batch)
        if errors.bounded:
            scorer.forget_outcomes()
            read = 0
        batch.clear()

    keeps_documents = keep.documents
    # The cyclic garbage collector is paused while the stream is read and
    # collects the young objects once per batch, right after the batch is
    # scored, when its documents are gone, and everything every
    # FULL_COLLECTION batches (no reference cycle a reader or a pipeline
    # makes outlives them): left to itself it walks every document in
    # flight again every few hundred allocations (a third of the time of a
    # JSONL compare).
    with gc_paused():
        for pair in pairs:
            if keeps_documents:
                for name in keep.meta_fields:
                    setting = "by" if name in keep.by_fields else "resample_by"
                    doc_meta[name].append(meta_value(pair, name, setting))
                if keep.doc_lengths:
                    doc_lengths.append(doc_length(pair, unit))
                if keep.spans:  # as scored: spans of several fragments with their fragments
                    scored = (
                        (pair.gold, pair.pred)
                        if pair.gold_fragments is None and pair.pred_fragments is None
                        else pair.scored_spans()
                    )
                    gold_spans.append(list(scored[0]))
                    pred_spans.append(list(scored[1]))
            if pair.gold_fragments is None and pair.pred_fragments is None:
                scorer.add(pair.gold, pair.pred)
            else:  # spans of several fragments
                scorer.add(*pair.scored_spans(), fragmented=True)
            if checks_words and pair.offsets is None and inside_words is not None:
                inside_words.add("gold", pair.name, pair.text, pair.gold)
                inside_words.add("pred", pair.name, pair.text, pair.pred)
                checks_words = not inside_words.full("gold", "pred")
            if strings is not None:
                strings.add(pair.strings("gold"), pair.strings("pred"))
            if links is not None:
                links.add(pair)
            elif pair.gold_links is not None or pair.pred_links is not None:
                unscored_ids.add(pair)
            if relations is not None:
                relations.add(
                    ValueDoc(pair.gold, pair.gold_relations, pair.name),
                    ValueDoc(pair.pred, pair.pred_relations, pair.name),
                )
            elif pair.gold_relations or pair.pred_relations:
                unscored_relations["gold"] += len(pair.gold_relations or ())
                unscored_relations["pred"] += len(pair.pred_relations or ())
            if keep.gold_labels:
                found_gold.update(span.label for span in pair.gold)
            if with_errors:
                batch[n] = pair
                if len(batch) >= batch_size:
                    scorer.flush()
                    take_errors()
            n += 1
            if n % batch_size == 0:  # the scorer has just scored a batch
                gc.collect(2 if n % (batch_size * FULL_COLLECTION) == 0 else 1)
    scorer.flush()
    if with_errors:
        take_errors()
    if stats is None:
        stats = PairStats(n, 0)
    unscored_ids.count_into(stats)
    results = scorer.results()
    if beside:
        results = {
            **results,
            **(strings.results() if strings else {}),
            **(links.results() if links else {}),
            **(relations.results() if relations else {}),
        }
        results = {name: results[name] for name in match.schemes}
        for side, found in links.notes().items() if links is not None else ():
            stats.add_notes(side, found)
    not_scored = {side: dict(counts) for side, counts in stats.not_scored.items()}
    for side, n in unscored_relations.items():
        if n:
            counts = not_scored.setdefault(side, {})
            counts["relations"] = counts.get("relations", 0) + n
    scores = CorpusScores(
        results,
        documents=stats.documents,
        skipped=stats.skipped,
        skipped_names=tuple(stats.skipped_names),
        unit=unit,
        sources=cast(Tuple[str, str], tuple(sources)),
        labels_seen=tuple(scorer.labels_seen),
        gold_labels=tuple(sorted(found_gold)),
        not_scored=not_scored,
        spans_keys=tuple(sorted(stats.spans_keys)),
        doc_meta=doc_meta,
        doc_lengths=doc_lengths if keep.doc_lengths else None,
        doc_spans=(gold_spans, pred_spans) if keep.spans else None,
        signature=make_signature(match, unit=unit) if signature is None else signature,
        notes={side: {kind: dict(n) for kind, n in found.items()} for side, found in stats.notes.items()},
        span_groups=dict(sorted(stats.spans_keys.items())) if isinstance(stats.spans_keys, Mapping) else {},
        inside_words={} if inside_words is None else inside_words.as_dict(),
        unmapped={side: dict(labels) for side, labels in scorer.unmapped.items() if labels},
    )
    return errors.finish(scores) if with_errors else scores


def meta_value(pair: DocPair, name: str, setting: str) -> Any:
    """A document's metadata field; InputError naming the field, the
    document and the fields it has when it lacks it."""
    meta = pair.meta or {}
    if name not in meta:
        fields = ", ".join(sorted(meta)) or "none"
        known = f" (or one of {', '.join(ATTRIBUTES)})" if setting == "by" else ""
        raise InputError(
            f"document {pair.index} ({pair.name}) has no metadata field {name!r}{known}. Its fields: {fields}",
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
