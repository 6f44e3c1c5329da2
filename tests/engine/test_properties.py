"""Properties every scheme must have, on random corpora (hypothesis).

`flat` documents: gold and predictions each without overlapping spans (as
`Doc.ents`). `grouped` documents: spans may overlap and repeat (span
groups). Most properties are checked on both.
"""

import functools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_spanf1 import SCHEMES, Span, SpanScorer, evaluate_spans

LABELS = ["A", "B", "C"]
THRESHOLDS = st.sampled_from([0.25, 0.3, 1 / 3, 0.5, 2 / 3, 0.75, 1.0])
SETTINGS = settings(max_examples=100, deadline=None)


@st.composite
def flat_doc(draw):
    """Spans laid left to right with gaps of 0-3 tokens: no overlaps."""
    pieces = draw(st.lists(st.tuples(st.integers(0, 3), st.integers(1, 4), st.sampled_from(LABELS)), max_size=6))
    spans, pos = [], 0
    for gap, length, label in pieces:
        pos += gap
        spans.append((pos, pos + length, label))
        pos += length
    return spans


grouped_doc = st.lists(
    st.builds(
        lambda start, length, label: (start, start + length, label),
        st.integers(0, 15),
        st.integers(1, 5),
        st.sampled_from(LABELS),
    ),
    max_size=7,
)


def corpus(doc):
    return st.lists(st.tuples(doc, doc), min_size=1, max_size=6).map(
        lambda pairs: ([g for g, _ in pairs], [p for _, p in pairs])
    )


flat_corpus = corpus(flat_doc())
any_corpus = corpus(st.one_of(flat_doc(), grouped_doc))


def run(gold_docs, pred_docs, **kwargs):
    return evaluate_spans(gold_docs, pred_docs, schemes=list(SCHEMES), keep_errors=True, per_doc=True, **kwargs)


def without_errors(res):
    return {s: (r.totals, r.per_label, r.confusion) for s, r in res.items()}


# --------------------------------------------------------------------------


@SETTINGS
@given(
    gold_docs=st.lists(flat_doc(), min_size=1, max_size=6),
    iou_t=THRESHOLDS,
    overlap_t=THRESHOLDS,
    min_overlap=st.one_of(st.none(), THRESHOLDS),
)
def test_perfect_prediction_scores_one_everywhere(gold_docs, iou_t, overlap_t, min_overlap):
    res = run(gold_docs, gold_docs, iou_threshold=iou_t, overlap_threshold=overlap_t, min_overlap=min_overlap)
    if not any(gold_docs):
        # Nothing to score: every ratio has a zero denominator, so 0.0.
        assert all((r.precision, r.recall, r.f1) == (0.0, 0.0, 0.0) for r in res.values())
        return
    for scheme, r in res.items():
        assert (r.precision, r.recall, r.f1, r.macro_f1) == (1.0, 1.0, 1.0, 1.0), scheme
        assert all(c.f1 == 1.0 for c in r.per_type.values()), scheme
        assert r.errors == ()


@SETTINGS
@given(data=any_corpus, iou_t=THRESHOLDS, overlap_t=THRESHOLDS, min_overlap=st.one_of(st.none(), THRESHOLDS))
def test_counts_are_bounded(data, iou_t, overlap_t, min_overlap):
    gold_docs, pred_docs = data
    res = run(gold_docs, pred_docs, iou_threshold=iou_t, overlap_threshold=overlap_t, min_overlap=min_overlap)
    # Identical spans in one document count once.
    n_gold = {label: sum(1 for d in gold_docs for s in set(d) if s[2] == label) for label in LABELS}
    n_pred = {label: sum(1 for d in pred_docs for s in set(d) if s[2] == label) for label in LABELS}
    G, P = sum(n_gold.values()), sum(n_pred.values())
    for scheme, r in res.items():
        rows = [r.totals] + list(r.per_type.values())
        assert all(v >= 0 for c in rows for v in c.to_dict().values()), scheme
        assert all(0.0 <= x <= 1.0 for c in rows for x in (c.precision, c.recall, c.f1)), scheme
        assert 0.0 <= r.macro_f1 <= 1.0
    for scheme in ("strict", "exact", "partial", "type"):
        c = res[scheme].totals
        assert c.cor <= min(G, P)
        # POS counts every gold span, ACT every prediction.
        assert (c.cor + c.inc + c.par + c.mis, c.cor + c.inc + c.par + c.spu) == (G, P)
        for label, lc in res[scheme].per_type.items():
            assert lc.cor <= min(n_gold[label], n_pred[label])
            assert lc.possible == n_gold[label] and lc.predicted == n_pred[label]
    c = res["overlap"].totals
    assert c.tp <= min(G, P) and (c.tp + c.fn, c.tp + c.fp) == (G, P)
    for label, lc in res["overlap"].per_type.items():
        assert lc.tp <= min(n_gold[label], n_pred[label])
        assert (lc.tp + lc.fn, lc.tp + lc.fp) == (n_gold[label], n_pred[label])
    # iou: a prediction that overlaps two gold spans takes part in both
    # (docs/definitions.md), so TP is bounded by the gold spans only.
    c = res["iou"].totals
    assert c.tp <= G and c.tp + c.fn == G
    for label, lc in res["iou"].per_type.items():
        assert lc.tp + lc.fn == n_gold[label]
    assert sum(n for (g, _), n in res["iou"].confusion.items() if g != "O") >= G


def test_iou_true_positives_can_outnumber_predictions():
    # One prediction (0, 2) over two gold spans (0, 1) and (1, 2): IoU 1/2
    # with each, >= 0.5, so TP = 2 from a single prediction (as Presidio).
    res = evaluate_spans([[(0, 1, "A"), (1, 2, "A")]], [[(0, 2, "A")]], schemes=["iou"])["iou"]
    assert res.counts == {"tp": 2, "fp": 0, "fn": 0}


@SETTINGS
@given(data=any_corpus, iou_t=THRESHOLDS, overlap_t=THRESHOLDS, min_overlap=st.one_of(st.none(), THRESHOLDS))
def test_corpus_is_the_sum_of_its_documents(data, iou_t, overlap_t, min_overlap):
    gold_docs, pred_docs = data
    kwargs = dict(iou_threshold=iou_t, overlap_threshold=overlap_t, min_overlap=min_overlap)
    whole = run(gold_docs, pred_docs, **kwargs)
    parts = [run([g], [p], **kwargs) for g, p in zip(gold_docs, pred_docs)]
    for scheme in SCHEMES:
        summed = functools.reduce(lambda a, b: a + b, (part[scheme] for part in parts))
        assert summed.totals == whole[scheme].totals
        assert summed.per_label == whole[scheme].per_label
        assert summed.confusion == whole[scheme].confusion
        # Errors and per-document rows: the same, in document order.
        assert summed.errors == whole[scheme].errors
        assert summed.per_doc.tolist() == whole[scheme].per_doc.tolist()
        # And through the plain counts.
        counts = {}
        for part in parts:
            for key, n in part[scheme].counts.items():
                counts[key] = counts.get(key, 0) + n
        assert counts == whole[scheme].counts
    # Scoring in parts (first half + second half) gives the same.
    half = len(gold_docs) // 2
    if half:
        a = run(gold_docs[:half], pred_docs[:half], **kwargs)
        b = run(gold_docs[half:], pred_docs[half:], **kwargs)
        for scheme in SCHEMES:
            assert (a[scheme] + b[scheme]).counts == whole[scheme].counts


@SETTINGS
@given(
    data=any_corpus,
    seed=st.randoms(use_true_random=False),
    iou_t=THRESHOLDS,
    min_overlap=st.one_of(st.none(), THRESHOLDS),
)
def test_order_of_spans_and_documents_does_not_matter(data, seed, iou_t, min_overlap):
    gold_docs, pred_docs = data
    kwargs = dict(iou_threshold=iou_t, overlap_threshold=iou_t, min_overlap=min_overlap)
    before = run(gold_docs, pred_docs, **kwargs)
    order = list(range(len(gold_docs)))
    seed.shuffle(order)
    shuffled_gold = [seed.sample(gold_docs[i], len(gold_docs[i])) for i in order]
    shuffled_pred = [seed.sample(pred_docs[i], len(pred_docs[i])) for i in order]
    after = run(shuffled_gold, shuffled_pred, **kwargs)
    assert without_errors(after) == without_errors(before)
    back = [e._replace(doc=order[e.doc]) for e in after["iou"].errors]
    assert sorted(back) == sorted(before["iou"].errors)
    # Repeating a span changes nothing either (set semantics).
    doubled = run([d + d for d in gold_docs], [d + d[:1] for d in pred_docs], **kwargs)
    assert without_errors(doubled) == without_errors(before)


@SETTINGS
@given(data=any_corpus, min_overlap=st.one_of(st.none(), THRESHOLDS))
def test_semeval_correct_counts_are_ordered(data, min_overlap):
    gold_docs, pred_docs = data
    res = evaluate_spans(gold_docs, pred_docs, schemes=["strict", "exact", "partial", "type"], min_overlap=min_overlap)
    cor = {scheme: r.totals.cor for scheme, r in res.items()}
    assert cor["strict"] <= cor["exact"] <= cor["partial"]
    assert cor["strict"] <= cor["type"]
    for label, c in res["strict"].per_type.items():
        assert c.cor <= res["exact"].per_type[label].cor <= res["partial"].per_type[label].cor
        assert c.cor <= res["type"].per_type[label].cor
    # The credit of partial (COR + ½PAR) is never below exact's COR.
    assert res["partial"].recall >= res["exact"].recall


@SETTINGS
@given(data=any_corpus, thresholds=st.lists(THRESHOLDS, min_size=2, max_size=2))
def test_lowering_iou_threshold_never_lowers_recall(data, thresholds):
    gold_docs, pred_docs = data
    low, high = sorted(thresholds)
    r_low = evaluate_spans(gold_docs, pred_docs, schemes=["iou"], iou_threshold=low)["iou"]
    r_high = evaluate_spans(gold_docs, pred_docs, schemes=["iou"], iou_threshold=high)["iou"]
    assert r_low.recall >= r_high.recall
    assert r_low.totals.tp >= r_high.totals.tp
    for label, c in r_high.per_type.items():
        assert r_low.per_type[label].tp >= c.tp


@SETTINGS
@given(data=any_corpus, iou_t=THRESHOLDS, overlap_t=THRESHOLDS, min_overlap=st.one_of(st.none(), THRESHOLDS))
def test_batched_and_per_document_engines_agree(data, iou_t, overlap_t, min_overlap):
    """evaluate_spans scores documents without self-overlaps in batches;
    matching.py scores one document at a time. Same results, errors too."""
    gold_docs, pred_docs = data
    kwargs = dict(iou_threshold=iou_t, overlap_threshold=overlap_t, min_overlap=min_overlap)
    batched = run(gold_docs, pred_docs, **kwargs)
    scorer = SpanScorer(list(SCHEMES), batched=False, keep_errors=True, per_doc=True, **kwargs)
    for g, p in zip(gold_docs, pred_docs):
        scorer.add(sorted(Span(*s) for s in set(g)), sorted(Span(*s) for s in set(p)))
    single = scorer.results()
    assert without_errors(single) == without_errors(batched)
    for scheme in SCHEMES:
        assert single[scheme].errors == batched[scheme].errors
        assert single[scheme].per_doc.tolist() == batched[scheme].per_doc.tolist()


@pytest.mark.parametrize("scheme", SCHEMES)
def test_empty_corpus_scores_zero(scheme):
    res = evaluate_spans([[], []], [[], []], schemes=[scheme])[scheme]
    assert (res.precision, res.recall, res.f1, res.macro_f1) == (0.0, 0.0, 0.0, 0.0)
    assert all(v == 0 for v in res.counts.values())
