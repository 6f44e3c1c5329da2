"""The document model: what readers hand on to pairing, and pairing to
scoring and reports.

A reader yields `Document`s. Everything it found besides the spans, the
text and the tokens is a typed field of the Document: its notes, what it
read and did not score, the scores of its spans, the mentions it could not
place, the spaCy Doc it came from, its span groups. `meta` holds the
user's metadata only (genre, source, id, ...: what breakdowns `by` and
grouped resampling read), passed through as the file gave it.

Spans. `spans.Span` is `(start, end, label)`, a NamedTuple, because the
engine reads flat arrays of starts, ends and labels and a tuple of three
is the fastest thing to build and to take apart. What a span will carry
besides goes into optional fields of the model, never into a new tuple
shape per feature:

- `kb_id` (a knowledge-base id, for entity linking): `Document.links`,
  the (span, kb id) pairs, None when the document has none, so that the
  engine's arrays stay as they are;
- `fragments` (discontinuous spans): the (start, end) pieces of a span
  whose `start`/`end` are its outer bounds; again a parallel list, None for
  documents whose spans are all contiguous;
- `score` (a model's confidence, for sweeps): already here, as
  `Document.scores`, the (span, score) pairs as the file listed them.

Relations between the spans of a document are a field of their own,
`relations`: (head span, tail span, label) triples, the spans by value (so
that sorting the spans does not move them).
"""

from dataclasses import dataclass, field
from typing import Any, Dict, Iterator, List, Mapping, NamedTuple, Optional, Tuple

from .exceptions import PathLike
from .notes import Notes
from .spans import Span

#: The (start, end) fragments of one span.
Fragments = Tuple[Tuple[int, int], ...]


class _Empty(Mapping):
    """A mapping with no entries that cannot be changed: the default of the
    mapping fields of a Document (no dict made for every document; a reader
    that has something to say gives a dict of its own)."""

    def __getitem__(self, key: Any) -> Any:
        raise KeyError(key)

    def __iter__(self) -> Iterator[Any]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __hash__(self) -> int:
        return 0

    def __repr__(self) -> str:
        return "{}"


#: The empty mapping Documents share by default.
EMPTY: Mapping[str, Any] = _Empty()


@dataclass(slots=True, weakref_slot=True)
class Document:
    """One document of one side, as a reader yields it.

    name (str): How messages name it, e.g. "line 3", "sentence 2", "id 'A1'",
        "file 'x.ann'".
    spans (Optional[List[Span]]): Sorted, identical spans once, in the unit
        the reader was asked for; None when the document has no annotation
        (a gold document without annotation is skipped and counted).
    text (str): Its text (made from its tokens when the format has none).
    tokens (Optional[List[str]]): Its tokens, in token unit.
    offsets (Optional[List[Tuple[int, int]]]): Each token's characters in text.
    meta (Dict[str, Any]): The user's metadata, passed through (genre,
        source, ...): breakdowns and grouped resampling read it. Fields
        whose name starts with "_" belong to the tool that wrote them
        (Prodigy's `_input_hash`) and are not passed on.
    line (Optional[int]): The line of its file where it starts.
    key (Optional[str]): What pairs it with the other side's document
        (a file name, an id, `_input_hash`); None: paired by position.
    source (str): The file it came from, for messages.
    notes (Mapping[str, Dict]): What its reader met and handled (span texts
        that disagree with their offsets, offsets it converted:
        `notes.Notes`); pairing sums them by side.
    counts (Mapping[str, int]): What its reader read and did not turn into
        spans (brat relations, cancelled Label Studio annotations, rejected
        Prodigy answers, ...), non-zero counts only: nothing is dropped
        silently; pairing sums and shows them.
    scores (Optional[List[Tuple[Span, Any]]]): Only when its spans carry
        scores: (span, score) pairs as listed (scores unchecked; a span
        listed without one has None), for sweeps over thresholds.
    strings (Optional[List[Tuple[str, str]]]): Of a prediction of mentions
        without offsets: its (string, label) pairs as listed (the strings
        need not be in the text), for the string schemes.
    unplaced (Optional[Dict[int, Tuple[str, str]]]): Of those mentions, the
        ones without a place in the text (not found, or duplicates), scored
        as spans past its end: the start of each such span -> (string,
        status).
    spacy_doc (Any): The spaCy Doc it was read from (DocBins), whose spans
        are read when a pair is aligned.
    span_groups (Mapping[str, int]): Its span groups (spaCy's `doc.spans`)
        and the spans of each, so that a `spans_key` that no gold document
        has is reported.
    annotator (Optional[str]): Who annotated it, when the file says so per
        document (Prodigy's `_annotator_id`), for agreement.
    links (Optional[List[Tuple[Span, str]]]): Only when its spans carry
        knowledge-base ids: (span, kb id) pairs, the spans in the unit of
        `spans` ("" for a span listed without one: NIL), for the link
        schemes.
    fragments (Optional[List[Optional[Fragments]]]): Only when some span
        has several fragments (a discontinuous entity): parallel to
        `spans`, the sorted, disjoint (start, end) fragments of each span
        whose start and end are their outer bounds, None for a contiguous
        span (`spans.join_fragments` makes the engine's spans of both).
    relations (Optional[List[Tuple[Span, Span, str]]]): Its relations,
        (head, tail, label), head and tail among `spans`; None when its
        format has none.
    """

    name: str
    spans: Optional[List[Span]]
    text: str = ""
    tokens: Optional[List[str]] = None
    offsets: Optional[List[Tuple[int, int]]] = None
    meta: Dict[str, Any] = field(default_factory=dict)
    line: Optional[int] = None
    key: Optional[str] = None
    source: str = ""
    notes: Mapping[str, Dict[str, Any]] = EMPTY
    counts: Mapping[str, int] = EMPTY
    scores: Optional[List[Tuple[Span, Any]]] = None
    strings: Optional[List[Tuple[str, str]]] = None
    unplaced: Optional[Dict[int, Tuple[str, str]]] = None
    spacy_doc: Any = None
    span_groups: Mapping[str, int] = EMPTY
    annotator: Optional[str] = None
    links: Optional[List[Tuple[Span, str]]] = None
    fragments: Optional[List[Optional[Fragments]]] = None
    relations: Optional[List[Tuple[Span, Span, str]]] = None

    @classmethod
    def of_marks(
        cls,
        name: str,
        text: str,
        marks: "Marks",
        counts: Mapping[str, int],
        source: PathLike,
        *,
        tokens: Optional[List[str]] = None,
        offsets: Optional[List[Tuple[int, int]]] = None,
        meta: Optional[Dict[str, Any]] = None,
        line: Optional[int] = None,
        key: Optional[str] = None,
        annotator: Optional[str] = None,
    ) -> "Document":
        """The Document of a record whose reader read `marks` off its
        annotation, and `counts` (zeros are left out) besides, from the
        file `source`."""
        spans, notes, scores, relations, links, fragments = marks
        return cls(
            name,
            spans,
            text,
            tokens=tokens,
            offsets=offsets,
            meta={} if meta is None else meta,
            line=line,
            key=key,
            source=str(source),
            notes=notes or EMPTY,
            counts=nonzero(counts),
            scores=scores,
            annotator=annotator,
            relations=relations,
            links=links,
            fragments=fragments,
        )


class Marks(NamedTuple):
    """What a reader read off the annotation of one record: its spans and
    what they carry, each as the `Document` field of the same name
    (`Document.of_marks` makes the Document)."""

    spans: Optional[List[Span]]
    notes: Mapping[str, Dict[str, Any]] = EMPTY
    scores: Optional[List[Tuple[Span, Any]]] = None
    relations: Optional[List[Tuple[Span, Span, str]]] = None
    links: Optional[List[Tuple[Span, str]]] = None
    fragments: Optional[List[Optional[Fragments]]] = None


def nonzero(counts: Mapping[str, int]) -> Mapping[str, int]:
    """The counts that are not zero (EMPTY when none is), for
    `Document.counts`."""
    if not counts:  # most documents: nothing to count
        return EMPTY
    kept = {what: n for what, n in counts.items() if n}
    return kept or EMPTY


__all__ = ["EMPTY", "Document", "Marks", "Notes", "nonzero"]
