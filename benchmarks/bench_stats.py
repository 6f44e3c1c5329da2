"""Benchmark: bootstrap intervals and paired tests from count rows against
the naive way (re-scoring resampled corpora with evaluate_spans).

    python benchmarks/bench_stats.py            # 10,000 documents, 3 runs

Builds the seeded corpus of benchmarks/bench.py (and a second system: the
same generator with another seed for the predictions), scores all six
schemes with per_doc=True, then times, as medians of --runs runs:

- bootstrap_ci, 1000 resamples, all six schemes, against naive re-scoring
  (3 resampled corpora timed, scaled to 1000); target <= 1 % and < 0.5 s;
- paired_test randomization, 10,000 rounds (target < 5 s);
- paired_test bootstrap, 1,000 resamples (target < 1 s);

and reports the size of the largest (resamples x documents) array a batch
holds.
"""

import random
import sys
from pathlib import Path

import numpy
import typer

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import SCHEMES, make_corpus  # noqa: E402
from common import timed  # noqa: E402
from spacy_spanf1 import evaluate_spans  # noqa: E402
from spacy_spanf1.stats import bootstrap_ci, paired_test  # noqa: E402
from spacy_spanf1.stats.bootstrap import MAX_ELEMENTS, batch_size  # noqa: E402


def naive_bootstrap(gold, pred, n_resamples: int, seed: int = 12345) -> None:
    rng = numpy.random.default_rng(seed)
    n = len(gold)
    for _ in range(n_resamples):
        idx = rng.integers(0, n, size=n).tolist()
        evaluate_spans([gold[i] for i in idx], [pred[i] for i in idx], schemes=list(SCHEMES))


def main(n_docs: int = 10000, runs: int = 3, seed: int = 0) -> None:
    corpus = make_corpus(n_docs, seed)
    gold, pred_a = corpus.gold, corpus.pred
    # system B: A's output, except that on 10 % of the documents it is
    # right (predicts the gold spans) and on 5 % it predicts nothing
    rng = random.Random(seed + 1)
    pred_b = []
    for g, p in zip(gold, pred_a):
        r = rng.random()
        pred_b.append(list(g) if r < 0.10 else [] if r < 0.15 else p)
    a = evaluate_spans(gold, pred_a, schemes=list(SCHEMES), per_doc=True)
    b = evaluate_spans(gold, pred_b, schemes=list(SCHEMES), per_doc=True)
    bootstrap_ci(a, n_resamples=10)  # warm-up
    fast = timed(lambda: bootstrap_ci(a, n_resamples=1000), runs)
    naive = timed(lambda: naive_bootstrap(gold, pred_a, 3), runs) / 3 * 1000
    randomization = timed(lambda: paired_test(a, b, n_resamples=10000), runs)
    paired_boot = timed(lambda: paired_test(a, b, method="bootstrap", n_resamples=1000), runs)
    rows = batch_size(n_docs)
    largest = rows * n_docs * 8
    test = paired_test(a, b)["strict"]
    print(f"corpus: {n_docs} documents, six schemes, medians of {runs} runs")
    print(f"{'task':<44}{'seconds':>10}{'target':>12}{'ok':>5}")
    table = [
        ("bootstrap_ci 1000 resamples, six schemes", fast, "< 0.5 s", fast < 0.5),
        ("naive re-scoring, 1000 resamples (from 3)", naive, "", True),
        ("  ratio bootstrap_ci / naive", fast / naive, "<= 1 %", fast / naive <= 0.01),
        ("paired_test randomization 10,000 rounds", randomization, "< 5 s", randomization < 5),
        ("paired_test bootstrap 1,000 resamples", paired_boot, "< 1 s", paired_boot < 1),
    ]
    for name, value, target, ok in table:
        shown = f"{value * 100:.3f} %" if "ratio" in name else f"{value:.3f}"
        print(f"{name:<44}{shown:>10}{target:>12}{'yes' if ok else 'NO':>5}")
    print(
        f"largest (resamples x documents) array: {rows} x {n_docs} int64 = "
        f"{largest / 2**20:.1f} MiB (cap {MAX_ELEMENTS} elements)"
    )
    print(f"strict: delta F = {test.delta:+.4f}, p = {test.p_value:.4f}, interval [{test.low:+.4f}, {test.high:+.4f}]")


if __name__ == "__main__":
    typer.run(main)
