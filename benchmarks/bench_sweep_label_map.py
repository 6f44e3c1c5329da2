"""What a label map adds to `sweep`.

bench_label_map's corpus (default 10,000 documents, predictions with
OntoNotes-like names: PERSON for PER, GPE and FAC for LOC, ...), each
prediction given a seeded score of three decimals. Two sweeps of all six
schemes over every distinct score take turns: the predictions renamed by
hand beforehand (the floor; spans the renaming puts at one place once,
with their highest score) and the raw predictions with `label_map=`; they
give the same curves (checked: exit status 1 if not). The fastest of
--runs counts, by CPU time of this process (`time.process_time`).

    python benchmarks/bench_sweep_label_map.py [--docs 10000] [--runs 5]
"""

import random
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spacy_spanf1 import SCHEMES  # noqa: E402
from spacy_spanf1.sweeps import sweep  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_label_map import LABEL_MAP, make_docs, map_against_renaming, print_times  # noqa: E402
from common import DOCS_OPTION, RUNS_OPTION, SEED_OPTION  # noqa: E402

Scored = List[List[Tuple[int, int, str, float]]]


def scored(docs, seed: int) -> Scored:
    rng = random.Random(seed)
    return [[(s, e, label, rng.randint(0, 1000) / 1000) for s, e, label in doc] for doc in docs]


def renamed(docs: Scored) -> Scored:
    out = []
    for spans in docs:
        best: Dict[Tuple[int, int, str], float] = {}
        for s, e, label, score in spans:
            new = LABEL_MAP[label]
            if new is not None:
                best[(s, e, new)] = max(score, best.get((s, e, new), -1.0))
        out.append(sorted((s, e, label, score) for (s, e, label), score in best.items()))
    return out


def main(docs: int = DOCS_OPTION, runs: int = RUNS_OPTION, seed: int = SEED_OPTION) -> None:
    """Two sweeps, taking turns; `seed` seeds the scores too."""
    gold, plain = make_docs(docs, seed)
    pred = scored(plain, seed)

    def same(a, b):
        return dict(a.schemes) == dict(b.schemes)

    best, a = map_against_renaming(sweep, gold, pred, renamed(pred), runs, same, "curves")
    n_spans = sum(map(len, gold)) + sum(map(len, pred))
    n_thresholds = len(a[SCHEMES[0]].thresholds)
    print(
        f"{docs:,} documents, {n_spans:,} spans, {n_thresholds:,} thresholds, all six schemes; "
        f"fastest of {runs} by CPU time"
    )
    print_times(best)
    print(f"  ratio {best['label_map'] / best['renamed by hand']:.3f}")


if __name__ == "__main__":
    typer.run(main)
