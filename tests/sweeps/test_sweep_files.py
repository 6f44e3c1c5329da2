"""Scores read from files: every format's scored spans give the curves of
the same spans given to `sweep` in Python."""

import json

import pytest

from helpers import assert_clean_failure, invoke, write_jsonl
from spacy_spanf1 import sweep
from spacy_spanf1.api import sweep_files

SCHEMES = ["strict", "partial", "iou"]
TEXTS = ["Anna lives in Oslo", "Bruno met Chen"]
GOLD = [[(0, 4, "PER"), (14, 18, "LOC")], [(0, 5, "PER"), (10, 14, "PER")]]
SCORED = [
    [(0, 4, "PER", 0.9), (14, 18, "PER", 0.6), (11, 18, "LOC", 0.3)],
    [(0, 5, "PER", 0.8), (6, 9, "LOC", 0.2), (10, 14, "PER", 0.45)],
]


def assert_same_curves(found, expected):
    for scheme in SCHEMES:
        a, b = found[scheme], expected[scheme]
        assert a.thresholds.tolist() == b.thresholds.tolist()
        for name in ("precision", "recall", "f1"):
            assert getattr(a, name).tolist() == getattr(b, name).tolist(), (scheme, name)
        assert a.ap == b.ap and a.best == b.best and a.calibration == b.calibration


@pytest.fixture(scope="module")
def expected():
    return sweep(GOLD, SCORED, schemes=SCHEMES, unit="char")


def spans(doc, scored):
    return [
        dict({"start": s, "end": e, "label": label}, **({"score": x[0]} if scored else {})) for s, e, label, *x in doc
    ]


def test_jsonl(tmp_path, expected):
    gold = write_jsonl(tmp_path / "g.jsonl", [{"text": t, "spans": spans(d, False)} for t, d in zip(TEXTS, GOLD)])
    pred = write_jsonl(tmp_path / "p.jsonl", [{"text": t, "spans": spans(d, True)} for t, d in zip(TEXTS, SCORED)])
    assert_same_curves(sweep_files(gold, pred, schemes=SCHEMES), expected)


def test_prodigy(tmp_path, expected):
    def records(docs, scored):
        return [
            {"text": t, "spans": spans(d, scored), "answer": "accept", "_input_hash": i}
            for i, (t, d) in enumerate(zip(TEXTS, docs))
        ]

    gold = write_jsonl(tmp_path / "g.jsonl", records(GOLD, False))
    pred = write_jsonl(tmp_path / "p.jsonl", records(SCORED, True))
    assert_same_curves(sweep_files(gold, pred, format="prodigy", schemes=SCHEMES), expected)


@pytest.mark.parametrize("where", ["result", "prediction"])
def test_label_studio(tmp_path, expected, where):
    """One export: annotations are gold, predictions scored per result, or
    per prediction (one prediction per score level)."""

    def result(s, e, label, text, score=None):
        out = {
            "type": "labels",
            "from_name": "label",
            "to_name": "text",
            "value": {"start": s, "end": e, "text": text[s:e], "labels": [label]},
        }
        if score is not None:
            out["score"] = score
        return out

    tasks = []
    for i, (text, gold, scored) in enumerate(zip(TEXTS, GOLD, SCORED)):
        if where == "result":
            predictions = [{"model_version": "m", "result": [result(s, e, lab, text, x) for s, e, lab, x in scored]}]
        else:  # each prediction's "score" for its results
            predictions = [
                {"model_version": "m", "score": x, "result": [result(s, e, lab, text)]} for s, e, lab, x in scored
            ]
        tasks.append(
            {
                "id": i + 1,
                "data": {"text": text},
                "annotations": [{"completed_by": 1, "result": [result(s, e, lab, text) for s, e, lab in gold]}],
                "predictions": predictions,
            }
        )
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks))
    if where == "result":
        assert_same_curves(sweep_files(path, format="labelstudio", schemes=SCHEMES), expected)
    else:
        # the first prediction is read (as compare reads it): its one span's score
        found = sweep_files(path, format="labelstudio", schemes=SCHEMES)
        first = [[doc[0]] for doc in SCORED]
        assert_same_curves(found, sweep(GOLD, first, schemes=SCHEMES, unit="char"))


def test_scores_do_not_change_compare(tmp_path):
    from spacy_spanf1 import compare_files

    gold = write_jsonl(tmp_path / "g.jsonl", [{"text": t, "spans": spans(d, False)} for t, d in zip(TEXTS, GOLD)])
    plain = write_jsonl(
        tmp_path / "p.jsonl", [{"text": t, "spans": spans([s[:3] for s in d], False)} for t, d in zip(TEXTS, SCORED)]
    )
    scored = write_jsonl(tmp_path / "s.jsonl", [{"text": t, "spans": spans(d, True)} for t, d in zip(TEXTS, SCORED)])
    a = compare_files(gold, plain, schemes=SCHEMES).to_dict()
    b = compare_files(gold, scored, schemes=SCHEMES).to_dict()
    assert a == b


@pytest.mark.parametrize("form", ["label", "entities"])
def test_doccano(tmp_path, expected, form):
    """[start, end, label, score] items, or entities with a "score"."""

    def record(text, doc, scored):
        if form == "label":
            return {"text": text, "label": [[s, e, label, *x] if scored else [s, e, label] for s, e, label, *x in doc]}
        return {
            "text": text,
            "entities": [
                dict(
                    {"id": i, "start_offset": s, "end_offset": e, "label": label}, **({"score": x[0]} if scored else {})
                )
                for i, (s, e, label, *x) in enumerate(doc)
            ],
        }

    gold = write_jsonl(tmp_path / "g.jsonl", [record(t, d, False) for t, d in zip(TEXTS, GOLD)])
    pred = write_jsonl(tmp_path / "p.jsonl", [record(t, d, True) for t, d in zip(TEXTS, SCORED)])
    assert_same_curves(sweep_files(gold, pred, format="doccano", schemes=SCHEMES), expected)


def test_doccano_without_scores_is_refused(tmp_path):
    gold = write_jsonl(tmp_path / "g.jsonl", [{"text": t, "label": [list(s) for s in d]} for t, d in zip(TEXTS, GOLD)])
    with pytest.raises(Exception, match="spans without scores"):
        sweep_files(gold, gold, format="doccano", schemes=SCHEMES)


def test_one_file_that_cannot_hold_both_sides_is_refused_not_swept_against_itself(tmp_path):
    # A JSONL file of scored spans, given alone, would pair each document with
    # itself: every prediction correct, AP 1.0. compare refuses it; so does the sweep.
    from spacy_spanf1 import SettingError

    scored = write_jsonl(
        tmp_path / "scored.jsonl",
        [
            {"text": t, "spans": [{"start": s, "end": e, "label": lab, "score": p} for s, e, lab, p in d]}
            for t, d in zip(TEXTS, SCORED)
        ],
    )
    with pytest.raises(
        SettingError, match=r"no predicted file: .*a format that holds both sides \(labelstudio\)"
    ) as found:
        sweep_files(scored, None, schemes=SCHEMES)
    assert found.value.setting == "pred_path"
    # the command line names the sweep's own argument, TARGET, not compare's PRED
    result = invoke(["sweep", scored, "-s", "strict"])
    assert_clean_failure(result, 2, "no predicted file: give 'TARGET', or one file in a format that holds both sides")
    assert "'PRED'" not in result.output
