"""Sharded and distributed scoring.

A corpus given as several files, a directory or a glob of them, or split
into shards of N documents, is scored one shard at a time and the shard
results are merged in plan order (`shards.py`). With a `distributed.Client`
each shard is one Dask task (`run.py`); the workers load the pipeline once,
in a worker plugin (`plugin.py`), and a task receives only the shard and
the settings (`tasks.py`).

Nothing here imports Dask until a cluster is asked for: a plain install
(without the `[dask]` extra) imports this package, plans and scores shards
in-process, and only `open_client` (and a run with a client) imports
`distributed`.
"""

from .shards import ShardSpec, is_sharded_compare, is_sharded_pipeline, plan_pairs, plan_pipeline

__all__ = [
    "ShardSpec",
    "is_sharded_compare",
    "is_sharded_pipeline",
    "open_client",
    "plan_pairs",
    "plan_pipeline",
]


def __getattr__(name):
    if name in ("open_client", "run_pipeline", "run_compare", "parse_cluster"):
        from . import run

        return getattr(run, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
