"""Spans of several fragments under every scheme, computed by hand; and a
corpus without them scores as it always did."""

import random
from dataclasses import astuple

import pytest

from spacy_spanf1 import evaluate_spans
from spacy_spanf1.engine import fragments as frag
from spacy_spanf1.engine.matching import combined_iou, find_overlaps
from spacy_spanf1.spans import FragmentedSpan, Span, normal_fragments

ALL = ["strict", "exact", "partial", "type", "iou", "overlap"]


def totals(gold, pred, **settings):
    results = evaluate_spans(gold, pred, schemes=ALL, **settings)
    return {scheme: astuple(result.totals) for scheme, result in results.items()}


def test_a_contiguous_prediction_against_a_discontinuous_gold_span():
    # gold: positions {0, 1, 4, 5}; prediction [0, 6): {0..5}; 4 shared
    gold = [[{"fragments": [[0, 2], [4, 6]], "label": "ADR"}]]
    pred = [[(0, 6, "ADR")]]
    assert totals(gold, pred) == {
        "strict": (0, 1, 0, 0, 0),  # not the same positions: incorrect
        "exact": (0, 1, 0, 0, 0),
        "partial": (0, 0, 1, 0, 0),  # the positions intersect: partial
        "type": (1, 0, 0, 0, 0),  # same label, positions intersect
        "iou": (1, 0, 0),  # 4 / 6 >= 0.5
        "overlap": (1, 0, 0),  # 4/4 of gold, 4/6 of the prediction
    }
    # at 0.7 the prediction's 4/6 is too little for both
    strict_enough = totals(gold, pred, iou_threshold=0.7, overlap_threshold=0.7)
    assert strict_enough["iou"] == (0, 1, 1)
    assert strict_enough["overlap"] == (0, 1, 1)
    # the merged span [0, 6) would have been an exact match: the fragments count
    assert totals([[(0, 6, "ADR")]], pred)["strict"] == (1, 0, 0, 0, 0)


def test_interleaved_fragments_share_no_position():
    # outer bounds [0, 6) and [2, 8) overlap; positions {0,1,4,5} and {2,3,6,7} do not
    gold = [[{"fragments": [[0, 2], [4, 6]], "label": "A"}]]
    pred = [[{"fragments": [[2, 4], [6, 8]], "label": "A"}]]
    assert totals(gold, pred) == {
        "strict": (0, 0, 0, 1, 1),
        "exact": (0, 0, 0, 1, 1),
        "partial": (0, 0, 0, 1, 1),
        "type": (0, 0, 0, 1, 1),
        "iou": (0, 1, 1),
        "overlap": (0, 1, 1),
    }
    errors = evaluate_spans(gold, pred, schemes=["strict"], keep_errors=True)["strict"].errors
    assert sorted(e.kind for e in errors) == ["missed", "spurious"]


def test_shared_fragments():
    # "muscle and joint pain": muscle(0) and(1) joint(2) pain(3); gold
    # "muscle ... pain" {0, 3} and "joint pain" {2, 3}; predicted "muscle ...
    # pain" {0, 3} and "joint" {2}
    gold = [[{"fragments": [[0, 1], [3, 4]], "label": "A"}, (2, 4, "A")]]
    pred = [[{"fragments": [[0, 1], [3, 4]], "label": "A"}, (2, 3, "A")]]
    got = totals(gold, pred)
    # SemEval: {0,3} equal (COR); {2} overlaps {2,3} only: INC, PAR, or COR for type
    assert got["strict"] == (1, 1, 0, 0, 0)
    assert got["exact"] == (1, 1, 0, 0, 0)
    assert got["partial"] == (1, 0, 1, 0, 0)
    assert got["type"] == (2, 0, 0, 0, 0)
    # iou: {0,3} against {0,3}: 1. {2,3} against the group of both
    # predictions, which covers {0,2,3}: 2 / 3 >= 0.5. Both TP
    assert got["iou"] == (2, 0, 0)
    # overlap: ({0,3},{0,3}) 1 and 1; ({2,3},{0,3}) 1/2 and 1/2; ({2,3},{2})
    # 1/2 and 1/1: the first, then the second of the gold ties (higher
    # prediction coverage): two TP
    assert got["overlap"] == (2, 0, 0)
    # at 0.6 only the first pair is a candidate
    assert totals(gold, pred, overlap_threshold=0.6)["overlap"] == (1, 1, 1)
    # iou at 0.7: {2,3} has 2/3 < 0.7: its group is one FP, it is FN
    assert totals(gold, pred, iou_threshold=0.7)["iou"] == (1, 1, 1)


def test_strict_needs_the_label_and_min_overlap_counts_positions():
    gold = [[{"fragments": [[0, 2], [10, 12]], "label": "A"}]]
    pred = [[{"fragments": [[0, 2], [10, 12]], "label": "B"}]]
    got = totals(gold, pred)
    assert got["strict"] == (0, 1, 0, 0, 0) and got["exact"] == (1, 0, 0, 0, 0)
    # min_overlap is a share of the gold span's 4 positions (not of its 12
    # outer ones): a prediction of [0, 2) covers 2/4
    half = [[(0, 2, "A")]]
    assert totals(gold, half, min_overlap=0.5)["partial"] == (0, 0, 1, 0, 0)
    assert totals(gold, half, min_overlap=0.6)["partial"] == (0, 0, 0, 1, 1)


def test_error_measures_count_positions():
    gold = [[{"fragments": [[0, 2], [4, 6]], "label": "ADR"}]]
    pred = [[(0, 6, "ADR")]]
    [error] = evaluate_spans(gold, pred, schemes=["strict"], keep_errors=True)["strict"].errors
    assert error.gold == FragmentedSpan(0, 6, "ADR", ((0, 2), (4, 6)))
    assert error.iou == pytest.approx(4 / 6)
    assert (error.gold_coverage, error.pred_coverage) == (1.0, pytest.approx(4 / 6))


def test_fragments_are_sorted_and_merged():
    assert normal_fragments([[4, 6], [0, 2]], "x") == ((0, 2), (4, 6))
    assert normal_fragments([[0, 2], [2, 4]], "x") == ((0, 4),)  # touching
    assert normal_fragments([[0, 3], [2, 4], [6, 7]], "x") == ((0, 4), (6, 7))  # overlapping
    # one fragment is an ordinary span, whichever way it is written
    gold = [[{"fragments": [[0, 2], [2, 4]], "label": "A"}, {"fragments": [[5, 6]], "label": "A"}]]
    assert totals(gold, [[(0, 4, "A"), (5, 6, "A")]])["strict"] == (2, 0, 0, 0, 0)


@pytest.mark.parametrize(
    "fragments,says",
    [
        ([[2, 2], [4, 5]], "empty fragment [2, 2]"),
        ([[-1, 2], [4, 5]], "out of the text"),
        ([], "no fragments"),
        ([[0, 1, 2]], "[start, end] pair"),
        ("0 1", "list of [start, end] pairs"),
    ],
)
def test_bad_fragments_are_one_clear_line(fragments, says):
    with pytest.raises(ValueError) as caught:
        evaluate_spans([[{"fragments": fragments, "label": "A"}]], [[]], schemes=["strict"])
    message = str(caught.value)
    assert says in message and "0 of gold document 0" in message and "\n" not in message


def test_overlapping_fragments_where_a_format_forbids_them():
    with pytest.raises(ValueError, match=r"overlapping fragments \[0, 3\] and \[2, 4\]"):
        normal_fragments([[0, 3], [2, 4]], "T1", overlapping=False)
    with pytest.raises(ValueError, match="out of the text"):
        normal_fragments([[0, 3], [5, 9]], "T1", limit=8)


def _random_docs(rng, n, fragment_share=0.0, length=30):
    docs = []
    for _ in range(n):
        spans = []
        for _ in range(rng.randint(0, 5)):
            start = rng.randrange(length - 2)
            end = rng.randint(start + 1, min(length, start + 5))
            label = rng.choice("AB")
            if rng.random() < fragment_share and end + 2 < length:
                second = rng.randint(end + 1, length - 1)
                spans.append({"fragments": [[start, end], [second, second + 1]], "label": label})
            else:
                spans.append((start, end, label))
        docs.append(spans)
    return docs


def test_a_corpus_without_discontinuous_spans_scores_as_before():
    rng = random.Random(3)
    gold, pred = _random_docs(rng, 300), _random_docs(rng, 300)
    as_tuples = evaluate_spans(gold, pred, schemes=ALL, per_doc=True)
    # the same spans written with one fragment each go the reading way
    as_fragments = evaluate_spans(
        [[{"fragments": [[s, e]], "label": lab} for s, e, lab in doc] for doc in gold],
        [[{"fragments": [[s, e]], "label": lab} for s, e, lab in doc] for doc in pred],
        schemes=ALL,
        per_doc=True,
    )
    for scheme in ALL:
        a, b = as_tuples[scheme], as_fragments[scheme]
        assert a.totals == b.totals and a.per_label == b.per_label, scheme
        assert (a.per_doc == b.per_doc).all() and dict(a.confusion) == dict(b.confusion), scheme


def test_a_discontinuous_document_leaves_the_others_as_they_were():
    rng = random.Random(5)
    gold, pred = _random_docs(rng, 200), _random_docs(rng, 200)
    before = evaluate_spans(gold, pred, schemes=ALL, per_doc=True)
    gold[7] = gold[7] + [{"fragments": [[0, 1], [20, 22]], "label": "A"}]
    after = evaluate_spans(gold, pred, schemes=ALL, per_doc=True)
    for scheme in ALL:
        rows_before, rows_after = before[scheme].per_doc, after[scheme].per_doc
        assert (rows_before[:7] == rows_after[:7]).all() and (rows_before[8:] == rows_after[8:]).all()


def _sorted_spans(doc):
    spans = []
    for span in doc:
        if isinstance(span, dict):
            fragments = normal_fragments(span["fragments"], "x")
            spans.append(FragmentedSpan(fragments[0][0], fragments[-1][1], span["label"], fragments))
        else:
            spans.append(Span(*span))
    return sorted(set(spans))


def test_on_contiguous_spans_the_position_set_path_equals_the_interval_path():
    rng = random.Random(11)
    for _ in range(300):
        gold = _sorted_spans(_random_docs(rng, 1, length=15)[0])
        pred = _sorted_spans(_random_docs(rng, 1, length=15)[0])
        pairs = find_overlaps(gold, pred)
        assert frag.fragment_overlaps(gold, pred) == pairs
        for gi, pi, _ in pairs:
            assert frag.positions_iou(gold[gi], [pred[pi]]) == combined_iou(gold[gi], [pred[pi]])
        assert [s[1] - s[0] for s in gold] == [s[1] for s in frag.sized(gold)]


def test_fragmented_documents_score_the_same_batched_or_not():
    from spacy_spanf1.engine.scorer import SpanScorer

    rng = random.Random(17)
    gold, pred = _random_docs(rng, 300, 0.3), _random_docs(rng, 300, 0.3)
    results = []
    for batched in (True, False):
        scorer = SpanScorer(ALL, batched=batched, per_doc=True, keep_errors=True)
        scorer.add_many(gold, pred)
        results.append(scorer.results())
    for scheme in ALL:
        a, b = results[0][scheme], results[1][scheme]
        assert a.totals == b.totals and (a.per_doc == b.per_doc).all() and a.errors == b.errors


def test_documents_whose_fragments_meet_only_their_twins_score_the_same_batched_or_not():
    # predictions copy, drop or shift gold spans: many documents' spans of
    # several fragments meet only an identical prediction
    from spacy_spanf1.engine.scorer import SpanScorer

    rng = random.Random(23)
    gold = _random_docs(rng, 400, 0.4)
    pred = []
    for doc in gold:
        kept = []
        for span in doc:
            roll = rng.random()
            if roll < 0.6:
                kept.append(span)
            elif roll < 0.8 and not isinstance(span, dict):
                kept.append((span[0], span[1] + 1, span[2]))
            elif roll < 0.9 and isinstance(span, dict):
                kept.append((span["fragments"][0][0], span["fragments"][-1][1], span["label"]))
        pred.append(kept)
    results = []
    for batched in (True, False):
        scorer = SpanScorer(ALL, batched=batched, per_doc=True)
        scorer.add_many(gold, pred)
        results.append(scorer.results())
    for scheme in ALL:
        a, b = results[0][scheme], results[1][scheme]
        assert a.totals == b.totals and a.per_label == b.per_label, scheme
        assert (a.per_doc == b.per_doc).all() and dict(a.confusion) == dict(b.confusion), scheme
