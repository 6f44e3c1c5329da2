"""The fuzzy stage of grounding, side by side with langextract's resolver.

Fuzzy grounding runs only on the mentions that exact and normalized search
did not find. This script takes those mentions of the grounding benchmark's
corpus (`bench_mentions.py`: 5 % of its mentions are a string of the text
with a made-up word glued on), and aligns them in their documents:

- ours: `Text.fuzzy` (what `ground_mentions(..., fuzzy=0.9)` runs on them:
  rapidfuzz's partial-ratio alignment, similarity >= 0.9);
- langextract's `Resolver.align` with fuzzy alignment on (its default LCS
  algorithm; threshold 0.9, a share of the string's tokens), the same
  mentions as langextract `Extraction`s, document by document.

The two thresholds do not mean the same (a character similarity, a share of
tokens), so the number each aligns is printed too; the time is the point.
langextract is installed in the benchmark environment only
(`pip install langextract`), never a dependency.

    python benchmarks/bench_fuzzy.py                  # 100,000 documents
    python benchmarks/bench_fuzzy.py --docs 10000 --repeat 1
"""

import argparse
import logging
import time
from typing import List, Tuple

from bench_mentions import corpus
from spacy_spanf1.mentions.ground import Text, ground_in

THRESHOLD = 0.9
Leftovers = List[Tuple[str, List[Tuple[str, str]]]]


def leftovers(n_docs: int) -> Leftovers:
    """Each document with the mentions exact and normalized search miss."""
    out = []
    for text, listed in corpus(n_docs):
        grounded = ground_in(Text(text), listed, "ordered", None)
        missed = [(m.string, m.label) for m in grounded if m.status == "not_found"]
        if missed:
            out.append((text, missed))
    return out


def ours(docs: Leftovers) -> Tuple[float, int]:
    found = 0
    start = time.perf_counter()
    for text, missed in docs:
        doc = Text(text)
        for string, _ in missed:
            found += bool(doc.fuzzy(string, THRESHOLD))
    return time.perf_counter() - start, found


def langextract(docs: Leftovers) -> Tuple[float, int]:
    from langextract import data
    from langextract.resolver import Resolver

    resolver = Resolver()
    found = 0
    start = time.perf_counter()
    for text, missed in docs:
        extractions = [data.Extraction(label, string) for string, label in missed]
        aligned = resolver.align(
            extractions, text, 0, 0, enable_fuzzy_alignment=True, fuzzy_alignment_threshold=THRESHOLD
        )
        found += sum(e.char_interval is not None for e in aligned)
    return time.perf_counter() - start, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--docs", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    logging.disable(logging.WARNING)  # langextract logs each alignment it cannot make
    docs = leftovers(args.docs)
    n = sum(len(missed) for _, missed in docs)
    theirs = min((langextract(docs) for _ in range(args.repeat)), key=lambda r: r[0])
    mine = min((ours(docs) for _ in range(args.repeat)), key=lambda r: r[0])
    print(
        f"{args.docs:,} documents; {n:,} mentions that exact and normalized search miss, "
        f"in {len(docs):,} documents (fastest of {args.repeat})"
    )
    print(f"  langextract Resolver.align (fuzzy, LCS)   {theirs[0]:8.3f} s   aligned {theirs[1]:,}")
    print(
        f"  Text.fuzzy (rapidfuzz, 0.9)               {mine[0]:8.3f} s   aligned {mine[1]:,}   "
        f"{theirs[0] / mine[0]:.0f}x faster"
    )


if __name__ == "__main__":
    main()
