"""The Kaggle CSV reader (`spacy_spanf1.formats.kaggle`, Feedback Prize
submissions): rows by id, errors naming the line, ids paired in any order."""

import pytest

from helpers import load_corpus, write
from spacy_spanf1.formats import InputError, read_kaggle
from spacy_spanf1.spans import Span

#: The header of a Kaggle submission: a document id, a class, word indices.
HEADER = "id,class,predictionstring\n"


def test_read_kaggle(tmp_path):
    text = "\ufeffid,discourse_id,discourse_type,predictionstring\nB,1,Lead,0 1 2\nA,2,Claim,5 6\nB,3,Claim,4 3\nB,4,Lead,2 1 0\n"
    docs = read_kaggle(write(tmp_path / "a.csv", text))
    assert list(docs) == ["B", "A"]  # order of first appearance
    assert docs["B"].spans == [Span(0, 3, "Lead"), Span(3, 5, "Claim")]  # duplicate row once
    assert docs["A"].spans == [Span(5, 7, "Claim")]
    assert docs["A"].line == 3


@pytest.mark.parametrize(
    "text,message",
    [
        ("", r"a\.csv: empty file"),
        ("id,label,predictionstring\nA,X,1\n", r"a\.csv:1: the header has no column 'class' or 'discourse_type'"),
        (HEADER + "A,X,1\nA,X\n", r"a\.csv:3: the row has 2 fields, the header has 3"),
        (HEADER + "A,X,1 b 2\n", r"a\.csv:2: predictionstring holds 'b'"),
        (HEADER + "A,X,1 3\n", r"a\.csv:2: predictionstring '1 3' is not one contiguous run"),
        (HEADER + "A,X,\n", r"a\.csv:2: empty predictionstring"),
        (HEADER + "A,X,-1 0\n", r"a\.csv:2: predictionstring holds the negative word index -1"),
        (HEADER + ",X,1\n", r"a\.csv:2: empty id"),
        (HEADER + 'A,"X,1\n', r"a\.csv:2: the row has 2 fields"),
    ],
    ids=["empty", "no-class", "fields", "index", "gap", "empty-ps", "negative", "empty-id", "open-quote"],
)
def test_read_kaggle_errors_name_the_line(tmp_path, text, message):
    with pytest.raises(InputError, match=message):
        read_kaggle(write(tmp_path / "a.csv", text))


def test_load_corpus_kaggle_ids_any_order(tmp_path):
    gold = write(tmp_path / "g.csv", HEADER + "A,X,0 1\nB,Y,3\n")
    pred = write(tmp_path / "p.csv", HEADER + "B,Y,3\nA,X,1\n")
    corpus = load_corpus(gold, pred)
    assert [p.name for p in corpus.pairs] == ["id 'A'", "id 'B'"]
    assert corpus.pairs[0].pred == [Span(1, 2, "X")]
    unknown = write(tmp_path / "u.csv", HEADER + "A,X,1\nC,Y,3\n")
    with pytest.raises(InputError, match=r"u\.csv:3: id 'C' is not in .*g\.csv"):
        load_corpus(gold, unknown)
