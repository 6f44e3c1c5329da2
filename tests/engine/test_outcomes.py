"""Per-document counts, outcomes and errors: the engine's table.

Expected values are computed by hand below (the README's worked example)
or are the scheme's own counts: the rows of `per_doc` add up to the totals,
and each scheme lists exactly one error per counted mistake.
"""

import pickle
import random
import warnings

import numpy
import pytest

from spacy_spanf1 import SCHEMES, evaluate_spans

# Tokens Ann(0) Lee(1) flew(2) to(3) New(4) York(5).
GOLD = [[(0, 2, "PER"), (4, 6, "LOC")]]
PRED = [[(0, 1, "PER"), (4, 6, "ORG")]]


def random_corpus(seed, n=300):
    rng = random.Random(seed)
    gold, pred = [], []
    for _ in range(n):
        length = rng.randint(1, 25)
        docs = []
        for _ in range(2):
            spans, i = [], 0
            while i < length:
                if rng.random() < 0.35:
                    size = rng.randint(1, 4)
                    spans.append((i, min(length, i + size), rng.choice("ABC")))
                    i += size
                    if rng.random() < 0.15:
                        i = max(0, i - 2)  # some documents overlap themselves
                else:
                    i += 1
            docs.append(spans)
        gold.append(docs[0])
        pred.append(docs[1])
    return gold, pred


def test_worked_example_errors_by_hand():
    res = evaluate_spans(GOLD, PRED, schemes=list(SCHEMES), keep_errors=True)
    kinds = {scheme: [(e.count, e.kind, e.gold, e.pred) for e in r.errors] for scheme, r in res.items()}
    ann = ((0, 1, "PER"),)
    york = ((4, 6, "ORG"),)
    # strict: "Ann" has other boundaries, same label; ORG has the boundaries, not the label.
    assert kinds["strict"] == [
        ("inc", "wrong_boundaries", (0, 2, "PER"), ann),
        ("inc", "wrong_type", (4, 6, "LOC"), york),
    ]
    # exact ignores labels: only "Ann" is wrong.
    assert kinds["exact"] == [("inc", "wrong_boundaries", (0, 2, "PER"), ann)]
    # partial: "Ann" is a partial match.
    assert kinds["partial"] == [("par", "wrong_boundaries", (0, 2, "PER"), ann)]
    # type: ORG overlaps LOC with another label.
    assert kinds["type"] == [("inc", "wrong_type", (4, 6, "LOC"), york)]
    # iou: the ORG group reaches IoU 1.0 with another label (FP), LOC is FN.
    assert kinds["iou"] == [("fp", "wrong_type", (4, 6, "LOC"), york)]
    # overlap: ORG is an FP, LOC an FN, each shown with the other.
    assert kinds["overlap"] == [("fp", "wrong_type", (4, 6, "LOC"), york), ("fn", "wrong_type", (4, 6, "LOC"), york)]
    ann_error = res["strict"].errors[0]
    # |{0}| / |{0, 1}|: IoU 1/2, covers half of the gold span and all of "Ann".
    assert (ann_error.iou, ann_error.gold_coverage, ann_error.pred_coverage) == (0.5, 0.5, 1.0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_records_equal_the_counts(seed):
    gold, pred = random_corpus(seed)
    res = evaluate_spans(gold, pred, schemes=list(SCHEMES), keep_errors=True, per_doc=True)
    for scheme, r in res.items():
        by_count = {}
        for e in r.errors:
            by_count[e.count] = by_count.get(e.count, 0) + 1
        c = r.counts
        if scheme in ("strict", "exact", "partial", "type"):
            assert len(r.errors) == c["inc"] + c["par"] + c["mis"] + c["spu"], scheme
            assert by_count == {k: c[k] for k in ("inc", "par", "mis", "spu") if c[k]}, scheme
        elif scheme == "overlap":
            assert by_count == {"fp": c["fp"], "fn": c["fn"]}
        else:  # iou: every FP group or prediction; a gold span only when nothing overlaps it
            assert by_count["fp"] == c["fp"]
            missed = [e for e in r.errors if e.count == "fn"]
            assert all(e.kind == "missed" and e.pred == () for e in missed)
            fn_gold = {(e.doc, e.gold) for e in r.errors if e.gold is not None}
            assert len(fn_gold) >= c["fn"]
        assert r.per_doc.shape == (len(gold), len(c))
        assert r.per_doc.sum(axis=0).tolist() == list(c.values()), scheme


def test_per_doc_rows_are_each_documents_own_score():
    gold, pred = random_corpus(5, 60)
    res = evaluate_spans(gold, pred, schemes=list(SCHEMES), per_doc=True)
    for i in range(0, 60, 7):
        alone = evaluate_spans([gold[i]], [pred[i]], schemes=list(SCHEMES))
        for scheme in SCHEMES:
            assert res[scheme].per_doc[i].tolist() == list(alone[scheme].counts.values())


def test_results_pickle_and_add_up():
    gold, pred = random_corpus(7, 200)
    options = dict(schemes=list(SCHEMES), keep_errors=True, per_doc=True)
    whole = evaluate_spans(gold, pred, **options)
    first = evaluate_spans(gold[:80], pred[:80], **options)
    second = evaluate_spans(gold[80:], pred[80:], **options)
    for scheme in SCHEMES:
        merged = pickle.loads(pickle.dumps(first[scheme])) + pickle.loads(pickle.dumps(second[scheme]))
        assert merged == whole[scheme]
        assert merged.per_doc.tolist() == whole[scheme].per_doc.tolist()
        assert merged.errors == whole[scheme].errors  # document indices run on
        assert pickle.loads(pickle.dumps(whole[scheme])).errors == whole[scheme].errors


def test_per_doc_and_errors_are_off_by_default():
    res = evaluate_spans(GOLD, PRED, schemes=["strict"])["strict"]
    assert res.per_doc is None
    with pytest.raises(ValueError, match="keep_errors=True"):
        res.errors  # noqa: B018 (reading the property raises)


def test_spacy_spans_as_documents():
    import spacy
    from spacy.tokens import Span as SpacySpan, SpanGroup

    nlp = spacy.blank("en")
    doc = nlp("Ann Lee flew to New York")
    doc.ents = [SpacySpan(doc, 0, 2, "PER"), SpacySpan(doc, 4, 6, "LOC")]
    group = SpanGroup(doc, name="sc", spans=[SpacySpan(doc, 0, 1, "PER"), SpacySpan(doc, 4, 6, "ORG")])
    by_objects = evaluate_spans([doc.ents], [group], schemes=list(SCHEMES))
    by_tuples = evaluate_spans(GOLD, PRED, schemes=list(SCHEMES))
    for scheme in SCHEMES:
        assert by_objects[scheme] == by_tuples[scheme]
    # In char unit a spaCy Span gives its character offsets: "Ann" is 0-3, "Ann Lee" 0-7.
    chars = evaluate_spans([doc.ents], [list(group)], schemes=["strict"], unit="char", keep_errors=True)
    assert chars["strict"].errors[0].gold == (0, 7, "PER")
    assert chars["strict"].errors[0].pred == ((0, 3, "PER"),)


@pytest.mark.parametrize("kind", [numpy.int64, numpy.int32, numpy.uint16, int])
def test_integer_offsets_of_any_type(kind):
    gold = [[(kind(0), kind(2), "PER"), {"start": kind(4), "end": kind(6), "label": "LOC"}]]
    res = evaluate_spans(gold, PRED, schemes=["strict", "partial"])
    assert res["partial"].counts == {"cor": 1, "inc": 0, "par": 1, "mis": 0, "spu": 0}


@pytest.mark.parametrize("start", [True, 0.0, numpy.float64(0), numpy.bool_(False)])
def test_bool_and_float_offsets_stay_errors(start):
    with pytest.raises(ValueError, match="non-integer offsets"):
        evaluate_spans([[(start, 2, "PER")]], [[]], schemes=["strict"])


def test_unseen_label_filter_warns():
    with pytest.warns(UserWarning, match=r"'per'.*Labels found: LOC, ORG, PER"):
        res = evaluate_spans(GOLD, PRED, schemes=["strict"], labels=["per"])
    assert res["strict"].counts["cor"] == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        evaluate_spans(GOLD, PRED, schemes=["strict"], labels=["PER"])
