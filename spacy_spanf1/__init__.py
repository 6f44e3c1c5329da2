"""spacy-spanf1: span precision, recall and F1 under explicitly named
matching schemes, inside spaCy and out."""
from .counts import PRFCounts, SemEvalCounts
from .errors import SCHEMES
from .evaluate import SchemeResult, SpanScorer, evaluate_spans
from .matching import SpanError
from .spans import Span
from .tags import TagReport, TagScore, evaluate_tags, spans_from_tags

_STATS = ("bootstrap_ci", "paired_test", "breakdown")


def __getattr__(name):
    # What needs spaCy is imported when first used, so that importing the
    # package stays light.
    if name == "evaluate_examples":
        from .docs import evaluate_examples

        return evaluate_examples
    if name in _STATS:
        from . import stats

        return getattr(stats, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "SCHEMES",
    "PRFCounts",
    "SchemeResult",
    "SemEvalCounts",
    "Span",
    "SpanError",
    "SpanScorer",
    "TagReport",
    "TagScore",
    "bootstrap_ci",
    "breakdown",
    "evaluate_examples",
    "paired_test",
    "evaluate_spans",
    "evaluate_tags",
    "spans_from_tags",
]
