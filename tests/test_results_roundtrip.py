"""Results are values: each result type reads back what its `to_dict()`
wrote (`from_dict(to_dict(r)) == r`, through JSON), the JSON the command
line writes with --output is the result's `to_dict()`, and every command
signs its numbers with the one Signature type."""

import json
import pickle

import pytest
import srsly
from hypothesis import example, given, settings
from hypothesis import strategies as st

from helpers import ROOT, run_many
from spacy_spanf1 import agreement
from spacy_spanf1.agreements.result import AgreementResult
from spacy_spanf1.api import agree_files, compare_files
from spacy_spanf1.engine.scorer import evaluate_spans
from spacy_spanf1.results import CorpusScores, SchemeResult
from spacy_spanf1.settings import SCHEMES
from spacy_spanf1.signature import Signature, make_signature
from spacy_spanf1.settings import MatchSettings, ReadSettings
from spacy_spanf1.sweeps.api import sweep
from spacy_spanf1.api import sweep_files
from spacy_spanf1.sweeps.results import SweepResult

EXAMPLES = ROOT / "examples"
GOLD, PRED, SCORED = EXAMPLES / "gold.jsonl", EXAMPLES / "pred.jsonl", EXAMPLES / "scored.jsonl"
ALL = ",".join(SCHEMES)


def through_json(data):
    return json.loads(json.dumps(data))


# --------------------------------------------------------------------------
# from_dict(to_dict(r)) == r
# --------------------------------------------------------------------------

spans = st.lists(
    st.tuples(st.integers(0, 12), st.integers(1, 4), st.sampled_from("ABC")).map(lambda s: (s[0], s[0] + s[1], s[2])),
    max_size=5,
)


@settings(max_examples=60, deadline=None)
@given(gold=st.lists(spans, min_size=1, max_size=4), pred=st.lists(spans, min_size=1, max_size=4))
# labels met as A, C, B: macro F summed in another order differs in its last bit
@example(
    gold=[[], [(0, 1, "B"), (0, 1, "C"), (0, 3, "A")], []],
    pred=[[(0, 1, "A"), (0, 1, "C"), (0, 2, "A")], [(0, 1, "A"), (0, 1, "B"), (0, 1, "C"), (0, 2, "A")], [(0, 1, "A")]],
)
def test_every_scheme_result_reads_back_what_it_wrote(gold, pred):
    n = min(len(gold), len(pred))
    results = evaluate_spans(gold[:n], pred[:n], schemes=list(SCHEMES))
    for scheme, result in results.items():
        back = SchemeResult.from_dict(through_json(result.to_dict()))
        assert back == result, scheme
        # what equality compares, compared here by hand
        assert back.scheme == scheme and back.totals == result.totals
        assert back.per_label == result.per_label and back.confusion == result.confusion
        assert back.to_dict() == result.to_dict()


def test_a_scheme_result_names_its_scheme_and_label_counts():
    result = evaluate_spans([[(0, 2, "A"), (3, 4, "B")]], [[(0, 2, "A"), (3, 5, "B")]], schemes=["iou"])["iou"]
    data = result.to_dict()
    assert data["scheme"] == "iou"
    # A: the same span; B: (3, 4) against (3, 5), IoU 1/2, at the default threshold 0.5 a match
    assert data["label_counts"] == {"A": {"tp": 1, "fp": 0, "fn": 0}, "B": {"tp": 1, "fp": 0, "fn": 0}}
    # rows gold, columns predicted, "O" last: both spans matched with their own label
    assert data["confusion"] == {"labels": ["A", "B", "O"], "matrix": [[1, 0, 0], [0, 1, 0], [0, 0, 0]]}
    # the older JSON held the cells that are not zero as [gold, predicted, n] rows
    older = {**data, "confusion": [["A", "A", 1], ["B", "B", 1]]}
    assert SchemeResult.from_dict(older) == result


def test_corpus_scores_read_back_what_they_wrote():
    scores = compare_files(GOLD, PRED, schemes=list(SCHEMES), bootstrap=50, by=["label"])
    data = through_json(scores.to_dict())
    back = CorpusScores.from_dict(data)
    assert back == scores and back.to_dict() == data
    assert isinstance(back.signature, Signature) and back.signature == scores.signature


def test_agreement_results_read_back_what_they_wrote():
    result = agreement(
        {
            "ann": [[(0, 2, "A"), (4, 6, "B")], [(1, 3, "A")], [(0, 1, "B")]],
            "ben": [[(0, 2, "A"), (4, 5, "B")], [(1, 3, "B")], [(0, 1, "B")]],
            "cat": [[(0, 3, "A")], None, [(0, 1, "B")]],
        },
        schemes=["strict", "iou"],
        lengths=[8, 4, 3],
        bootstrap=30,
    )
    data = through_json(result.to_dict())
    back = AgreementResult.from_dict(data)
    assert back == result and back.to_dict() == data
    assert back.pairwise["iou"][("ann", "ben")].per_label == result.pairwise["iou"][("ann", "ben")].per_label


def test_agreement_of_files_reads_back_what_it_wrote():
    result = agree_files([GOLD, PRED, SCORED], schemes=["strict", "partial"])
    data = through_json(result.to_dict())
    assert AgreementResult.from_dict(data) == result and AgreementResult.from_dict(data).to_dict() == data


def test_sweep_results_read_back_what_they_wrote():
    result = sweep_files(GOLD, SCORED, schemes=["strict", "iou"], bootstrap=30)
    data = through_json(result.to_dict())
    back = SweepResult.from_dict(data)
    assert back == result and back.to_dict() == data
    assert back["strict"].per_label.keys() == result["strict"].per_label.keys()


def test_sweep_results_differ_when_a_curve_does():
    one = sweep([[(0, 1, "A")]], [[(0, 1, "A", 0.5)]], schemes=["strict"])
    other = sweep([[(0, 1, "A")]], [[(0, 1, "A", 0.75)]], schemes=["strict"])
    assert one == one and one != other


def test_results_pickle_with_their_signature():
    scores = compare_files(GOLD, PRED, schemes=["strict"])
    assert pickle.loads(pickle.dumps(scores)).signature == scores.signature


# --------------------------------------------------------------------------
# The command line writes to_dict()
# --------------------------------------------------------------------------


def test_the_json_of_each_command_is_its_result_s_to_dict(tmp_path):
    jobs = {
        "compare": (["compare", GOLD, PRED, "-s", ALL, "--bootstrap", "50", "-o", tmp_path / "compare.json"], {}),
        "agree": (["agree", GOLD, PRED, SCORED, "-s", "strict,partial", "-o", tmp_path / "agree.json"], {}),
        "sweep": (["sweep", GOLD, SCORED, "-s", "strict,iou", "--bootstrap", "30", "-o", tmp_path / "sweep.json"], {}),
    }
    done = run_many(jobs, cwd=tmp_path)
    for name, out in done.items():
        assert out.returncode == 0, (name, out.stderr)
    written = {name: json.loads((tmp_path / f"{name}.json").read_text(encoding="utf-8")) for name in jobs}
    compared = compare_files(GOLD, PRED, schemes=list(SCHEMES), bootstrap=50)
    agreed = agree_files([GOLD, PRED, SCORED], schemes=["strict", "partial"])
    swept = sweep_files(GOLD, SCORED, schemes=["strict", "iou"], bootstrap=30)
    # compare and sweep write with srsly (floats to 10 digits), agree with json
    assert written["compare"] == json.loads(srsly.json_dumps(compared.to_dict()))
    assert written["agree"] == through_json(agreed.to_dict())
    assert written["sweep"] == json.loads(srsly.json_dumps(swept.to_dict()))
    assert list(written["sweep"]) == ["sweep", "signature"] and list(written["sweep"]["sweep"]) == ["strict", "iou"]


# --------------------------------------------------------------------------
# One Signature type
# --------------------------------------------------------------------------


def test_compare_agree_and_sweep_sign_with_one_type_and_one_read_block():
    compared = compare_files(GOLD, PRED, schemes=["strict"])
    agreed = agree_files([GOLD, PRED], schemes=["strict"])
    swept = sweep_files(GOLD, SCORED, schemes=["strict"])
    for result in (compared, agreed, swept):
        assert isinstance(result.signature, Signature)
        assert result.signature["read"] == {"format": "jsonl", "gold_column": None, "pred_column": None, "options": {}}
    assert list(compared.signature) == ["version", "spacy", "match", "read", "analysis"]
    assert list(agreed.signature) == ["version", "spacy", "match", "read", "analysis", "agreement"]
    assert list(swept.signature) == ["version", "spacy", "match", "read", "analysis", "sweep"]
    assert swept.signature["match"]["unit"] == "char"


def test_a_signature_is_not_changed_through_what_it_gives():
    signature = make_signature(MatchSettings(["strict"]), read=ReadSettings(format="jsonl"))
    signature["read"]["format"] = "conll"
    signature["match"]["schemes"].append("iou")
    assert signature["read"]["format"] == "jsonl" and signature["match"]["schemes"] == ["strict"]
    assert signature.replace(read=None)["read"] is None and signature["read"] is not None
    assert Signature.from_dict(through_json(signature.to_dict())) == signature == signature.to_dict()


def test_a_signature_that_is_not_one_is_a_value_error():
    with pytest.raises(ValueError, match="unknown block 'colour'"):
        Signature.from_dict({"match": {}, "colour": "red"})
    with pytest.raises(ValueError, match="not a signature"):
        Signature.from_dict({"version": "1"})


# --------------------------------------------------------------------------
# Construction and errors
# --------------------------------------------------------------------------


def test_corpus_scores_take_every_field_but_results_by_name():
    results = evaluate_spans([[(0, 1, "A")]], [[(0, 1, "A")]], schemes=["strict"])
    with pytest.raises(TypeError):
        CorpusScores(results, 1, 0)
    assert CorpusScores(results, documents=1).scored == 1


def test_errors_not_kept_raise_in_both_results():
    scores = compare_files(GOLD, PRED, schemes=["strict"])
    with pytest.raises(ValueError, match="keep_errors=True"):
        scores.results["strict"].errors  # noqa: B018 (the property raises)
    with pytest.raises(ValueError, match="keep_errors=True"):
        scores.errors  # noqa: B018 (the property raises)
    kept = compare_files(GOLD, PRED, schemes=["strict"], keep_errors=True)
    assert kept.errors == kept.results["strict"].errors and len(kept.errors) > 0
