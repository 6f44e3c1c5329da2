"""A small rule-based entity linker for GUM, for the link schemes' example.

    python scripts/link_gum.py assets/gum/gum_train.jsonl assets/gum/gum_test.jsonl corpus/links

GUM's entity mentions carry a Wikification `identity` (a Wikipedia title)
on about 28 % of spans. The linker is a dictionary read from the training
split: each mention's surface text (its tokens joined by spaces) -> its
most frequent identity, or none when the surface is more often unlinked
(ties: the alphabetically first). It writes three JSON Lines files of the
test split, token offsets, kb ids in "kb_id" (a mention without one has
"NIL", spaCy's `EntityLinker.NIL`, so that under `nel` two unlinked
mentions are a true negative, not a match of two empty ids):

- gold.jsonl: the test mentions with their identities;
- gold_mentions.jsonl: the gold mentions, each linked by the dictionary
  (the linker alone, for the disentangled `nel` scheme);
- end_to_end.jsonl: mentions found by the dictionary itself (the longest
  surface of the dictionary that links, left to right, not overlapping),
  labelled with the surface's most frequent label, and linked.
"""

import json
import sys
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple


def records(path: Path) -> Iterator[dict]:
    with path.open(encoding="utf8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def surface(tokens: List[str], start: int, end: int) -> str:
    return " ".join(tokens[start:end])


def build_dictionary(path: Path) -> Tuple[Dict[str, Optional[str]], Dict[str, str]]:
    """(surface -> identity or None, surface -> most frequent label) of the
    training split's mentions."""
    ids: Dict[str, Counter] = defaultdict(Counter)
    labels: Dict[str, Counter] = defaultdict(Counter)
    for record in records(path):
        for span in record["spans"]:
            text = surface(record["tokens"], span["start"], span["end"])
            ids[text][span.get("identity")] += 1
            labels[text][span["label"]] += 1

    def most_frequent(counts: Counter):
        return sorted(counts.items(), key=lambda item: (-item[1], "" if item[0] is None else item[0]))[0][0]

    return {text: most_frequent(c) for text, c in ids.items()}, {text: most_frequent(c) for text, c in labels.items()}


def find_mentions(tokens: List[str], linked: Dict[str, str], longest: int) -> List[Tuple[int, int]]:
    """The longest dictionary surfaces that link, left to right, not overlapping."""
    found, i = [], 0
    while i < len(tokens):
        for n in range(min(longest, len(tokens) - i), 0, -1):
            if surface(tokens, i, i + n) in linked:
                found.append((i, i + n))
                i += n
                break
        else:
            i += 1
    return found


#: The kb id of a mention without one (spaCy's `EntityLinker.NIL`).
NIL = "NIL"


def span(start: int, end: int, label: str, kb_id: Optional[str]) -> dict:
    return {"start": start, "end": end, "label": label, "kb_id": kb_id or NIL}


def main(train: str, test: str, out_dir: str) -> None:
    dictionary, labels = build_dictionary(Path(train))
    linked = {text: identity for text, identity in dictionary.items() if identity}
    longest = max((len(text.split(" ")) for text in linked), default=1)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    files = {
        name: (out / f"{name}.jsonl").open("w", encoding="utf8") for name in ("gold", "gold_mentions", "end_to_end")
    }
    n_docs = n_gold = n_found = 0
    for record in records(Path(test)):
        tokens = record["tokens"]
        base = {key: record[key] for key in ("id", "doc", "genre", "text", "tokens", "spaces")}
        gold = [span(s["start"], s["end"], s["label"], s.get("identity")) for s in record["spans"]]
        on_gold = [
            span(s["start"], s["end"], s["label"], dictionary.get(surface(tokens, s["start"], s["end"])))
            for s in record["spans"]
        ]
        found = [
            span(start, end, labels[surface(tokens, start, end)], linked[surface(tokens, start, end)])
            for start, end in find_mentions(tokens, linked, longest)
        ]
        for name, spans in (("gold", gold), ("gold_mentions", on_gold), ("end_to_end", found)):
            files[name].write(json.dumps({**base, "spans": spans}) + "\n")
        n_docs += 1
        n_gold += sum(s["kb_id"] != NIL for s in gold)
        n_found += len(found)
    for f in files.values():
        f.close()
    print(
        f"{len(linked)} linked surfaces in the dictionary; {n_docs} test sentences, "
        f"{n_gold} linked gold mentions, {n_found} mentions found end to end -> {out}"
    )


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: python scripts/link_gum.py TRAIN.jsonl TEST.jsonl OUT_DIR")
    main(*sys.argv[1:])
