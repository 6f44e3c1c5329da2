"""Settings objects, the signature and results as values.

- a bad setting from Python is a SettingError naming the setting; from the
  command line, a usage error naming its flag;
- the signature of two runs differs exactly when a setting that shapes the
  numbers differs;
- CorpusScores round-trips through to_dict/from_dict and pickle, and a + b
  equals scoring the concatenated corpus; TagReport pickles.
"""

import dataclasses
import json
import pickle
import random

import pytest
import spacy
from typer.testing import CliRunner

from spacy_spanf1 import (
    AnalysisSettings,
    CorpusScores,
    MatchSettings,
    ReadSettings,
    SCHEMES,
    SettingError,
    Span,
    __version__,
    compare_files,
    evaluate_spans,
    evaluate_tags,
    score_pairs,
)
from spacy_spanf1.cli import app
from spacy_spanf1.formats import DocPair, PairStats
from spacy_spanf1.signature import make_signature


def random_pairs(seed, n_docs, start=0):
    """Paired documents with random spans, some overlapping, some labels
    only on one side."""
    rng = random.Random(seed)
    pairs = []
    for i in range(n_docs):
        gold, pred = set(), set()
        for side, count in ((gold, rng.randint(0, 5)), (pred, rng.randint(0, 5))):
            for _ in range(count):
                s = rng.randint(0, 30)
                side.add(Span(s, s + rng.randint(1, 4), rng.choice("ABC")))
        text = " ".join(["w"] * 40)
        pairs.append(DocPair(start + i, f"doc {start + i}", sorted(gold), sorted(pred), text, None))
    return pairs


# --------------------------------------------------------------------------
# Settings: one error type naming the setting; the CLI names the flag
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "settings,setting",
    [
        ({"schemes": None}, "schemes"),
        ({"schemes": ["strict", "fuzzy"]}, "schemes"),
        ({"schemes": ["strict"], "iou_threshold": 1.5}, "iou_threshold"),
        ({"schemes": ["strict"], "overlap_threshold": 0}, "overlap_threshold"),
        ({"schemes": ["strict"], "min_overlap": -0.1}, "min_overlap"),
        ({"schemes": ["strict"], "unit": "word"}, "unit"),
        ({"schemes": ["strict"], "labels": []}, "labels"),
        ({"schemes": ["strict"], "beta": 0}, "beta"),
    ],
    ids=["no-schemes", "unknown-scheme", "iou", "overlap", "min-overlap", "unit", "labels", "beta"],
)
def test_match_settings_errors_name_the_setting(settings, setting):
    with pytest.raises(SettingError) as info:
        MatchSettings(**settings)
    assert info.value.setting == setting
    assert f"'{setting}'" in str(info.value)
    # a SettingError is a ValueError, and only that
    assert isinstance(info.value, ValueError) and not isinstance(info.value, TypeError)


@pytest.mark.parametrize(
    "settings,setting",
    [
        ({"bootstrap": 0}, "bootstrap"),
        ({"confidence": 1.0}, "confidence"),
        ({"method": "bca"}, "method"),
        ({"seed": -1}, "seed"),
        ({"test": "t-test"}, "test"),
        ({"alpha": 0}, "alpha"),
        ({"buckets": 0}, "buckets"),
        ({"by": [3]}, "by"),
    ],
)
def test_analysis_settings_errors_name_the_setting(settings, setting):
    with pytest.raises(SettingError) as info:
        AnalysisSettings(**settings)
    assert info.value.setting == setting
    assert f"'{setting}'" in str(info.value)


def test_read_settings_errors_name_the_setting():
    with pytest.raises(SettingError) as info:
        ReadSettings(gold_column=1)
    assert info.value.setting == "pred_column"
    with pytest.raises(SettingError) as info:
        ReadSettings(gold_column=1, pred_column="2")
    assert info.value.setting == "pred_column"


def test_settings_are_frozen_and_normalised():
    match = MatchSettings("strict, iou", labels=["PER", "LOC", "PER"], iou_threshold=1)
    assert match.schemes == ("strict", "iou") and match.labels == ("PER", "LOC")
    assert isinstance(match.iou_threshold, float)
    with pytest.raises(AttributeError):
        match.iou_threshold = 0.4
    assert match.replace(iou_threshold=0.4).iou_threshold == 0.4
    with pytest.raises(SettingError):
        match.replace(iou_threshold=4)


def test_front_doors_name_the_setting(tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"text": "Ann", "spans": [{"start": 0, "end": 3, "label": "PER"}]}) + "\n")
    with pytest.raises(SettingError) as info:
        compare_files(gold, gold, schemes="strict", iou_threshold=2.0)
    assert info.value.setting == "iou_threshold"
    with pytest.raises(SettingError) as info:
        compare_files(gold, gold, schemes="strict", confidence=2.0)
    assert info.value.setting == "confidence"
    with pytest.raises(SettingError, match="'iou_threshold'"):
        evaluate_spans([[]], [[]], schemes=["strict"], iou_threshold=0)


@pytest.mark.parametrize(
    "args,flag",
    [
        (["--iou-threshold", "2"], "--iou-threshold"),
        (["--min-overlap", "0"], "--min-overlap"),
        (["--confidence", "1.5", "--bootstrap", "10"], "--confidence"),
        (["--method", "bca", "--bootstrap", "10"], "--method"),
        (["--unit", "word"], "--unit"),
        (["--tag-mode", "lenient"], "--tag-mode"),
    ],
)
def test_cli_settings_errors_name_the_flag(tmp_path, args, flag):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"text": "Ann", "spans": [{"start": 0, "end": 3, "label": "PER"}]}) + "\n")
    result = CliRunner().invoke(app, ["compare", str(gold), str(gold), "-s", "strict", *args])
    assert result.exit_code == 2, result.output
    assert f"'{flag}'" in result.stderr
    setting = flag[2:].replace("-", "_")
    assert f"'{setting}'" not in result.stderr  # the flag, not the Python name


def test_version():
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0
    assert result.stdout.strip() == f"spacy-spanf1 {__version__}"
    from importlib.metadata import version

    assert version("spacy-spanf1") == __version__


# --------------------------------------------------------------------------
# The signature
# --------------------------------------------------------------------------

SETTING_CHANGES = [
    ("schemes", ["strict", "partial"]),
    ("labels", ["A"]),
    ("iou_threshold", 0.4),
    ("overlap_threshold", 0.6),
    ("min_overlap", 0.5),
]


def test_signature_of_two_runs_differs_exactly_when_a_setting_does(tmp_path):
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    pairs = random_pairs(1, 30)
    for path, side in ((gold, "gold"), (pred, "pred")):
        path.write_text(
            "".join(
                json.dumps(
                    {"text": p.text, "spans": [{"start": s, "end": e, "label": lab} for s, e, lab in getattr(p, side)]}
                )
                + "\n"
                for p in pairs
            )
        )
    base = {"schemes": ["strict", "iou"]}
    first = compare_files(gold, pred, **base).to_dict()
    again = compare_files(gold, pred, **base).to_dict()
    assert first["signature"] == again["signature"]
    assert first == again  # equal signatures on equal inputs: equal outputs
    assert first["signature"]["version"] == __version__
    assert first["signature"]["spacy"] == spacy.__version__
    assert first["signature"]["read"]["format"] == "jsonl"
    assert first["signature"]["match"]["unit"] == "char"
    for name, value in SETTING_CHANGES:
        changed = compare_files(gold, pred, **{**base, name: value}).to_dict()["signature"]
        assert changed != first["signature"], name
        differing = [k for k in changed["match"] if changed["match"][k] != first["signature"]["match"][k]]
        assert differing == [name], (name, differing)
    for name, value in [
        ("seed", 7),
        ("confidence", 0.9),
        ("test", "bootstrap"),
        ("alpha", 0.1),
        ("buckets", 3),
        ("method", "BCa"),
        ("by", "label"),
    ]:
        changed = compare_files(gold, pred, **{**base, name: value}).to_dict()["signature"]
        assert changed["match"] == first["signature"]["match"], name
        differing = {k for k in changed["analysis"] if changed["analysis"][k] != first["signature"]["analysis"][k]}
        assert differing == ({name, "test_resamples"} if name == "test" else {name}), (name, differing)
    # what does not shape the numbers leaves the signature alone
    assert compare_files(gold, pred, keep_errors=True, **base).to_dict()["signature"] == first["signature"]
    # the analysis is signed: seed, resamples
    ci = compare_files(gold, pred, bootstrap=50, **base).to_dict()["signature"]
    ci_seed = compare_files(gold, pred, bootstrap=50, seed=7, **base).to_dict()["signature"]
    assert ci["analysis"]["bootstrap"] == 50 and ci["analysis"]["seed"] == 12345
    assert ci != first["signature"] and ci_seed != ci
    assert {k for k in ci["analysis"] if ci["analysis"][k] != ci_seed["analysis"][k]} == {"seed"}


def test_signature_names_every_match_setting():
    signed = make_signature(MatchSettings(["iou"]), unit="token")
    assert signed["match"] == {
        "schemes": ["iou"],
        "unit": "token",
        "spans_key": None,
        "labels": None,
        "iou_threshold": 0.5,
        "overlap_threshold": 0.5,
        "min_overlap": None,
        "beta": 1.0,
        "label_map": None,
        "map_unlisted": "keep",
        "view": "all",
    }
    assert signed["read"] is None and signed["analysis"] is None


def test_cli_json_carries_the_signature(tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"text": "Ann", "spans": [{"start": 0, "end": 3, "label": "PER"}]}) + "\n")
    out = tmp_path / "scores.json"
    result = CliRunner().invoke(
        app, ["compare", str(gold), str(gold), "-s", "strict", "--iou-threshold", "0.3", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    signature = json.loads(out.read_text())["signature"]
    assert signature["match"]["iou_threshold"] == 0.3 and signature["version"] == __version__


# --------------------------------------------------------------------------
# Results as values
# --------------------------------------------------------------------------


def scored(pairs, **keep):
    n = len(pairs)
    return score_pairs(pairs, SCHEMES, stats=PairStats(n, 0), **keep)


def test_corpus_scores_round_trip_through_to_dict_and_pickle():
    scores = scored(random_pairs(2, 40))
    data = scores.to_dict()
    back = CorpusScores.from_dict(json.loads(json.dumps(data)))
    assert back == scores
    assert back.to_dict() == data
    for name in SCHEMES:
        assert back.results[name].per_label == scores.results[name].per_label
    assert back.results["iou"].confusion == scores.results["iou"].confusion != {}
    pickled = pickle.loads(pickle.dumps(scores))
    assert pickled == scores and pickled.to_dict() == data


def test_corpus_scores_round_trip_with_an_analysis(tmp_path):
    pairs = random_pairs(3, 20)
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    for path, side in ((gold, "gold"), (pred, "pred")):
        path.write_text(
            "".join(
                json.dumps(
                    {
                        "text": p.text,
                        "genre": "ab"[p.index % 2],
                        "spans": [{"start": s, "end": e, "label": lab} for s, e, lab in getattr(p, side)],
                    }
                )
                + "\n"
                for p in pairs
            )
        )
    scores = compare_files(gold, pred, schemes="strict,iou", bootstrap=30, by="genre,label", baseline=gold)
    data = json.loads(json.dumps(scores.to_dict()))
    back = CorpusScores.from_dict(data)
    assert back == scores and back.to_dict() == data
    assert pickle.loads(pickle.dumps(scores)).to_dict() == data


def test_sum_of_two_parts_equals_the_whole():
    # each part numbers its documents from 0, as the reader of a shard does
    first, second = random_pairs(4, 25), random_pairs(5, 17)
    whole = scored(first + [dataclasses.replace(p, index=p.index + 25) for p in second], keep_errors=True, per_doc=True)
    parts = scored(first, keep_errors=True, per_doc=True) + scored(second, keep_errors=True, per_doc=True)
    assert parts == whole
    assert parts.to_dict() == whole.to_dict()
    assert parts.errors == whole.errors
    assert sorted(parts.pairs) == sorted(whole.pairs)
    assert [p.index for p in parts.pairs.values()] == [p.index for p in whole.pairs.values()]
    for name in SCHEMES:
        assert (parts.results[name].per_doc == whole.results[name].per_doc).all()


def test_adding_scores_of_other_settings_is_an_error():
    pairs = random_pairs(6, 5)
    with pytest.raises(ValueError, match="different signatures"):
        score_pairs(pairs, ["strict"]) + score_pairs(pairs, MatchSettings(["strict"], min_overlap=0.5))
    with pytest.raises(ValueError, match="schemes"):
        score_pairs(pairs, ["strict"]) + score_pairs(pairs, ["iou"])


def test_corpus_scores_are_frozen():
    scores = scored(random_pairs(7, 3))
    with pytest.raises(AttributeError):
        scores.official_score = 1.0
    assert scores.replace(official_score=1.0).official_score == 1.0 and scores.official_score is None


def test_tag_report_pickles():
    report = evaluate_tags([["B-PER", "I-PER", "O"], ["B-LOC"]], [["B-PER", "O", "O"], ["B-LOC"]], mode="conll")
    back = pickle.loads(pickle.dumps(report))
    assert back == report and back.to_dict() == report.to_dict()
    with pytest.raises(TypeError):
        back.per_type["PER"] = None
