"""`rel_strict` and `rel_exact` equal Taillé et al.'s `re_score` (their
"Strict" and "Boundaries" settings; transcriptions/sincere.py) on
generated documents: per relation type TP/FP/FN, micro over the types and
macro over them, with the relation types of both sides or a list given.

The generated spans have distinct boundaries on each side (two spans with
the same boundaries are one argument for "Boundaries", two for the
one-to-one pairing of `exact`); half the documents nest or cross spans,
so both the batched pairing and the per-document one are held to it."""

import random

import pytest

from helpers import one_of
from spacy_spanf1.relations import evaluate_relations
from transcriptions.sincere import re_score, sincere_relations

SPAN_LABELS = ["PER", "ORG", "LOC"]
RELATION_LABELS = ["works_for", "located_in", "kin", "part_of"]


def _spans(rng, n, nested):
    found = {}
    while len(found) < n:
        start = rng.randrange(0, 40)
        length = rng.randint(1, 4)
        bounds = (start, start + length)
        if bounds in found:
            continue
        if not nested and any(s < bounds[1] and bounds[0] < e for s, e in found):
            continue
        found[bounds] = rng.choice(SPAN_LABELS)
    spans = [(s, e, label) for (s, e), label in found.items()]
    rng.shuffle(spans)
    return spans


def _free(span, taken, nested):
    """Whether a predicted span may join the `taken` boundaries: other
    boundaries, not empty, and crossing none unless `nested`."""
    s, e = span[:2]
    return s < e and (s, e) not in taken and (nested or not any(a < e and s < b for a, b in taken))


def _document_pair(rng):
    nested = rng.random() < 0.5
    gold_spans = _spans(rng, rng.randint(0, 7), nested)
    gold_relations = []
    if len(gold_spans) > 1:
        for _ in range(rng.randint(0, 6)):
            h, t = rng.sample(range(len(gold_spans)), 2)
            gold_relations.append((h, t, rng.choice(RELATION_LABELS)))
    # the prediction: spans kept, relabelled, moved or dropped, and new ones
    pred_spans, where = [], {}
    taken = set()
    for i, (s, e, label) in enumerate(gold_spans):
        moved = (max(0, s + rng.choice([-1, 1])), e + rng.choice([0, 1]), label)
        version = one_of(rng, (55, (s, e, label)), (15, (s, e, rng.choice(SPAN_LABELS))), (15, moved), (15, None))
        if version and _free(version, taken, nested):
            where[i] = len(pred_spans)
            taken.add(version[:2])
            pred_spans.append(version)
    for span in _spans(rng, rng.randint(0, 2), nested):
        if _free(span, taken, nested):
            taken.add(span[:2])
            pred_spans.append(span)
    # a relation of two found spans: kept, relabelled, reversed, repeated (a
    # repeat counts once) or missed
    pred_relations = []
    for h, t, label in gold_relations:
        if h in where and t in where:
            h, t = where[h], where[t]
            pred_relations += one_of(
                rng,
                (56, [(h, t, label)]),
                (12, [(h, t, rng.choice(RELATION_LABELS))]),
                (8, [(t, h, label)]),
                (4, [(h, t, label)] * 2),
                (20, []),
            )
    if len(pred_spans) > 1:
        for _ in range(rng.randint(0, 2)):
            h, t = rng.sample(range(len(pred_spans)), 2)
            pred_relations.append((h, t, rng.choice(RELATION_LABELS)))
    return {"spans": gold_spans, "relations": gold_relations}, {"spans": pred_spans, "relations": pred_relations}


def corpus(seed, n):
    rng = random.Random(seed)
    pairs = [_document_pair(rng) for _ in range(n)]
    return [g for g, _ in pairs], [p for _, p in pairs]


def labels_of(*sides):
    return sorted({label for docs in sides for doc in docs for _, _, label in doc["relations"]})


def assert_equal_to_re_score(result, reference):
    types = [t for t in reference if t != "ALL"]
    assert list(result.per_label) == types
    for label in types:
        counts = result.per_label[label]
        assert (counts.tp, counts.fp, counts.fn) == tuple(reference[label][k] for k in ("tp", "fp", "fn")), label
        assert 100 * counts.f1 == pytest.approx(reference[label]["f1"])
    total = reference["ALL"]
    assert (result.totals.tp, result.totals.fp, result.totals.fn) == (total["tp"], total["fp"], total["fn"])
    assert 100 * result.precision == pytest.approx(total["p"])
    assert 100 * result.recall == pytest.approx(total["r"])
    assert 100 * result.f1 == pytest.approx(total["f1"])
    assert 100 * result.macro_f1 == pytest.approx(total["Macro_f1"])


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("scheme,mode", [("rel_strict", "strict"), ("rel_exact", "boundaries")])
def test_equal_to_re_score(seed, scheme, mode):
    gold, pred = corpus(seed, 400)
    types = labels_of(gold, pred)
    reference = re_score([sincere_relations(d) for d in pred], [sincere_relations(d) for d in gold], types, mode)
    assert reference["ALL"]["tp"] > 50 and reference["ALL"]["fp"] > 50  # the corpus tests something
    result = evaluate_relations(gold, pred, schemes=[scheme])[scheme]
    assert_equal_to_re_score(result, reference)


@pytest.mark.parametrize("scheme,mode", [("rel_strict", "strict"), ("rel_exact", "boundaries")])
def test_equal_to_re_score_over_given_types(scheme, mode):
    """Types without support count F 0 in the macro average; relations of
    types not listed are not scored."""
    gold, pred = corpus(5, 200)
    types = ["works_for", "kin", "founded_by"]  # founded_by: in neither side
    reference = re_score([sincere_relations(d) for d in pred], [sincere_relations(d) for d in gold], types, mode)
    result = evaluate_relations(gold, pred, schemes=[scheme], relation_labels=types)[scheme]
    assert_equal_to_re_score(result, reference)
    assert result.per_label["founded_by"].is_empty


def test_small_batches_give_the_same_counts():
    """Documents scored a batch at a time add up to one batch's counts."""
    from spacy_spanf1.relations import RelationScorer

    gold, pred = corpus(9, 150)
    schemes = ["rel_strict", "rel_partial", "rel_overlap"]
    whole = evaluate_relations(gold, pred, schemes=schemes, per_doc=True)
    scorer = RelationScorer(schemes, batch_size=7, per_doc=True)
    for g, p in zip(gold, pred):
        scorer.add(g, p)
    parts = scorer.results()
    for name in whole:
        assert parts[name].totals == whole[name].totals
        assert parts[name].per_label == whole[name].per_label
        assert parts[name].per_doc.tolist() == whole[name].per_doc.tolist()
