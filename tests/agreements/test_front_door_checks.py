"""The Python doors of agreement and sweeps check their input as the
command line does: the same annotator's file given twice, bad labels,
spans and scores are a ValueError (InputError, SettingError) naming the
document, the annotator or the setting, and what is valid; numpy integers
are integers."""

import json
import os

import numpy
import pytest

from spacy_spanf1 import InputError, SettingError, agreement, consensus, sweep
from spacy_spanf1.api import agree_files

RECORDS = [{"text": "Ada met Bob", "spans": [{"start": 0, "end": 3, "label": "PER"}]}]
GOOD = [[(0, 3, "PER")], [(4, 7, "LOC")]]


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


@pytest.mark.parametrize("second", ["same", "relative", "absolute"])
def test_agree_files_refuses_one_file_given_twice(tmp_path, second, monkeypatch):
    # The same file twice was one annotator scored against itself (F 100) or,
    # written alike, an error about one annotator.
    monkeypatch.chdir(tmp_path)
    write_jsonl(tmp_path / "a.jsonl", RECORDS)
    write_jsonl(tmp_path / "b.jsonl", RECORDS)
    other = {
        "same": "a.jsonl",
        "relative": os.path.join("..", tmp_path.name, "a.jsonl"),
        "absolute": str(tmp_path / "a.jsonl"),
    }[second]
    with pytest.raises(SettingError, match="'paths' gives the file 'a.jsonl' twice") as err:
        agree_files(["a.jsonl", "b.jsonl", other], schemes="strict")
    assert err.value.setting == "paths"
    if second != "same":
        assert f"(as 'a.jsonl' and '{other}')" in str(err.value)


def test_agree_files_takes_two_files_of_the_same_name_in_two_folders(tmp_path):
    paths = []
    for folder in ("one", "two"):
        (tmp_path / folder).mkdir()
        paths.append(write_jsonl(tmp_path / folder / "a.jsonl", RECORDS))
    assert agree_files(paths, schemes="strict").mean_f == {"strict": 1.0}


@pytest.mark.parametrize("label", [None, 5])
def test_a_label_that_is_not_a_string(label):
    bad = [[(0, 3, label)], [(4, 7, "LOC")]]
    message = (
        f"Span 0 of annotator 'b' document 0 has a label of type {type(label).__name__} ({label!r}). Labels are strings"
    )
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)")):
        agreement({"a": GOOD, "b": bad}, schemes="strict")
    with pytest.raises(InputError, match="annotator 'b' document 0 has a label of type"):
        consensus({"a": GOOD, "b": bad})
    with pytest.raises(ValueError, match="Span 0 of predicted document 0 has a label of type"):
        sweep([[(0, 3, "PER")]], [[(0, 3, label, 0.5)]], schemes="strict")
    with pytest.raises(ValueError, match="Span 0 of gold document 0 has a label of type"):
        sweep([[(0, 3, label)]], [[(0, 3, "PER", 0.5)]], schemes="strict")


@pytest.mark.parametrize(
    "span,problem",
    [
        ((3, 3, "PER"), "has start=3, end=3. Offsets must satisfy 0 <= start < end"),
        ((-1, 3, "PER"), "has start=-1, end=3"),
        ((0.0, 3, "PER"), "has non-integer offsets: start=0.0, end=3"),
        ((True, 3, "PER"), "has non-integer offsets: start=True"),
        ((0, 3), "is (0, 3). A span is a (start, end, label) tuple"),
    ],
    ids=["empty", "negative", "float", "bool", "two-items"],
)
def test_a_bad_span(span, problem):
    with pytest.raises(InputError, match=f"annotator 'b' document 1 {problem}".replace("(", r"\(").replace(")", r"\)")):
        agreement({"a": GOOD, "b": [[(0, 3, "PER")], [span]]}, schemes="strict")
    with pytest.raises(InputError, match="annotator 'b' document 1"):
        consensus({"a": GOOD, "b": [[(0, 3, "PER")], [span]]})
    scored = tuple(span) + (0.5,) if len(span) == 3 else span
    with pytest.raises(ValueError, match="Span 0 of predicted document 1"):
        sweep([[], []], [[], [scored]], schemes="strict")


@pytest.mark.parametrize(
    "item,problem",
    [
        ((0, 3, "PER"), "has no score"),
        ({"start": 0, "end": 3, "label": "PER"}, "has no 'score'"),
        ((0, 3, "PER", None), "has the score None"),
        ((0, 3, "PER", "0.5"), "has the score '0.5' (a str)"),
        ((0, 3, "PER", 1.5), "has the score 1.5, outside [0, 1]"),
        ((0, 3, "PER", float("nan")), "has the score nan"),
    ],
    ids=["tuple", "dict", "none", "str", "above-1", "nan"],
)
def test_a_missing_or_bad_score(item, problem):
    with pytest.raises(InputError) as err:
        sweep([[(0, 3, "PER")]], [[item]], schemes="strict")
    assert str(err.value).startswith("Span 0 of predicted document 0 ") and problem in str(err.value)


def test_thresholds_given_as_one_string_are_named_whole():
    # The string was split into characters: "'thresholds' holds '0'".
    with pytest.raises(SettingError, match=r"'thresholds' must be a list of numbers in \[0, 1\], got '0.5'"):
        sweep([[(0, 3, "PER")]], [[(0, 3, "PER", 0.5)]], schemes="strict", thresholds="0.5")


def test_numpy_integers_and_floats_are_numbers():
    i64, i32, u8 = numpy.int64, numpy.int32, numpy.uint8
    plain = {"a": [[(0, 3, "PER")], [(4, 7, "LOC")]], "b": [[(0, 3, "PER")], [(4, 6, "LOC")]]}
    with_numpy = {
        "a": [[(i64(0), i32(3), "PER")], [{"start": u8(4), "end": i64(7), "label": "LOC"}]],
        "b": [[[i32(0), i64(3), numpy.str_("PER")]], [(i64(4), i64(6), "LOC")]],
    }
    expected = agreement(plain, schemes="strict,partial", lengths=[11, 11], unit="char")
    got = agreement(with_numpy, schemes="strict,partial", lengths=numpy.array([11, 11]), unit="char")
    # one span of two agrees exactly: F 0.5 both ways; partial counts the overlap as half: (1 + 0.5) / 2
    assert got.mean_f == expected.mean_f == {"strict": 0.5, "partial": 0.75}
    assert got.alpha == expected.alpha
    assert consensus(with_numpy, min_votes=i64(2)) == [[(0, 3, "PER")], []]
    swept = sweep(
        [[(i64(0), i64(3), "PER")]],
        [[(i32(0), i64(3), "PER", numpy.float32(0.5))]],
        schemes="strict",
        n_thresholds=i64(3),
    )
    # thresholds 0, 0.5 and 1: the span (score 0.5) is kept at 0 and 0.5, correct (F 1), and dropped at 1 (F 0)
    assert swept["strict"].f1.tolist() == [1.0, 1.0, 0.0]


def test_a_string_scheme_is_refused_by_name():
    # It reached an inner scorer alone: "'schemes' starts with 'strings'", which it did not.
    with pytest.raises(SettingError, match="the scheme 'strings' compares span texts; a sweep scores span offsets"):
        sweep([[(0, 3, "PER")]], [[(0, 3, "PER", 0.5)]], schemes="strict,strings")
    with pytest.raises(SettingError, match="the scheme 'strings' compares span texts; agreement compares span offsets"):
        agreement({"a": GOOD, "b": GOOD}, schemes="strict,strings")
