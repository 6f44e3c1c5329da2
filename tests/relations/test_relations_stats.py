"""Intervals and paired tests of the relation schemes, from their
per-document (tp, fp, fn) rows as for the span schemes."""

import pytest

from spacy_spanf1 import bootstrap_ci, paired_test
from spacy_spanf1.relations import evaluate_relations

SPANS = [(0, 1, "PER"), (2, 3, "ORG"), (4, 5, "LOC")]
GOLD = {"spans": SPANS, "relations": [(0, 1, "works_for"), (1, 2, "located_in")]}
HALF = {"spans": SPANS, "relations": [(0, 1, "works_for"), (2, 1, "located_in")]}  # one right, one reversed
ALL = {"spans": SPANS, "relations": [(0, 1, "works_for"), (1, 2, "located_in")]}


def test_identical_documents_give_an_interval_of_one_point():
    # every document TP 1, FP 1, FN 1: every resample has F 0.5
    r = evaluate_relations([GOLD] * 6, [HALF] * 6, schemes=["rel_strict"], per_doc=True)["rel_strict"]
    assert r.per_doc.tolist() == [[1, 1, 1]] * 6
    ci = bootstrap_ci(r, n_resamples=200, seed=1)
    assert ci.f.estimate == 0.5 and ci.f.low == ci.f.high == 0.5
    assert ci.n_units == 6


def test_an_interval_spreads_over_different_documents():
    # three documents all right, three half right
    r = evaluate_relations([GOLD] * 6, [ALL] * 3 + [HALF] * 3, schemes=["rel_strict"], per_doc=True)["rel_strict"]
    # TP 3 * 2 + 3 * 1 = 9, FP 3, FN 3: F = 9 / (9 + 3) = 0.75
    assert r.f1 == pytest.approx(0.75)
    ci = bootstrap_ci(r, n_resamples=500, seed=1)
    assert ci.f.low < 0.75 < ci.f.high and 0.5 <= ci.f.low and ci.f.high <= 1.0


def test_a_paired_test_of_two_systems():
    a = evaluate_relations([GOLD] * 6, [HALF] * 6, schemes=["rel_strict"], per_doc=True)
    b = evaluate_relations([GOLD] * 6, [ALL] * 6, schemes=["rel_strict"], per_doc=True)
    found = paired_test(a, b, n_resamples=200, seed=1)["rel_strict"]
    assert found.delta == pytest.approx(1.0 - 0.5)
    same = paired_test(a, a, n_resamples=200, seed=1)["rel_strict"]
    assert same.delta == 0.0 and same.p_value == 1.0 and not same.significant
