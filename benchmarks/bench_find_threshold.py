"""A spancat sweep, side by side with `spacy find-threshold`.

On one trained span categorizer and one DocBin (the project's: GUM test,
`training/spancat/model-best`), in one run on one machine:

- spaCy's `find_threshold` with `n_trials` trials (default 11), optimizing
  this package's strict F (`spans_<key>_strict_f`, the package's scorer is
  the pipeline's): it runs the pipeline over the corpus once per trial;
- `sweep_pipeline(..., grid="spacy", n_trials=...)`: the pipeline run once,
  every suggested span kept, then swept under all six schemes.

Each loads the pipeline itself. The pipeline is loaded once before either
is timed, so that neither pays for importing spaCy's registered plugins
(seconds in an environment with many of them). Printed: each one's time,
the ratio, and each one's best threshold and strict F on spaCy's grid
(they should be equal); and the sweep of strict alone, the one score
find-threshold optimizes.

    python benchmarks/bench_find_threshold.py training/spancat/model-best corpus/gum-test.spacy
"""
import argparse
import importlib
import time

import spacy

from spacy_spanf1 import SCHEMES, sweep_pipeline


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model")
    parser.add_argument("corpus")
    parser.add_argument("--pipe", default="spancat")
    parser.add_argument("--key", default="sc")
    parser.add_argument("--n-trials", type=int, default=11)
    args = parser.parse_args()
    find_threshold = importlib.import_module("spacy.cli.find_threshold").find_threshold
    spacy.load(args.model)  # imports what loading imports, for both
    start = time.perf_counter()
    best, score, _ = find_threshold(args.model, args.corpus, args.pipe, "threshold",
                                    f"spans_{args.key}_strict_f", n_trials=args.n_trials, silent=True)
    theirs = time.perf_counter() - start
    start = time.perf_counter()
    result = sweep_pipeline(args.model, args.corpus, pipe=args.pipe, schemes=list(SCHEMES), grid="spacy",
                            n_trials=args.n_trials)
    ours = time.perf_counter() - start
    strict = result["strict"].best
    start = time.perf_counter()
    alone = sweep_pipeline(args.model, args.corpus, pipe=args.pipe, schemes=["strict"], grid="spacy",
                           n_trials=args.n_trials)["strict"].best
    strict_only = time.perf_counter() - start
    print(f"spacy find-threshold, {args.n_trials} trials, strict F   {theirs:8.2f} s   best {best:.2f}, F {score * 100:.2f}")
    print(f"sweep_pipeline, spaCy's grid, six schemes      {ours:8.2f} s   best {strict.threshold:.2f}, "
          f"F {strict.f1 * 100:.2f}   {theirs / ours:.1f}x faster")
    print(f"sweep_pipeline, spaCy's grid, strict           {strict_only:8.2f} s   best {alone.threshold:.2f}, "
          f"F {alone.f1 * 100:.2f}   {theirs / strict_only:.1f}x faster")


if __name__ == "__main__":
    main()
