"""`spacy-spanf1 compare --errors FILE --html FILE` against `compare` alone.

Writes the seeded gold/pred JSONL pair of bench_compare.py (default
200,000 documents, ~9-10 spans each) to a temporary directory, then runs,
each in a fresh process: (1) `spacy-spanf1 compare gold.jsonl pred.jsonl
-s SCHEMES -o scores.json` and (2) the same with `--errors errors.jsonl
--html report.html`. Each child reports its time and peak RSS
(resource.getrusage), and both must write the same scores. Targets: with
--errors and --html, peak RSS under 300 MB, growing less than 20 % from
the first size to --growth N, and time at most 1.5x compare alone. With
--repeat R each command runs R times, interleaved, and the fastest run
counts (on a shared machine a run moves by 10-30 %).

    python benchmarks/bench_errors.py [--docs 200000] [--growth 600000] [--repeat 3] [--schemes strict]
"""

import json
import os
from pathlib import Path

import typer

from bench_compare import COMPARE, ROOT, corpora, print_growth, print_runs, run_child

from spacy_spanf1 import SCHEMES


def run_compare(directory: Path, env, schemes: str, errors: bool) -> dict:
    """One `compare` in a fresh process: its time, peak RSS and scores."""
    name = "errors" if errors else "plain"
    args = [
        str(directory / "gold.jsonl"),
        str(directory / "pred.jsonl"),
        "-s",
        schemes,
        "--silent",
        "-o",
        str(directory / f"{name}.json"),
    ]
    if errors:
        args += ["--errors", str(directory / "errors.jsonl"), "--html", str(directory / "report.html")]
    seconds, rss, *_ = run_child(COMPARE, args, env).stderr.strip().splitlines()[-1].split()  # and CPU, imports
    scores = json.loads((directory / f"{name}.json").read_text())["schemes"]
    return {"s": float(seconds), "rss_mb": int(rss) / 1024, "scores": scores}


def measure(directory: Path, env, schemes: str, repeat: int) -> dict:
    """The fastest of `repeat` runs of each (interleaved), and the peak RSS
    of the largest."""
    runs = {"plain": [], "errors": []}
    for _ in range(repeat):
        for name in runs:
            runs[name].append(run_compare(directory, env, schemes, errors=name == "errors"))
    assert runs["plain"][0]["scores"] == runs["errors"][0]["scores"]
    lines = sum(1 for _ in (directory / "errors.jsonl").open(encoding="utf-8"))
    row = {"error_records": lines, "errors_mb": (directory / "errors.jsonl").stat().st_size / 1e6}
    for name, found in runs.items():
        row[f"{name}_s"] = min(run["s"] for run in found)
        row[f"{name}_rss_mb"] = max(run["rss_mb"] for run in found)
        row[f"{name}_runs"] = [run["s"] for run in found]
    row["ratio"] = row["errors_s"] / row["plain_s"]
    return row


def summary(row: dict) -> str:
    """The line of one size's figures, against their targets."""
    return (
        f"  compare {row['plain_s']:.2f}s (peak RSS {row['plain_rss_mb']:.0f} MB)  "
        f"--errors --html {row['errors_s']:.2f}s (peak RSS {row['errors_rss_mb']:.0f} MB, target < 300)  "
        f"ratio {row['ratio']:.2f} (target <= 1.5); {row['error_records']} error records, "
        f"{row['errors_mb']:.0f} MB"
    )


def main(
    docs: int = typer.Option(200_000, help="Documents of the corpus"),
    growth: int = typer.Option(0, help="A second, larger size for the memory growth check (0: none)"),
    repeat: int = typer.Option(1, help="Runs of each command; the fastest counts", min=1),
    schemes: str = typer.Option(",".join(SCHEMES), help="The schemes of both commands (the first is primary)"),
):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p))
    rows = []
    for n, directory, _ in corpora([docs] + ([growth] if growth else []), f"; schemes {schemes}"):
        row = dict(docs=n, **measure(directory, env, schemes, repeat))
        rows.append(row)
        print(summary(row), flush=True)
        if repeat > 1:
            print_runs([("compare", row["plain_runs"]), ("--errors --html", row["errors_runs"])])
    print_growth(rows, "errors_rss_mb", "--errors --html ")


if __name__ == "__main__":
    typer.run(main)
