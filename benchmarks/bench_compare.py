"""`spacy-spanf1 compare` on a large JSONL pair against the floor.

Writes a seeded gold/pred JSONL pair (default 200,000 documents, ~9-10
spans each) to a temporary directory, then times, each in a fresh
process: (1) `spacy-spanf1 compare gold.jsonl pred.jsonl -s
strict,exact,partial,type,iou,overlap` (python -m spacy_spanf1), and (2)
the floor: srsly.read_jsonl of both files, building the span tuples and
scoring them with evaluate_spans. Each child reports its peak RSS
(resource.getrusage). Targets: compare <= 1.5x the floor, peak RSS < 300
MB, and (with --growth N) peak RSS growing < 20% from the first size to N.
With --repeat R each command runs R times, interleaved, and the fastest
run counts (timeit's rule: on a shared machine a run moves by 10-30 %).
Each child also reports its CPU time (time.process_time from the same
point), and the ratio of those, which the machine's other load moves less,
and the CPU time of its imports: the floor's timer starts after it has
imported srsly and the engine, compare's before the command line's
imports, so the script also gives the ratio of both with their imports
(each from a bare interpreter) and of both without them.

    python benchmarks/bench_compare.py [--docs 200000] [--growth 600000] [--repeat 3]
"""

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import spaced_text  # noqa: E402

from spacy_spanf1 import SCHEMES  # noqa: E402

LABELS = ("PER", "ORG", "LOC", "DATE", "PRODUCT", "EVENT")
WORDS = ("alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa")

FLOOR = r"""
import resource, sys, time
start = time.process_time()
import srsly
from spacy_spanf1.engine.scorer import evaluate_spans
t, cpu = time.perf_counter(), time.process_time()
imports = cpu - start
def spans(path):
    for record in srsly.read_jsonl(path):
        yield [(s["start"], s["end"], s["label"]) for s in record.get("spans", ())]
result = evaluate_spans(spans(sys.argv[1]), spans(sys.argv[2]), schemes=sys.argv[3].split(","), unit="char")
elapsed = time.perf_counter() - t
print(elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, result["strict"].f1, time.process_time() - cpu, imports)
"""

COMPARE = r"""
import resource, runpy, sys, time
t, cpu = time.perf_counter(), time.process_time()
import spacy_spanf1.cli
imports = time.process_time() - cpu
sys.argv = ["spacy-spanf1", "compare", *sys.argv[1:]]
try:
    runpy.run_module("spacy_spanf1", run_name="__main__")
except SystemExit as exit:
    assert not exit.code, exit.code
elapsed = time.perf_counter() - t
print(elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, time.process_time() - cpu, imports, file=sys.stderr)
"""


def write_corpus(directory: Path, n: int, seed: int = 0) -> None:
    """n documents of ~40 words with ~9.5 gold spans; predictions keep,
    shift, relabel or drop them and add some."""
    rng = random.Random(seed)
    with (
        (directory / "gold.jsonl").open("w", encoding="utf-8") as g,
        (directory / "pred.jsonl").open("w", encoding="utf-8") as p,
    ):
        for _ in range(n):
            words = [rng.choice(WORDS) for _ in range(40)]
            text, starts = spaced_text(words)
            gold, pred = [], []
            k = 0
            while k < 38:
                k += rng.randint(1, 4)
                length = rng.choice((1, 1, 2, 2, 3))
                if k + length > 40:
                    break
                span = {
                    "start": starts[k],
                    "end": starts[k + length - 1] + len(words[k + length - 1]),
                    "label": rng.choice(LABELS),
                }
                gold.append(span)
                r = rng.random()
                if r < 0.7:
                    pred.append(span)
                elif r < 0.8:
                    pred.append(dict(span, label=rng.choice(LABELS)))
                elif r < 0.9:
                    pred.append(dict(span, end=starts[k] + len(words[k])))
                k += length
            g.write(json.dumps({"text": text, "spans": gold}) + "\n")
            p.write(json.dumps({"text": text, "spans": pred}) + "\n")


def corpora(sizes, note: str = ""):
    """Each size's JSONL pair (write_corpus) in a temporary directory, its
    size printed (with `note`): yields (n, directory, megabytes); the
    directory is removed when the next size is asked for."""
    for n in sizes:
        with tempfile.TemporaryDirectory() as tmp:
            directory = Path(tmp)
            t = time.perf_counter()
            write_corpus(directory, n)
            size = sum(f.stat().st_size for f in directory.glob("*.jsonl")) / 1e6
            print(f"{n} documents, {size:.0f} MB written in {time.perf_counter() - t:.1f}s{note}", flush=True)
            yield n, directory, size


def print_runs(runs) -> None:
    """The time of every run: runs is a list of (what, seconds of each run)."""
    print("  runs: " + "; ".join(f"{what} " + ", ".join(f"{t:.2f}" for t in times) for what, times in runs), flush=True)


def print_growth(rows, key: str, what: str = "") -> None:
    """The growth of rows[key] (a peak RSS) from the first size to the
    second, when there are two."""
    if len(rows) == 2:
        change = rows[1][key] / rows[0][key] - 1
        print(f"  {what}peak RSS growth {rows[0]['docs']} -> {rows[1]['docs']}: {change * 100:+.1f}% (target < 20%)")


BRAT_FLOOR = r"""
import resource, sys, time
from pathlib import Path
t = time.perf_counter()
corpus = []
for folder in sys.argv[1:3]:
    docs = []
    for ann in sorted(Path(folder).glob("*.ann")):
        text = ann.with_suffix(".txt").read_text(encoding="utf-8")
        spans = []
        for line in ann.read_text(encoding="utf-8").splitlines():
            if line.startswith("T"):
                _, middle, _ = line.split("	")
                label, start, end = middle.split(" ")
                spans.append((int(start), int(end), label))
        docs.append((text, spans))
    corpus.append(docs)
elapsed = time.perf_counter() - t
print(elapsed, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, sum(len(s) for _, s in corpus[0]))
"""


def write_brat(directory: Path, n: int, seed: int = 0) -> None:
    """The JSONL pair's first n documents as two brat directories."""
    gold_dir, pred_dir = directory / "gold", directory / "pred"
    gold_dir.mkdir()
    pred_dir.mkdir()
    write_corpus(directory, n, seed)
    for side, folder in (("gold", gold_dir), ("pred", pred_dir)):
        with (directory / f"{side}.jsonl").open(encoding="utf-8") as f:
            for i, line in enumerate(f):
                record = json.loads(line)
                text = record["text"]
                (folder / f"doc{i:06d}.txt").write_text(text, encoding="utf-8")
                ann = "".join(
                    f"T{k + 1}\t{s['label']} {s['start']} {s['end']}\t{text[s['start'] : s['end']]}\n"
                    for k, s in enumerate(record["spans"])
                )
                (folder / f"doc{i:06d}.ann").write_text(ann, encoding="utf-8")


def measure_brat(directory: Path, env, repeat: int = 1) -> dict:
    gold, pred = str(directory / "gold"), str(directory / "pred")
    floors, compares = [], []
    for _ in range(repeat):
        floors.append(float(run_child(BRAT_FLOOR, [gold, pred], env).stdout.split()[0]))
        compare = run_child(COMPARE, [gold, pred, "-s", ",".join(SCHEMES), "--silent"], env)
        compares.append(float(compare.stderr.strip().splitlines()[-1].split()[0]))
    return {"floor_s": min(floors), "compare_s": min(compares)}


def run_child(code: str, args, env) -> tuple:
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env)
    if proc.returncode:
        raise SystemExit(proc.stdout[-2000:] + proc.stderr[-2000:])
    return proc


def measure(directory: Path, env, repeat: int = 1) -> dict:
    """The fastest of `repeat` runs of each (interleaved), and the peak RSS
    of the largest."""
    gold, pred = str(directory / "gold.jsonl"), str(directory / "pred.jsonl")
    schemes = ",".join(SCHEMES)
    row = {
        "floor_s": [],
        "floor_rss_mb": [],
        "compare_s": [],
        "compare_rss_mb": [],
        "floor_cpu_s": [],
        "compare_cpu_s": [],
        "floor_imports_s": [],
        "compare_imports_s": [],
    }
    for _ in range(repeat):
        floor = run_child(FLOOR, [gold, pred, schemes], env).stdout.split()
        compare = run_child(COMPARE, [gold, pred, "-s", schemes, "--silent", "-o", str(directory / "scores.json")], env)
        compare_time, compare_rss, compare_cpu, compare_imports = compare.stderr.strip().splitlines()[-1].split()
        f1 = json.loads((directory / "scores.json").read_text())["schemes"]["strict"]["f"]
        assert abs(f1 - float(floor[2])) < 1e-9, (f1, floor[2])  # srsly writes 10 decimals
        row["floor_s"].append(float(floor[0]))
        row["floor_rss_mb"].append(int(floor[1]) / 1024)
        row["compare_s"].append(float(compare_time))
        row["compare_rss_mb"].append(int(compare_rss) / 1024)
        row["floor_cpu_s"].append(float(floor[3]))
        row["compare_cpu_s"].append(float(compare_cpu))
        row["floor_imports_s"].append(float(floor[4]))
        row["compare_imports_s"].append(float(compare_imports))
    runs = {
        "floor_runs": row["floor_s"],
        "compare_runs": row["compare_s"],
        "floor_cpu_runs": row["floor_cpu_s"],
        "compare_cpu_runs": row["compare_cpu_s"],
        "floor_imports_runs": row["floor_imports_s"],
        "compare_imports_runs": row["compare_imports_s"],
    }
    return {
        "floor_s": min(row["floor_s"]),
        "compare_s": min(row["compare_s"]),
        "floor_cpu_s": min(row["floor_cpu_s"]),
        "compare_cpu_s": min(row["compare_cpu_s"]),
        # CPU time with the imports (from a bare interpreter) and without them, of each side's fastest run
        "floor_cpu_with_imports_s": min(map(sum, zip(row["floor_cpu_s"], row["floor_imports_s"]))),
        "compare_cpu_net_s": min(map(lambda a, b: a - b, row["compare_cpu_s"], row["compare_imports_s"])),
        "floor_rss_mb": max(row["floor_rss_mb"]),
        "compare_rss_mb": max(row["compare_rss_mb"]),
        **runs,
    }


def main(
    docs: int = typer.Option(200_000, help="Documents of the corpus"),
    growth: int = typer.Option(0, help="A second, larger size for the memory growth check (0: none)"),
    brat: int = typer.Option(10_000, help="Documents of the brat benchmark (0: none)"),
    repeat: int = typer.Option(1, help="Runs of each command; the fastest counts", min=1),
):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    if brat:
        with tempfile.TemporaryDirectory() as tmp:
            write_brat(Path(tmp), brat)
            row = measure_brat(Path(tmp), env, repeat)
            print(
                f"brat, {brat} documents a side: compare {row['compare_s']:.2f}s, reading the texts and "
                f"annotations into lists {row['floor_s']:.2f}s, ratio {row['compare_s'] / row['floor_s']:.2f} "
                "(target < 3)",
                flush=True,
            )
    rows = []
    for n, directory, size in corpora([docs] + ([growth] if growth else [])):
        row = dict(docs=n, mb=size, **measure(directory, env, repeat))
        row["ratio"] = row["compare_s"] / row["floor_s"]
        row["cpu_ratio"] = row["compare_cpu_s"] / row["floor_cpu_s"]
        rows.append(row)
        print(
            f"  compare {row['compare_s']:.2f}s (peak RSS {row['compare_rss_mb']:.0f} MB)  "
            f"floor {row['floor_s']:.2f}s (peak RSS {row['floor_rss_mb']:.0f} MB)  "
            f"ratio {row['ratio']:.2f} (target <= 1.5)",
            flush=True,
        )
        print(
            f"  CPU time: compare {row['compare_cpu_s']:.2f}s  floor {row['floor_cpu_s']:.2f}s  "
            f"ratio {row['cpu_ratio']:.2f} (a shared machine moves wall time more)",
            flush=True,
        )
        print(
            f"  CPU time, both from a bare interpreter (imports in): compare {row['compare_cpu_s']:.2f}s  "
            f"floor {row['floor_cpu_with_imports_s']:.2f}s  ratio "
            f"{row['compare_cpu_s'] / row['floor_cpu_with_imports_s']:.2f}; both net of imports: compare "
            f"{row['compare_cpu_net_s']:.2f}s  floor {row['floor_cpu_s']:.2f}s  ratio "
            f"{row['compare_cpu_net_s'] / row['floor_cpu_s']:.2f}",
            flush=True,
        )
        if repeat > 1:
            print_runs([("compare", row["compare_runs"]), ("floor", row["floor_runs"])])
            print_runs([("compare CPU", row["compare_cpu_runs"]), ("floor CPU", row["floor_cpu_runs"])])
            print_runs([("compare imports", row["compare_imports_runs"]), ("floor imports", row["floor_imports_runs"])])
    print_growth(rows, "compare_rss_mb")


if __name__ == "__main__":
    typer.run(main)
