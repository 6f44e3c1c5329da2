"""The neleval measures equal neleval 3.1.1's `evaluate`, run in the test,
on generated corpora: linked and NIL spans (NIL ids of several spellings,
missing ids), wrong ids, boundary errors, other types, the same offsets
twice with different ids, overlapping spans, several documents. TP/FP/FN
micro, per type (each type's spans alone, as neleval's `--by-type`
groups them) and per document."""

import random

import pytest

from spacy_spanf1.links import evaluate_links

LABELS = ("PER", "ORG", "LOC")
IDS = ("Q1", "Q2", "Q3", "Q4", "Q5", "Q6")
NILS = ("NIL", "NIL1", "NIL2", "NIL0042", None, "")


def random_id(rng):
    return rng.choice(NILS) if rng.random() < 0.35 else rng.choice(IDS)


def span_shape(rng, start, end, label, kb):
    """The span as a dict, a 4-tuple, a dict without kb_id or a 3-tuple."""
    r = rng.random()
    if kb is None and r < 0.3:
        return {"start": start, "end": end, "label": label} if r < 0.15 else (start, end, label)
    return {"start": start, "end": end, "label": label, "kb_id": kb} if r < 0.6 else (start, end, label, kb)


def make_corpus(seed, n_docs=25):
    rng = random.Random(seed)
    gold_docs, pred_docs = [], []
    for _ in range(n_docs):
        gold, pred = [], []
        for _ in range(rng.randint(0, 7)):
            start = rng.randint(0, 25)
            end = start + rng.randint(1, 4)
            label, kb = rng.choice(LABELS), random_id(rng)
            gold.append(span_shape(rng, start, end, label, kb))
            r = rng.random()
            if r < 0.45:
                pred.append(span_shape(rng, start, end, label, kb))  # right
            elif r < 0.55:
                pred.append(span_shape(rng, start, end, label, random_id(rng)))  # another id
            elif r < 0.65:
                pred.append(span_shape(rng, start, end, rng.choice(LABELS), kb))  # another type
            elif r < 0.75:
                pred.append(span_shape(rng, start + rng.choice((-1, 1)) if start else 1, end + 1, label, kb))
            elif r < 0.82:  # the same offsets twice, with two ids
                pred.append(span_shape(rng, start, end, label, kb))
                pred.append(span_shape(rng, start, end, label, random_id(rng)))
            if rng.random() < 0.1:  # the same offsets twice in gold
                gold.append(span_shape(rng, start, end, rng.choice(LABELS), random_id(rng)))
        for _ in range(rng.randint(0, 2)):  # spurious, maybe overlapping others
            start = rng.randint(0, 25)
            pred.append(span_shape(rng, start, start + rng.randint(1, 5), rng.choice(LABELS), random_id(rng)))
        gold_docs.append(gold)
        pred_docs.append(pred)
    return gold_docs, pred_docs


def test_the_corpora_hold_every_case():
    gold, pred = make_corpus(0, 200)
    kb = [
        (s["kb_id"] if "kb_id" in s else None) if isinstance(s, dict) else (s[3] if len(s) == 4 else None)
        for doc in gold + pred
        for s in doc
    ]
    assert {"NIL", "NIL0042", None, ""} <= set(kb) and set(IDS) <= set(kb)
    offsets = [sorted((s["start"], s["end"]) if isinstance(s, dict) else s[:2] for s in doc) for doc in pred]
    assert any(a == b for doc in offsets for a, b in zip(doc, doc[1:]))  # the same offsets twice
    assert any(a[1] > b[0] and a != b for doc in offsets for a, b in zip(doc, doc[1:]))  # overlapping


@pytest.mark.parametrize("seed", range(8))
def test_every_measure_equals_neleval(neleval, seed):
    gold, pred = make_corpus(seed)
    ours = evaluate_links(gold, pred, schemes=neleval.measures, per_doc=True)
    theirs = neleval.counts(gold, pred)
    for name in neleval.measures:
        c = ours[name].totals
        assert (c.tp, c.fp, c.fn) == theirs[name], name
    # per type: each type's spans alone
    for label in LABELS:
        theirs = neleval.counts(gold, pred, keep=label.__eq__)
        for name in neleval.measures:
            c = ours[name].per_label.get(label)
            assert ((c.tp, c.fp, c.fn) if c else (0, 0, 0)) == theirs[name], (name, label)
    # per document
    for i in range(len(gold)):
        theirs = neleval.counts([gold[i]], [pred[i]])
        for name in neleval.measures:
            assert tuple(ours[name].per_doc[i].tolist()) == theirs[name], (name, i)


def test_per_type_is_what_nelevals_by_type_gives_for_the_gold_types(neleval):
    gold, pred = make_corpus(11)
    ours = evaluate_links(gold, pred, schemes=neleval.measures)
    results = neleval.run(gold, pred, group_by=["type"])
    for name in neleval.measures:
        for label in LABELS:
            row = results[f'{name};type="{label}"']
            c = ours[name].per_label.get(label)
            assert ((c.tp, c.fp, c.fn) if c else (0, 0, 0)) == (row["ptp"], row["fp"], row["fn"]), (name, label)


def test_one_place_with_two_ids_is_one_span_for_mentions_and_two_for_links(neleval):
    gold = [[(0, 2, "PER", "Q1")]]
    pred = [[(0, 2, "PER", "Q1"), (0, 2, "PER", "Q2")]]
    ours = evaluate_links(gold, pred, schemes=neleval.measures)
    theirs = neleval.counts(gold, pred)
    assert (ours["strong_mention_match"].counts, theirs["strong_mention_match"]) == (
        {"tp": 1, "fp": 0, "fn": 0},
        (1, 0, 0),
    )
    assert (ours["strong_all_match"].counts, theirs["strong_all_match"]) == ({"tp": 1, "fp": 1, "fn": 0}, (1, 1, 0))


def test_a_large_corpus_in_several_batches_equals_neleval(neleval):
    gold, pred = make_corpus(5, 5000)
    ours = evaluate_links(iter(gold), iter(pred), schemes=neleval.measures)
    theirs = neleval.counts(gold, pred)
    for name in neleval.measures:
        c = ours[name].totals
        assert (c.tp, c.fp, c.fn) == theirs[name], name


def test_keys_past_the_int64_limit_are_ranked_and_count_the_same(neleval, monkeypatch):
    import spacy_spanf1.links.tagging as tagging

    gold, pred = make_corpus(3)
    before = evaluate_links(gold, pred, schemes=neleval.measures + ("nel",))
    monkeypatch.setattr(tagging, "KEY_LIMIT", 0)
    after = evaluate_links(gold, pred, schemes=neleval.measures + ("nel",))
    theirs = neleval.counts(gold, pred)
    for name in neleval.measures:
        c = after[name].totals
        assert (c.tp, c.fp, c.fn) == theirs[name], name
        assert after[name].per_label == before[name].per_label
    assert after["nel"] == before["nel"]


def test_counting_every_document_by_sorted_keys_gives_the_same(neleval, monkeypatch):
    # documents without a place twice on a side are counted from their pairs;
    # the sorted keys, which count the others, must give the same on them all
    import numpy

    import spacy_spanf1.links.pairs as pairs

    gold, pred = make_corpus(4, 300)
    before = evaluate_links(gold, pred, schemes=neleval.measures, per_doc=True)
    monkeypatch.setattr(pairs, "_repeated_docs", lambda table: numpy.ones(table.n_docs, dtype=bool))
    after = evaluate_links(gold, pred, schemes=neleval.measures, per_doc=True)
    for name in neleval.measures:
        assert after[name].per_label == before[name].per_label, name
        assert after[name].per_doc.tolist() == before[name].per_doc.tolist(), name
    assert {name: (r.totals.tp, r.totals.fp, r.totals.fn) for name, r in after.items()} == neleval.counts(gold, pred)


def test_the_link_schemes_name_every_neleval_tagging_measure_as_neleval_does():
    from conftest import NELEVAL_MEASURES
    from neleval.configs import MEASURE_SETS

    assert set(NELEVAL_MEASURES) == MEASURE_SETS["all-tagging"] and len(NELEVAL_MEASURES) == 10
