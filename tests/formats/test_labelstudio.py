"""The Label Studio reader (`spacy_spanf1.formats.labelstudio`): a file written by hand in
Label Studio's JSON export, read as the same data written as JSONL would be, and each
problem named with its file in a one-line error."""

import json

import pytest

import spacy_spanf1.formats.labelstudio  # noqa: F401  (registers "labelstudio")
from helpers import GOLD, PRED, TEXT, as_jsonl, counts, invoke, read, read_error, write
from spacy_spanf1.formats import InputError, SettingError
from spacy_spanf1.spans import Span


def ls_result(start, end, label, text=None, rid="r"):
    value = {"start": start, "end": end, "labels": [label]}
    if text is not None:
        value["text"] = text
    return {"id": rid, "from_name": "label", "to_name": "text", "type": "labels", "value": value}


def ls_export(tmp_path, tasks, name="export.json"):
    return write(tmp_path / name, json.dumps(tasks))


def ls_task(tid=1, annotations=(), predictions=(), **extra):
    task = {
        "id": tid,
        "data": {"text": TEXT, "genre": "news"},
        "annotations": list(annotations),
        "predictions": list(predictions),
        "meta": {"batch": 2},
    }
    task.update(extra)
    return task


GOLD_RESULT = [
    ls_result(0, 12, "PER", "Ada Lovelace", "a"),
    ls_result(17, 32, "PER", "Charles Babbage", "b"),
    ls_result(36, 42, "LOC", "London", "c"),
]


PRED_RESULT = [ls_result(0, 3, "PER", "Ada"), ls_result(17, 32, "ORG"), ls_result(36, 42, "LOC")]


def test_labelstudio_one_file_both_sides(tmp_path):
    path = ls_export(
        tmp_path,
        [
            ls_task(
                17,
                [{"id": 5, "completed_by": 1, "result": GOLD_RESULT}],
                [{"model_version": "v1", "result": PRED_RESULT}],
            )
        ],
    )
    gold, pred = read("labelstudio", path), read("labelstudio", path, side="pred")
    assert gold[0].spans == GOLD and pred[0].spans == PRED
    assert gold[0].key == "17" and gold[0].name == "task 17"
    assert gold[0].meta == {"genre": "news", "batch": 2}
    jg, jp = as_jsonl(tmp_path, "g.jsonl", TEXT, GOLD), as_jsonl(tmp_path, "p.jsonl", TEXT, PRED)
    assert jg[0].spans == gold[0].spans and jg[0].text == gold[0].text
    assert counts([gold[0].spans], [pred[0].spans]) == counts([jg[0].spans], [jp[0].spans])


def test_labelstudio_several_labels_one_span_each(tmp_path):
    result = [{"type": "labels", "value": {"start": 0, "end": 12, "labels": ["PER", "NAME"]}}]
    path = ls_export(tmp_path, [ls_task(annotations=[{"result": result}])])
    assert read("labelstudio", path)[0].spans == [Span(0, 12, "NAME"), Span(0, 12, "PER")]


def test_labelstudio_cancelled_skipped_and_counted(tmp_path):
    anns = [
        {"was_cancelled": True, "completed_by": 1, "result": PRED_RESULT},
        {"was_cancelled": False, "completed_by": 2, "result": GOLD_RESULT},
    ]
    path = ls_export(tmp_path, [ls_task(annotations=anns), ls_task(2, annotations=anns[:1])])
    docs = read("labelstudio", path)
    assert docs[0].spans == GOLD and docs[0].counts == {"cancelled_annotations": 1}
    assert docs[1].spans is None and docs[1].counts == {"cancelled_annotations": 1}


def test_labelstudio_annotator_chooses(tmp_path):
    anns = [
        {"completed_by": 1, "result": PRED_RESULT},
        {"completed_by": {"id": 2, "email": "b@x.org"}, "result": GOLD_RESULT},
    ]
    path = ls_export(tmp_path, [ls_task(annotations=anns)])
    first = read("labelstudio", path)[0]
    assert first.spans == PRED and first.counts == {"unused_annotations": 1}
    assert read("labelstudio", path, annotator="b@x.org")[0].spans == GOLD
    assert read("labelstudio", path, annotator=2)[0].spans == GOLD
    with pytest.raises(InputError) as err:  # selects nothing: never all zeros
        read("labelstudio", path, annotator=9)
    assert "'9'" in str(err.value) and "annotators in the file: 1, 2 (b@x.org)" in str(err.value)


def test_labelstudio_model_version_chooses(tmp_path):
    preds = [{"model_version": "v1", "result": GOLD_RESULT}, {"model_version": "v2", "result": PRED_RESULT}]
    path = ls_export(tmp_path, [ls_task(annotations=[{"result": GOLD_RESULT}], predictions=preds)])
    assert read("labelstudio", path, side="pred")[0].spans == GOLD
    doc = read("labelstudio", path, side="pred", model_version="v2")[0]
    assert doc.spans == PRED and doc.counts == {"unused_predictions": 1}


def test_labelstudio_two_files_pred_from_annotations(tmp_path):
    gold = ls_export(tmp_path, [ls_task(annotations=[{"result": GOLD_RESULT}])], "a.json")
    other = ls_export(tmp_path, [ls_task(annotations=[{"result": PRED_RESULT}])], "b.json")
    with pytest.raises(InputError, match="pred_from=annotations"):
        read("labelstudio", other, side="pred")
    assert read("labelstudio", other, side="pred", pred_from="annotations")[0].spans == PRED
    assert read("labelstudio", gold)[0].spans == GOLD


def test_labelstudio_relations_and_other_results_counted(tmp_path):
    result = GOLD_RESULT + [
        {"type": "relation", "from_id": "a", "to_id": "b"},
        {"type": "choices", "value": {"choices": ["ok"]}},
    ]
    path = ls_export(tmp_path, [ls_task(annotations=[{"result": result}])])
    doc = read("labelstudio", path)[0]
    # a relation without a label (a labeling config without <Relations>
    # labels) is read and not scored; labelled relations are Document.relations
    assert doc.spans == GOLD and doc.counts == {"unlabeled_relations": 1, "other_results": 1}
    assert doc.relations == []


def test_labelstudio_text_field(tmp_path):
    task = {"id": 3, "data": {"body": TEXT}, "annotations": [{"result": GOLD_RESULT}]}
    path = ls_export(tmp_path, [task])
    assert read("labelstudio", path, text_field="body")[0].spans == GOLD
    with pytest.raises(InputError, match="task 3 has no \"text\" but has 'body': pass 'text_field'"):
        read("labelstudio", path)


@pytest.mark.parametrize(
    "tasks,problem",
    [
        ([ls_task(annotations=[{"result": [ls_result(0, 99, "PER")]}])], "0 <= start < end <= 43"),
        ([ls_task(annotations=[{"result": [ls_result("0", 3, "PER")]}])], "non-integer offsets"),
        (
            [ls_task(annotations=[{"result": [{"type": "labels", "value": {"start": 0, "end": 3, "labels": []}}]}])],
            "one or more labels",
        ),
        ({"id": 1}, "expected a JSON array of tasks"),
        ([["not a task"]], "not an object"),
    ],
    ids=["offsets", "non-int", "no-label", "not-array", "not-object"],
)
def test_labelstudio_errors(tmp_path, tasks, problem):
    path = ls_export(tmp_path, tasks)
    message = read_error("labelstudio", path)
    assert problem in message and str(path) in message


def test_labelstudio_invalid_json(tmp_path):
    path = write(tmp_path / "export.json", '[{"id": 1,\n "data": }]')
    message = read_error("labelstudio", path)
    assert f"{path}:2: invalid JSON" in message


def test_unknown_option_names_valid_ones(tmp_path):
    path = ls_export(tmp_path, [ls_task(annotations=[{"result": GOLD_RESULT}])])
    with pytest.raises(SettingError, match="labelstudio input takes no option 'fragments'. Its options: text_field"):
        read("labelstudio", path, fragments="merge")


# --------------------------------------------------------------------------
# Through the command line: one export, predictions against annotations
# --------------------------------------------------------------------------


def test_compare_one_label_studio_export_scores_predictions_against_annotations(tmp_path):
    tasks = [
        {
            "id": 17,
            "data": {"text": TEXT},
            "annotations": [
                {
                    "completed_by": 1,
                    "result": [
                        {"type": "labels", "value": {"start": 0, "end": 12, "text": "Ada Lovelace", "labels": ["PER"]}},
                        {"type": "labels", "value": {"start": 36, "end": 42, "text": "London", "labels": ["LOC"]}},
                    ],
                }
            ],
            "predictions": [
                {
                    "model_version": "v1",
                    "result": [
                        {"type": "labels", "value": {"start": 0, "end": 12, "text": "Ada Lovelace", "labels": ["PER"]}}
                    ],
                }
            ],
        }
    ]
    export = ls_export(tmp_path, tasks)
    out = tmp_path / "scores.json"
    result = invoke(["compare", export, "--format", "labelstudio", "-s", "strict", "-o", out])
    assert result.exit_code == 0, result.stderr
    # one of two gold spans predicted, and right
    assert json.loads(out.read_text())["schemes"]["strict"]["counts"] == {
        "cor": 1,
        "inc": 0,
        "par": 0,
        "mis": 1,
        "spu": 0,
    }
    # a reader option given to a format that does not take it: a usage error naming the flag
    bad = invoke(["compare", export, "--format", "labelstudio", "-s", "strict", "--fragments", "merge"])
    assert bad.exit_code == 2 and "--fragments" in bad.stderr and "brat" in bad.stderr
