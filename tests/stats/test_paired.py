"""Paired tests (`spacy_spanf1.stats.paired`; docs/definitions.md: "Is a
difference real"): the randomization test bit-identical to
scipy.stats.permutation_test, the paired bootstrap worked by hand and
against scipy.stats.bootstrap, and Holm's adjustment."""

import math
import random
from fractions import Fraction

import numpy
import pytest
import scipy.stats

from helpers import FAMILY, error_corpus, group_rows_first_seen
from spacy_spanf1 import SCHEMES, evaluate_spans
from spacy_spanf1.engine.metrics import prf_of_counts
from spacy_spanf1.stats import PairedTest, bootstrap_ci, holm, paired_test


# --- paired tests -------------------------------------------------------------


def two_systems(seed, n_docs):
    """One gold, two systems: B finds more spans than A."""
    gold, pred_a = error_corpus(seed, n_docs, correct=0.55)
    _, pred_b = error_corpus(seed, n_docs, correct=0.65)
    return gold, pred_a, pred_b


def scipy_permutation(rows_a, rows_b, family, **kwargs):
    # permutation_test prepends the rounds: x is (..., columns, documents)
    def statistic(x, y, axis=-1):
        f_x = prf_of_counts(x.sum(axis=axis), family)[2]
        f_y = prf_of_counts(y.sum(axis=axis), family)[2]
        return f_y - f_x

    return scipy.stats.permutation_test(
        (rows_a.T, rows_b.T),
        statistic,
        permutation_type="samples",
        alternative="two-sided",
        vectorized=True,
        axis=-1,
        **kwargs,
    )


@pytest.mark.parametrize("scheme", SCHEMES)
def test_randomization_exact_equals_scipy(scheme):
    gold, pred_a, pred_b = two_systems(3, 10)
    a = evaluate_spans(gold, pred_a, schemes=[scheme], per_doc=True)[scheme]
    b = evaluate_spans(gold, pred_b, schemes=[scheme], per_doc=True)[scheme]
    found = paired_test(a, b)  # 2**10 <= 10000: every assignment
    reference = scipy_permutation(a.per_doc, b.per_doc, FAMILY[scheme], n_resamples=10000)
    assert found.exact and reference.null_distribution.shape == (1024,)
    assert found.p_value == reference.pvalue
    assert found.delta == reference.statistic == b.f1 - a.f1
    assert found.delta_p == b.precision - a.precision and found.delta_r == b.recall - a.recall
    assert found.significant == (found.p_value < 0.05)


def test_randomization_exact_on_groups_equals_scipy_on_group_rows():
    gold, pred_a, pred_b = two_systems(4, 40)
    groups = [d // 4 for d in range(40)]
    a = evaluate_spans(gold, pred_a, schemes=["type"], per_doc=True)["type"]
    b = evaluate_spans(gold, pred_b, schemes=["type"], per_doc=True)["type"]
    found = paired_test(a, b, groups=groups)
    reference = scipy_permutation(
        group_rows_first_seen(a.per_doc, groups),
        group_rows_first_seen(b.per_doc, groups),
        "semeval",
        n_resamples=10000,
    )
    assert found.exact and found.unit == "group" and found.n_units == 10
    assert found.p_value == reference.pvalue


def close_systems(seed, n_docs):
    """Two systems that trade documents: A takes the better system's output
    on 45 % of them, B on the rest, so the difference is small."""
    gold, worse = error_corpus(seed, n_docs, correct=0.5)
    _, better = error_corpus(seed, n_docs, correct=0.65)
    rng = random.Random(seed)
    swap = [rng.random() < 0.45 for _ in range(n_docs)]
    pred_a = [b if s else w for s, w, b in zip(swap, worse, better)]
    pred_b = [w if s else b for s, w, b in zip(swap, worse, better)]
    return gold, pred_a, pred_b


def test_randomization_monte_carlo_within_three_standard_errors_of_scipy():
    gold, pred_a, pred_b = close_systems(8, 150)
    a = evaluate_spans(gold, pred_a, schemes=["strict"], per_doc=True)["strict"]
    b = evaluate_spans(gold, pred_b, schemes=["strict"], per_doc=True)["strict"]
    found = paired_test(a, b, n_resamples=5000)
    reference = scipy_permutation(a.per_doc, b.per_doc, "semeval", n_resamples=9999, rng=numpy.random.default_rng(0))
    assert not found.exact
    p = reference.pvalue
    assert 0.01 < p < 0.9  # a p-value that Monte-Carlo error can move
    standard_error = math.sqrt(p * (1 - p) / 5000 + p * (1 - p) / 9999)
    assert abs(found.p_value - p) <= 3 * standard_error, (found.p_value, p)


@pytest.mark.parametrize("method", ["randomization", "bootstrap"])
def test_identical_systems(stats_results, method):
    found = paired_test(stats_results, stats_results, method=method, n_resamples=300)
    for scheme in SCHEMES:
        assert found[scheme].delta == 0.0 and found[scheme].delta_p == 0.0
        assert found[scheme].low == found[scheme].high == 0.0
        # randomization: every assignment gives the same delta 0, p = 1. The bootstrap's
        # formula would give (#{s_i > 0} + 1) / (300 + 1) = 1/301 (every s_i = 0): a zero
        # difference is no evidence of one, so p is 1 and it is never significant.
        assert found[scheme].p_value == 1.0
        assert not found[scheme].significant


def test_zero_delta_of_different_systems_is_not_significant():
    # A and B differ per document but have the same F: A misses the span of doc 0, B that of
    # doc 1 (overlap: A (0,0,1) (1,0,0), B (1,0,0) (0,0,1); F(A) = F(B) = 2/3, delta exactly 0).
    gold = [[(0, 1, "A")], [(0, 1, "A")]]
    a = evaluate_spans(gold, [[], [(0, 1, "A")]], schemes=["overlap"], per_doc=True)["overlap"]
    b = evaluate_spans(gold, [[(0, 1, "A")], []], schemes=["overlap"], per_doc=True)["overlap"]
    for method in ("randomization", "bootstrap"):
        found = paired_test(a, b, method=method, n_resamples=200, alpha=0.5)
        assert found.delta == 0.0 and found.p_value == 1.0 and not found.significant
    adjusted = holm([paired_test(a, b, method="bootstrap", n_resamples=200, alpha=0.5)])
    assert not adjusted[0].significant


@pytest.mark.parametrize("method", ["randomization", "bootstrap"])
def test_swapping_systems_keeps_p_and_negates_delta(method):
    gold, pred_a, pred_b = two_systems(9, 80)
    a = evaluate_spans(gold, pred_a, schemes=list(SCHEMES), per_doc=True)
    b = evaluate_spans(gold, pred_b, schemes=list(SCHEMES), per_doc=True)
    ab = paired_test(a, b, method=method, n_resamples=2000)
    ba = paired_test(b, a, method=method, n_resamples=2000)
    for scheme in SCHEMES:
        assert ab[scheme].p_value == ba[scheme].p_value
        assert ab[scheme].delta == -ba[scheme].delta != 0.0
        assert ab[scheme].delta_r == -ba[scheme].delta_r


def test_paired_bootstrap_by_hand():
    # overlap scheme, counts (tp, fp, fn) per document:
    #   A: doc0 (1, 0, 1)  doc1 (1, 0, 0)  doc2 (0, 0, 2)   F = 2*1*(2/5)/(7/5) = 4/7
    #   B: doc0 (2, 0, 0)  doc1 (1, 1, 0)  doc2 (1, 0, 1)   F = 4/5
    gold = [[(0, 1, "A"), (2, 3, "A")], [(0, 1, "A")], [(0, 1, "A"), (2, 3, "A")]]
    pred_a = [[(0, 1, "A")], [(0, 1, "A")], []]
    pred_b = [[(0, 1, "A"), (2, 3, "A")], [(0, 1, "A"), (5, 6, "A")], [(0, 1, "A")]]
    a = evaluate_spans(gold, pred_a, schemes=["overlap"], per_doc=True)["overlap"]
    b = evaluate_spans(gold, pred_b, schemes=["overlap"], per_doc=True)["overlap"]
    assert a.per_doc.tolist() == [[1, 0, 1], [1, 0, 0], [0, 0, 2]]
    assert b.per_doc.tolist() == [[2, 0, 0], [1, 1, 0], [1, 0, 1]]
    draws = numpy.random.default_rng(12345).integers(0, 3, size=(4, 3)).tolist()
    assert draws == [[2, 0, 2], [0, 0, 2], [1, 2, 2], [1, 2, 0]]
    # resample -> summed A, summed B -> F(A_i), F(B_i) (F = 2tp / (2tp + fp + fn)):
    #   [2, 0, 2]: A (1, 0, 5) F 2/7   B (4, 0, 2) F 4/5    diff 18/35
    #   [0, 0, 2]: A (2, 0, 4) F 1/2   B (5, 0, 1) F 10/11  diff 9/22
    #   [1, 2, 2]: A (1, 0, 4) F 1/3   B (3, 1, 2) F 2/3    diff 1/3
    #   [1, 2, 0]: A (2, 0, 3) F 4/7   B (4, 1, 1) F 4/5    diff 8/35
    diffs = [Fraction(18, 35), Fraction(9, 22), Fraction(1, 3), Fraction(8, 35)]
    delta = Fraction(4, 5) - Fraction(4, 7)  # 8/35
    mean = sum(diffs) / 4  # d_i = |diff_i| = diff_i here
    s = [d - mean for d in diffs]  # 0.143, 0.038, -0.038, -0.143
    assert sum(x > delta for x in s) == 0  # none beyond |delta| = 0.229
    found = paired_test(a, b, method="bootstrap", n_resamples=4)
    assert found.p_value == (0 + 1) / (4 + 1)
    assert found.delta == pytest.approx(float(delta))
    # percentile interval at 1 - alpha = 0.95 of the sorted diffs
    # [8/35, 1/3, 9/22, 18/35], Hyndman & Fan 7: position p * 4 + 1 - p
    # (from 1): 1.075 and 3.925
    low = 0.925 * (8 / 35) + 0.075 * (1 / 3)
    high = 0.075 * (9 / 22) + 0.925 * (18 / 35)
    assert found.low == pytest.approx(low) and found.high == pytest.approx(high)
    assert found.method == "bootstrap" and found.n_resamples == 4 and found.seed == 12345


def test_paired_bootstrap_interval_equals_scipy_bootstrap_of_delta():
    gold, pred_a, pred_b = two_systems(10, 120)
    a = evaluate_spans(gold, pred_a, schemes=["iou"], per_doc=True)["iou"]
    b = evaluate_spans(gold, pred_b, schemes=["iou"], per_doc=True)["iou"]
    found = paired_test(a, b, method="bootstrap", alpha=0.1)

    # bootstrap indexes each sample: x is (columns, ..., documents)
    def statistic(x, y, axis=-1):
        f_x = prf_of_counts(numpy.moveaxis(x.sum(axis=axis), 0, -1), "prf")[2]
        f_y = prf_of_counts(numpy.moveaxis(y.sum(axis=axis), 0, -1), "prf")[2]
        return f_y - f_x

    reference = scipy.stats.bootstrap(
        (a.per_doc.T, b.per_doc.T),
        statistic,
        axis=-1,
        paired=True,
        vectorized=True,
        n_resamples=1000,
        confidence_level=0.9,
        method="percentile",
        rng=numpy.random.default_rng(12345),
    )
    assert found.low == reference.confidence_interval.low
    assert found.high == reference.confidence_interval.high
    d = numpy.abs(reference.bootstrap_distribution)
    expected_p = (numpy.count_nonzero(d - d.mean() > abs(found.delta)) + 1) / 1001
    assert found.p_value == expected_p


def test_randomization_interval_is_the_paired_bootstrap_interval():
    gold, pred_a, pred_b = two_systems(12, 60)
    a = evaluate_spans(gold, pred_a, schemes=["strict"], per_doc=True)
    b = evaluate_spans(gold, pred_b, schemes=["strict"], per_doc=True)
    randomization = paired_test(a, b, n_resamples=500)["strict"]
    boot = paired_test(a, b, method="bootstrap")["strict"]
    assert (randomization.low, randomization.high) == (boot.low, boot.high)
    assert isinstance(randomization, PairedTest)
    data = randomization.to_dict()
    assert data["p_value"] == randomization.p_value and data["method"] == "randomization"


def test_holm_by_hand():
    # sorted: 0.01 (x4 = 0.04), 0.02 (x3 = 0.06), 0.03 (x2 = 0.06), 0.5 (x1 = 0.5)
    assert holm([0.03, 0.5, 0.01, 0.02]) == pytest.approx([0.06, 0.5, 0.04, 0.06])
    # step-down keeps the adjusted values monotone: 0.04 x 3 = 0.12 < 0.2
    assert holm({"PER": 0.1, "LOC": 0.04, "ORG": 0.9}) == pytest.approx({"PER": 0.2, "LOC": 0.12, "ORG": 0.9})
    assert holm([0.6, 0.7]) == [1.0, 1.0]


def test_holm_marks_paired_tests(stats_results):
    gold, pred_a, pred_b = two_systems(3, 10)
    a = evaluate_spans(gold, pred_a, schemes=["strict", "exact"], per_doc=True)
    b = evaluate_spans(gold, pred_b, schemes=["strict", "exact"], per_doc=True)
    tests = paired_test(a, b)
    adjusted = holm(tests)
    ps = sorted([tests["strict"].p_value, tests["exact"].p_value])
    assert sorted(t.p_value for t in adjusted.values()) == pytest.approx(
        [min(1, 2 * ps[0]), max(min(1, 2 * ps[0]), ps[1])]
    )
    assert all(t.adjustment == "holm" for t in adjusted.values())
    assert all(t.significant == (t.p_value < t.alpha) for t in adjusted.values())


# --- bad input ------------------------------------------------------------------


def test_different_gold_is_an_error():
    gold, pred_a, pred_b = two_systems(3, 10)
    a = evaluate_spans(gold, pred_a, schemes=["strict"], per_doc=True)
    other_gold = [list(g) for g in gold]
    other_gold[4] = other_gold[4] + [(50, 51, "A")]
    b = evaluate_spans(other_gold, pred_b, schemes=["strict"], per_doc=True)
    with pytest.raises(ValueError, match="Different gold under 'strict': document 4 has"):
        paired_test(a, b)
    shorter = evaluate_spans(gold[:9], pred_b[:9], schemes=["strict"], per_doc=True)
    with pytest.raises(ValueError, match="Different numbers of documents under 'strict': result_a has 10, result_b 9"):
        paired_test(a, shorter)


def test_results_of_different_schemes_are_an_error(stats_results):
    with pytest.raises(ValueError, match="different schemes \\('strict' and 'exact'\\)"):
        paired_test(stats_results["strict"], stats_results["exact"])
    with pytest.raises(ValueError, match="hold different schemes"):
        paired_test({"strict": stats_results["strict"]}, {"exact": stats_results["exact"]})


def test_result_without_per_doc_is_an_error(stats_corpus):
    plain = evaluate_spans(*stats_corpus, schemes=["strict"])
    with pytest.raises(ValueError, match="score with per_doc=True"):
        bootstrap_ci(plain)
    with pytest.raises(ValueError, match="score with per_doc=True"):
        paired_test(plain, plain)
    with pytest.raises(TypeError, match="must be a SchemeResult"):
        bootstrap_ci([1, 2])


@pytest.mark.parametrize(
    "settings,error,message",
    [
        (
            {"method": "permutation"},
            ValueError,
            "Unknown method 'permutation' in 'method'. Valid: randomization, bootstrap",
        ),
        ({"n_resamples": -5}, ValueError, "'n_resamples' must be a positive integer \\(at least 1\\), got -5"),
        ({"alpha": 1.5}, ValueError, "'alpha' must be in \\(0, 1\\).*got 1.5"),
        ({"groups": list(range(199))}, ValueError, "'groups' has 199 keys but the result has 200 documents"),
    ],
    ids=["method", "n_resamples", "alpha", "groups"],
)
def test_paired_test_bad_settings(stats_results, settings, error, message):
    with pytest.raises(error, match=message):
        paired_test(stats_results["strict"], stats_results["strict"], **settings)
