"""Sharded `evaluate` in-process against `--cluster local:1` and
`--cluster local:2` (issue #11).

Builds, in a temporary directory and offline, a pipeline that trains
nothing: spacy.blank("en") + a `ner` initialised with random weights on a
few examples (real CPU work per document) + an `entity_ruler` with a few
hundred patterns, and a corpus of WNUT17 sentences (assets/wnut17)
repeated to --docs documents in --shards .spacy files. Then times, each
in a fresh process, `spacy-spanf1 evaluate MODEL DIR -s
strict,exact,partial,type,iou,overlap` in-process, with --cluster local:1
and with --cluster local:2 (wall time of the whole command: cluster start
and shutdown included), and checks that the three score files are equal.
With --repeat R the three runs are repeated R times, interleaved, and the
ratios are of each one's fastest run (timeit's rule: the slower runs
measure the machine's other load, which on a shared 2-core box moves a
run by up to 10 %). Targets: local:2 >= 1.7x faster than in-process;
local:1 within 15 %.

    python benchmarks/bench_distributed.py [--docs 50000] [--shards 50] [--repeat 1]
"""

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

SCHEMES = "strict,exact,partial,type,iou,overlap"


def main(
    docs: int = typer.Option(50000, "--docs"),
    shards: int = typer.Option(50, "--shards"),
    patterns: int = typer.Option(300, "--patterns"),
    repeat: int = typer.Option(1, "--repeat", min=1),
):
    from spacy.tokens import DocBin

    from common import wnut17_docs, wnut17_model

    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        t = time.perf_counter()
        wnut17_model(tmp / "model", n_patterns=patterns)
        corpus = wnut17_docs(docs)
        (tmp / "shards").mkdir()
        per = -(-docs // shards)
        for k in range(shards):
            DocBin(docs=corpus[k * per : (k + 1) * per]).to_disk(tmp / "shards" / f"shard{k:03d}.spacy")
        del corpus
        print(f"built model and {docs} documents in {shards} shards in {time.perf_counter() - t:.1f} s", flush=True)
        env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
        runs = [("in-process", []), ("local:1", ["--cluster", "local:1"]), ("local:2", ["--cluster", "local:2"])]
        times = {name: [] for name, _ in runs}
        for _ in range(repeat):
            for name, extra in runs:
                out = tmp / f"{name.replace(':', '')}.json"
                args = [
                    sys.executable,
                    "-m",
                    "spacy_spanf1",
                    "evaluate",
                    str(tmp / "model"),
                    str(tmp / "shards"),
                    "-s",
                    SCHEMES,
                    "-o",
                    str(out),
                    "--silent",
                    *extra,
                ]
                start = time.perf_counter()
                done = subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True)
                took = time.perf_counter() - start
                if done.returncode != 0:
                    sys.exit(f"{name} failed: {done.stderr}")
                times[name].append(took)
                print(f"{name:>10}: {took:7.1f} s  {docs / took:8.0f} docs/s", flush=True)
        times = {name: min(took) for name, took in times.items()}
        if repeat > 1:
            print("fastest:", ", ".join(f"{name} {took:.1f} s" for name, took in times.items()))
        files = [(tmp / f"{n}.json").read_bytes() for n in ("in-process", "local1", "local2")]
        print("scores identical:", files[0] == files[1] == files[2])
        base = times["in-process"]
        print(
            f"local:2 speed-up {base / times['local:2']:.2f}x (target >= 1.7x); "
            f"local:1 {100 * (times['local:1'] / base - 1):+.1f} % of in-process (target within 15 %)"
        )


if __name__ == "__main__":
    typer.run(main)
