"""Write answers as an LLM prompted to list entities would, from a trained
pipeline's predictions on a test set: the worked example of mentions
without offsets (docs/mentions.md). No model is called and nothing is
downloaded: the answers are made from the pipeline's entities, as data.

Each document's answer is the pipeline's entities as strings with labels,
in one of the three shapes LLM answers take (taken in turn): a JSON list
of {"text", "label"} objects in a code fence after a line of prose, a JSON
list of [string, label] pairs, and a JSON object of label -> strings. On
top, with a fixed seed, the defects such answers have:

- a paraphrase (RATES["paraphrase"] of the mentions): "Ann Lee" as
  "Lee, Ann", a one-word string with an "s" glued on: not in the text;
- a wrong-case string (RATES["case"]): upper or lower case: found by
  normalized grounding;
- a repeated mention (RATES["repeat"]): listed twice, a duplicate when the
  text has it once;
- a hallucinated name (RATES["hallucinated"] of the documents): a person
  the text does not mention;
- a broken JSON answer (RATES["broken"] of the documents with entities):
  cut off in the middle, as when the model hits its token limit.

    python scripts/llm_answers.py training/ner/model-best corpus/wnut17-test.spacy corpus/wnut17-llm-answers.jsonl
"""

import json
import random
from pathlib import Path
from typing import Dict, List, Tuple

import spacy
import srsly
import typer
from spacy.tokens import DocBin

SEED = 0
RATES: Dict[str, float] = {"paraphrase": 0.05, "case": 0.05, "repeat": 0.03, "hallucinated": 0.03, "broken": 0.02}
NAMES = ("Maria Gonzalez", "Tom Becker", "Aiko Tanaka", "Samuel Okafor", "Lena Novak")
SHAPES = ("objects", "pairs", "by_label")


def paraphrase(string: str) -> str:
    words = string.split()
    if len(words) >= 2:
        return f"{words[-1]}, {' '.join(words[:-1])}"
    return string + "s"


def with_defects(mentions: List[Tuple[str, str]], rng: random.Random) -> List[Tuple[str, str]]:
    out = []
    for string, label in mentions:
        roll = rng.random()
        if roll < RATES["paraphrase"]:
            string = paraphrase(string)
        elif roll < RATES["paraphrase"] + RATES["case"]:
            string = string.upper() if string != string.upper() else string.lower()
        out.append((string, label))
        if rng.random() < RATES["repeat"]:
            out.append((string, label))
    if rng.random() < RATES["hallucinated"]:
        out.insert(rng.randrange(len(out) + 1), (rng.choice(NAMES), "person"))
    return out


def answer(mentions: List[Tuple[str, str]], shape: str) -> str:
    if shape == "objects":
        listed = json.dumps([{"text": s, "label": label} for s, label in mentions], ensure_ascii=False)
        return f"Here are the entities I found:\n```json\n{listed}\n```"
    if shape == "pairs":
        return json.dumps([[s, label] for s, label in mentions], ensure_ascii=False)
    by_label: Dict[str, List[str]] = {}
    for string, label in mentions:
        by_label.setdefault(label, []).append(string)
    return json.dumps(by_label, ensure_ascii=False)


def main(model: Path, corpus: Path, output: Path) -> None:
    nlp = spacy.load(model)
    docs = list(DocBin().from_disk(corpus).get_docs(nlp.vocab))
    rng = random.Random(SEED)
    records = []
    for k, predicted in enumerate(nlp.pipe(doc.text for doc in docs)):
        mentions = with_defects([(e.text, e.label_) for e in predicted.ents], rng)
        text = answer(mentions, SHAPES[k % len(SHAPES)])
        if mentions and rng.random() < RATES["broken"]:
            text = text[: len(text) // 2]
        records.append({"id": str(k), "text": predicted.text, "output": text})
    srsly.write_jsonl(output, records)
    print(f"Wrote {len(records)} answers to {output}")


if __name__ == "__main__":
    typer.run(main)
