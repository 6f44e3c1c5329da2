"""What the mention doors take (SPEC.md, "Mentions without offsets"): a
bad text, mention or gold span is an InputError (a ValueError) that names
the document and the field and says what is valid, the same from Python
and the command line; an answer nested too deeply for Python's JSON reader,
or huge, is read without a RecursionError: a parse failure (counted and
listed) when it is nothing else, its mentions when it is valid.

Offsets are counted by hand in the comments.
"""

import json
import re

import numpy
import pytest

from helpers import assert_clean_failure, invoke, write_jsonl
from spacy_spanf1 import InputError
from spacy_spanf1.mentions import ParseFailure, evaluate_mentions, ground_mentions, parse_answer

# "Ann Lee flew." is 13 characters; "Ann Lee" is (0, 7).
TEXT = "Ann Lee flew."


# --------------------------------------------------------------------------
# ground_mentions
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "label, shown",
    [(None, "has no label"), (5, "has the label 5"), ("", "has the label ''")],
    ids=["none", "int", "empty"],
)
def test_ground_mentions_a_bad_label_is_an_error_naming_the_mention(label, shown):
    with pytest.raises(InputError, match=rf"^mention 1 \('Lee'\) {shown}; labels are non-empty strings$"):
        ground_mentions(TEXT, [("Ann", "PER"), ("Lee", label)])


@pytest.mark.parametrize("string", [None, 5, "", "  "], ids=["none", "int", "empty", "blank"])
def test_ground_mentions_a_bad_string_is_an_error_naming_the_mention(string):
    with pytest.raises(InputError, match=r"^mention 0 has the string .*; a mention's string is a non-blank string$"):
        ground_mentions(TEXT, [(string, "PER")])


@pytest.mark.parametrize(
    "item", [("Ann", "PER", 0), {"text": "Ann", "label": "PER"}, "An"], ids=["triple", "dict", "two-character-string"]
)
def test_ground_mentions_an_item_that_is_no_pair_is_an_error(item):
    # a dict or a two-character string would unpack into two strings of its own
    with pytest.raises(InputError, match=r"^mention 0 is .*, not a \(string, label\) pair$"):
        ground_mentions(TEXT, [item])


@pytest.mark.parametrize(
    "text, shown", [(None, "None (NoneType)"), (5, "5 (int)"), (b"Ann", "b'Ann' (bytes)")], ids=["none", "int", "bytes"]
)
def test_ground_mentions_a_text_that_is_no_string_is_an_error(text, shown):
    with pytest.raises(InputError, match=rf"^the text is {re.escape(shown)}; the text of a document is a string$"):
        ground_mentions(text, [("Ann", "PER")])


def test_ground_mentions_the_errors_are_value_errors():
    with pytest.raises(ValueError):
        ground_mentions(TEXT, [("Ann", None)])


def test_ground_mentions_takes_numpy_strings():
    # numpy's str_ is a str: a text, strings and labels of it are valid, and
    # the labels come back as plain str. "Lee" is (4, 7).
    grounded = ground_mentions(numpy.str_(TEXT), numpy.array([["Ann", "PER"], ["Lee", "PER"]]))
    assert [(m.string, m.label, m.spans) for m in grounded] == [("Ann", "PER", [(0, 3)]), ("Lee", "PER", [(4, 7)])]
    assert {type(m.label) for m in grounded} == {str}
    assert ground_mentions(TEXT, [("Ann", numpy.str_("PER"))])[0].spans == [(0, 3)]


# --------------------------------------------------------------------------
# evaluate_mentions
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "label, shown", [(None, r"of type NoneType \(None\)"), (5, r"of type int \(5\)")], ids=["none", "int"]
)
def test_evaluate_mentions_a_bad_gold_label_is_an_error_naming_the_document(label, shown):
    gold = [[(0, 7, "PER")], [(0, 7, label)]]
    with pytest.raises(InputError, match=rf"^Span 0 of gold document 1 has a label {shown}\. Labels are strings\.$"):
        evaluate_mentions(gold, [[("Ann Lee", "PER")]] * 2, texts=[TEXT, TEXT], schemes="strict")


@pytest.mark.parametrize("text, shown", [(None, "None (NoneType)"), (5, "5 (int)")], ids=["none", "int"])
def test_evaluate_mentions_a_text_that_is_no_string_is_an_error_naming_the_document(text, shown):
    with pytest.raises(InputError, match=rf"^texts\[1\] is {re.escape(shown)}; the text of a document is a string$"):
        evaluate_mentions([[], []], [[("Ann", "PER")], '[["Ann", "PER"]]'], texts=[TEXT, text], schemes="strict")


def test_evaluate_mentions_a_gold_span_past_its_text_is_an_error():
    # 13 characters: (8, 14) ends past the text, where the spans of mentions
    # not found are placed; it must not be scored against them
    with pytest.raises(
        InputError,
        match=r"^Span 0 of gold document 0 has start=8, end=14; character offsets need "
        r"0 <= start < end <= 13 \(the text length\)$",
    ):
        evaluate_mentions([[(8, 14, "PER")]], [[("Paris", "LOC")]], texts=[TEXT], schemes="strict")


def test_evaluate_mentions_a_gold_document_that_is_no_list_of_spans_is_an_error():
    with pytest.raises(InputError, match=r"^gold document 0 is 'Ann Lee', not a list of \(start, end, label\) spans"):
        evaluate_mentions(["Ann Lee"], [[]], texts=[TEXT], schemes="strict")


def test_evaluate_mentions_takes_numpy_strings_and_integers():
    # gold offsets of numpy ints, labels and texts of numpy str_: one CORrect
    # "Ann Lee" PER (0, 7), the same as with Python values
    texts = numpy.array([TEXT])
    gold = [[(numpy.int64(0), numpy.int64(7), numpy.str_("PER"))]]
    predicted = [[("Ann Lee", numpy.str_("PER"))]]
    scores = evaluate_mentions(gold, predicted, texts=texts, schemes=["strict", "strings"])
    assert scores.results["strict"].counts == {"cor": 1, "inc": 0, "par": 0, "mis": 0, "spu": 0}
    assert scores.results["strings"].totals.tp == 1
    assert scores.grounding["exact"] == 1 and scores.grounding["parse_failures"] == 0


# --------------------------------------------------------------------------
# The command line says the same
# --------------------------------------------------------------------------


@pytest.mark.parametrize("label", [None, 5], ids=["none", "int"])
def test_the_command_line_gives_the_same_one_line_error(tmp_path, label):
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"text": TEXT, "spans": [{"start": 0, "end": 7, "label": "PER"}]}])
    answers = write_jsonl(tmp_path / "answers.jsonl", [{"text": TEXT, "mentions": [["Ann Lee", label]]}])
    with pytest.raises(InputError) as python:
        ground_mentions(TEXT, [("Ann Lee", label)])
    result = invoke(["compare", gold, answers, "--format", "mentions", "--schemes", "strict"])
    assert_clean_failure(result, 1, f"answers.jsonl:1: {python.value}")


# --------------------------------------------------------------------------
# Deep and huge answers
# --------------------------------------------------------------------------


def nested(depth):
    """A list nested depth levels deep, built without recursion."""
    value = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(
    "answer",
    ["[" * 5000, "[" * 5000 + "]" * 5000, "Sure: " + "[1, " * 5000, "```json\n" + '{"PER": ' * 5000 + "\n```"],
    ids=["open", "closed", "in-prose", "in-a-fence"],
)
def test_an_answer_nested_too_deeply_is_a_parse_failure(answer):
    failure = parse_answer(answer)
    assert isinstance(failure, ParseFailure)
    assert "nests deeper" in failure.reason
    assert failure.excerpt == answer[:200]


def test_a_deep_answer_is_counted_and_listed_never_raised():
    answers = ["[" * 5000, '[["Ann Lee", "PER"]]']
    scores = evaluate_mentions([[(0, 7, "PER")]] * 2, answers, texts=[TEXT] * 2, schemes=["strict", "strings"])
    assert scores.grounding["parse_failures"] == 1 and scores.grounding["exact"] == 1
    assert scores.documents[0]["parse_failure"] == "[" * 200 and scores.documents[0]["mentions"] == []
    # the failed document predicts nothing: its gold span is missed
    assert scores.results["strict"].counts == {"cor": 1, "inc": 0, "par": 0, "mis": 1, "spu": 0}


def test_a_deep_python_value_is_a_parse_failure():
    scores = evaluate_mentions([[]], [nested(5000)], texts=[TEXT], schemes="strict")
    assert scores.grounding["parse_failures"] == 1
    assert scores.documents[0]["parse_failure"].startswith("[[[[")


def test_mentions_after_a_deep_bracket_in_prose_are_read():
    # the deep value closes; the list after it is the first JSON that parses
    answer = "[" * 5000 + "]" * 5000 + ' and then [["Ann Lee", "PER"]]'
    assert parse_answer(answer) == [("Ann Lee", "PER")]


def test_ten_megabytes_of_brackets_are_a_parse_failure():
    answer = "[" * 10_000_000
    failure = parse_answer(answer)
    assert isinstance(failure, ParseFailure) and "nests deeper" in failure.reason
    assert isinstance(parse_answer("Here: " + answer), ParseFailure)


@pytest.mark.parametrize(
    "wrap", ["{}", "Here they are: {} (all of them).", "```json\n{}\n```"], ids=["whole", "in-prose", "in-a-fence"]
)
def test_a_huge_valid_answer_parses(wrap):
    # 200,000 mentions (about 4 MB of JSON), each "w<k>" with label PER
    mentions = [[f"w{k}", "PER"] for k in range(200_000)]
    parsed = parse_answer(wrap.format(json.dumps(mentions)))
    assert len(parsed) == 200_000
    assert parsed[0] == ("w0", "PER") and parsed[-1] == ("w199999", "PER")


def test_the_command_line_counts_a_deep_answer_as_a_parse_failure(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"text": TEXT, "spans": [{"start": 0, "end": 7, "label": "PER"}]}])
    answers = write_jsonl(tmp_path / "answers.jsonl", [{"text": TEXT, "output": "[" * 5000}])
    result = invoke(["compare", gold, answers, "--format", "mentions", "--schemes", "strict"])
    assert result.exit_code == 0, result.output
    assert "1 answer(s) do not parse" in result.stdout + result.stderr
    assert "nests deeper" in result.stdout + result.stderr


def test_the_command_line_a_line_nested_too_deeply_is_one_line(tmp_path):
    # the record itself (its "output" a JSON list 5,000 deep) cannot be read
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"text": TEXT, "spans": [{"start": 0, "end": 7, "label": "PER"}]}])
    answers = tmp_path / "answers.jsonl"
    answers.write_text('{"text": "Ann Lee flew.", "output": ' + "[" * 5000 + "]" * 5000 + "}\n", encoding="utf-8")
    result = invoke(["compare", gold, answers, "--format", "mentions", "--schemes", "strict"])
    assert_clean_failure(result, 1, "answers.jsonl:1: the JSON nests deeper than Python's JSON reader follows")


# --------------------------------------------------------------------------
# The other public functions
# --------------------------------------------------------------------------


@pytest.mark.parametrize("label", [5, ""], ids=["int", "empty"])
def test_parse_answer_a_bad_query_label_is_an_error(label):
    from spacy_spanf1 import SettingError

    with pytest.raises(SettingError, match=r"^'label' is .*; the label of a GPT-NER query is a non-empty string"):
        parse_answer("@@Ann Lee## flew.", label=label)


@pytest.mark.parametrize("text", [None, 5], ids=["none", "int"])
def test_the_normalizations_take_strings_only(text):
    from spacy_spanf1.mentions import normalize, squad_normalize

    for function in (normalize, squad_normalize):
        with pytest.raises(InputError, match=r"^the text to normalize is .*; the text of a document is a string$"):
            function(text)
