"""Scoring a corpus: the stream loop (`score_pairs`), the two streams it
scores (files read by a format: `score_files`; a pipeline run over a
DocBin: `pipeline_pairs`), and the checks that need the whole corpus
(`check_outcome`, `finish`).

Everything that scores a corpus comes through here: the Python front
doors (`api.py`) for one corpus, the Dask tasks (`distributed/`) for each
shard, which are merged with `CorpusScores.__add__` and then checked.
Memory is bounded: a batch of documents at a time, plus only what `Keep`
asks for. Errors can stream too (`ErrorStream`): a batch's errors go to a
callback as soon as it is scored, they are counted by kind, and only the
documents with the most errors need be kept.
"""
import dataclasses
import gc
import heapq
import itertools
from collections import deque
from dataclasses import dataclass
from operator import itemgetter
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple, Union, cast

from ..engine.outcomes import ERROR_KINDS, SpanError
from ..engine.scorer import BATCH_SIZE, SpanScorer
from ..mentions.score import StringCounter
from ..notes import InsideWords, inside_word_warnings, label_warnings, quoted, spans_counted
from ..exceptions import InputError, PathLike, SettingError
from ..formats import DocPair, Pairs, PairStats, get_format, infer_format, open_pairs
from ..formats.base import formats_taking, gc_paused
from ..engine.result import count_errors, errors_of, parts_by_doc
from ..results.errors import ErrorCounts
from ..results.scores import CorpusScores
from ..signature import make_signature
from ..settings import (
    ATTRIBUTES,
    DOC_ATTRIBUTES,
    UNITS,
    AnalysisSettings,
    MatchSettings,
    ReadSettings,
    RunSettings,
    check_count,
    split_keywords,
)

__all__ = [
    "FULL_COLLECTION",
    "ErrorStream",
    "Keep",
    "check_outcome",
    "deliver_errors",
    "finish",
    "load_pipeline",
    "pipeline_input",
    "pipeline_pairs",
    "score_files",
    "score_pairs",
    "unzip",
]

#: score_pairs: a full garbage collection every this many batches.
FULL_COLLECTION = 8


@dataclass(frozen=True)
class Keep:
    """What the stream loop keeps besides the counts (each only when asked:
    memory grows with them).

    errors (bool): The primary scheme's errors and the documents that have
        them (error records, the HTML report), and their counts by kind.
    max_error_docs (Optional[int]): With errors, keep at most this many of
        those documents and only their errors: the documents with the most
        errors (ties: the earlier first), chosen as the corpus streams, so
        that memory does not grow with it; None: every one.
    on_errors (Optional[Callable]): Called after each scored batch, in
        document order, with the batch's errors of the primary scheme
        (`SpanError`s, by document, then position), a mapping that holds
        their documents (`SpanError.doc` -> DocPair, valid during the call)
        and the scheme: `on_errors(errors, pairs, scheme)`. What it is
        given need not be kept (errors=False keeps none of it).
    per_doc (bool): One row of counts per document (intervals, tests).
    meta_fields (Tuple[str, ...]): These metadata fields of every document
        (`doc_meta`); a document lacking one is an InputError naming the
        setting "by" for a field of `by_fields`, else "resample_by".
    by_fields (Tuple[str, ...]): The fields of meta_fields that `by` names.
    doc_lengths (bool): Each document's length (`doc_lengths`).
    spans (bool): Every document's span lists (`doc_spans`), for breakdowns.
    gold_labels (bool): The labels of the gold spans (`gold_labels`).
    """

    errors: bool = False
    max_error_docs: Optional[int] = None
    on_errors: Optional[Callable[[Sequence[SpanError], Mapping[int, DocPair], str], None]] = None
    per_doc: bool = False
    meta_fields: Tuple[str, ...] = ()
    by_fields: Tuple[str, ...] = ()
    doc_lengths: bool = False
    spans: bool = False
    gold_labels: bool = False

    @classmethod
    def of(cls, analysis: AnalysisSettings, *, errors: bool = False, per_doc: bool = False,
           max_error_docs: Optional[int] = None, on_errors: Optional[Callable[..., None]] = None) -> "Keep":
        """What `analysis` needs, and errors (all, or the documents with
        most of them, or streamed) and per-document rows if asked."""
        return cls(
            errors=errors,
            max_error_docs=max_error_docs,
            on_errors=on_errors,
            per_doc=per_doc or analysis.per_doc,
            meta_fields=analysis.meta_fields(),
            by_fields=tuple(name for name in analysis.by if name not in ATTRIBUTES),
            doc_lengths=any(name in DOC_ATTRIBUTES for name in analysis.by),
            spans=bool(analysis.by),
        )

    def __post_init__(self) -> None:
        if self.max_error_docs is not None:
            object.__setattr__(self, "max_error_docs", check_count(self.max_error_docs, "max_error_docs", minimum=0))

    @property
    def documents(self) -> bool:
        """Whether anything is kept of every document."""
        return bool(self.meta_fields) or self.doc_lengths or self.spans

    @property
    def scores_errors(self) -> bool:
        """Whether the scorer must find the errors (kept or streamed)."""
        return self.errors or self.on_errors is not None


#: The keywords of score_pairs that name what to keep (as `Keep` calls them).
KEEP_KEYWORDS = {
    "keep_errors": "errors", "max_error_docs": "max_error_docs", "on_errors": "on_errors", "per_doc": "per_doc",
    "meta_fields": "meta_fields", "by_fields": "by_fields", "doc_lengths": "doc_lengths", "keep_spans": "spans",
    "gold_labels": "gold_labels",
}


class ErrorStream:
    """The primary scheme's errors as the corpus streams through, a batch
    of outcome parts at a time (`add`): handed to `keep.on_errors`, counted by kind
    (`ErrorCounts`), and their documents kept: every one, or, with
    `keep.max_error_docs`, the documents with the most errors (ties: the
    earlier first) in a heap of that size, with their errors, so that what
    is kept does not grow with the corpus.

    scheme (str): The primary scheme.
    keep (Keep): errors, max_error_docs and on_errors.
    counts (Optional[ErrorCounts]): The errors were counted already (scores
        of shards, merged): these are the counts, and nothing is counted.
    """

    def __init__(self, scheme: str, keep: Keep, counts: Optional[ErrorCounts] = None) -> None:
        self.scheme = scheme
        self.on_errors = keep.on_errors
        self.errors = keep.errors
        #: The most documents kept (None: every one with errors).
        self.limit = keep.max_error_docs if keep.errors else 0
        self.counted = counts
        self.kinds = [0] * len(ERROR_KINDS)
        self.documents = 0
        self.pairs: Dict[int, DocPair] = {}
        self.parts: Dict[int, List[Tuple[int, Any]]] = {}
        self.heap: List[Tuple[int, int]] = []  # (errors, -doc): the first is the next to leave

    @property
    def bounded(self) -> bool:
        """Whether the stream keeps the errors of its documents itself (the
        scorer's may be dropped after each `add`)."""
        return self.limit is not None

    def add(self, parts: Sequence[Tuple[int, Any]], pairs: Mapping[int, DocPair]) -> None:
        """The next outcome parts of the scheme (documents counted from 0,
        after those of the parts before), and a mapping that holds their
        documents."""
        if not parts:
            return
        kinds, per_doc = count_errors(parts)
        if not per_doc:
            return
        if self.counted is None:
            self.kinds = [a + b for a, b in zip(self.kinds, kinds)]
            self.documents += len(per_doc)
        if self.on_errors is not None:
            self.on_errors(errors_of(parts), pairs, self.scheme)
        if self.limit is None:
            for doc in per_doc:
                self.pairs[doc] = pairs[doc]
            return
        if self.limit == 0:
            return
        heap = self.heap
        for doc, n in per_doc.items():
            entry = (n, -doc)
            if len(heap) < self.limit:
                heapq.heappush(heap, entry)
            elif entry > heap[0]:
                heapq.heapreplace(heap, entry)
        chosen = {-doc for _, doc in heap}
        for doc in [doc for doc in self.pairs if doc not in chosen]:
            del self.pairs[doc], self.parts[doc]
        entering = [doc for doc in per_doc if doc in chosen]
        for doc, mine in parts_by_doc(parts, entering).items():
            self.pairs[doc] = pairs[doc]
            self.parts[doc] = mine

    @property
    def counts(self) -> ErrorCounts:
        return self.counted if self.counted is not None else ErrorCounts(tuple(self.kinds), self.documents)

    def finish(self, scores: CorpusScores) -> CorpusScores:
        """The scores with the documents kept, the errors counted and, when
        the stream kept the errors itself, the primary result holding only
        the errors of its documents (the other schemes' not kept)."""
        changes: Dict[str, Any] = {"pairs": self.pairs, "error_counts": self.counts}
        if self.bounded:
            changes["pairs"] = dict(sorted(self.pairs.items()))
            kept = tuple(part for doc in sorted(self.parts) for part in self.parts[doc])
            changes["results"] = {
                name: dataclasses.replace(result, outcome_parts=kept, kept="errors")
                if name == self.scheme and self.errors
                else dataclasses.replace(result, outcome_parts=(), kept=None)
                for name, result in scores.results.items()
            }
        return scores.replace(**changes)


def deliver_errors(scores: CorpusScores, keep: Keep) -> CorpusScores:
    """What `score_pairs` does with the errors a batch at a time, done once
    for scores whose errors were kept whole (the shards of a sharded run,
    merged): their errors to `keep.on_errors`, and the documents kept cut
    down to `keep.max_error_docs`. Scores without kept errors, or a `keep`
    that asks for nothing more, are returned as they are."""
    result = scores.results[scores.primary]
    if result.kept is None or (keep.on_errors is None and keep.max_error_docs is None):
        return scores
    stream = ErrorStream(scores.primary, keep, scores.error_counts)
    # A batch at a time, as it was scored: its parts share their offset.
    for _, batch in itertools.groupby(result.outcome_parts, key=itemgetter(0)):
        stream.add(list(batch), scores.pairs)
    return stream.finish(scores)


def as_match(match: Union[None, MatchSettings, str, Sequence[str]], settings: Mapping[str, Any]) -> MatchSettings:
    """MatchSettings from settings objects or keywords: `match` is one, or
    the schemes, with further keywords of MatchSettings in `settings`."""
    known, _ = split_keywords(settings, MatchSettings, where="score_pairs")
    if isinstance(match, MatchSettings):
        return match.replace(**known) if known else match
    return MatchSettings(match, **known)


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
    **settings: Any,
) -> CorpusScores:
    """Score a stream of paired documents, a batch at a time, holding no
    more than a batch of them (and what `keep` asks for).

    pairs (Iterable[DocPair]): The paired documents; a `Pairs` (what
        `open_pairs` returns) also gives the defaults of stats, unit and
        sources.
    match (MatchSettings or the schemes): How to score; keywords of
        MatchSettings (iou_threshold=, labels=, ...) may be given too.
    keep (Optional[Keep]): What to keep besides the counts, and where the
        errors stream to; its fields may also be given as keywords
        (keep_errors=, max_error_docs=, on_errors=, per_doc=, meta_fields=,
        by_fields=, doc_lengths=, keep_spans=, gold_labels=).
    stats (Optional[PairStats]): The pairing's counts, read once the stream
        is done (documents, skipped, span groups); None: every pair is a
        document.
    unit (Optional[str]): The unit of the spans; default: the pairs' or
        the settings', else "token".
    sources (Optional[Tuple[str, str]]): What gold and prediction came from.
    signature (Optional[Mapping]): The run's signature; default:
        `make_signature` of the match settings.
    RETURNS (CorpusScores): Not checked: see `check_outcome`.
    """
    keep_changes = {KEEP_KEYWORDS[name]: settings.pop(name) for name in list(settings) if name in KEEP_KEYWORDS}
    keep = keep or Keep()
    if keep_changes:
        changed: Dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in keep_changes.items()}
        keep = dataclasses.replace(keep, **changed)
    match = as_match(match, settings)
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
    scorer = SpanScorer.from_settings(
        match.replace(schemes=match.span_schemes) if strings is not None else match, keep_errors=with_errors, kept_schemes=(primary,) if errors.bounded else None, batch_size=batch_size,
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

    def take_errors() -> None:
        # The batch's errors, just scored: the stream keeps what it needs
        # of them, and, when it keeps the errors itself, the scorer
        # forgets them (else they are the result's).
        nonlocal read
        parts = scorer.outcome_parts(primary, read)
        read += len(parts)
        errors.add(parts, batch)
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
                if keep.spans:
                    gold_spans.append(list(pair.gold))
                    pred_spans.append(list(pair.pred))
            scorer.add(pair.gold, pair.pred)
            if checks_words and pair.offsets is None and inside_words is not None:
                inside_words.add("gold", pair.name, pair.text, pair.gold)
                inside_words.add("pred", pair.name, pair.text, pair.pred)
                checks_words = not inside_words.full("gold", "pred")
            if strings is not None:
                strings.add(pair.strings("gold"), pair.strings("pred"))
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
    results = scorer.results()
    if strings is not None:
        results = {**results, **strings.results()}
        results = {name: results[name] for name in match.schemes}
    scores = CorpusScores(
        results,
        documents=stats.documents,
        skipped=stats.skipped,
        skipped_names=tuple(stats.skipped_names),
        unit=unit,
        sources=cast(Tuple[str, str], tuple(sources)),
        labels_seen=tuple(scorer.labels_seen),
        gold_labels=tuple(sorted(found_gold)),
        not_scored={side: dict(counts) for side, counts in stats.not_scored.items()},
        spans_keys=tuple(sorted(stats.spans_keys)),
        doc_meta=doc_meta,
        doc_lengths=doc_lengths if keep.doc_lengths else None,
        doc_spans=(gold_spans, pred_spans) if keep.spans else None,
        signature=make_signature(match, unit=unit) if signature is None else signature,
        notes={side: {kind: dict(n) for kind, n in found.items()} for side, found in stats.notes.items()},
        span_groups=dict(sorted(stats.spans_keys.items())) if isinstance(stats.spans_keys, Mapping) else {},
        inside_words={} if inside_words is None else inside_words.as_dict(),
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


# --------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------


def open_files(gold_path: PathLike, pred_path: Optional[PathLike], match: MatchSettings, read: ReadSettings) -> Pairs:
    """The paired documents of two files (or of one file holding both
    sides) as the settings read them (nothing is read yet); SettingError
    where the settings do not fit the files' format."""
    gold_options = pred_options = None
    if read.one_file:
        gold_options, pred_options = {"tag_column": read.gold_column}, {"tag_column": read.pred_column}
    elif pred_path is None and not get_format(
        infer_format(gold_path, read.gold_format or read.format, "gold_format" if read.gold_format else "format")
    ).both_sides:
        raise SettingError(
            "no predicted file: give 'pred_path', or, for a CoNLL file with both tag columns, "
            "'gold_column' and 'pred_column'",
            "pred_path",
        )
    pairs = open_pairs(
        gold_path, pred_path, read.format, gold_format=read.gold_format, pred_format=read.pred_format, unit=match.unit,
        gold_options=gold_options, pred_options=pred_options, spans_key=match.spans_key, **read.options,
    )
    if read.one_file and "tag_column" not in pairs.format.options:  # the two columns are each side's tag_column
        users = ", ".join(formats_taking("tag_column"))
        raise SettingError(f"'gold_column' and 'pred_column' apply to {users} input, not {pairs.format.name}",
                           "gold_column")
    return pairs


def score_files(
    gold_path: PathLike,
    pred_path: Optional[PathLike],
    match: MatchSettings,
    read: ReadSettings,
    keep: Keep = Keep(),
    rename: str = "",
) -> CorpusScores:
    """Read and score two files of the same documents (no corpus checks:
    see `check_outcome`; a shard of a larger corpus is scored so).

    rename (str): Put before every document's name (a shard's file name).
    """
    pairs = open_files(gold_path, pred_path, match, read)
    reader = pairs.format
    keep = dataclasses.replace(keep, gold_labels=keep.gold_labels or reader.keeps_gold_labels(match))
    stream: Iterable[DocPair] = pairs if not rename else _renamed(pairs, rename)
    signature = make_signature(match, unit=pairs.unit, read=read, fmt=reader.name, formats=pairs.sides)
    scores = score_pairs(stream, match, keep=keep, stats=pairs.stats, unit=pairs.unit, sources=pairs.sources,
                         signature=signature)
    if rename and scores.notes:  # a shard's notes name its file
        scores = scores.replace(notes={
            side: {kind: {"count": n["count"], "examples": [rename + e for e in n["examples"]]} for kind, n in found.items()}
            for side, found in scores.notes.items()
        })
    return scores


def _renamed(pairs: Iterable[DocPair], prefix: str) -> Iterator[DocPair]:
    for pair in pairs:
        pair.name = prefix + pair.name
        yield pair


def finish(scores: CorpusScores, match: MatchSettings) -> CorpusScores:
    """The scores with what their format adds once the corpus is whole
    (the Feedback Prize's official score)."""
    signed = (scores.signature.get("read") or {}).get("format")
    if not signed:
        return scores
    official = get_format(signed).official_score(scores, match)
    return scores if official is None else scores.replace(official_score=official)


def check_outcome(scores: CorpusScores, match: MatchSettings) -> CorpusScores:
    """No silent zeros: no document at all, a span group no gold document
    has, a corpus whose every gold document was skipped, a label of
    `labels` found in neither gold nor prediction (each known only once the
    whole corpus is read) are errors. RETURNS the scores with the warnings
    of what is suspicious but not wrong (`label_warnings`)."""
    spans_key = match.spans_key
    if not scores.documents:
        raise InputError(
            f"{scores.sources[0]} holds no document (and {scores.sources[1]} none to pair with it): "
            "there is nothing to score; is this the right file?",
        )
    if spans_key is not None and spans_key not in scores.spans_keys:
        keys = ", ".join(sorted(scores.spans_keys)) or "none"
        raise InputError(
            f"no gold document in {scores.sources[0]} has the span group {spans_key!r}. "
            f"Span keys found: {keys}",
            setting="spans_key",
        )
    if scores.documents and not scores.scored:
        read = scores.not_scored.get("gold", {})
        groups = _span_groups(scores)
        why = (
            f"none has the span group {spans_key!r}" if spans_key is not None
            else f"none has entity annotation, but the gold has span groups {groups}: pass {_spans_key_hint(scores)}"
            if groups else
            "none has annotation (e.g. no \"spans\" in a JSONL record, no entity annotation in a Doc)"
            if not read else
            f"none is annotation ({', '.join(f'{what} {n}' for what, n in sorted(read.items()))}; a Prodigy "
            'record is gold only when answered "accept")'
        )
        raise InputError(
            f"every gold document of {scores.sources[0]} ({scores.documents}) was skipped: {why}; "
            "there is nothing to score"
        )
    if match.labels is not None:
        found = set(scores.labels_seen)
        for label in match.labels:
            if label not in found:
                listed = ", ".join(sorted(found)) or "none"
                listed = _listed(sorted(found)) or "none"
                raise InputError(
                    f"the label {quoted(label)} occurs in neither {scores.sources[0]} nor {scores.sources[1]}. "
                    f"Labels found: {listed}",
                    setting="labels",
                )
    return scores.replace(warnings=tuple(scores.warnings) + outcome_warnings(scores, match))


#: The schemes whose per-label counts count spans (`iou` counts groups).
_SPAN_COUNTING = ("strict", "exact", "partial", "type", "overlap")


def _span_groups(scores: CorpusScores) -> str:
    """The gold's span groups with their spans: '"sc" (1,234 spans), ...'."""
    return ", ".join(f"{quoted(key)} ({spans_counted(n)})" for key, n in scores.span_groups.items())


def _spans_key_hint(scores: CorpusScores) -> str:
    """spans_key= the largest span group of the gold."""
    largest = max(scores.span_groups, key=lambda key: (scores.span_groups[key], key))
    return f"spans_key={quoted(largest)}"


def outcome_warnings(scores: CorpusScores, match: MatchSettings) -> Tuple[str, ...]:
    """What is suspicious in scores that are not wrong: a corpus scored on
    its entities whose gold has none but has span groups (a span
    categorizer's corpus scored without `spans_key`); no gold span or no
    predicted span in the whole corpus (a prediction without annotation,
    tags a strict tag mode dropped); predicted labels none of which occurs
    in the gold (another case, another tag set), or a predicted label that
    never occurs in the gold, with the closest gold label (and a gold label
    never predicted whose closest predicted label is such a label: a
    rename; `notes.label_warnings`); a label of `labels` found on one side
    only; in char unit, a side whose spans mostly start or end inside a word
    (token offsets read as characters)."""
    result = scores.results[scores.primary]
    counted = next((scores.results[name] for name in scores.results if name in _SPAN_COUNTING), result)
    gold = sorted(label for label, c in result.per_type.items() if c.possible)
    pred = sorted(label for label, c in result.per_type.items() if c.predicted)
    found: List[str] = []
    if match.spans_key is None and not result.totals.possible and any(scores.span_groups.values()):
        found.append(f"the gold has no entities but span groups {_span_groups(scores)}: pass "
                     f"{_spans_key_hint(scores)}")
    if not result.totals.possible and not result.totals.predicted:
        found.append("no gold span and no predicted span in the whole corpus: every score is 0 by definition")
    elif not result.totals.possible:
        found.append("no gold span in the whole corpus: recall is 0 by definition and every prediction is spurious")
    elif not result.totals.predicted:
        found.append(
            "no predicted span in the whole corpus: does the prediction hold any (entity annotation, "
            "the span group, tags the tag mode accepts)?"
        )
    if gold and pred and not set(gold) & set(pred):
        hint = " (they differ in case only: labels are compared as written)" if _case_twins(pred, gold) else ""
        found.append(
            f"no predicted label occurs in the gold{hint}: gold labels {_listed(gold)}; predicted labels {_listed(pred)}"
        )
    elif gold and pred:
        found.extend(label_warnings(
            {label: c.possible for label, c in counted.per_type.items() if c.possible},
            {label: c.predicted for label, c in counted.per_type.items() if c.predicted},
        ))
    for label in match.labels or ():
        other = gold if label in pred and label not in gold else pred if label in gold and label not in pred else None
        if other is not None:
            side, twin = ("prediction", "gold") if other is gold else ("gold", "prediction")
            case = [seen for seen in scores.labels_seen if seen != label and seen.casefold() == label.casefold()]
            hint = f"; the {twin} has {_listed(case)}" if case else ""
            found.append(f"the label {quoted(label)} of 'labels' occurs only in the {side}{hint}")
    found.extend(inside_word_warnings(scores.inside_words))
    return tuple(found)


def _case_twins(labels: Sequence[str], others: Sequence[str]) -> bool:
    folded = {label.casefold() for label in others}
    return any(label.casefold() in folded for label in labels)


def _listed(labels: Sequence[str]) -> str:
    return ", ".join(quoted(label) for label in labels)


# --------------------------------------------------------------------------
# Pipelines
# --------------------------------------------------------------------------


def import_code(code: Optional[PathLike]) -> None:
    """Import a Python file of registered functions (custom components), as
    `spacy evaluate --code` does."""
    if code is None:
        return
    from spacy.util import import_file

    path = Path(code)
    if not path.is_file():
        raise InputError("file of code not found", path)
    import_file(f"spacy_spanf1_code_{path.stem}", path)


def load_pipeline(model: Any, code: Optional[PathLike] = None) -> Any:
    """A loaded pipeline (a Language is returned as it is), the `code`
    file imported first; an InputError naming the model when spaCy can't
    load it."""
    import_code(code)
    if not isinstance(model, (str, Path)):
        return model
    import spacy

    try:
        return spacy.load(model)
    except (OSError, ValueError) as err:  # spaCy's own: no such model, an unreadable file, a bad config
        lines = str(err).strip().splitlines()
        reason = lines[0] if lines else type(err).__name__
        raise InputError(f"can't load the pipeline: {reason}", model) from None


def pipeline_input(nlp: Any, reference: Any) -> Any:
    """What the pipeline runs on, as spaCy's Corpus makes it for `spacy
    evaluate`: the reference words when the reference doc was built from
    words alone (unknown spaces), else its text."""
    from spacy.tokens import Doc

    if reference.has_unknown_spaces:
        words = [token.text for token in reference]
        spaces = [bool(token.whitespace_) for token in reference]
        return Doc(nlp.vocab, words=words, spaces=spaces)
    return reference.text


def unzip(stream: Iterator[Tuple[Any, Any]]) -> Tuple[Iterator[Any], Iterator[Any]]:
    """Two iterators over a stream of (gold, pred) pairs, read in step (the
    pairing takes one of each in turn, so each queue holds one item)."""
    gold_q: deque = deque()
    pred_q: deque = deque()

    def side(mine: deque) -> Iterator[Any]:
        while True:
            if not mine:
                try:
                    gold, pred = next(stream)
                except StopIteration:
                    return
                gold_q.append(gold)
                pred_q.append(pred)
            yield mine.popleft()

    return side(gold_q), side(pred_q)


def pipeline_pairs(
    nlp: Any,
    refs: Iterable[Any],
    match: MatchSettings,
    run: RunSettings = RunSettings(),
    *,
    sources: Tuple[str, str],
    start: int = 0,
    gold_source: str = "",
    prefix: str = "",
    progress: bool = False,
) -> Tuple[Iterator[DocPair], PairStats]:
    """The pipeline run over the reference docs, each prediction paired
    with its reference as it comes (streaming: a batch of `nlp.pipe` in
    flight), and the pairing's counts (complete once the pairs are read).

    start (int): The index of the first reference doc (a shard's offset).
    gold_source (str): The file the references came from, for messages.
    prefix (str): Put before document names (a shard's file name).
    progress (bool): A progress bar on stderr, when stderr is a terminal
        (a log file or a pipe gets no bar).
    """
    from tqdm import tqdm

    from ..formats.docbin import DOCBIN, doc_document
    from ..formats.pairing import pair_documents

    unit = match.unit or UNITS[0]
    kept_refs: deque = deque()

    def inputs() -> Iterator[Any]:
        for ref in refs:
            kept_refs.append(ref)
            yield pipeline_input(nlp, ref)

    preds = nlp.pipe(inputs(), n_process=run.n_process, batch_size=run.batch_size)
    bar = tqdm(preds, desc="Running pipeline", unit="doc", disable=None if progress else True, leave=False)

    def sides() -> Iterator[Tuple[Any, Any]]:
        for index, pred in enumerate(bar, start):
            ref = kept_refs.popleft()
            gold_doc = doc_document(index, ref, unit, "gold", gold_source)
            pred_doc = doc_document(index, pred, unit, "pred")
            if prefix:
                gold_doc.name = pred_doc.name = prefix + gold_doc.name
            yield gold_doc, pred_doc

    golds, pred_docs = unzip(sides())
    stats = PairStats()
    pairs = pair_documents(golds, pred_docs, format=DOCBIN, sources=sources, stats=stats,
                           options={"unit": unit, "spans_key": match.spans_key})
    return pairs, stats


def score_pipeline(
    nlp: Any,
    refs: Iterable[Any],
    match: MatchSettings,
    run: RunSettings = RunSettings(),
    keep: Keep = Keep(),
    **stream: Any,
) -> CorpusScores:
    """Run the pipeline over the reference docs and score it (no corpus
    checks). stream: the keywords of `pipeline_pairs` (sources, start,
    gold_source, prefix, progress)."""
    pairs, stats = pipeline_pairs(nlp, refs, match, run, **stream)
    return score_pairs(pairs, match, keep=keep, stats=stats, sources=stream["sources"])
