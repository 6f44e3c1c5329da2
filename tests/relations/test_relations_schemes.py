"""The relation schemes by hand: a predicted relation is correct when it
has the gold relation's label and its head and tail are each paired with
the gold relation's as a match by the span scheme's one-to-one matching
(SPEC.md, "Relations"). Counts are (tp, fp, fn)."""

import random

import pytest

from spacy_spanf1 import InputError, evaluate_spans
from spacy_spanf1.model import Document
from spacy_spanf1.relations import evaluate_relations
from spacy_spanf1.spans import Span

SCHEMES = ["rel_strict", "rel_exact", "rel_partial", "rel_type", "rel_overlap"]


def counts(gold, pred, **kw):
    results = evaluate_relations(gold, pred, schemes=SCHEMES, **kw)
    return {name: (r.totals.tp, r.totals.fp, r.totals.fn) for name, r in results.items()}


def doc(spans, relations):
    return {"spans": spans, "relations": relations}


GOLD = [doc([(0, 2, "PER"), (5, 8, "ORG")], [(0, 1, "works_for")])]
HIT, MISS = (1, 0, 0), (0, 1, 1)


@pytest.mark.parametrize(
    "tail,expected",
    [
        # the tail's boundaries are exact, its type too: every scheme matches
        ((5, 8, "ORG"), dict(rel_strict=HIT, rel_exact=HIT, rel_partial=HIT, rel_type=HIT, rel_overlap=HIT)),
        # 5-7 inside 5-8, same type: strict and exact INC; partial PAR (a match); type COR;
        # overlap: 2 of 3 gold tokens (0.67 >= 0.5) and 2 of 2 predicted
        ((5, 7, "ORG"), dict(rel_strict=MISS, rel_exact=MISS, rel_partial=HIT, rel_type=HIT, rel_overlap=HIT)),
        # 5-7 of another type: partial ignores types (PAR); type finds no ORG over it (INC);
        # overlap pairs same-type spans only
        ((5, 7, "LOC"), dict(rel_strict=MISS, rel_exact=MISS, rel_partial=HIT, rel_type=MISS, rel_overlap=MISS)),
        # exact boundaries, another type: exact and partial COR; strict INC; type INC; overlap none
        ((5, 8, "LOC"), dict(rel_strict=MISS, rel_exact=HIT, rel_partial=HIT, rel_type=MISS, rel_overlap=MISS)),
        # 7-10 shares 1 of 3 gold tokens: partial PAR, type COR; overlap 1/3 < 0.5
        ((7, 10, "ORG"), dict(rel_strict=MISS, rel_exact=MISS, rel_partial=HIT, rel_type=HIT, rel_overlap=MISS)),
        # 8-9 touches nothing (ends are exclusive): no scheme matches
        ((8, 9, "ORG"), dict(rel_strict=MISS, rel_exact=MISS, rel_partial=MISS, rel_type=MISS, rel_overlap=MISS)),
    ],
)
def test_one_argument_overlaps(tail, expected):
    pred = [doc([(0, 2, "PER"), tail], [(0, 1, "works_for")])]
    assert counts(GOLD, pred) == expected


def test_the_relation_label_must_be_the_gold_one():
    pred = [doc([(0, 2, "PER"), (5, 8, "ORG")], [(0, 1, "located_in")])]
    assert set(counts(GOLD, pred).values()) == {MISS}


def test_direction_counts():
    pred = [doc([(0, 2, "PER"), (5, 8, "ORG")], [(1, 0, "works_for")])]
    assert set(counts(GOLD, pred).values()) == {MISS}


def test_overlap_threshold():
    pred = [doc([(0, 2, "PER"), (5, 7, "ORG")], [(0, 1, "works_for")])]
    # 2 of 3 gold tokens: 0.67 < 0.8
    assert counts(GOLD, pred, overlap_threshold=0.8)["rel_overlap"] == MISS
    # min_overlap: partial and type need 0.8 of the gold span covered
    found = counts(GOLD, pred, min_overlap=0.8)
    assert found["rel_partial"] == MISS and found["rel_type"] == MISS


def test_arguments_pair_one_to_one():
    # gold: A = 0-2 and C = 3-5 (PER), B = 8-9 (ORG); A -r-> B and C -r-> B.
    gold = [doc([(0, 2, "PER"), (3, 5, "PER"), (8, 9, "ORG")], [(0, 2, "r"), (1, 2, "r")])]
    # one prediction 0-5 over A and C: paired with A alone (partial: the first
    # overlapping gold; type: the closest, a tie 3 against 3, the first);
    # overlap: 2 of 5 predicted tokens < 0.5, neither
    pred = [doc([(0, 5, "PER"), (8, 9, "ORG")], [(0, 1, "r")])]
    found = counts(gold, pred)
    assert found["rel_partial"] == (1, 0, 1)
    assert found["rel_type"] == (1, 0, 1)
    assert found["rel_overlap"] == (0, 1, 2)
    assert found["rel_strict"] == found["rel_exact"] == (0, 1, 2)


def test_an_exact_prediction_takes_its_gold_span_first():
    # gold A = 0-4; predictions 0-2 and 0-4: 0-4 is A's match, 0-2 is spurious,
    # so the relation from 0-2 matches nothing under partial either
    gold = [doc([(0, 4, "PER"), (6, 7, "ORG")], [(0, 1, "r")])]
    pred = [doc([(0, 2, "PER"), (0, 4, "PER"), (6, 7, "ORG")], [(0, 2, "r")])]
    assert counts(gold, pred)["rel_partial"] == MISS
    pred = [doc([(0, 2, "PER"), (0, 4, "PER"), (6, 7, "ORG")], [(1, 2, "r")])]
    assert set(counts(gold, pred).values()) == {HIT}


def test_sets_of_spans_and_of_relations():
    # the ORG span twice and the relation twice, by two indices: one relation
    pred = [doc([(0, 2, "PER"), (5, 8, "ORG"), (5, 8, "ORG")], [(0, 1, "works_for"), (0, 2, "works_for")])]
    assert set(counts(GOLD, pred).values()) == {HIT}
    gold = [doc([(0, 2, "PER"), (5, 8, "ORG")], [(0, 1, "works_for"), (0, 1, "works_for")])]
    assert set(counts(gold, pred).values()) == {HIT}


def test_symmetric_labels():
    gold = [doc([(0, 1, "PER"), (3, 4, "PER"), (6, 7, "ORG")], [(0, 1, "sibling_of"), (0, 2, "works_for")])]
    pred = [doc([(0, 1, "PER"), (3, 4, "PER"), (6, 7, "ORG")], [(1, 0, "sibling_of"), (2, 0, "works_for")])]
    # directed: both reversed relations are wrong
    assert counts(gold, pred)["rel_strict"] == (0, 2, 2)
    # sibling_of symmetric: (b, a) is (a, b); works_for keeps its direction
    found = evaluate_relations(gold, pred, schemes=["rel_strict"], symmetric=["sibling_of"])["rel_strict"]
    assert (found.totals.tp, found.totals.fp, found.totals.fn) == (1, 1, 1)
    assert found.per_label["sibling_of"].f1 == 1.0
    # both directions on one side are one relation
    both = [doc([(0, 1, "PER"), (3, 4, "PER"), (6, 7, "ORG")], [(0, 1, "sibling_of"), (1, 0, "sibling_of")])]
    found = evaluate_relations(both, pred, schemes=["rel_strict"], symmetric=["sibling_of"])["rel_strict"]
    assert found.per_label["sibling_of"].to_dict() == {"tp": 1, "fp": 0, "fn": 0}


def test_symmetric_pairs_after_matching():
    # the predicted arguments are ordered otherwise than their gold matches
    # (0-3 pairs with gold 1-3 under partial): still one relation
    gold = [doc([(1, 3, "PER"), (5, 6, "PER")], [(1, 0, "sibling_of")])]
    pred = [doc([(0, 3, "PER"), (5, 6, "PER")], [(0, 1, "sibling_of")])]
    found = evaluate_relations(gold, pred, schemes=["rel_partial"], symmetric=["sibling_of"])["rel_partial"]
    assert found.totals.tp == 1
    found = evaluate_relations(gold, pred, schemes=["rel_partial"])["rel_partial"]
    assert found.totals.tp == 0


def test_micro_per_label_macro():
    gold = [
        doc([(0, 1, "PER"), (2, 3, "ORG"), (4, 5, "LOC")], [(0, 1, "works_for"), (1, 2, "located_in")]),
        doc([(0, 1, "PER"), (2, 3, "PER")], [(0, 1, "kin")]),
    ]
    pred = [
        doc([(0, 1, "PER"), (2, 3, "ORG"), (4, 5, "LOC")], [(0, 1, "works_for"), (0, 2, "located_in")]),
        doc([(0, 1, "PER"), (2, 3, "PER")], [(0, 1, "kin")]),
    ]
    r = evaluate_relations(gold, pred, schemes=["rel_strict"], per_doc=True)["rel_strict"]
    # works_for 1/1, kin 1/1, located_in: (0, 1, 1) -> F 0
    assert r.totals.to_dict() == {"tp": 2, "fp": 1, "fn": 1}
    assert r.f1 == pytest.approx(2 / 3)
    assert r.macro_f1 == pytest.approx((1 + 1 + 0) / 3)
    assert r.per_doc.tolist() == [[1, 1, 1], [1, 0, 0]]
    # relation_labels: only those scored; one without support counts as F 0
    r = evaluate_relations(gold, pred, schemes=["rel_strict"], relation_labels=["kin", "founded"])["rel_strict"]
    assert r.totals.to_dict() == {"tp": 1, "fp": 0, "fn": 0}
    assert list(r.per_label) == ["kin", "founded"]
    assert r.macro_f1 == pytest.approx(0.5)
    assert r.summary()["macro_f"] == pytest.approx(0.5)


def test_results_round_trip_and_add():
    from spacy_spanf1 import SchemeResult

    gold = [doc([(0, 1, "PER"), (2, 3, "ORG")], [(0, 1, "works_for")])]
    pred = [doc([(0, 1, "PER"), (2, 3, "ORG")], [(1, 0, "works_for")])]
    r = evaluate_relations(gold, pred, schemes=["rel_strict"], relation_labels=["works_for", "kin"])["rel_strict"]
    back = SchemeResult.from_dict(r.to_dict())
    assert back == r and back.macro_f1 == r.macro_f1 == 0.0
    assert (r + r).totals.to_dict() == {"tp": 0, "fp": 2, "fn": 2}


def _exact_corpus(seed, n):
    """Predicted spans on gold boundaries only (types changed, spans
    dropped), no span over another."""
    rng = random.Random(seed)
    gold, pred = [], []
    for _ in range(n):
        spans = [(k * 3, k * 3 + rng.randint(1, 2), rng.choice("ABC")) for k in range(rng.randint(2, 6))]
        relations = [(*rng.sample(range(len(spans)), 2), rng.choice("xyz")) for _ in range(rng.randint(0, 4))]
        kept = [i for i in range(len(spans)) if rng.random() < 0.85]
        at = {i: k for k, i in enumerate(kept)}
        p_spans = [
            (s, e, rng.choice("ABC") if rng.random() < 0.3 else label) for s, e, label in (spans[i] for i in kept)
        ]
        p_relations = [
            (at[h], at[t], rng.choice("xyz") if rng.random() < 0.2 else label)
            for h, t, label in relations
            if h in at and t in at
        ]
        gold.append(doc(spans, relations))
        pred.append(doc(p_spans, p_relations))
    return gold, pred


def test_relaxed_schemes_equal_exact_and_strict_on_exact_arguments():
    gold, pred = _exact_corpus(3, 300)
    r = evaluate_relations(gold, pred, schemes=SCHEMES)
    assert r["rel_strict"].totals != r["rel_exact"].totals  # types were changed
    assert r["rel_partial"].totals == r["rel_exact"].totals
    assert r["rel_partial"].per_label == r["rel_exact"].per_label
    assert r["rel_type"].per_label == r["rel_strict"].per_label
    assert r["rel_overlap"].per_label == r["rel_strict"].per_label


def test_documents_whose_spans_overlap_are_paired_alike():
    """A document with spans over each other is paired on its own by the
    engine's per-document matching; two extra spans far off, over each
    other and the same on both sides, send each document there and change
    no relation count."""
    from test_relations_sincere import corpus

    gold, pred = corpus(11, 200)
    flat = evaluate_relations(gold, pred, schemes=SCHEMES)

    def nested(d):
        return doc(list(d["spans"]) + [(100, 104, "PER"), (101, 103, "PER")], d["relations"])

    alone = evaluate_relations([nested(d) for d in gold], [nested(d) for d in pred], schemes=SCHEMES)
    for name in SCHEMES:
        assert alone[name].per_label == flat[name].per_label, name


def test_span_schemes_beside():
    gold, pred = _exact_corpus(4, 50)
    span_schemes = ["strict", "partial", "iou", "overlap"]
    r = evaluate_relations(gold, pred, schemes=["rel_strict", *span_schemes])
    assert list(r) == ["rel_strict", *span_schemes]
    spans = evaluate_spans([d["spans"] for d in gold], [d["spans"] for d in pred], schemes=span_schemes)
    for name in span_schemes:
        assert r[name].totals == spans[name].totals
        assert r[name].per_label == spans[name].per_label


def test_documents_name_their_arguments_by_value():
    a, b, c = Span(0, 2, "PER"), Span(5, 8, "ORG"), Span(9, 10, "LOC")
    gold = [Document("line 1", [a, b, c], relations=[(a, b, "works_for"), (b, c, "located_in")])]
    pred = [doc([(5, 8, "ORG"), (0, 2, "PER")], [(1, 0, "works_for")])]
    r = evaluate_relations(gold, pred, schemes=["rel_strict"])["rel_strict"]
    assert r.totals.to_dict() == {"tp": 1, "fp": 0, "fn": 1}
    bad = [Document("line 1", [a, b], relations=[(a, c, "works_for")])]
    with pytest.raises(InputError, match=r"tail \(9, 10, 'LOC'\).*not among the document's spans"):
        evaluate_relations(bad, pred, schemes=["rel_strict"])
