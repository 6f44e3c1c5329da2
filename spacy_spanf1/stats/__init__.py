"""Statistics over the per-document count table and the span outcomes:
how sure a score is (bootstrap intervals), whether a difference is real
(paired tests), and where errors come from (breakdowns)."""

from ..settings import METHODS, TESTS
from .bootstrap import Interval, SchemeInterval, bootstrap_ci
from .breakdown import Bucket, assign, breakdown, bucket_edges
from .paired import PairedTest, holm, paired_test

__all__ = [
    "METHODS",
    "TESTS",
    "Bucket",
    "Interval",
    "PairedTest",
    "SchemeInterval",
    "assign",
    "bootstrap_ci",
    "breakdown",
    "bucket_edges",
    "holm",
    "paired_test",
]
