"""Bootstrap intervals and paired tests (docs/definitions.md: "How sure is a score",
"Is a difference real"): bit-identical to scipy.stats where docs/definitions.md says so,
hand-computed where scipy has no counterpart, and a coverage simulation."""
import math
import random
from fractions import Fraction

import numpy
import pytest
import scipy.stats
import spacy
from confection import ConfigValidationError
from spacy.tokens import Doc
from spacy.training import Example

from spacy_spanf1 import SCHEMES, evaluate_spans
from spacy_spanf1.metrics import prf_of_counts
from spacy_spanf1.stats import Interval, PairedTest, SchemeInterval, bootstrap_ci, holm, paired_test
from spacy_spanf1.stats import bootstrap as bootstrap_module

FAMILY = {s: "semeval" if s in ("strict", "exact", "partial", "type") else "prf" for s in SCHEMES}
METRIC = {"p": 0, "r": 1, "f": 2}


def random_corpus(seed, n_docs, labels="AB", correct=0.6):
    """Gold spans and a system's predictions with every kind of error."""
    rng = random.Random(seed)
    gold, pred = [], []
    for _ in range(n_docs):
        g, p, pos = [], [], 0
        for _ in range(rng.randint(0, 5)):
            start = pos + rng.randint(0, 3)
            end = start + rng.randint(1, 3)
            label = rng.choice(labels)
            pos = end + 1
            g.append((start, end, label))
            r = rng.random()
            if r < correct:
                p.append((start, end, label))
            elif r < correct + 0.15:
                p.append((start, end + 1, label))
            elif r < correct + 0.25:
                p.append((start, end, "C"))
        if rng.random() < 0.3:
            p.append((pos + 1, pos + 2, "A"))
        gold.append(g)
        pred.append(sorted(set(p)))
    return gold, pred


@pytest.fixture(scope="module")
def corpus():
    return random_corpus(7, 200)


@pytest.fixture(scope="module")
def results(corpus):
    return evaluate_spans(*corpus, schemes=list(SCHEMES), per_doc=True)


def scipy_statistic(family, metric):
    """P, R or F of the summed rows; x is (columns, ..., documents)."""

    def statistic(x, axis=-1):
        counts = numpy.moveaxis(x.sum(axis=axis), 0, -1)
        return prf_of_counts(counts, family)[METRIC[metric]]

    return statistic


def scipy_ci(rows, family, metric, **kwargs):
    return scipy.stats.bootstrap(
        (rows.T,), scipy_statistic(family, metric), axis=-1, paired=True, vectorized=True,
        rng=numpy.random.default_rng(kwargs.pop("seed", 12345)), **kwargs,
    )


def assert_bit_identical(interval, reference):
    assert interval.low == reference.confidence_interval.low
    assert interval.high == reference.confidence_interval.high
    assert interval.std_error == reference.standard_error


# --- bootstrap_ci against scipy.stats.bootstrap ---------------------------


@pytest.mark.parametrize("method", ["percentile", "BCa"])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_bootstrap_ci_bit_identical_to_scipy(results, scheme, method):
    result = results[scheme]
    found = bootstrap_ci(result, method=method, n_resamples=999, confidence=0.9, seed=3)
    assert isinstance(found, SchemeInterval) and found.n_units == 200
    for metric in "prf":
        reference = scipy_ci(result.per_doc, FAMILY[scheme], metric, method=method,
                             n_resamples=999, confidence_level=0.9, seed=3)
        assert_bit_identical(found[metric], reference)
    assert (found.p.estimate, found.r.estimate, found.f.estimate) == (
        result.precision, result.recall, result.f1
    )
    assert found.f.method == method and found.f.unit == "document" and found.f.seed == 3


def test_dict_of_results_gives_the_same_as_one_by_one(results):
    together = bootstrap_ci(results, n_resamples=200)
    assert list(together) == list(SCHEMES)
    for scheme, result in results.items():
        assert together[scheme] == bootstrap_ci(result, n_resamples=200)


def group_rows_first_seen(rows, groups):
    """The test's own grouping: one summed row per group, in order of first
    occurrence."""
    order, sums = [], {}
    for row, key in zip(rows.tolist(), groups):
        if key not in sums:
            order.append(key)
            sums[key] = [0] * len(row)
        sums[key] = [a + b for a, b in zip(sums[key], row)]
    return numpy.array([sums[key] for key in order], dtype=numpy.int64)


@pytest.mark.parametrize("method", ["percentile", "BCa"])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_bootstrap_ci_groups_bit_identical_to_scipy_on_group_rows(results, scheme, method):
    rng = random.Random(11)
    groups = [f"doc{rng.randint(0, 59)}" for _ in range(200)]
    result = results[scheme]
    found = bootstrap_ci(result, method=method, n_resamples=500, groups=groups)
    rows = group_rows_first_seen(result.per_doc, groups)
    assert found.n_units == len(rows) == len(set(groups))
    for metric in "prf":
        reference = scipy_ci(rows, FAMILY[scheme], metric, method=method, n_resamples=500)
        assert_bit_identical(found[metric], reference)
    assert found.f.unit == "group"
    assert found.f.estimate == result.f1


def test_batches_not_dividing_n_resamples(results, monkeypatch):
    # 200 documents, at most 1000 elements a batch: batches of 5 resamples,
    # 1003 resamples -> 200 full batches and one of 3.
    monkeypatch.setattr(bootstrap_module, "MAX_ELEMENTS", 1000)
    assert bootstrap_module.batch_size(200) == 5
    for method in ("percentile", "BCa"):
        found = bootstrap_ci(results["partial"], n_resamples=1003, method=method)
        for metric in "prf":
            reference = scipy_ci(results["partial"].per_doc, "semeval", metric,
                                 method=method, n_resamples=1003)
            assert_bit_identical(found[metric], reference)


def test_large_corpus_is_batched_and_bit_identical():
    gold, pred = random_corpus(5, 20000)
    result = evaluate_spans(gold, pred, schemes=["strict"], per_doc=True)["strict"]
    size = bootstrap_module.batch_size(20000)
    assert size < 1000 and 1000 % size != 0  # several batches, the last one short
    assert size * 20000 <= 10 ** 7
    found = bootstrap_ci(result, n_resamples=1000)
    for metric in "prf":
        # scipy's own `batch` keeps its memory down; it does not change the draws
        reference = scipy_ci(result.per_doc, "semeval", metric, method="percentile",
                             n_resamples=1000, batch=100)
        assert_bit_identical(found[metric], reference)


def test_interval_to_dict_is_json_ready(results):
    found = bootstrap_ci(results["strict"], n_resamples=50)
    data = found.to_dict()
    assert data["scheme"] == "strict" and set(data) == {"scheme", "n_units", "p", "r", "f"}
    assert data["f"]["low"] == found.f.low and type(data["f"]["low"]) is float
    assert data["f"]["method"] == "percentile" and data["f"]["unit"] == "document"
    assert found.f.low <= found.f.estimate <= found.f.high
    assert isinstance(found.f, Interval)


def test_degenerate_bca_gives_nan_with_a_warning():
    # every document has one correct span: every replicate has P = 1
    result = evaluate_spans([[(0, 1, "A")]] * 5, [[(0, 1, "A")]] * 5, schemes=["strict"], per_doc=True)
    with pytest.warns(UserWarning, match="BCa interval cannot be computed"):
        found = bootstrap_ci(result["strict"], method="BCa", n_resamples=20)
    assert math.isnan(found.p.low) and math.isnan(found.p.high)
    assert bootstrap_ci(result["strict"], n_resamples=20).p.low == 1.0


# --- coverage ---------------------------------------------------------------


def simulated_corpus(rng, n_docs, q=0.7, spurious=0.4):
    """Each document has 0-4 gold spans, each predicted right with
    probability q (else missed), and Poisson(spurious) spurious ones."""
    gold, pred = [], []
    for _ in range(n_docs):
        g = [(2 * i, 2 * i + 1, "A") for i in range(int(rng.integers(0, 5)))]
        p = [span for span in g if rng.random() < q]
        p += [(20 + 2 * j, 21 + 2 * j, "A") for j in range(int(rng.poisson(spurious)))]
        gold.append(g)
        pred.append(p)
    return gold, pred


def test_percentile_interval_covers_the_population_f():
    rng = numpy.random.default_rng(2024)
    population = evaluate_spans(*simulated_corpus(rng, 100000), schemes=["strict"])["strict"]
    # expected counts: 2 gold spans a document, 1.4 found, 0.4 spurious:
    # F of the expectations = 2 * 1.4 / (2 * 1.4 + 0.4 + 0.6) = 0.7368...
    assert population.f1 == pytest.approx(2.8 / 3.8, abs=0.005)
    repetitions, n_docs = 240, 60
    rows = evaluate_spans(
        *simulated_corpus(rng, repetitions * n_docs), schemes=["strict"], per_doc=True
    )["strict"]
    covered = 0
    for k in range(repetitions):
        part = rows.per_doc[k * n_docs:(k + 1) * n_docs]
        found = _interval_of_rows(part, seed=k)
        covered += found.low <= population.f1 <= found.high
    assert 0.90 <= covered / repetitions <= 0.98, covered / repetitions


def _interval_of_rows(rows, seed):
    """bootstrap_ci of a SchemeResult holding only these per-document rows."""
    from spacy_spanf1.counts import SemEvalCounts
    from spacy_spanf1.evaluate import SchemeResult

    result = SchemeResult("strict", SemEvalCounts(*rows.sum(axis=0).tolist()), per_doc=rows,
                          n_docs=len(rows))
    return bootstrap_ci(result, n_resamples=1000, seed=seed).f


# --- paired tests -------------------------------------------------------------


def two_systems(seed, n_docs):
    """One gold, two systems: B finds more spans than A."""
    gold, pred_a = random_corpus(seed, n_docs, correct=0.55)
    _, pred_b = random_corpus(seed, n_docs, correct=0.65)
    return gold, pred_a, pred_b


def scipy_permutation(rows_a, rows_b, family, **kwargs):
    # permutation_test prepends the rounds: x is (..., columns, documents)
    def statistic(x, y, axis=-1):
        f_x = prf_of_counts(x.sum(axis=axis), family)[2]
        f_y = prf_of_counts(y.sum(axis=axis), family)[2]
        return f_y - f_x

    return scipy.stats.permutation_test(
        (rows_a.T, rows_b.T), statistic, permutation_type="samples", alternative="two-sided",
        vectorized=True, axis=-1, **kwargs,
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
        group_rows_first_seen(a.per_doc, groups), group_rows_first_seen(b.per_doc, groups),
        "semeval", n_resamples=10000,
    )
    assert found.exact and found.unit == "group" and found.n_units == 10
    assert found.p_value == reference.pvalue


def close_systems(seed, n_docs):
    """Two systems that trade documents: A takes the better system's output
    on 45 % of them, B on the rest, so the difference is small."""
    gold, worse = random_corpus(seed, n_docs, correct=0.5)
    _, better = random_corpus(seed, n_docs, correct=0.65)
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
    reference = scipy_permutation(a.per_doc, b.per_doc, "semeval", n_resamples=9999,
                                  rng=numpy.random.default_rng(0))
    assert not found.exact
    p = reference.pvalue
    assert 0.01 < p < 0.9  # a p-value that Monte-Carlo error can move
    standard_error = math.sqrt(p * (1 - p) / 5000 + p * (1 - p) / 9999)
    assert abs(found.p_value - p) <= 3 * standard_error, (found.p_value, p)


@pytest.mark.parametrize("method", ["randomization", "bootstrap"])
def test_identical_systems(results, method):
    found = paired_test(results, results, method=method, n_resamples=300)
    for scheme in SCHEMES:
        assert found[scheme].delta == 0.0 and found[scheme].delta_p == 0.0
        assert found[scheme].low == found[scheme].high == 0.0
        if method == "randomization":
            assert found[scheme].p_value == 1.0
            assert not found[scheme].significant
        else:
            # the definitions' (sacrebleu's) formula: every s_i = 0, none > |delta| = 0,
            # so p = (0 + 1) / (300 + 1), however alike the systems are
            assert found[scheme].p_value == 1 / 301


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
        (a.per_doc.T, b.per_doc.T), statistic, axis=-1, paired=True, vectorized=True,
        n_resamples=1000, confidence_level=0.9, method="percentile", rng=numpy.random.default_rng(12345),
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
    assert holm({"PER": 0.1, "LOC": 0.04, "ORG": 0.9}) == pytest.approx(
        {"PER": 0.2, "LOC": 0.12, "ORG": 0.9}
    )
    assert holm([0.6, 0.7]) == [1.0, 1.0]


def test_holm_marks_paired_tests(results):
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


def test_results_of_different_schemes_are_an_error(results):
    with pytest.raises(ValueError, match="different schemes \\('strict' and 'exact'\\)"):
        paired_test(results["strict"], results["exact"])
    with pytest.raises(ValueError, match="hold different schemes"):
        paired_test({"strict": results["strict"]}, {"exact": results["exact"]})


def test_result_without_per_doc_is_an_error(corpus):
    plain = evaluate_spans(*corpus, schemes=["strict"])
    with pytest.raises(ValueError, match="score with per_doc=True"):
        bootstrap_ci(plain)
    with pytest.raises(ValueError, match="score with per_doc=True"):
        paired_test(plain, plain)
    with pytest.raises(TypeError, match="must be a SchemeResult"):
        bootstrap_ci([1, 2])


@pytest.mark.parametrize(
    "settings,error,message",
    [
        ({"n_resamples": 0}, ValueError, "'n_resamples' must be a positive integer \\(at least 1\\), got 0"),
        ({"n_resamples": 10.5}, TypeError, "'n_resamples' must be a positive integer, got 10.5"),
        ({"n_resamples": True}, TypeError, "'n_resamples' must be a positive integer, got True"),
        ({"confidence": 1.0}, ValueError, "'confidence' must be in \\(0, 1\\).*got 1.0"),
        ({"confidence": 0}, ValueError, "'confidence' must be in \\(0, 1\\).*got 0"),
        ({"confidence": "95%"}, TypeError, "'confidence' must be a number in \\(0, 1\\), got '95%'"),
        ({"method": "bca"}, ValueError, "Unknown method 'bca' in 'method'. Valid: percentile, BCa"),
        ({"seed": -1}, ValueError, "'seed' must be a non-negative integer, got -1"),
        ({"groups": [0, 1, 2]}, ValueError, "'groups' has 3 keys but the result has 200 documents"),
        ({"groups": [[0]] * 200}, TypeError, "'groups' holds the unhashable key \\[0\\] \\(document 0\\)"),
        ({"groups": [0] * 200}, ValueError, "Resampling needs at least 2 groups, got 1"),
    ],
    ids=["n_zero", "n_float", "n_bool", "confidence_one", "confidence_zero", "confidence_str",
         "method", "seed", "groups_length", "groups_unhashable", "one_group"],
)
def test_bootstrap_ci_bad_settings(results, settings, error, message):
    with pytest.raises(error, match=message):
        bootstrap_ci(results["strict"], **settings)


@pytest.mark.parametrize(
    "settings,error,message",
    [
        ({"method": "permutation"}, ValueError, "Unknown method 'permutation' in 'method'. Valid: randomization, bootstrap"),
        ({"n_resamples": -5}, ValueError, "'n_resamples' must be a positive integer \\(at least 1\\), got -5"),
        ({"alpha": 1.5}, ValueError, "'alpha' must be in \\(0, 1\\).*got 1.5"),
        ({"groups": list(range(199))}, ValueError, "'groups' has 199 keys but the result has 200 documents"),
    ],
    ids=["method", "n_resamples", "alpha", "groups"],
)
def test_paired_test_bad_settings(results, settings, error, message):
    with pytest.raises(error, match=message):
        paired_test(results["strict"], results["strict"], **settings)


# --- the spaCy scorer -------------------------------------------------------------


def ruler_pipeline(**scorer_settings):
    nlp = spacy.blank("en")
    scorer = {"@scorers": "spacy-spanf1.scorer.v1", "schemes": ["strict", "iou"], **scorer_settings}
    ruler = nlp.add_pipe("entity_ruler", config={"scorer": scorer})
    ruler.add_patterns([
        {"label": "PER", "pattern": "Ann"},
        {"label": "LOC", "pattern": "Rome"},
        {"label": "PER", "pattern": "Paris"},  # a wrong label
    ])
    return nlp


def ruler_examples(nlp, n=30):
    rng = random.Random(1)
    examples = []
    for _ in range(n):
        words, ents = [], []
        for _ in range(rng.randint(2, 6)):
            word = rng.choice(["Ann", "Rome", "Paris", "Bob", "met", "in"])
            words.append(word)
            ents.append({"Ann": "B-PER", "Rome": "B-LOC", "Paris": "B-LOC", "Bob": "B-PER"}.get(word, "O"))
        examples.append(Example(nlp.make_doc(" ".join(words)), Doc(nlp.vocab, words=words, ents=ents)))
    return examples


def test_scorer_interval_keys_equal_bootstrap_ci():
    nlp = ruler_pipeline(confidence=0.9, n_resamples=300, seed=5)
    examples = ruler_examples(nlp)
    scores = nlp.evaluate(examples)
    gold = [[(e.start, e.end, e.label_) for e in eg.reference.ents] for eg in examples]
    pred = [[(e.start, e.end, e.label_) for e in doc.ents] for doc in nlp.pipe(eg.text for eg in examples)]
    expected = bootstrap_ci(
        evaluate_spans(gold, pred, schemes=["strict", "iou"], per_doc=True),
        confidence=0.9, n_resamples=300, seed=5,
    )
    assert 0 < scores["ents_strict_f"] < 1
    for scheme in ("strict", "iou"):
        for metric in "prf":
            interval = expected[scheme][metric]
            assert scores[f"ents_{scheme}_{metric}_ci"] == [interval.low, interval.high]
    assert scores["ents_strict_f_ci"][0] < scores["ents_strict_f"] < scores["ents_strict_f_ci"][1]


def test_scorer_without_confidence_has_no_interval_keys():
    nlp = ruler_pipeline()
    scores = nlp.evaluate(ruler_examples(nlp, 5))
    assert "ents_strict_f" in scores
    assert not [key for key in scores if key.endswith("_ci")]


@pytest.mark.parametrize(
    "settings,message",
    [
        ({"confidence": 1.5}, "'confidence' must be in \\(0, 1\\)"),
        ({"confidence": 0.9, "n_resamples": 0}, "'n_resamples' must be a positive integer"),
        ({"confidence": 0.9, "seed": -3}, "'seed' must be a non-negative integer"),
    ],
    ids=["confidence", "n_resamples", "seed"],
)
def test_scorer_bad_settings_fail_at_config_resolution(settings, message):
    with pytest.raises(ConfigValidationError, match=message):
        ruler_pipeline(**settings)
