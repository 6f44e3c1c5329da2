"""`evaluate_examples`: spaCy Examples scored the way the registered
scorer scores them (`integrations.spacy`: its alignment and missing
annotation rules), with the settings of a `MatchSettings`."""

from typing import Dict, Iterable, Optional, Unpack

from spacy.training import Example

from ..engine.scorer import SpanScorer, warn_unseen_labels
from ..keyword_types import ExampleMatchKeywords
from ..keywords import built, front_door, refuse_set
from ..results import SchemeResult
from ..settings import UNITS, MatchSettings
from .spacy import add_examples

__all__ = ["evaluate_examples"]

#: The settings of MatchSettings that scoring Examples does not apply.
UNUSED = ("beta", "symmetric", "relation_labels")


@front_door(match=MatchSettings)
def evaluate_examples(
    examples: Iterable[Example],
    *,
    match: Optional[MatchSettings] = None,
    per_doc: bool = False,
    keep_errors: bool = False,
    keep_outcomes: bool = False,
    **keywords: Unpack[ExampleMatchKeywords],
) -> Dict[str, SchemeResult]:
    """Score spaCy Examples under the named schemes, with the scorer's
    alignment and missing-annotation rules (`Doc.ents`, or
    `Doc.spans[spans_key]`).

    examples (Iterable[Example]): Predicted and reference docs; read once.
    match (Optional[MatchSettings]): How spans are matched; or its fields
        as keywords, a keyword given beside the object written over its
        field: schemes (required: strict, exact, partial, type, iou,
        overlap), spans_key (score this span group instead of `Doc.ents`),
        unit ("token", reference tokens, or "char"; None: token), labels,
        iou_threshold, overlap_threshold, min_overlap, label_map,
        map_unlisted, view, as for `evaluate_spans`. beta does not apply
        (a SettingError when set).
    per_doc, keep_errors, keep_outcomes (bool): As for `evaluate_spans`.
    An unknown keyword is a TypeError naming the valid ones.
    RETURNS (Dict[str, SchemeResult]): scheme -> result, as evaluate_spans.
        A reference doc without annotation is skipped: it is not a document
        of the results (`result.n_docs` counts the scored ones).
    """
    match = built(match)
    refuse_set(match, UNUSED, "evaluate_examples")
    scorer = SpanScorer.from_settings(match, per_doc=per_doc, keep_errors=keep_errors, keep_outcomes=keep_outcomes)
    add_examples(scorer, examples, match.spans_key, match.unit or UNITS[0])
    warn_unseen_labels(scorer)
    return scorer.results()
