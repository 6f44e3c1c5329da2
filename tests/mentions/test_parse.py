"""Reading a generative extractor's raw answer (SPEC.md, "Mentions without
offsets", Reading): every answer shape, empty answers, inline markup placed
back on the source text, and parse failures, which are counted in
`evaluate_mentions(...).grounding["parse_failures"]` and never raise.

Offsets are counted by hand in the comments.
"""

import pytest

from spacy_spanf1.mentions import Markup, ParseFailure, evaluate_mentions, parse_answer

ANN_NY = [("Ann Lee", "PER"), ("New York", "LOC")]


# --------------------------------------------------------------------------
# JSON shapes
# --------------------------------------------------------------------------


@pytest.mark.parametrize("string_key", ["text", "span", "entity"])
@pytest.mark.parametrize("label_key", ["label", "type"])
def test_a_list_of_objects(string_key, label_key):
    answer = (
        f'[{{"{string_key}": "Ann Lee", "{label_key}": "PER"}}, {{"{string_key}": "New York", "{label_key}": "LOC"}}]'
    )
    assert parse_answer(answer) == ANN_NY


def test_objects_may_carry_other_keys():
    answer = '[{"text": "Ann Lee", "label": "PER", "confidence": 0.9, "start": 0}]'
    assert parse_answer(answer) == [("Ann Lee", "PER")]


def test_a_list_of_pairs():
    assert parse_answer('[["Ann Lee", "PER"], ["New York", "LOC"]]') == ANN_NY


def test_an_object_of_labels():
    # label by label, in the object's order, each label's strings in order
    answer = '{"PER": ["Ann Lee", "Bob"], "LOC": ["New York"]}'
    assert parse_answer(answer) == [("Ann Lee", "PER"), ("Bob", "PER"), ("New York", "LOC")]


def test_repeats_are_kept_in_order():
    # parsing keeps every listing; grounding decides what a repeat is
    assert parse_answer('[["Ann", "PER"], ["Ann", "PER"], ["Ann", "ORG"]]') == [
        ("Ann", "PER"),
        ("Ann", "PER"),
        ("Ann", "ORG"),
    ]


@pytest.mark.parametrize(
    "answer",
    [
        # in a code fence
        '```json\n[{"text": "Ann Lee", "label": "PER"}, {"text": "New York", "label": "LOC"}]\n```',
        '```\n[["Ann Lee", "PER"], ["New York", "LOC"]]\n```',
        'Here are the entities:\n\n```json\n{"PER": ["Ann Lee"], "LOC": ["New York"]}\n```\n\nLet me know!',
        # with prose around
        'The entities are [["Ann Lee", "PER"], ["New York", "LOC"]] and nothing else.',
        'Sure! {"PER": ["Ann Lee"], "LOC": ["New York"]}',
        # "[here]" does not parse as JSON: the first value that does is taken
        'Sure [here]: [{"type": "PER", "entity": "Ann Lee"}, {"type": "LOC", "entity": "New York"}] Done.',
    ],
    ids=[
        "json-fence",
        "bare-fence",
        "fence-in-prose",
        "list-in-prose",
        "object-after-prose",
        "unparsable-bracket-first",
    ],
)
def test_in_a_code_fence_or_with_prose_around(answer):
    assert parse_answer(answer) == ANN_NY


# --------------------------------------------------------------------------
# Empty answers: valid, predicting nothing
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "answer", ["[]", "{}", '{"PER": []}', '{"PER": [], "LOC": []}', "```json\n[]\n```", "No entities: []"]
)
def test_an_empty_answer_is_valid(answer):
    assert parse_answer(answer) == []


def test_an_empty_answer_predicts_nothing_and_is_no_failure():
    # gold (0, 7) PER in "Ann Lee flew." is missed (MIS 1); nothing predicted.
    scores = evaluate_mentions(
        [[(0, 7, "PER")]], ['{"PER": []}'], texts=["Ann Lee flew."], schemes=["strict", "strings"]
    )
    assert scores.grounding == dict.fromkeys(scores.grounding, 0)
    totals = scores.results["strict"].totals
    assert (totals.cor, totals.mis, totals.spu) == (0, 1, 0)
    assert scores.results["strings"].totals.predicted == 0
    assert scores.documents[0]["parse_failure"] is None


# --------------------------------------------------------------------------
# Inline markup
# --------------------------------------------------------------------------

# "Ann Lee flew to New York on Monday."
#  0   4   8    13 16  20  25 28
SOURCE = "Ann Lee flew to New York on Monday."


def test_xml_markup_is_read():
    answer = "<PER>Ann Lee</PER> flew to <LOC>New York</LOC> on Monday."
    markup = parse_answer(answer)
    assert isinstance(markup, Markup)
    # markup removed, the text is the source; "Ann Lee" 0-7, "New York" 16-24
    assert markup.plain == SOURCE
    assert markup.pieces == [(0, 7, "PER"), (16, 24, "LOC")]
    assert markup.place(SOURCE) == [((0, 7), "Ann Lee", "PER"), ((16, 24), "New York", "LOC")]


def test_markup_on_a_text_the_answer_changed_elsewhere():
    # The answer says "flies" for "flew"; both pieces are on unchanged text
    # and land where they are in the source: (0, 7) and (16, 24).
    answer = "<PER>Ann Lee</PER> flies to <LOC>New York</LOC> on Monday."
    markup = parse_answer(answer)
    assert markup.plain == "Ann Lee flies to New York on Monday."
    assert markup.place(SOURCE) == [((0, 7), "Ann Lee", "PER"), ((16, 24), "New York", "LOC")]


def test_markup_places_the_marked_occurrence_not_the_first():
    # "New York fans love New York.": N0 ... the second "New York" is 19-27.
    # Only it is marked; grounding by string would take (0, 8).
    source = "New York fans love New York."
    answer = "New York fans loved <LOC>New York</LOC>."
    assert parse_answer(answer).place(source) == [((19, 27), "New York", "LOC")]
    scores = evaluate_mentions([[(19, 27, "LOC")]], [answer], texts=[source], schemes=["strict"])
    assert [(m.spans, m.method) for m in scores.documents[0]["mentions"]] == [([(19, 27)], "exact")]
    assert scores.results["strict"].totals.cor == 1


def test_a_piece_on_changed_text_is_grounded_by_its_string():
    # "I met ann lee in PARIS." I0 ' '1 m2 e3 t4 ' '5 a6 n7 n8 ' '9 l10 e11
    # e12 ' '13 i14 n15 ' '16 P17 A18 R19 I20 S21 .22
    # The answer changed the case of both pieces: neither can be placed, so
    # each is grounded by its string, found normalized: (6, 13) and (17, 22).
    source = "I met ann lee in PARIS."
    answer = "I met <PER>Ann Lee</PER> in <LOC>Paris</LOC>."
    assert parse_answer(answer).place(source) == [(None, "Ann Lee", "PER"), (None, "Paris", "LOC")]
    scores = evaluate_mentions([[(6, 13, "PER"), (17, 22, "LOC")]], [answer], texts=[source], schemes=["strict"])
    assert [(m.spans, m.method) for m in scores.documents[0]["mentions"]] == [
        ([(6, 13)], "normalized"),
        ([(17, 22)], "normalized"),
    ]
    assert scores.grounding["normalized"] == 2
    assert scores.results["strict"].totals.cor == 2


def test_a_piece_the_answer_rewrote_is_not_found():
    # "Bobby Lee" is not in the source ("Bob Lee"): not placed, and its
    # string is found by no method. "Ann Lee" is placed at (0, 7).
    source = "Ann Lee met Bob Lee in Paris."
    answer = "<PER>Ann Lee</PER> met <PER>Bobby Lee</PER> in Paris."
    assert parse_answer(answer).place(source) == [((0, 7), "Ann Lee", "PER"), (None, "Bobby Lee", "PER")]
    scores = evaluate_mentions([[(0, 7, "PER"), (12, 19, "PER")]], [answer], texts=[source], schemes=["strict"])
    assert (scores.grounding["exact"], scores.grounding["not_found"]) == (1, 1)
    totals = scores.results["strict"].totals
    assert (totals.cor, totals.mis, totals.spu) == (1, 1, 1)


def test_markup_whose_text_holds_brackets():
    # The source text has "[1, 2]", which parses as JSON; the answer is
    # still markup, not a JSON list with an item 1.
    source = "Ann Lee scored [1, 2] in New York."
    answer = "<PER>Ann Lee</PER> scored [1, 2] in <LOC>New York</LOC>."
    markup = parse_answer(answer)
    assert isinstance(markup, Markup)
    # "Ann Lee scored [1, 2] in New York.": "in " is 22-25, "New York" 25-33
    assert markup.place(source) == [((0, 7), "Ann Lee", "PER"), ((25, 33), "New York", "LOC")]


def test_json_after_tags_of_reasoning_is_json():
    # a tag pair before the answer (a reasoning model's) does not make it
    # markup: the JSON in the prose gives mentions, so it is taken
    answer = '<think>Ann Lee is a person.</think>\n[["Ann Lee", "PER"]]'
    assert parse_answer(answer) == [("Ann Lee", "PER")]


def test_gpt_ner_marks_with_the_label_of_the_query():
    markup = parse_answer("@@Ann Lee## flew to New York on Monday.", label="PER")
    assert markup.plain == SOURCE
    assert markup.pieces == [(0, 7, "PER")]
    assert markup.place(SOURCE) == [((0, 7), "Ann Lee", "PER")]
    # two marks, one on text the answer changed ("Nu York")
    markup = parse_answer("@@Ann Lee## flew to @@Nu York## on Monday.", label="LOC")
    assert markup.place(SOURCE) == [((0, 7), "Ann Lee", "LOC"), (None, "Nu York", "LOC")]


def test_gpt_ner_marks_without_a_label_are_a_failure():
    failure = parse_answer("@@Ann Lee## flew to New York.")
    assert isinstance(failure, ParseFailure)
    assert "label" in failure.reason


# --------------------------------------------------------------------------
# Parse failures: counted, listed, never raised
# --------------------------------------------------------------------------

FAILURES = {
    "not-json": "I found Ann Lee (a person) and New York (a place).",
    "empty-string": "",
    "json-string": '"Ann Lee"',
    "json-number": "42",
    "list-of-numbers": "[1, 2]",
    "label-of-a-number": '{"PER": ["Ann Lee"], "LOC": 3}',
    "label-of-numbers": '{"PER": [1, 2]}',
    "one-mention-object": '{"text": "Ann Lee", "label": "PER"}',
    "item-without-label": '[{"text": "Ann Lee"}]',
    "pair-without-label": '[["Ann Lee"]]',
    "triple": '[["Ann Lee", "PER", 0]]',
    "label-not-a-string": '[["Ann Lee", 3]]',
    "empty-mention-string": '[["", "PER"]]',
}


@pytest.mark.parametrize("answer", list(FAILURES.values()), ids=list(FAILURES))
def test_answers_of_no_shape_are_parse_failures(answer):
    failure = parse_answer(answer)
    assert isinstance(failure, ParseFailure)
    assert failure.reason
    assert failure.answer == answer


@pytest.mark.parametrize(
    "answer",
    [None, 42, 4.2, b"[]", {"PER": ["Ann Lee"]}, ["Ann Lee", "PER"]],
    ids=["none", "int", "float", "bytes", "dict", "list"],
)
def test_a_non_string_answer_is_a_parse_failure(answer):
    failure = parse_answer(answer)
    assert isinstance(failure, ParseFailure)
    assert "not a string" in failure.reason


def test_an_object_with_text_and_label_is_not_read_as_labels():
    # read as {label: strings} it would give the mentions ("Ann Lee", "text")
    # and ("PER", "label"); it is one mention object outside a list instead
    failure = parse_answer('{"text": "Ann Lee", "label": "PER"}')
    assert isinstance(failure, ParseFailure)
    assert "list" in failure.reason


# As evaluate_mentions takes them: the failed answers, and Python values that
# are no list of mentions (None, a number, pairs of the wrong length, objects
# without a label).
BAD_PREDICTIONS = list(FAILURES.values()) + [
    None,
    42,
    [("Ann Lee",)],
    [("Ann Lee", "PER", 0)],
    [{"text": "Ann Lee"}],
    [None],
]


def test_parse_failures_are_counted_and_never_raise():
    n = len(BAD_PREDICTIONS)
    text = "Ann Lee flew."
    scores = evaluate_mentions(
        [[(0, 7, "PER")]] * n, BAD_PREDICTIONS, texts=[text] * n, schemes=["strict", "strings", "strings_normalized"]
    )
    # every document failed, and a failed document predicts nothing
    assert scores.grounding == {**dict.fromkeys(scores.grounding, 0), "parse_failures": n}
    for name in ("strict", "strings", "strings_normalized"):
        totals = scores.results[name].totals
        assert totals.possible == n and totals.predicted == 0
    assert all(doc["mentions"] == [] and doc["parse_failure"] is not None for doc in scores.documents)


def test_a_failure_lists_the_first_200_characters_of_its_answer():
    answer = "no entities here " * 20  # 340 characters
    scores = evaluate_mentions([[]], [answer], texts=["x"], schemes=["strict"])
    assert scores.documents[0]["parse_failure"] == answer[:200]
    assert len(scores.documents[0]["parse_failure"]) == 200


def test_mentions_given_as_python_values():
    # pairs and objects, as the "mentions" of a record: "Ann Lee" (0, 7)
    text = "Ann Lee flew."
    for mentions in (
        [("Ann Lee", "PER")],
        [["Ann Lee", "PER"]],
        [{"text": "Ann Lee", "label": "PER"}],
        {"PER": ["Ann Lee"]},
    ):
        scores = evaluate_mentions([[(0, 7, "PER")]], [mentions], texts=[text], schemes=["strict"])
        assert scores.grounding["exact"] == 1 and scores.grounding["parse_failures"] == 0
        assert scores.results["strict"].totals.cor == 1


def test_gpt_ner_answers_take_the_label_each_document_was_asked_for():
    texts = ["Ann Lee flew to New York.", "Bo met Cy in Oslo."]
    gold = [[(0, 7, "PER"), (16, 24, "LOC")], [(0, 2, "PER"), (7, 9, "PER"), (13, 17, "LOC")]]
    # One prompt per label, as GPT-NER asks: PER for the first text, LOC for the second.
    answers = ["@@Ann Lee## flew to New York.", "Bo met Cy in @@Oslo##."]
    scores = evaluate_mentions(gold, answers, texts=texts, schemes=["strict"], answer_labels=["PER", "LOC"])
    # By hand: "Ann Lee" PER at 0-7 and "Oslo" LOC at 13-17 are correct; three gold spans missed.
    assert scores.results["strict"].counts == {"cor": 2, "inc": 0, "par": 0, "mis": 3, "spu": 0}
    assert scores.grounding["parse_failures"] == 0
    # One label for every document; without one, the marks cannot be labelled: parse failures.
    every = evaluate_mentions(gold, answers, texts=texts, schemes=["strict"], answer_labels="PER")
    # "Oslo" PER on gold "Oslo" LOC: same boundaries, wrong label, one INC under strict
    assert every.results["strict"].counts == {"cor": 1, "inc": 1, "par": 0, "mis": 3, "spu": 0}
    unlabelled = evaluate_mentions(gold, answers, texts=texts, schemes=["strict"])
    assert unlabelled.grounding["parse_failures"] == 2


@pytest.mark.parametrize(
    "labels, message",
    [
        (["PER"], "answer_labels holds 1 labels for 2 documents"),
        (["PER", 3], "answer_labels[1] is 3"),
    ],
)
def test_bad_answer_labels_are_one_clear_error(labels, message):
    from spacy_spanf1 import SettingError

    with pytest.raises(SettingError, match=message.replace("[", r"\[").replace("]", r"\]")):
        evaluate_mentions([[], []], ["", ""], texts=["a", "b"], schemes=["strict"], answer_labels=labels)
