"""Convert a WNUT-17 CoNLL file (token<TAB>IOB2 tag, blank line between
sentences) to spaCy's binary .spacy format, one Doc per sentence with the
entities in Doc.ents."""

import sys
from pathlib import Path
from typing import Iterator, List, Tuple

import spacy
import typer
from spacy.tokens import Doc, DocBin
from wasabi import msg

sys.path.insert(0, str(Path(__file__).resolve().parent))
from docbins import write_docbin  # noqa: E402


def read_conll(path: Path) -> Iterator[Tuple[List[str], List[str]]]:
    """Yield (words, tags) per sentence. Blank lines separate sentences."""
    words: List[str] = []
    tags: List[str] = []
    with path.open(encoding="utf8") as file_:
        for line_no, line in enumerate(file_, start=1):
            line = line.rstrip("\r\n")
            if not line.strip():
                if words:
                    yield words, tags
                words, tags = [], []
                continue
            fields = line.split("\t")
            if len(fields) != 2:
                msg.fail(f"Expected 'token<TAB>tag' on line {line_no}", path, exits=1)
            words.append(fields[0])
            tags.append(fields[1])
    if words:
        yield words, tags


def convert(
    input_path: Path = typer.Argument(..., help="CoNLL file (IOB2 tags)", exists=True, dir_okay=False),
    output_path: Path = typer.Argument(..., help="Output .spacy file"),
    lang: str = typer.Option("en", "--lang", "-l", help="Language of the blank vocab"),
) -> None:
    nlp = spacy.blank(lang)
    doc_bin = DocBin(attrs=["ENT_IOB", "ENT_TYPE"], store_user_data=False)
    n_ents = 0
    for words, tags in read_conll(input_path):
        doc = Doc(nlp.vocab, words=words, ents=tags)
        n_ents += len(doc.ents)
        doc_bin.add(doc)
    write_docbin(doc_bin, output_path, f"{n_ents} entities")


if __name__ == "__main__":
    typer.run(convert)
