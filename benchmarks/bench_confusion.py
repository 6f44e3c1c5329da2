"""What the confusion matrices cost `evaluate_spans`: with them and without.

On the seeded corpus of bench.py (default 10,000 documents, every scheme),
`evaluate_spans` runs as it is ("with") and with every confusion cell left
uncounted ("without": the batched engine's SemEval and iou cells and
overlap's matrix patched to nothing, in this process only), interleaved
(with, without, with, ...), `--repeat` rounds after a warm-up; the fastest
run of each counts, and the ratio with / without is checked against the
target of at most 1.10. Both must give the same counts. `--callgrind`
instead runs one scoring of each under valgrind's callgrind (in child
processes) and compares the instructions counted, which do not move with
the machine's load.

    python benchmarks/bench_confusion.py [--docs 10000] [--repeat 15] [--callgrind]
"""

import gc
import os
import re
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Dict, Iterator, List

import typer

if str(Path(__file__).resolve().parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench import make_corpus  # noqa: E402

from spacy_spanf1 import SCHEMES, evaluate_spans  # noqa: E402
from spacy_spanf1.engine import batched, scorer  # noqa: E402
from spacy_spanf1.engine.confusion import Confusion  # noqa: E402

TARGET = 1.10


@contextmanager
def without_confusion() -> Iterator[None]:
    """evaluate_spans with no confusion cell counted (this process only)."""
    saved = batched.Batch._semeval_cells, batched.Batch._iou_cells, scorer.overlap_confusion
    batched.Batch._semeval_cells = lambda self, *args: {}  # type: ignore[method-assign]
    batched.Batch._iou_cells = lambda self, *args: {}  # type: ignore[method-assign]
    scorer.overlap_confusion = lambda per_label: Confusion()  # type: ignore[assignment]
    try:
        yield
    finally:
        batched.Batch._semeval_cells, batched.Batch._iou_cells, scorer.overlap_confusion = saved


def score(corpus) -> Dict[str, dict]:
    return {name: r.counts for name, r in evaluate_spans(corpus.gold, corpus.pred, schemes=list(SCHEMES)).items()}


def timed(corpus, plain: bool) -> float:
    gc.collect()
    if plain:
        with without_confusion():
            start = time.perf_counter()
            score(corpus)
            return time.perf_counter() - start
    start = time.perf_counter()
    score(corpus)
    return time.perf_counter() - start


def callgrind(docs: int, seed: int) -> Dict[str, int]:
    """Instructions of one scoring of each: callgrind counts the whole
    child (making the corpus, a warm-up scoring, then the one measured),
    and a child that stops before the measured scoring ("base") is
    taken off both."""
    found = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("base", "with", "without"):
            out = Path(tmp) / f"{name}.out"
            measured = (
                ""
                if name == "base"
                else (
                    f"with ({'b.without_confusion()' if name == 'without' else 'nullcontext()'}):\n"
                    "    b.score(corpus)\n"
                )
            )
            code = (
                f"import sys; sys.argv = ['x']; sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})\n"
                "from contextlib import nullcontext\n"
                "import bench_confusion as b\n"
                f"corpus = b.make_corpus({docs}, {seed})\n"
                "b.score(corpus)\n" + measured  # warm: imports, first calls
            )
            subprocess.run(
                ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", code],
                check=True,
                capture_output=True,
                env=dict(os.environ, PYTHONHASHSEED="0"),
            )
            summary = re.search(r"^(?:summary|totals): (\d+)", out.read_text(), re.M)
            assert summary, "no totals in callgrind's output"
            found[name] = int(summary.group(1))
    return {"with": found["with"] - found["base"], "without": found["without"] - found["base"]}


def main(
    docs: int = typer.Option(10_000, help="Documents of the corpus"),
    repeat: int = typer.Option(15, help="Rounds of (with, without); the fastest of each counts", min=1),
    seed: int = typer.Option(0, help="Corpus seed"),
    use_callgrind: bool = typer.Option(False, "--callgrind", help="Count instructions under callgrind instead"),
):
    if use_callgrind:
        found = callgrind(docs, seed)
        ratio = found["with"] / found["without"]
        print(
            f"{docs} documents, every scheme, instructions of one evaluate_spans: "
            f"with confusion {found['with']:,}, without {found['without']:,}"
        )
        print(f"  with / without {ratio:.3f} (target <= {TARGET:.2f}): {'ok' if ratio <= TARGET else 'OVER'}")
        return
    corpus = make_corpus(docs, seed)
    with without_confusion():
        plain = score(corpus)
    assert score(corpus) == plain, "the confusion cells changed the counts"
    runs: Dict[str, List[float]] = {"with": [], "without": []}
    for _ in range(repeat):
        runs["with"].append(timed(corpus, plain=False))
        runs["without"].append(timed(corpus, plain=True))
    best = {name: min(found) for name, found in runs.items()}
    ratio = best["with"] / best["without"]
    print(f"{docs} documents, every scheme, fastest of {repeat} interleaved runs:")
    print(f"  evaluate_spans with confusion {best['with']:.3f}s, without {best['without']:.3f}s")
    print(f"  with / without {ratio:.3f} (target <= {TARGET:.2f}): {'ok' if ratio <= TARGET else 'OVER'}")


if __name__ == "__main__":
    typer.run(main)
