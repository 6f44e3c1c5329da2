"""Spans written as the tags that the tag-reading references take (seqeval's
IOB2 sequences, a spaCy Doc's `ents`, a CoNLL file's column): the tests
and the benchmarks feed the same spans to them and to the package."""

from typing import List


def iob2(n: int, spans) -> List[str]:
    """IOB2 tags of n tokens for (start, end, label) token spans, end
    exclusive, that do not overlap."""
    tags = ["O"] * n
    for start, end, label in spans:
        tags[start] = f"B-{label}"
        for i in range(start + 1, end):
            tags[i] = f"I-{label}"
    return tags
