"""Write simulated annotators of GUM's entity mentions, for the agreement
step of the project workflow. GUM is annotated once; this script makes
annotators from its gold by seeded perturbations, so that the agreement
figures of `spacy-spanf1 agree` can be shown on real text. These are not
real annotators, and the docs say so.

Each annotator starts from the gold mentions of a sentence and, for each
mention independently, with the rates of RATES (the last annotator works
at twice the rates, as the least careful annotator of a team does):

- drops it ("drop");
- shifts one of its boundaries by one token, inward or outward ("shift");
- swaps its label for a confusable one (CONFUSABLE: abstract/event,
  object/substance, place/organization, person/organization,
  animal/plant) ("swap");

and adds a mention of one to three tokens that the gold does not have, at
the rate "add" per gold mention. The last annotator also leaves out a
share of the sentences ("skip"), so that each pair shares a different set.
The rates are chosen so that the pairwise strict F of the careful
annotators comes out near the pairwise F1 of 0.95 that Brandsen et al.
(LREC 2020, archaeology NER, five annotators) report.

Each annotator is a JSONL file in the layout of the GUM asset (text,
tokens, token offsets "start"/"end"), which `--format jsonl --unit token`
reads.

    python scripts/simulate_annotators.py assets/gum/gum_test.jsonl corpus/annotators
"""

import random
from pathlib import Path
from typing import Any, Dict, List, Optional

import srsly
import typer

SEED = 0
NAMES = ("ann", "ben", "cat")
RATES: Dict[str, float] = {"drop": 0.01, "shift": 0.01, "swap": 0.005, "add": 0.01, "skip": 0.0}
#: The last annotator's rates: twice the others', and a tenth of the sentences left out.
SLOPPY: Dict[str, float] = {**{k: 2 * v for k, v in RATES.items()}, "skip": 0.1}
PAIRS = (
    ("abstract", "event"),
    ("object", "substance"),
    ("place", "organization"),
    ("person", "organization"),
    ("animal", "plant"),
)
CONFUSABLE: Dict[str, List[str]] = {}
for a, b in PAIRS:
    CONFUSABLE.setdefault(a, []).append(b)
    CONFUSABLE.setdefault(b, []).append(a)


def shifted(start: int, end: int, n_tokens: int, rng: random.Random) -> Optional[tuple]:
    """One boundary moved by one token, inside the sentence and non-empty;
    None when no such move exists."""
    moves = [(start - 1, end), (start + 1, end), (start, end - 1), (start, end + 1)]
    moves = [(s, e) for s, e in moves if 0 <= s < e <= n_tokens]
    return rng.choice(moves) if moves else None


def annotate(
    record: Dict[str, Any], rates: Dict[str, float], labels: List[str], rng: random.Random
) -> List[Dict[str, Any]]:
    n_tokens = len(record["tokens"])
    spans = []
    for span in record["spans"]:
        start, end, label = span["start"], span["end"], span["label"]
        if rng.random() < rates["drop"]:
            continue
        if rng.random() < rates["shift"]:
            start, end = shifted(start, end, n_tokens, rng) or (start, end)
        if rng.random() < rates["swap"] and label in CONFUSABLE:
            label = rng.choice(CONFUSABLE[label])
        spans.append({"start": start, "end": end, "label": label})
        if rng.random() < rates["add"] and n_tokens:
            first = rng.randrange(n_tokens)
            spans.append({"start": first, "end": min(n_tokens, first + rng.randint(1, 3)), "label": rng.choice(labels)})
    unique = {(s["start"], s["end"], s["label"]): s for s in spans}
    return [unique[key] for key in sorted(unique)]


def main(gold: Path, output: Path) -> None:
    records = list(srsly.read_jsonl(gold))
    labels = sorted({span["label"] for record in records for span in record["spans"]})
    output.mkdir(parents=True, exist_ok=True)
    for k, name in enumerate(NAMES):
        rates = SLOPPY if k == len(NAMES) - 1 else RATES
        rng = random.Random(SEED + k)
        lines = []
        for record in records:
            if rng.random() < rates["skip"]:
                continue
            kept = {key: record[key] for key in ("id", "doc", "genre", "text", "tokens")}
            lines.append({**kept, "spans": annotate(record, rates, labels, rng)})
        srsly.write_jsonl(output / f"{name}.jsonl", lines)
        print(f"{name}: {len(lines)} of {len(records)} sentences, {sum(len(r['spans']) for r in lines)} mentions")


if __name__ == "__main__":
    typer.run(main)
