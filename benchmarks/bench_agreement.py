"""Benchmark: annotator agreement against the work it stands for.

    python benchmarks/bench_agreement.py                 # 10,000 documents, 5 annotators, 3 runs
    python benchmarks/bench_agreement.py --n-docs 1000 --runs 1

Two ratios, each side by side in one run (the fastest of --runs runs: the
machine may be shared, and the fastest run is the least disturbed):

1. `agreement` of 5 annotators over the corpus of benchmarks/bench.py
   (every annotator a seeded variant of its gold spans: a boundary moved,
   another label, a span dropped, a spurious one), all six schemes, every
   ordered pair (20) and the token figures, against ONE `evaluate_spans`
   call over the same documents and schemes. Target: <= 12x.
2. Cohen's kappa, Fleiss' kappa and Krippendorff's alpha over 2,000,000
   positions (7 categories, 5 annotators, 10 % missing for alpha) from
   the package's count tables, against scikit-learn's cohen_kappa_score
   and krippendorff.alpha(level_of_measurement="nominal") on the same
   arrays. Target: <= 2x each (the figures are checked equal first).
"""

import random
import sys
from pathlib import Path

import numpy
import typer

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import LABELS, SCHEMES, make_corpus  # noqa: E402
from common import timed  # noqa: E402
from spacy_spanf1 import evaluate_spans  # noqa: E402
from spacy_spanf1 import agreement  # noqa: E402
from spacy_spanf1.agreements.tokens import (  # noqa: E402
    MISSING,
    Positions,
    agreeing_pairs,
    alpha_of_rows,
    alpha_rows,
    cohen_kappa,
    fleiss_kappa,
)


def variant(gold, lengths, rng: random.Random):
    """An annotator's version of the gold spans; no two spans of one
    document overlap."""
    out = []
    for spans, n in zip(gold, lengths):
        mine = []
        for start, end, label in spans:
            r = rng.random()
            if r < 0.05:
                continue
            if r < 0.12:
                end = min(n, end + 1)
            elif r < 0.18:
                label = rng.choice(LABELS)
            if not mine or start >= mine[-1][1]:
                mine.append((start, end, label))
        if rng.random() < 0.2:
            start = rng.randrange(n)
            if all(start >= e or start + 1 <= s for s, e, _ in mine):
                mine.append((start, start + 1, rng.choice(LABELS)))
                mine.sort()
        out.append(mine)
    return out


def token_arrays(n_positions: int, n_annotators: int, seed: int):
    rng = numpy.random.default_rng(seed)
    truth = rng.choice(7, size=n_positions, p=[0.7, 0.1, 0.06, 0.05, 0.04, 0.03, 0.02])
    codes = numpy.where(
        rng.random((n_annotators, n_positions)) < 0.8, truth, rng.integers(0, 7, (n_annotators, n_positions))
    )
    with_missing = numpy.where(rng.random(codes.shape) < 0.1, MISSING, codes)
    return codes.astype(numpy.int16), with_missing.astype(numpy.int16)


def package_alpha(codes: numpy.ndarray) -> float:
    positions = Positions(codes, numpy.zeros(codes.shape[1], dtype=numpy.int64), 7)
    kept = (codes != MISSING).any(axis=0)
    return float(alpha_of_rows(alpha_rows(positions, kept, agreeing_pairs(codes), 1).sum(axis=0)))


def main(n_docs: int = 10000, annotators: int = 5, positions: int = 2_000_000, runs: int = 3, seed: int = 0) -> None:
    import krippendorff
    from sklearn.metrics import cohen_kappa_score
    from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

    corpus = make_corpus(n_docs, seed)
    rng = random.Random(seed + 1)
    docs = {f"ann{i}": variant(corpus.gold, corpus.lengths, rng) for i in range(annotators)}
    first, second = docs["ann0"], docs["ann1"]
    schemes = list(SCHEMES)
    result = agreement(docs, schemes=schemes, lengths=corpus.lengths)  # warm-up, and the check below
    single = evaluate_spans(first, second, schemes=schemes)
    assert result.pairwise["strict"][("ann0", "ann1")] == single["strict"]
    one = timed(lambda: evaluate_spans(first, second, schemes=schemes), runs, min)
    agree = timed(lambda: agreement(docs, schemes=schemes, lengths=corpus.lengths), runs, min)

    codes, with_missing = token_arrays(positions, annotators, seed)
    x, y = codes[0], codes[1]
    ours_cohen = cohen_kappa(x, y, 7)
    assert abs(ours_cohen - cohen_kappa_score(x, y)) < 1e-9
    data = numpy.where(with_missing == MISSING, numpy.nan, with_missing).astype(float)
    assert (
        abs(package_alpha(with_missing) - krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"))
        < 1e-9
    )
    table = numpy.stack([numpy.bincount(column, minlength=7) for column in codes[:, :100000].T])
    assert abs(fleiss_kappa(codes[:, :100000], agreeing_pairs(codes[:, :100000]), 7) - statsmodels_fleiss(table)) < 1e-9
    t_cohen = timed(lambda: cohen_kappa(x, y, 7), runs, min)
    t_sklearn = timed(lambda: cohen_kappa_score(x, y), runs, min)
    t_alpha = timed(lambda: package_alpha(with_missing), runs, min)
    t_kripp = timed(lambda: krippendorff.alpha(reliability_data=data, level_of_measurement="nominal"), runs, min)
    t_fleiss = timed(lambda: fleiss_kappa(codes, agreeing_pairs(codes), 7), runs, min)
    full = numpy.zeros((positions, 7), dtype=numpy.int64)
    for row in codes:
        full[numpy.arange(positions), row] += 1
    t_statsmodels = timed(lambda: statsmodels_fleiss(full), runs, min)

    print(f"corpus: {n_docs} documents, {sum(corpus.lengths)} tokens, {annotators} annotators; fastest of {runs} runs")
    print(f"{'task':<66}{'seconds':>9}{'ratio':>8}{'target':>9}{'ok':>5}")
    rows = [
        ("evaluate_spans, one pair, six schemes", one, None, None),
        (
            f"agreement, {annotators * (annotators - 1)} ordered pairs + token figures, six schemes",
            agree,
            agree / one,
            12,
        ),
        (f"sklearn cohen_kappa_score, {positions:,} positions", t_sklearn, None, None),
        ("  spacy-spanf1 Cohen's kappa (same arrays)", t_cohen, t_cohen / t_sklearn, 2),
        (f"krippendorff.alpha nominal, {annotators} x {positions:,}, 10 % missing", t_kripp, None, None),
        ("  spacy-spanf1 alpha (same arrays)", t_alpha, t_alpha / t_kripp, 2),
        (f"statsmodels fleiss_kappa on the {positions:,} x 7 table (table given)", t_statsmodels, None, None),
        ("  spacy-spanf1 Fleiss' kappa (from the labels)", t_fleiss, t_fleiss / t_statsmodels, 2),
    ]
    for name, seconds, ratio, target in rows:
        ratio_text = "" if ratio is None else f"{ratio:.2f}x"
        target_text = "" if target is None else f"<= {target}x"
        ok = "" if target is None else ("yes" if ratio <= target else "NO")
        print(f"{name:<66}{seconds:>9.3f}{ratio_text:>8}{target_text:>9}{ok:>5}")


if __name__ == "__main__":
    typer.run(main)
