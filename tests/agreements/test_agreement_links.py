"""Agreement under the link schemes: every ordered pair of annotators, B's
linked spans scored against A's as a prediction against gold, over the
documents both did; pairwise only (the consensus is of spans). Counts by
hand; with two annotators given as files, the pair (A, B) is `compare`
of A as gold and B as prediction."""

import json

import pytest

from helpers import invoke
from spacy_spanf1 import SettingError, agree_files, agreement, compare_files

# ann and bob did both documents, cy the first only
ANNOTATIONS = {
    "ann": [[(0, 2, "PER", "Q42"), (5, 6, "LOC", "Q84")], [(0, 1, "PER", "Q937")]],
    "bob": [
        [{"start": 0, "end": 2, "label": "PER", "kb_id": "Q42"}, (5, 6, "LOC", "Q90")],
        [(0, 1, "PER")],  # no id: NIL
    ],
    "cy": [[(0, 2, "PER", "Q42")], None],
}
SCHEMES = "strict,strong_all_match,strong_link_match"


def counts(result):
    c = result.totals
    return c.tp, c.fp, c.fn


def test_pairs_under_the_link_schemes_by_hand():
    result = agreement(ANNOTATIONS, schemes=SCHEMES)
    assert result.schemes == ("strict", "strong_all_match", "strong_link_match")
    pairs = {pair: counts(found) for pair, found in result.pairwise["strong_all_match"].items()}
    # (ann, bob): Q42 agrees; London Q84 against Q90 and Einstein Q937
    # against NIL are an FP and an FN each. (ann, cy): the first document
    # only, London missed. The pair read the other way swaps FP and FN.
    assert pairs == {
        ("ann", "bob"): (1, 2, 2),
        ("ann", "cy"): (1, 0, 1),
        ("bob", "ann"): (1, 2, 2),
        ("bob", "cy"): (1, 0, 1),
        ("cy", "ann"): (1, 1, 0),
        ("cy", "bob"): (1, 1, 0),
    }
    # strong_link_match counts linked spans only: bob's NIL span is not one
    linked = result.pairwise["strong_link_match"]
    assert counts(linked[("ann", "bob")]) == (1, 1, 2)
    assert counts(linked[("bob", "ann")]) == (1, 2, 1)
    # mean F over the six ordered pairs: F = 2TP / (2TP + FP + FN)
    f = [2 / 6, 2 / 3, 2 / 6, 2 / 3, 2 / 3, 2 / 3]
    assert result.mean_f["strong_all_match"] == pytest.approx(sum(f) / 6)
    # micro: the counts of every pair summed, TP 6, FP 6, FN 6
    assert result.micro_f["strong_all_match"] == pytest.approx(12 / 24)
    # the span scheme is scored as before: every span of ann and bob agrees
    assert result.pairwise["strict"][("ann", "bob")].f1 == 1.0


def test_intervals_and_the_json_cover_the_link_schemes():
    result = agreement(ANNOTATIONS, schemes=SCHEMES, bootstrap=20, seed=3)
    assert set(result.intervals.mean_f) == {"strict", "strong_all_match", "strong_link_match"}
    data = json.loads(json.dumps(result.to_dict()))
    assert set(data["schemes"]) == {"strict", "strong_all_match", "strong_link_match"}


def write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf8")
    return path


TEXT = "Douglas Adams lived in London ."
A = [{"text": TEXT, "spans": [{"start": 0, "end": 13, "label": "PER", "kb_id": "Q42"},
                              {"start": 23, "end": 29, "label": "LOC", "kb_id": "Q84"}]}]  # fmt: skip
B = [{"text": TEXT, "spans": [{"start": 0, "end": 13, "label": "PER", "kb_id": "Q42"},
                              {"start": 23, "end": 29, "label": "LOC", "kb_id": "Q90"}]}]  # fmt: skip


def test_two_files_agree_as_compare_scores_them(tmp_path):
    a, b = write(tmp_path / "a.jsonl", A), write(tmp_path / "b.jsonl", B)
    result = agree_files([a, b], schemes=SCHEMES)
    compared = compare_files(a, b, schemes=SCHEMES)
    for scheme in ("strong_all_match", "strong_link_match"):
        assert counts(result.pairwise[scheme][("a", "b")]) == counts(compared.results[scheme])
    # by hand: Q42 agrees, London's ids differ
    assert counts(result.pairwise["strong_all_match"][("a", "b")]) == (1, 1, 1)


def test_the_cli_agrees_under_link_schemes(tmp_path):
    a, b = write(tmp_path / "a.jsonl", A), write(tmp_path / "b.jsonl", B)
    out = tmp_path / "agree.json"
    result = invoke(["agree", a, b, "-s", SCHEMES, "-o", out, "--silent"])
    assert result.exit_code == 0, result.stdout + result.stderr
    data = json.loads(out.read_text(encoding="utf8"))
    assert list(data["schemes"]) == ["strict", "strong_all_match", "strong_link_match"]


def test_the_consensus_is_of_spans(tmp_path):
    a, b = write(tmp_path / "a.jsonl", A), write(tmp_path / "b.jsonl", B)
    result = agree_files([a, b], schemes=SCHEMES, consensus=True)
    # the consensus is of spans (both annotators' two), scored under the span schemes only
    assert [(s.start, s.end) for s in result.consensus.spans[0]] == [(0, 13), (23, 29)]
    assert {name: list(scored) for name, scored in result.consensus.scores.items()} == {
        "a": ["strict"],
        "b": ["strict"],
    }


def test_string_schemes_are_still_refused():
    with pytest.raises(SettingError, match="compares span texts"):
        agreement(ANNOTATIONS, schemes="strict,strings")
