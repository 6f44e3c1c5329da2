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

The plain reading is also timed step by step (and pairing), each step's
share of the floor's time a pair (--steps: only that).

    python benchmarks/bench_compare_checks.py [--docs 50000] [--repeat 5] [--steps]
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


def steps(gold: str, pred: str, rounds: int) -> None:
    """The steps of reading a plain block (`jsonl_plain.plain_block`) one
    after the other, on the blocks of both files read beforehand, each timed
    by itself (CPU time, collector paused, the fastest of `rounds` summed
    over the blocks), then pairing (`pair_documents` over documents read
    beforehand), and the floor's own reading (srsly, span tuples) and the
    floor: microseconds a document, and a pair for pairing and the floors."""
    from collections import defaultdict, deque

    from spacy_spanf1.formats.base import read_line_blocks
    from spacy_spanf1.formats.pairing import pair_documents

    jp = jsonl_plain
    blocks = [block for path in (gold, pred) for block in read_line_blocks(path, jsonl.BLOCK_BYTES)]
    n_docs = sum(map(len, blocks))
    best: dict = defaultdict(lambda: float("inf"))
    gc.collect()
    gc.disable()
    try:
        for _ in range(rounds):
            took: dict = defaultdict(float)
            for block in blocks:
                t0 = time.process_time()
                records = list(map(jp.json_loads, list(map(jp.LINE, block))))
                t1 = time.process_time()
                _ = set(map(type, records)) == {dict} and all(map(jp.PLAIN.issuperset, records))
                texts, items = list(map(jp.TEXT, records)), list(map(jp.SPANS, records))
                _ = set(map(type, texts)) == {str} and set(map(type, items)) == {list}
                _ = any(map(str.endswith, texts, repeat("score")))
                counts = list(map(len, items))
                objects = list(chain.from_iterable(items))
                t2 = time.process_time()
                starts, ends = list(map(jp.START, objects)), list(map(jp.END, objects))
                labels = list(map(jp.SPAN_LABEL, objects))
                names = set(labels)
                t3 = time.process_time()
                _ = sum(map(len, objects)) != 3 * len(objects) or set(map(type, names)) != {str} or "" in names
                _ = any(label.endswith("score") for label in names)
                _ = set(map(type, starts)) != {int} or set(map(type, ends)) != {int}
                t4 = time.process_time()
                start = numpy.fromiter(starts, dtype=numpy.int64, count=len(objects))
                end = numpy.fromiter(ends, dtype=numpy.int64, count=len(objects))
                sizes = numpy.array(counts, dtype=numpy.int64)
                limits = numpy.repeat(numpy.array(list(map(len, texts)), dtype=numpy.int64), sizes)
                _ = ((start < 0) | (start >= end) | (end > limits)).any()
                doc_of = numpy.repeat(numpy.arange(len(sizes)), sizes)
                same = doc_of[1:] == doc_of[:-1]
                unsorted = set(doc_of[1:][same & (start[1:] < end[:-1])].tolist())
                t5 = time.process_time()
                made = list(map(tuple.__new__, repeat(jp.Span), zip(starts, ends, labels)))
                t6 = time.process_time()
                _ = all(map(str.isascii, texts))
                docs = jp.documents(list(map(jp.LINENO, block)), texts, counts, made, unsorted, gold)
                t7 = time.process_time()
                del docs, made, records, objects, items
                t8 = time.process_time()
                for name, a, b in (
                    ("parsing the lines (srsly, as the floor)", t0, t1),
                    ("record checks (object, fields, types, no 'score')", t1, t2),
                    ("the span fields, a column each (the floor reads them too)", t2, t3),
                    ("span checks: fields, label and offset types", t3, t4),
                    ("offsets in range, each document's order (numpy)", t4, t5),
                    ("Span tuples", t5, t6),
                    ("Document objects", t6, t7),
                    ("freeing the block (records, Spans, Documents)", t7, t8),
                ):
                    took[name] += b - a
            for name, seconds in took.items():
                best[name] = min(best[name], seconds)
        gold_docs, pred_docs = list(jsonl.read_jsonl(gold)), list(jsonl.read_jsonl(pred))
        for _ in range(rounds):
            cpu = time.process_time()
            deque(pair_documents(gold_docs, pred_docs, format=jsonl.JSONL), 0)
            best["pairing (pair_documents, DocPair), a pair"] = min(
                best["pairing (pair_documents, DocPair), a pair"], time.process_time() - cpu
            )
    finally:
        gc.enable()
    n_pairs = len(gold_docs)
    floor_parse = best_of(lambda: chain(spans(gold), spans(pred)), rounds)
    floor = min(_timed(lambda: evaluate_spans(spans(gold), spans(pred), schemes=S, unit="char")) for _ in range(rounds))
    per_pair = floor / n_pairs * 1e6
    print(
        f"the plain reading step by step, {n_docs} documents, CPU, fastest of {rounds}; the floor {per_pair:.2f} us a pair"
    )
    for name, seconds in best.items():
        each = seconds / (n_pairs if name.startswith("pairing") else n_docs) * 1e6
        share = each / per_pair * (1 if name.startswith("pairing") else 2)
        print(f"  {name:60s} {each:6.2f} us  {share * 100:5.1f}% of the floor")
    print(
        f"  {'the floor reading (srsly.read_jsonl, span tuples)':60s} {floor_parse / n_docs * 1e6:6.2f} us a document"
    )


def _timed(task) -> float:
    gc.collect()
    cpu = time.process_time()
    task()
    return time.process_time() - cpu


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
    steps_only: bool = typer.Option(False, "--steps", help="Only the plain reading step by step, and pairing"),
):
    with tempfile.TemporaryDirectory() as tmp:
        write_corpus(Path(tmp), docs)
        gold, pred = str(Path(tmp) / "gold.jsonl"), str(Path(tmp) / "pred.jsonl")
        steps(gold, pred, repeat_)
        if steps_only:
            return
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
