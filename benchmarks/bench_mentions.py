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
  without fuzzy matching, under `ordered` assignment.

    python benchmarks/bench_mentions.py                  # 100,000 documents
    python benchmarks/bench_mentions.py --docs 10000 --repeat 3

Prints the fastest of --repeat runs of each and their ratio.
"""
import argparse
import random
import string
import time
from typing import List, Tuple

from spacy_spanf1.mentions.ground import Text, ground_in

Document = Tuple[str, List[Tuple[str, str]]]


def corpus(n_docs: int, mentions: int = 10, words: int = 40, seed: int = 0) -> List[Document]:
    rng = random.Random(seed)
    vocabulary = ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 9))).capitalize()
                  for _ in range(20000)]
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
    start = time.perf_counter()
    for text, listed in docs:
        for found, _ in listed:
            text.find(found)
    return time.perf_counter() - start


def least(docs: List[Document]) -> float:
    start = time.perf_counter()
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
    return time.perf_counter() - start


def grounding(docs: List[Document]) -> float:
    start = time.perf_counter()
    for text, listed in docs:
        ground_in(Text(text), listed, "ordered", None)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    docs = corpus(args.docs)
    n = sum(len(listed) for _, listed in docs)
    base = min(floor(docs) for _ in range(args.repeat))
    bound = min(least(docs) for _ in range(args.repeat))
    ours = min(grounding(docs) for _ in range(args.repeat))
    print(f"{args.docs:,} documents, {n:,} mentions (fastest of {args.repeat})")
    print(f"  str.find floor          {base:8.3f} s")
    print(f"  least Python grounding  {bound:8.3f} s   {bound / base:.1f}x the floor")
    print(f"  ground (ordered, exact + normalized) {ours:8.3f} s   {ours / base:.1f}x the floor")


if __name__ == "__main__":
    main()
