"""Convert GUM entity mentions (JSON Lines, one sentence per line, token
offsets with exclusive ends) to spaCy's binary .spacy format, one Doc per
sentence with all mentions, nested ones included, in Doc.spans[spans_key].
Each Doc keeps its sentence id, source document and genre in user_data
(for breakdowns by genre and intervals resampled by document)."""

import sys
from pathlib import Path

import spacy
import srsly
import typer
from spacy.tokens import Doc, DocBin, Span
from wasabi import msg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docbins import write_docbin  # noqa: E402


def convert(
    input_path: Path = typer.Argument(..., help="GUM .jsonl file", exists=True, dir_okay=False),
    output_path: Path = typer.Argument(..., help="Output .spacy file"),
    spans_key: str = typer.Option("sc", "--spans-key", "-k", help="Span group to fill"),
    lang: str = typer.Option("en", "--lang", "-l", help="Language of the blank vocab"),
) -> None:
    nlp = spacy.blank(lang)
    doc_bin = DocBin(store_user_data=True)
    n_spans = 0
    for record in srsly.read_jsonl(input_path):
        doc = Doc(nlp.vocab, words=record["tokens"], spaces=record["spaces"])
        # The last token may carry a trailing space that the sentence text lacks
        if doc.text.rstrip() != record["text"]:
            msg.fail(f"Tokens do not reproduce the text of {record['id']}", input_path, exits=1)
        doc.spans[spans_key] = [Span(doc, span["start"], span["end"], label=span["label"]) for span in record["spans"]]
        n_spans += len(doc.spans[spans_key])
        doc.user_data.update({"id": record["id"], "doc": record["doc"], "genre": record["genre"]})
        doc_bin.add(doc)
    write_docbin(doc_bin, output_path, f"{n_spans} spans in doc.spans['{spans_key}']")


if __name__ == "__main__":
    typer.run(convert)
