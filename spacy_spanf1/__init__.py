"""spacy-spanf1: span precision, recall and F1 under explicitly named
matching schemes, inside spaCy and out."""

from typing import TYPE_CHECKING

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
#: imports neither spaCy, srsly nor scipy: module -> the names it exports.
_LAZY = {
    "results": ("CorpusScores",),
    "api": ("compare_files", "evaluate_pipeline", "agreement", "agree_files", "sweep_files", "sweep_pipeline"),
    "corpus": ("score_pairs",),
    "integrations.examples": ("evaluate_examples",),
    "stats": ("bootstrap_ci", "paired_test", "breakdown"),
    "mentions": ("ground_mentions", "evaluate_mentions"),
    "sweeps": ("sweep", "SweepSettings"),
    "agreements": ("consensus",),
    "links": ("evaluate_links",),
    "relations": ("evaluate_relations",),
}

# The packages of sweeps and agreement are `sweeps` and `agreements`, so that
# `spacy_spanf1.sweep` and `spacy_spanf1.agreement` stay the functions once
# the packages are imported.


if TYPE_CHECKING:  # the lazy names, for type checkers and editors (`as`: re-exported)
    from .results import CorpusScores as CorpusScores
    from .api import (
        compare_files as compare_files,
        evaluate_pipeline as evaluate_pipeline,
        agreement as agreement,
        agree_files as agree_files,
        sweep_files as sweep_files,
        sweep_pipeline as sweep_pipeline,
    )
    from .corpus import score_pairs as score_pairs
    from .integrations.examples import evaluate_examples as evaluate_examples
    from .stats import bootstrap_ci as bootstrap_ci, paired_test as paired_test
    from .stats.breakdown import breakdown as breakdown  # the function, not its module
    from .mentions import ground_mentions as ground_mentions, evaluate_mentions as evaluate_mentions
    from .sweeps import sweep as sweep, SweepSettings as SweepSettings
    from .agreements.consensus import consensus as consensus  # the function, not its module
    from .links import evaluate_links as evaluate_links
    from .relations import evaluate_relations as evaluate_relations


__getattr__ = lazy_exports(__name__, _LAZY, globals())


#: What the package imports, and what it imports when first asked for.
__all__ = [
    "AgreementSettings",
    "AnalysisSettings",
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
    "TagReport",
    "TagScore",
    "__version__",
    "evaluate_spans",
    "evaluate_tags",
    "spans_from_tags",
    *(name for names in _LAZY.values() for name in names),
]
