"""Running a plan: in-process, or one Dask task per shard on a client.

`open_client` makes the client from the command's three choices
(`--cluster local:N`, `--scheduler ADDRESS`, `--scheduler-file PATH`);
`run_pipeline` and `run_compare` are what `evaluate_pipeline` and
`compare_files` call for sharded input or a client.
"""

import contextlib
import dataclasses
import sys
import time
import uuid
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

from functools import reduce
from operator import add

from ..corpus import Keep, deliver_errors, load_pipeline
from ..exceptions import InputError, SettingError
from ..results import CorpusScores
from ..settings import MatchSettings, ReadSettings, RunSettings
from .tasks import score_pair_shard, score_pipeline_shard
from .shards import ShardFailure, ShardResult, ShardSpec, check_counts, plan_pairs, plan_pipeline

#: Retries of a task that raised (not of bad input: that is returned, and
#: not of a dead worker: the scheduler's allowed-failures counts those).
RETRIES = 2


def _need_dask():
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise SettingError(
            "a cluster needs Dask: pip install 'spacy-spanf1[dask]' (dask and distributed)", "cluster"
        ) from None


def parse_cluster(cluster: str) -> int:
    """The N of "local:N"."""
    kind, _, n = str(cluster).partition(":")
    if kind != "local" or not n.isdigit() or int(n) < 1:
        raise SettingError(f"'cluster' must be local:N with N >= 1 workers, got {cluster!r}", "cluster")
    return int(n)


@contextlib.contextmanager
def open_client(
    cluster: Optional[str] = None,
    scheduler: Optional[str] = None,
    scheduler_file: Optional[str] = None,
    *,
    allowed_failures: Optional[int] = None,
    quiet: bool = True,
) -> Iterator[Any]:
    """A `distributed.Client`, or None when no choice is made (in-process).

    cluster (Optional[str]): "local:N": a LocalCluster of N single-threaded
        worker processes, started here and closed on leaving (also on
        Ctrl-C and errors).
    scheduler (Optional[str]): The address of a running scheduler.
    scheduler_file (Optional[str]): Its scheduler file (`dask scheduler
        --scheduler-file`).
    allowed_failures (Optional[int]): local:N: the scheduler's
        `distributed.scheduler.allowed-failures` (default: Dask's, 3).
    quiet (bool): local:N: keep Dask's logs (worker deaths...) off stderr.
    """
    chosen = [
        name
        for name, value in (("cluster", cluster), ("scheduler", scheduler), ("scheduler_file", scheduler_file))
        if value
    ]
    if len(chosen) > 1:
        raise SettingError(
            f"give one of 'cluster', 'scheduler' and 'scheduler_file', not {' and '.join(chosen)}", chosen[1]
        )
    if not chosen:
        yield None
        return
    _need_dask()
    import logging

    import dask
    from distributed import Client, LocalCluster

    if cluster:
        n = parse_cluster(cluster)
        # Dask's statistical profiler samples the task thread every 10 ms:
        # with pure-Python pipeline code that is a sixth of the time.
        config: Dict[str, Any] = {
            "distributed.worker.profile.enabled": False,
            # The nanny sets MALLOC_TRIM_THRESHOLD_=65536 in its workers;
            # glibc then stops adapting its mmap threshold, and a spaCy
            # pipeline spends a quarter more CPU time mapping and unmapping
            # its arrays. None leaves glibc's default (docs/clusters.md).
            "distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None,
        }
        if allowed_failures is not None:
            config["distributed.scheduler.allowed-failures"] = allowed_failures
        with dask.config.set(config):
            with (
                LocalCluster(
                    n_workers=n,
                    threads_per_worker=1,
                    processes=True,
                    dashboard_address=None,
                    silence_logs=logging.CRITICAL if quiet else logging.WARNING,
                ) as local,
                Client(local) as client,
            ):
                yield client
        return
    try:
        client = Client(scheduler_file=scheduler_file) if scheduler_file else Client(scheduler)
    except (OSError, TimeoutError, ValueError) as err:
        setting = "scheduler_file" if scheduler_file else "scheduler"
        where = f"of the file {scheduler_file}" if scheduler_file else f"at {scheduler}"
        raise InputError(f"can't connect to the Dask scheduler {where}: {err}", setting=setting) from None
    with client:
        yield client


def _bar(total: int, progress: bool, desc: str):
    from tqdm import tqdm

    show = progress and bool(getattr(sys.stderr, "isatty", lambda: False)())
    return tqdm(total=total, desc=desc, unit="shard", disable=not show, leave=False, file=sys.stderr)


def _take(spec: ShardSpec, result, results: Dict[int, ShardResult]) -> bool:
    if isinstance(result, ShardFailure):
        raise result.error()
    if spec.index in results:  # a late second copy: counted once
        return False
    results[spec.index] = result
    return True


def run_shards(
    specs: Sequence[ShardSpec],
    task: Callable[..., Any],
    settings: Dict[str, Any],
    *,
    client=None,
    progress: bool = False,
    desc: str = "Scoring shards",
    **local: Any,
) -> List[ShardResult]:
    """Every shard's result, in plan order. In-process (client None) the
    shards run one after another (task(spec, settings, **local)); with a
    client, one task per shard, gathered as they complete."""
    results: Dict[int, ShardResult] = {}
    bar = _bar(len(specs), progress, desc)
    started, docs = time.perf_counter(), 0

    def tick(result: ShardResult) -> None:
        nonlocal docs
        docs += result.scores.documents
        bar.update(1)
        bar.set_postfix_str(f"{docs / max(time.perf_counter() - started, 1e-9):.0f} docs/s")

    with bar:
        if client is None:
            for spec in specs:
                if _take(spec, task(spec, settings, **local), results):
                    tick(results[spec.index])
        else:
            _run_on_client(client, specs, task, settings, results, tick)
    check_counts(specs, results)
    return [results[spec.index] for spec in specs]


def _run_on_client(client, specs, task, settings, results, tick) -> None:
    from distributed import as_completed
    from distributed.scheduler import KilledWorker

    token = uuid.uuid4().hex[:12]
    futures = {}
    for spec in specs:
        future = client.submit(
            task, spec, settings, key=f"spanf1-shard-{spec.index}-{token}", pure=False, retries=RETRIES
        )
        futures[future.key] = (future, spec)
    try:
        for future in as_completed([f for f, _ in futures.values()]):
            spec = futures[future.key][1]
            failure = future.exception() if future.status == "error" else None
            if failure is not None and not isinstance(failure, (InputError, KilledWorker)):
                # the task's own exception after its retries (a bug, or the pipeline's): raised as it is
                if hasattr(failure, "add_note"):
                    failure.add_note(f"{spec.describe()} failed after {RETRIES + 1} tries; no scores")
                raise failure.with_traceback(future.traceback())
            try:
                result = future.result()
            except KilledWorker as err:
                raise InputError(
                    f"{spec.describe()} failed: every worker that ran it died ({err.allowed_failures + 1} tries; "
                    "out of memory, or a crash in the pipeline?); no scores"
                ) from None
            if _take(spec, result, results):
                tick(results[spec.index])
    finally:
        pending = [f for f, _ in futures.values() if not f.done()]
        if pending:
            client.cancel(pending)


def _sources(inputs) -> str:
    if isinstance(inputs, (str, bytes)) or not isinstance(inputs, (list, tuple)):
        return str(inputs)
    return str(inputs[0]) if len(inputs) == 1 else ", ".join(str(p) for p in inputs)


def merged(results: Sequence[ShardResult]) -> CorpusScores:
    """The scores of the shards added in plan order (`CorpusScores.__add__`)."""
    try:
        return reduce(add, (result.scores for result in results))
    except ValueError as err:  # shards read with other settings (formats, units)
        raise InputError(f"the shards can't be added: {err}") from None


def shard_keep(keep: Keep) -> Keep:
    """What a shard keeps. A callback for the errors (`on_errors`) does not
    go to the shards (they may run on workers): each shard keeps all its
    errors then, and the callback gets them once the shards are merged
    (`deliver_errors`). Without one, each shard keeps its own documents
    with the most errors (`max_error_docs`), and the merge keeps the most
    of those. The documents the callback's other records name (link and
    relation errors: its `record_documents`) are kept too, with no error
    of the primary scheme."""
    if keep.on_errors is None:
        return keep
    others = getattr(keep.on_errors, "record_documents", None)
    return dataclasses.replace(keep, errors=True, max_error_docs=None, on_errors=None, record_docs=others)


def run_pipeline(
    model: Any,
    inputs: Any,
    match: MatchSettings,
    run: RunSettings,
    keep: Keep,
    *,
    client=None,
    code=None,
    progress: bool = False,
) -> CorpusScores:
    """A pipeline over a plan of shards of DocBins, in-process or a task
    per shard on the client; the scores merged in plan order (no corpus
    checks: the caller applies them to the whole)."""
    specs = plan_pipeline(inputs, run.shard_docs)
    local: Dict[str, Any] = {}
    if client is None:
        local["nlp"] = load_pipeline(model, code)
        name = model if isinstance(model, str) else "pipeline"
    else:
        if not isinstance(model, str):
            raise SettingError(
                "with a client, 'model' must be a path (or package) the workers can load, not a loaded pipeline",
                "model",
            )
        from .plugin import PipelinePlugin

        client.register_plugin(PipelinePlugin(model, None if code is None else str(code)))
        name = model
        run = run.replace(n_process=1)
    sources = (_sources(inputs), f"pipeline {name}")
    settings = {
        "match": match,
        "run": run,
        "keep": shard_keep(keep),
        "sources": sources,
        "model": model if isinstance(model, str) else None,
        "code": None if code is None else str(code),
    }
    results = run_shards(
        specs, score_pipeline_shard, settings, client=client, progress=progress, desc="Running pipeline", **local
    )
    return deliver_errors(merged(results).replace(sources=sources), keep)


def run_compare(
    gold_path: Any,
    pred_path: Any,
    match: MatchSettings,
    read: ReadSettings,
    keep: Keep,
    *,
    client=None,
    progress: bool = False,
) -> CorpusScores:
    """Pairs of files over a plan of shards, in-process or a task per
    shard on the client; the scores merged in plan order (no corpus checks)."""
    specs = plan_pairs(gold_path, pred_path, read.format)
    settings = {"match": match, "read": read, "keep": shard_keep(keep)}
    results = run_shards(specs, score_pair_shard, settings, client=client, progress=progress, desc="Scoring")
    return deliver_errors(merged(results).replace(sources=(str(gold_path), str(pred_path))), keep)
