"""spacy-spanf1: span precision, recall and F1 under explicitly named
matching schemes, inside spaCy and out."""
from .counts import PRFCounts, SemEvalCounts
from .errors import SCHEMES
from .evaluate import SchemeResult, SpanScorer, evaluate_spans
from .outcomes import SpanError
from .spans import Span
from .tags import TagReport, TagScore, evaluate_tags, spans_from_tags

#: Names exported lazily (module __getattr__), so that `import spacy_spanf1`
#: imports neither spaCy, srsly nor scipy: name -> module.
_LAZY = {
    "CorpusScores": "app",
    "compare_files": "app",
    "evaluate_pipeline": "app",
    "score_pairs": "app",
    "evaluate_examples": "docs",
    "bootstrap_ci": "stats",
    "paired_test": "stats",
    "breakdown": "stats",
}


def __getattr__(name):
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "CorpusScores",
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
    "compare_files",
    "evaluate_examples",
    "evaluate_pipeline",
    "evaluate_spans",
    "evaluate_tags",
    "paired_test",
    "score_pairs",
    "spans_from_tags",
]
