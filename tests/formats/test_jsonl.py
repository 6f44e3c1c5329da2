"""The JSONL reader (`spacy_spanf1.formats.jsonl`) and the pairing of two
JSONL files, in-process. The command line runs them in cli/test_cli.py."""

import json

import pytest

from helpers import jsonl, load_corpus, write
from spacy_spanf1.api import compare_files
from spacy_spanf1.formats import InputError
from spacy_spanf1.formats import read_jsonl as _read_jsonl
from spacy_spanf1.spans import Span


def read_jsonl(*args, **kwargs):
    return list(_read_jsonl(*args, **kwargs))


# --------------------------------------------------------------------------
# Reading
# --------------------------------------------------------------------------


def test_read_jsonl(tmp_path):
    path = write(
        tmp_path / "a.jsonl",
        jsonl(
            {
                "text": "Ann met Bob",
                "spans": [
                    {"start": 8, "end": 11, "label": "PER"},
                    {"start": 0, "end": 3, "label": "PER"},
                    {"start": 0, "end": 3, "label": "PER"},
                ],
            },
            {"text": "nothing", "spans": []},
        )
        + "\n"
        + jsonl({"text": "no annotation", "meta": {"x": 1}}),
    )
    docs = read_jsonl(path)
    assert [d.name for d in docs] == ["line 1", "line 2", "line 4"]
    assert docs[0].spans == [Span(0, 3, "PER"), Span(8, 11, "PER")]  # sorted, once
    assert docs[1].spans == []
    assert docs[2].spans is None  # no "spans": missing annotation


def test_read_jsonl_keeps_line_separators_inside_strings(tmp_path):
    text = "a\u2028b c"
    path = write(tmp_path / "a.jsonl", json.dumps({"text": text, "spans": []}, ensure_ascii=False) + "\n")
    assert read_jsonl(path)[0].text == text


@pytest.mark.parametrize(
    "line,message",
    [
        ('{"text": "abc", "spans": [}', r"a\.jsonl:2: invalid JSON"),
        ('["abc"]', r"a\.jsonl:2: expected a JSON object"),
        ('{"spans": []}', r'a\.jsonl:2: the record has no "text"'),
        ('{"text": "abc", "spans": {"start": 0}}', r'a\.jsonl:2: "spans" is a dict'),
        ('{"text": "abc", "spans": [{"start": 0, "end": 9, "label": "X"}]}', r"a\.jsonl:2: span 0 has start=0, end=9"),
        ('{"text": "abc", "spans": [{"start": 2, "end": 2, "label": "X"}]}', r"a\.jsonl:2: span 0 has start=2, end=2"),
        ('{"text": "abc", "spans": [{"start": 0, "end": 1}]}', r"a\.jsonl:2: span 0 lacks 'label'"),
        ('{"text": "abc", "spans": [{"start": "0", "end": 1, "label": "X"}]}', r"a\.jsonl:2: span 0 has non-integer"),
        ('{"text": "abc", "spans": [{"start": 0, "end": 1, "label": ""}]}', r"a\.jsonl:2: span 0 has the label ''"),
    ],
    ids=[
        "json",
        "not-object",
        "no-text",
        "spans-not-list",
        "out-of-text",
        "empty",
        "no-label",
        "str-offset",
        "empty-label",
    ],
)
def test_read_jsonl_errors_name_the_line(tmp_path, line, message):
    path = write(tmp_path / "a.jsonl", jsonl({"text": "ok", "spans": []}) + line + "\n")
    with pytest.raises(InputError, match=message):
        read_jsonl(path)


def test_read_text_not_utf8(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'{"text": "ok", "spans": []}\n{"text": "\xff"}\n')
    with pytest.raises(InputError, match=r"a\.jsonl:2: not UTF-8 text \(byte 0xff\)"):
        read_jsonl(path)


def test_bad_span_after_blank_lines_names_its_line(tmp_path):
    bad = {"text": "abc", "spans": [{"start": 0, "end": 1, "label": "X"}, {"start": 1, "end": 7, "label": "X"}]}
    path = write(tmp_path / "a.jsonl", "\n" + jsonl({"text": "ok", "spans": []}) + "\n  \n" + json.dumps(bad) + "\n")
    with pytest.raises(InputError, match=r"a\.jsonl:5: span 1 has start=1, end=7"):
        read_jsonl(path)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InputError, match="nope.jsonl: file not found"):
        read_jsonl(tmp_path / "nope.jsonl")
    (tmp_path / "d.jsonl").mkdir()
    with pytest.raises(InputError, match=r"d\.jsonl: not a file"):
        read_jsonl(tmp_path / "d.jsonl")


# --------------------------------------------------------------------------
# Pairing
# --------------------------------------------------------------------------


def test_load_corpus_jsonl_skips_gold_without_spans(tmp_path):
    gold = write(
        tmp_path / "g.jsonl",
        jsonl(
            {"text": "Ann met Bob", "spans": [{"start": 0, "end": 3, "label": "PER"}]},
            {"text": "no annotation"},
        ),
    )
    pred = write(
        tmp_path / "p.jsonl",
        jsonl(
            {"text": "Ann met Bob", "spans": [{"start": 8, "end": 11, "label": "PER"}]},
            {"text": "no annotation", "spans": [{"start": 0, "end": 2, "label": "X"}]},
        ),
    )
    corpus = load_corpus(gold, pred)
    assert corpus.unit == "char" and corpus.n_docs == 2 and corpus.skipped == ["line 2"]
    assert [(p.gold, p.pred) for p in corpus.pairs] == [([Span(0, 3, "PER")], [Span(8, 11, "PER")])]
    assert corpus.pairs[0].span_text(Span(8, 11, "PER")) == "Bob"


def test_load_corpus_jsonl_text_mismatch(tmp_path):
    gold = write(tmp_path / "g.jsonl", jsonl({"text": "same", "spans": []}, {"text": "Ann met Bob", "spans": []}))
    pred = write(tmp_path / "p.jsonl", jsonl({"text": "same", "spans": []}, {"text": "Ann met Rob", "spans": []}))
    with pytest.raises(
        InputError,
        match=r"p\.jsonl:2: the text of record 2 differs from line 2 of .*g\.jsonl at character 8: gold 'Ann met Bob', predicted 'Ann met Rob'",
    ):
        load_corpus(gold, pred)


def test_load_corpus_jsonl_token_unit(tmp_path):
    record = {
        "text": "New York's mayor",
        "tokens": ["New", "York", "'s", "mayor"],
        "spans": [{"start": 0, "end": 2, "label": "GPE"}, {"start": 0, "end": 4, "label": "PER"}],
    }
    prodigy = dict(
        record,
        tokens=[
            {"text": t, "start": s, "end": e, "id": i}
            for i, (t, s, e) in enumerate([("New", 0, 3), ("York", 4, 8), ("'s", 8, 10), ("mayor", 11, 16)])
        ],
        spans=[{"start": 3, "end": 4, "label": "PER"}],
    )
    gold = write(tmp_path / "g.jsonl", jsonl(record))
    pred = write(tmp_path / "p.jsonl", jsonl(prodigy))
    corpus = load_corpus(gold, pred, unit="token")
    pair = corpus.pairs[0]
    assert corpus.unit == "token"
    assert pair.gold == [Span(0, 2, "GPE"), Span(0, 4, "PER")] and pair.pred == [Span(3, 4, "PER")]
    assert pair.offsets == [(0, 3), (4, 8), (8, 10), (11, 16)]
    assert pair.span_text(Span(0, 2, "GPE")) == "New York"
    # Without --unit token the same offsets are characters: "New York" would be "Ne".
    assert load_corpus(gold, pred).pairs[0].gold[0] == Span(0, 2, "GPE")
    other = write(tmp_path / "o.jsonl", jsonl(dict(record, tokens=["New", "York's", "mayor"], spans=[])))
    with pytest.raises(
        InputError,
        match=r"o\.jsonl:1: the tokens of record 1 differ .* at token 1: gold 'York' at characters 4-8, predicted \"York's\" at characters 4-10",
    ):
        load_corpus(gold, other, unit="token")
    bad = write(tmp_path / "b.jsonl", jsonl({"text": "abc", "spans": []}))
    with pytest.raises(InputError, match=r'b\.jsonl:1: unit token needs a "tokens" list'):
        load_corpus(bad, bad, unit="token")
    wrong = write(tmp_path / "w.jsonl", jsonl({"text": "abc", "tokens": ["abc", "d"], "spans": []}))
    with pytest.raises(InputError, match=r"w\.jsonl:1: token 1 \('d'\) is not in the text after character 3"):
        load_corpus(wrong, wrong, unit="token")
    far = write(
        tmp_path / "f.jsonl",
        jsonl({"text": "a b", "tokens": ["a", "b"], "spans": [{"start": 1, "end": 3, "label": "X"}]}),
    )
    with pytest.raises(
        InputError, match=r"f\.jsonl:1: span 0 has start=1, end=3; token offsets need 0 <= start < end <= 2"
    ):
        load_corpus(far, far, unit="token")


def test_jsonl_spans_under_another_field(tmp_path):
    gold = write(tmp_path / "g.jsonl", jsonl({"text": "Ann", "spans": [{"start": 0, "end": 3, "label": "PER"}]}))
    pred = write(tmp_path / "p.jsonl", jsonl({"text": "Ann", "entities": [[0, 3, "PER"]]}))
    with pytest.raises(
        InputError, match=r"p\.jsonl:1: the record has no \"spans\" but has \"entities\".*'format' doccano"
    ):
        compare_files(gold, pred, schemes="strict")
