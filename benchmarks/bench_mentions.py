"""Grounding mentions without offsets, side by side with its floor.

A synthetic corpus: documents of random words, each with ten mentions
(1,000,000 for the default 100,000 documents): 90 % strings of the text,
5 % with their case or whitespace changed, 5 % not in the text. Measured:

- the floor: finding each mention string in its text with one `str.find`;
- the least a Python grounding does per mention: the two finds that say
  whether a string occurs once, and one tuple of its fields (no not-found,
  ambiguous or repeated mentions handled): what any grounding written in
  Python costs at best;
- `ground_in` (what `ground_mentions` and the `mentions` reader run),
  without fuzzy matching, under `ordered` assignment;
- `ground_mentions`, one call per document (its settings and input
  checked each time);
- scoring: `evaluate_spans` (strict) of the spans grounding gives (a
  mention not found, or a duplicate, as a span past the end of the text)
  against the gold spans, the part of `evaluate_mentions` that is the
  span scorer's;
- `evaluate_mentions` (strict) from the (string, label) pairs, the texts
  and the gold spans, net of its own call of `evaluate_spans` (timed
  inside the same run: the difference of two separate runs of several
  seconds each would be mostly noise on a shared machine);
- the command line's path, `compare_files(gold, answers,
  format="mentions")` (what `compare --format mentions` runs) on JSONL
  files of the same documents, net of `compare_files` on a JSONL file of
  the spans grounding gives (the same reading, pairing and scoring, with
  offsets instead of mentions).

The gold spans of a document are the first occurrences of its listed
strings that are in its text, left to right, without overlaps.

    python benchmarks/bench_mentions.py                  # 100,000 documents
    python benchmarks/bench_mentions.py --docs 10000 --repeat 3

Prints the fastest of --repeat runs of each and its ratio to the floor.
The runs are interleaved (each round times every figure once), and timed
by the process's CPU time (`--clock cpu`, the default: on a shared machine
the time other jobs take the processor from this one is not counted) or by
the wall clock (`--clock wall`).
"""

import argparse
import json
import random
import string
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Tuple

import spacy_spanf1.mentions.score as mention_scoring
from spacy_spanf1 import compare_files, evaluate_spans
from spacy_spanf1.mentions import evaluate_mentions, ground_mentions
from spacy_spanf1.mentions.ground import Text, ground_in
from spacy_spanf1.mentions.predicted import predicted_spans

Document = Tuple[str, List[Tuple[str, str]]]
#: The clock every figure is read on (`--clock`).
clock = time.process_time
Spans = List[Tuple[int, int, str]]


def corpus(n_docs: int, mentions: int = 10, words: int = 40, seed: int = 0) -> List[Document]:
    rng = random.Random(seed)
    vocabulary = [
        "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 9))).capitalize() for _ in range(20000)
    ]
    docs = []
    for _ in range(n_docs):
        tokens = [rng.choice(vocabulary) for _ in range(words)]
        text = " ".join(tokens)
        listed = []
        for _ in range(mentions):
            start = rng.randrange(words - 2)
            found = " ".join(tokens[start : start + rng.randint(1, 3)])
            roll = rng.random()
            if roll < 0.05:
                found = found.upper() if rng.random() < 0.5 else found.replace(" ", "  ")
            elif roll < 0.10:
                found = found + "x" + rng.choice(vocabulary)
            listed.append((found, rng.choice(("PER", "ORG", "LOC"))))
        docs.append((text, listed))
    return docs


def floor(docs: List[Document]) -> float:
    start = clock()
    for text, listed in docs:
        for found, _ in listed:
            text.find(found)
    return clock() - start


def least(docs: List[Document]) -> float:
    start = clock()
    for text, listed in docs:
        find = text.find
        out = []
        append = out.append
        for found, label in listed:
            first = find(found)
            if first >= 0:
                end = first + len(found)
                if find(found, end) < 0:
                    append((found, label, [(first, end)], "exact", "grounded", False))
    return clock() - start


def grounding(docs: List[Document]) -> float:
    start = clock()
    for text, listed in docs:
        ground_in(Text(text), listed, "ordered", None)
    return clock() - start


def gold_spans(docs: List[Document]) -> List[Spans]:
    """Per document, the first occurrence of each listed string that is in
    the text, left to right, those that overlap an earlier one left out."""
    gold = []
    for text, listed in docs:
        found = sorted(
            {(start, start + len(s), label) for s, label in listed for start in [text.find(s)] if start >= 0}
        )
        kept: Spans = []
        for span in found:
            if not kept or span[0] >= kept[-1][1]:
                kept.append(span)
        gold.append(kept)
    return gold


def grounded_spans(docs: List[Document]) -> List[Spans]:
    """The spans `evaluate_mentions` scores for each document's mentions."""
    return [predicted_spans(ground_mentions(text, listed), None, text, "char") for text, listed in docs]


class ScoringTimer:
    """Stands in for `evaluate_spans` in `evaluate_mentions` while it runs,
    and adds up the time of its calls."""

    def __init__(self) -> None:
        self.seconds = 0.0

    def __enter__(self) -> "ScoringTimer":
        def timed_scoring(*args: Any, **kwargs: Any) -> Any:
            start = clock()
            try:
                return evaluate_spans(*args, **kwargs)
            finally:
                self.seconds += clock() - start

        mention_scoring.evaluate_spans = timed_scoring
        return self

    def __exit__(self, *_: Any) -> None:
        mention_scoring.evaluate_spans = evaluate_spans


def mentions_net_of_scoring(
    gold: List[Spans], listings: List[List[Tuple[str, str]]], texts: List[str]
) -> Tuple[float, float]:
    """(evaluate_mentions' time, the time of its own scoring)."""
    with ScoringTimer() as scoring:
        total = timed(lambda: evaluate_mentions(gold, listings, texts=texts, schemes=["strict"]))
    return total, scoring.seconds


def timed(run: Callable[[], Any]) -> float:
    start = clock()
    run()
    return clock() - start


def write_jsonl(path: Path, records: List[Any]) -> Path:
    with path.open("w", encoding="utf-8") as f:
        for record in records:
            f.write(json.dumps(record) + "\n")
    return path


def main() -> None:
    global clock
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu")
    args = parser.parse_args()
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    docs = corpus(args.docs)
    n = sum(len(listed) for _, listed in docs)
    texts = [text for text, _ in docs]
    listings = [listed for _, listed in docs]
    gold = gold_spans(docs)
    grounded = grounded_spans(docs)
    best: Dict[str, float] = {}
    runs: List[Tuple[float, float]] = []

    def keep(name: str, seconds: float) -> None:
        best[name] = min(best.get(name, seconds), seconds)

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        gold_file = write_jsonl(
            folder / "gold.jsonl",
            [
                {"text": text, "spans": [{"start": s, "end": e, "label": label} for s, e, label in spans]}
                for text, spans in zip(texts, gold)
            ],
        )
        answers = write_jsonl(
            folder / "answers.jsonl", [{"text": text, "mentions": [list(m) for m in listed]} for text, listed in docs]
        )
        # the spans in the text (those past its end are mentions without a place, which a
        # file of offsets cannot hold)
        offsets = write_jsonl(
            folder / "grounded.jsonl",
            [
                {
                    "text": text,
                    "spans": [{"start": s, "end": e, "label": label} for s, e, label in spans if e <= len(text)],
                }
                for text, spans in zip(texts, grounded)
            ],
        )
        for _ in range(args.repeat):  # interleaved: each round times every figure once
            keep("floor", floor(docs))
            keep("least", least(docs))
            keep("ground_in", grounding(docs))
            keep("per_call", timed(lambda: [ground_mentions(text, listed) and None for text, listed in docs]))
            keep("per_doc", timed(lambda: [ground_mentions(text, listed) for text, listed in docs]))
            keep("scoring", timed(lambda: evaluate_spans(gold, grounded, schemes=["strict"], unit="char")))
            runs.append(mentions_net_of_scoring(gold, listings, texts))
            command = timed(lambda: compare_files(gold_file, answers, format="mentions", schemes="strict"))
            command_offsets = timed(lambda: compare_files(gold_file, offsets, format="jsonl", schemes="strict"))
            keep("command", command)
            keep("command_offsets", command_offsets)
    base = best["floor"]
    # the run of evaluate_mentions that took least, net of its own scoring
    best["mentions"], best["own_scoring"] = min(runs)
    best["mentions_net"] = best["mentions"] - best["own_scoring"]
    best["command_net"] = best["command"] - best["command_offsets"]

    def row(name: str, seconds: float, target: str = "") -> None:
        print(
            f"  {name:<52} {seconds:8.3f} s   {seconds / base:5.1f}x the floor{'   target ' + target if target else ''}"
        )

    print(f"{args.docs:,} documents, {n:,} mentions (fastest of {args.repeat} interleaved runs, {args.clock} time)")
    row("str.find floor", base)
    row("least Python grounding", best["least"])
    row("ground_in (ordered, exact + normalized)", best["ground_in"])
    row("ground_mentions, one call a document", best["per_call"], target="<= 6x")
    row("  the same, every document's records kept", best["per_doc"])
    row("scoring: evaluate_spans of the grounded spans", best["scoring"])
    row("evaluate_mentions", best["mentions"])
    row("  its own scoring (evaluate_spans)", best["own_scoring"])
    row("  net of its scoring", best["mentions_net"], target="<= 8x")
    row("compare_files, format mentions", best["command"])
    row("compare_files, format jsonl, the grounded spans", best["command_offsets"])
    row("  mentions net of jsonl", best["command_net"], target="<= 8x")


if __name__ == "__main__":
    main()
