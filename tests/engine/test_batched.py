"""The batched array engine gives exactly the per-document engine's counts,
confusion and errors, on documents with and without self-overlapping spans."""

import random

import numpy
import pytest

from spacy_spanf1 import SCHEMES, evaluate_spans
from spacy_spanf1.engine import scorer as scorer_module
from spacy_spanf1.engine.scorer import SpanScorer
from spacy_spanf1.spans import read_doc_spans

LABELS = ["A", "B", "C"]


def random_doc(rng, length, overlapping):
    spans, i = [], 0
    while i < length:
        if rng.random() < 0.4:
            size = rng.randint(1, 4)
            spans.append((i, min(length, i + size), rng.choice(LABELS)))
            i += size + rng.randint(0, 2)
            if overlapping and rng.random() < 0.3:
                i = max(0, i - rng.randint(1, 3))
        else:
            i += 1
    return spans


def corpus(seed, n, overlapping):
    rng = random.Random(seed)
    gold, pred = [], []
    for _ in range(n):
        length = rng.randint(1, 20)
        gold.append(read_doc_spans(random_doc(rng, length, overlapping), "gold", 0))
        pred.append(read_doc_spans(random_doc(rng, length, overlapping), "pred", 0))
    return gold, pred


def both_engines(gold, pred, **settings):
    """(batched results, per-document results) of every scheme, batches of 97."""
    results = []
    for batched in (True, False):
        scorer = SpanScorer(list(SCHEMES), batched=batched, batch_size=97, **settings)
        for g, p in zip(gold, pred):
            scorer.add(g, p)
        results.append(scorer.results())
    return results


SETTINGS = [
    {},
    {"min_overlap": 0.5},
    {"iou_threshold": 0.3, "overlap_threshold": 0.3},
    {"labels": ["A", "B"]},
    {"min_overlap": 1.0, "iou_threshold": 1.0, "overlap_threshold": 0.25},
]


@pytest.mark.parametrize("settings", SETTINGS, ids=["default", "min_overlap", "low", "labels", "extreme"])
@pytest.mark.parametrize("overlapping", [False, True], ids=["flat", "overlapping"])
def test_batched_equals_per_document(settings, overlapping):
    for seed in range(6):
        fast, slow = both_engines(*corpus(seed, 400, overlapping), **settings)
        for scheme in SCHEMES:
            assert fast[scheme].totals == slow[scheme].totals, scheme
            assert fast[scheme].per_label == slow[scheme].per_label, scheme
            assert fast[scheme].confusion == slow[scheme].confusion, scheme


@pytest.mark.parametrize("settings", SETTINGS, ids=["default", "min_overlap", "low", "labels", "extreme"])
@pytest.mark.parametrize("overlapping", [False, True], ids=["flat", "overlapping"])
def test_batched_equals_per_document_on_rows_errors_and_outcomes(settings, overlapping):
    for seed in range(3):
        fast, slow = both_engines(*corpus(seed, 300, overlapping), per_doc=True, keep_outcomes=True, **settings)
        for scheme in SCHEMES:
            assert fast[scheme].per_doc.tolist() == slow[scheme].per_doc.tolist(), scheme
            assert fast[scheme].outcomes == slow[scheme].outcomes, scheme
            assert fast[scheme].errors == slow[scheme].errors, scheme
            assert fast[scheme].errors, scheme  # not vacuous


def test_plain_input_path_equals_span_by_span_path():
    """Tuples and dicts go through the array reader; a mix of both through
    read_span. Same result."""
    gold, pred = corpus(99, 500, overlapping=True)
    as_dicts = [[{"start": s, "end": e, "label": lab} for s, e, lab in doc] for doc in pred]
    mixed = [list(doc) + [{"start": 0, "end": 1, "label": "A"}] for doc in pred]
    by_tuples = evaluate_spans(gold, pred, schemes=list(SCHEMES))
    by_dicts = evaluate_spans(gold, as_dicts, schemes=list(SCHEMES))
    by_tuples_mixed = evaluate_spans(gold, [list(doc) + [(0, 1, "A")] for doc in pred], schemes=list(SCHEMES))
    by_mixed = evaluate_spans(gold, mixed, schemes=list(SCHEMES))
    for scheme in SCHEMES:
        assert by_tuples[scheme].totals == by_dicts[scheme].totals
        assert by_tuples[scheme].per_label == by_dicts[scheme].per_label
        assert by_tuples_mixed[scheme].totals == by_mixed[scheme].totals
        assert by_tuples_mixed[scheme].per_label == by_mixed[scheme].per_label


def user_shapes(seed, n):
    """The documents of `corpus`, read span by span (the reference), and
    the same spans as a user may give them: shuffled, some twice, as
    tuples, numpy-integer tuples, dicts and dicts with one more key."""
    rng = random.Random(seed)
    gold, pred = corpus(seed, n, overlapping=True)
    shuffled = []
    for doc in pred:
        doc = list(doc) + [span for span in doc if rng.random() < 0.2]
        rng.shuffle(doc)
        shuffled.append(doc)
    shapes = {
        "tuples": shuffled,
        "numpy ints": [[(numpy.int32(s), numpy.int64(e), lab) for s, e, lab in doc] for doc in shuffled],
        "dicts": [[{"label": lab, "end": e, "start": s} for s, e, lab in doc] for doc in shuffled],
        "dicts with kb_id": [
            [{"start": s, "end": e, "label": lab, "kb_id": "Q5"} for s, e, lab in doc] for doc in shuffled
        ],
    }
    reference = [read_doc_spans(doc, "pred", i) for i, doc in enumerate(shuffled)]
    return gold, reference, shapes


@pytest.mark.parametrize("settings", SETTINGS, ids=["default", "min_overlap", "low", "labels", "extreme"])
def test_every_plain_shape_equals_span_by_span_reading(settings):
    gold, reference, shapes = user_shapes(5, 300)
    expected = SpanScorer(list(SCHEMES), per_doc=True, keep_outcomes=True, batch_size=97, **settings)
    for g, p in zip(gold, reference):
        expected.add(g, p)
    expected = expected.results()
    for name, pred in shapes.items():
        scorer = SpanScorer(list(SCHEMES), per_doc=True, keep_outcomes=True, batch_size=97, **settings)
        scorer.add_many(gold, pred)
        got = scorer.results()
        for scheme in SCHEMES:
            assert got[scheme].totals == expected[scheme].totals, (name, scheme)
            assert got[scheme].per_label == expected[scheme].per_label, (name, scheme)
            assert got[scheme].per_doc.tolist() == expected[scheme].per_doc.tolist(), (name, scheme)
            assert got[scheme].outcomes == expected[scheme].outcomes, (name, scheme)
            assert got[scheme].confusion == expected[scheme].confusion, (name, scheme)


def test_dict_spans_are_read_on_arrays_not_span_by_span(monkeypatch):
    """Documents of dict spans in which no side overlaps itself never go
    through the span-by-span reader (it takes ten times as long)."""

    def span_by_span(*args, **kwargs):
        raise AssertionError("read span by span")

    monkeypatch.setattr(scorer_module, "read_doc_spans", span_by_span)
    gold, pred = corpus(3, 200, overlapping=False)
    as_dicts = [[{"start": s, "end": e, "label": lab, "kb_id": None} for s, e, lab in doc] for doc in pred]
    result = evaluate_spans(gold, as_dicts, schemes=["strict", "iou"])
    assert result["strict"].totals == evaluate_spans(gold, pred, schemes=["strict", "iou"])["strict"].totals
