"""What runs per shard, on a worker or in-process. No Dask import: a task
receives a ShardSpec and the settings (plain values), never a pipeline;
on a worker the pipeline was loaded by the worker plugin (`plugin.py`)
into `PIPELINES`.
"""

import importlib.util
import itertools
import os
from typing import Any, Dict, Optional, Union

from ..corpus import load_pipeline, score_files, score_pipeline
from ..exceptions import InputError
from ..formats.docbin import load_docbin, read_docbin
from .shards import ShardFailure, ShardResult, ShardSpec

#: model (as given) -> the loaded pipeline, or the InputError loading it raised.
PIPELINES: Dict[str, Any] = {}

THREAD_VARIABLES = (
    "OMP_NUM_THREADS",
    "MKL_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)


def pin_threads() -> None:
    """One thread per numeric library: a worker process is one core's
    worth of work. torch only if it is installed (it is not imported else)."""
    for name in THREAD_VARIABLES:
        os.environ[name] = "1"
    if importlib.util.find_spec("torch") is not None:
        import torch

        torch.set_num_threads(1)


def worker_pipeline(model: str, code: Optional[str] = None):
    """The pipeline the plugin loaded (loaded now if it did not run)."""
    if model not in PIPELINES:
        try:
            PIPELINES[model] = load_pipeline(model, code)
        except InputError as err:
            PIPELINES[model] = err
    found = PIPELINES[model]
    if isinstance(found, InputError):
        raise found
    return found


def _failure(spec: ShardSpec, err: InputError) -> ShardFailure:
    return ShardFailure(spec.index, err.message, err.path, err.line, err.setting)


def read_docbin_range(path, vocab, start: int, count: Optional[int]):
    """The docs start..start+count of a .spacy file (the file is read
    whole, as DocBin does; DocBin has no public way to build only a range,
    so the docs before it are built and passed over, which costs little
    beside running a pipeline on the range)."""
    end = None if count is None else start + count
    return itertools.islice(read_docbin(path, vocab, load_docbin(path)), start, end)


def score_pipeline_shard(spec: ShardSpec, settings: Dict[str, Any], nlp=None) -> Union[ShardResult, ShardFailure]:
    """Run the pipeline over the shard's documents and score them (no
    corpus-level checks: those need every shard).

    settings: match (MatchSettings), run (RunSettings), keep (Keep),
        sources, model and code (what a worker loads).
    nlp: In-process, the loaded pipeline; None: the worker's.
    """
    try:
        if nlp is None:
            nlp = worker_pipeline(settings["model"], settings.get("code"))
        if spec.start or spec.count is not None:
            refs = read_docbin_range(spec.gold, nlp.vocab, spec.start, spec.count)
        else:
            refs = read_docbin(spec.gold, nlp.vocab)
        scores = score_pipeline(
            nlp,
            refs,
            settings["match"],
            settings["run"],
            settings["keep"],
            sources=settings["sources"],
            start=spec.start,
            gold_source=spec.gold,
            prefix=spec.prefix,
        )
    except InputError as err:
        return _failure(spec, err)
    return ShardResult(spec.index, scores)


def score_pair_shard(spec: ShardSpec, settings: Dict[str, Any]) -> Union[ShardResult, ShardFailure]:
    """Score one gold/predicted pair of files (compare).

    settings: match (MatchSettings), read (ReadSettings), keep (Keep).
    """
    try:
        scores = score_files(
            spec.gold, spec.pred, settings["match"], settings["read"], settings["keep"], rename=spec.prefix
        )
        if spec.prefix:
            scores = scores.replace(skipped_names=tuple(spec.prefix + name for name in scores.skipped_names))
    except InputError as err:
        return _failure(spec, err)
    return ShardResult(spec.index, scores)
