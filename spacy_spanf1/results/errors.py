"""The primary scheme's errors of a whole corpus, counted by kind as it is
scored (`ErrorCounts`)."""

from dataclasses import dataclass
from typing import Dict, Tuple

from ..engine.outcomes import ERROR_KINDS

__all__ = ["ErrorCounts"]


@dataclass(frozen=True)
class ErrorCounts:
    """The primary scheme's errors over a whole corpus, counted as it is
    scored: what a report summarizes when it keeps only some documents.

    kinds (Tuple[int, ...]): Errors of each kind, in the order of ERROR_KINDS.
    documents (int): Documents with at least one error.
    """

    kinds: Tuple[int, ...] = (0,) * len(ERROR_KINDS)
    documents: int = 0

    @property
    def total(self) -> int:
        return sum(self.kinds)

    def by_kind(self) -> Dict[str, int]:
        """kind -> errors, every kind of ERROR_KINDS."""
        return dict(zip(ERROR_KINDS, self.kinds))

    def __add__(self, other: "ErrorCounts") -> "ErrorCounts":
        if not isinstance(other, ErrorCounts):
            return NotImplemented
        return ErrorCounts(tuple(a + b for a, b in zip(self.kinds, other.kinds)), self.documents + other.documents)
