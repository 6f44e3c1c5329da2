"""Results as values: the scores of a corpus (`scores.CorpusScores`), the
errors counted as it is scored (`errors.ErrorCounts`), the analysis they
carry (`analysis`). The result of one scheme, `SchemeResult`, is the
engine's (`engine.result`); its name is here too, beside the scores that
hold it, as is the signature every result carries (`signature`).
"""

from ..engine.result import Counts, SchemeResult
from ..signature import Signature, make_signature
from .errors import ErrorCounts
from .scores import CorpusScores

__all__ = ["CorpusScores", "Counts", "ErrorCounts", "SchemeResult", "Signature", "make_signature"]
