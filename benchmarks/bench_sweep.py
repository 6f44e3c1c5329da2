"""Benchmark: a sweep over every distinct score against one evaluation.

    python benchmarks/bench_sweep.py                    # 10,000 documents, 3 runs
    python benchmarks/bench_sweep.py --docs 1000 --runs 1   # smoke test

The corpus is generated (seeded): about 4 gold spans a document over 4
labels; predictions derived from them (exact, shifted, wrong label,
spurious, a nested variant in one document in ten, a few duplicates), each
with a score in [0, 1] of three decimals (so about a thousand distinct
scores). Side by side, medians of `--runs`:

- `evaluate_spans` of the predictions (scores dropped) at one threshold,
  all six schemes, and strict alone;
- `sweep` over every distinct score, all six schemes, and strict alone.

It prints the times and the ratios against the targets (all six schemes
<= 5x, strict <= 2x).
"""
import argparse
import statistics
import time

import numpy

from spacy_spanf1 import evaluate_spans
from spacy_spanf1.settings import SCHEMES
from spacy_spanf1.sweeps import sweep

LABELS = ("PER", "ORG", "LOC", "MISC")


def make_corpus(n_docs: int, seed: int = 0):
    rng = numpy.random.default_rng(seed)
    gold, pred = [], []
    for doc in range(n_docs):
        starts = numpy.sort(rng.choice(12, size=4, replace=False)) * 3
        g = [(int(s), int(s) + int(rng.integers(1, 3)), LABELS[int(rng.integers(4))]) for s in starts]
        p = []
        for s, e, label in g:
            kind = rng.random()
            if kind < 0.6:
                p.append((s, e, label))
            elif kind < 0.75:
                p.append((s, e + 1, label))
            elif kind < 0.9:
                p.append((s, e, LABELS[int(rng.integers(4))]))
        p.append((40, 41, LABELS[int(rng.integers(4))]))  # spurious
        if doc % 10 == 0:
            s, e, label = g[0]
            p.append((s, e + 1, label))  # nested over an exact one
        scored = [(s, e, label, round(float(rng.random()), 3)) for s, e, label in p]
        if doc % 7 == 0 and scored:
            scored.append(scored[0][:3] + (round(float(rng.random()), 3),))  # the same span again
        gold.append(g)
        pred.append(scored)
    return gold, pred


def timed(function, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        function()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(n_docs: int, runs: int) -> None:
    gold, pred = make_corpus(n_docs)
    plain = [[span[:3] for span in doc] for doc in pred]
    sweep(gold, pred, schemes=SCHEMES)  # warm-up
    n_scores = len({span[3] for doc in pred for span in doc})
    rows = [
        ("evaluate_spans, 6 schemes", timed(lambda: evaluate_spans(gold, plain, schemes=SCHEMES), runs)),
        ("sweep, 6 schemes", timed(lambda: sweep(gold, pred, schemes=SCHEMES), runs)),
        ("evaluate_spans, strict", timed(lambda: evaluate_spans(gold, plain, schemes=["strict"]), runs)),
        ("sweep, strict", timed(lambda: sweep(gold, pred, schemes=["strict"]), runs)),
    ]
    print(f"{n_docs} documents, {sum(map(len, pred))} scored predictions, {n_scores} distinct scores, "
          f"median of {runs} runs")
    for name, seconds in rows:
        print(f"  {name:28s} {seconds:8.3f} s")
    all_ratio = rows[1][1] / rows[0][1]
    strict_ratio = rows[3][1] / rows[2][1]
    print(f"  ratio, 6 schemes: {all_ratio:.2f}x (target <= 5x)")
    print(f"  ratio, strict:    {strict_ratio:.2f}x (target <= 2x)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    main(args.docs, args.runs)
