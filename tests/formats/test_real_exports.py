"""Exports written the way their tools write them, as a new user brings
them: offsets that disagree with their quoted text (brat, BratEval's data),
UTF-16 offsets (Label Studio's and doccano's browser front ends), old export
layouts (doccano 1.x), files that are not what their extension says
(Prodigy and Hugging Face records in a .jsonl), and every case that used to
score a silent zero. Each is a one-line message or a counted, shown note;
never an exit 0 without a word."""

import json
import subprocess
import sys

import pytest

from helpers import assert_clean_failure, cli_env, invoke, read, write, write_jsonl
from spacy_spanf1 import compare_files
from spacy_spanf1.formats import InputError, SettingError
from spacy_spanf1.spans import Span

# --------------------------------------------------------------------------
# brat: the offsets are the truth, the quoted text a convenience
# --------------------------------------------------------------------------

#: Like BratEval's ChEMU sample (pred 0007.ann T13): the predicted entity's offsets cover
#: "was added to a solution of ethanone" (characters 10-45), its quoted text is only the
#: last word. brat and BratEval score the offsets.
BRAT_TEXT = "Water 2 g was added to a solution of ethanone in THF."
BRAT_GOLD = "T1\tSTARTING_MATERIAL 37 45\tethanone\nT2\tSOLVENT 49 52\tTHF\n"
BRAT_PRED = "T1\tSTARTING_MATERIAL 10 45\tethanone\nT2\tSOLVENT 49 52\tTHF\n#1\tAnnotatorNotes T2\tchecked\n"


def brat_pair(tmp_path, gold_docs, pred_docs):
    for side, docs in (("gold", gold_docs), ("pred", pred_docs)):
        folder = tmp_path / side
        folder.mkdir()
        for name, (text, ann) in docs.items():
            write(folder / f"{name}.txt", text)
            write(folder / f"{name}.ann", ann)
    return tmp_path / "gold", tmp_path / "pred"


def test_brat_quoted_text_that_disagrees_is_scored_at_its_offsets_and_counted(tmp_path):
    gold, pred = brat_pair(tmp_path, {"d": (BRAT_TEXT, BRAT_GOLD)}, {"d": (BRAT_TEXT, BRAT_PRED)})
    assert BRAT_TEXT[37:45] == "ethanone" and BRAT_TEXT[10:45] == "was added to a solution of ethanone"
    scores = compare_files(gold, pred, format="brat", schemes=["strict", "type"])
    # strict: T2 COR; T1 10-45 overlaps gold 37-45 with other boundaries: INC (hand count,
    # SemEval's strict); type: same label and overlapping: COR
    assert scores.results["strict"].counts == {"cor": 1, "inc": 1, "par": 0, "mis": 0, "spu": 0}
    assert scores.results["type"].counts == {"cor": 2, "inc": 0, "par": 0, "mis": 0, "spu": 0}
    mismatch = scores.notes["pred"]["text_mismatch"]
    assert mismatch["count"] == 1 and "gold" not in scores.notes
    assert "entity T1" in mismatch["examples"][0] and '"ethanone"' in mismatch["examples"][0]
    assert '"was added to a solution of ethanone"' in mismatch["examples"][0]
    assert scores.to_dict()["notes"]["pred"]["text_mismatch"]["count"] == 1
    assert scores.not_scored == {"pred": {"notes": 1}}


def test_brat_text_mismatch_policies(tmp_path):
    gold, pred = brat_pair(tmp_path, {"d": (BRAT_TEXT, BRAT_GOLD)}, {"d": (BRAT_TEXT, BRAT_PRED)})
    with pytest.raises(InputError) as err:
        compare_files(gold, pred, format="brat", schemes="strict", text_mismatch="error")
    assert "d.ann:1:" in str(err.value) and "entity T1" in str(err.value)
    ignored = compare_files(gold, pred, format="brat", schemes="strict", text_mismatch="ignore")
    assert ignored.notes == {} and ignored.results["strict"].counts["inc"] == 1
    with pytest.raises(SettingError) as bad:
        compare_files(gold, pred, format="brat", schemes="strict", text_mismatch="loud")
    assert "warn, error, ignore" in str(bad.value)


def test_brat_text_mismatch_is_shown_by_the_command_and_written_to_the_json(tmp_path):
    gold, pred = brat_pair(tmp_path, {"d": (BRAT_TEXT, BRAT_GOLD)}, {"d": (BRAT_TEXT, BRAT_PRED)})
    out = tmp_path / "scores.json"
    result = invoke(["compare", gold, pred, "--format", "brat", "--schemes", "strict", "--output", out])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.stdout.splitlines() if "quote a text" in line)
    assert line.startswith("⚠ 1 span(s)") and "entity T1" in line and "--text-mismatch error" in line
    assert json.loads(out.read_text())["notes"]["pred"]["text_mismatch"]["count"] == 1
    stopped = invoke(["compare", gold, pred, "--format", "brat", "--schemes", "strict", "--text-mismatch", "error"])
    assert_clean_failure(stopped, 1, "entity T1")
    assert "--text-mismatch=warn" in stopped.stderr


def test_brat_prediction_missing_a_document_is_counted_and_can_be_an_error(tmp_path):
    gold, pred = brat_pair(
        tmp_path, {"a": (BRAT_TEXT, BRAT_GOLD), "b": (BRAT_TEXT, BRAT_GOLD)}, {"a": (BRAT_TEXT, BRAT_GOLD)}
    )
    scores = compare_files(gold, pred, format="brat", schemes="strict")
    assert scores.documents == 2 and scores.scored == 2
    assert scores.results["strict"].counts == {"cor": 2, "inc": 0, "par": 0, "mis": 2, "spu": 0}
    assert scores.notes["pred"]["missing_documents"] == {"count": 1, "examples": ["file 'b.ann'"]}
    result = invoke(["compare", gold, pred, "--format", "brat", "--schemes", "strict"])
    assert result.exit_code == 0
    assert "⚠ 1 gold document(s) have no predicted document" in result.stdout and "file 'b.ann'" in result.stdout
    stopped = invoke(["compare", gold, pred, "--format", "brat", "--schemes", "strict", "--missing-pred", "error"])
    assert_clean_failure(stopped, 1, "file 'b.ann' of")
    with pytest.raises(SettingError, match="Unknown missing pred 'skip' in 'missing_pred'"):
        compare_files(gold, pred, format="brat", schemes="strict", missing_pred="skip")


def test_brat_valid_variants_are_counted_not_scored(tmp_path):
    ann = (
        BRAT_GOLD + "R1\tSolvent Arg1:T2 Arg2:T1\nE1\tSTARTING_MATERIAL:T1\nA1\tNegated E1\n"
        "N1\tReference T1 ChEBI:123\t ethanone\n#1\tAnnotatorNotes T1\tnote\n"
    )
    gold, pred = brat_pair(tmp_path, {"d": (BRAT_TEXT, ann)}, {"d": (BRAT_TEXT, BRAT_GOLD)})
    scores = compare_files(gold, pred, format="brat", schemes="strict")
    assert scores.results["strict"].f1 == 1.0 and scores.notes == {}
    # the normalization is T1's kb id: read, and not scored without a link scheme
    assert scores.not_scored["gold"] == {"relations": 1, "events": 1, "attributes": 1, "kb_ids": 1, "notes": 1}


# --------------------------------------------------------------------------
# Label Studio: UTF-16 offsets, line breaks, selections that select nothing
# --------------------------------------------------------------------------

EMOJI_TEXT = "Great trip 😀 to London with Ada Lovelace."


def ls_task(task_id, text, annotations=(), predictions=()):
    """A task as Label Studio's JSON export writes it (fields of Label Studio 1.x)."""
    return {
        "id": task_id,
        "annotations": [
            {
                "id": 10 + k,
                "completed_by": 1 + k,
                "result": result,
                "was_cancelled": False,
                "ground_truth": False,
                "created_at": "2024-05-02T10:00:00.000000Z",
                "lead_time": 12.5,
                "task": task_id,
            }
            for k, result in enumerate(annotations)
        ],
        "predictions": [
            {"id": 20 + k, "model_version": version, "score": 0.9, "result": result, "task": task_id}
            for k, (version, result) in enumerate(predictions)
        ],
        "data": {"text": text},
        "meta": {},
        "created_at": "2024-05-01T09:00:00.000000Z",
        "inner_id": task_id,
        "total_annotations": len(annotations),
    }


def ls_result(start, end, label, text, rid):
    return {
        "value": {"start": start, "end": end, "text": text, "labels": [label]},
        "id": rid,
        "from_name": "label",
        "to_name": "text",
        "type": "labels",
        "origin": "manual",
    }


def utf16_offsets(text, piece):
    """Where the browser puts piece: offsets in UTF-16 code units."""
    start = len(text[: text.index(piece)].encode("utf-16-le")) // 2
    return start, start + len(piece.encode("utf-16-le")) // 2


def test_labelstudio_utf16_offsets_after_an_emoji_are_converted_and_counted(tmp_path):
    london, ada = utf16_offsets(EMOJI_TEXT, "London"), utf16_offsets(EMOJI_TEXT, "Ada Lovelace")
    assert london == (17, 23) and EMOJI_TEXT[16:22] == "London"  # one past, as the issue reports
    results = [ls_result(*london, "LOC", "London", "r1"), ls_result(*ada, "PER", "Ada Lovelace", "r2")]
    path = tmp_path / "export.json"
    # two annotators of the same task: the second one's is the prediction
    path.write_text(
        json.dumps([ls_task(1, EMOJI_TEXT, [results, results]), ls_task(2, "Plain text here.", [[], []])]),
        encoding="utf-8",
    )
    docs = read("labelstudio", path)
    assert docs[0].spans == [Span(16, 22, "LOC"), Span(28, 40, "PER")]
    assert docs[0].notes == {"utf16_offsets": {"count": 1, "examples": ["task 1"]}}
    scores = compare_files(
        path, format="labelstudio", schemes="strict", pred_from="annotations", annotator=1, pred_annotator=2
    )
    assert scores.results["strict"].f1 == 1.0
    assert scores.notes["gold"]["utf16_offsets"]["count"] == 1 == scores.notes["pred"]["utf16_offsets"]["count"]
    result = invoke(
        [
            "compare",
            path,
            "--format",
            "labelstudio",
            "--pred-from",
            "annotations",
            "--annotator",
            "1",
            "--pred-annotator",
            "2",
            "--schemes",
            "strict",
        ]
    )
    assert result.exit_code == 0 and "1 document(s) count offsets in UTF-16 code units" in result.stdout
    same = invoke(["compare", path, "--format", "labelstudio", "--pred-from", "annotations", "--schemes", "strict"])
    assert same.exit_code == 2 and "--pred-annotator" in same.output


def test_labelstudio_offsets_counting_crlf_as_one_are_converted(tmp_path):
    text = "Dear Ada,\r\nLondon is rainy.\r\nYours, Charles"
    # the browser shows "\r\n" as one line break: offsets count it as one character
    shown = text.replace("\r\n", "\n")
    results = [
        ls_result(shown.index("London"), shown.index("London") + 6, "LOC", "London", "a"),
        ls_result(shown.index("Charles"), shown.index("Charles") + 7, "PER", "Charles", "b"),
    ]
    path = tmp_path / "export.json"
    path.write_text(json.dumps([ls_task(1, text, [results])]), encoding="utf-8")
    doc = read("labelstudio", path)[0]
    assert [doc.text[s.start : s.end] for s in doc.spans] == ["London", "Charles"]
    assert doc.notes == {"newline_offsets": {"count": 1, "examples": ["task 1"]}}


def test_labelstudio_unexplained_mismatch_is_counted_and_offsets_kept(tmp_path):
    # Label Studio trims whitespace from the selection's text, not from its offsets
    text = "Visit  London  today."
    results = [ls_result(5, 14, "LOC", "London", "a")]
    path = tmp_path / "export.json"
    path.write_text(json.dumps([ls_task(1, text, [results])]), encoding="utf-8")
    doc = read("labelstudio", path)[0]
    assert doc.spans == [Span(5, 14, "LOC")]
    assert doc.notes["text_mismatch"]["count"] == 1
    with pytest.raises(InputError, match="task 1, result a"):
        read("labelstudio", path, text_mismatch="error")


def test_labelstudio_model_version_or_annotator_selecting_nothing_is_an_error(tmp_path):
    result = [ls_result(0, 5, "X", "Great", "a")]
    path = tmp_path / "export.json"
    path.write_text(json.dumps([ls_task(1, EMOJI_TEXT, [result], [("v1", result), ("v2", result)])]), encoding="utf-8")
    outcome = invoke(["compare", path, "--format", "labelstudio", "--schemes", "strict", "--model-version", "v9"])
    assert_clean_failure(outcome, 1, "no task has predictions of the model version 'v9'")
    assert "the model versions in the file: v1, v2" in outcome.stderr
    outcome = invoke(["compare", path, "--format", "labelstudio", "--schemes", "strict", "--annotator", "99"])
    assert_clean_failure(outcome, 1, "no task has annotations of the annotator '99'")
    assert "the annotators in the file: 1" in outcome.stderr


def test_labelstudio_tasks_without_predictions_are_counted(tmp_path):
    result = [ls_result(0, 5, "X", "Great", "a")]
    path = tmp_path / "export.json"
    path.write_text(
        json.dumps([ls_task(1, EMOJI_TEXT, [result], [("v1", result)]), ls_task(2, "Other.", [[]])]), encoding="utf-8"
    )
    scores = compare_files(path, format="labelstudio", schemes="strict")
    assert scores.documents == 2 and scores.notes["pred"]["missing_documents"] == {"count": 1, "examples": ["task 2"]}
    with pytest.raises(InputError, match="task 2 of .* has no prediction"):
        compare_files(path, format="labelstudio", schemes="strict", missing_pred="error")


# --------------------------------------------------------------------------
# Files that are not what their extension says
# --------------------------------------------------------------------------

PRODIGY_RECORDS = [
    {
        "text": "Ada met Bob.",
        "_input_hash": 11,
        "_task_hash": 21,
        "spans": [{"start": 0, "end": 3, "label": "PER"}],
        "answer": "accept",
        "_timestamp": 1700000000,
    },
    {
        "text": "Bob met Ada.",
        "_input_hash": 12,
        "_task_hash": 22,
        "spans": [{"start": 0, "end": 3, "label": "ORG"}],
        "answer": "reject",
        "_timestamp": 1700000001,
    },
]


def test_a_prodigy_file_read_as_jsonl_is_an_error_naming_prodigy(tmp_path):
    path = write_jsonl(tmp_path / "db-out.jsonl", PRODIGY_RECORDS)
    result = invoke(["compare", path, path, "--schemes", "strict"])
    assert_clean_failure(result, 1, "db-out.jsonl:1:")
    assert "'--format' prodigy" in result.stderr
    scores = compare_files(path, path, format="prodigy", schemes="strict")
    assert scores.skipped == 1 and scores.not_scored["gold"] == {"rejected": 1}


def test_a_hugging_face_tags_file_read_as_jsonl_is_an_error_naming_tags(tmp_path):
    path = write_jsonl(tmp_path / "train.jsonl", [{"id": "0", "tokens": ["Ada", "met"], "ner_tags": [1, 0]}])
    result = invoke(["compare", path, path, "--schemes", "strict"])
    assert_clean_failure(result, 1, "train.jsonl:1:")
    assert "'--format' tags" in result.stderr


def test_a_doccano_1x_file_read_as_jsonl_is_an_error_naming_doccano(tmp_path):
    path = write_jsonl(tmp_path / "all.jsonl", [{"id": 1, "text": "Ada met Bob.", "labels": [[0, 3, "PER"]]}])
    result = invoke(["compare", path, path, "--schemes", "strict"])
    assert_clean_failure(result, 1, "'--format' doccano")
    scores = compare_files(path, path, format="doccano", schemes="strict")
    assert scores.results["strict"].counts["cor"] == 1


def test_prodigy_character_and_token_offsets_that_disagree_are_an_error(tmp_path):
    tokens = [
        {"text": "Ada", "start": 0, "end": 3, "id": 0},
        {"text": "met", "start": 4, "end": 7, "id": 1},
        {"text": "Bob", "start": 8, "end": 11, "id": 2},
    ]
    record = {
        "text": "Ada met Bob",
        "tokens": tokens,
        "answer": "accept",
        "_input_hash": 1,
        "spans": [{"start": 8, "end": 11, "token_start": 0, "token_end": 0, "label": "PER"}],
    }
    path = write_jsonl(tmp_path / "p.jsonl", [record])
    for unit in ("char", "token"):
        with pytest.raises(InputError) as err:
            read("prodigy", path, unit=unit)
        message = str(err.value)
        assert "p.jsonl:1:" in message and "span 0 (PER) has the characters 8-11" in message
        assert "tokens 0-0" in message and "characters 0-3" in message


def test_prodigy_reject_and_ignore_are_skipped_and_counted(tmp_path):
    records = PRODIGY_RECORDS + [dict(PRODIGY_RECORDS[0], _input_hash=13, answer="ignore")]
    path = write_jsonl(tmp_path / "db-out.jsonl", records)
    scores = compare_files(path, path, format="prodigy", schemes="strict")
    assert scores.documents == 3 and scores.skipped == 2
    assert scores.not_scored["gold"] == {"rejected": 1, "ignored": 1}


# --------------------------------------------------------------------------
# No silent zeros
# --------------------------------------------------------------------------

GOLD_RECORDS = [
    {"text": "Ada met Bob.", "spans": [{"start": 0, "end": 3, "label": "PER"}]},
    {"text": "Bob is in Paris.", "spans": [{"start": 10, "end": 15, "label": "LOC"}]},
]


def test_a_misspelled_span_field_is_an_error_naming_the_key(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD_RECORDS)
    pred = write_jsonl(tmp_path / "pred.jsonl", [{"text": r["text"], "spnas": r["spans"]} for r in GOLD_RECORDS])
    result = invoke(["compare", gold, pred, "--schemes", "strict"])
    assert_clean_failure(result, 1, 'pred.jsonl:1: the record has no "spans" but has "spnas"')


def test_a_prediction_without_any_span_field_is_an_error(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD_RECORDS)
    pred = write_jsonl(tmp_path / "pred.jsonl", [{"text": r["text"], "predictions": []} for r in GOLD_RECORDS])
    result = invoke(["compare", gold, pred, "--schemes", "strict"])
    assert_clean_failure(result, 1, 'no record has "spans", so the file predicts nothing')
    assert '"predictions"' in result.stderr


def test_no_documents_is_an_error(tmp_path):
    gold, pred = write(tmp_path / "gold.jsonl", ""), write(tmp_path / "pred.jsonl", "\n")
    result = invoke(["compare", gold, pred, "--schemes", "strict"])
    assert_clean_failure(result, 1, "holds no document")


def test_predicted_labels_none_of_which_is_gold_are_a_warning(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD_RECORDS)
    lower = [
        {"text": r["text"], "spans": [dict(s, label=s["label"].lower()) for s in r["spans"]]} for r in GOLD_RECORDS
    ]
    pred = write_jsonl(tmp_path / "pred.jsonl", lower)
    with pytest.warns(UserWarning, match="no predicted label occurs in the gold"):
        scores = compare_files(gold, pred, schemes="strict")
    assert scores.results["strict"].counts == {"cor": 0, "inc": 2, "par": 0, "mis": 0, "spu": 0}
    (warning,) = scores.warnings
    assert "no predicted label occurs in the gold" in warning and "differ in case only" in warning
    assert 'gold labels "LOC", "PER"' in warning and 'predicted labels "loc", "per"' in warning
    result = invoke(["compare", gold, pred, "--schemes", "strict"])
    assert result.exit_code == 0 and "⚠ no predicted label occurs in the gold" in result.stdout
    same = compare_files(gold, gold, schemes="strict")
    assert same.warnings == ()


def test_an_identical_baseline_is_never_significant(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD_RECORDS)
    pred = write_jsonl(tmp_path / "pred.jsonl", [GOLD_RECORDS[0], {"text": GOLD_RECORDS[1]["text"], "spans": []}])
    for test in ("bootstrap", "randomization"):
        scores = compare_files(gold, pred, schemes="strict", baseline=pred, test=test)
        comparison = scores.comparison["strict"]
        assert comparison.delta == 0.0 and comparison.p_value == 1.0 and not comparison.significant
    result = invoke(["compare", gold, pred, "--schemes", "strict", "--baseline", pred, "--test", "bootstrap"])
    row = next(line for line in result.stdout.splitlines() if line.startswith("strict") and "+0.00" in line)
    assert "*" not in row and "1.0000" in row


def test_a_closed_pipe_exits_quietly(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD_RECORDS * 50)
    # The reader of stdout is gone before the command prints (`| head` closing early).
    process = subprocess.Popen(
        [sys.executable, "-m", "spacy_spanf1", "compare", gold, gold, "--schemes", "strict,partial", "--by", "label"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=cli_env(),
    )
    process.stdout.close()
    with process.stderr:
        stderr = process.stderr.read().decode()
    assert process.wait(timeout=120) == 0 and stderr == ""


def test_doccano_utf16_offsets_past_the_text_are_converted(tmp_path):
    text = "Ciao 😀 from Paris"  # doccano's browser counted the emoji as two code units
    start, end = utf16_offsets(text, "Paris")
    assert end == len(text) + 1
    path = write_jsonl(tmp_path / "all.jsonl", [{"id": 1, "text": text, "label": [[start, end, "LOC"]]}])
    doc = read("doccano", path)[0]
    assert [doc.text[s.start : s.end] for s in doc.spans] == ["Paris"]
    assert doc.notes == {"utf16_offsets": {"count": 1, "examples": ["line 1"]}}
    past = write_jsonl(tmp_path / "past.jsonl", [{"id": 1, "text": "No emoji", "label": [[0, 40, "X"]]}])
    with pytest.raises(InputError, match="0 <= start < end <= 8"):
        read("doccano", past)


def test_jsonl_span_texts_are_compared_when_given(tmp_path):
    text = "Visit 😀 London"
    start, end = utf16_offsets(text, "London")
    records = [
        {"text": text, "spans": [{"start": start, "end": end, "label": "LOC", "text": "London"}]},
        {"text": "Ada met Bob", "spans": [{"start": 0, "end": 3, "label": "PER", "text": "Bob"}]},
        {"text": "Plain", "spans": [{"start": 0, "end": 5, "label": "X"}]},
    ]
    path = write_jsonl(tmp_path / "p.jsonl", records)
    docs = read("jsonl", path)
    assert (start, end) == (9, 15) and docs[0].spans == [Span(8, 14, "LOC")] and docs[1].spans == [Span(0, 3, "PER")]
    assert docs[0].notes["utf16_offsets"]["count"] == 1
    assert docs[1].notes["text_mismatch"]["count"] == 1 and not docs[2].notes
    with pytest.raises(InputError, match="p.jsonl:2: line 2, span 0"):
        read("jsonl", path, text_mismatch="error")


def test_labelstudio_before_1_0_completions_are_read_as_annotations(tmp_path):
    # Label Studio 0.x exports: {"id", "data", "completions": [{"result": [...]}], "predictions": [...]}
    result = [ls_result(0, 5, "X", "Great", "a")]
    task = ls_task(1, EMOJI_TEXT, [result], [("v1", result)])
    task["completions"] = task.pop("annotations")
    path = tmp_path / "export.json"
    path.write_text(json.dumps([task]), encoding="utf-8")
    assert read("labelstudio", path)[0].spans == [Span(0, 5, "X")]
    assert compare_files(path, format="labelstudio", schemes="strict").results["strict"].f1 == 1.0


def test_labelstudio_json_min_export_is_an_error_naming_it(tmp_path):
    # JSON-MIN: flat records, no "data" and no annotation ids
    path = tmp_path / "min.json"
    path.write_text(
        json.dumps(
            [
                {
                    "id": 1,
                    "text": "Ada met Bob",
                    "annotator": 1,
                    "label": [{"start": 0, "end": 3, "text": "Ada", "labels": ["PER"]}],
                }
            ]
        ),
        encoding="utf-8",
    )
    with pytest.raises(InputError, match="JSON-MIN export: its flat records do not say which results"):
        read("labelstudio", path)


def test_doccano_before_1_0_annotations_are_read(tmp_path):
    record = {
        "id": 1,
        "text": "Ada met Bob",
        "meta": {},
        "annotations": [{"label": "PER", "start_offset": 0, "end_offset": 3, "user": 1}],
    }
    path = write_jsonl(tmp_path / "old.jsonl", [record])
    assert read("doccano", path)[0].spans == [Span(0, 3, "PER")]
    ids = write_jsonl(tmp_path / "ids.jsonl", [dict(record, annotations=[dict(record["annotations"][0], label=3)])])
    with pytest.raises(InputError, match='ids.jsonl:1: item 0 of "annotations" has the label id 3'):
        read("doccano", ids)
    as_jsonl = invoke(["compare", path, path, "--schemes", "strict"])
    assert_clean_failure(as_jsonl, 1, "'--format' doccano")


# --------------------------------------------------------------------------
# Found by trying exports as they come
# --------------------------------------------------------------------------

PRODIGY_TOKENS = [
    {"text": "Ada", "start": 0, "end": 3, "id": 0, "ws": True},
    {"text": "met", "start": 4, "end": 7, "id": 1, "ws": True},
    {"text": "Bob", "start": 8, "end": 11, "id": 2, "ws": False},
    {"text": ".", "start": 11, "end": 12, "id": 3, "ws": False},
]
PRODIGY_SPANS = [
    {"start": 0, "end": 3, "token_start": 0, "token_end": 0, "label": "PER"},
    {"start": 8, "end": 11, "token_start": 2, "token_end": 2, "label": "PER"},
]


def test_prodigy_a_rejected_answer_does_not_take_the_prediction_of_its_input(tmp_path):
    # db-out of two sessions: one rejected the task, the other accepted it (same _input_hash)
    base = {"text": "Ada met Bob.", "_input_hash": 7, "_task_hash": 70, "tokens": PRODIGY_TOKENS}
    gold = write_jsonl(
        tmp_path / "g.jsonl",
        [
            dict(base, spans=[], answer="reject", _session_id="s-ann"),
            dict(base, spans=PRODIGY_SPANS, answer="accept", _session_id="s-bob"),
        ],
    )
    pred = write_jsonl(tmp_path / "p.jsonl", [dict(base, spans=PRODIGY_SPANS, _task_hash=71)])
    scores = compare_files(gold, pred, format="prodigy", schemes="strict")
    assert scores.results["strict"].counts == {"cor": 2, "inc": 0, "par": 0, "mis": 0, "spu": 0}
    assert scores.skipped == 1 and scores.notes == {}
    twice = write_jsonl(tmp_path / "g2.jsonl", [dict(base, spans=PRODIGY_SPANS, answer="accept")] * 2)
    with pytest.raises(InputError, match="two annotated gold documents of the key '7'"):
        compare_files(twice, pred, format="prodigy", schemes="strict")


def test_prodigy_answer_that_is_not_a_string_is_one_line(tmp_path):
    gold = write_jsonl(tmp_path / "g.jsonl", [{"text": "a", "answer": [], "spans": []}])
    result = invoke(["compare", gold, gold, "--format", "prodigy", "--schemes", "strict"])
    assert_clean_failure(result, 1, 'g.jsonl:1: "answer" is [], not "accept", "reject" or "ignore"')


def test_prodigy_gold_without_answers_says_why_it_is_skipped(tmp_path):
    gold = write_jsonl(tmp_path / "g.jsonl", [{"text": "Ada", "spans": [{"start": 0, "end": 3, "label": "PER"}]}])
    with pytest.raises(
        InputError, match='none is annotation \\(unanswered 1; a Prodigy record is gold only when answered "accept"\\)'
    ):
        compare_files(gold, gold, format="prodigy", schemes="strict")


def test_labelstudio_prediction_ids_without_results_say_so(tmp_path):
    task = ls_task(1, "Ada met Bob.", [[ls_result(0, 3, "PER", "Ada", "r1")]])
    task["predictions"] = [5]
    path = tmp_path / "ls.json"
    path.write_text(json.dumps([task]), encoding="utf-8")
    with pytest.raises(InputError, match=r'task 1 has "predictions": \[5\], the ids of its predictions'):
        read("labelstudio", path, side="pred")


def test_kaggle_header_only_submission_predicts_nothing_for_every_id(tmp_path):
    gold = write(tmp_path / "g.csv", "id,class,predictionstring\nE1,Lead,0 1 2\nE2,Claim,3 4\n")
    pred = write(tmp_path / "p.csv", "id,class,predictionstring\n")
    with pytest.warns(UserWarning, match="no predicted span in the whole corpus"):
        scores = compare_files(gold, pred, schemes="overlap")
    assert scores.results["overlap"].counts == {"tp": 0, "fp": 0, "fn": 2}
    assert scores.notes["pred"]["missing_documents"]["count"] == 2


def test_kaggle_duplicate_rows_are_counted(tmp_path):
    gold = write(tmp_path / "g.csv", "id,class,predictionstring\nE1,Lead,0 1 2\n")
    pred = write(tmp_path / "p.csv", "id,class,predictionstring\nE1,Lead,0 1 2\nE1,Lead,0 1 2\n")
    scores = compare_files(gold, pred, schemes="overlap")
    assert scores.results["overlap"].counts == {"tp": 1, "fp": 0, "fn": 0}  # identical spans count once
    assert scores.notes["pred"]["duplicate_rows"]["count"] == 1


def test_shards_of_several_formats_are_one_error(tmp_path):
    for side in ("g", "p"):
        folder = tmp_path / side
        folder.mkdir()
        write_jsonl(folder / "a.jsonl", [{"text": "Ann", "spans": [{"start": 0, "end": 3, "label": "PER"}]}])
        write(folder / "notes.txt", "Ann B-PER\n")
    result = invoke(["compare", tmp_path / "g", tmp_path / "p", "--schemes", "strict"])
    assert_clean_failure(result, 1, "the shards are files of several formats (a.jsonl: jsonl; notes.txt: conll)")


def test_tag_shards_keep_dataset_info_beside_them(tmp_path):
    info = {
        "features": {
            "ner_tags": {"feature": {"names": ["O", "B-PER", "I-PER"], "_type": "ClassLabel"}, "_type": "Sequence"}
        }
    }
    for side in ("g", "p"):
        folder = tmp_path / side
        folder.mkdir()
        write_jsonl(folder / "part-0.jsonl", [{"tokens": ["Ann", "Lee", "ran"], "ner_tags": [1, 2, 0]}])
        write_jsonl(folder / "part-1.jsonl", [{"tokens": ["Bo", "ran"], "ner_tags": [1, 0]}])
        (folder / "dataset_info.json").write_text(json.dumps(info, indent=2), encoding="utf-8")
    scores = compare_files(tmp_path / "g", tmp_path / "p", format="tags", schemes="strict")
    assert scores.documents == 2 and scores.results["strict"].f1 == 1.0


def test_hf_string_tags_are_checked_against_the_dataset_names(tmp_path):
    info = {
        "features": {
            "ner_tags": {"feature": {"names": ["O", "B-PER", "I-PER"], "_type": "ClassLabel"}, "_type": "Sequence"}
        }
    }
    (tmp_path / "dataset_info.json").write_text(json.dumps(info), encoding="utf-8")
    gold = write_jsonl(tmp_path / "gold.jsonl", [{"tokens": ["Ann", "Lee", "ran"], "ner_tags": [1, 2, 0]}])
    pred = write_jsonl(tmp_path / "pred.jsonl", [{"tokens": ["Ann", "Lee", "ran"], "ner_tags": ["1", "2", "0"]}])
    result = invoke(["compare", gold, pred, "--format", "tags", "--schemes", "strict"])
    assert_clean_failure(result, 1, "pred.jsonl:1: tag '1' (token 0) of 'ner_tags' is not among the label names")


def test_prose_is_not_a_conll_file(tmp_path):
    text = write(tmp_path / "doc1.txt", "Ada Lovelace met Charles Babbage in London.\n")
    result = invoke(["compare", text, text, "--schemes", "strict"])
    assert_clean_failure(result, 1, "no tag of column -1 looks like an IOB tag")


def test_a_corpus_without_predicted_spans_is_a_warning(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD_RECORDS)
    pred = write_jsonl(tmp_path / "pred.jsonl", [{"text": r["text"], "spans": []} for r in GOLD_RECORDS])
    with pytest.warns(UserWarning, match="no predicted span in the whole corpus"):
        scores = compare_files(gold, pred, schemes="strict")
    assert any("no predicted span in the whole corpus" in w for w in scores.warnings)
    empty = write_jsonl(tmp_path / "empty.jsonl", [{"text": "Ann", "spans": []}])
    with pytest.warns(UserWarning, match="no gold span and no predicted span"):
        scores = compare_files(empty, empty, schemes="strict")
    assert any("no gold span and no predicted span" in w for w in scores.warnings)


def test_a_label_of_labels_found_on_one_side_only_is_a_warning(tmp_path):
    gold = write_jsonl(tmp_path / "lg.jsonl", [{"text": "Acme", "spans": [{"start": 0, "end": 4, "label": "ORG"}]}])
    pred = write_jsonl(tmp_path / "lp.jsonl", [{"text": "Acme", "spans": [{"start": 0, "end": 4, "label": "org"}]}])
    with (
        pytest.warns(UserWarning, match="no gold span in the whole corpus"),
        pytest.warns(UserWarning, match="of 'labels' occurs only in the prediction"),
    ):
        scores = compare_files(gold, pred, schemes="strict", labels=["org"])
    assert any(
        'the label "org" of \'labels\' occurs only in the prediction; the gold has "ORG"' in w for w in scores.warnings
    )


def test_a_label_named_like_an_option_is_printed_as_written(tmp_path):
    gold = write_jsonl(tmp_path / "g.jsonl", GOLD_RECORDS)
    result = invoke(["compare", gold, gold, "--schemes", "strict", "--labels", "seed"])
    assert_clean_failure(result, 1, 'the label "seed" occurs in neither')


def test_json_that_python_writes_is_read(tmp_path):
    # json.dumps({"score": float("nan")}) writes NaN, which strict parsers refuse
    path = write(
        tmp_path / "p.jsonl", '{"text": "Ann", "spans": [{"start": 0, "end": 3, "label": "PER"}], "score": NaN}\n'
    )
    assert read("jsonl", path)[0].spans == [Span(0, 3, "PER")]


def test_the_real_cause_is_named_not_a_wrong_document_count(tmp_path):
    gold = write_jsonl(
        tmp_path / "dg.jsonl", [{"text": "Ada", "label": [[0, 3, "PER"]]}, {"text": "Bob", "label": [[0, 3, "PER"]]}]
    )
    pred = write_jsonl(
        tmp_path / "dp.jsonl",
        [{"text": "Bob", "spans": [{"start": 0, "end": 3, "label": "PER"}]}, {"text": "Ada", "spans": []}],
    )
    result = invoke(["compare", gold, pred, "--format", "doccano", "--schemes", "strict"])
    assert_clean_failure(result, 1, "dp.jsonl: no record has")


def test_nan_offsets_are_one_line(tmp_path):
    gold = write_jsonl(tmp_path / "g.jsonl", [{"text": "Ann", "spans": [{"start": 0, "end": 3, "label": "PER"}]}])
    pred = write(tmp_path / "p.jsonl", '{"text": "Ann", "spans": [{"start": NaN, "end": 3, "label": "PER"}]}\n')
    result = invoke(["compare", gold, pred, "--schemes", "strict"])
    assert_clean_failure(result, 1, "p.jsonl:1: span 0 has non-integer offsets")


def test_a_lone_surrogate_is_one_line(tmp_path):
    # what JavaScript writes when it cuts an emoji in two
    gold = write(tmp_path / "g.jsonl", '{"text": "Ann \\ud83d", "spans": [{"start": 0, "end": 3, "label": "PER"}]}\n')
    result = invoke(["compare", gold, gold, "--schemes", "strict", "--errors", tmp_path / "e.jsonl"])
    assert_clean_failure(
        result, 1, "g.jsonl:1: the record's \"text\" holds a lone UTF-16 surrogate '\\ud83d' at character 4"
    )


def test_a_prediction_shared_by_two_gold_records_is_noted_once(tmp_path):
    gold = write_jsonl(
        tmp_path / "g.jsonl",
        [
            {"text": "Ann ran", "_input_hash": 1, "answer": "reject", "spans": []},
            {
                "text": "Ann ran",
                "_input_hash": 1,
                "answer": "accept",
                "spans": [{"start": 0, "end": 3, "label": "PER"}],
            },
        ],
    )
    pred = write_jsonl(
        tmp_path / "p.jsonl",
        [{"text": "Ann ran", "_input_hash": 1, "spans": [{"start": 0, "end": 3, "label": "PER", "text": "An"}]}],
    )
    scores = compare_files(gold, pred, format="prodigy", schemes="strict")
    assert scores.notes["pred"]["text_mismatch"]["count"] == 1


def test_offsets_past_the_text_are_an_error_where_the_tool_counts_code_points(tmp_path):
    # Prodigy counts characters as Python does: an end past the text is an off-by-one, not UTF-16
    gold = write_jsonl(
        tmp_path / "g.jsonl",
        [
            {
                "text": "😀 Ann Lee",
                "_input_hash": 1,
                "answer": "accept",
                "spans": [{"start": 2, "end": 5, "label": "PER"}, {"start": 6, "end": 10, "label": "PER"}],
            }
        ],
    )
    with pytest.raises(InputError, match="span 1 \\(PER\\) has the offsets 6-10; offsets need 0 <= start < end <= 9"):
        compare_files(gold, gold, format="prodigy", schemes="strict")


def test_labelstudio_quote_of_a_line_break_counted_once(tmp_path):
    text = "To:\r\n12 Main St\r\nBoston"
    value = {"start": 4, "end": 21, "text": "12 Main St\nBoston", "labels": ["ADDR"]}  # as the browser writes it
    task = {
        "id": 1,
        "data": {"text": text},
        "annotations": [{"result": [{"type": "labels", "value": value}]}],
        "predictions": [{"result": [{"type": "labels", "value": value}]}],
    }
    path = tmp_path / "ls.json"
    path.write_text(json.dumps([task]), encoding="utf-8")
    doc = read("labelstudio", path)[0]
    assert doc.text[doc.spans[0].start : doc.spans[0].end] == "12 Main St\r\nBoston"
    assert doc.notes == {"newline_offsets": {"count": 1, "examples": ["task 1"]}}


def test_doccano_browser_offsets_with_emoji_and_crlf(tmp_path):
    # UTF-16 units (two per emoji) and "\r\n" as one: "Ann" is at 8-11 in the browser's count
    path = write(tmp_path / "d.jsonl", '{"text": "😀😀 hi\\r\\nAnn", "label": [[8, 11, "PER"]]}\n')
    doc = read("doccano", path)[0]
    assert [doc.text[s.start : s.end] for s in doc.spans] == ["Ann"]
    assert list(doc.notes) == ["utf16_newline_offsets"]


def test_a_mismatch_is_named_once(tmp_path):
    task = ls_task(1, "Ann met Bob.", [[ls_result(0, 3, "PER", "Bob", "r1")]])
    path = tmp_path / "ls.json"
    path.write_text(json.dumps([task]), encoding="utf-8")
    (example,) = read("labelstudio", path)[0].notes["text_mismatch"]["examples"]
    assert example.startswith("task 1, result r1 (PER 0-3)") and example.count("task 1") == 1


def test_brat_crlf_counted_twice_gets_the_hint(tmp_path):
    gold, pred = brat_pair(
        tmp_path, {"a": ("A\r\nAnn ok", "T1\tPER 2 5\tAnn\n")}, {"a": ("A\r\nAnn ok", "T1\tPER 3 6\tAnn\n")}
    )
    scores = compare_files(gold, pred, format="brat", schemes="strict")
    (example,) = scores.notes["pred"]["text_mismatch"]["examples"]
    assert "pass 'newlines' keep" in example
    # newlines="keep" reads the prediction as written; the gold's offsets (brat's: CRLF as one) are
    # then explained by a line break counted once, and converted
    kept = compare_files(gold, pred, format="brat", schemes="strict", newlines="keep")
    assert kept.notes == {"gold": {"newline_offsets": {"count": 1, "examples": ["file 'a.ann'"]}}}
    assert kept.results["strict"].counts["cor"] == 1


def test_the_baseline_notes_and_warnings_are_shown(tmp_path):
    gold = write_jsonl(tmp_path / "g.jsonl", [{"text": "Ann", "spans": [{"start": 0, "end": 3, "label": "PER"}]}] * 2)
    empty = write_jsonl(tmp_path / "b0.jsonl", [{"text": "Ann", "spans": []}] * 2)
    with pytest.warns(UserWarning, match="baseline: no predicted span"):
        scores = compare_files(gold, gold, schemes="strict", baseline=empty)
    assert any(w.startswith("baseline: no predicted span") for w in scores.warnings)
    page = tmp_path / "r.html"
    result = invoke(["compare", gold, empty, "--schemes", "strict", "--html", page])
    assert result.exit_code == 0 and "⚠ no predicted span in the whole corpus" in page.read_text(encoding="utf-8")


def test_shard_notes_name_their_file(tmp_path):
    for side in ("g", "p"):
        (tmp_path / side).mkdir()
    for name in ("a.csv", "b.csv"):
        write(tmp_path / "g" / name, "id,discourse_type,predictionstring\nd1,Claim,0 1\n")
        write(tmp_path / "p" / name, "id,class,predictionstring\n")
    with pytest.warns(UserWarning, match="no predicted span in the whole corpus"):
        scores = compare_files(tmp_path / "g", tmp_path / "p", schemes="strict")
    assert scores.notes["pred"]["missing_documents"]["examples"] == ["a.csv id 'd1'", "b.csv id 'd1'"]
