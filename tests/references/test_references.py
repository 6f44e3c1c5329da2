"""Differential tests: the engine against the public references of docs/definitions.md.

Seeded random corpora (gold and predictions each non-overlapping within a
document, 5-40 tokens, 3-5 labels, short spans). Most derive the predictions
from the gold spans with a realistic error mix: exact matches, shifted
boundaries, wrong labels, split and merged spans, missed spans and spurious
predictions. One "dense" corpus per reference draws gold and predictions
independently, so that spans often overlap two or three of the other side
(ties of nervaluate's boundary distance, competing overlap candidates).
Counts must be equal, overall and per label, through both the public
`evaluate_spans` and the per-document matcher of matching.py:

- strict/exact/partial/type vs nervaluate 1.2.1 (strict/exact/partial/ent_type),
  with and without min_overlap;
- iou vs Presidio's SpanEvaluator (token IoU, no skip words);
- overlap vs a plain pandas implementation of the Feedback Prize metric,
  written here from docs/definitions.md § overlap.
"""

import functools
import random

import pytest
from nervaluate import Evaluator

from spacy_spanf1 import Span, SpanScorer, evaluate_spans
from transcriptions.feedback_prize import feedback_prize, feedback_prize_frames

SEMEVAL = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
LABEL_SETS = [["PER", "ORG", "LOC"], ["PER", "ORG", "LOC", "MISC"], ["A", "B", "C", "D", "E"]]


# --------------------------------------------------------------------------
# Corpus generation
# --------------------------------------------------------------------------


def _fits(span, accepted, n_tokens, io_safe):
    """A span may join `accepted` if it lies in the doc, overlaps nothing
    and (io_safe) touches no span of its own label."""
    start, end, label = span
    if not 0 <= start < end <= n_tokens:
        return False
    for s, e, lab in accepted:
        if start < e and s < end:
            return False
        if io_safe and lab == label and (e == start or end == s):
            return False
    return True


def _other(rng, labels, label):
    return rng.choice([lab for lab in labels if lab != label])


def make_doc(rng, labels, io_safe):
    """(n_tokens, gold, pred) for one random document."""
    n = rng.randint(5, 40)
    gold = []
    pos = rng.choice([0, 0, 1, 2])
    while True:
        length = rng.choice([1, 1, 2, 2, 2, 3, 3, 4, 5, 6, 8])
        label = rng.choice(labels)
        span = (pos, pos + length, label)
        if pos + length > n:
            break
        if not _fits(span, gold, n, io_safe):  # touches a span of its label
            span = (pos, pos + length, _other(rng, labels, label))
        if _fits(span, gold, n, io_safe):
            gold.append(span)
        pos += length + rng.choice([0, 0, 1, 1, 1, 2, 3, 5])
    # Candidate predictions, most important first; overlapping or (io_safe)
    # touching same-label candidates are dropped below.
    candidates = []
    i = 0
    while i < len(gold):
        s, e, label = gold[i]
        r = rng.random()
        if r < 0.45:  # exact
            candidates.append((s, e, label))
        elif r < 0.60:  # shifted boundaries
            ds, de = rng.choice([-2, -1, 0, 1, 2]), rng.choice([-2, -1, 0, 1, 2])
            if ds == de == 0:
                de = 1
            candidates.append((s + ds, e + de, label))
        elif r < 0.67:  # wrong label, same boundaries
            candidates.append((s, e, _other(rng, labels, label)))
        elif r < 0.71:  # wrong label and shifted
            candidates.append((s + rng.choice([-1, 0, 1]), e + rng.choice([-1, 1]), _other(rng, labels, label)))
        elif r < 0.81 and e - s >= 2:  # split in two (a gap when io_safe)
            cut = rng.randint(s + 1, e - 1)
            second = label if rng.random() < 0.6 else _other(rng, labels, label)
            gap = 0
            if io_safe and second == label:  # IO tags would join the parts
                if e - s >= 3:
                    gap = 1
                    cut = min(cut, e - 2)
                else:
                    second = _other(rng, labels, label)
            candidates.append((s, cut, label))
            candidates.append((cut + gap, e, second))
        elif r < 0.87 and i + 1 < len(gold):  # merged with the next gold span
            candidates.append((s, gold[i + 1][1], rng.choice([label, gold[i + 1][2]])))
            i += 1
        elif r < 0.90:  # one token of slack on each side
            candidates.append((s - 1, e + 1, label))
        # else: missed
        i += 1
    for _ in range(rng.choice([0, 0, 0, 1, 1, 2, 3])):  # spurious
        start = rng.randrange(n)
        candidates.append((start, start + rng.choice([1, 1, 2, 3]), rng.choice(labels)))
    pred = []
    for span in candidates:
        if _fits(span, pred, n, io_safe):
            pred.append(span)
    rng.shuffle(gold)
    rng.shuffle(pred)
    return n, gold, pred


def _tiling(rng, n, labels, io_safe):
    """Random short spans laid one after another, with some gaps."""
    spans, pos = [], 0
    while pos < n:
        if rng.random() < 0.3:
            pos += 1
            continue
        end = min(n, pos + rng.randint(1, 4))
        label = rng.choice(labels)
        if io_safe and spans and spans[-1][1] == pos and spans[-1][2] == label:
            label = _other(rng, labels, label)
        spans.append((pos, end, label))
        pos = end
    return spans


def make_dense_doc(rng, labels, io_safe):
    """(n_tokens, gold, pred): gold and predictions drawn independently, so
    that one span often overlaps two or three of the other side (ties of
    nervaluate's boundary distance, competing overlap candidates, ...)."""
    n = rng.randint(5, 40)
    return n, _tiling(rng, n, labels, io_safe), _tiling(rng, n, labels, io_safe)


def make_corpus(seed, n_docs, style, io_safe=False):
    rng = random.Random(seed)
    labels = LABEL_SETS[seed % len(LABEL_SETS)]
    if style == "dense":
        labels = labels[:3]  # few labels: many same-label conflicts
    make = make_dense_doc if style == "dense" else make_doc
    lengths, gold_docs, pred_docs = [], [], []
    for _ in range(n_docs):
        n, gold, pred = make(rng, labels, io_safe)
        lengths.append(n)
        gold_docs.append(gold)
        pred_docs.append(pred)
    return labels, lengths, gold_docs, pred_docs


def as_dicts(doc):
    return [{"start": s, "end": e, "label": lab} for s, e, lab in doc]


# Thousands of documents for nervaluate and pandas, fewer for Presidio.
# (seed, number of documents, style): "errors" derives the predictions from
# the gold spans with the error mix above, "dense" draws them independently.
SEMEVAL_CORPORA = [(11, 1500, "errors"), (12, 1500, "errors"), (13, 1500, "errors"), (14, 1500, "dense")]
PRESIDIO_CORPORA = [(21, 350, "errors"), (22, 350, "errors"), (23, 250, "dense")]
OVERLAP_CORPORA = [(31, 3000, "errors"), (32, 3000, "errors"), (34, 3000, "dense")]


@functools.cache
def corpus(seed, n_docs, style, io_safe=False):
    return make_corpus(seed, n_docs, style, io_safe)


#: Both ways through the engine: the public function (which scores
#: documents without self-overlapping spans in batches) and the
#: per-document matcher of matching.py (`SpanScorer(batched=False)`).
ENGINES = ["evaluate_spans", "per_document"]


def score(engine, gold_docs, pred_docs, *, schemes, **kwargs):
    if engine == "evaluate_spans":
        return evaluate_spans(gold_docs, pred_docs, schemes=schemes, **kwargs)
    scorer = SpanScorer(schemes, batched=False, **kwargs)
    for gold, pred in zip(gold_docs, pred_docs):
        scorer.add(sorted(Span(*s) for s in set(gold)), sorted(Span(*s) for s in set(pred)))
    return scorer.results()


# --------------------------------------------------------------------------
# SemEval family vs nervaluate 1.2.1
# --------------------------------------------------------------------------


def _nervaluate_docs(docs):
    """nervaluate's ends are inclusive, and it pairs entities in the order
    it is given them: spans go in sorted by (start, end, label)."""
    return [[{"label": lab, "start": s, "end": e - 1} for s, e, lab in sorted(doc)] for doc in docs]


@functools.cache
def nervaluate_result(seed, n_docs, style, min_overlap, tags=None):
    """nervaluate's evaluate() on a corpus; min_overlap as a fraction (None:
    nervaluate's default of 1%, i.e. any overlap for spans this short)."""
    labels, _, gold_docs, pred_docs = corpus(seed, n_docs, style)
    kwargs = {} if min_overlap is None else {"min_overlap_percentage": 100 * min_overlap}
    return Evaluator(
        _nervaluate_docs(gold_docs),
        _nervaluate_docs(pred_docs),
        tags=list(tags or labels),
        loader="dict",
        **kwargs,
    ).evaluate()


def _ner_row(r):
    return (r.correct, r.incorrect, r.partial, r.missed, r.spurious)


def _row(c):
    return (c.cor, c.inc, c.par, c.mis, c.spu)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("min_overlap", [None, 0.25, 0.5, 0.75, 1.0])
@pytest.mark.parametrize("seed,n_docs,style", SEMEVAL_CORPORA)
def test_semeval_schemes_match_nervaluate(seed, n_docs, style, min_overlap, engine):
    _, _, gold_docs, pred_docs = corpus(seed, n_docs, style)
    ref = nervaluate_result(seed, n_docs, style, min_overlap)
    res = score(engine, gold_docs, pred_docs, schemes=list(SEMEVAL), min_overlap=min_overlap)
    for scheme, name in SEMEVAL.items():
        assert _row(res[scheme].totals) == _ner_row(ref["overall"][name]), scheme
        per_label = {label: _row(c) for label, c in res[scheme].per_type.items()}
        assert per_label == {label: _ner_row(r[name]) for label, r in ref["entities"].items()}, scheme
    # The corpus exercises every kind of SemEval outcome.
    cor, inc, _, mis, spu = _ner_row(ref["overall"]["strict"])
    assert min(cor, inc, mis, spu, ref["overall"]["partial"].partial) > 0


@pytest.mark.parametrize("seed,n_docs,style", SEMEVAL_CORPORA[:1])
def test_semeval_ratios_match_nervaluate(seed, n_docs, style):
    _, _, gold_docs, pred_docs = corpus(seed, n_docs, style)
    ref = nervaluate_result(seed, n_docs, style, None)
    res = evaluate_spans(gold_docs, pred_docs, schemes=list(SEMEVAL))
    for scheme, name in SEMEVAL.items():
        r = ref["overall"][name]
        assert (res[scheme].precision, res[scheme].recall, res[scheme].f1) == pytest.approx(
            (r.precision, r.recall, r.f1), abs=1e-12
        )
        for label, c in res[scheme].per_type.items():
            r = ref["entities"][label][name]
            assert (c.precision, c.recall, c.f1) == pytest.approx((r.precision, r.recall, r.f1), abs=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
def test_semeval_label_subset_matches_nervaluate_tags(engine):
    seed, n_docs, style = SEMEVAL_CORPORA[1]
    labels, _, gold_docs, pred_docs = corpus(seed, n_docs, style)
    keep = tuple(labels[:2])
    ref = nervaluate_result(seed, n_docs, style, None, keep)
    res = score(engine, gold_docs, pred_docs, schemes=list(SEMEVAL), labels=keep)
    for scheme, name in SEMEVAL.items():
        assert _row(res[scheme].totals) == _ner_row(ref["overall"][name]), scheme
        per_label = {label: _row(c) for label, c in res[scheme].per_type.items()}
        assert per_label == {label: _ner_row(r[name]) for label, r in ref["entities"].items()}, scheme
        assert set(per_label) == set(keep)


def test_semeval_dict_spans_in_any_order_match_nervaluate():
    """Spans given as dicts and in any order: the engine sorts them itself."""
    seed, n_docs, style = SEMEVAL_CORPORA[2]
    _, _, gold_docs, pred_docs = corpus(seed, n_docs, style)
    ref = nervaluate_result(seed, n_docs, style, 0.5)
    rng = random.Random(5)
    gold_dicts = [as_dicts(rng.sample(doc, len(doc))) for doc in gold_docs]
    pred_shuffled = [rng.sample(doc, len(doc)) for doc in pred_docs]
    res = evaluate_spans(gold_dicts, pred_shuffled, schemes=list(SEMEVAL), min_overlap=0.5)
    for scheme, name in SEMEVAL.items():
        assert _row(res[scheme].totals) == _ner_row(ref["overall"][name]), scheme


# --------------------------------------------------------------------------
# iou vs Presidio's SpanEvaluator
# --------------------------------------------------------------------------


@functools.cache
def presidio_result(presidio, seed, n_docs, style, threshold):
    _, lengths, gold_docs, pred_docs = corpus(seed, n_docs, style, io_safe=True)
    tokens = [[f"w{i}" for i in range(n)] for n in lengths]
    per_type, _, raw = presidio(gold_docs, pred_docs, tokens, threshold)
    return per_type, raw.to_confusion_matrix()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("threshold", [0.3, 0.5, 0.75, 0.9])
@pytest.mark.parametrize("seed,n_docs,style", PRESIDIO_CORPORA)
def test_iou_matches_presidio(presidio, seed, n_docs, style, threshold, engine):
    _, _, gold_docs, pred_docs = corpus(seed, n_docs, style, io_safe=True)
    ref, (ref_labels, ref_matrix) = presidio_result(presidio, seed, n_docs, style, threshold)
    res = score(engine, gold_docs, pred_docs, schemes=["iou"], iou_threshold=threshold, keep_errors=True)["iou"]
    # Presidio's per-type TP, num_predicted (TP + FP), num_annotated (TP + FN).
    mine = {label: (c.tp, c.tp + c.fp, c.tp + c.fn) for label, c in res.per_type.items()}
    assert mine == ref
    # Its to_confusion_matrix(), cell for cell: labels sorted, "O" last.
    assert (res.confusion.labels, res.confusion.matrix) == (ref_labels, ref_matrix)
    # Not a vacuous comparison: matches, wrong types, low overlaps,
    # misses and spurious predictions all occur.
    assert {e.kind for e in res.errors} == {"missed", "spurious", "wrong_type", "wrong_boundaries", "low_overlap"}
    assert 0 < res.counts["tp"] < sum(len(d) for d in gold_docs)


# --------------------------------------------------------------------------
# overlap vs the Feedback Prize metric (transcriptions/, in pandas)
# --------------------------------------------------------------------------


@functools.cache
def feedback_prize_result(seed, n_docs, style, threshold):
    _, _, gold_docs, pred_docs = corpus(seed, n_docs, style)
    return feedback_prize(*feedback_prize_frames(gold_docs, pred_docs), threshold)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("threshold", [0.5, 0.3, 0.75])
@pytest.mark.parametrize("seed,n_docs,style", OVERLAP_CORPORA)
def test_overlap_matches_feedback_prize(seed, n_docs, style, threshold, engine):
    _, _, gold_docs, pred_docs = corpus(seed, n_docs, style)
    ref = feedback_prize_result(seed, n_docs, style, threshold)
    res = score(engine, gold_docs, pred_docs, schemes=["overlap"], overlap_threshold=threshold)["overlap"]
    assert {label: (c.tp, c.fp, c.fn) for label, c in res.per_type.items()} == ref
    tp, fp, fn = (sum(x) for x in zip(*ref.values()))
    assert res.counts == {"tp": tp, "fp": fp, "fn": fn}
    assert 0 < tp and 0 < fp and 0 < fn
    # F1 = TP / (TP + ½(FP + FN)); the official score is the mean over
    # classes of the same.
    assert res.f1 == pytest.approx(tp / (tp + 0.5 * (fp + fn)), abs=1e-12)
    macro = sum(t / (t + 0.5 * (p + n)) for t, p, n in ref.values()) / len(ref)
    assert res.macro_f1 == pytest.approx(macro, abs=1e-12)
