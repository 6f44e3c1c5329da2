"""The `mentions` reader: an LLM's answers (mentions without offsets) read
against gold of another format, from Python and the command line. The span
schemes over grounded mentions are checked against `evaluate_spans` on the
span lists the grounding gives by hand."""

import json

import pytest

from helpers import assert_clean_failure, invoke, write, write_jsonl
from spacy_spanf1 import compare_files, evaluate_spans
from spacy_spanf1.formats import InputError, SettingError

GOLD = [
    {
        "text": "Ann Lee flew to New York.",
        "spans": [{"start": 0, "end": 7, "label": "PER"}, {"start": 16, "end": 24, "label": "LOC"}],
    },
    {
        "text": "Acme hired Bo Chen in Paris.",
        "spans": [
            {"start": 0, "end": 4, "label": "ORG"},
            {"start": 11, "end": 18, "label": "PER"},
            {"start": 22, "end": 27, "label": "LOC"},
        ],
    },
]
ANSWERS = [
    {
        "id": "a",
        "text": GOLD[0]["text"],
        "output": 'Sure! ```json\n[{"text": "Ann Lee", "label": "PER"}, {"text": "new york", "label": "LOC"}]\n```',
    },
    {
        "id": "b",
        "text": GOLD[1]["text"],
        "mentions": [["Bo Chen", "PER"], ["Bo Chen", "PER"], ["Paris", "LOC"], ["Berlin", "LOC"]],
    },
]


@pytest.fixture
def files(tmp_path):
    return write_jsonl(tmp_path / "gold.jsonl", GOLD), write_jsonl(tmp_path / "answers.jsonl", ANSWERS)


def test_grounded_mentions_score_as_their_spans(files):
    gold, answers = files
    scores = compare_files(gold, answers, format="mentions", schemes=["strict", "partial", "iou", "overlap"])
    # By hand: "Ann Lee" exact 0-7, "new york" normalized 16-24; "Bo Chen" exact 11-18, its
    # second listing a duplicate, "Paris" exact 22-27, "Berlin" not found. Not found and
    # duplicates are predictions that match nothing: spans past the end of the text.
    gold_spans = [[(0, 7, "PER"), (16, 24, "LOC")], [(0, 4, "ORG"), (11, 18, "PER"), (22, 27, "LOC")]]
    pred_spans = [
        [(0, 7, "PER"), (16, 24, "LOC")],
        [(11, 18, "PER"), (22, 27, "LOC"), (100, 101, "PER"), (102, 103, "LOC")],
    ]
    expected = evaluate_spans(gold_spans, pred_spans, schemes=["strict", "partial", "iou", "overlap"], unit="char")
    for name, result in expected.items():
        assert scores.results[name].counts == result.counts
    assert scores.results["strict"].counts == {"cor": 4, "inc": 0, "par": 0, "mis": 1, "spu": 2}
    data = scores.to_dict()
    assert data["grounding"] == {
        "mentions": 6,
        "exact": 3,
        "normalized": 1,
        "fuzzy": 0,
        "not_found": 1,
        "duplicates": 1,
        "ambiguous": 0,
        "parse_failures": 0,
    }
    assert scores.notes["pred"]["not_found"]["examples"] == ["line 2: 'Berlin' (LOC)"]


def test_the_command_prints_the_grounding_report_above_the_scores(files, tmp_path):
    gold, answers = files
    out = tmp_path / "scores.json"
    result = invoke(["compare", gold, answers, "--format", "mentions", "--schemes", "strict", "--output", out])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    grounding = next(i for i, line in enumerate(lines) if line.startswith("ℹ Grounding"))
    table = next(i for i, line in enumerate(lines) if line.startswith("strict"))
    assert grounding < table
    assert "6 mentions: exact 3, normalized 1, fuzzy 0, not found 1, duplicates 1" in lines[grounding]
    assert any("'Berlin' (LOC)" in line and line.startswith("⚠") for line in lines)
    assert json.loads(out.read_text())["grounding"]["not_found"] == 1


def test_ground_first_and_all(files):
    gold, answers = files
    first = compare_files(gold, answers, format="mentions", schemes="strict", ground="first")
    assert first.to_dict()["grounding"]["duplicates"] == 1
    every = compare_files(gold, answers, format="mentions", schemes="strict", ground="all")
    # under "all" the repeated "Bo Chen" adds nothing: one SPU (Berlin) instead of two
    assert every.results["strict"].counts == {"cor": 4, "inc": 0, "par": 0, "mis": 1, "spu": 1}
    with pytest.raises(SettingError, match="ordered, first, all"):
        compare_files(gold, answers, format="mentions", schemes="strict", ground="best")


def test_an_answer_that_does_not_parse_predicts_nothing_and_is_counted(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD)
    answers = write_jsonl(tmp_path / "answers.jsonl", [dict(ANSWERS[0], output="I cannot help with that."), ANSWERS[1]])
    scores = compare_files(gold, answers, format="mentions", schemes="strict")
    assert scores.to_dict()["grounding"]["parse_failures"] == 1
    assert scores.results["strict"].counts == {"cor": 2, "inc": 0, "par": 0, "mis": 3, "spu": 2}
    assert "I cannot help" in scores.notes["pred"]["parse_failures"]["examples"][0]


@pytest.mark.parametrize(
    "record,message",
    [
        ({"text": GOLD[0]["text"], "mentions": [{"text": "Ann Lee"}]}, "mention 0 ('Ann Lee') has no label"),
        ({"text": GOLD[0]["text"], "mentions": [{"text": "Ann Lee", "label": 3}]}, "has the label 3"),
        ({"mentions": [["Ann Lee", "PER"]]}, "the record has no 'text' field"),
        ({"text": GOLD[0]["text"], "answer": "[]"}, 'neither "mentions" nor "output"'),
    ],
    ids=["no-label", "label-not-string", "no-text", "no-mentions"],
)
def test_bad_mentions_records_are_one_line(tmp_path, record, message):
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD[:1])
    answers = write_jsonl(tmp_path / "answers.jsonl", [record])
    result = invoke(["compare", gold, answers, "--format", "mentions", "--schemes", "strict"])
    assert_clean_failure(result, 1, "answers.jsonl:1:")
    assert message in result.stderr


def test_mentions_of_other_texts_than_the_gold_are_an_error(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD[:1])
    answers = write_jsonl(tmp_path / "answers.jsonl", [{"text": "Another text.", "mentions": []}])
    with pytest.raises(InputError, match="differs from"):
        compare_files(gold, answers, format="mentions", schemes="strict")


def test_mentions_are_predictions_only(tmp_path, files):
    gold, answers = files
    with pytest.raises(SettingError, match="no predicted file"):
        compare_files(answers, format="mentions", schemes="strict")


CONLL_GOLD = "Ann B-PER\nLee I-PER\nflew O\nto O\nNew B-LOC\nYork I-LOC\n. O\n"
# CoNLL's text is its tokens joined by spaces: "Ann Lee flew to New York ."
CONLL_ANSWERS = [
    {"text": "Ann Lee flew to New York .", "mentions": [["Ann", "PER"], ["New York .", "LOC"], ["Oslo", "LOC"]]}
]


def test_gold_in_token_unit_from_conll(tmp_path):
    conll = write(tmp_path / "gold.conll", CONLL_GOLD)
    answers = write_jsonl(tmp_path / "answers.jsonl", CONLL_ANSWERS)
    schemes = ["strict", "partial", "iou", "overlap"]
    scores = compare_files(conll, answers, format="mentions", schemes=schemes)
    assert scores.unit == "token"
    # By hand, in tokens: "Ann" is token 0 -> (0, 1); "New York ." chars 16-26 cover tokens
    # 4-7 -> (4, 7); "Oslo" is not in the text: a span past the 7 tokens, matching nothing.
    gold_spans = [[(0, 2, "PER"), (4, 6, "LOC")]]
    pred_spans = [[(0, 1, "PER"), (4, 7, "LOC"), (7, 8, "LOC")]]
    expected = evaluate_spans(gold_spans, pred_spans, schemes=schemes, unit="token")
    for name, result in expected.items():
        assert scores.results[name].counts == result.counts, name
    # strict (nervaluate): an overlap on other boundaries is one INC; "Oslo" is SPU
    assert scores.results["strict"].counts == {"cor": 0, "inc": 2, "par": 0, "mis": 0, "spu": 1}


def test_gold_from_a_docbin_in_either_unit(tmp_path):
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    doc = nlp("Ann Lee flew to New York.")
    doc.ents = [doc.char_span(0, 7, "PER"), doc.char_span(16, 24, "LOC")]
    path = tmp_path / "gold.spacy"
    DocBin(docs=[doc]).to_disk(path)
    answers = write_jsonl(
        tmp_path / "answers.jsonl",
        [{"text": doc.text, "mentions": [["Ann", "PER"], ["New York", "LOC"], ["Lee flew", "PER"]]}],
    )
    schemes = ["strict", "type", "iou"]
    # By hand: tokens Ann(0) Lee(1) flew(2) to(3) New(4) York(5) .(6); "Lee flew" is chars 4-12.
    cases = {
        "token": ([[(0, 2, "PER"), (4, 6, "LOC")]], [[(0, 1, "PER"), (4, 6, "LOC"), (1, 3, "PER")]]),
        "char": ([[(0, 7, "PER"), (16, 24, "LOC")]], [[(0, 3, "PER"), (16, 24, "LOC"), (4, 12, "PER")]]),
    }
    for unit, (gold_spans, pred_spans) in cases.items():
        scores = compare_files(path, answers, format="mentions", schemes=schemes, unit=unit)
        expected = evaluate_spans(gold_spans, pred_spans, schemes=schemes, unit=unit)
        for name, result in expected.items():
            assert scores.results[name].counts == result.counts, (unit, name)
    # a DocBin is read in token unit unless asked otherwise, as everywhere
    assert compare_files(path, answers, format="mentions", schemes="strict").unit == "token"


def test_a_mention_not_in_the_text_keeps_its_kind_in_token_unit(tmp_path):
    from spacy_spanf1.report import error_records

    conll = write(tmp_path / "gold.conll", CONLL_GOLD)
    answers = write_jsonl(tmp_path / "answers.jsonl", CONLL_ANSWERS)
    scores = compare_files(conll, answers, format="mentions", schemes="strict", keep_errors=True)
    records = error_records(scores.results["strict"].errors, scores.pairs, "strict")
    assert [(r["kind"], [p["text"] for p in r["pred"]]) for r in records if not r["gold"]] == [
        ("not_in_text", ["Oslo"])
    ]


def test_error_records_name_a_mention_not_in_the_text_by_its_own_kind(files, tmp_path):
    gold, answers = files
    errors = tmp_path / "errors.jsonl"
    html = tmp_path / "report.html"
    result = invoke(
        ["compare", gold, answers, "--format", "mentions", "--schemes", "strict", "--errors", errors, "--html", html]
    )
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in errors.read_text(encoding="utf-8").splitlines()]
    # By hand, document 2: "Acme" ORG is missed; the second "Bo Chen" is a duplicate (spurious,
    # the string is in the text); "Berlin" is not in the text. Neither has offsets.
    assert [(r["kind"], r["gold"] and r["gold"]["text"], [p["text"] for p in r["pred"]]) for r in records] == [
        ("missed", "Acme", []),
        ("spurious", None, ["Bo Chen"]),
        ("not_in_text", None, ["Berlin"]),
    ]
    assert records[2]["pred"] == [{"start": None, "end": None, "label": "LOC", "text": "Berlin"}]
    assert records[2]["count"] == "spu"
    page = html.read_text(encoding="utf-8")
    assert '<td class="kind">not_in_text</td>' in page and "Berlin" in page


def test_error_lines_write_what_error_records_hold_for_mentions(files):
    import srsly
    from spacy_spanf1.report import error_lines, error_records

    gold, answers = files
    scores = compare_files(gold, answers, format="mentions", schemes=["strict", "iou"], keep_errors=True)
    for name in ("strict", "iou"):
        errors = scores.results[name].errors
        lines = error_lines(errors, scores.pairs, name)
        assert lines == [srsly.json_dumps(r) for r in error_records(errors, scores.pairs, name)]
        assert sum('"kind":"not_in_text"' in line for line in lines) == 1
