"""Scoring a corpus: the stream loop (`stream.score_pairs`), the two streams
it scores (files read by a format: `files.score_files`; a pipeline run
over a DocBin: `pipeline.pipeline_pairs`), the errors as they stream
(`errors`: `Keep`, `ErrorStream`), and the checks that need the whole
corpus (`checks`: `check_outcome`, `finish`).

Everything that scores a corpus comes through here: the Python front
doors (`api/`) for one corpus, the Dask tasks (`distributed/`) for each
shard, which are merged with `CorpusScores.__add__` and then checked.
Memory is bounded: a batch of documents at a time, plus only what `Keep`
asks for. Errors can stream too (`ErrorStream`): a batch's errors go to a
callback as soon as it is scored, they are counted by kind, and only the
documents with the most errors need be kept.
"""

from .checks import check_outcome, finish, outcome_warnings
from .errors import ErrorStream, Keep, deliver_errors
from .files import open_files, score_files
from .pipeline import import_code, load_pipeline, pipeline_input, pipeline_pairs, score_pipeline, unzip
from .stream import FULL_COLLECTION, score_pairs

__all__ = [
    "FULL_COLLECTION",
    "ErrorStream",
    "Keep",
    "check_outcome",
    "deliver_errors",
    "finish",
    "import_code",
    "load_pipeline",
    "open_files",
    "outcome_warnings",
    "pipeline_input",
    "pipeline_pairs",
    "score_files",
    "score_pairs",
    "score_pipeline",
    "unzip",
]
