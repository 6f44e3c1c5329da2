"""`link_errors`: one record per error of strong_all_match or
strong_typed_all_match, naming the gold and the predicted ids; the records
count neleval's FPs and FNs (FP = spurious + wrong_id, FN = missed +
wrong_id), run in the test, and a small case is written out by hand."""

import pytest

from spacy_spanf1.exceptions import SettingError
from spacy_spanf1.links import link_errors

from test_links_neleval import make_corpus


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("scheme", ["strong_all_match", "strong_typed_all_match"])
def test_the_records_count_nelevals_errors(neleval, seed, scheme):
    gold, pred = make_corpus(seed)
    records = link_errors(gold, pred, scheme=scheme)
    kinds = [r["kind"] for r in records]
    _, fp, fn = neleval.counts(gold, pred, measures=[scheme])[scheme]
    assert kinds.count("spurious") + kinds.count("wrong_id") == fp
    assert kinds.count("missed") + kinds.count("wrong_id") == fn


def test_the_records_name_both_ids():
    gold = [[(0, 2, "PER", "Q42"), (5, 6, "LOC", "Q84"), (8, 9, "ORG", "NIL")], [(0, 1, "PER", "Q1")]]
    pred = [[(0, 2, "PER", "Q42"), (5, 6, "LOC", "Q90"), (8, 9, "ORG", None)], [(3, 4, "PER", "Q2")]]
    # Q42 right; London Q84 -> Q90 wrong; the NIL org right (NIL = no id);
    # document 1: Q1 missed, Q2 spurious
    assert link_errors(gold, pred) == [
        {
            "doc": 0,
            "kind": "wrong_id",
            "start": 5,
            "end": 6,
            "label": "LOC",
            "pred_label": "LOC",
            "gold_kb_id": "Q84",
            "pred_kb_id": "Q90",
        },
        {
            "doc": 1,
            "kind": "missed",
            "start": 0,
            "end": 1,
            "label": "PER",
            "pred_label": None,
            "gold_kb_id": "Q1",
            "pred_kb_id": None,
        },
        {
            "doc": 1,
            "kind": "spurious",
            "start": 3,
            "end": 4,
            "label": "PER",
            "pred_label": "PER",
            "gold_kb_id": None,
            "pred_kb_id": "Q2",
        },
    ]


def test_other_schemes_are_refused():
    with pytest.raises(SettingError, match="link_errors gives the records of strong_all_match"):
        link_errors([[]], [[]], scheme="nel")
