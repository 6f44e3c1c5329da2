"""The reference docs of a sweep read with srsly's decoders looked up once:
the same docs and span groups as DocBin reads them, and srsly's lookup is
its own again after (also when reading fails)."""

import pytest
import spacy
import srsly
from spacy.tokens import DocBin, Span

from spacy_spanf1.exceptions import InputError
from spacy_spanf1.sweeps.pipeline import read_references


@pytest.fixture(scope="module")
def en_nlp():
    return spacy.blank("en")


def spans_of(docs):
    return [
        (doc.text, {key: [(s.start, s.end, s.label_) for s in group] for key, group in doc.spans.items()})
        for doc in docs
    ]


def test_the_same_docs_as_docbin_reads(tmp_path, en_nlp):
    docs = []
    for i, text in enumerate(["A cat sat on the mat .", "Dogs bark at night .", "No spans here ."]):
        doc = en_nlp.make_doc(text)
        if i < 2:
            doc.spans["sc"] = [Span(doc, 0, 2, label="X"), Span(doc, 1, 3, label="Y")]
            doc.spans["other"] = [Span(doc, 2, 3, label="Z")]
        docs.append(doc)
    path = tmp_path / "refs.spacy"
    DocBin(docs=docs).to_disk(path)
    lookup = srsly.msgpack.msgpack_decoders.get_all
    read = read_references(path, en_nlp.vocab)
    assert spans_of(read) == spans_of(DocBin().from_disk(path).get_docs(en_nlp.vocab)) == spans_of(docs)
    assert "get_all" not in vars(srsly.msgpack.msgpack_decoders)
    assert srsly.msgpack.msgpack_decoders.get_all == lookup


def test_the_lookup_is_restored_when_reading_fails(tmp_path, en_nlp):
    path = tmp_path / "bad.spacy"
    path.write_bytes(b"not a docbin")
    with pytest.raises(InputError):
        read_references(path, en_nlp.vocab)
    assert "get_all" not in vars(srsly.msgpack.msgpack_decoders)
