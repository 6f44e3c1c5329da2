"""A spancat sweep, side by side with `spacy find-threshold`.

On one trained span categorizer and one DocBin (the project's: GUM,
`training/spancat/model-best`, after `make all`), on one machine:

- spaCy's `find_threshold` with `n_trials` trials (default 11), optimizing
  this package's strict F (`spans_<key>_strict_f`, the package's scorer is
  the pipeline's): it runs the pipeline over the corpus once per trial;
- `sweep_pipeline(..., grid="spacy", n_trials=...)`, strict alone (the one
  score find-threshold optimizes) and all six schemes: the pipeline run
  once, every suggested span kept, then swept.

Each tool runs in a fresh Python process of its own, so that neither pays
for the other's imports, and is timed from the call that loads the
pipeline to its answer (loading the pipeline, spaCy's entry-point plugins
included, reading the corpus, running, scoring); importing spaCy and the
tool's module come before the timer. The rounds are interleaved (one run
of each tool per round) and each tool's figure is its best round, in CPU
time of its process (wall-clock time beside it), so that other jobs on a
shared machine weigh less. `--sentences N` takes the corpus's first N
documents (sentences for GUM), written to a temporary DocBin.

Printed: each one's time, the speed-up, and each one's best threshold and
strict F on spaCy's grid (they should be equal).

    python benchmarks/bench_find_threshold.py training/spancat/model-best corpus/gum-test.spacy
    python benchmarks/bench_find_threshold.py training/spancat/model-best corpus/gum-dev.spacy --sentences 200
"""

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

#: Run in a fresh process: the tool's imports, then the timed call.
CHILD = r"""
import json, sys, time
tool, model, corpus, pipe, key, n_trials = sys.argv[1:7]
n_trials = int(n_trials)
import spacy  # noqa: F401  (both tools need it; neither is timed importing it)
if tool == "find-threshold":
    from spacy.cli.find_threshold import find_threshold
    cpu, wall = time.process_time(), time.perf_counter()
    best, score, _ = find_threshold(model, corpus, pipe, "threshold", f"spans_{key}_strict_f",
                                    n_trials=n_trials, silent=True)
    answer = (float(best), float(score))
else:
    from spacy_spanf1 import SCHEMES, sweep_pipeline
    schemes = {"strict": ["strict"], "strict+iou": ["strict", "iou"]}.get(tool, list(SCHEMES))
    cpu, wall = time.process_time(), time.perf_counter()
    found = sweep_pipeline(model, corpus, pipe=pipe, schemes=schemes, grid="spacy", n_trials=n_trials)["strict"].best
    answer = (found.threshold, found.f1)
print(json.dumps({"cpu": time.process_time() - cpu, "wall": time.perf_counter() - wall, "answer": answer}))
"""

TOOLS = ("find-threshold", "strict", "strict+iou", "six")
NAMES = {
    "find-threshold": "spacy find-threshold, {n} trials, strict F",
    "strict": "sweep_pipeline, spaCy's grid, strict",
    "strict+iou": "sweep_pipeline, spaCy's grid, strict and iou",
    "six": "sweep_pipeline, spaCy's grid, six schemes",
}


def first_docs(corpus: str, n: int, folder: str) -> str:
    """A DocBin of the corpus's first n documents."""
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    docs = list(DocBin().from_disk(corpus).get_docs(nlp.vocab))[:n]
    path = str(Path(folder) / f"first-{n}.spacy")
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


def run(tool: str, model: str, corpus: str, args) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, tool, model, corpus, args.pipe, args.key, str(args.n_trials)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model")
    parser.add_argument("corpus")
    parser.add_argument("--pipe", default="spancat")
    parser.add_argument("--key", default="sc")
    parser.add_argument("--n-trials", type=int, default=11)
    parser.add_argument("--sentences", type=int, default=None, help="the corpus's first N documents only")
    parser.add_argument("--runs", type=int, default=3, help="interleaved rounds; each tool's best is shown")
    parser.add_argument("--tools", default=",".join(TOOLS), help=f"comma-separated, of: {', '.join(TOOLS)}")
    args = parser.parse_args()
    tools = args.tools.split(",")
    with tempfile.TemporaryDirectory() as folder:
        corpus = args.corpus if args.sentences is None else first_docs(args.corpus, args.sentences, folder)
        best: dict = {}
        for _ in range(args.runs):
            for tool in tools:
                got = run(tool, args.model, corpus, args)
                if tool not in best or got["cpu"] < best[tool]["cpu"]:
                    best[tool] = got
    size = "whole corpus" if args.sentences is None else f"first {args.sentences} documents"
    print(
        f"{args.corpus}, {size}; best of {args.runs} interleaved runs, each in a fresh process, "
        "timed from loading the pipeline (CPU s, wall s)"
    )
    theirs = best.get("find-threshold")
    for tool in tools:
        got = best[tool]
        threshold, f1 = got["answer"]
        line = f"  {NAMES[tool].format(n=args.n_trials):44s} {got['cpu']:7.2f} {got['wall']:7.2f}   best {threshold:.2f}, F {f1 * 100:.2f}"
        if theirs is not None and tool != "find-threshold":
            line += f"   {theirs['cpu'] / got['cpu']:.1f}x faster (CPU), {theirs['wall'] / got['wall']:.1f}x (wall)"
        print(line)


if __name__ == "__main__":
    main()
