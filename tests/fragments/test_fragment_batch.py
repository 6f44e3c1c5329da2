"""Documents with spans of several fragments in the batched engine: the
same figures as scoring each document on its own (`batched=False`, the
position-set path of `engine/fragments.py`), under every scheme and the
settings that change which spans take part."""

import random
from dataclasses import astuple

import numpy
import pytest

from spacy_spanf1 import evaluate_spans
from spacy_spanf1.engine.fragment_batch import column_sides, mixed_side
from spacy_spanf1.engine.scorer import SpanScorer

ALL = ["strict", "exact", "partial", "type", "iou", "overlap"]


def _layout(rng, length=40):
    """Spans of one side whose positions seldom meet (so that most
    documents are batched), some of two or three fragments, which may
    interleave with another span's fragments."""
    free = list(range(length))
    spans = []
    for _ in range(rng.randint(0, 5)):
        label = rng.choice("ABC")
        if rng.random() < 0.4:
            starts = sorted(rng.sample(range(length - 2), rng.choice((2, 2, 3))))
            pieces = []
            for start in starts:
                end = start + rng.randint(1, 2)
                if pieces and start <= pieces[-1][1]:
                    continue
                pieces.append([start, end])
            if len(pieces) > 1 and all(p in free for s, e in pieces for p in range(s, e)):
                for s, e in pieces:
                    for p in range(s, e):
                        free.remove(p)
                spans.append({"fragments": pieces, "label": label})
                continue
        start = rng.randrange(length - 1)
        end = min(length, start + rng.randint(1, 4))
        if rng.random() < 0.9 and not all(p in free for p in range(start, end)):
            continue
        for p in range(start, end):
            if p in free:
                free.remove(p)
        spans.append((start, end, label))
    return spans


def _predicted(rng, gold):
    """Predictions that copy, shift, relabel, merge or drop gold spans, and
    a few of their own."""
    pred = []
    for span in gold:
        roll = rng.random()
        if roll < 0.45:
            pred.append(span)
        elif roll < 0.6 and isinstance(span, dict):
            pieces = span["fragments"]
            pred.append((pieces[0][0], pieces[-1][1], span["label"]))  # merged
        elif roll < 0.7 and isinstance(span, dict):
            pred.append(
                {
                    "fragments": span["fragments"][:-1] + [[span["fragments"][-1][0], span["fragments"][-1][1] + 1]],
                    "label": span["label"],
                }
            )
        elif roll < 0.8:
            label = rng.choice("ABC")
            pred.append({**span, "label": label} if isinstance(span, dict) else (span[0], span[1], label))
        elif roll < 0.9 and not isinstance(span, dict):
            pred.append((span[0], span[1] + 1, span[2]))
    pred.extend(_layout(rng)[:1])
    return pred


def _corpus(seed, n=400):
    rng = random.Random(seed)
    gold = [_layout(rng) for _ in range(n)]
    return gold, [_predicted(rng, doc) for doc in gold]


def _results(gold, pred, batched, **settings):
    scorer = SpanScorer(ALL, batched=batched, per_doc=True, **settings)
    scorer.add_many(gold, pred)
    return scorer.results()


SETTINGS = [
    {},
    {"min_overlap": 0.5, "iou_threshold": 0.7, "overlap_threshold": 0.6},
    {"labels": ["A", "B"]},
    {"view": "disc_docs"},
    {"view": "disc_mentions"},
    {"label_map": {"C": "A"}},
]


@pytest.mark.parametrize("settings", SETTINGS, ids=lambda s: ",".join(s) or "defaults")
def test_the_fragment_batch_scores_as_each_document_on_its_own(settings):
    gold, pred = _corpus(31)
    batched, alone = _results(gold, pred, True, **settings), _results(gold, pred, False, **settings)
    for scheme in ALL:
        a, b = batched[scheme], alone[scheme]
        assert a.totals == b.totals and a.per_label == b.per_label, scheme
        assert (a.per_doc == b.per_doc).all(), scheme
        assert dict(a.confusion) == dict(b.confusion), scheme


def test_spans_given_one_by_one_score_as_the_corpus_read_at_once():
    # add() with FragmentedSpans takes the span-list way to the fragment batch
    from spacy_spanf1.spans import read_doc_spans

    gold, pred = _corpus(37, 200)
    at_once = evaluate_spans(gold, pred, schemes=ALL, per_doc=True)
    scorer = SpanScorer(ALL, per_doc=True)
    for i, (g, p) in enumerate(zip(gold, pred)):
        g, p = read_doc_spans(g, "gold", i), read_doc_spans(p, "pred", i)
        scorer.add(g, p, fragmented=any(len(s) > 3 for s in g + p))
    one_by_one = scorer.results()
    for scheme in ALL:
        assert at_once[scheme].totals == one_by_one[scheme].totals, scheme
        assert (at_once[scheme].per_doc == one_by_one[scheme].per_doc).all(), scheme


def test_which_documents_the_fragment_batch_leaves_to_the_per_document_path():
    ids = {}

    def label_ids(labels):
        return numpy.array([ids.setdefault(label, len(ids)) for label in labels], dtype=numpy.int64)

    gold = [
        # interleaved: outer bounds [0, 6) and [2, 8) overlap, positions do not
        [{"fragments": [[0, 2], [4, 6]], "label": "A"}, {"fragments": [[2, 4], [6, 8]], "label": "A"}],
        # "muscle ... pain" {0, 3} and "joint pain" {2, 3} share position 3
        [{"fragments": [[0, 1], [3, 4]], "label": "A"}, (2, 4, "A")],
    ]
    pred = [[(0, 2, "A")], [(0, 1, "A")]]
    g, p = mixed_side(gold, label_ids), mixed_side(pred, label_ids)
    assert g is not None and p is not None
    g_side, p_side, (g_columns, p_columns), alone = column_sides(g, p, numpy.ones(2, dtype=bool), 2, None)
    assert alone.tolist() == [False, True]
    assert g_side.doc.tolist() == [0, 0] and g_columns.size.tolist() == [4, 4]
    assert g_columns.key[0] != g_columns.key[1] and (g_columns.key >= 0).all()
    # scored, the interleaved document: [0, 2) meets only the first gold span
    totals = evaluate_spans(gold[:1], pred[:1], schemes=["partial", "iou"])
    assert astuple(totals["partial"].totals) == (0, 0, 1, 1, 0)  # cor, inc, par, mis, spu
    assert astuple(totals["iou"].totals) == (1, 0, 1)  # 2 / 4 >= 0.5: tp; the other gold span fn


@pytest.mark.parametrize("batched", [True, False])
def test_iou_confusion_takes_the_first_group_that_shares_a_position(batched):
    # presidio-evaluator's cells: a same-label group below the threshold
    # adds (gold, O) only when it is the first group over the gold span.
    # gold A {0, 1, 6, 7}
    gold = [[{"fragments": [[0, 2], [6, 8]], "label": "A"}]]
    # [3, 4) B lies in the gap: it meets the outer bounds only, no group;
    # the A group {6}: 1/4 < 0.5, the first group: (O, A) and (A, O); the
    # B prediction overlaps nothing: (O, B)
    first = _results(gold, [[(3, 4, "B"), (6, 7, "A")]], batched)["iou"]
    assert dict(first.confusion) == {("O", "A"): 1, ("A", "O"): 1, ("O", "B"): 1}
    # [0, 1) B shares position 0: the B group comes first, (O, B) and
    # (A, O); the A group {6} after it adds (O, A) only
    second = _results(gold, [[(0, 1, "B"), (6, 7, "A")]], batched)["iou"]
    assert dict(second.confusion) == {("O", "B"): 1, ("A", "O"): 1, ("O", "A"): 1}
