"""Scoring mentions without offsets: grounded mentions under every span
scheme (the predicted side read and grounded by `predicted`, the gold side
read by `gold`), and the string schemes (`strings`), which compare
(string, label) pairs and need no grounding. Under `ground="all"` a
repeated string adds nothing.

Under the span schemes, a mention that is not found or is a duplicate is a
prediction that matches nothing (SPU, or FP under iou and overlap): it is
scored as a span past the end of its document, where no gold span is.
"""

import gc
import operator
from collections.abc import Sequence as SequenceABC
from dataclasses import dataclass, field
from itertools import accumulate
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union, Unpack

from ..engine.scorer import evaluate_spans
from ..exceptions import SettingError
from ..keyword_types import SpanOptionKeywords
from ..keywords import UNSET, Maybe, Unset, front_door, refuse_set, settings_from
from ..results import SchemeResult
from ..settings import GROUNDINGS, SCHEMES, STRING_SCHEMES, MatchSettings, check_choice, comma_list
from .gold import gold_documents
from .ground import GROUNDING_COUNTS, Text, check_fuzzy, ground_in
from .normalize import check_mention_text
from .parse import Mention, plain_pairs
from .predicted import (
    ground_document,
    grounding_row,
    plain_answers,
    predicted_spans,
    read_prediction,
    row_and_spans,
    spans_in_bulk,
)
from .strings import string_results


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


#: The settings of MatchSettings that mentions do not apply.
UNUSED = ("spans_key", "beta", "symmetric", "relation_labels")


@front_door
def evaluate_mentions(
    gold: Iterable[Any],
    predicted: Iterable[Any],
    *,
    texts: Sequence[str],
    match: Optional[MatchSettings] = None,
    schemes: Maybe[Union[str, Sequence[str]]] = UNSET,
    ground: str = GROUNDINGS[0],
    fuzzy: Optional[float] = None,
    answer_labels: Union[None, str, Sequence[Optional[str]]] = None,
    per_doc: bool = False,
    keep_errors: bool = False,
    keep_outcomes: bool = False,
    **keywords: Unpack[SpanOptionKeywords],
) -> MentionScores:
    """Score mentions without offsets against gold spans.

    gold (Iterable): Per document, its gold spans: (start, end, label)
        character offsets into its text, or a spaCy Doc (its entities).
    predicted (Iterable): Per document, the model's raw answer (a string,
        `parse_answer`), or its mentions as Python values: a list of
        (string, label) pairs or {"text", "label"} objects, or a {label:
        [strings]} dict. Anything else is a parse failure (counted).
    texts (Sequence[str]): The documents' texts.
    match (Optional[MatchSettings]): How the span schemes match, as
        evaluate_spans matches; or its fields as keywords (a keyword given
        beside the object is written over its field): schemes, unit,
        labels, iou_threshold, overlap_threshold, min_overlap, label_map,
        map_unlisted, view. spans_key and beta do not apply (a
        SettingError when set).
    schemes: Span schemes (strict, ..., overlap) and string schemes
        (strings, strings_normalized), a list or a comma-separated string;
        required (here or in `match`). String
        schemes alone are fine here; a MatchSettings starts with a span
        scheme.
    ground (str): "ordered" (default), "first" or "all".
    fuzzy (Optional[float]): Threshold of the fuzzy stage, in (0, 1].
    unit (Optional[str]): "char" (None: char), or "token" (the gold
        documents must be Docs: the grounded characters are expanded to
        their tokens).
    answer_labels: The label of the mentions an answer marks without
        naming their label (GPT-NER's `@@Ann Lee##`, asked one label at a
        time): one label for every document, or one per document (None
        where the answer names its labels).
    labels, iou_threshold, ...: Of the span schemes, as evaluate_spans
        takes them (`labels` filters the span schemes only).
    per_doc, keep_errors, keep_outcomes (bool): Of the span schemes'
        results, as evaluate_spans keeps them.
    An unknown keyword is a TypeError naming the valid ones.
    """
    if match is not None and not isinstance(match, MatchSettings):
        settings_from(MatchSettings, match, "match")  # its TypeError, as every door's
    asked = (None if match is None else match.schemes) if isinstance(schemes, Unset) else schemes
    names = list(comma_list(asked)) if isinstance(asked, str) else list(asked or ())
    if not names:
        raise SettingError(f"Name at least one scheme. Valid schemes: {', '.join(SCHEMES + STRING_SCHEMES)}", "schemes")
    unknown = [n for n in names if n not in SCHEMES + STRING_SCHEMES]
    if unknown:
        raise SettingError(
            f"Unknown scheme {unknown[0]!r}. Valid schemes: {', '.join(SCHEMES + STRING_SCHEMES)}", "schemes"
        )
    check_choice("ground", ground, GROUNDINGS)
    span_schemes = [n for n in names if n in SCHEMES]
    # (only string schemes: the span settings are checked all the same)
    span = settings_from(
        MatchSettings,
        match,
        "match",
        schemes=span_schemes or SCHEMES[:1],
        **keywords,
    )
    refuse_set(span, UNUSED, "evaluate_mentions")
    unit = span.unit or "char"
    threshold = check_fuzzy(fuzzy)
    wants_strings = any(n in STRING_SCHEMES for n in names)
    texts = list(texts)
    gold, predicted = list(gold), list(predicted)
    if not len(gold) == len(predicted) == len(texts):
        raise SettingError(
            f"gold ({len(gold)}), predicted ({len(predicted)}) and texts ({len(texts)}) must hold one entry "
            "per document each",
            "texts",
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
        gold_spans, gold_strings = gold_documents(gold, texts, unit, wants_strings)
        bulk = plain_answers(predicted) if unit == "char" else None
        if bulk is not None:  # every answer a list of checked pairs: grounded in one loop
            try:
                pred_spans = spans_in_bulk(zip(texts, predicted), ground, threshold, totals)
            except ValueError:  # a tuple of more than two items: read one at a time, which names it
                totals = dict.fromkeys(GROUNDING_COUNTS, 0)
                bulk = None
        if bulk is not None:
            pred_strings: List[Sequence[Mention]] = predicted
            documents = DocumentRecords(
                texts, bulk, list(accumulate(map(len, predicted), initial=0)), [None] * n_docs, ground, threshold
            )
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
        span_results = (
            evaluate_spans(
                gold_spans,
                pred_spans,
                schemes=span.schemes,
                unit=unit,
                per_doc=per_doc,
                keep_errors=keep_errors,
                keep_outcomes=keep_outcomes,
                **span.scorer_settings(),
            )
            if span_schemes
            else {}
        )
    finally:
        if frozen:
            gc.unfreeze()
    results: Dict[str, SchemeResult] = {}
    string_part = string_results(gold_strings, pred_strings, names) if wants_strings else {}
    for name in names:
        results[name] = span_results[name] if name in span_results else string_part[name]
    return MentionScores(results, totals, documents)


def _read_one_by_one(
    predicted: List[Any],
    texts: List[str],
    gold: List[Any],
    marked: List[Optional[str]],
    unit: str,
    ground: str,
    threshold: Optional[float],
    totals: Dict[str, int],
) -> Tuple["DocumentRecords", List[Any], List[Sequence[Mention]]]:
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


class DocumentRecords(SequenceABC):
    """`MentionScores.documents`: per document, a dict of its grounding
    counts ("counts", those of GROUNDING_COUNTS), its grounded mentions
    ("mentions") and its parse failure ("parse_failure": None when it
    parsed). A document given as checked (string, label) pairs has its dict
    made when it is first asked for, by grounding the pairs again: grounding
    is deterministic, so they are the records that were scored, and a
    caller that reads none of a million does not pay for making them."""

    def __init__(
        self,
        texts: List[str],
        pairs: List[Mention],
        bounds: List[int],
        made: List[Optional[Dict[str, Any]]],
        ground: str,
        threshold: Optional[float],
    ) -> None:
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
            found = self._made[k] = {
                "counts": grounding_row(grounded, False),
                "mentions": grounded,
                "parse_failure": None,
            }
        return found

    def __eq__(self, other: Any) -> bool:
        if isinstance(other, (DocumentRecords, list)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"<DocumentRecords of {len(self)} documents>"


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


__all__ = ["DocumentRecords", "MentionScores", "evaluate_mentions"]
