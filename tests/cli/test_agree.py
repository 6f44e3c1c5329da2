"""`spacy-spanf1 agree`: the printed matrix and figures, the JSON, the
consensus and disagreement files, and bad input as one clean line."""

import json

import pytest
from helpers import assert_clean_failure, invoke, write_jsonl

from spacy_spanf1.api import agree_files

A = [
    {"text": "Ada met Bob", "spans": [{"start": 0, "end": 3, "label": "PER"}]},
    {"text": "Rome is big", "spans": [{"start": 0, "end": 4, "label": "LOC"}]},
]
B = [
    {"text": "Ada met Bob", "spans": [{"start": 0, "end": 3, "label": "PER"}, {"start": 8, "end": 11, "label": "PER"}]},
    {"text": "Rome is big", "spans": [{"start": 0, "end": 4, "label": "ORG"}]},
]
C = [
    {"text": "Ada met Bob", "spans": [{"start": 0, "end": 3, "label": "PER"}, {"start": 8, "end": 11, "label": "PER"}]}
]


def files(tmp_path):
    return [write_jsonl(tmp_path / f"{name}.jsonl", records) for name, records in (("ann", A), ("bob", B), ("cy", C))]


def test_prints_the_matrix_mean_f_kappa_and_alpha_and_writes_json(tmp_path):
    paths = files(tmp_path)
    out = tmp_path / "out.json"
    result = invoke(["agree", *paths, "--schemes", "strict,partial", "--o-tokens", "exclude", "--output", out])
    assert result.exit_code == 0, result.output
    # Rome is LOC to ann alone and ORG to bob alone: printed once each, in the JSON too, a UserWarning in Python
    lone = [
        'the label "LOC" of annotator "ann" (1 span) occurs in no other annotator\'s spans',
        'the label "ORG" of annotator "bob" (1 span) occurs in no other annotator\'s spans',
    ]
    with pytest.warns(UserWarning, match="occurs in no other annotator's spans") as caught:
        expected = agree_files(paths, schemes="strict,partial", o_tokens="exclude")
    assert [str(w.message) for w in caught] == lone == list(expected.warnings)
    text = result.stdout
    assert [line for line in text.splitlines() if "no other annotator" in line] == [f"⚠ {w}" for w in lone]
    assert "UserWarning" not in result.output
    assert "Pairwise F (strict)" in text
    assert f"{expected.matrix('strict')['ann']['bob'] * 100:.2f}" in text
    assert f"strict: mean pairwise F {expected.mean_f['strict'] * 100:.2f}" in text
    assert f"partial: mean pairwise F {expected.mean_f['partial'] * 100:.2f}" in text
    assert "O positions excluded" in text and f"alpha {expected.alpha:.4f}" in text
    data = json.loads(out.read_text())
    assert data["schemes"] == expected.to_dict()["schemes"]
    assert data["warnings"] == lone
    assert data["signature"]["agreement"]["o_tokens"] == "exclude"


def test_names_bootstrap_consensus_and_disagreements(tmp_path):
    paths = files(tmp_path)
    consensus, disagreements = tmp_path / "consensus.jsonl", tmp_path / "disagreements.jsonl"
    result = invoke(
        [
            "agree",
            *paths,
            "-s",
            "strict",
            "--names",
            "a,b,c",
            "--bootstrap",
            "50",
            "--consensus",
            consensus,
            "--min-votes",
            "2",
            "--disagreements",
            disagreements,
        ]
    )
    assert result.exit_code == 0, result.output
    assert "reference \\ scored" in result.stdout and " a " in result.stdout.replace("\n", " ")
    assert [json.loads(line) for line in consensus.read_text().splitlines()] == [
        {
            "text": "Ada met Bob",
            "spans": [{"start": 0, "end": 3, "label": "PER"}, {"start": 8, "end": 11, "label": "PER"}],
        },
        {"text": "Rome is big", "spans": []},
    ]
    found = [json.loads(line) for line in disagreements.read_text().splitlines()]
    assert [(d["doc"], d["span"]["label"], d["have"], d["text"]) for d in found] == [
        (0, "PER", ["b", "c"], "Bob"),
        (1, "LOC", ["a"], "Rome"),
        (1, "ORG", ["b"], "Rome"),
    ]
    # a: COR 1 (Ada), MIS 1 (Bob), SPU 1 (Rome): F 0.5; b: COR 2, SPU 1: P 2/3, R 1, F 0.8
    assert "a against the consensus: F (strict) 50.00" in result.stdout
    assert "b against the consensus: F (strict) 80.00" in result.stdout


def test_bad_input_is_one_line(tmp_path):
    paths = files(tmp_path)
    assert_clean_failure(invoke(["agree", paths[0], "--schemes", "strict"]), 1, 'has no "annotator"')
    assert_clean_failure(
        invoke(["agree", paths[0], tmp_path / "missing.jsonl", "--schemes", "strict"]), 1, "file not found"
    )
    assert_clean_failure(
        invoke(["agree", *paths, "--schemes", "strict", "--o-tokens", "some"]), 2, "Valid: include, exclude"
    )
    assert_clean_failure(invoke(["agree", *paths]), 2, "Missing option '--schemes'")
    assert_clean_failure(
        invoke(["agree", *paths, "-s", "strict", "--consensus", tmp_path / "c.jsonl", "--min-votes", "4"]),
        2,
        "'--min-votes' is 4 but there are 3 annotators",
    )
    assert_clean_failure(
        invoke(["agree", *paths, "-s", "strict", "--bootstrap", "20", "--resample-by", "genre"]),
        1,
        "has no metadata field 'genre'",
    )
