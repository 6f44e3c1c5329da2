"""Benchmark: a sweep over every distinct score against one evaluation.

    python benchmarks/bench_sweep.py                    # both shapes, 10,000 documents, best of 5
    python benchmarks/bench_sweep.py --shape dense-flat # one shape
    python benchmarks/bench_sweep.py --docs 1000 --runs 1   # smoke test

The corpora are generated (seeded): about 4 gold spans a document over 4
labels; predictions derived from them (exact, shifted, wrong label,
spurious). Two shapes:

- `nested`: a nested variant in one document in ten and a few duplicates,
  each score of three decimals (so about a thousand distinct scores);
- `dense-flat`: no side overlaps itself, and every prediction has a score
  of its own (full float precision: as many thresholds as predictions, what
  a spancat or GLiNER run gives with no grid); in one document in ten a
  gold span of two tokens is predicted as its two halves (a cluster with
  two steps).

Side by side, interleaved in one process (one run of each per round), each
figure the best of `--runs` rounds in CPU time (process_time), so that
other jobs on a shared machine weigh less:

- `evaluate_spans` of the predictions (scores dropped) at one threshold,
  all six schemes, and strict alone;
- `sweep` over every distinct score, all six schemes, and strict alone.

It prints the times and the ratios against the targets (all six schemes
<= 5x, strict <= 2x).
"""

import argparse
import time

import numpy

from spacy_spanf1 import evaluate_spans
from spacy_spanf1.settings import SCHEMES
from spacy_spanf1.sweeps import sweep

LABELS = ("PER", "ORG", "LOC", "MISC")


def gold_spans(rng):
    """A document's four gold spans of 1-2 tokens, starts 3 apart at least."""
    starts = numpy.sort(rng.choice(12, size=4, replace=False)) * 3
    return [(int(s), int(s) + int(rng.integers(1, 3)), LABELS[int(rng.integers(4))]) for s in starts]


def predicted(rng, s, e, label):
    """The prediction of one gold span: itself (60 %), one token longer
    (before the next gold span's start), another label, or none."""
    kind = rng.random()
    if kind < 0.6:
        return [(s, e, label)]
    if kind < 0.75:
        return [(s, e + 1, label)]
    if kind < 0.9:
        return [(s, e, LABELS[int(rng.integers(4))])]
    return []


def make_corpus(n_docs: int, seed: int = 0):
    rng = numpy.random.default_rng(seed)
    gold, pred = [], []
    for doc in range(n_docs):
        g = gold_spans(rng)
        p = [span for s, e, label in g for span in predicted(rng, s, e, label)]
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


def make_dense_flat(n_docs: int, seed: int = 0):
    """The dense-flat shape: no side overlaps itself, every score distinct."""
    rng = numpy.random.default_rng(seed)
    gold, pred = [], []
    for doc in range(n_docs):
        g = gold_spans(rng)
        p = []
        for i, (s, e, label) in enumerate(g):
            if doc % 10 == 0 and i == 0 and e - s == 2:
                rng.random()  # the draw of predicted(), so that the corpus stays the seed's
                p += [(s, s + 1, label), (s + 1, e, label)]  # two halves: two steps of one cluster
            else:
                p += predicted(rng, s, e, label)
        p.append((40, 41, LABELS[int(rng.integers(4))]))  # spurious
        gold.append(g)
        pred.append([(s, e, label, float(rng.random())) for s, e, label in p])
    return gold, pred


SHAPES = {"nested": make_corpus, "dense-flat": make_dense_flat}


def interleaved(functions, runs: int):
    """Each function's best CPU time over runs rounds, one call of each per round."""
    best = [float("inf")] * len(functions)
    for _ in range(runs):
        for i, function in enumerate(functions):
            start = time.process_time()
            function()
            best[i] = min(best[i], time.process_time() - start)
    return best


def measure(shape: str, gold, pred, runs: int) -> None:
    plain = [[span[:3] for span in doc] for doc in pred]
    sweep(gold, pred, schemes=SCHEMES)  # warm-up
    n_scores = len({span[3] for doc in pred for span in doc})
    names = ("evaluate_spans, 6 schemes", "sweep, 6 schemes", "evaluate_spans, strict", "sweep, strict")
    times = interleaved(
        [
            lambda: evaluate_spans(gold, plain, schemes=SCHEMES),
            lambda: sweep(gold, pred, schemes=SCHEMES),
            lambda: evaluate_spans(gold, plain, schemes=["strict"]),
            lambda: sweep(gold, pred, schemes=["strict"]),
        ],
        runs,
    )
    print(
        f"{shape}: {len(gold)} documents, {sum(map(len, pred))} scored predictions, {n_scores} distinct scores, "
        f"best of {runs} interleaved rounds, CPU time"
    )
    for name, seconds in zip(names, times):
        print(f"  {name:28s} {seconds:8.3f} s")
    print(f"  ratio, 6 schemes: {times[1] / times[0]:.2f}x (target <= 5x)")
    print(f"  ratio, strict:    {times[3] / times[2]:.2f}x (target <= 2x)")


def main(n_docs: int, runs: int, shapes) -> None:
    for shape in shapes:
        measure(shape, *SHAPES[shape](n_docs), runs)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=10000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--shape", choices=sorted(SHAPES), default=None, help="one shape (default: both)")
    args = parser.parse_args()
    main(args.docs, args.runs, list(SHAPES) if args.shape is None else [args.shape])
