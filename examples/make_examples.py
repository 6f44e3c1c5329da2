"""Write the files that the examples of README.md and docs/ read.

    python examples/make_examples.py [OUT]

OUT defaults to this directory. Every file in examples/ except this script is
written here, so the committed files are exactly what it writes
(tests/test_docs.py checks that). Two short documents, scored in the docs:

    gold: "Ann Lee flew to New York."     PER "Ann Lee", LOC "New York"
          "Acme hired Bo Chen in Paris."  ORG "Acme", PER "Bo Chen", LOC "Paris"
    pred: "Ann" PER, "New York" ORG; "Bo Chen" PER, "Paris" LOC, "in" LOC

ner-model/ is a rule-based pipeline (an entity_ruler named "ner", no
training) and corpus.spacy the gold documents as a DocBin, so that
`spacy-spanf1 evaluate`, `spacy evaluate` and `nlp.evaluate` have a pipeline
and a corpus to run on.
"""
import json
import sys
from pathlib import Path

TEXTS = ("Ann Lee flew to New York.", "Acme hired Bo Chen in Paris.")
#: The spans of each document as (start, end, label), per side.
SPANS = {
    "gold": ([(0, 7, "PER"), (16, 24, "LOC")], [(0, 4, "ORG"), (11, 18, "PER"), (22, 27, "LOC")]),
    "pred": ([(0, 3, "PER"), (16, 24, "ORG")], [(11, 18, "PER"), (22, 27, "LOC"), (19, 21, "LOC")]),
}


def records(side):
    return [
        {"text": text, "spans": [{"start": s, "end": e, "label": label} for s, e, label in spans]}
        for text, spans in zip(TEXTS, SPANS[side])
    ]


GOLD, PRED = records("gold"), records("pred")
# The rules of ner-model: they predict PER "Ann", ORG "New York", PER "Bo Chen", LOC "Paris".
PATTERNS = [
    {"label": "PER", "pattern": "Ann"},
    {"label": "ORG", "pattern": [{"LOWER": "new"}, {"LOWER": "york"}]},
    {"label": "PER", "pattern": [{"LOWER": "bo"}, {"LOWER": "chen"}]},
    {"label": "LOC", "pattern": "Paris"},
]
# conlleval's layout: token, gold tag, predicted tag
DEV_CONLL = "Ann B-PER B-PER\nLee I-PER O\nflew O O\n\nAcme B-ORG B-ORG\nhired O O\n"

ADA = "Ada Lovelace met Charles Babbage in London."


def jsonl(records):
    return "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)


def text_files():
    """{relative path: text} of every example file but the pipeline and the DocBin."""
    files = {
        "gold.jsonl": jsonl(GOLD),
        "pred.jsonl": jsonl(PRED),
        "dev.conll": DEV_CONLL,
    }
    # scored predictions of gold.jsonl, a "score" per span, for `spacy-spanf1 sweep`
    scored = [
        [(0, 7, "PER", 0.95), (16, 24, "ORG", 0.55), (16, 24, "LOC", 0.4)],
        [(0, 4, "ORG", 0.85), (11, 18, "PER", 0.9), (19, 21, "LOC", 0.3), (22, 27, "LOC", 0.7)],
    ]
    files["scored.jsonl"] = jsonl([
        {"text": gold["text"], "spans": [{"start": s, "end": e, "label": label, "score": score}
                                         for s, e, label, score in doc]}
        for gold, doc in zip(GOLD, scored)
    ])
    # shards: the same two documents, one file each, paired by file name
    for i, (gold, pred) in enumerate(zip(GOLD, PRED), 1):
        files[f"shards/gold/part-{i}.jsonl"] = jsonl([gold])
        files[f"shards/pred/part-{i}.jsonl"] = jsonl([pred])
    # brat: NAME.txt + NAME.ann, one directory a side
    files["brat/gold/doc1.txt"] = ADA + "\n"
    files["brat/gold/doc1.ann"] = (
        "T1\tPER 0 12\tAda Lovelace\nT2\tPER 17 32\tCharles Babbage\nT3\tLOC 36 42\tLondon\n"
        "R1\tKnows Arg1:T1 Arg2:T2\n"
    )
    files["brat/pred/doc1.txt"] = ADA + "\n"
    files["brat/pred/doc1.ann"] = "T1\tPER 0 12\tAda Lovelace\nT2\tPER 25 32\tBabbage\nT3\tORG 36 42\tLondon\n"
    # Label Studio: one export holds the annotations (gold) and the predictions
    files["labelstudio.json"] = json.dumps([{
        "id": 17, "data": {"text": ADA, "genre": "news"},
        "annotations": [{"completed_by": 1, "result": [
            {"type": "labels", "value": {"start": 0, "end": 12, "text": "Ada Lovelace", "labels": ["PER"]}}]}],
        "predictions": [{"model_version": "v1", "result": [
            {"type": "labels", "value": {"start": 0, "end": 3, "text": "Ada", "labels": ["PER"]}}]}],
    }], indent=2) + "\n"
    # doccano: {"text", "label": [[start, end, label], ...]} a line
    files["doccano/gold.jsonl"] = jsonl([{"id": 1, "text": ADA, "label": [[0, 12, "PER"], [36, 42, "LOC"]]}])
    files["doccano/pred.jsonl"] = jsonl([{"id": 1, "text": ADA, "label": [[0, 12, "PER"], [36, 42, "ORG"]]}])
    # Prodigy: what `prodigy db-out` writes; token_end is inclusive
    text = "Ada Lovelace met Charles Babbage."
    tokens = [{"text": t, "start": s, "end": s + len(t), "id": i}
              for i, (t, s) in enumerate([("Ada", 0), ("Lovelace", 4), ("met", 13), ("Charles", 17),
                                          ("Babbage", 25), (".", 32)])]
    files["prodigy/gold.jsonl"] = jsonl([{
        "text": text, "_input_hash": 11, "answer": "accept",
        "spans": [{"start": 0, "end": 12, "token_start": 0, "token_end": 1, "label": "PER"}],
        "tokens": tokens}])
    files["prodigy/pred.jsonl"] = jsonl([{
        "text": text, "_input_hash": 11,
        "spans": [{"start": 0, "end": 12, "token_start": 0, "token_end": 1, "label": "PER"},
                  {"start": 25, "end": 32, "token_start": 4, "token_end": 4, "label": "PER"}],
        "tokens": tokens}])
    # Hugging Face tags: what Dataset.to_json writes, ids named by dataset_info.json
    words = ["Ada", "Lovelace", "visited", "London", "."]
    files["tags/gold.jsonl"] = jsonl([{"id": "0", "tokens": words, "ner_tags": [1, 2, 0, 3, 0]}])
    files["tags/pred.jsonl"] = jsonl([{"id": "0", "tokens": words, "ner_tags": [1, 0, 0, 3, 0]}])
    # mentions: an LLM's answers for gold.jsonl, without offsets: a raw answer in a code
    # fence (one string in another case), a mentions list with a repeat and a name not in the text
    files["mentions.jsonl"] = jsonl([
        {"id": "1", "text": GOLD[0]["text"],
         "output": '```json\n[{"text": "Ann Lee", "label": "PER"}, {"text": "new york", "label": "LOC"}]\n```'},
        {"id": "2", "text": GOLD[1]["text"], "mentions": [
            {"text": "Bo Chen", "label": "PER"}, {"text": "Bo Chen", "label": "PER"},
            {"text": "Paris", "label": "LOC"}, {"text": "Berlin", "label": "LOC"}]},
    ])
    files["tags/dataset_info.json"] = json.dumps({"features": {
        "id": {"dtype": "string", "_type": "Value"},
        "tokens": {"feature": {"dtype": "string", "_type": "Value"}, "_type": "Sequence"},
        "ner_tags": {"feature": {"names": ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"], "_type": "ClassLabel"},
                     "_type": "Sequence"},
    }}, indent=2) + "\n"
    return files


def write_pipeline(out):
    """ner-model/ (the rules above) and corpus.spacy (the gold documents)."""
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler", name="ner")
    ruler.add_patterns(PATTERNS)
    nlp.to_disk(out / "ner-model")
    docs = []
    for record in GOLD:
        doc = nlp.make_doc(record["text"])
        doc.ents = [doc.char_span(s["start"], s["end"], label=s["label"]) for s in record["spans"]]
        docs.append(doc)
    DocBin(docs=docs).to_disk(out / "corpus.spacy")


def main(out=Path(__file__).parent):
    out = Path(out)
    for name, text in text_files().items():
        path = out / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8", newline="\n")
    write_pipeline(out)


if __name__ == "__main__":
    main(*sys.argv[1:2])
