"""The worker plugin: the pipeline loaded once per worker process.

Imported only when a cluster is used (it imports `distributed`).
"""

import os
import time
from typing import Optional

from distributed import WorkerPlugin

from . import tasks

#: A file each setup appends a line to (pid, worker address): how tests
#: (and users) see that a restarted worker loaded the pipeline again.
LOG_ENV = "SPACY_SPANF1_PLUGIN_LOG"


class PipelinePlugin(WorkerPlugin):
    """On every worker, now and whenever one starts (a restarted worker
    too): pin numeric libraries to one thread and load the pipeline from
    its path (and the --code file first). A load failure is kept and
    reported by the first task, as one line naming the model."""

    idempotent = False

    def __init__(self, model: str, code: Optional[str] = None):
        self.model = model
        self.code = code
        self.name = f"spacy-spanf1-pipeline-{model}"

    def setup(self, worker) -> None:
        tasks.pin_threads()
        try:
            tasks.PIPELINES[self.model] = tasks.load_pipeline(self.model, self.code)
        except tasks.InputError as err:
            tasks.PIPELINES[self.model] = err
        log = os.environ.get(LOG_ENV)
        if log:
            with open(log, "a", encoding="utf8") as f:
                f.write(f"{os.getpid()} {worker.address} {time.time():.3f}\n")

    def teardown(self, worker) -> None:
        tasks.PIPELINES.pop(self.model, None)
