"""The batched array engine gives exactly the per-document engine's counts,
confusion and errors, on documents with and without self-overlapping spans."""
import random

import pytest

from spacy_spanf1 import SCHEMES, evaluate_spans
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
        assert fast["iou"].confusion == slow["iou"].confusion


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
    """Tuples go through the array reader; dicts through read_span. Same result."""
    gold, pred = corpus(99, 500, overlapping=True)
    as_dicts = [[{"start": s, "end": e, "label": lab} for s, e, lab in doc] for doc in pred]
    by_tuples = evaluate_spans(gold, pred, schemes=list(SCHEMES))
    by_dicts = evaluate_spans(gold, as_dicts, schemes=list(SCHEMES))
    for scheme in SCHEMES:
        assert by_tuples[scheme].totals == by_dicts[scheme].totals
        assert by_tuples[scheme].per_label == by_dicts[scheme].per_label
