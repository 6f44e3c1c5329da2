"""How much the project's figures move with the training seed.

    python scripts/seed_variation.py                  # seeds 0,1,2, 1500 steps (make all's defaults)
    python scripts/seed_variation.py --seeds 0,1 --max-steps 200

For each seed S, runs the project's `all` workflow (the one `make all`
runs) in a copy of the project, seed-runs/seed-S/, with `--vars.seed=S`
(the NER and spancat pipelines) and `--vars.seed_wide=S+1` (the wide NER
pipeline trains with another seed, as in the default run): seed 0 is
`make all`'s own run. The runs go one after another; a copy that already
holds a finished run is not trained again (spaCy's project lock).

Then prints, per pipeline and scheme, the test F of each seed and its
range (min-max), and for the NER comparison (compare-ner) which schemes
came out significant under each seed; writes it all to
seed-runs/seed-variation.json. The project's training commands pin one
thread and the hash seed (scripts/pinned.py) so that a seed repeats itself
on one machine (checked for train-ner, docs/project.md); another machine
can give other figures for the same seed.
"""

import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict

import srsly
import typer
from wasabi import msg

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ("project.yml", "configs", "scripts", "assets")
# pipeline -> (metrics file, where its F is in it)
PIPELINES = {
    "ner": ("metrics/ner-spanf1.json", "schemes"),
    "ner-wide": ("metrics/ner-comparison.json", "comparison"),
    "spancat": ("metrics/spancat-spanf1.json", "schemes"),
}


def copy_project(target: Path) -> None:
    target.mkdir(parents=True, exist_ok=True)
    for name in PROJECT:
        source = ROOT / name
        if source.is_dir():
            shutil.copytree(source, target / name, dirs_exist_ok=True, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(source, target / name)


def run_seed(seed: int, target: Path, max_steps: int, eval_frequency: int) -> None:
    """Run the workflow in the copy at target; its output goes to target/run.log."""
    copy_project(target)
    command = [
        sys.executable,
        "-m",
        "spacy",
        "project",
        "run",
        "all",
        str(target),
        f"--vars.seed={seed}",
        f"--vars.seed_wide={seed + 1}",
        f"--vars.max_steps={max_steps}",
        f"--vars.eval_frequency={eval_frequency}",
    ]
    msg.info(f"seed {seed}: {' '.join(command[1:])} (output in {target / 'run.log'})")
    start = time.perf_counter()
    with (target / "run.log").open("a", encoding="utf8") as log:  # a rerun adds to it
        result = subprocess.run(command, stdout=log, stderr=subprocess.STDOUT)
    seconds = time.perf_counter() - start
    if result.returncode != 0:
        msg.fail(f"seed {seed}: the workflow failed (exit {result.returncode})", target / "run.log", exits=1)
    msg.good(f"seed {seed}: done in {seconds / 60:.1f} min (the steps of a finished run are not run again)")


def read_seed(target: Path) -> Dict[str, Any]:
    """F per pipeline and scheme, and the comparison's tests, of one run."""
    scores: Dict[str, Dict[str, float]] = {}
    for pipeline, (path, kind) in PIPELINES.items():
        data = srsly.read_json(target / path)
        if kind == "schemes":
            scores[pipeline] = {scheme: values["f"] for scheme, values in data["schemes"].items()}
        else:
            scores[pipeline] = {scheme: t["f"] for scheme, t in data["comparison"]["schemes"].items()}
    block = srsly.read_json(target / "metrics/ner-comparison.json")["comparison"]
    tests = {
        scheme: {key: t[key] for key in ("f_baseline", "f", "delta", "p_value", "significant")}
        for scheme, t in block["schemes"].items()
    }
    return {"f": scores, "comparison": {"alpha": block["alpha"], "method": block["method"], "schemes": tests}}


def percent(value: float) -> str:
    return f"{value * 100:.2f}"


def seed_variation(
    seeds: str = typer.Option(
        "0,1,2", "--seeds", help="Comma-separated training seeds (the wide NER pipeline gets S+1)"
    ),
    max_steps: int = typer.Option(1500, "--max-steps", help="Training steps per pipeline (make all: 1500)"),
    eval_frequency: int = typer.Option(300, "--eval-frequency", help="Steps between dev evaluations (make all: 300)"),
    workdir: Path = typer.Option(
        ROOT / "seed-runs", "--workdir", help="Where the copies of the project are made, one per seed"
    ),
) -> None:
    seed_list = [int(s) for s in seeds.split(",") if s.strip()]
    if len(seed_list) < 2 or len(set(seed_list)) != len(seed_list):
        msg.fail("Give two or more distinct seeds", seeds, exits=1)
    runs: Dict[int, Dict[str, Any]] = {}
    for seed in seed_list:
        target = workdir / f"seed-{seed}"
        run_seed(seed, target, max_steps, eval_frequency)
        runs[seed] = {"seed_wide": seed + 1, **read_seed(target)}

    rows = []
    for pipeline in PIPELINES:
        for scheme in runs[seed_list[0]]["f"][pipeline]:
            values = [runs[seed]["f"][pipeline][scheme] for seed in seed_list]
            low, high = min(values), max(values)
            rows.append(
                (
                    pipeline,
                    scheme,
                    *map(percent, values),
                    f"{percent(low)}-{percent(high)}",
                    f"{(high - low) * 100:.2f}",
                )
            )
    steps = f"{max_steps} steps" + ("" if max_steps == 1500 else ", not make all's 1500")
    msg.table(
        rows,
        header=("Pipeline", "Scheme", *(f"seed {s}" for s in seed_list), "Min-max", "Width"),
        aligns=("l", "l", *("r" for _ in seed_list), "r", "r"),
        divider=True,
        title=f"Test F by training seed ({steps}; ner-wide trains with seed + 1)",
    )
    alpha = runs[seed_list[0]]["comparison"]["alpha"]
    print("compare-ner, delta F = F(ner-wide) - F(ner), by seed:")
    for seed in seed_list:
        tests = runs[seed]["comparison"]["schemes"]
        listed = {
            verdict: ", ".join(
                f"{scheme} {t['delta'] * 100:+.2f}" for scheme, t in tests.items() if t["significant"] is verdict
            )
            or "none"
            for verdict in (True, False)
        }
        print(f"  seed {seed} (ner-wide {seed + 1}): significant at {alpha:g}: {listed[True]}; not: {listed[False]}")

    output = workdir / "seed-variation.json"
    srsly.write_json(
        output,
        {
            "seeds": seed_list,
            "max_steps": max_steps,
            "eval_frequency": eval_frequency,
            "machine": {"python": platform.python_version(), "platform": platform.platform(), "versions": versions()},
            "runs": {str(seed): run for seed, run in runs.items()},
        },
    )
    msg.good("Saved", output)


def versions() -> Dict[str, str]:
    from importlib.metadata import PackageNotFoundError, version

    found = {}
    for name in ("spacy", "thinc", "numpy", "blis", "spacy-spanf1"):
        try:
            found[name] = version(name)
        except PackageNotFoundError:
            pass
    return found


if __name__ == "__main__":
    typer.run(seed_variation)
