"""How sure is a score, is a difference real: bootstrap intervals and
paired tests computed from per-document count rows (SPEC.md)."""
from .bootstrap import METHODS, Interval, SchemeInterval, bootstrap_ci
from .paired import TESTS, PairedTest, holm, paired_test

__all__ = [
    "METHODS",
    "TESTS",
    "Interval",
    "PairedTest",
    "SchemeInterval",
    "bootstrap_ci",
    "holm",
    "paired_test",
]
