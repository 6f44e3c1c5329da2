"""`evaluate_spans` on the same spans given in each shape it accepts.

One seeded corpus (default 10,000 documents, ~5 spans a side) is built
once in every shape, outside the timed region: (start, end, label) tuples,
tuples of numpy integers, {"start", "end", "label"} dicts, dicts that carry
one more key (the shape later features extend) and spaCy Spans (`doc.ents`
of a blank English pipeline). The shapes take turns (A B C ... A B C ...),
the fastest of --runs counts (timeit's rule: on a shared machine the others
measured its other load), and every shape's ratio to plain tuples is
printed. Every shape must give the same figures as the tuples, or the run
stops with exit status 1. Target: dicts at most 1.5x the tuples.

    python benchmarks/bench_span_shapes.py [--docs 10000] [--runs 5] [--schemes strict,iou]
"""

import random
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import numpy
import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import spaced_spans  # noqa: E402

from spacy_spanf1 import evaluate_spans  # noqa: E402

LABELS = ("PER", "ORG", "LOC", "DATE", "PRODUCT", "EVENT")
N_TOKENS = 30
#: The ratio to tuples each shape must stay under (None: for information).
TARGETS = {"dicts": 1.5, "dicts + kb_id": 1.5, "numpy int tuples": 1.5}


def make_docs(n: int, seed: int) -> Tuple[List[List[Tuple[int, int, str]]], List[List[Tuple[int, int, str]]]]:
    """Gold and predicted (start, end, label) tuples, neither side
    overlapping itself (so that spaCy can hold them as `doc.ents`)."""
    rng = random.Random(seed)
    gold_docs, pred_docs = [], []
    for _ in range(n):
        gold, pred = [], []
        for k, length in spaced_spans(rng, N_TOKENS):
            span = (k, k + length, rng.choice(LABELS))
            gold.append(span)
            r = rng.random()
            if r < 0.75:
                pred.append(span)
            elif r < 0.85:
                pred.append((k, k + length, rng.choice(LABELS)))
            elif r < 0.95:
                pred.append((k, k + 1, span[2]))
        gold_docs.append(gold)
        pred_docs.append(pred)
    return gold_docs, pred_docs


def spacy_docs(docs: List[List[Tuple[int, int, str]]]) -> List[Any]:
    import spacy
    from spacy.tokens import Doc, Span

    vocab = spacy.blank("en").vocab
    words = [f"w{i}" for i in range(N_TOKENS)]
    out = []
    for spans in docs:
        doc = Doc(vocab, words=words)
        doc.ents = [Span(doc, s, e, label=label) for s, e, label in spans]
        out.append(doc.ents)
    return out


def shapes(gold, pred) -> Dict[str, Tuple[Any, Any]]:
    def numpy_ints(docs):
        return [[(numpy.int64(s), numpy.int32(e), label) for s, e, label in d] for d in docs]

    def dicts(docs, **more):
        return [[{"start": s, "end": e, "label": label, **more} for s, e, label in d] for d in docs]

    return {
        "tuples": (gold, pred),
        "numpy int tuples": (numpy_ints(gold), numpy_ints(pred)),
        "dicts": (dicts(gold), dicts(pred)),
        "dicts + kb_id": (dicts(gold, kb_id="Q1"), dicts(pred, kb_id="Q1")),
        "spaCy Spans": (spacy_docs(gold), spacy_docs(pred)),
    }


def figures(result) -> Dict[str, Any]:
    return {scheme: (r.precision, r.recall, r.f1, sorted(r.per_label.items())) for scheme, r in result.items()}


def main(
    docs: int = typer.Option(10_000, "--docs", help="Documents of the corpus"),
    runs: int = typer.Option(5, "--runs", min=1, help="Timed runs of each shape; the fastest counts"),
    schemes: str = typer.Option("strict,iou", "--schemes", help="Comma-separated schemes scored"),
    seed: int = typer.Option(0, "--seed", help="Corpus seed"),
) -> None:
    chosen = [s.strip() for s in schemes.split(",") if s.strip()]
    gold, pred = make_docs(docs, seed)
    inputs = shapes(gold, pred)
    n_spans = sum(map(len, gold)), sum(map(len, pred))
    print(f"{docs} documents, {n_spans[0]} gold and {n_spans[1]} predicted spans; schemes {', '.join(chosen)}")
    calls: Dict[str, Callable[[], Any]] = {
        name: (lambda g=g, p=p: evaluate_spans(g, p, schemes=chosen)) for name, (g, p) in inputs.items()
    }
    expected = figures(calls["tuples"]())
    for name, call in calls.items():  # the warm-up run is the check
        if figures(call()) != expected:
            print(f"{name}: the figures differ from those of the tuples", file=sys.stderr)
            raise SystemExit(1)
    times: Dict[str, List[float]] = {name: [] for name in calls}
    for _ in range(runs):
        for name, call in calls.items():
            t = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - t)
    base = min(times["tuples"])
    print(f"{'shape':<20}{'fastest s':>10}{'slowest s':>10}{'x tuples':>10}  target")
    failed = False
    for name, runs_of in times.items():
        ratio = min(runs_of) / base
        target = TARGETS.get(name)
        ok = target is None or ratio <= target
        failed |= not ok
        mark = "" if target is None else f"<= {target}" + ("" if ok else "  MISSED")
        print(f"{name:<20}{min(runs_of):>10.4f}{max(runs_of):>10.4f}{ratio:>10.2f}  {mark}")
    if failed:
        raise SystemExit(1)


if __name__ == "__main__":
    typer.run(main)
