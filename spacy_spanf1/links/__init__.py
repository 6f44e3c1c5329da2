"""Entity linking: the link schemes over spans that carry a knowledge-base id.

`evaluate_links` scores them: neleval 3.1.1's ten tagging measures under
its names (`tagging`), GERBIL's weak annotation match paired as the
engine's `type` scheme pairs (`weak`), and spaCy's `Scorer.score_links`
(`nel`, with `nel_scores` and `score_links` for spaCy's keys), from spans
read onto arrays (`spans`); `link_errors` gives the error records of the
all-match measures, naming both ids. Each scheme gives a SchemeResult of PRFCounts.
"""

from .errors import link_errors
from .evaluate import check_link_schemes, evaluate_links, score_links
from .nel import nel_scores
from .spans import is_nil_id
from .tagging import TAGGING

__all__ = [
    "TAGGING",
    "check_link_schemes",
    "evaluate_links",
    "is_nil_id",
    "link_errors",
    "nel_scores",
    "score_links",
]
