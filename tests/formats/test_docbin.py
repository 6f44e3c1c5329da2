"""The spaCy DocBin reader (`spacy_spanf1.formats.docbin`): entities or a
span group, tokenizations aligned, texts compared."""

import pytest
from spacy.tokens import Doc, SpanGroup
from spacy.tokens import Span as SpacySpan

from helpers import docbin, load_corpus, write
from spacy_spanf1.api import compare_files
from spacy_spanf1.formats import InputError
from spacy_spanf1.spans import Span


def test_load_corpus_spacy_aligns_tokenization(tmp_path, vocab):
    gold_doc = Doc(
        vocab, words=["New", "York", "is", "big"], spaces=[True, True, True, False], ents=["B-LOC", "I-LOC", "O", "O"]
    )
    pred_doc = Doc(
        vocab,
        words=["New", "Yo", "rk", "is", "big"],
        spaces=[True, False, True, True, False],
        ents=["B-LOC", "I-LOC", "I-LOC", "O", "O"],
    )
    missing = Doc(vocab, words=["no", "annotation"])
    gold = docbin(tmp_path / "g.spacy", [gold_doc, missing])
    pred = docbin(tmp_path / "p.spacy", [pred_doc, Doc(vocab, words=["no", "annotation"])])
    corpus = load_corpus(gold, pred)
    assert corpus.unit == "token" and corpus.skipped == ["doc 1"]
    assert corpus.pairs[0].gold == corpus.pairs[0].pred == [Span(0, 2, "LOC")]
    chars = load_corpus(gold, pred, unit="char")
    assert chars.pairs[0].pred == [Span(0, 8, "LOC")]
    assert chars.pairs[0].span_text(Span(0, 8, "LOC")) == "New York"


def test_load_corpus_spacy_span_groups(tmp_path, vocab):
    def doc(spans, key="sc"):
        d = Doc(vocab, words=["Ann", "Lee", "met", "Bob"])
        if key:
            d.spans[key] = SpanGroup(d, spans=[SpacySpan(d, s, e, label=label) for s, e, label in spans])
        return d

    gold = docbin(tmp_path / "g.spacy", [doc([(0, 2, "PER"), (0, 1, "NAME")]), doc([], key=None)])
    pred = docbin(tmp_path / "p.spacy", [doc([(0, 1, "NAME"), (3, 4, "PER")]), doc([(0, 1, "X")])])
    corpus = load_corpus(gold, pred, spans_key="sc")
    assert corpus.skipped == ["doc 1"]
    assert corpus.pairs[0].gold == [Span(0, 1, "NAME"), Span(0, 2, "PER")]
    assert corpus.pairs[0].pred == [Span(0, 1, "NAME"), Span(3, 4, "PER")]


def test_load_corpus_spacy_text_mismatch_and_bad_file(tmp_path, vocab):
    gold = docbin(tmp_path / "g.spacy", [Doc(vocab, words=["a", "b"])])
    pred = docbin(tmp_path / "p.spacy", [Doc(vocab, words=["a", "c"])])
    with pytest.raises(
        InputError,
        match=r"p\.spacy: the text of doc 0 differs from doc 0 of .* at character 2: gold 'a b ', predicted 'a c '",
    ):
        load_corpus(gold, pred)
    bad = write(tmp_path / "bad.spacy", "not a docbin")
    with pytest.raises(InputError, match=r"bad\.spacy: can't read it as a spaCy DocBin"):
        load_corpus(gold, bad)


def test_spans_key_no_gold_document_has(tmp_path, vocab):
    doc = Doc(vocab, words=["Ann", "met", "Bob"])
    doc.spans["sc"] = SpanGroup(doc, spans=[SpacySpan(doc, 0, 1, label="PER")])
    gold = docbin(tmp_path / "g.spacy", [doc])
    with pytest.raises(
        InputError, match=r"no gold document in .* has the span group 'ents'. Span keys found: sc"
    ) as info:
        compare_files(gold, gold, schemes="strict", spans_key="ents")
    assert info.value.setting == "spans_key"
