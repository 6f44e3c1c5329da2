"""Mentions without offsets: what LLMs and generative extractors return (a
string and a label per entity), read from their raw answers (`parse`),
grounded to offsets in the document's text (`ground`), and scored under
every span scheme and the string schemes (`score`)."""
from .ground import GroundedMention, ground_mentions, normalize
from .parse import Markup, ParseFailure, parse_answer
from .score import GROUNDING_COUNTS, STRING_SCHEMES, MentionScores, evaluate_mentions, squad_normalize

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
