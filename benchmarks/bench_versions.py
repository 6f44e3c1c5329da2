"""The benchmarks of two checkouts of the package, side by side in one run.

    python benchmarks/bench_versions.py BEFORE [AFTER] [--repeat 3]

BEFORE and AFTER are source trees of spacy-spanf1 (AFTER defaults to this
one), e.g. a `git worktree add ../before <commit>`. Each round runs, in
each tree and with that tree on PYTHONPATH, its own `bench.py` (the scorer
against spaCy's `get_ner_prf`, `evaluate_spans`, `evaluate_tags`),
`bench_compare.py` (`compare` against reading the files into lists) and
`bench_stats.py` (`bootstrap_ci`, `paired_test`); the trees take turns
within a round, and the fastest figure of each over the rounds counts
(timeit's rule: the others measured the machine's other load), and a
ratio (the scorer against `get_ner_prf`, `compare` against its floor) is
taken of those fastest figures. It prints each figure of both trees and
AFTER / BEFORE, which should stay within 5 % for a change that is not
about speed, and, per figure, the median and range of the ratios taken
within each round (the two trees one after the other, under much the same
load), which a quiet moment of one tree moves less than the fastest
figures.

With `--harness after` the package of BEFORE is timed by AFTER's
benchmarks (and transcriptions/), so that a change of the benchmarks
themselves is not taken for a change of the package: BEFORE's top-level
entries are linked into a temporary tree beside copies of AFTER's. With
`--clock cpu` bench.py and bench_stats.py time CPU time (time.process_time)
instead of the wall clock; bench_compare.py reports both, and the CPU
figures of compare and its floor are printed too when the harness reports
them.
"""

import contextlib
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

import typer

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import CLOCK_VARIABLE, CLOCKS  # noqa: E402

HERE = Path(__file__).resolve().parent.parent

#: bench.py figures: the medians of these tasks, and the ratios of two.
BENCH_TASKS = (
    "scorer_fresh",
    "get_ner_prf_fresh",
    "scorer_cached",
    "get_ner_prf_cached",
    "evaluate_spans",
    "tags_conll",
    "tags_strict",
)
BENCH_RATIOS = (("scorer_fresh", "get_ner_prf_fresh"), ("scorer_cached", "get_ner_prf_cached"))
#: bench_compare.py and bench_stats.py lines: figure name -> pattern of its seconds.
PRINTED = {
    "compare_s": r"compare (\d+\.\d+)s \(peak RSS",
    "compare_floor_s": r"floor (\d+\.\d+)s \(peak RSS",
    "compare_rss_mb": r"compare \d+\.\d+s \(peak RSS (\d+) MB",
    "compare_cpu_s": r"CPU time: compare (\d+\.\d+)s",
    "compare_floor_cpu_s": r"CPU time: compare \d+\.\d+s\s+floor (\d+\.\d+)s",
    "bootstrap_ci_s": r"bootstrap_ci 1000 resamples, six schemes\s+(\d+\.\d+)",
    "randomization_s": r"paired_test randomization 10,000 rounds\s+(\d+\.\d+)",
    "paired_bootstrap_s": r"paired_test bootstrap 1,000 resamples\s+(\d+\.\d+)",
}


def run(tree: Path, args: List[str], clock: str = "wall") -> str:
    env = dict(os.environ, PYTHONPATH=str(tree), **{CLOCK_VARIABLE: clock})
    out = subprocess.run([sys.executable, *args], cwd=tree, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{tree}: {' '.join(args)} failed:\n{out.stderr[-2000:]}")
    return out.stdout


#: The benchmarks a round runs (--only).
BENCHMARKS = ("bench", "compare", "stats")


#: What AFTER lends BEFORE under --harness after.
HARNESS = ("benchmarks", "transcriptions")


@contextlib.contextmanager
def harnessed(before: Path, after: Path) -> Iterator[Path]:
    """A temporary tree with BEFORE's package and files (linked) and AFTER's
    benchmarks (copied: the benchmarks find the checkout from their own
    resolved path)."""
    with tempfile.TemporaryDirectory() as tmp:
        tree = Path(tmp) / "tree"
        tree.mkdir()
        for entry in before.iterdir():
            if entry.name not in HARNESS and not entry.name.startswith("."):
                (tree / entry.name).symlink_to(entry)
        for name in HARNESS:
            shutil.copytree(after / name, tree / name, ignore=shutil.ignore_patterns("__pycache__"))
        if not (tree / "build").exists() and (after / "build").exists():
            (tree / "build").symlink_to(after / "build")  # the reference libraries installed apart
        yield tree


def measure(
    tree: Path, docs: int, compare_docs: int, only: Tuple[str, ...] = BENCHMARKS, clock: str = "wall"
) -> Dict[str, float]:
    """One round of the figures of the benchmarks `only` names, in one tree."""
    found: Dict[str, float] = {}
    printed = ""
    if "compare" in only:
        printed += run(tree, ["benchmarks/bench_compare.py", "--docs", str(compare_docs), "--brat", "0"], clock)
    if "stats" in only:
        printed += run(tree, ["benchmarks/bench_stats.py", "--n-docs", str(docs), "--runs", "5"], clock)
    for name, pattern in PRINTED.items():
        match = re.search(pattern, printed)
        if match is not None:
            found[name] = float(match.group(1))
    if "bench" not in only:
        return found
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "bench.json"
        run(
            tree,
            [
                "benchmarks/bench.py",
                "--sizes",
                str(docs),
                "--runs",
                "5",
                "--skip",
                "presidio,seqeval",
                "--stream",
                "0",
                "--json",
                str(report),
            ],
            clock,
        )
        medians = json.loads(report.read_text())["sizes"][str(docs)]["medians"]
    missing = [task for task in BENCH_TASKS if task not in medians]
    if missing:
        raise SystemExit(f"{tree}: bench.py timed no {', '.join(missing)}")
    found.update({f"{task}_s": medians[task] for task in BENCH_TASKS})
    return found


#: Ratios of two figures, each the fastest of the rounds.
RATIOS = tuple((f"{ours}_s", f"{ref}_s") for ours, ref in BENCH_RATIOS) + (
    ("compare_s", "compare_floor_s"),
    ("compare_cpu_s", "compare_floor_cpu_s"),
)


def interleaved(
    trees: Dict[str, Path], repeat: int, docs: int, compare_docs: int, only: Tuple[str, ...], clock: str
) -> Dict[str, List[Dict[str, float]]]:
    """`repeat` rounds of the figures of each tree, the trees taking turns
    (which goes first alternates)."""
    rounds: Dict[str, List[Dict[str, float]]] = {name: [] for name in trees}
    for i in range(repeat):
        for name, tree in trees.items() if i % 2 == 0 else reversed(list(trees.items())):
            rounds[name].append(measure(tree, docs, compare_docs, only, clock))
            print(f"round {i + 1}, {name}: done", file=sys.stderr, flush=True)
    return rounds


def paired_ratios(rounds: Dict[str, List[Dict[str, float]]]) -> Dict[str, List[float]]:
    """Each figure's after / before within each round (the two trees ran
    one after the other, so under much the same load of the machine), and
    so for the ratios of two figures of one tree."""
    paired: Dict[str, List[float]] = {}
    for before, after in zip(rounds["before"], rounds["after"]):
        for key in before:
            if key in after and before[key]:
                paired.setdefault(key, []).append(after[key] / before[key])
        for ours, ref in RATIOS:
            if all(k in r and r[k] for r in (before, after) for k in (ours, ref)):
                ratio = (after[ours] / after[ref]) / (before[ours] / before[ref])
                paired.setdefault(f"{ours[:-2]} / {ref[:-2]}", []).append(ratio)
    return paired


def main(
    before: Path = typer.Argument(..., help="The source tree measured first (the baseline)"),
    after: Optional[Path] = typer.Argument(None, help="The source tree to compare [default: this one]"),
    repeat: int = typer.Option(3, "--repeat", min=1, help="Rounds; the fastest of each figure counts"),
    docs: int = typer.Option(10000, "--docs", help="Documents of bench.py and bench_stats.py"),
    compare_docs: int = typer.Option(100000, "--compare-docs", help="Documents of bench_compare.py"),
    only: str = typer.Option(
        ",".join(BENCHMARKS), "--only", help=f"Comma-separated benchmarks to run: {', '.join(BENCHMARKS)}"
    ),
    clock: str = typer.Option("wall", "--clock", help=f"What bench.py and bench_stats.py time: {', '.join(CLOCKS)}"),
    harness: str = typer.Option(
        "own", "--harness", help="Whose benchmarks time BEFORE: own (its own) or after (AFTER's)"
    ),
) -> None:
    chosen = tuple(name.strip() for name in only.split(",") if name.strip())
    unknown = [name for name in chosen if name not in BENCHMARKS]
    if unknown or not chosen:
        raise typer.BadParameter(
            f"unknown benchmark {unknown[0] if unknown else only!r}; valid: {', '.join(BENCHMARKS)}",
            param_hint="'--only'",
        )
    if clock not in CLOCKS:
        raise typer.BadParameter(f"unknown clock {clock!r}; valid: {', '.join(CLOCKS)}", param_hint="'--clock'")
    if harness not in ("own", "after"):
        raise typer.BadParameter(f"unknown harness {harness!r}; valid: own, after", param_hint="'--harness'")
    trees = {"before": before.resolve(), "after": (after or HERE).resolve()}
    with contextlib.ExitStack() as stack:
        timed_in = dict(trees)
        if harness == "after":
            timed_in["before"] = stack.enter_context(harnessed(trees["before"], trees["after"]))
        rounds = interleaved(timed_in, repeat, docs, compare_docs, chosen, clock)
    best = {name: {key: min(r[key] for r in runs) for key in runs[0]} for name, runs in rounds.items()}
    for figures in best.values():
        for ours, ref in RATIOS:
            if ours in figures and ref in figures:
                figures[f"{ours[:-2]} / {ref[:-2]}"] = figures[ours] / figures[ref]
    print(
        f"{repeat} rounds, fastest of each, {clock} clock, {harness} harness; "
        f"before = {trees['before']}, after = {trees['after']}"
    )
    paired = paired_ratios(rounds)
    print(f"{'figure':<44}{'before':>10}{'after':>10}{'after / before':>16}{'paired: median (range)':>30}")
    for key in best["before"]:
        a, b = best["before"][key], best["after"][key]
        spread = ""
        if key in paired:
            ratios = paired[key]
            spread = f"{statistics.median(ratios):.3f} ({min(ratios):.3f}-{max(ratios):.3f})"
        print(f"{key:<44}{a:>10.3f}{b:>10.3f}{b / a:>16.3f}{spread:>30}")
    print("runs: " + json.dumps(rounds))


if __name__ == "__main__":
    typer.run(main)
