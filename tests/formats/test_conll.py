"""The CoNLL reader (`spacy_spanf1.formats.conll`): sentences, tag columns and
modes, the pairing of two files, and one file with both tag columns."""

import pytest

from helpers import figures, load_corpus, write
from spacy_spanf1.api import compare_files
from spacy_spanf1.formats import InputError, SettingError
from spacy_spanf1.formats import read_conll as _read_conll
from spacy_spanf1.spans import Span


def read_conll(*args, **kwargs):
    return list(_read_conll(*args, **kwargs))


CONLL = """-DOCSTART- -X- O O

Ann NNP B-PER
Lee NNP I-PER
met VBD O
Bob NNP S-PER

-DOCSTART- -X- O O
Rome NNP S-LOC
\t
Paris NNP B-LOC
"""


def test_read_conll_sentences_and_docstart(tmp_path):
    docs = read_conll(write(tmp_path / "a.conll", CONLL))
    assert [d.tokens for d in docs] == [["Ann", "Lee", "met", "Bob"], ["Rome"], ["Paris"]]
    assert [d.line for d in docs] == [3, 9, 11]
    # conll mode: S- starts a chunk of its own
    assert docs[0].spans == [Span(0, 2, "PER"), Span(3, 4, "PER")]
    assert docs[2].spans == [Span(0, 1, "LOC")]


def test_read_conll_tag_column_and_strict_mode(tmp_path):
    path = write(tmp_path / "a.conll", "Ann B-PER x\nLee E-PER x\nBob S-PER x\nmet O x\n")
    docs = read_conll(path, tag_column=1, tag_mode="strict", tag_scheme="IOBES")
    assert docs[0].spans == [Span(0, 2, "PER"), Span(2, 3, "PER")]


def test_read_conll_strict_mode_drops_broken_chunks(tmp_path):
    path = write(tmp_path / "a.conll", "Ann I-PER\nLee I-PER\nmet O\nBob B-PER\n")
    assert read_conll(path)[0].spans == [Span(0, 2, "PER"), Span(3, 4, "PER")]
    strict = read_conll(path, tag_mode="strict", tag_scheme="IOB2")
    assert strict[0].spans == [Span(3, 4, "PER")]


@pytest.mark.parametrize(
    "text,options,message",
    [
        ("Ann B-PER\nLee\n", {}, r"a\.conll:2: expected a token and a tag column"),
        ("Ann B-PER\nLee X-PER\n", {"tag_mode": "strict", "tag_scheme": "IOB2"}, r"a\.conll:2: Invalid tag 'X-PER'"),
        (
            "Ann B-PER\n\nLee B-PER\n",
            {"tag_column": 5},
            r"a\.conll:1: the line has 2 columns; there is no tag column 5",
        ),
    ],
    ids=["one-column", "bad-tag", "no-column"],
)
def test_read_conll_errors_name_the_line(tmp_path, text, options, message):
    with pytest.raises(InputError, match=message):
        read_conll(write(tmp_path / "a.conll", text), **options)


@pytest.mark.parametrize(
    "options,param",
    [
        ({"tag_mode": "lenient"}, "tag_mode"),
        ({"tag_mode": "strict"}, "tag_scheme"),
        ({"tag_mode": "strict", "tag_scheme": "BIO"}, "tag_scheme"),
        ({"tag_scheme": "IOB2"}, "tag_scheme"),
    ],
    ids=["mode", "no-scheme", "bad-scheme", "scheme-without-strict"],
)
def test_read_conll_bad_options(tmp_path, options, param):
    with pytest.raises(SettingError) as info:
        read_conll(write(tmp_path / "a.conll", "a O\n"), **options)
    assert info.value.setting == param


def test_load_corpus_conll_token_mismatch(tmp_path):
    gold = write(tmp_path / "g.conll", "a O\nb O\n\nc O\nd B-X\ne O\n")
    pred = write(tmp_path / "p.conll", "a O\nb O\n\nc O\nD B-X\ne O\n")
    with pytest.raises(
        InputError, match=r"p\.conll:5: sentence 2 differs .* at token 1: gold has 'd', predicted has 'D'"
    ):
        load_corpus(gold, pred)
    short = write(tmp_path / "s.conll", "a O\nb O\n\nc O\nd B-X\n")
    with pytest.raises(InputError, match=r"at token 2: gold has 'e', predicted has the end of the sentence"):
        load_corpus(gold, short)


def conll_two_columns(tmp_path):
    """One file of token, gold tag and predicted tag, and the same as two
    files of token and tag."""
    text = "Ann B-PER B-PER\nLee I-PER O\nmet O O\nBob B-PER B-LOC\n\nRome B-LOC B-LOC\nis O B-X\n"
    rows = [line.split() for line in text.splitlines()]
    both = write(tmp_path / "both.conll", text)
    gold = write(tmp_path / "gold.conll", "".join(" ".join(row[:2]) + "\n" for row in rows))
    pred = write(tmp_path / "pred.conll", "".join(" ".join(row[::2]) + "\n" for row in rows))
    return both, gold, pred


def test_conll_two_columns_gives_the_two_file_figures(tmp_path):
    both, gold, pred = conll_two_columns(tmp_path)
    schemes = "strict,exact,partial,type,iou,overlap"
    # "is" is tagged B-X, a label the gold has not: each run warns of it
    with pytest.warns(UserWarning, match='the predicted label "X" \\(1 span\\) never occurs in the gold'):
        one = compare_files(both, schemes=schemes, gold_column=1, pred_column=2)
    with pytest.warns(UserWarning, match='predicted label "X"'):
        two = compare_files(gold, pred, schemes=schemes)
    assert figures(one.to_dict()) == figures(two.to_dict())
    assert one.results["strict"].counts == {"cor": 1, "inc": 2, "par": 0, "mis": 0, "spu": 1}
    with pytest.warns(UserWarning, match='predicted label "X"'):
        negative = compare_files(both, schemes=schemes, gold_column=-2, pred_column=-1)
    assert figures(negative.to_dict()) == figures(two.to_dict())
    with pytest.raises(SettingError) as info:
        compare_files(both, schemes="strict", gold_column=1)
    assert info.value.setting == "pred_column"
    with pytest.raises(SettingError) as info:
        compare_files(both, schemes="strict")
    assert info.value.setting == "pred_path"
