"""Relations derived from GUM, and a rule-based extractor, for the relation schemes' example.

    python scripts/gum_relations.py assets/gum/gum_test.jsonl corpus/relations [--seed 0]

GUM annotates entity mentions (nested, typed, some with a Wikipedia
`identity`) but no relations. Two deterministic rules make gold relations
from its annotation, within one sentence (one record):

- `same_entity(a, b)`: mentions a and b carry the same `identity`, do not
  overlap, and a starts before b (so that the relation has one direction and
  needs no symmetric label). GUM gives every mention of an entity that has
  a Wikipedia page the page's title, pronouns and descriptions included
  (*Dvořák* ... *his*, *Jespersen* ... *a professor of English*), so this
  is coreference within a sentence, among such entities; a mention without
  an identity takes part in none.
- `contains_place(a, b)`: b is a `place` mention strictly inside a, and a is
  a `place` or `organization` mention: *[University of [Chicago]]*,
  *[[Paris], France]*. This is GUM's nesting read as a relation, not a
  geographic fact: the inner place is part of the outer mention's name.

The predictions are made in two steps, each written out here:

1. spans: GUM's gold mentions, perturbed by a seeded rule. Each mention,
   drawn in order from a random generator seeded with the seed and the
   record's id, is kept (75 %), retyped (10 %: the next label of its group,
   wrapping round, where the names' types are one group, person ->
   organization -> place -> person, as a tagger confuses them, and GUM's
   seven other types, in alphabetical order, the other), cut or stretched (10 %: the last
   token dropped, or one token added at the end for a one-token mention,
   where the sentence has one), or dropped (5 %); a span made twice is
   written once.
2. relations over the predicted spans, by rules that see only the text:
   `same_entity(a, b)` when a and b do not overlap, a starts before b, their
   surfaces (tokens joined by spaces) are equal after lowercasing, and
   the surface holds an upper-case letter (a name, not *it* or *the
   city*); and `same_entity(a, p)` when p is a personal pronoun (he, him,
   his, himself, she, her, hers, herself, of any predicted label) and a is
   the nearest mention before p, not overlapping it, labelled `person`
   and holding an upper-case letter; `contains_place` by the gold rule above, on the predicted spans
   and their predicted labels.

It writes gold.jsonl and predicted.jsonl (token offsets: text, tokens,
spans, relations as indices into the record's spans), one line a sentence,
in the order of the input.
"""

import argparse
import json
import random
from pathlib import Path
from typing import Dict, Iterator, List, Optional, Tuple

#: GUM's entity types in two groups, each in the order the retyping rule walks it.
NAMES = ("person", "organization", "place")
OTHERS = ("abstract", "animal", "event", "object", "plant", "substance", "time")
KEEP, RETYPE, RESIZE, DROP = 0.75, 0.10, 0.10, 0.05
CONTAINERS = ("place", "organization")
PRONOUNS = frozenset(("he", "him", "his", "himself", "she", "her", "hers", "herself"))

Span = Dict[str, object]
Relation = Dict[str, object]


def records(path: Path) -> Iterator[dict]:
    with path.open(encoding="utf8") as f:
        for line in f:
            if line.strip():
                yield json.loads(line)


def overlap(a: Span, b: Span) -> bool:
    return int(a["start"]) < int(b["end"]) and int(b["start"]) < int(a["end"])  # type: ignore[call-overload]


def strictly_inside(inner: Span, outer: Span) -> bool:
    return (
        outer["start"] <= inner["start"]  # type: ignore[operator]
        and inner["end"] <= outer["end"]  # type: ignore[operator]
        and (inner["start"], inner["end"]) != (outer["start"], outer["end"])
    )


def contains_place(spans: List[Span]) -> List[Relation]:
    """contains_place(a, b): b a place mention strictly inside a place or organization mention a."""
    return [
        {"head": i, "tail": j, "label": "contains_place"}
        for i, a in enumerate(spans)
        if a["label"] in CONTAINERS
        for j, b in enumerate(spans)
        if b["label"] == "place" and strictly_inside(b, a)
    ]


def ordered_pairs(spans: List[Span]) -> Iterator[Tuple[int, int]]:
    """(i, j) of the spans that do not overlap, span i starting before span j."""
    for i, a in enumerate(spans):
        for j, b in enumerate(spans):
            if i != j and not overlap(a, b) and a["start"] < b["start"]:  # type: ignore[operator]
                yield i, j


def gold_relations(spans: List[Span]) -> List[Relation]:
    same = [
        {"head": i, "tail": j, "label": "same_entity"}
        for i, j in ordered_pairs(spans)
        if spans[i].get("identity") and spans[i].get("identity") == spans[j].get("identity")
    ]
    return same + contains_place(spans)


def surface(tokens: List[str], span: Span) -> str:
    return " ".join(tokens[int(span["start"]) : int(span["end"])])  # type: ignore[call-overload]


def is_name(text: str) -> bool:
    return any(c.isupper() for c in text)


def predicted_relations(tokens: List[str], spans: List[Span]) -> List[Relation]:
    texts = [surface(tokens, s) for s in spans]
    pairs = {(i, j) for i, j in ordered_pairs(spans) if texts[i].lower() == texts[j].lower() and is_name(texts[i])}
    for j, text in enumerate(texts):
        if text.lower() in PRONOUNS:
            before = [
                i
                for i, a in enumerate(spans)
                if a["label"] == "person" and is_name(texts[i]) and a["end"] <= spans[j]["start"]  # type: ignore[operator]
            ]
            if before:
                pairs.add((max(before, key=lambda i: (spans[i]["end"], spans[i]["start"])), j))
    same = [{"head": i, "tail": j, "label": "same_entity"} for i, j in sorted(pairs)]
    return same + contains_place(spans)


def perturb(spans: List[Span], n_tokens: int, rng: random.Random) -> List[Span]:
    """The seeded rule of the module's docstring: keep, retype, resize or drop each span."""
    out: List[Span] = []
    seen = set()
    for span in spans:
        start, end, label = int(span["start"]), int(span["end"]), str(span["label"])  # type: ignore[call-overload]
        draw = rng.random()
        if draw >= KEEP + RETYPE + RESIZE:
            continue  # dropped
        if draw >= KEEP + RETYPE:  # resized
            if end - start > 1:
                end -= 1
            elif end < n_tokens:
                end += 1
        elif draw >= KEEP:  # retyped
            group = NAMES if label in NAMES else OTHERS
            label = group[(group.index(label) + 1) % len(group)]
        if (start, end, label) not in seen:
            seen.add((start, end, label))
            out.append({"start": start, "end": end, "label": label})
    return out


def make(record: dict, seed: int) -> Tuple[dict, dict]:
    """(gold record, predicted record) of one GUM record."""
    tokens = record["tokens"]
    gold_spans: List[Span] = [{"start": s["start"], "end": s["end"], "label": s["label"]} for s in record["spans"]]
    for span, source in zip(gold_spans, record["spans"]):
        if source.get("identity"):
            span["identity"] = source["identity"]
    base = {"id": record["id"], "doc": record["doc"], "text": record["text"], "tokens": tokens}
    gold = {**base, "spans": gold_spans, "relations": gold_relations(gold_spans)}
    pred_spans = perturb(record["spans"], len(tokens), random.Random(f"{seed}:{record['id']}"))
    pred = {**base, "spans": pred_spans, "relations": predicted_relations(tokens, pred_spans)}
    return gold, pred


def main(source: str, out_dir: str, seed: int = 0, limit: Optional[int] = None) -> None:
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    counts = {"sentences": 0, "gold": 0, "predicted": 0}
    with (
        (out / "gold.jsonl").open("w", encoding="utf8") as g,
        (out / "predicted.jsonl").open("w", encoding="utf8") as p,
    ):
        for n, record in enumerate(records(Path(source))):
            if limit is not None and n >= limit:
                break
            gold, pred = make(record, seed)
            g.write(json.dumps(gold) + "\n")
            p.write(json.dumps(pred) + "\n")
            counts["sentences"] += 1
            counts["gold"] += len(gold["relations"])
            counts["predicted"] += len(pred["relations"])
    print(
        f"{counts['sentences']} sentences, {counts['gold']} gold relations, "
        f"{counts['predicted']} predicted relations -> {out}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("source", help="GUM JSON Lines (assets/gum/gum_*.jsonl)")
    parser.add_argument("out_dir")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--limit", type=int, default=None, help="only the first N sentences")
    args = parser.parse_args()
    main(args.source, args.out_dir, args.seed, args.limit)
