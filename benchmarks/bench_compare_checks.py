"""What each check of `compare_files` on a JSONL pair costs: the same
compare with one check left out (monkeypatched), against the whole compare
and the floor of bench_compare.py (srsly.read_jsonl, span tuples,
evaluate_spans), all in one process, in turns, CPU time (time.process_time),
the fastest of --repeat rounds. The pair is bench_compare.py's corpus.

The checks left out: the span check of each block (offsets against the
text's length, integer offsets, string labels: only the order of each
document's spans is still found), the record checks of a block of plain
records (the JSON objects' fields and their types, span objects of
start/end/label only, no '"score"' string), the inside-word check of score_pairs
(the first 10,000 spans of each side, then it stops).

    python benchmarks/bench_compare_checks.py [--docs 50000] [--repeat 5]
"""

import gc
import sys
import tempfile
import time
from itertools import chain, repeat
from pathlib import Path

import numpy
import srsly
import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_compare import write_corpus  # noqa: E402
from spacy_spanf1 import SCHEMES  # noqa: E402
from spacy_spanf1.api import compare_files  # noqa: E402
from spacy_spanf1.corpus import stream  # noqa: E402
from spacy_spanf1.engine.scorer import evaluate_spans  # noqa: E402
from spacy_spanf1.formats import jsonl, jsonl_plain  # noqa: E402

S = list(SCHEMES)
REAL = {"check": jsonl_plain.plain_spans, "plain": jsonl_plain.plain_block, "words": stream.InsideWords}


def spans(path):
    for record in srsly.read_jsonl(path):
        yield [(s["start"], s["end"], s["label"]) for s in record.get("spans", ())]


def order_only(objects, counts, limits):
    """No span check: the Span tuples and which documents' spans are out of order."""
    starts, ends, labels = (
        list(map(jsonl_plain.START, objects)),
        list(map(jsonl_plain.END, objects)),
        list(map(jsonl_plain.SPAN_LABEL, objects)),
    )
    if not objects:
        return [], ()
    start, end = numpy.array(starts, dtype=numpy.int64), numpy.array(ends, dtype=numpy.int64)
    sizes = numpy.array(counts, dtype=numpy.int64)
    doc_of = numpy.repeat(numpy.arange(len(sizes)), sizes)
    same = doc_of[1:] == doc_of[:-1]
    unsorted = set(doc_of[1:][same & (start[1:] < end[:-1])].tolist())
    return list(map(tuple.__new__, repeat(jsonl_plain.Span), zip(starts, ends, labels))), unsorted


def unchecked_plain(block, path, text_mismatch):
    """No record checks: every block taken as plain records as it is."""
    records = list(map(jsonl_plain.json_loads, list(map(jsonl_plain.LINE, block))))
    texts, items = list(map(jsonl_plain.TEXT, records)), list(map(jsonl_plain.SPANS, records))
    counts = list(map(len, items))
    found, unsorted = jsonl_plain.plain_spans(list(chain.from_iterable(items)), counts, list(map(len, texts)))
    linenos = list(map(jsonl_plain.LINENO, block))
    return jsonl_plain.documents(linenos, texts, counts, found, unsorted, path)


class NoInsideWords:
    """No inside-word check."""

    def add(self, *args):
        pass

    def full(self, *args):
        return True

    def as_dict(self):
        return {}


def best_of(task, rounds):
    """The fastest run of a task whose results are dropped as they come,
    with the cyclic collector paused (as compare pauses it)."""
    times = []
    for _ in range(rounds):
        gc.collect()
        gc.disable()
        cpu = time.process_time()
        try:
            for _ in task():
                pass
        finally:
            gc.enable()
        times.append(time.process_time() - cpu)
    return min(times)


def parts(gold: str, pred: str, rounds: int) -> None:
    """Each check by itself on the blocks of both files, read beforehand:
    CPU seconds, the fastest of `rounds`."""
    from spacy_spanf1.formats.base import read_line_blocks
    from spacy_spanf1.notes import InsideWords

    blocks = [block for path in (gold, pred) for block in read_line_blocks(path, jsonl.BLOCK_BYTES)]
    columns = []
    for block in blocks:
        records = list(map(jsonl_plain.json_loads, [line for _, line in block]))
        texts, items = list(map(jsonl_plain.TEXT, records)), list(map(jsonl_plain.SPANS, records))
        columns.append((list(chain.from_iterable(items)), list(map(len, items)), list(map(len, texts))))
    gold_docs, pred_docs = list(jsonl.read_jsonl(gold)), list(jsonl.read_jsonl(pred))
    lines = [line for block in blocks for _, line in block]
    found = {
        "read in columns, every check (plain_block)": lambda: (
            jsonl_plain.plain_block(b, gold, "warn") for b in blocks
        ),
        "read in columns, no record check": lambda: (unchecked_plain(b, gold, "warn") for b in blocks),
        "spans of each block, checked (plain_spans)": lambda: (jsonl_plain.plain_spans(*c) for c in columns),
        "the same spans unchecked (only their order found)": lambda: (order_only(*c) for c in columns),
        "text check of each pair (==)": lambda: (g.text == p.text for g, p in zip(gold_docs, pred_docs)),
        "inside-word check (first 10,000 spans a side)": lambda: (
            _inside_words(InsideWords(), gold_docs, pred_docs) or ()
        ),
        "the record reader's line scans ('\"text\"', '\"score\"')": lambda: (
            (line.count('"text"') > 1, '"score"' in line) for line in lines
        ),
    }
    print(f"each part by itself, both files ({len(gold_docs)} documents a side), CPU seconds, fastest of {rounds}")
    for name, task in found.items():
        print(f"  {name:50s} {best_of(task, rounds):7.3f}s")


def _inside_words(words, gold_docs, pred_docs):
    checks = True
    for g, p in zip(gold_docs, pred_docs):
        if not checks:
            break
        words.add("gold", g.name, g.text, g.spans)
        words.add("pred", p.name, p.text, p.spans)
        checks = not words.full("gold", "pred")


def main(
    docs: int = typer.Option(50_000, help="Documents of the corpus"),
    repeat_: int = typer.Option(5, "--repeat", help="Rounds; the fastest of each counts", min=1),
):
    with tempfile.TemporaryDirectory() as tmp:
        write_corpus(Path(tmp), docs)
        gold, pred = str(Path(tmp) / "gold.jsonl"), str(Path(tmp) / "pred.jsonl")
        parts(gold, pred, repeat_)

        def floor():
            evaluate_spans(spans(gold), spans(pred), schemes=S, unit="char")

        def variant(check=True, plain=True, words=True):
            def run():
                jsonl_plain.plain_spans = REAL["check"] if check else order_only
                jsonl_plain.plain_block = REAL["plain"] if plain else unchecked_plain
                stream.InsideWords = REAL["words"] if words else NoInsideWords
                try:
                    compare_files(gold, pred, schemes=S, format="jsonl")
                finally:
                    jsonl_plain.plain_spans, jsonl_plain.plain_block = REAL["check"], REAL["plain"]
                    stream.InsideWords = REAL["words"]

            return run

        tasks = {
            "floor": floor,
            "compare_files, every check": variant(),
            "without the span check": variant(check=False),
            "without the record checks": variant(plain=False),
            "without the inside-word check": variant(words=False),
            "without all three": variant(False, False, False),
        }
        runs = {name: [] for name in tasks}
        for _ in range(repeat_):
            for name, task in tasks.items():
                gc.collect()
                cpu = time.process_time()
                task()
                runs[name].append(time.process_time() - cpu)
    best = {name: min(times) for name, times in runs.items()}
    whole = best["compare_files, every check"]
    print(f"{docs} documents a side, CPU seconds, fastest of {repeat_}")
    for name, times in runs.items():
        print(
            f"  {name:32s} {best[name]:7.3f}s  {best[name] / best['floor']:.3f}x the floor  "
            f"{whole - best[name]:+.3f}s  (runs " + ", ".join(f"{t:.2f}" for t in times) + ")"
        )


if __name__ == "__main__":
    typer.run(main)
