"""Pairing gold and predicted documents, once for every format.

`pair_documents` takes the two Document streams of a format's reader and
yields DocPairs one at a time; it holds no list of documents (except the
predicted side of a keyed format, by key, as the gold order is the order
of the report). It does, for every format:

- pairing: by `Document.key` when both sides carry keys (Feedback Prize
  ids, brat file names, JSONL ids; decided on the first document of each
  side, and then a later document without a key is an error naming it):
  the gold side fixes the documents and their order, a gold key without a
  prediction predicts nothing, a predicted key that is not gold is an
  error, a key twice on the predicted side is an error naming both (on the
  gold side too for a format with `unique_keys`); else by position, and
  unequal numbers of documents are an error naming both counts;
- identity: the same text (the first differing character named), the
  same tokens (the first differing token named) when the documents carry
  tokens; a format that `aligns` (spaCy DocBins: tokenizations may differ,
  spaCy's alignment maps them) is checked on its text only and then
  aligned by its `align`; two formats (`mixed.MixedFormat`) are checked on
  their tokens when a side has tokens only, else on their text; a format
  that `places_on_gold` (a mix, mentions) gives each pair's spans by
  `place_on_gold`;
- skipping: a gold document without annotation (`spans is None`) is
  skipped and counted (the first names kept for the message); a predicted
  document without annotation predicts nothing.
"""

from collections import Counter
from dataclasses import dataclass, field
from itertools import chain, zip_longest
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Set, Tuple

from ..exceptions import InputError
from ..settings import MISSING_PRED, NOTE_EXAMPLES, SKIPPED_NAMES, check_choice
from ..spans import Span, join_fragments
from ..notes import Notes, merge_notes, note
from .base import EMPTY, Document, Format
from .identity import identity_error, token_offsets
from .relations import carry_relations, placed_relations

#: The note of gold documents the predicted side has no document for.
MISSING = "missing_documents"
#: The settings pairing takes (not a reader's): what a missing predicted
#: document is (`MISSING_PRED`).
PAIRING_OPTIONS = ("missing_pred",)


@dataclass(slots=True)
class DocPair:
    """Gold and predicted spans of one scored document.

    index (int): Position in the corpus, skipped documents included.
    name (str): How messages and reports name the document.
    gold, pred (List[Span]): Sorted span lists in the corpus unit.
    text (str): The (gold) text, for reports.
    offsets (Optional[List[Tuple[int, int]]]): Character (start, end) of each
        token in token unit; None in char unit.
    meta (Dict[str, Any]): The gold document's metadata (genre, source, ...;
        for breakdowns and grouped resampling).
    pred_strings: The predicted mentions as listed, when they came without
        offsets (the `mentions` format). pred_unplaced: those of them
        without a place in the text, scored as spans past its end: the
        start of each -> (string, status).
    pred_scores: The predicted spans' scores, when the reader found any:
        (span, score) pairs as listed (for sweeps).
    gold_links, pred_links: Each side's (span, kb id) pairs, when its
        reader found knowledge-base ids (`Document.links`), for the link
        schemes; None: every span of that side is NIL.
    gold_fragments, pred_fragments: Only when a side has spans of several
        fragments: its `Document.fragments`, parallel to its spans
        (`scored_spans` joins them).
    gold_relations, pred_relations: Each side's relations, (head span, tail
        span, label), when its reader found any (`Document.relations`).
    """

    index: int
    name: str
    gold: List[Span]
    pred: List[Span]
    text: str
    offsets: Optional[List[Tuple[int, int]]] = None
    meta: Dict[str, Any] = field(default_factory=dict)
    pred_strings: Optional[List[Tuple[str, str]]] = None
    pred_unplaced: Optional[Dict[int, Tuple[str, str]]] = None
    pred_scores: Optional[List[Tuple[Span, Any]]] = None
    gold_links: Optional[List[Tuple[Span, str]]] = None
    pred_links: Optional[List[Tuple[Span, str]]] = None
    gold_fragments: Optional[List[Any]] = None
    pred_fragments: Optional[List[Any]] = None

    def scored_spans(self) -> Tuple[List[Any], List[Any]]:
        """(gold, pred) as the engine scores them: spans of several
        fragments as `FragmentedSpan`s (`spans.join_fragments`)."""
        return join_fragments(self.gold, self.gold_fragments), join_fragments(self.pred, self.pred_fragments)

    def shown_spans(self, side: str) -> List[Span]:
        """One side's spans as a page marks them: a span of several
        fragments as each of its fragments."""
        spans, fragments = (self.gold, self.gold_fragments) if side == "gold" else (self.pred, self.pred_fragments)
        if fragments is None:
            return spans
        shown: List[Span] = []
        for span, pieces in zip(spans, fragments):
            shown.extend([span] if pieces is None else [Span(a, b, span.label) for a, b in pieces])
        return shown

    gold_relations: Optional[List[Tuple[Span, Span, str]]] = None
    pred_relations: Optional[List[Tuple[Span, Span, str]]] = None

    def strings(self, side: str) -> List[Tuple[str, str]]:
        """The (text, label) pairs of one side's spans, for the string
        schemes; on the predicted side of mentions without offsets, the
        mentions as listed (`pred_strings`)."""
        if side == "pred" and self.pred_strings is not None:
            return list(self.pred_strings)
        return [(self.span_text(span), span.label) for span in (self.gold if side == "gold" else self.pred)]

    def span_text(self, span: Span) -> str:
        """The text a span covers."""
        if self.offsets is None:
            return self.text[span.start : span.end]
        if span.end > len(self.offsets):
            return ""
        return self.text[self.offsets[span.start][0] : self.offsets[span.end - 1][1]]


@dataclass
class PairStats:
    """What pairing counted (filled in as the pairs are read).

    documents (int): Gold documents, skipped ones included.
    skipped (int): Gold documents skipped for want of annotation.
    skipped_names (List[str]): The names of the first SKIPPED_NAMES of them.
    spans_keys (Counter): The span group keys found in gold documents and
        their spans (`Document.span_groups`: key -> spans), summed.
    not_scored (Dict[str, Dict[str, int]]): By side ("gold", "pred"), what
        the readers read but did not score (relations, cancelled
        annotations, rejected answers, ...: `Document.counts`), summed.
    notes (Dict[str, Notes]): By side, what the readers and the pairing
        noted (span texts that disagree with their offsets, converted
        offsets, missing documents: `Document.notes`), summed, with the
        first NOTE_EXAMPLES examples of each.
    """

    documents: int = 0
    skipped: int = 0
    skipped_names: List[str] = field(default_factory=list)
    spans_keys: Counter = field(default_factory=Counter)
    not_scored: Dict[str, Dict[str, int]] = field(default_factory=dict)
    notes: Dict[str, Notes] = field(default_factory=dict)

    def count(self, side: str, doc: Optional[Document]) -> None:
        """Add what a document's reader counted and did not score, and its notes."""
        if doc is None:
            return
        if doc.counts:
            totals = self.not_scored.setdefault(side, {})
            for what, n in doc.counts.items():
                totals[what] = totals.get(what, 0) + n
        if doc.notes:
            self.add_notes(side, doc.notes)

    def add_notes(self, side: str, notes: Mapping[str, Mapping[str, Any]]) -> None:
        merge_notes(self.notes.setdefault(side, {}), notes, NOTE_EXAMPLES)

    @property
    def scored(self) -> int:
        return self.documents - self.skipped


def _count_rest(docs: Iterator[Document]) -> int:
    return sum(1 for _ in docs)


#: The format of plain documents, paired in order or by key (no reader's
#: capabilities): what `pair_documents` pairs when it is given none.
PLAIN_FORMAT = Format()


def pair_documents(
    gold_docs: Iterable[Document],
    pred_docs: Iterable[Document],
    *,
    format: Optional[Format] = None,
    sources: Tuple[str, str] = ("gold", "predicted"),
    stats: Optional[PairStats] = None,
    options: Optional[Dict[str, Any]] = None,
) -> Iterator[DocPair]:
    """Pair two Document streams and yield the DocPairs to score.

    format (Format): The format read, whose declared capabilities say how
        to pair (`base.Format`: `aligns`, `places_on_gold`, `keyed`,
        `key_name`, `unique_keys`, `pairs_by_key`, `aligns_tokens`) and
        `counted_as` names its documents in the count error; by default a
        format of plain documents paired in order or by key.
    sources (Tuple[str, str]): The gold and predicted files, for messages.
    stats (Optional[PairStats]): Filled in while pairs are read.
    Raises InputError for unequal numbers of documents, a mismatch of text
    or tokens, or a predicted key that is not a gold document.
    """
    format = format if format is not None else PLAIN_FORMAT
    stats = stats if stats is not None else PairStats()
    options = dict(options or {})
    missing_pred = options.pop("missing_pred", None) or MISSING_PRED[0]
    check_choice("missing_pred", missing_pred, MISSING_PRED)
    align = format.align if format.aligns else None
    # a format of predictions only (or a mix) places them on the gold document
    place = format.place_on_gold if format.places_on_gold else None
    what = format.counted_as
    # a mix of formats checks documents with character offsets on both
    # sides by their text, and aligns their tokens
    aligns_tokens = format.aligns_tokens
    gold_iter, pred_iter = iter(gold_docs), iter(pred_docs)
    first_gold = next(gold_iter, None)
    first_pred = next(pred_iter, None)
    # Keyed when both sides carry keys; a keyed format (Feedback Prize ids)
    # whose predicted side is empty predicts nothing for every gold key.
    # Two formats (a mix) pair by key only when they key by the same field.
    keyed = (
        first_gold is not None
        and first_gold.key is not None
        and format.pairs_by_key
        and ((first_pred is not None and first_pred.key is not None) or (first_pred is None and format.keyed))
    )

    golds = chain((first_gold,), gold_iter) if first_gold is not None else iter(())
    preds = chain((first_pred,), pred_iter) if first_pred is not None else iter(())
    if keyed:
        pairs = _keyed(golds, preds, sources, format.key_name, format.unique_keys)
    else:
        pairs = _ordered(golds, preds, sources, what)
    index = 0
    # Predicted documents whose notes are counted, by key (in order, each is
    # paired once): never by object identity, which a freed document's
    # successor may reuse.
    counted_keys: Set[Optional[str]] = set()
    for gold, pred in pairs:
        i = index
        index += 1
        stats.documents += 1
        # (EMPTY, the usual mapping, told by identity; the same text without tokens is the same document)
        if gold.span_groups is not EMPTY and gold.span_groups:
            stats.spans_keys.update(gold.span_groups)
        if (gold.counts is not EMPTY and gold.counts) or (gold.notes is not EMPTY and gold.notes):
            stats.count("gold", gold)
        if (
            pred is not None
            and ((pred.counts is not EMPTY and pred.counts) or (pred.notes is not EMPTY and pred.notes))
            and not (keyed and pred.key in counted_keys)
        ):
            if keyed:
                counted_keys.add(pred.key)  # once, however many gold documents share its key
            stats.count("pred", pred)
        if (pred is None or pred.spans is None) and gold.spans is not None and align is None:
            if missing_pred == "error":
                what = "no predicted document" if pred is None else f"no prediction ({pred.name})"
                raise InputError(
                    f"{gold.name} of {sources[0]} has {what} in {sources[1]}; every gold "
                    "document needs one (or pass missing_pred=warn to score it as predicting nothing)",
                    sources[1],
                )
            stats.add_notes("pred", {MISSING: note(1, [gold.name])})
        if pred is not None and not (gold.text == pred.text and gold.tokens is None and gold.offsets is None):
            aligned = align is not None or (aligns_tokens and gold.offsets is not None and pred.offsets is not None)
            error = identity_error(i, gold, pred, sources[0], sources[1], aligned, keyed)
            if error is not None:
                if not keyed:
                    # A missing document shifts every later one: say so.
                    # (a reader's own error while counting is the real cause: it is raised)
                    n_gold = i + 1 + _count_rest(gold_iter)
                    n_pred = i + 1 + _count_rest(pred_iter)
                    if n_gold != n_pred:
                        raise _count_error(sources, n_gold, n_pred, what)
                raise error
        unplaced = None
        if align is not None and pred is not None:
            gold_spans, pred_spans = align(gold, pred, **options)
        elif place is not None:
            gold_spans, pred_spans, unplaced, placed_notes = place(gold, pred, **options)
            if placed_notes:
                stats.add_notes("pred", placed_notes)
        else:
            gold_spans = gold.spans
            pred_spans = None if pred is None else pred.spans
        if gold_spans is None:
            stats.skipped += 1
            if len(stats.skipped_names) < SKIPPED_NAMES:
                stats.skipped_names.append(gold.name)
            continue
        pred_spans = list(pred_spans or [])
        pair = _doc_pair(i, gold, list(gold_spans), pred_spans)
        if pred is not None and pred.strings is not None:
            pair.pred_strings = pred.strings
            pair.pred_unplaced = unplaced if place is not None else pred.unplaced
        if pred is not None and pred.scores is not None:
            pair.pred_scores = pred.scores
            if place is not None:  # the scored spans where `place` put them
                pair.pred_scores = format.place_scores(gold, pred, pair.pred_scores, **options)
        if place is None:
            pair.gold_links = gold.links
            pair.pred_links = None if pred is None else pred.links
        elif gold.links is not None or gold.spacy_doc is not None or (pred is not None and pred.links is not None):
            from ..links.examples import placed_links  # the ids placed as the spans are

            pair.gold_links, pair.pred_links = placed_links(format, gold, pred, options)
        if gold.fragments is not None or (pred is not None and pred.fragments is not None):
            _add_fragments(pair, gold, pred, align is not None or place is not None)
        if align is None and place is None:  # relations name the spans as the reader read them
            pair.gold_relations = gold.relations
            pair.pred_relations = None if pred is None else pred.relations
        elif gold.relations is not None or (pred is not None and pred.relations is not None):
            # aligned (`align` mapped them onto the scored spans) or placed
            if align is not None:
                carry_relations(pair, (gold.relations, None if pred is None else pred.relations), stats)
            else:
                carry_relations(pair, placed_relations(format, gold, pred, options), stats)
        yield pair


def _add_fragments(pair: DocPair, gold: Document, pred: Optional[Document], moved: bool) -> None:
    """The fragments of both sides on the pair; spans that pairing moved
    (aligned, placed) cannot keep theirs: an error naming the document."""
    if moved:
        raise InputError(
            f"{gold.name} has spans of several fragments, which this format's alignment cannot carry; "
            "read both sides with one format whose offsets need no alignment"
        )
    pair.gold_fragments = gold.fragments
    pair.pred_fragments = None if pred is None else pred.fragments


def _count_error(sources: Tuple[str, str], n_gold: int, n_pred: int, what: str) -> InputError:
    return InputError(
        f"unequal numbers of {what}: {n_gold} in {sources[0]}, {n_pred} in {sources[1]}; "
        "gold and prediction must describe the same documents in the same order",
        sources[1],
    )


def _ordered(golds, preds, sources, what) -> Iterator[Tuple[Document, Document]]:
    n = 0
    # (zip_longest reads both sides in turn, gold first, and stops reading a side that has ended)
    for gold, pred in zip_longest(golds, preds):
        if gold is None or pred is None:
            n_gold = n + (gold is not None) + _count_rest(golds)
            n_pred = n + (pred is not None) + _count_rest(preds)
            raise _count_error(sources, n_gold, n_pred, what)
        n += 1
        yield gold, pred


def _keyed(
    golds, preds, sources, key_name: str = "key", unique: bool = False
) -> Iterator[Tuple[Document, Optional[Document]]]:
    """Gold documents with the predicted document of their key. A gold
    document without annotation (a rejected Prodigy answer) does not use
    up its key: an annotated record of the same key may follow (several
    answers to one input); two annotated gold documents of one key are an
    error, and so are two gold documents of one key at all when `unique`
    (JSONL ids). A document without a key, once both sides pair by key,
    is an error naming it."""
    by_key: Dict[str, Document] = {}
    for _ in _with_keys(preds, by_key, True, sources[1], key_name):
        pass  # every predicted document, checked, is in by_key
    annotated: Dict[str, Document] = {}
    seen: Dict[str, Document] = {}
    for key, gold in _with_keys(golds, seen, unique, sources[0], key_name):
        if gold.spans is None:
            yield gold, by_key.get(key)
            continue
        if key in annotated:
            first = annotated[key]
            raise InputError(
                f"{gold.name} and {first.name} are two annotated gold documents of the {key_name} {key!r}; "
                "keep one annotation per document (e.g. one annotator's)",
                sources[0],
                gold.line,
            )
        annotated[key] = gold
        yield gold, by_key.get(key)
    unpaired = [pred for key, pred in by_key.items() if key not in seen]
    if unpaired:
        pred = unpaired[0]
        # a format whose names do not hold the key (JSONL's "line 3") names it too
        named = pred.name if key_name == "key" else f"{pred.name} ({key_name} {pred.key!r})"
        raise InputError(
            f"{named} is not in {sources[0]}; every predicted document must be a gold document",
            sources[1],
            pred.line,
        )


def _with_keys(
    docs: Iterable[Document], seen: Dict[str, Document], unique: bool, source: str, key_name: str
) -> Iterator[Tuple[str, Document]]:
    """(key, document) of the documents of one side, each of which must
    have a key, the first of each key put in `seen` as they go by; when
    `unique`, a key listed twice is an error."""
    first: Optional[Document] = None
    for doc in docs:
        if doc.key is None:
            raise _no_key_error(doc, first, source, key_name)
        first = first or doc
        if unique and doc.key in seen:
            raise _twice_error(doc, seen[doc.key], source, key_name)
        seen.setdefault(doc.key, doc)
        yield doc.key, doc


def _twice_error(doc: Document, first: Document, source: str, key_name: str) -> InputError:
    """The error of a document whose key an earlier one of its file has."""
    return InputError(
        f"{doc.name} has the {key_name} {doc.key!r} of {first.name} (the same document twice); "
        f"documents pair by {key_name}, so each must be unique in its file",
        source,
        doc.line,
    )


def _no_key_error(doc: Document, first: Optional[Document], source: str, key_name: str) -> InputError:
    """The error of a document without a key among documents paired by key."""
    named = "the first document of each file has one" if first is None else f"{first.name} has one"
    return InputError(
        f"{doc.name} has no {key_name}, but the documents pair by {key_name} ({named}): give every document "
        f"of both files its {key_name}, or none to pair them in order",
        source,
        doc.line,
    )


def _doc_pair(index: int, gold: Document, gold_spans: List[Span], pred_spans: List[Span]) -> DocPair:
    name = gold.name
    if gold.line is not None and gold.key is None and not name.startswith("line "):
        name = f"{name} (line {gold.line})"
    text, offsets = gold.text, gold.offsets
    if offsets is None and gold.tokens is not None:
        offsets = token_offsets(gold.tokens)
    elif not text and gold.tokens is None and gold.key is not None:
        # No text at all (Feedback Prize CSV): show the word indices.
        n_words = max((s.end for s in gold_spans + pred_spans), default=0)
        words = [str(k) for k in range(n_words)]
        text, offsets = " ".join(words), token_offsets(words)
    # a field whose name starts with "_" is the writing tool's own (a spaCy
    # user_data entry of a component), not metadata to break scores down by
    meta = {k: v for k, v in gold.meta.items() if not k.startswith("_")} if gold.meta else {}
    return DocPair(index, name, gold_spans, pred_spans, text, offsets, meta)
