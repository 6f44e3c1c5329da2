"""Figures as the command line and the pages write them."""

from typing import Mapping, Optional


def format_pct(value: Optional[float]) -> str:
    """A ratio as a percentage with 2 decimals; "" for None."""
    return "" if value is None else f"{value * 100:.2f}"


def format_delta(value: float) -> str:
    """A difference of ratios in percentage points, signed: "+12.50"."""
    return f"{value * 100:+.2f}"


def format_counts(counts: Mapping[str, int]) -> str:
    """Counts as "COR 2  INC 1 ..." (the names upper-cased)."""
    return "  ".join(f"{name.upper()} {n}" for name, n in counts.items())
