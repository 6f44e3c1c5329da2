"""Run a pipeline over a .spacy corpus and write its entities (Doc.ents) as
JSON Lines, one record per document in the corpus's order:
`{"text", "spans": [{"start", "end", "label"}], "genre"?}`, character
offsets into the document's text.

    python scripts/ents_to_jsonl.py training/ner/model-best corpus/gum-test.spacy corpus/gum-test-ner.jsonl

The pipeline runs on the corpus's own tokens (a Doc built from its words
and spaces, as spaCy's Corpus does for documents it cannot re-tokenize), so
every entity starts and ends on a gold token boundary and `compare
--unit token` places it on the gold tokens unchanged. This is how an NER
pipeline (flat Doc.ents) is scored against a corpus whose gold is in a span
group (GUM's nested mentions in Doc.spans["sc"]): `--spans-key` names one
group for both sides of `evaluate`, so the predictions are written out and
`compare` reads the gold's group and this file's spans. The texts are the
gold's, so `compare` pairs the records with the documents in order and
checks that each text is the same.
"""

from pathlib import Path

import spacy
import srsly
import typer
from spacy.tokens import Doc, DocBin


def main(
    model: Path = typer.Argument(..., help="Pipeline directory or package name"),
    corpus: Path = typer.Argument(..., help=".spacy corpus to run it over", exists=True, dir_okay=False),
    output: Path = typer.Argument(..., help="JSON Lines file to write"),
) -> None:
    nlp = spacy.load(model)
    golds = list(DocBin().from_disk(corpus).get_docs(nlp.vocab))
    inputs = [Doc(nlp.vocab, words=[t.text for t in doc], spaces=[bool(t.whitespace_) for t in doc]) for doc in golds]
    records = []
    n_ents = 0
    for gold, predicted in zip(golds, nlp.pipe(inputs)):
        if predicted.text != gold.text:  # cannot happen with the gold's words and spaces; say so if it does
            raise SystemExit(f"{corpus}: the pipeline changed the text of document {len(records)}")
        spans = [{"start": e.start_char, "end": e.end_char, "label": e.label_} for e in predicted.ents]
        n_ents += len(spans)
        record = {"text": predicted.text, "spans": spans}
        if "genre" in gold.user_data:
            record["genre"] = gold.user_data["genre"]
        records.append(record)
    output.parent.mkdir(parents=True, exist_ok=True)
    srsly.write_jsonl(output, records)
    print(f"Wrote {len(records)} documents with {n_ents} entities of {model} to {output}")


if __name__ == "__main__":
    typer.run(main)
