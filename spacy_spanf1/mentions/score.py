"""Scoring mentions without offsets: grounded mentions under every span
scheme, and the string schemes, which compare (string, label) pairs and
need no grounding. Under `ground="all"` a repeated string adds nothing.

- `strings`: per document, the multiset of (mention string, label) pairs
  against the multiset of (gold span text, label); TP is the size of the
  multiset intersection, summed over documents (unitxt's `NER` metric);
- `strings_normalized`: the same with sets, after the SQuAD answer
  normalization (lower case, `string.punctuation` removed, the articles
  a/an/the removed, whitespace collapsed): UniversalNER's evaluation.

Under the span schemes, a mention that is not found or is a duplicate is a
prediction that matches nothing (SPU, or FP under iou and overlap): it is
scored as a span past the end of its document, where no gold span is.
"""
import gc
import operator
import re
import string as string_module
from collections import Counter
from collections.abc import Sequence as SequenceABC
from dataclasses import dataclass, field
from itertools import accumulate, chain
from operator import itemgetter
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union, cast

import numpy

from ..engine.counts import PRFCounts
from ..engine.scorer import evaluate_spans
from ..exceptions import InputError, SettingError
from ..results import Counts, SchemeResult
from ..settings import GROUNDINGS, SCHEMES, STRING_SCHEMES, check_choice, check_unit
from ..spans import span_problem
from .ground import NOTED_KINDS, GroundedMention, Text, check_fuzzy, check_mention_text, ground_in, ground_noted, noted_row
from .parse import Markup, Mention, ParseFailure, mentions_of_record, parse_answer, plain_pairs, short_repr

#: The counts of a grounding report, in the order reports list them: the
#: first six partition the mentions (a duplicate counts under no method).
GROUNDING_COUNTS: Tuple[str, ...] = (
    "mentions", "exact", "normalized", "fuzzy", "not_found", "duplicates", "ambiguous", "parse_failures",
)

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_PUNCTUATION = frozenset(string_module.punctuation)


def squad_normalize(text: str) -> str:
    """The SQuAD answer normalization: lower case, punctuation removed,
    articles removed, whitespace collapsed (in that order, as its script)."""
    if not isinstance(text, str):
        check_mention_text(text, "the text to normalize")
    text = "".join(ch for ch in text.lower() if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


@dataclass
class MentionScores:
    """What `evaluate_mentions` returns.

    results (Dict[str, SchemeResult]): scheme -> result, in the order asked.
    grounding (Dict[str, int]): The counts of GROUNDING_COUNTS, summed.
    documents (Sequence[Dict[str, Any]]): Per document: its counts, the
        grounded mentions and the parse failure (None when it parsed); a
        `DocumentRecords`, which makes a document's dict when it is read.
    """

    results: Dict[str, SchemeResult]
    grounding: Dict[str, int]
    documents: Sequence[Dict[str, Any]] = field(default_factory=list, repr=False)


def string_counts(gold: Sequence[Mention], pred: Sequence[Mention], normalized: bool) -> Dict[str, PRFCounts]:
    """label -> counts of one document under `strings` (multisets) or
    `strings_normalized` (sets of normalized strings)."""
    if normalized:
        gold_bag = Counter(set((squad_normalize(s), label) for s, label in gold))
        pred_bag = Counter(set((squad_normalize(s), label) for s, label in pred))
    else:
        gold_bag, pred_bag = Counter(gold), Counter(pred)
    common = gold_bag & pred_bag
    counts: Dict[str, List[int]] = {}
    for bag, column in ((common, 0), (pred_bag, 1), (gold_bag, 2)):
        for (_, label), n in bag.items():
            counts.setdefault(label, [0, 0, 0])[column] += n
    return {label: PRFCounts(tp, predicted - tp, possible - tp) for label, (tp, predicted, possible) in counts.items()}


def string_results(gold_docs: Iterable[Sequence[Mention]], pred_docs: Iterable[Sequence[Mention]],
                   schemes: Sequence[str]) -> Dict[str, SchemeResult]:
    """The string schemes among `schemes` over documents of (string, label) pairs."""
    wanted = [name for name in schemes if name in STRING_SCHEMES]
    per_label: Dict[str, Dict[str, PRFCounts]] = {name: {} for name in wanted}
    n_docs = 0
    for gold, pred in zip(gold_docs, pred_docs):
        n_docs += 1
        for name in wanted:
            for label, counts in string_counts(gold, pred, name == "strings_normalized").items():
                found = per_label[name]
                found[label] = found[label] + counts if label in found else counts
    return {
        name: SchemeResult(name, sum(per_label[name].values(), PRFCounts()), dict(sorted(per_label[name].items())),
                           n_docs=n_docs)
        for name in wanted
    }


class StringCounter:
    """The string schemes over a stream of documents, one at a time (what
    `corpus.score_pairs` runs beside the span scorer).

    schemes (Sequence[str]): Of STRING_SCHEMES.
    labels (Optional[Sequence[str]]): Count only these labels; None: all.
    per_doc (bool): Keep one row (tp, fp, fn) per document and scheme.
    """

    def __init__(self, schemes: Sequence[str], labels: Optional[Sequence[str]] = None, per_doc: bool = False) -> None:
        self.schemes = tuple(schemes)
        self.labels = None if labels is None else frozenset(labels)
        self.per_doc = per_doc
        self.per_label: Dict[str, Dict[str, PRFCounts]] = {name: {} for name in self.schemes}
        self.rows: Dict[str, List[Tuple[int, int, int]]] = {name: [] for name in self.schemes}
        self.n_docs = 0

    def add(self, gold: Sequence[Mention], pred: Sequence[Mention]) -> None:
        if self.labels is not None:
            gold = [m for m in gold if m[1] in self.labels]
            pred = [m for m in pred if m[1] in self.labels]
        self.n_docs += 1
        for name in self.schemes:
            found = self.per_label[name]
            doc = string_counts(gold, pred, name == "strings_normalized")
            for label, counts in doc.items():
                found[label] = found[label] + counts if label in found else counts
            if self.per_doc:
                total = sum(doc.values(), PRFCounts())
                self.rows[name].append((total.tp, total.fp, total.fn))

    def results(self) -> Dict[str, SchemeResult]:
        import numpy

        out = {}
        for name in self.schemes:
            per_label: Dict[str, Counts] = dict(sorted(self.per_label[name].items()))
            rows = numpy.array(self.rows[name], dtype=numpy.int64).reshape(-1, 3) if self.per_doc else None
            out[name] = SchemeResult(name, sum(per_label.values(), PRFCounts()), per_label, per_doc=rows,
                                     n_docs=self.n_docs)
        return out


def grounding_row(grounded: Sequence[GroundedMention], parse_failed: bool) -> Dict[str, int]:
    """The grounding counts of one document."""
    row = dict.fromkeys(GROUNDING_COUNTS, 0)
    row["mentions"] = len(grounded)
    row["parse_failures"] = int(parse_failed)
    for mention in grounded:
        if mention.status == "grounded":
            row[cast(str, mention.method)] += 1  # a grounded mention names its method
        elif mention.status == "not_found":
            row["not_found"] += 1
        else:
            row["duplicates"] += 1
        row["ambiguous"] += mention.ambiguous
    return row


def read_prediction(answer: Any, text: str, label: Optional[str] = None) -> Tuple[List[Mention], List[Optional[Tuple[int, int]]], Optional[ParseFailure]]:
    """The mentions of one predicted document: (string, label) pairs, the
    offsets inline markup placed each at (None: ground it by its string),
    and the parse failure (then no mention). A raw answer is parsed; a list
    of pairs or objects, or an object of labels, is read as the same JSON
    would be; anything else is a parse failure."""
    parsed: Union[List[Mention], Markup, ParseFailure]
    if isinstance(answer, (list, tuple, dict)):
        pairs = plain_pairs(answer)
        if pairs is not None:  # the common case: read in one pass
            return pairs, [None] * len(pairs), None
        parsed = mentions_of_record(answer)
    else:
        parsed = parse_answer(answer, label)
    if isinstance(parsed, ParseFailure):
        return [], [], parsed
    if isinstance(parsed, Markup):
        placed = parsed.place(text)
        return [(s, label) for _, s, label in placed], [offsets for offsets, _, _ in placed], None
    return list(parsed), [None] * len(parsed), None


def ground_document(text: str, mentions: Sequence[Mention], placed: Sequence[Optional[Tuple[int, int]]],
                    ground: str, threshold: Optional[float]) -> List[GroundedMention]:
    """Ground a document's mentions; those inline markup placed keep their
    offsets (method "exact"), the others are grounded by their strings."""
    doc = Text(text)
    if not any(placed):  # no inline markup
        return ground_in(doc, mentions, ground, threshold)
    by_string = [m for m, offsets in zip(mentions, placed) if offsets is None]
    grounded = iter(ground_in(doc, by_string, ground, threshold))
    out = []
    for (string, label), offsets in zip(mentions, placed):
        if offsets is None:
            out.append(next(grounded))
        else:
            out.append(GroundedMention(string, label, [offsets], "exact"))
    return out


def evaluate_mentions(
    gold: Iterable[Any],
    predicted: Iterable[Any],
    *,
    texts: Sequence[str],
    schemes: Union[str, Sequence[str]],
    ground: str = GROUNDINGS[0],
    fuzzy: Optional[float] = None,
    unit: str = "char",
    answer_labels: Union[None, str, Sequence[Optional[str]]] = None,
    **settings: Any,
) -> MentionScores:
    """Score mentions without offsets against gold spans.

    gold (Iterable): Per document, its gold spans: (start, end, label)
        character offsets into its text, or a spaCy Doc (its entities).
    predicted (Iterable): Per document, the model's raw answer (a string,
        `parse_answer`), or its mentions as Python values: a list of
        (string, label) pairs or {"text", "label"} objects, or a {label:
        [strings]} dict. Anything else is a parse failure (counted).
    texts (Sequence[str]): The documents' texts.
    schemes: Span schemes (strict, ..., overlap) and string schemes
        (strings, strings_normalized); required.
    ground (str): "ordered" (default), "first" or "all".
    fuzzy (Optional[float]): Threshold of the fuzzy stage, in (0, 1].
    unit (str): "char", or "token" (the gold documents must be Docs: the
        grounded characters are expanded to their tokens).
    answer_labels: The label of the mentions an answer marks without
        naming their label (GPT-NER's `@@Ann Lee##`, asked one label at a
        time): one label for every document, or one per document (None
        where the answer names its labels).
    settings: Further settings of the span schemes (iou_threshold, ...).
    """
    names = [schemes] if isinstance(schemes, str) else list(schemes or ())
    if not names:
        raise SettingError(f"Name at least one scheme. Valid schemes: {', '.join(SCHEMES + STRING_SCHEMES)}", "schemes")
    unknown = [n for n in names if n not in SCHEMES + STRING_SCHEMES]
    if unknown:
        raise SettingError(f"Unknown scheme {unknown[0]!r}. Valid schemes: {', '.join(SCHEMES + STRING_SCHEMES)}", "schemes")
    check_choice("ground", ground, GROUNDINGS)
    check_unit(unit)
    threshold = check_fuzzy(fuzzy)
    span_schemes = [n for n in names if n in SCHEMES]
    wants_strings = any(n in STRING_SCHEMES for n in names)
    texts = list(texts)
    gold, predicted = list(gold), list(predicted)
    if not len(gold) == len(predicted) == len(texts):
        raise SettingError(
            f"gold ({len(gold)}), predicted ({len(predicted)}) and texts ({len(texts)}) must hold one entry "
            "per document each", "texts",
        )
    if not set(map(type, texts)) <= {str}:
        for k, text in enumerate(texts):
            if type(text) is not str:
                check_mention_text(text, f"texts[{k}]")
    marked = _answer_labels(answer_labels, len(texts))
    n_docs = len(texts)
    totals = dict.fromkeys(GROUNDING_COUNTS, 0)
    # A million mentions make millions of objects and no reference cycle:
    # the collector, which would walk them again and again as they pile up,
    # is off while they are made, and they are frozen (left alone by it)
    # while the spans are scored, unless the caller keeps objects frozen of
    # its own (those stay so; the collector then walks ours once).
    collecting = gc.isenabled()
    freezing = collecting and gc.get_freeze_count() == 0
    frozen = False
    gc.disable()
    try:
        gold_spans, gold_strings = _gold_documents(gold, texts, unit, wants_strings)
        bulk = _plain_answers(predicted) if unit == "char" else None
        if bulk is not None:  # every answer a list of checked pairs: grounded in one loop
            try:
                pred_spans = spans_in_bulk(zip(texts, predicted), ground, threshold, totals)
            except ValueError:  # a tuple of more than two items: read one at a time, which names it
                totals = dict.fromkeys(GROUNDING_COUNTS, 0)
                bulk = None
        if bulk is not None:
            pred_strings: List[Sequence[Mention]] = predicted
            documents = DocumentRecords(texts, bulk, list(accumulate(map(len, predicted), initial=0)),
                                        [None] * n_docs, ground, threshold)
        else:
            documents, pred_spans, pred_strings = _read_one_by_one(
                predicted, texts, gold, marked, unit, ground, threshold, totals
            )
        if freezing:
            gc.freeze()
            frozen = True
    finally:
        if collecting:
            gc.enable()
    try:
        span_results = evaluate_spans(gold_spans, pred_spans, schemes=span_schemes, unit=unit, **settings) if span_schemes else {}
    finally:
        if frozen:
            gc.unfreeze()
    results: Dict[str, SchemeResult] = {}
    string_part = string_results(gold_strings, pred_strings, names) if wants_strings else {}
    for name in names:
        results[name] = span_results[name] if name in span_results else string_part[name]
    return MentionScores(results, totals, documents)


def _read_one_by_one(predicted: List[Any], texts: List[str], gold: List[Any], marked: List[Optional[str]], unit: str,
                     ground: str, threshold: Optional[float],
                     totals: Dict[str, int]) -> Tuple["DocumentRecords", List[Any], List[Sequence[Mention]]]:
    """The predicted documents read one at a time (some answer is not a
    list of checked pairs): (their records, their spans, their pairs); the
    grounding counts added to `totals`. The documents of checked pairs in
    char unit are still grounded in one loop, their records made later."""
    n_docs = len(texts)
    pred_spans: List[Any] = [None] * n_docs
    pred_strings: List[Sequence[Mention]] = [()] * n_docs
    made: List[Optional[Dict[str, Any]]] = [None] * n_docs
    flat: List[Mention] = []
    bounds = [0]
    deferred: List[int] = []
    for k, (answer, text) in enumerate(zip(predicted, texts)):
        pairs = plain_pairs(answer) if type(answer) is list else None
        if pairs is not None and unit == "char":
            deferred.append(k)
            flat.extend(pairs)
            bounds.append(len(flat))
            pred_strings[k] = pairs
            continue
        bounds.append(len(flat))
        if pairs is not None:
            mentions, failure = pairs, None
            grounded = ground_in(Text(text), pairs, ground, threshold)
        else:
            mentions, placed, failure = read_prediction(answer, text, marked[k])
            grounded = ground_document(text, mentions, placed, ground, threshold)
        if unit == "char":
            row, spans = row_and_spans(grounded, len(text), ground != "all", failure is not None)
        else:
            row = grounding_row(grounded, failure is not None)
            spans = predicted_spans(grounded, gold[k], text, unit, scores_duplicates=ground != "all")
        for name in GROUNDING_COUNTS:
            totals[name] += row[name]
        pred_spans[k], pred_strings[k] = spans, mentions
        made[k] = {"counts": row, "mentions": grounded, "parse_failure": None if failure is None else failure.excerpt}
    found = spans_in_bulk(((texts[k], pred_strings[k]) for k in deferred), ground, threshold, totals)
    for k, spans in zip(deferred, found):
        pred_spans[k] = spans
    return DocumentRecords(texts, flat, bounds, made, ground, threshold), pred_spans, pred_strings


def _gold_documents(gold: List[Any], texts: List[str], unit: str,
                    wants_strings: bool) -> Tuple[List[Sequence[Tuple[int, int, str]]], List[List[Mention]]]:
    """The gold documents' spans (in the unit), checked, and their (text,
    label) pairs (only when wants_strings)."""
    n_docs = len(texts)
    gold_strings: List[List[Mention]] = [[] for _ in range(n_docs)] if wants_strings else []
    if unit == "char" and set(map(type, gold)) <= {list}:  # the common case: all checked below, at once
        gold_spans: List[Sequence[Tuple[int, int, str]]] = list(gold)
        plain: Sequence[int] = range(n_docs)
    else:
        gold_spans, plain = [], []
        for k, (gold_doc, text) in enumerate(zip(gold, texts)):
            if unit == "char" and (type(gold_doc) is list or not _is_doc(gold_doc)):  # checked below, all at once
                gold_spans.append(_span_list(gold_doc, k))
                plain.append(k)
            else:
                gold_doc_spans, strings = _gold_of(gold_doc, text, unit, k, wants_strings)
                gold_spans.append(gold_doc_spans)
                if wants_strings:
                    gold_strings[k] = strings
    if plain and not _plain_gold([gold_spans[k] for k in plain], [len(texts[k]) for k in plain]):
        for k in plain:
            gold_spans[k], _ = _gold_of(gold[k], texts[k], unit, k, False)
    if wants_strings:
        for k in plain:
            text = texts[k]
            gold_strings[k] = [(text[start:end], label) for start, end, label in gold_spans[k]]
    return gold_spans, gold_strings


class DocumentRecords(SequenceABC):
    """`MentionScores.documents`: per document, a dict of its grounding
    counts ("counts", those of GROUNDING_COUNTS), its grounded mentions
    ("mentions") and its parse failure ("parse_failure": None when it
    parsed). A document given as checked (string, label) pairs has its dict
    made when it is first asked for, by grounding the pairs again: grounding
    is deterministic, so they are the records that were scored, and a
    caller that reads none of a million does not pay for making them."""

    def __init__(self, texts: List[str], pairs: List[Mention], bounds: List[int],
                 made: List[Optional[Dict[str, Any]]], ground: str, threshold: Optional[float]) -> None:
        self._texts = texts
        self._pairs = pairs  # of all the deferred documents, one after another
        self._bounds = bounds  # document k's pairs are pairs[bounds[k]:bounds[k + 1]]
        self._made = made
        self._ground = ground
        self._threshold = threshold

    def __len__(self) -> int:
        return len(self._made)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return [self[k] for k in range(*index.indices(len(self)))]
        k = operator.index(index)
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError(f"document {index} of {len(self)}")
        found = self._made[k]
        if found is None:
            pairs = self._pairs[self._bounds[k] : self._bounds[k + 1]]
            grounded = ground_in(Text(self._texts[k]), pairs, self._ground, self._threshold)
            found = self._made[k] = {"counts": grounding_row(grounded, False), "mentions": grounded,
                                     "parse_failure": None}
        return found

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, (DocumentRecords, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<DocumentRecords of {len(self)} documents>"


def _plain_answers(answers: List[Any]) -> Optional[List[Mention]]:
    """The pairs of every answer, one after another, when each answer is a
    list of tuples of a non-blank str and a non-empty str (`plain_pairs`),
    checked a column at a time over all of them; None otherwise (each is
    then read on its own). A tuple of three or more items passes: unpacking
    it in `spans_in_bulk` raises ValueError, and the answers are then read
    one at a time."""
    if not set(map(type, answers)) <= {list}:
        return None
    flat = list(chain.from_iterable(answers))
    if not flat:
        return flat
    if set(map(type, flat)) != {tuple}:
        return None
    try:
        strings, labels = list(map(itemgetter(0), flat)), set(map(itemgetter(1), flat))
    except IndexError:  # a tuple of one item, or none
        return None
    if set(map(type, strings)) != {str} or not all(strings) or any(map(str.isspace, strings)):
        return None
    if set(map(type, labels)) != {str} or "" in labels:
        return None
    return flat


_METHOD, _AMBIGUOUS = itemgetter(3), itemgetter(5)


def row_and_spans(grounded: Sequence[GroundedMention], end: int, scores_duplicates: bool, parse_failed: bool,
                  unplaced: Optional[Dict[int, Tuple[str, str]]] = None) -> Tuple[Dict[str, int], List[Tuple[int, int, str]]]:
    """`grounding_row` and `predicted_spans` in char unit (end: the text's
    length), counted in bulk: the same counts, and the same spans (those of
    the mentions without a place past the end, one after another in the
    order listed, after the others) and `unplaced`."""
    spans = [(start, stop, label) for _, label, places, _, _, _ in grounded for start, stop in places]
    methods = list(map(_METHOD, grounded))
    exact, normalized, fuzzy = methods.count("exact"), methods.count("normalized"), methods.count("fuzzy")
    not_found = duplicates = 0
    if exact + normalized + fuzzy < len(grounded):
        for string, label, _, _, status, _ in [m for m in grounded if m[3] is None]:
            if status == "not_found":
                not_found += 1
            else:
                duplicates += 1
                if not scores_duplicates:
                    continue
            end += 1
            spans.append((end, end + 1, label))
            if unplaced is not None:
                unplaced[end] = (string, status)
            end += 1
    row = {"mentions": len(grounded), "exact": exact, "normalized": normalized, "fuzzy": fuzzy,
           "not_found": not_found, "duplicates": duplicates, "ambiguous": sum(map(_AMBIGUOUS, grounded)),
           "parse_failures": int(parse_failed)}
    return row, spans


def spans_in_bulk(documents: Iterable[Tuple[str, Sequence[Mention]]], ground: str, threshold: Optional[float],
                  totals: Dict[str, int]) -> List[List[Tuple[int, int, str]]]:
    """The spans of `row_and_spans(ground_in(...))` of each (text, checked
    pairs) document in char unit, grounded without records
    (`ground.ground_noted`), and their grounding counts added to `totals`
    once every document is grounded (a pair of the wrong length raises
    ValueError first)."""
    out: List[List[Tuple[int, int, str]]] = []
    mentions = 0
    noted = dict.fromkeys(NOTED_KINDS, 0)
    for text, pairs in documents:
        spans, kinds = ground_noted(text, pairs, ground, threshold, {})
        out.append(spans)
        mentions += len(pairs)
        for kind, positions in kinds.items():
            noted[kind] += len(positions)
    row = noted_row(mentions, noted)
    for name in GROUNDING_COUNTS:
        totals[name] += row[name]
    return out


def _plain_gold(docs: Sequence[Sequence[Any]], n_chars: Sequence[int]) -> bool:
    """Whether every span of these gold documents is a (start, end, label)
    tuple of int, int and str with 0 <= start < end <= its text's length
    (n_chars, per document): checked a column at a time over all of them.
    False sends each document through `_gold_of`, which says what is wrong
    (or takes numpy's integers and strings)."""
    flat = list(chain.from_iterable(docs))
    if not flat:
        return True
    if set(map(type, flat)) != {tuple} or set(map(len, flat)) != {3}:
        return False
    starts, ends = list(map(itemgetter(0), flat)), list(map(itemgetter(1), flat))
    if set(map(type, starts)) != {int} or set(map(type, ends)) != {int}:
        return False
    if set(map(type, set(map(itemgetter(2), flat)))) != {str}:  # the labels, each once
        return False
    try:
        start = numpy.array(starts, dtype=numpy.int64)
        end = numpy.array(ends, dtype=numpy.int64)
    except OverflowError:
        return False
    limit = numpy.repeat(numpy.asarray(n_chars, dtype=numpy.int64), list(map(len, docs)))
    return bool(((start >= 0) & (start < end) & (end <= limit)).all())


def _answer_labels(labels: Union[None, str, Sequence[Optional[str]]], n_docs: int) -> List[Optional[str]]:
    """One label (or None) per document; SettingError naming answer_labels."""
    if labels is None or isinstance(labels, str):
        return [labels] * n_docs
    found = list(labels)
    if len(found) != n_docs:
        raise SettingError(
            f"answer_labels holds {len(found)} labels for {n_docs} documents: give one label, or one per document",
            "answer_labels",
        )
    for k, label in enumerate(found):
        if label is not None and (not isinstance(label, str) or not label):
            raise SettingError(
                f"answer_labels[{k}] is {label!r}; a label is a non-empty string (or None)", "answer_labels"
            )
    return found


def _is_doc(gold_doc: Any) -> bool:
    """A spaCy Doc (duck-typed, so that spaCy is not imported)."""
    return hasattr(gold_doc, "ents") and hasattr(gold_doc, "text")


def _span_list(gold_doc: Any, k: int) -> List[Any]:
    """A gold document of spans as a list (unchecked); InputError for one
    that is no collection of spans."""
    if type(gold_doc) is list:
        return gold_doc
    if isinstance(gold_doc, (str, bytes, dict)) or not hasattr(gold_doc, "__iter__"):
        raise InputError(f"gold document {k} is {short_repr(gold_doc)}, not a list of (start, end, label) spans "
                         "or a spaCy Doc")
    return list(gold_doc)


def _gold_of(gold_doc: Any, text: str, unit: str, k: int,
             wants_strings: bool = True) -> Tuple[Sequence[Tuple[int, int, str]], List[Mention]]:
    """A gold document's spans (in the unit), checked, and its (text, label)
    pairs (only when wants_strings: the string schemes need them)."""
    if _is_doc(gold_doc):
        if gold_doc.text != text:
            raise SettingError(f"the text of gold document {k} is not texts[{k}]", "texts")
        ents = list(gold_doc.ents)
        if unit == "token":
            spans = [(e.start, e.end, e.label_) for e in ents]
        else:
            spans = [(e.start_char, e.end_char, e.label_) for e in ents]
        return spans, [(e.text, e.label_) for e in ents]
    if unit == "token":
        raise SettingError("unit token needs the gold documents as spaCy Docs (their tokens)", "unit")
    spans = _span_list(gold_doc, k)
    n_chars = len(text)
    for i, span in enumerate(spans):
        # the common case first: a tuple of two ints and a str, in the text
        if type(span) is tuple and len(span) == 3:
            start, end, label = span
            if type(start) is int and type(end) is int and type(label) is str and 0 <= start < end <= n_chars:
                continue
        if spans is gold_doc:
            spans = list(spans)
        spans[i] = _gold_span(span, i, k, n_chars)
    if not wants_strings:
        return spans, []
    return spans, [(text[start:end], label) for start, end, label in spans]


def _gold_span(span: Any, i: int, k: int, n_chars: int) -> Tuple[int, int, str]:
    """Span i of gold document k as (start, end, label) of int, int and str
    (numpy's integers and strings are those), checked against the text's
    length; InputError (a ValueError) saying what is wrong and what is valid."""
    where = f"Span {i} of gold document {k}"
    if isinstance(span, (str, bytes, dict)) or not hasattr(span, "__len__") or len(span) != 3:
        raise InputError(f"{where} is {short_repr(span)}; a gold span is a (start, end, label) tuple "
                         "of character offsets (end exclusive) and a label")
    start, end, label = span
    problem = span_problem(start, end, label, limit=n_chars, unit="char")
    if problem is not None:
        raise InputError(f"{where} {problem}")
    return int(start), int(end), str(label)


def predicted_spans(grounded: Sequence[GroundedMention], gold_doc: Any, text: str, unit: str,
                    scores_duplicates: bool = True,
                    unplaced: Optional[Dict[int, Tuple[str, str]]] = None) -> List[Tuple[int, int, str]]:
    """The grounded mentions as spans in the unit; a mention not found, or a
    duplicate, as a span past the end of the document (it matches nothing).
    Under `all` a repeated string adds nothing (scores_duplicates False).
    unplaced: filled with the start of each span past the end -> the
    mention's (string, status), for the error records."""
    end = len(gold_doc) if unit == "token" else len(text)
    spans = []
    for mention in grounded:
        if mention.status == "duplicate" and not scores_duplicates:
            continue
        if mention.status != "grounded":
            end += 1
            spans.append((end, end + 1, mention.label))
            if unplaced is not None:
                unplaced[end] = (mention.string, mention.status)
            end += 1
            continue
        for start, stop in mention.spans:
            if unit == "token":
                span = gold_doc.char_span(start, stop, alignment_mode="expand")
                if span is None:
                    continue
                start, stop = span.start, span.end
            spans.append((start, stop, mention.label))
    return spans


__all__ = [
    "DocumentRecords",
    "GROUNDING_COUNTS",
    "StringCounter",
    "MentionScores",
    "STRING_SCHEMES",
    "evaluate_mentions",
    "squad_normalize",
    "string_counts",
    "string_results",
]
