"""The relation schemes side by side with `evaluate_spans`, and with
Taillé et al.'s `re_score` (transcriptions/sincere.py).

One seeded corpus (default 10,000 documents, ~5 spans a side over 4 types,
~4 relations a gold document over 5 labels; predictions with moved,
relabelled and missed spans, relations missed, relabelled, reversed and
spurious; one document in five with spans over each other, which the
engine pairs one document at a time) is built once as {"spans",
"relations"} dicts (outside any timed region). Before timing, `rel_strict`
and `rel_exact` must equal `re_score` in its "strict" and "boundaries"
modes (TP/FP/FN per label), or the run stops with exit status 1. Then,
interleaved (A B C D A B C D ...), CPU time (`time.process_time`), the
fastest of --runs:

- A: `evaluate_spans` of the same spans under the six span schemes;
- B: `evaluate_relations` under the five relation schemes and the six span
  schemes;
- C: `evaluate_relations` under `rel_strict` alone;
- D: `re_score` in "strict" mode (its input, dicts of argument offsets and
  types, built outside the timed region).

Target: B at most 3x A.

    python benchmarks/bench_relations.py [--docs 10000] [--runs 5] [--no-targets]
"""

import random
import sys
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from spacy_spanf1 import RELATION_SCHEMES, SCHEMES, evaluate_spans  # noqa: E402
from spacy_spanf1.relations import evaluate_relations  # noqa: E402
from transcriptions.sincere import re_score, sincere_relations  # noqa: E402

from common import DOCS_OPTION, RUNS_OPTION, SEED_OPTION, TARGETS_OPTION, print_fastest  # noqa: E402

SPAN_LABELS = ("PER", "ORG", "LOC", "DATE")
RELATION_LABELS = ("works_for", "located_in", "born_in", "part_of", "kin")
N_TOKENS = 40
TARGET = 3.0


def make_docs(n: int, seed: int) -> Tuple[List[Dict[str, Any]], List[Dict[str, Any]]]:
    rng = random.Random(seed)
    gold_docs, pred_docs = [], []
    for _ in range(n):
        gold, pred, at = [], [], {}
        k = rng.randint(0, 3)
        while k < N_TOKENS - 4:
            length = rng.choice((1, 1, 2, 3))
            label = rng.choice(SPAN_LABELS)
            gold.append((k, k + length, label))
            r = rng.random()
            if r < 0.8:
                at[len(gold) - 1] = len(pred)
                if r < 0.68:
                    pred.append((k, k + length, label))
                elif r < 0.74:
                    pred.append((k, k + length, rng.choice(SPAN_LABELS)))
                else:
                    pred.append((k, k + max(1, length - 1) + (length == 1), label))
            k += length + rng.randint(1, 6)
        if rng.random() < 0.2 and gold:  # a span over another: the per-document pairing
            s, e, label = gold[0]
            gold.append((s, e + 2, label))
        relations = []
        if len(gold) > 1:
            relations = [(*rng.sample(range(len(gold)), 2), rng.choice(RELATION_LABELS)) for _ in range(4)]
        predicted = []
        for h, t, label in relations:
            if h in at and t in at and rng.random() < 0.85:
                r = rng.random()
                if r < 0.1:
                    label = rng.choice(RELATION_LABELS)
                elif r < 0.15:
                    h, t = t, h
                predicted.append((at[h], at[t], label))
        if len(pred) > 1 and rng.random() < 0.3:
            predicted.append((*rng.sample(range(len(pred)), 2), rng.choice(RELATION_LABELS)))
        gold_docs.append({"spans": gold, "relations": relations})
        pred_docs.append({"spans": pred, "relations": predicted})
    return gold_docs, pred_docs


def main(
    docs: int = DOCS_OPTION, runs: int = RUNS_OPTION, seed: int = SEED_OPTION, targets: bool = TARGETS_OPTION
) -> None:
    gold, pred = make_docs(docs, seed)
    n_spans = sum(len(d["spans"]) for d in gold + pred)
    n_relations = sum(len(d["relations"]) for d in gold + pred)
    print(f"{docs} documents, {n_spans} spans and {n_relations} relations (both sides)")
    gold_spans, pred_spans = [d["spans"] for d in gold], [d["spans"] for d in pred]
    s_gold, s_pred = [sincere_relations(d) for d in gold], [sincere_relations(d) for d in pred]
    ours = evaluate_relations(gold, pred, schemes=["rel_strict", "rel_exact"])
    for scheme, mode in (("rel_strict", "strict"), ("rel_exact", "boundaries")):
        result = ours[scheme]
        theirs = re_score(s_pred, s_gold, list(result.per_label), mode)
        for label, counts in result.per_label.items():
            if (counts.tp, counts.fp, counts.fn) != tuple(theirs[label][k] for k in ("tp", "fp", "fn")):
                print(f"{scheme} differs from re_score ({mode}) on {label!r}")
                raise typer.Exit(1)
    print("rel_strict and rel_exact equal re_score (strict, boundaries), label by label.")
    labels = list(ours["rel_strict"].per_label)
    tasks: Dict[str, Callable[[], Any]] = {
        "A evaluate_spans, six span schemes": lambda: evaluate_spans(gold_spans, pred_spans, schemes=SCHEMES),
        "B evaluate_relations, five + six": lambda: evaluate_relations(gold, pred, schemes=RELATION_SCHEMES + SCHEMES),
        "C evaluate_relations, rel_strict": lambda: evaluate_relations(gold, pred, schemes=["rel_strict"]),
        "D re_score, strict": lambda: re_score(s_pred, s_gold, labels, "strict"),
    }
    a, b, c, d = print_fastest(runs, tasks)
    ratio = b / a
    ok = ratio <= TARGET
    print(
        f"{'five relation + six span schemes / six span schemes':52s} {ratio:6.2f}x  (target <= {TARGET:g}x: "
        f"{'met' if ok else 'NOT met'})"
    )
    print(f"{'re_score strict / rel_strict':52s} {d / c:6.2f}x")
    if not ok and targets:
        raise typer.Exit(1)


if __name__ == "__main__":
    typer.run(main)
