"""Mentions without offsets: what LLMs and generative extractors return (a
string and a label per entity), read from their raw answers (`parse`),
grounded to offsets in the document's text (`ground`, `normalize`), and
scored under every span scheme (`score`, over the sides that `gold` and
`predicted` read) and the string schemes (`strings`).

The scoring of `score` is imported when first asked for (module
__getattr__): the corpus stream runs the string schemes (`strings`, which
stands on the engine alone) without it.
"""

from typing import TYPE_CHECKING, Any

from .ground import GROUNDING_COUNTS, GroundedMention, ground_mentions
from .normalize import normalize, squad_normalize
from .parse import Markup, ParseFailure, parse_answer
from ..settings import STRING_SCHEMES

if TYPE_CHECKING:
    from .score import MentionScores, evaluate_mentions

#: The names of `score`, imported on first use.
_LAZY = ("MentionScores", "evaluate_mentions")


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        from . import score

        value = getattr(score, name)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "GROUNDING_COUNTS",
    "GroundedMention",
    "Markup",
    "MentionScores",
    "ParseFailure",
    "STRING_SCHEMES",
    "evaluate_mentions",
    "ground_mentions",
    "normalize",
    "parse_answer",
    "squad_normalize",
]
