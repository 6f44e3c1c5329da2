"""Results as values (see `scores`)."""
from .scores import (
    Counts,
    CorpusScores,
    ErrorCounts,
    SchemeResult,
    Signature,
    count_errors,
    errors_of,
    make_signature,
    outcomes_of,
    parts_by_doc,
    signature_text,
)

__all__ = ["Counts", "CorpusScores", "ErrorCounts", "SchemeResult", "Signature", "count_errors", "errors_of",
           "make_signature", "outcomes_of", "parts_by_doc", "signature_text"]
