"""Scores read from spaCy span groups (spancat's attrs["scores"])."""

import numpy
import pytest
from spacy.tokens import Doc, SpanGroup
from spacy.vocab import Vocab

from spacy_spanf1 import InputError, sweep


@pytest.fixture(scope="module")
def vocab():
    return Vocab()


def test_span_group_scores_are_read(vocab):
    doc = Doc(vocab, words=["a", "b", "c", "d"])
    gold = SpanGroup(doc, spans=[doc.char_span(0, 3, label="A")])  # tokens 0-2
    pred = SpanGroup(
        doc,
        spans=[doc.char_span(0, 3, label="A"), doc.char_span(4, 5, label="B")],
        attrs={"scores": numpy.array([0.8, 0.3], dtype="float32")},
    )
    with pytest.warns(UserWarning, match='the predicted label "B"'):
        result = sweep([gold], [pred], schemes=["strict"])["strict"]
    assert result.thresholds.tolist() == pytest.approx([0.3, 0.8])
    # at 0.8 the one prediction is right (P 1, R 1); at 0.3 P 1/2, R 1: F 2/3
    assert result.f1.tolist() == [pytest.approx(2 / 3), 1.0]


def test_a_span_group_without_scores_is_named(vocab):
    doc = Doc(vocab, words=["a", "b"])
    pred = SpanGroup(doc, spans=[doc.char_span(0, 1, label="A")])
    with pytest.raises(InputError, match=r"Predicted document 0 is a SpanGroup without attrs\['scores'\]"):
        sweep([[(0, 1, "A")]], [pred], schemes=["strict"])


def test_the_function_is_exported():
    import spacy_spanf1
    import spacy_spanf1.sweeps  # noqa: F401  the package does not hide the function

    assert spacy_spanf1.sweep is sweep and callable(spacy_spanf1.sweep)
