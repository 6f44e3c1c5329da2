"""Breakdowns: the score per bucket of a span or document attribute.

Expected values come from docs/definitions.md's two bucketing examples, from the
scheme's own totals (the buckets add up to them), from evaluate_spans on
the documents of a bucket, and from nervaluate 1.2.1 on the spans of a
bucket (strict, exact).
"""

import json
import random
from collections import Counter

import numpy
import pytest
from nervaluate import Evaluator

from spacy_spanf1 import SCHEMES, evaluate_spans
from spacy_spanf1.stats import Bucket, assign, breakdown, bucket_edges
from spacy_spanf1.stats.breakdown import ATTRIBUTES

LABELS = ("PER", "ORG", "LOC")


def _shifted(rng, span, n):
    start, end, label = span
    start = min(n - 1, max(0, start + rng.choice((-1, 0, 1))))
    end = min(n, max(start + 1, end + rng.choice((-1, 0, 1))))
    return (start, end, label)


def random_corpus(seed, n_docs=150, self_overlap=True):
    """(lengths, gold, pred). Gold spans tile part of each document;
    predictions copy, shift, relabel, drop or invent spans. With
    self_overlap, about a fifth of the documents get nested or crossing
    spans on both sides (span groups); without, predictions never overlap
    each other (gold may: a nested gold span now and then)."""
    rng = random.Random(seed)
    lengths, gold_docs, pred_docs = [], [], []
    for _ in range(n_docs):
        n = rng.randint(1, 30)
        gold, i = [], 0
        while i < n:
            if rng.random() < 0.4:
                end = min(n, i + rng.randint(1, 6))
                gold.append((i, end, rng.choice(LABELS)))
                i = end
            else:
                i += 1
        pred = []
        for span in gold:
            r = rng.random()
            if r < 0.45:
                pred.append(span)
            elif r < 0.65:
                pred.append(_shifted(rng, span, n))
            elif r < 0.8:
                pred.append((span[0], span[1], rng.choice(LABELS)))
        for _ in range(rng.randint(0, 2)):
            start = rng.randrange(n)
            pred.append((start, min(n, start + rng.randint(1, 4)), rng.choice(LABELS)))
        if self_overlap and rng.random() < 0.2 and gold:
            s = rng.choice(gold)
            gold.append((s[0], s[1], rng.choice(LABELS)))
            pred.append((s[0], min(n, s[1] + 1), s[2]))
            pred.append((s[0], s[1], s[2]))
        if not self_overlap:
            pred = _without_self_overlap(pred)
            if gold and rng.random() < 0.1:
                s = rng.choice(gold)
                if s[1] - s[0] > 1:
                    gold.append((s[0], s[1] - 1, s[2]))
        lengths.append(n)
        gold_docs.append(gold)
        pred_docs.append(pred)
    return lengths, gold_docs, pred_docs


def _without_self_overlap(spans):
    kept, reach = [], 0
    for span in sorted(set(spans)):
        if span[0] >= reach:
            kept.append(span)
            reach = span[1]
    return kept


def _overlaps_itself(spans):
    spans = sorted(set(spans))
    return any(a[1] > b[0] for a, b in zip(spans, spans[1:]))


def _n_gold(gold_docs):
    return sum(len(set(doc)) for doc in gold_docs)


# --------------------------------------------------------------------------
# Bucketing: docs/definitions.md's examples
# --------------------------------------------------------------------------


def test_bucket_edges_spec_example_equal_sizes():
    values = [5, 5, 7, 8, 9, 10, 12, 12, 15, 20, 25, 30]
    edges = bucket_edges(values, 4)
    assert edges == [(5, 7), (8, 10), (12, 15), (20, 30)]
    assert numpy.bincount(assign(values, edges)).tolist() == [3, 3, 3, 3]


def test_bucket_edges_spec_example_lengths():
    values = [1] * 10 + [2] * 6 + [3] * 3 + [4, 5, 7]
    edges = bucket_edges(values, 4)
    assert edges == [(1, 1), (2, 2), (3, 3), (4, 7)]
    assert numpy.bincount(assign(values, edges)).tolist() == [10, 6, 3, 3]


def test_spec_examples_through_breakdown():
    """The same cuts and names when breakdown does the bucketing: span
    lengths of gold spans, and documents' lengths."""
    lengths = [1] * 10 + [2] * 6 + [3] * 3 + [4, 5, 7]
    gold = [[(0, n, "X")] for n in lengths]
    out = breakdown(gold, gold, schemes=["strict"], by="span_length")["strict"]
    assert [(b.name, b.interval, b.n_gold, b.n_pred) for b in out] == [
        ("1", (1, 1), 10, 10),
        ("2", (2, 2), 6, 6),
        ("3", (3, 3), 3, 3),
        ("4-7", (4, 7), 3, 3),
    ]
    doc_lengths = [5, 5, 7, 8, 9, 10, 12, 12, 15, 20, 25, 30]
    gold = [[(0, 1, "X")] for _ in doc_lengths]
    out = breakdown(gold, gold, schemes=["iou"], by="doc_length", doc_lengths=doc_lengths)["iou"]
    assert [(b.name, b.n_gold) for b in out] == [("5-7", 3), ("8-10", 3), ("12-15", 3), ("20-30", 3)]


def test_fewer_distinct_values_than_buckets():
    assert bucket_edges([2, 2, 3], 4) == [(2, 2), (3, 3)]
    assert bucket_edges([4, 4, 4], 3) == [(4, 4)]
    assert bucket_edges([], 4) == []
    assert bucket_edges([3, 1, 2], 1) == [(1, 3)]


def test_assign_outside_and_between_intervals():
    intervals = [(2, 3), (6, 8), (10, 10)]
    assert assign([0, 2, 3, 4, 5.5, 6, 9, 10, 99], intervals).tolist() == [0, 0, 0, 0, 0, 1, 1, 2, 2]


# --------------------------------------------------------------------------
# Nothing is dropped
# --------------------------------------------------------------------------


def _by_values(by, lengths, gold):
    if by == "genre":
        rng = random.Random(7)
        return [rng.choice(["news", "blog", "wiki"]) for _ in gold]
    if by == "score":
        return [(i * 37 % 11) / 4 for i in range(len(gold))]
    return by


@pytest.mark.parametrize("by", list(ATTRIBUTES) + ["genre", "score"])
def test_bucket_counts_add_up_to_totals(by):
    lengths, gold, pred = random_corpus(3)
    assert sum(_overlaps_itself(d) for d in gold) > 5
    assert sum(_overlaps_itself(d) for d in pred) > 5
    extra = {"doc_lengths": lengths} if by in ("doc_length", "density") else {}
    out = breakdown(gold, pred, schemes=SCHEMES, by=_by_values(by, lengths, gold), **extra)
    totals = evaluate_spans(gold, pred, schemes=SCHEMES)
    assert list(out) == list(SCHEMES)
    for scheme, buckets in out.items():
        t = totals[scheme].totals
        assert len(buckets) > 1, scheme
        assert sum(b.n_pred for b in buckets) == t.predicted, scheme
        assert sum(b.n_gold for b in buckets) == t.possible == _n_gold(gold), scheme
        for side in ("pred", "gold"):
            summed = Counter()
            for b in buckets:
                summed.update(b.counts[side])
            assert {k: summed[k] for k in buckets[0].counts[side]} == {
                k: v for k, v in t.to_dict().items() if k in buckets[0].counts[side]
            }, (scheme, side)
        json.dumps([b.to_dict() for b in buckets])


# --------------------------------------------------------------------------
# span_length against nervaluate 1.2.1
# --------------------------------------------------------------------------


def _nervaluate(gold_docs, pred_docs):
    def dicts(docs):
        return [[{"label": lab, "start": s, "end": e - 1} for s, e, lab in sorted(set(d))] for d in docs]

    return Evaluator(dicts(gold_docs), dicts(pred_docs), tags=list(LABELS), loader="dict").evaluate()["overall"]


@pytest.mark.parametrize("scheme,name", [("strict", "strict"), ("exact", "exact")])
def test_span_length_buckets_match_nervaluate(scheme, name):
    """What equals what, for a span_length bucket b under strict or exact,
    when no two predictions of a document overlap:

    Let G_b be the gold spans whose length falls in b and P_b the
    predictions that assign() puts in b. The breakdown gives
    P = COR_b / |P_b| and R = COR_b / |G_b|, COR_b counted on each side
    over the one overall matching. A COR pair has identical boundaries, so
    its gold span and prediction have the same length and fall in the same
    bucket: the COR pairs seen from the gold side of b are those seen from
    its prediction side. Every span with given boundaries lies in b with
    all the others of those boundaries, and a prediction can only lose an
    exact partner to a prediction overlapping it (nervaluate pairs greedily,
    an earlier overlapping prediction may take the gold span as INC); with
    no self-overlapping predictions both matchings give, per boundaries,
    min(#gold, #predictions) COR pairs (strict: per boundaries and label).
    So nervaluate on (G_b, P_b) has correct = COR_b, actual = |P_b|,
    possible = |G_b|, and the same P, R and F. Its INC, MIS and SPU differ
    in general: an INC pair across two buckets becomes SPU on one side and
    MIS on the other when the lists are filtered (the corpus has such
    pairs; the test checks that too).
    """
    _, gold, pred = random_corpus(5, n_docs=400, self_overlap=False)
    assert not any(_overlaps_itself(d) for d in pred)
    assert any(_overlaps_itself(d) for d in gold)
    out = breakdown(gold, pred, schemes=[scheme], by="span_length")[scheme]
    intervals = [b.interval for b in out]
    assert len(intervals) > 2
    moved = 0
    for i, bucket in enumerate(out):
        gold_b = [[s for s in d if assign([s[1] - s[0]], intervals)[0] == i] for d in gold]
        pred_b = [[s for s in d if assign([s[1] - s[0]], intervals)[0] == i] for d in pred]
        ref = _nervaluate(gold_b, pred_b)[name]
        assert bucket.n_pred == ref.actual
        assert bucket.n_gold == ref.possible
        assert bucket.counts["pred"]["cor"] == bucket.counts["gold"]["cor"] == ref.correct
        assert (bucket.precision, bucket.recall, bucket.f1) == pytest.approx(
            (ref.precision, ref.recall, ref.f1), abs=1e-12
        )
        moved += bucket.counts["pred"]["spu"] != ref.spurious
    assert moved > 0


# --------------------------------------------------------------------------
# Document buckets are results of their documents
# --------------------------------------------------------------------------


@pytest.mark.parametrize("by", ["genre", "doc_length", "density"])
def test_document_buckets_equal_evaluate_spans_on_their_documents(by):
    lengths, gold, pred = random_corpus(11, n_docs=120)
    values = _by_values(by, lengths, gold)
    if by == "doc_length":
        values = lengths
    elif by == "density":
        values = [sum(e - s for s, e, _ in set(d)) / n for d, n in zip(gold, lengths)]
    out = breakdown(
        gold,
        pred,
        schemes=SCHEMES,
        by=_by_values(by, lengths, gold),
        **({} if by == "genre" else {"doc_lengths": lengths}),
    )
    for scheme, buckets in out.items():
        if by == "genre":
            assert [b.name for b in buckets] == ["blog", "news", "wiki"]
            members = [[d for d, v in enumerate(values) if v == b.name] for b in buckets]
        else:
            where = assign(values, [b.interval for b in buckets])
            members = [numpy.flatnonzero(where == i).tolist() for i in range(len(buckets))]
            assert all(lo <= values[d] <= hi for b, m in zip(buckets, members) for d in m for lo, hi in [b.interval])
        assert sorted(d for m in members for d in m) == list(range(len(gold)))
        for bucket, docs in zip(buckets, members):
            assert docs
            assert list(bucket.docs) == docs  # the bucket names its documents
            ref = evaluate_spans([gold[d] for d in docs], [pred[d] for d in docs], schemes=[scheme], per_doc=True)[
                scheme
            ]
            assert bucket.result.totals == ref.totals
            assert (bucket.precision, bucket.recall, bucket.f1) == (ref.precision, ref.recall, ref.f1)
            assert (bucket.n_gold, bucket.n_pred) == (ref.totals.possible, ref.totals.predicted)
            assert bucket.result.per_doc.shape == (len(docs), len(ref.counts))
            assert (bucket.result.per_doc == ref.per_doc).all()


def test_doc_length_without_lengths_is_largest_span_end():
    gold = [[(0, 2, "A")], [(1, 9, "A")], []]
    pred = [[(3, 5, "A")], [], [(0, 4, "B")]]
    out = breakdown(gold, pred, schemes=["strict"], by="doc_length")["strict"]
    assert [(b.interval, b.n_gold, b.n_pred) for b in out] == [((4, 4), 0, 1), ((5, 5), 1, 1), ((9, 9), 1, 0)]


# --------------------------------------------------------------------------
# label and the iou group
# --------------------------------------------------------------------------


def test_label_buckets_count_each_label_once_per_side():
    _, gold, pred = random_corpus(17)
    out = breakdown(gold, pred, schemes=SCHEMES, by="label")
    n_gold = Counter(s[2] for d in gold for s in set(d))
    n_pred = Counter(s[2] for d in pred for s in set(d))
    for scheme, buckets in out.items():
        assert [b.name for b in buckets] == sorted(LABELS)
        assert {b.name: b.n_gold for b in buckets} == dict(n_gold), scheme
        if scheme != "iou":  # iou's predicted units are groups, not spans
            assert {b.name: b.n_pred for b in buckets} == dict(n_pred), scheme


def test_label_bucket_differs_from_per_type_by_design():
    """A gold PER span predicted as ORG: in the overall matching it is one
    INC, counted in the PER bucket's recall and the ORG bucket's precision;
    per_type scores each label alone (PER: one MIS, ORG: one SPU)."""
    gold, pred = [[(0, 2, "PER")]], [[(0, 2, "ORG")]]
    out = {b.name: b for b in breakdown(gold, pred, schemes=["strict"], by="label")["strict"]}
    assert out["PER"].counts["gold"]["inc"] == 1 and out["ORG"].counts["pred"]["inc"] == 1
    per_type = evaluate_spans(gold, pred, schemes=["strict"])["strict"].per_type
    assert (per_type["PER"].mis, per_type["PER"].inc, per_type["ORG"].spu) == (1, 0, 1)


def test_iou_group_attribute_is_its_union():
    """Two PER predictions (0, 3) and (2, 5) over the gold span (0, 6) form
    one iou group covering 5 positions (IoU 5/6): it goes to the bucket of
    length 5, not to that of its members (3) or of their summed length (6)."""
    gold = [[(0, 6, "PER")], [(0, 3, "LOC"), (4, 9, "LOC"), (10, 16, "LOC")]]
    pred = [[(0, 3, "PER"), (2, 5, "PER")], [(0, 3, "LOC"), (4, 9, "LOC"), (10, 16, "LOC")]]
    out = breakdown(gold, pred, schemes=["iou", "overlap"], by="span_length")
    iou = {b.name: b for b in out["iou"]}
    assert list(iou) == ["3", "5", "6"]
    assert (iou["3"].n_pred, iou["5"].n_pred, iou["6"].n_pred) == (1, 2, 1)
    assert iou["5"].counts["pred"] == {"tp": 2, "fp": 0}
    assert iou["6"].counts["gold"] == {"tp": 2, "fn": 0}
    assert iou["6"].precision == 1.0 and iou["6"].recall == 1.0
    # Under overlap the two predictions are units of their own, of length 3.
    assert {b.name: b.n_pred for b in out["overlap"]} == {"3": 3, "5": 1, "6": 1}
    labels = {b.name: b.n_pred for b in breakdown(gold, pred, schemes=["iou"], by="label")["iou"]}
    assert labels == {"LOC": 3, "PER": 1}


# --------------------------------------------------------------------------
# Edge cases and bad input
# --------------------------------------------------------------------------


def test_no_gold_spans_give_one_bucket_over_predictions():
    out = breakdown([[], []], [[(0, 2, "A")], [(1, 5, "A")]], schemes=["partial"], by="span_length")
    [bucket] = out["partial"]
    assert (bucket.interval, bucket.n_gold, bucket.n_pred, bucket.precision) == ((2, 4), 0, 2, 0.0)
    assert breakdown([[]], [[]], schemes=["partial"], by="span_length") == {"partial": []}
    assert breakdown([], [], schemes=["strict", "iou"], by="doc_length") == {"strict": [], "iou": []}


def test_bucket_is_frozen_and_dict_is_json_ready():
    [bucket] = breakdown([[(0, 2, "A")]], [[(0, 2, "A")]], schemes=["strict"], by=["x"])["strict"]
    assert isinstance(bucket, Bucket)
    with pytest.raises(AttributeError):
        bucket.precision = 0.5
    assert json.loads(json.dumps(bucket.to_dict())) == {
        "name": "x",
        "interval": None,
        "p": 1.0,
        "r": 1.0,
        "f": 1.0,
        "n_gold": 1,
        "n_pred": 1,
        "counts": {"pred": {"cor": 1, "inc": 0, "par": 0, "spu": 0}, "gold": {"cor": 1, "inc": 0, "par": 0, "mis": 0}},
    }


GOLD, PRED = [[(0, 2, "A")], [(1, 3, "B")]], [[(0, 2, "A")], []]


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (
            {"by": "length"},
            r"Unknown attribute 'length' in 'by'\. Valid attributes: span_length, label, doc_length, density",
        ),
        ({"by": ["news"]}, r"'by' has 1 values for 2 documents"),
        ({"by": ["news", 3]}, r"'by' must be all numbers or all strings"),
        ({"by": [1.5, None]}, r"'by' must be all numbers or all strings; None is neither"),
        ({"by": 7}, r"'by' is 7"),
        ({"by": "label", "buckets": 0}, r"'buckets' must be an integer >= 1, got 0"),
        ({"by": "label", "buckets": 2.0}, r"'buckets' must be an integer >= 1, got 2.0"),
        ({"by": "doc_length", "doc_lengths": [3]}, r"'doc_lengths' has 1 values for 2 documents"),
        ({"by": "density", "doc_lengths": [3, -1]}, r"'doc_lengths' holds -1 \(document 1\)"),
        ({"by": "label", "doc_lengths": [3, 4]}, r"'doc_lengths' applies to by='doc_length' or by='density'"),
        ({"by": [], "unit": "word"}, r"Unknown unit 'word' in 'unit'"),
    ],
    ids=[
        "name",
        "length",
        "mixed",
        "none",
        "not-a-sequence",
        "zero-buckets",
        "float-buckets",
        "doc-lengths-length",
        "negative-length",
        "doc-lengths-for-span",
        "unit",
    ],
)
def test_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        breakdown(GOLD, PRED, schemes=["strict"], **kwargs)


def test_settings_are_passed_on():
    gold, pred = [[(0, 4, "A"), (5, 6, "B")]], [[(0, 2, "A"), (5, 6, "B")]]
    out = breakdown(gold, pred, schemes=["iou"], by="label", iou_threshold=0.5, labels=["A"])["iou"]
    assert [(b.name, b.counts["pred"]["tp"]) for b in out] == [("A", 1)]
    out = breakdown(gold, pred, schemes=["iou"], by=["x"], iou_threshold=0.75, labels=["A"])["iou"]
    assert [(b.name, b.counts["gold"]["fn"]) for b in out] == [("x", 1)]
    with pytest.warns(UserWarning, match="'labels' names 'C'"):
        breakdown(gold, pred, schemes=["iou"], by=["x"], labels=["A", "C"])
