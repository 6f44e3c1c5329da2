"""The error stream: what the stream loop keeps besides the counts (`Keep`),
and the primary scheme's errors as the corpus streams through
(`ErrorStream`): handed to a callback a batch at a time, counted by kind,
and only the documents with the most errors kept; `deliver_errors` does the
same once for the merged scores of a sharded run.
"""

import bisect
import dataclasses
import heapq
import itertools
from dataclasses import dataclass
from operator import attrgetter, itemgetter
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ..engine.outcomes import ERROR_KINDS, SpanError
from ..engine.result import count_errors, errors_of, parts_by_doc
from ..keyword_types import KeepKeywords
from ..formats import DocPair
from ..results.errors import ErrorCounts
from ..results.scores import CorpusScores
from ..settings import ATTRIBUTES, DOC_ATTRIBUTES, RELATION_SCHEMES, AnalysisSettings, check_count

__all__ = ["ErrorStream", "Keep", "deliver_errors"]


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
        (`SpanError`s, by document, then position; none for a batch
        without errors), a mapping that holds their documents
        (`SpanError.doc` -> DocPair, valid during the call; every document
        of the batch when streamed) and the scheme:
        `on_errors(errors, pairs, scheme)`. What it is
        given need not be kept (errors=False keeps none of it).
    per_doc (bool): One row of counts per document (intervals, tests).
    meta_fields (Tuple[str, ...]): These metadata fields of every document
        (`doc_meta`); a document lacking one is an InputError naming the
        setting "by" for a field of `by_fields`, else "resample_by".
    by_fields (Tuple[str, ...]): The fields of meta_fields that `by` names.
    doc_lengths (bool): Each document's length (`doc_lengths`).
    spans (bool): Every document's span lists (`doc_spans`), for breakdowns.
    gold_labels (bool): The labels of the gold spans (`gold_labels`).
    record_docs (Optional[Callable]): With every error kept (errors and
        no max_error_docs), keep too the documents without an error of the
        primary scheme for which `record_docs(pair)` is true: those the
        link and relation error records name, kept by a sharded run's
        shards for the records written once they are merged.
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
    record_docs: Optional[Callable[[DocPair], bool]] = None

    @classmethod
    def of(
        cls,
        analysis: AnalysisSettings,
        *,
        errors: bool = False,
        per_doc: bool = False,
        max_error_docs: Optional[int] = None,
        on_errors: Optional[Callable[..., None]] = None,
    ) -> "Keep":
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

    @classmethod
    def taken(cls, analysis: AnalysisSettings, keywords: KeepKeywords) -> "Keep":
        """`of` with the keywords of a corpus door (`KeepKeywords`), taken
        out of `keywords` (the rest are the door's reader settings)."""
        return cls.of(
            analysis,
            errors=keywords.pop("keep_errors", False),
            per_doc=keywords.pop("per_doc", False),
            max_error_docs=keywords.pop("max_error_docs", None),
            on_errors=keywords.pop("on_errors", None),
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
        self.record_docs = keep.record_docs if self.limit is None else None
        self.counted = counts
        self.kinds = [0] * len(ERROR_KINDS)
        self.documents = 0
        self.pairs: Dict[int, DocPair] = {}
        self.parts: Dict[int, List[Tuple[int, Any]]] = {}
        self.heap: List[Tuple[int, int]] = []  # (errors, -doc): the first is the next to leave
        #: doc -> (its DocPair, its relation errors), when every error is kept
        self.relation_errors: Dict[int, Tuple[DocPair, Tuple[Any, ...]]] = {}

    @property
    def bounded(self) -> bool:
        """Whether the stream keeps the errors of its documents itself (the
        scorer's may be dropped after each `add`)."""
        return self.limit is not None

    def add(self, parts: Sequence[Tuple[int, Any]], pairs: Mapping[int, DocPair]) -> None:
        """The next outcome parts of the scheme (documents counted from 0,
        after those of the parts before), and a mapping that holds their
        documents."""
        kinds, per_doc = count_errors(parts) if parts else ([], {})
        if self.record_docs is not None:  # the documents other records name
            for doc, pair in pairs.items():
                if doc not in per_doc and self.record_docs(pair):
                    self.pairs[doc] = pair
        if not per_doc:
            if self.on_errors is not None and pairs:
                self.on_errors([], pairs, self.scheme)  # a batch without errors: its documents still
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

    def add_relations(self, scheme: str, errors: Sequence[Any], pairs: Mapping[int, DocPair]) -> None:
        """A batch's errors of the first relation scheme (`RelationError`s,
        `doc` a key of pairs), after its span errors: handed to
        `keep.on_errors` (when there are any), and kept with their documents
        when the stream keeps every error (`relation_errors`)."""
        if not errors:
            return
        if self.on_errors is not None:
            self.on_errors(list(errors), pairs, scheme)
        if self.errors and self.limit is None and self.counted is None:
            for doc, mine in itertools.groupby(errors, key=attrgetter("doc")):
                self.relation_errors[doc] = (pairs[doc], tuple(mine))

    @property
    def counts(self) -> ErrorCounts:
        return self.counted if self.counted is not None else ErrorCounts(tuple(self.kinds), self.documents)

    def finish(self, scores: CorpusScores) -> CorpusScores:
        """The scores with the documents kept, the errors counted and, when
        the stream kept the errors itself, the primary result holding only
        the errors of its documents (the other schemes' not kept)."""
        changes: Dict[str, Any] = {"pairs": self.pairs, "error_counts": self.counts}
        if self.relation_errors:
            changes["relation_errors"] = dict(self.relation_errors)
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
    # The relation errors of the documents before each batch go after that
    # batch's span errors, as they were scored.
    relation_scheme = next((name for name in scores.results if name in RELATION_SCHEMES), None)
    relation_docs = sorted(scores.relation_errors) if keep.on_errors is not None else []
    delivered = 0

    def relations_before(end: Optional[int]) -> None:
        nonlocal delivered
        upto = len(relation_docs) if end is None else bisect.bisect_left(relation_docs, end, lo=delivered)
        if upto > delivered and relation_scheme is not None:
            docs = relation_docs[delivered:upto]
            found = [error for doc in docs for error in scores.relation_errors[doc][1]]
            stream.add_relations(relation_scheme, found, {doc: scores.relation_errors[doc][0] for doc in docs})
        delivered = upto

    # A batch at a time, as it was scored: its parts share their offset;
    # with the documents of the batch's errors and the other documents kept
    # in its range (`Keep.record_docs`; a callback that reads the documents
    # given reads each once).
    batches = [list(batch) for _, batch in itertools.groupby(result.outcome_parts, key=itemgetter(0))]
    kept = sorted(scores.pairs)
    ends = [parts[0][0] for parts in batches[1:]] + [None]
    start = 0
    for parts, end in zip(batches, ends):
        relations_before(parts[0][0])
        stop = len(kept) if end is None else bisect.bisect_left(kept, end)
        docs = sorted({error.doc for error in errors_of(parts)}.union(kept[start:stop]))
        start = stop
        stream.add(parts, {doc: scores.pairs[doc] for doc in docs})
    relations_before(None)
    return stream.finish(scores)
