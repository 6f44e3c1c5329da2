"""The link schemes side by side with `evaluate_spans` and with neleval.

One seeded corpus (default 10,000 documents, ~5 linked spans a side over
6 types, kb ids from a pool of 2,000 with NIL ids among them, predictions
with wrong ids, NIL for linked, boundary errors and misses) is built once
as {"start", "end", "label", "kb_id"} dicts, and once as neleval 3.1.1's
Documents (outside any timed region). Before timing, every neleval
measure's TP/FP/FN must equal neleval's, or the run stops with exit
status 1. Then, interleaved (A B C D A B C D ...), CPU time
(`time.process_time`), the fastest of --runs:

- A: `evaluate_spans` under `strict` on the same dicts;
- B: `evaluate_links` under every link scheme (the ten neleval measures,
  weak_all_match, nel);
- C: `evaluate_links` under the ten neleval measures;
- D: neleval's `Evaluate(system, gold, measures=<the ten>)()` on its
  Documents (neleval's own reading of its TSV files not counted).

Targets: B at most 2x A; D at least 10x C.

    python benchmarks/bench_links.py [--docs 10000] [--runs 5] [--no-targets]

(--no-targets: report the ratios without failing on them, for a small
smoke run, where fixed costs dominate.)

neleval 3.1.1 imports `collections.Sequence` (gone since Python 3.10): the
name is put back (as `collections.abc.Sequence`) before neleval is
imported. Its StrictMetricWarning (a zero denominator) is silenced.
"""

import collections
import collections.abc
import random
import sys
import warnings
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import DOCS_OPTION, RUNS_OPTION, SEED_OPTION, TARGETS_OPTION, print_fastest, spaced_spans  # noqa: E402

from spacy_spanf1 import LINK_SCHEMES, evaluate_spans  # noqa: E402
from spacy_spanf1.links import TAGGING, evaluate_links  # noqa: E402

if not hasattr(collections, "Sequence"):
    collections.Sequence = collections.abc.Sequence  # type: ignore[attr-defined]

LABELS = ("PER", "ORG", "LOC", "DATE", "PRODUCT", "EVENT")
N_TOKENS = 30
N_IDS = 2000
NELEVAL = tuple(TAGGING)
TARGETS = {"all link schemes / evaluate_spans strict": 2.0, "neleval / evaluate_links (its ten measures)": 10.0}


def make_docs(n: int, seed: int) -> Tuple[List[List[Dict[str, Any]]], List[List[Dict[str, Any]]]]:
    rng = random.Random(seed)

    def some_id() -> str:
        return rng.choice(("NIL", "NIL0001", "NIL0002")) if rng.random() < 0.15 else f"Q{rng.randrange(N_IDS)}"

    gold_docs, pred_docs = [], []
    for _ in range(n):
        gold, pred = [], []
        for k, length in spaced_spans(rng, N_TOKENS):
            label, kb = rng.choice(LABELS), some_id()
            gold.append({"start": k, "end": k + length, "label": label, "kb_id": kb})
            r = rng.random()
            if r < 0.65:
                pred.append({"start": k, "end": k + length, "label": label, "kb_id": kb})
            elif r < 0.75:
                pred.append({"start": k, "end": k + length, "label": label, "kb_id": some_id()})
            elif r < 0.8:
                pred.append({"start": k, "end": k + length, "label": label, "kb_id": "NIL"})
            elif r < 0.85:
                pred.append({"start": k, "end": k + length, "label": rng.choice(LABELS), "kb_id": kb})
            elif r < 0.95:
                pred.append({"start": k, "end": k + 1, "label": label, "kb_id": kb})
        gold_docs.append(gold)
        pred_docs.append(pred)
    return gold_docs, pred_docs


def neleval_documents(docs: List[List[Dict[str, Any]]]) -> List[Any]:
    """neleval Documents, as its reader builds them from its TSV lines
    (document, start, inclusive end, kb id, score, type)."""
    from neleval.annotation import Annotation, Candidate
    from neleval.document import Document

    return [
        Document(
            f"d{i}",
            [
                Annotation(f"d{i}", s["start"], s["end"] - 1, [Candidate(s["kb_id"] or "NIL", 1.0, s["label"])])
                for s in spans
            ],
        )
        for i, spans in enumerate(docs)
    ]


def run_neleval(system: List[Any], gold: List[Any]) -> Dict[str, Any]:
    from neleval.evaluate import Evaluate, StrictMetricWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", StrictMetricWarning)
        return Evaluate(system, gold, measures=list(NELEVAL), fmt="none")()


def main(
    docs: int = DOCS_OPTION, runs: int = RUNS_OPTION, seed: int = SEED_OPTION, targets: bool = TARGETS_OPTION
) -> None:
    gold, pred = make_docs(docs, seed)
    n_gold, n_pred = sum(map(len, gold)), sum(map(len, pred))
    ne_gold, ne_pred = neleval_documents(gold), neleval_documents(pred)
    print(f"{docs} documents, {n_gold} gold and {n_pred} predicted linked spans")
    ours = evaluate_links(gold, pred, schemes=NELEVAL)
    theirs = run_neleval(ne_pred, ne_gold)
    bad = [
        name
        for name in NELEVAL
        if (ours[name].totals.tp, ours[name].totals.fp, ours[name].totals.fn)
        != (theirs[name]["ptp"], theirs[name]["fp"], theirs[name]["fn"])
    ]
    if bad:
        print(f"Figures differ from neleval's: {', '.join(bad)}")
        raise typer.Exit(1)
    print("Every neleval measure's TP/FP/FN equals neleval's.")
    tasks: Dict[str, Callable[[], Any]] = {
        "A evaluate_spans strict": lambda: evaluate_spans(gold, pred, schemes=["strict"]),
        "B evaluate_links, all link schemes": lambda: evaluate_links(gold, pred, schemes=LINK_SCHEMES),
        "C evaluate_links, neleval's ten": lambda: evaluate_links(gold, pred, schemes=NELEVAL),
        "D neleval Evaluate, its ten": lambda: run_neleval(ne_pred, ne_gold),
    }
    a, b, c, d = print_fastest(runs, tasks)
    ratios = {
        "all link schemes / evaluate_spans strict": (b / a, "<="),
        "neleval / evaluate_links (its ten measures)": (d / c, ">="),
    }
    failed = False
    for name, (ratio, way) in ratios.items():
        target = TARGETS[name]
        ok = ratio <= target if way == "<=" else ratio >= target
        failed |= not ok
        print(f"{name:45s} {ratio:6.2f}x  (target {way} {target:g}x: {'met' if ok else 'NOT met'})")
    if failed and targets:
        raise typer.Exit(1)


if __name__ == "__main__":
    typer.run(main)
