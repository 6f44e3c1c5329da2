"""The curve of a sweep at each threshold equals evaluate_spans on the
predictions kept at that threshold, under every scheme, overall and per
label."""

import warnings

import numpy
import pytest
from hypothesis import given, settings, strategies as st

from spacy_spanf1 import evaluate_spans
from spacy_spanf1.settings import SCHEMES
from spacy_spanf1.sweeps import sweep

LABELS = ("A", "B", "C")  # "C" is never predicted in some cases, never gold in others


def kept_at(pred_docs, threshold):
    """The spans with score >= threshold, each once (its highest score decides)."""
    out = []
    for doc in pred_docs:
        best = {}
        for start, end, label, score in doc:
            best[(start, end, label)] = max(score, best.get((start, end, label), -1.0))
        out.append([span for span, score in best.items() if score >= threshold])
    return out


def check_curves(gold_docs, pred_docs, schemes=SCHEMES, grid=None, **match):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = sweep(gold_docs, pred_docs, schemes=schemes, **(grid or {}), **match)
    # a label predicted but never gold ("C" here, often) is a warning of the result, and a UserWarning
    assert [(w.category, str(w.message)) for w in caught] == [(UserWarning, text) for text in result.warnings]
    for scheme in schemes:
        curve = result[scheme]
        assert list(curve.thresholds) == sorted(curve.thresholds)
        for i, threshold in enumerate(curve.thresholds.tolist()):
            expected = evaluate_spans(gold_docs, kept_at(pred_docs, threshold), schemes=[scheme], **match)[scheme]
            got = (curve.precision[i], curve.recall[i], curve.f1[i])
            assert got == pytest.approx((expected.precision, expected.recall, expected.f1), abs=1e-12), (
                scheme,
                threshold,
            )
            for label, label_curve in curve.per_label.items():
                counts = expected.per_label.get(label)
                want = (0.0, 0.0, 0.0) if counts is None else (counts.precision, counts.recall, counts.f1)
                got = (label_curve.precision[i], label_curve.recall[i], label_curve.f1[i])
                assert got == pytest.approx(want, abs=1e-12), (scheme, threshold, label)
    return result


def test_a_small_corpus_by_hand():
    gold = [[(0, 2, "A"), (3, 5, "B")], [(1, 3, "A")], []]
    pred = [
        [(0, 2, "A", 0.9), (0, 2, "B", 0.4), (3, 4, "B", 0.7), (2, 6, "B", 0.2), (0, 2, "A", 0.1)],
        [(1, 3, "B", 0.8), (0, 4, "A", 0.3), (1, 2, "A", 0.3)],
        [(0, 1, "C", 0.5)],
    ]
    result = check_curves(gold, pred)
    # strict by hand: at 0.9 one prediction, correct, of 3 gold spans: P 1, R 1/3
    strict = result["strict"]
    assert strict.thresholds.tolist() == [0.2, 0.3, 0.4, 0.5, 0.7, 0.8, 0.9]
    assert strict.precision[-1] == 1.0 and strict.recall[-1] == pytest.approx(1 / 3)


def test_no_prediction_above_a_grid_point_scores_zero():
    gold = [[(0, 2, "A")]]
    pred = [[(0, 2, "A", 0.5)]]
    result = sweep(gold, pred, schemes=["strict", "iou"], thresholds=[0.0, 0.5, 0.75])
    for scheme in ("strict", "iou"):
        assert result[scheme].f1.tolist() == [1.0, 1.0, 0.0]


span = st.tuples(st.integers(0, 9), st.integers(1, 4)).map(lambda t: (t[0], t[0] + t[1]))
score = st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.5, 0.75, 0.9, 1.0])  # few values: many ties


@st.composite
def corpora(draw):
    n_docs = draw(st.integers(1, 4))
    gold, pred = [], []
    for _ in range(n_docs):
        gold.append([(s, e, draw(st.sampled_from(LABELS[:2]))) for s, e in draw(st.lists(span, max_size=4))])
        doc = [(s, e, draw(st.sampled_from(LABELS)), draw(score)) for s, e in draw(st.lists(span, max_size=6))]
        if doc and draw(st.booleans()):  # the same span again, with another score
            s, e, label, _ = doc[0]
            doc.append((s, e, label, draw(score)))
        pred.append(doc)
    if not any(pred):
        pred[0].append((0, 1, "A", 0.5))
    return gold, pred


@settings(max_examples=150, deadline=None)
@given(corpora())
def test_every_threshold_equals_evaluate_spans(corpus):
    check_curves(*corpus)


@settings(max_examples=50, deadline=None)
@given(corpora(), st.sampled_from([0.3, 0.5, 1.0]), st.sampled_from([None, 0.5, 1.0]))
def test_every_threshold_equals_evaluate_spans_with_other_settings(corpus, threshold, min_overlap):
    check_curves(*corpus, iou_threshold=threshold, overlap_threshold=threshold, min_overlap=min_overlap)


def test_non_overlapping_documents_at_scale():
    """Many documents of the batched path (no overlaps inside a side)."""
    rng = numpy.random.default_rng(7)
    gold, pred = [], []
    for _ in range(300):
        starts = numpy.sort(rng.choice(30, size=6, replace=False)) * 3
        gold.append([(int(s), int(s) + 2, LABELS[int(rng.integers(2))]) for s in starts[::2]])
        pred.append(
            [
                (
                    int(s) + int(rng.integers(0, 2)),
                    int(s) + 2,
                    LABELS[int(rng.integers(3))],
                    float(rng.integers(0, 20)) / 20,
                )
                for s in starts
            ]
        )
    check_curves(gold, pred)


@settings(max_examples=60, deadline=None)
@given(
    corpora(),
    st.sampled_from(
        [
            {"grid": "spacy"},
            {"grid": "spacy", "n_trials": 4},
            {"n_thresholds": 7},
            {"thresholds": [0.0, 0.25, 0.5, 0.9]},
        ]
    ),
)
def test_a_grid_is_scored_at_its_thresholds_as_evaluate_spans_scores_them(corpus, grid):
    """With thresholds asked for, the predictions are scored at those only:
    each point still equals evaluate_spans on what that threshold keeps."""
    gold_docs, pred_docs = corpus
    result = check_curves(gold_docs, pred_docs, grid=grid)
    for scheme in SCHEMES:
        curve = result[scheme]
        # AP over the grid, by SPEC.md's formula on the reported points (highest threshold first)
        recall = curve.recall[::-1].tolist()
        precision = curve.precision[::-1].tolist()
        expected = sum((r - r0) * p for r0, r, p in zip([0.0] + recall, recall, precision))
        assert curve.ap == pytest.approx(expected, abs=1e-12), scheme
