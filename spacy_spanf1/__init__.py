"""spacy-spanf1: span precision, recall and F1 under explicitly named
matching schemes, inside spaCy and out."""

from .about import __version__
from .engine.counts import PRFCounts, SemEvalCounts
from .engine.outcomes import SpanError
from .engine.scorer import SpanScorer, evaluate_spans
from .exceptions import InputError, SettingError
from .engine.result import SchemeResult
from .settings import (
    LINK_SCHEMES,
    RELATION_SCHEMES,
    SCHEMES,
    AgreementSettings,
    AnalysisSettings,
    MatchSettings,
    ReadSettings,
    RunSettings,
)
from .spans import Span
from .lazy import lazy_exports
from .tags import TagReport, TagScore, evaluate_tags, spans_from_tags

#: Names exported lazily (module __getattr__), so that `import spacy_spanf1`
#: imports neither spaCy, srsly nor scipy: name -> module.
_LAZY = {
    "CorpusScores": "results",
    "compare_files": "api",
    "evaluate_pipeline": "api",
    "score_pairs": "corpus",
    "evaluate_examples": "integrations.examples",
    "bootstrap_ci": "stats",
    "paired_test": "stats",
    "breakdown": "stats",
    "ground_mentions": "mentions",
    "evaluate_mentions": "mentions",
    "sweep": "sweeps",
    "agreement": "api",
    "consensus": "agreements",
    "agree_files": "api",
    "sweep_files": "api",
    "sweep_pipeline": "api",
    "SweepSettings": "sweeps",
    "evaluate_links": "links",
    "evaluate_relations": "relations",
}
# The packages of sweeps and agreement are `sweeps` and `agreements`, so that
# `spacy_spanf1.sweep` and `spacy_spanf1.agreement` stay the functions once
# the packages are imported.


__getattr__ = lazy_exports(__name__, _LAZY, globals())


__all__ = [
    "AgreementSettings",
    "AnalysisSettings",
    "CorpusScores",
    "InputError",
    "LINK_SCHEMES",
    "MatchSettings",
    "PRFCounts",
    "RELATION_SCHEMES",
    "ReadSettings",
    "RunSettings",
    "SCHEMES",
    "SchemeResult",
    "SemEvalCounts",
    "SettingError",
    "Span",
    "SpanError",
    "SpanScorer",
    "SweepSettings",
    "TagReport",
    "TagScore",
    "__version__",
    "agree_files",
    "agreement",
    "bootstrap_ci",
    "breakdown",
    "compare_files",
    "consensus",
    "evaluate_examples",
    "evaluate_links",
    "evaluate_pipeline",
    "evaluate_relations",
    "evaluate_spans",
    "evaluate_mentions",
    "evaluate_tags",
    "ground_mentions",
    "paired_test",
    "score_pairs",
    "spans_from_tags",
    "sweep",
    "sweep_files",
    "sweep_pipeline",
]
