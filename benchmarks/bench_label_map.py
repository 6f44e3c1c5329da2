"""What a label map adds to `evaluate_spans`.

One seeded corpus (default 10,000 documents, ~5 spans a side, six gold
labels) is built once: the predictions carry OntoNotes-like names
(PERSON for PER, GPE and FAC for LOC, ...). Two runs of all six schemes
take turns: the predictions renamed by hand beforehand (the floor: the
same number of spans, read and matched the same way) and the raw
predictions with `label_map=`; they give the same figures (checked: exit
status 1 if not). The fastest of --runs counts (timeit's rule), by CPU
time of this process (`time.process_time`, less moved by other load on a
shared machine than the wall clock). Target: the map adds at most 5 %.

    python benchmarks/bench_label_map.py [--docs 10000] [--runs 7]
"""

import random
import sys
from pathlib import Path
from typing import Callable, Dict, List, Tuple

import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from spacy_spanf1 import SCHEMES, evaluate_spans  # noqa: E402

sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_span_shapes import make_docs as span_shapes_docs  # noqa: E402
from common import fastest  # noqa: E402

#: Each gold label's names on the predicted side.
PREDICTED_NAMES = {
    "PER": ("PERSON",),
    "ORG": ("ORG",),
    "LOC": ("GPE", "FAC"),
    "DATE": ("DATE",),
    "PRODUCT": ("PRODUCT",),
    "EVENT": ("EVENT",),
}
LABEL_MAP = {
    "PERSON": "PER",
    "GPE": "LOC",
    "FAC": "LOC",
    "NORP": None,
    "ORG": "ORG",
    "DATE": "DATE",
    "PRODUCT": "PRODUCT",
    "EVENT": "EVENT",
}
TARGET = 1.05

Docs = List[List[Tuple[int, int, str]]]


def make_docs(n: int, seed: int) -> Tuple[Docs, Docs]:
    """`bench_span_shapes`' corpus, its predicted labels given OntoNotes-like names."""
    rng = random.Random(seed)
    gold, pred = span_shapes_docs(n, seed)
    return gold, [[(s, e, rng.choice(PREDICTED_NAMES[label])) for s, e, label in doc] for doc in pred]


def renamed(docs: Docs) -> Docs:
    out = []
    for spans in docs:
        kept = {(s, e, LABEL_MAP[label]) for s, e, label in spans if LABEL_MAP[label] is not None}
        out.append(sorted(kept))
    return out


def map_against_renaming(score: Callable, gold, pred, by_hand, runs: int, same: Callable, what: str):
    """score (evaluate_spans or sweep) of all six schemes over the
    predictions renamed by hand (the floor) and over the raw ones with
    `label_map=`, taking turns; exit with status 1 when same(floor's result,
    the map's) is false (`what` names the figures). RETURNS the fastest
    seconds of each ("renamed by hand", "label_map") and the floor's
    result."""

    def renamed_by_hand():
        return score(gold, by_hand, schemes=SCHEMES)

    def mapped():
        return score(gold, pred, schemes=SCHEMES, label_map={"pred": LABEL_MAP})

    a, b = renamed_by_hand(), mapped()
    if not same(a, b):
        print(f"the map gives other {what} than renaming by hand", file=sys.stderr)
        raise typer.Exit(1)
    return fastest(runs, {"renamed by hand": renamed_by_hand, "label_map": mapped}), a


def print_times(best: Dict[str, float]) -> None:
    """The fastest seconds of each, one line each."""
    for name, seconds in best.items():
        print(f"  {name:<16} {seconds:.3f} s")


def main(
    docs: int = typer.Option(10000, help="Documents"),
    runs: int = typer.Option(7, help="Runs of each, taking turns"),
    seed: int = typer.Option(0, help="Seed of the corpus"),
) -> None:
    gold, pred = make_docs(docs, seed)

    def same(a, b):
        return all((a[s].counts, a[s].per_type) == (b[s].counts, b[s].per_type) for s in SCHEMES)

    best, _ = map_against_renaming(evaluate_spans, gold, pred, renamed(pred), runs, same, "figures")
    n_spans = sum(map(len, gold)) + sum(map(len, pred))
    print(f"{docs:,} documents, {n_spans:,} spans, all six schemes; fastest of {runs} by CPU time")
    print_times(best)
    ratio = best["label_map"] / best["renamed by hand"]
    print(f"  ratio {ratio:.3f} (target <= {TARGET})")


if __name__ == "__main__":
    typer.run(main)
