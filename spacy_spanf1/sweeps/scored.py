"""Scored predictions read from user input and checked.

A scored prediction is `(start, end, label, score)`, a dict with "start",
"end", "label" and "score", or a spaCy Span of a SpanGroup whose
`attrs["scores"]` gives one score per span (what spancat writes). A score
is a number in [0, 1]. A span predicted twice (same start, end, label)
counts once, with its highest score.
"""

import math
from itertools import chain
from operator import itemgetter
from numbers import Real
from typing import Any, Dict, List, Sequence, Tuple

import numpy

from ..exceptions import InputError
from ..settings import UNITS
from ..spans import Span, checked_offsets, is_spacy_span, read_span

#: (span, score): one scored prediction of a document.
Scored = Tuple[Span, float]

_FORMS = (
    "A scored prediction is a (start, end, label, score) tuple, a dict with keys 'start', 'end', "
    "'label' and 'score', or a Span of a SpanGroup with attrs['scores']"
)


def score_problem(score: Any) -> str:
    """What is wrong with a score, as text following "has"; "" when it is
    a number in [0, 1]."""
    if isinstance(score, bool) or not isinstance(score, Real):
        return f"the score {score!r} (a {type(score).__name__}); scores are numbers in [0, 1]"
    value = float(score)
    if math.isnan(value):
        return "the score nan; scores are numbers in [0, 1]"
    if not 0.0 <= value <= 1.0:
        return f"the score {value!r}, outside [0, 1]; scores are numbers in [0, 1]"
    return ""


def read_scored_doc(items: Any, doc: int, unit: str = UNITS[0]) -> List[Scored]:
    """The checked scored predictions of one document, sorted by span, each
    span once with its highest score.

    items: A list of scored predictions, or a SpanGroup (its
        attrs["scores"] gives the scores).
    doc (int): The index of the document, for errors.
    """
    if isinstance(items, (str, bytes, dict)):
        raise InputError(f"Predicted document {doc} is a {type(items).__name__}, not a list of scored spans.")
    group_scores = _group_scores(items, doc)
    best: Dict[Span, float] = {}
    try:
        listed = list(items)
    except TypeError:
        raise InputError(f"Predicted document {doc} is {items!r}, not a list of scored spans.") from None
    for i, item in enumerate(listed):
        where = f"{i} of predicted document {doc}"
        if group_scores is not None:
            span, score = item, group_scores[i]
        elif isinstance(item, dict):
            if "score" not in item:
                raise InputError(f"Span {where} has no 'score': {item!r}. {_FORMS}.")
            span, score = {k: item[k] for k in ("start", "end", "label") if k in item}, item["score"]
        elif isinstance(item, (tuple, list)) and len(item) == 4:
            span, score = item[:3], item[3]
        elif is_spacy_span(item) or (isinstance(item, (tuple, list)) and len(item) == 3):
            raise InputError(f"Span {where} has no score: {item!r}. {_FORMS}.")
        else:
            raise InputError(f"Span {where} is {item!r}. {_FORMS}.")
        problem = score_problem(score)
        if problem:
            raise InputError(f"Span {where} has {problem}.")
        try:
            checked = read_span(span, where, unit)
        except ValueError as error:
            raise InputError(str(error)) from None
        value = float(score)
        if value > best.get(checked, -1.0):
            best[checked] = value
    return sorted(best.items())


def _group_scores(items: Any, doc: int):
    """The scores of a SpanGroup (attrs["scores"]), one per span; None for
    other input."""
    attrs = getattr(items, "attrs", None)
    if not isinstance(attrs, dict) or not hasattr(items, "doc"):
        return None
    if "scores" not in attrs:
        raise InputError(
            f"Predicted document {doc} is a SpanGroup without attrs['scores']: give the scores "
            "(spancat writes them), or pass (start, end, label, score) tuples."
        )
    scores = list(attrs["scores"])
    if len(scores) != len(items):
        raise InputError(
            f"Predicted document {doc}: the SpanGroup has {len(items)} spans but "
            f"{len(scores)} scores in attrs['scores']."
        )
    return [s.item() if hasattr(s, "item") else s for s in scores]


def read_scored_docs(docs: Sequence[Any], unit: str = UNITS[0]) -> List[List[Scored]]:
    """read_scored_doc over every document; no scored prediction at all is
    an InputError (a sweep needs scores)."""
    read = [read_scored_doc(items, i, unit) for i, items in enumerate(docs)]
    if not any(read):
        raise InputError(
            f"None of the {len(read)} predicted documents holds a scored span: a sweep needs "
            "predictions with scores in [0, 1]. " + _FORMS + "."
        )
    return read


def flat_scored(docs: Sequence[Any], unit: str = UNITS[0]):
    """Every document's scored predictions as flat columns: (document,
    start, end, label, score) lists, each span once with its highest score,
    in document order (not sorted within a document). Lists of plain
    (start, end, label, score) tuples are checked all at once; anything
    else (or a bad span, to name it) is read document by document."""
    columns = _plain_columns(docs)
    if columns is None:
        read = read_scored_docs(docs, unit)
        columns = (
            [i for i, d in enumerate(read) for _ in d],
            [s[0] for d in read for s, _ in d],
            [s[1] for d in read for s, _ in d],
            [s[2] for d in read for s, _ in d],
            [score for d in read for _, score in d],
        )
    elif not len(columns[0]):
        read_scored_docs(docs, unit)  # raises: no scored span
    return columns


def _plain_columns(docs: Sequence[Any]):
    """The columns of documents that are lists of good (start, end, label,
    score) tuples, offsets and scores on arrays; None otherwise."""
    try:
        if not set(map(type, docs)) <= {list, tuple} and any(
            isinstance(d, (str, bytes, dict)) or hasattr(d, "attrs") for d in docs
        ):
            return None
        lengths = [len(d) for d in docs]
        flat = list(chain.from_iterable(docs))
        if not set(map(type, flat)) <= {tuple} or set(map(len, flat)) - {4}:
            return None
        starts, ends, labels, scores = (list(map(itemgetter(i), flat)) for i in range(4))
    except TypeError:
        return None
    bad, start, end = checked_offsets(starts, ends, labels)
    if bad is not None or start is None:
        return None
    if any(not issubclass(kind, Real) or issubclass(kind, bool) for kind in set(map(type, scores))):
        return None
    values = numpy.asarray(scores, dtype=numpy.float64)
    if not ((values >= 0) & (values <= 1)).all():  # NaN fails too
        return None
    return numpy.repeat(numpy.arange(len(lengths)), lengths), start, end, labels, values
