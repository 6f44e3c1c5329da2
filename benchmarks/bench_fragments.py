"""What spans of several fragments cost `evaluate_spans`.

One seeded corpus (default 10,000 documents, ~5 spans a side, 10 % of the
spans discontinuous: two fragments) is scored under all six schemes, and
beside it the same corpus with each span's fragments merged into one (its
outer bounds; the floor: the same spans, contiguous). The two take turns;
the fastest of --runs counts, by CPU time of this process
(`time.process_time`), and the ratio of the fastest figures is printed
beside the median and range of the ratios taken within each round (the
two corpora one after the other, under much the same load). Target: the
fragments cost at most 2x the merged corpus.

    python benchmarks/bench_fragments.py [--docs 10000] [--runs 5] [--share 0.1]
"""

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, List, Tuple

import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spacy_spanf1 import SCHEMES, evaluate_spans  # noqa: E402

LABELS = ("ADR", "Drug", "Disease", "Symptom")


def make_corpus(n_docs: int, share: float, seed: int = 0) -> Tuple[List[List[Any]], List[List[Any]]]:
    """(gold, pred) documents: spans as (start, end, label) tuples, a
    `share` of them {"fragments", "label"} dicts of two fragments; the
    predictions keep, move, relabel, merge or drop gold spans and add some."""
    rng = random.Random(seed)
    gold_docs, pred_docs = [], []
    for _ in range(n_docs):
        gold, pred = [], []
        at = 0
        for _ in range(rng.randint(3, 7)):
            start = at + rng.randint(0, 4)
            end = start + rng.randint(1, 4)
            label = rng.choice(LABELS)
            if rng.random() < share:
                second = end + rng.randint(1, 5)
                span: Any = {"fragments": [[start, end], [second, second + rng.randint(1, 3)]], "label": label}
                at = span["fragments"][1][1]
            else:
                span = (start, end, label)
                at = end
            gold.append(span)
            roll = rng.random()
            if roll < 0.6:
                pred.append(span)
            elif roll < 0.7:
                pred.append(_outer(span)[:2] + (rng.choice(LABELS),))
            elif roll < 0.85:
                s, e, lab = _outer(span)
                pred.append((s, e + 1, lab))
        if rng.random() < 0.3:
            pred.append((at + 1, at + 3, rng.choice(LABELS)))
        gold_docs.append(gold)
        pred_docs.append(pred)
    return gold_docs, pred_docs


def _outer(span: Any) -> Tuple[int, int, str]:
    if isinstance(span, dict):
        return span["fragments"][0][0], span["fragments"][-1][1], span["label"]
    return span


def merged(docs: List[List[Any]]) -> List[List[Tuple[int, int, str]]]:
    """The documents with each span's fragments merged into its outer bounds."""
    return [sorted({_outer(span) for span in doc}) for doc in docs]


def main(docs: int = 10_000, runs: int = 5, share: float = 0.1) -> None:
    gold, pred = make_corpus(docs, share)
    floor_gold, floor_pred = merged(gold), merged(pred)
    n_spans = sum(map(len, gold))
    n_frag = sum(isinstance(span, dict) for doc in gold for span in doc)
    n_docs = sum(any(isinstance(span, dict) for span in doc) for doc in gold)
    print(f"{docs} documents, {n_spans} gold spans, {n_frag} of several fragments, in {n_docs} documents")
    times = {"fragments": [], "merged": []}
    for _ in range(runs):
        for name, (g, p) in (("fragments", (gold, pred)), ("merged", (floor_gold, floor_pred))):
            start = time.process_time()
            evaluate_spans(g, p, schemes=SCHEMES)
            times[name].append(time.process_time() - start)
    best = {name: min(found) for name, found in times.items()}
    for name, seconds in best.items():
        print(f"{name:>10}: {seconds * 1000:8.1f} ms CPU (fastest of {runs})")
    print(f"ratio fragments / merged: {best['fragments'] / best['merged']:.2f}x (target <= 2x)")
    rounds = [f / m for f, m in zip(times["fragments"], times["merged"])]
    print(
        f"ratio within each round: median {statistics.median(rounds):.2f}x, "
        f"range {min(rounds):.2f}x to {max(rounds):.2f}x"
    )


if __name__ == "__main__":
    typer.run(main)
