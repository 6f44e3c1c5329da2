"""The predicted side of `evaluate_mentions` and of the `mentions` reader:
an answer read into mentions (`read_prediction`), grounded
(`ground_document`), and the grounded mentions as spans in the unit and
their grounding counts (`predicted_spans`, `grounding_row`; both at once in
char unit, `row_and_spans`; a corpus of checked pairs without records,
`spans_in_bulk`).

Under the span schemes, a mention that is not found or is a duplicate is a
prediction that matches nothing (SPU, or FP under iou and overlap): it is
scored as a span past the end of its document, where no gold span is.
"""

from itertools import chain
from operator import itemgetter
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union, cast

from .ground import GROUNDING_COUNTS, NOTED_KINDS, GroundedMention, Text, ground_in, ground_noted, noted_row
from .parse import Markup, Mention, ParseFailure, mentions_of_record, parse_answer, plain_pairs


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


def read_prediction(
    answer: Any, text: str, label: Optional[str] = None
) -> Tuple[List[Mention], List[Optional[Tuple[int, int]]], Optional[ParseFailure]]:
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


def ground_document(
    text: str,
    mentions: Sequence[Mention],
    placed: Sequence[Optional[Tuple[int, int]]],
    ground: str,
    threshold: Optional[float],
) -> List[GroundedMention]:
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


def plain_answers(answers: List[Any]) -> Optional[List[Mention]]:
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
    # a string stripped of whitespace is empty when it was empty or blank
    if set(map(type, strings)) != {str} or not all(map(str.strip, strings)):
        return None
    if set(map(type, labels)) != {str} or "" in labels:
        return None
    return flat


_METHOD, _AMBIGUOUS = itemgetter(3), itemgetter(5)


def row_and_spans(
    grounded: Sequence[GroundedMention],
    end: int,
    scores_duplicates: bool,
    parse_failed: bool,
    unplaced: Optional[Dict[int, Tuple[str, str]]] = None,
) -> Tuple[Dict[str, int], List[Tuple[int, int, str]]]:
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
    row = {
        "mentions": len(grounded),
        "exact": exact,
        "normalized": normalized,
        "fuzzy": fuzzy,
        "not_found": not_found,
        "duplicates": duplicates,
        "ambiguous": sum(map(_AMBIGUOUS, grounded)),
        "parse_failures": int(parse_failed),
    }
    return row, spans


def spans_in_bulk(
    documents: Iterable[Tuple[str, Sequence[Mention]]], ground: str, threshold: Optional[float], totals: Dict[str, int]
) -> List[List[Tuple[int, int, str]]]:
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


def predicted_spans(
    grounded: Sequence[GroundedMention],
    gold_doc: Any,
    text: str,
    unit: str,
    scores_duplicates: bool = True,
    unplaced: Optional[Dict[int, Tuple[str, str]]] = None,
) -> List[Tuple[int, int, str]]:
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
    "grounding_row",
    "ground_document",
    "plain_answers",
    "predicted_spans",
    "read_prediction",
    "row_and_spans",
    "spans_in_bulk",
]
