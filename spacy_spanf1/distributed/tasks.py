"""What runs per shard, on a worker or in-process. No Dask import: a task
receives a ShardSpec and the settings (plain values), never a pipeline;
on a worker the pipeline was loaded by the worker plugin (`plugin.py`)
into `PIPELINES`.
"""
import importlib.util
import os
from collections import deque
from pathlib import Path
from typing import Any, Dict, Optional, Union

from ..formats import InputError, PairStats
from .shards import ShardFailure, ShardResult, ShardSpec

#: model (as given) -> the loaded pipeline, or the InputError loading it raised.
PIPELINES: Dict[str, Any] = {}

THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS", "VECLIB_MAXIMUM_THREADS", "NUMEXPR_NUM_THREADS")


def pin_threads() -> None:
    """One thread per numeric library: a worker process is one core's
    worth of work. torch only if it is installed (it is not imported else)."""
    for name in THREAD_VARIABLES:
        os.environ[name] = "1"
    if importlib.util.find_spec("torch") is not None:
        import torch

        torch.set_num_threads(1)


def import_code(code: Optional[Union[str, Path]]) -> None:
    """Import a Python file of registered functions (custom components), as
    `spacy evaluate --code` does."""
    if code is None:
        return
    from spacy.util import import_file

    path = Path(code)
    if not path.is_file():
        raise InputError("file of code not found", path)
    import_file(f"spacy_spanf1_code_{path.stem}", path)


def load_pipeline(model: str, code: Optional[str] = None):
    """spacy.load, with the package's one-line error."""
    import spacy

    import_code(code)
    try:
        return spacy.load(model)
    except Exception as err:  # spaCy raises OSError, ValueError, config errors...
        lines = str(err).strip().splitlines()
        reason = lines[0] if lines else type(err).__name__
        raise InputError(f"can't load the pipeline: {reason}", model) from None


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
    """The docs start..start+count of a .spacy file, built only for that
    range (the file is read whole, as DocBin does)."""
    from ..formats.docbin import load_docbin, read_docbin

    docbin = load_docbin(path)
    end = None if count is None else start + count
    for name in ("tokens", "spaces", "cats", "span_groups", "flags", "user_data"):
        setattr(docbin, name, getattr(docbin, name)[start:end])
    return read_docbin(path, vocab, docbin)


def score_pipeline_shard(spec: ShardSpec, settings: Dict[str, Any], nlp=None) -> Union[ShardResult, ShardFailure]:
    """Run the pipeline over the shard's documents and score them (no
    corpus-level checks: those need every shard).

    settings: model, code, schemes, labels, iou_threshold,
        overlap_threshold, min_overlap, keep_errors, spans_key, unit,
        batch_size, n_process, keep (what the analysis keeps per document:
        `score_pairs`' per_doc, meta_fields, doc_lengths, keep_spans, by_fields).
    nlp: In-process, the loaded pipeline; None: the worker's.
    """
    from ..app import _pipeline_input, _unzip, score_pairs
    from ..formats.docbin import DOCBIN, doc_document, read_docbin
    from ..formats.pairing import pair_documents

    try:
        if nlp is None:
            nlp = worker_pipeline(settings["model"], settings.get("code"))
        if spec.start or spec.count is not None:
            refs = read_docbin_range(spec.gold, nlp.vocab, spec.start, spec.count)
        else:
            refs = read_docbin(spec.gold, nlp.vocab)
        unit = settings["unit"]
        kept_refs: deque = deque()

        def inputs():
            for ref in refs:
                kept_refs.append(ref)
                yield _pipeline_input(nlp, ref)

        preds = nlp.pipe(inputs(), batch_size=settings.get("batch_size", 64), n_process=settings.get("n_process", 1))

        def sides():
            for index, pred in enumerate(preds, spec.start):
                ref = kept_refs.popleft()
                gold_doc = doc_document(index, ref, unit, "gold", spec.gold)
                pred_doc = doc_document(index, pred, unit, "pred")
                if spec.prefix:
                    gold_doc.name = pred_doc.name = spec.prefix + gold_doc.name
                yield gold_doc, pred_doc

        golds, pred_docs = _unzip(sides())
        stats = PairStats()
        pairs = pair_documents(golds, pred_docs, fmt=DOCBIN, sources=settings["sources"], stats=stats,
                               options={"unit": unit, "spans_key": settings.get("spans_key")})
        scores = score_pairs(
            pairs, settings["schemes"], labels=settings.get("labels"),
            iou_threshold=settings["iou_threshold"], overlap_threshold=settings["overlap_threshold"],
            min_overlap=settings.get("min_overlap"), keep_errors=settings.get("keep_errors", False),
            stats=stats, unit=unit, sources=settings["sources"], **settings.get("keep", {}),
        )
    except InputError as err:
        return _failure(spec, err)
    return ShardResult(spec.index, scores, set(stats.spans_keys), "spacy")


def score_pair_shard(spec: ShardSpec, settings: Dict[str, Any]) -> Union[ShardResult, ShardFailure]:
    """Score one gold/predicted pair of files (compare).

    settings: schemes, labels, thresholds, keep_errors, fmt, unit,
        spans_key, options (the reader settings), keep (as for pipelines).
    """
    from ..app import score_pairs
    from ..formats import open_pairs

    try:
        pairs = open_pairs(spec.gold, spec.pred, settings.get("fmt"), unit=settings.get("unit"),
                           spans_key=settings.get("spans_key"), **settings.get("options", {}))
        schemes = settings["schemes"]
        scores = score_pairs(
            _renamed(pairs, spec.prefix), schemes, labels=settings.get("labels"),
            iou_threshold=settings["iou_threshold"], overlap_threshold=settings["overlap_threshold"],
            min_overlap=settings.get("min_overlap"), keep_errors=settings.get("keep_errors", False),
            stats=pairs.stats, unit=pairs.unit, sources=pairs.sources,
            gold_labels=pairs.fmt.name == "kaggle" and "overlap" in schemes, **settings.get("keep", {}),
        )
        if spec.prefix:
            scores.skipped_names = [spec.prefix + name for name in scores.skipped_names]
    except InputError as err:
        return _failure(spec, err)
    return ShardResult(spec.index, scores, set(pairs.stats.spans_keys), pairs.fmt.name)


def _renamed(pairs, prefix: str):
    for pair in pairs:
        if prefix:
            pair.name = prefix + pair.name
        yield pair
