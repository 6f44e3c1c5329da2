"""Average precision, best thresholds, calibration and bad input of a sweep,
against hand computation and scikit-learn."""

import math

import numpy
import pytest

from helpers import SWEEP_SCHEME_KEYS
from spacy_spanf1 import InputError, SettingError, evaluate_spans
from spacy_spanf1.settings import SCHEMES
from spacy_spanf1.sweeps import sweep

sklearn_metrics = pytest.importorskip("sklearn.metrics")


def test_ap_by_hand():
    # 3 gold spans; predictions by score: 0.9 correct, 0.8 wrong, 0.6 correct, 0.3 wrong.
    gold = [[(0, 1, "A"), (2, 3, "A"), (4, 5, "A")]]
    pred = [[(0, 1, "A", 0.9), (6, 7, "A", 0.8), (2, 3, "A", 0.6), (8, 9, "A", 0.3)]]
    # P_k = 1, 1/2, 2/3, 2/4; R_k = 1/3, 1/3, 2/3, 2/3 (over the 3 gold spans)
    # AP = 1/3 * 1 + 0 * 1/2 + 1/3 * 2/3 + 0 = 5/9
    result = sweep(gold, pred, schemes=["strict"])
    assert result["strict"].ap == pytest.approx(5 / 9)
    assert result["strict"].precision.tolist() == pytest.approx([0.5, 2 / 3, 0.5, 1.0])


def test_ap_with_tied_scores_by_hand():
    # a tie at 0.5 of a correct and a wrong prediction: one step, P = 1/2, R = 1/2
    gold = [[(0, 1, "A"), (2, 3, "B")]]
    pred = [[(0, 1, "A", 0.5), (4, 5, "A", 0.5)]]
    assert sweep(gold, pred, schemes=["strict"])["strict"].ap == pytest.approx(0.25)


def test_strict_ap_is_sklearn_average_precision_times_recall_at_the_lowest_threshold():
    rng = numpy.random.default_rng(3)
    gold, pred, y_true, y_score = [], [], [], []
    for _ in range(60):
        g = [(i * 4, i * 4 + 2, "AB"[i % 2]) for i in range(4)]
        p = []
        for s, e, label in g:
            if rng.random() < 0.8:
                right = rng.random() < 0.6
                p.append((s, e if right else e + 1, label, float(rng.integers(1, 40)) / 40))
        p.append((30, 31, "A", float(rng.integers(1, 40)) / 40))
        gold.append(g)
        pred.append(p)
        y_true += [(s, e, label) in g for s, e, label, _ in p]
        y_score += [score for *_, score in p]
    n_gold = sum(map(len, gold))
    expected = sklearn_metrics.average_precision_score(y_true, y_score) * (sum(y_true) / n_gold)
    assert sweep(gold, pred, schemes=["strict"])["strict"].ap == pytest.approx(expected, rel=1e-12)


def test_best_threshold_ties_go_to_the_highest_and_spacy_grid_to_the_lowest():
    # the 0.3 prediction is wrong but overlaps nothing: F at 0.8 and at 0.3 differ; at 0.6 and 0.5 F ties
    gold = [[(0, 1, "A"), (2, 3, "A")]]
    pred = [[(0, 1, "A", 0.9)]]
    # thresholds 0, 0.5, 1 (spaCy's grid of 3): F = 2/3, 2/3, 0
    default = sweep(gold, pred, schemes=["strict"], thresholds=[0.0, 0.5, 1.0])["strict"]
    spacy_grid = sweep(gold, pred, schemes=["strict"], grid="spacy", n_trials=3)["strict"]
    assert default.f1.tolist() == spacy_grid.f1.tolist() == pytest.approx([2 / 3, 2 / 3, 0.0])
    assert default.best.threshold == 0.5
    assert spacy_grid.best.threshold == 0.0
    assert spacy_grid.thresholds.tolist() == numpy.linspace(0, 1, 3).tolist()


def test_per_label_best_and_labels_without_credit():
    gold = [[(0, 1, "A"), (2, 3, "B"), (4, 5, "C")]]
    pred = [[(0, 1, "A", 0.9), (2, 3, "A", 0.4), (6, 7, "B", 0.7)]]
    result = sweep(gold, pred, schemes=["strict"])["strict"]
    # A: at 0.9, P 1 R 1 -> F 1; at 0.4 P 1/2 -> lower. B is predicted but never right; C never predicted.
    assert set(result.per_label_best) == {"A"}
    assert result.per_label_best["A"].threshold == 0.9 and result.per_label_best["A"].f1 == 1.0


def test_calibration_by_hand():
    gold = [[(0, 1, "A"), (2, 3, "A")]]
    # scores 0.05 (wrong), 0.15 (right), 0.95 (right), 1.0 (wrong): bins 0, 1, 9, 9
    pred = [[(0, 1, "A", 0.15), (2, 3, "A", 0.95), (4, 5, "A", 0.05), (6, 7, "A", 1.0)]]
    cal = sweep(gold, pred, schemes=["strict"])["strict"].calibration
    counts = [b.count for b in cal.bins]
    assert counts == [1, 1, 0, 0, 0, 0, 0, 0, 0, 2]
    assert cal.bins[9].mean_score == pytest.approx(0.975) and cal.bins[9].share_correct == 0.5
    assert cal.bins[2].mean_score is None
    # ECE = 1/4 |0 - 0.05| + 1/4 |1 - 0.15| + 2/4 |0.5 - 0.975|
    assert cal.ece == pytest.approx(0.25 * 0.05 + 0.25 * 0.85 + 0.5 * 0.475)


def test_calibration_judges_each_prediction_as_evaluate_spans_does():
    gold = [[(0, 4, "A"), (6, 8, "B")], [(0, 2, "A")]]
    pred = [[(0, 2, "A", 0.3), (2, 4, "A", 0.6), (6, 8, "A", 0.8), (6, 7, "B", 0.45)], [(0, 2, "B", 0.9)]]
    plain = [[p[:3] for p in d] for d in pred]
    result = sweep(gold, pred, schemes=SCHEMES)
    for scheme in SCHEMES:
        outcomes = evaluate_spans(gold, plain, schemes=[scheme], keep_outcomes=True)[scheme].outcomes
        right = {(o.doc, s) for o in outcomes if o.count in ("cor", "tp") for s in o.pred}
        scores = [(p[3], (doc, p[:3]) in right) for doc, d in enumerate(pred) for p in d]
        for b in result[scheme].calibration.bins:
            inside = [ok for s, ok in scores if min(math.floor(10 * s), 9) == round(b.lower * 10)]
            assert b.count == len(inside), scheme
            if inside:
                assert b.share_correct == pytest.approx(sum(inside) / len(inside)), scheme


def test_a_perfectly_calibrated_set_has_ece_near_zero():
    rng = numpy.random.default_rng(11)
    n = 20000
    scores = rng.random(n)
    right = rng.random(n) < scores  # correct with probability = score
    gold = [[(0, 1, "A")] if ok else [] for ok in right]
    pred = [[(0, 1, "A", float(s))] for s in scores]
    ece = sweep(gold, pred, schemes=["strict"])["strict"].calibration.ece
    # per bin the share has standard error <= 0.5 / sqrt(2000) ~ 0.011; ECE of pure noise stays below 0.02
    assert ece < 0.02


def test_a_span_twice_counts_once_with_its_highest_score():
    gold = [[(0, 1, "A")]]
    twice = sweep(gold, [[(0, 1, "A", 0.2), (0, 1, "A", 0.7)]], schemes=["strict"])["strict"]
    once = sweep(gold, [[(0, 1, "A", 0.7)]], schemes=["strict"])["strict"]
    assert twice.thresholds.tolist() == [0.7] and twice.f1.tolist() == once.f1.tolist()


def test_dicts_carry_scores_and_to_dict_has_every_part():
    gold = [[{"start": 0, "end": 1, "label": "A"}]] * 2
    pred = [[{"start": 0, "end": 1, "label": "A", "score": 0.5}], [{"start": 0, "end": 1, "label": "B", "score": 0.25}]]
    with pytest.warns(UserWarning, match='the predicted label "B" \\(1 span\\) never occurs in the gold'):
        result = sweep(gold, pred, schemes=["strict", "iou"], bootstrap=20)
    data = result.to_dict()
    assert set(data) == {"sweep", "warnings", "signature"}
    assert list(data["sweep"]) == ["strict", "iou"]
    assert data["warnings"] == ['the predicted label "B" (1 span) never occurs in the gold']
    assert set(data["sweep"]["strict"]) == SWEEP_SCHEME_KEYS
    assert set(data["sweep"]["strict"]["per_label"]) == {"A", "B"}
    assert data["sweep"]["strict"]["best"]["threshold"] == 0.5 and "interval" in data["sweep"]["strict"]["best"]
    assert data["signature"]["sweep"]["ties"] == "highest"


@pytest.mark.parametrize(
    "score,message",
    [
        (1.5, r"Span 0 of predicted document 1 has the score 1.5, outside \[0, 1\]"),
        (-0.1, r"Span 0 of predicted document 1 has the score -0.1, outside"),
        (float("nan"), r"Span 0 of predicted document 1 has the score nan"),
        ("high", r"Span 0 of predicted document 1 has the score 'high' \(a str\)"),
        (True, r"Span 0 of predicted document 1 has the score True \(a bool\)"),
        (None, r"Span 0 of predicted document 1 has the score None"),
    ],
    ids=["above_1", "below_0", "nan", "string", "bool", "none"],
)
def test_bad_scores_are_named(score, message):
    gold = [[(0, 1, "A")], [(0, 1, "A")]]
    with pytest.raises(InputError, match=message):
        sweep(gold, [[(0, 1, "A", 0.5)], [(0, 1, "A", score)]], schemes=["strict"])


def test_a_span_without_a_score_is_named():
    with pytest.raises(InputError, match=r"Span 1 of predicted document 0 has no score"):
        sweep([[(0, 1, "A")]], [[(0, 1, "A", 0.5), (2, 3, "A")]], schemes=["strict"])


def test_a_sweep_with_no_scores_at_all():
    with pytest.raises(InputError, match="None of the 2 predicted documents holds a scored span"):
        sweep([[(0, 1, "A")], []], [[], []], schemes=["strict"])


def test_bad_settings():
    with pytest.raises(SettingError, match="No 'schemes' given"):
        sweep([[]], [[(0, 1, "A", 0.5)]])
    with pytest.raises(SettingError, match="'thresholds' holds 2"):
        sweep([[]], [[(0, 1, "A", 0.5)]], schemes=["strict"], thresholds=[0.5, 2])
    with pytest.raises(SettingError, match="Unknown grid 'sklearn'"):
        sweep([[]], [[(0, 1, "A", 0.5)]], schemes=["strict"], grid="sklearn")
    with pytest.raises(SettingError, match="'n_thresholds' and 'grid' both choose"):
        sweep([[]], [[(0, 1, "A", 0.5)]], schemes=["strict"], n_thresholds=5, grid="spacy")
