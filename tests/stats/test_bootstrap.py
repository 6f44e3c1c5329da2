"""Bootstrap intervals (`spacy_spanf1.stats.bootstrap`; docs/definitions.md:
"How sure is a score"): bit-identical to scipy.stats.bootstrap where
docs/definitions.md says so, a coverage simulation, and the intervals the
spaCy scorer reports. The paired tests are in test_paired.py."""

import math
import random

import numpy
import pytest
import scipy.stats
import spacy
from confection import ConfigValidationError
from spacy.tokens import Doc
from spacy.training import Example

from helpers import FAMILY, error_corpus, group_rows_first_seen
from spacy_spanf1 import SCHEMES, evaluate_spans
from spacy_spanf1.engine.metrics import prf_of_counts
from spacy_spanf1.stats import Interval, SchemeInterval, bootstrap_ci
from spacy_spanf1.stats import bootstrap as bootstrap_module


METRIC = {"p": 0, "r": 1, "f": 2}


def scipy_statistic(family, metric):
    """P, R or F of the summed rows; x is (columns, ..., documents)."""

    def statistic(x, axis=-1):
        counts = numpy.moveaxis(x.sum(axis=axis), 0, -1)
        return prf_of_counts(counts, family)[METRIC[metric]]

    return statistic


def scipy_ci(rows, family, metric, **kwargs):
    return scipy.stats.bootstrap(
        (rows.T,),
        scipy_statistic(family, metric),
        axis=-1,
        paired=True,
        vectorized=True,
        rng=numpy.random.default_rng(kwargs.pop("seed", 12345)),
        **kwargs,
    )


def assert_bit_identical(interval, reference):
    assert interval.low == reference.confidence_interval.low
    assert interval.high == reference.confidence_interval.high
    assert interval.std_error == reference.standard_error


# --- bootstrap_ci against scipy.stats.bootstrap ---------------------------


@pytest.mark.parametrize("method", ["percentile", "BCa"])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_bootstrap_ci_bit_identical_to_scipy(stats_results, scheme, method):
    result = stats_results[scheme]
    found = bootstrap_ci(result, method=method, n_resamples=999, confidence=0.9, seed=3)
    assert isinstance(found, SchemeInterval) and found.n_units == 200
    for metric in "prf":
        reference = scipy_ci(
            result.per_doc, FAMILY[scheme], metric, method=method, n_resamples=999, confidence_level=0.9, seed=3
        )
        assert_bit_identical(found[metric], reference)
    assert (found.p.estimate, found.r.estimate, found.f.estimate) == (result.precision, result.recall, result.f1)
    assert found.f.method == method and found.f.unit == "document" and found.f.seed == 3


def test_dict_of_results_gives_the_same_as_one_by_one(stats_results):
    together = bootstrap_ci(stats_results, n_resamples=200)
    assert list(together) == list(SCHEMES)
    for scheme, result in stats_results.items():
        assert together[scheme] == bootstrap_ci(result, n_resamples=200)


@pytest.mark.parametrize("method", ["percentile", "BCa"])
@pytest.mark.parametrize("scheme", SCHEMES)
def test_bootstrap_ci_groups_bit_identical_to_scipy_on_group_rows(stats_results, scheme, method):
    rng = random.Random(11)
    groups = [f"doc{rng.randint(0, 59)}" for _ in range(200)]
    result = stats_results[scheme]
    found = bootstrap_ci(result, method=method, n_resamples=500, groups=groups)
    rows = group_rows_first_seen(result.per_doc, groups)
    assert found.n_units == len(rows) == len(set(groups))
    for metric in "prf":
        reference = scipy_ci(rows, FAMILY[scheme], metric, method=method, n_resamples=500)
        assert_bit_identical(found[metric], reference)
    assert found.f.unit == "group"
    assert found.f.estimate == result.f1


def test_batches_not_dividing_n_resamples(stats_results, monkeypatch):
    # 200 documents, at most 1000 elements a batch: batches of 5 resamples,
    # 1003 resamples -> 200 full batches and one of 3.
    monkeypatch.setattr(bootstrap_module, "MAX_ELEMENTS", 1000)
    assert bootstrap_module.batch_size(200) == 5
    for method in ("percentile", "BCa"):
        found = bootstrap_ci(stats_results["partial"], n_resamples=1003, method=method)
        for metric in "prf":
            reference = scipy_ci(stats_results["partial"].per_doc, "semeval", metric, method=method, n_resamples=1003)
            assert_bit_identical(found[metric], reference)


@pytest.mark.slow  # 20,000 documents, 1,000 resamples, twice (about 5 s)
def test_large_corpus_is_batched_and_bit_identical():
    gold, pred = error_corpus(5, 20000)
    result = evaluate_spans(gold, pred, schemes=["strict"], per_doc=True)["strict"]
    size = bootstrap_module.batch_size(20000)
    assert size < 1000 and 1000 % size != 0  # several batches, the last one short
    assert size * 20000 <= 10**7
    found = bootstrap_ci(result, n_resamples=1000)
    for metric in "prf":
        # scipy's own `batch` keeps its memory down; it does not change the draws
        reference = scipy_ci(result.per_doc, "semeval", metric, method="percentile", n_resamples=1000, batch=100)
        assert_bit_identical(found[metric], reference)


def test_interval_to_dict_is_json_ready(stats_results):
    found = bootstrap_ci(stats_results["strict"], n_resamples=50)
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
    rows = evaluate_spans(*simulated_corpus(rng, repetitions * n_docs), schemes=["strict"], per_doc=True)["strict"]
    covered = 0
    for k in range(repetitions):
        part = rows.per_doc[k * n_docs : (k + 1) * n_docs]
        found = _interval_of_rows(part, seed=k)
        covered += found.low <= population.f1 <= found.high
    assert 0.90 <= covered / repetitions <= 0.98, covered / repetitions


def _interval_of_rows(rows, seed):
    """bootstrap_ci of a SchemeResult holding only these per-document rows."""
    from spacy_spanf1.engine.counts import SemEvalCounts
    from spacy_spanf1.engine.scorer import SchemeResult

    result = SchemeResult("strict", SemEvalCounts(*rows.sum(axis=0).tolist()), per_doc=rows, n_docs=len(rows))
    return bootstrap_ci(result, n_resamples=1000, seed=seed).f


# --- bad input ------------------------------------------------------------------


@pytest.mark.parametrize(
    "settings,error,message",
    [
        ({"n_resamples": 0}, ValueError, "'n_resamples' must be a positive integer \\(at least 1\\), got 0"),
        ({"n_resamples": 10.5}, ValueError, "'n_resamples' must be a positive integer, got 10.5"),
        ({"n_resamples": True}, ValueError, "'n_resamples' must be a positive integer, got True"),
        ({"confidence": 1.0}, ValueError, "'confidence' must be in \\(0, 1\\).*got 1.0"),
        ({"confidence": 0}, ValueError, "'confidence' must be in \\(0, 1\\).*got 0"),
        ({"confidence": "95%"}, ValueError, "'confidence' must be a number in \\(0, 1\\), got '95%'"),
        ({"method": "bca"}, ValueError, "Unknown method 'bca' in 'method'. Valid: percentile, BCa"),
        ({"seed": -1}, ValueError, "'seed' must be a non-negative integer, got -1"),
        ({"groups": [0, 1, 2]}, ValueError, "'groups' has 3 keys but the result has 200 documents"),
        ({"groups": [[0]] * 200}, TypeError, "'groups' holds the unhashable key \\[0\\] \\(document 0\\)"),
        ({"groups": [0] * 200}, ValueError, "Resampling needs at least 2 groups, got 1"),
    ],
    ids=[
        "n_zero",
        "n_float",
        "n_bool",
        "confidence_one",
        "confidence_zero",
        "confidence_str",
        "method",
        "seed",
        "groups_length",
        "groups_unhashable",
        "one_group",
    ],
)
def test_bootstrap_ci_bad_settings(stats_results, settings, error, message):
    with pytest.raises(error, match=message):
        bootstrap_ci(stats_results["strict"], **settings)


# --- the spaCy scorer -------------------------------------------------------------


def ruler_pipeline(**scorer_settings):
    nlp = spacy.blank("en")
    scorer = {"@scorers": "spacy-spanf1.scorer.v1", "schemes": ["strict", "iou"], **scorer_settings}
    ruler = nlp.add_pipe("entity_ruler", config={"scorer": scorer})
    ruler.add_patterns(
        [
            {"label": "PER", "pattern": "Ann"},
            {"label": "LOC", "pattern": "Rome"},
            {"label": "PER", "pattern": "Paris"},  # a wrong label
        ]
    )
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
        confidence=0.9,
        n_resamples=300,
        seed=5,
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
