"""`spacy-spanf1 sweep`: files of scored predictions and a pipeline's span
categorizer; what it prints, the JSON it writes, and bad input as one line."""

import json

import pytest

from helpers import (
    SWEEP_GOLD as GOLD,
    SWEEP_SCHEME_KEYS,
    SWEEP_SCORED as SCORED,
    assert_clean_failure,
    invoke,
    write_jsonl,
)


def pred_records(scored=SCORED):
    return [
        {
            "text": g["text"],
            "spans": [{"start": s, "end": e, "label": label, "score": score} for s, e, label, score in doc],
        }
        for g, doc in zip(GOLD, scored)
    ]


@pytest.fixture
def files(tmp_path):
    return write_jsonl(tmp_path / "gold.jsonl", GOLD), write_jsonl(tmp_path / "pred.jsonl", pred_records())


def test_files_json_and_table(files, tmp_path):
    out = tmp_path / "sweep.json"
    result = invoke(["sweep", *files, "--schemes", "strict,iou", "-o", out])
    assert result.exit_code == 0, result.stderr
    data = json.loads(out.read_text())
    assert set(data) == {"sweep", "signature"}
    strict = data["sweep"]["strict"]
    assert set(strict) == SWEEP_SCHEME_KEYS
    # 4 gold spans. Kept at 0.9: Anna (TP); 0.8: + Bruno (TP); 0.6: + Oslo as
    # PER (FP); 0.2: + "met" (FP). F: 2/5, 2/3, 4/7, 1/2; best 0.8.
    assert strict["thresholds"] == [0.2, 0.6, 0.8, 0.9]
    assert strict["f"] == pytest.approx([1 / 2, 4 / 7, 2 / 3, 2 / 5], abs=1e-9)
    assert strict["best"] == {"threshold": 0.8, "f": pytest.approx(2 / 3, abs=1e-9)}
    # AP: R 1/4 at P 1, then R 2/4 at P 1: 0.5 (the FPs add no recall)
    assert strict["ap"] == pytest.approx(0.5)
    # PER alone: 3 gold; best at 0.8 (2 TP of 2): P 1, R 2/3, F 0.8
    assert strict["per_label_best"] == {"PER": {"threshold": 0.8, "f": pytest.approx(0.8, abs=1e-9)}}
    assert len(strict["calibration"]["bins"]) == 10
    # the read block as compare signs it; the unit is the match block's
    assert data["signature"]["read"] == {"format": "jsonl", "gold_column": None, "pred_column": None, "options": {}}
    assert data["signature"]["match"]["unit"] == "char"
    assert data["signature"]["match"]["schemes"] == ["strict", "iou"]
    lines = result.stdout.splitlines()
    assert any(line.split()[:4] == ["strict", "0.5000", "0.8", "0.6667"] for line in lines), result.stdout
    assert any(line.split() == ["PER", "0.8", "0.8000"] for line in lines), result.stdout


def test_grid_spacy_on_files(files, tmp_path):
    out = tmp_path / "sweep.json"
    result = invoke(["sweep", *files, "--schemes", "strict", "--grid", "spacy", "--n-trials", "6", "-o", out])
    assert result.exit_code == 0, result.stderr
    strict = json.loads(out.read_text())["sweep"]["strict"]
    assert strict["thresholds"] == pytest.approx([0, 0.2, 0.4, 0.6, 0.8, 1.0])
    # numpy.linspace(0, 1, 6)[3] is 0.6000000000000001, above the score 0.6
    # of Oslo as PER: at it and at 0.8 the two TPs are kept (F 2/3); ties go
    # to the lowest, as in find-threshold
    assert strict["f"][2:5] == pytest.approx([4 / 7, 2 / 3, 2 / 3], abs=1e-9)
    assert strict["best"]["threshold"] == pytest.approx(0.6)  # the JSON is written to 10 digits


@pytest.mark.parametrize(
    "score,message",
    [
        (1.5, "line 1: predicted span 1 (14, 18, 'PER') has the score 1.5, outside [0, 1]"),
        ("high", "line 1: predicted span 1 (14, 18, 'PER') has the score 'high' (a str)"),
        (None, "line 1: predicted span 1 (14, 18, 'PER') has no score"),
    ],
)
def test_bad_scores_are_one_line(tmp_path, score, message):
    records = pred_records()
    if score is None:
        del records[0]["spans"][1]["score"]
    else:
        records[0]["spans"][1]["score"] = score
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD)
    pred = write_jsonl(tmp_path / "pred.jsonl", records)
    assert_clean_failure(invoke(["sweep", gold, pred, "--schemes", "strict"]), 1, message)


def test_nan_score_is_one_line(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD)
    pred = tmp_path / "pred.jsonl"
    pred.write_text("\n".join(json.dumps(r) for r in pred_records()).replace("0.6", "NaN") + "\n")
    assert_clean_failure(invoke(["sweep", gold, pred, "--schemes", "strict"]), 1, "has the score nan")


def test_predictions_without_scores_name_the_documents(tmp_path):
    gold = write_jsonl(tmp_path / "gold.jsonl", GOLD)
    records = [{"text": g["text"], "spans": g["spans"]} for g in GOLD]
    pred = write_jsonl(tmp_path / "pred.jsonl", records)
    assert_clean_failure(
        invoke(["sweep", gold, pred, "--schemes", "strict"]),
        1,
        "2 of the 2 predicted documents have spans without scores (line 1, line 2)",
    )
    # the same file without scores is valid for compare
    assert invoke(["compare", gold, pred, "--schemes", "strict"]).exit_code == 0


def test_a_pipeline_option_on_files_is_a_usage_error(files, tmp_path):
    result = invoke(["sweep", *files, "--schemes", "strict", "--write-config", tmp_path / "x.cfg"])
    assert_clean_failure(result, 2, "applies to a sweep of a pipeline")


@pytest.mark.slow
def test_pipeline_sweep_writes_json_and_config(spancat_model, tmp_path):
    from spacy.util import load_config

    from spacy_spanf1 import sweep_pipeline

    model, dev = spancat_model
    out, cfg = tmp_path / "sweep.json", tmp_path / "best.cfg"
    result = invoke(
        ["sweep", model, dev, "--schemes", "strict,iou", "--grid", "spacy", "-o", out, "--write-config", cfg]
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads(out.read_text())
    expected = sweep_pipeline(model, dev, schemes=["strict", "iou"], grid="spacy")
    # the JSON is written to 10 digits: 0.30000000000000004 of linspace(0, 1, 11) as 0.3
    assert data["sweep"]["strict"]["best"]["threshold"] == pytest.approx(expected["strict"].best.threshold, abs=1e-9)
    assert data["sweep"]["iou"]["f"] == pytest.approx(expected["iou"].f1.tolist(), abs=1e-9)
    assert data["signature"]["pipeline"]["pipe"] == "spancat"
    assert load_config(cfg)["components"]["spancat"]["threshold"] == pytest.approx(
        expected["strict"].best.threshold, abs=1e-9
    )
    assert "Wrote the config" in result.stdout


@pytest.mark.slow
def test_pipeline_without_the_component_is_one_line(spancat_model):
    model, dev = spancat_model
    assert_clean_failure(invoke(["sweep", model, dev, "--schemes", "strict", "--pipe", "ner"]), 1, "no component 'ner'")
