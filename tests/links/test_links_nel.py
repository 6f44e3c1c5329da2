"""`nel` equals spaCy's `Scorer.score_links`, run in the test, bit for bit
and key for key, on generated Examples: negative labels, ids that only
look negative under neleval ("" and "NIL0042"), predictions whose
boundaries are not a gold entity's, and predicted documents tokenized
otherwise than their references (the boundaries spaCy compares are
characters)."""

import random

import pytest
from spacy.scorer import Scorer
from spacy.tokens import Doc, Span
from spacy.training import Example

from spacy_spanf1.links import evaluate_links, nel_scores, score_links

LABELS = ("PER", "ORG", "LOC", "GPE")
IDS = ("Q1", "Q2", "Q3", "NIL", "", "NIL0042")


def make_examples(vocab, seed, n=40):
    rng = random.Random(seed)
    examples = []
    for _ in range(n):
        words = [f"w{rng.randint(10, 99)}" for _ in range(rng.randint(3, 14))]
        reference = Doc(vocab, words=words)
        # the prediction's tokens: some words cut in two ("w4" "2"), the same text
        pred_words, pred_spaces, starts = [], [], []
        for word in words:
            starts.append(len(pred_words))
            if rng.random() < 0.2:
                pred_words += [word[:2], word[2:]]
                pred_spaces += [False, True]
            else:
                pred_words.append(word)
                pred_spaces.append(True)
        predicted = Doc(vocab, words=pred_words, spaces=pred_spaces)
        assert predicted.text.strip() == reference.text.strip()
        reference.ents = random_ents(rng, reference, len(words), lambda i: i)
        ents = []
        for ent in reference.ents:
            r = rng.random()
            start, end = starts[ent.start], starts[ent.end] if ent.end < len(words) else len(pred_words)
            if r < 0.5:
                kb = ent.kb_id_ if rng.random() < 0.6 else rng.choice(IDS)
            elif r < 0.7:  # boundaries no gold entity has
                end = end - 1 if end - start > 1 else end + 1 if end < len(pred_words) else end
                kb = rng.choice(IDS)
            else:
                continue
            label = ent.label_ if rng.random() < 0.8 else rng.choice(LABELS)
            if all(e.end <= start or e.start >= end for e in ents):
                ents.append(Span(predicted, start, end, label=label, kb_id=kb))
        predicted.ents = ents
        examples.append(Example(predicted, reference))
    return examples


def random_ents(rng, doc, n_words, index):
    ents, k = [], rng.randint(0, 2)
    while k < n_words:
        length = rng.randint(1, 3)
        if k + length > n_words:
            break
        ents.append(Span(doc, index(k), index(k + length), label=rng.choice(LABELS), kb_id=rng.choice(IDS)))
        k += length + rng.randint(0, 3)
    return ents


@pytest.mark.parametrize("negative_labels", [["NIL"], ["NIL", ""], []], ids=["NIL", "NIL+empty", "none"])
@pytest.mark.parametrize("seed", range(4))
def test_nel_is_spacys_score_links_bit_for_bit(vocab, seed, negative_labels):
    examples = make_examples(vocab, seed)
    theirs = Scorer.score_links(examples, negative_labels=negative_labels)
    ours = score_links(examples, negative_labels=negative_labels)
    assert list(ours) == list(theirs)
    assert list(ours["nel_f_per_type"]) == list(theirs["nel_f_per_type"])  # the order macro adds them in
    assert ours == theirs
    for key, value in theirs.items():  # bit for bit: == on floats, and the same types
        assert type(ours[key]) is type(value), key


def test_the_cases_are_there(vocab):
    examples = make_examples(vocab, 0, 200)
    kb = {e.kb_id_ for eg in examples for e in eg.predicted.ents}
    assert set(IDS) <= kb
    gold_places = [{(e.start_char, e.end_char) for e in eg.reference.ents} for eg in examples]
    pred_places = [[(e.start_char, e.end_char) for e in eg.predicted.ents] for eg in examples]
    assert any(p not in g for g, ps in zip(gold_places, pred_places) for p in ps)  # not judged
    assert any(len(eg.predicted) != len(eg.reference) for eg in examples)  # other tokens


def test_an_example_with_nothing_judged_gives_spacys_empty_scores(vocab):
    doc = Doc(vocab, words=["a", "b"])
    examples = [Example(doc, doc.copy())]
    assert score_links(examples) == Scorer.score_links(examples, negative_labels=["NIL"])


def test_nel_of_plain_spans_counts_as_spacy_does():
    gold = [[(0, 2, "PER", "Q1"), (3, 4, "LOC", "NIL"), (5, 6, "ORG", ""), (7, 8, "GPE", "Q7")]]
    pred = [[(0, 2, "PER", "Q2"), (3, 4, "LOC", "NIL"), (5, 6, "ORG"), (7, 9, "GPE", "Q7")]]
    result = evaluate_links(gold, pred, schemes=["nel"])["nel"]
    # Q1/Q2: FP and FN; NIL/NIL: not counted, LOC listed; ""/missing (""): TP; 7-9: not judged
    assert {label: c.to_dict() for label, c in result.per_label.items()} == {
        "PER": {"tp": 0, "fp": 1, "fn": 1},
        "LOC": {"tp": 0, "fp": 0, "fn": 0},
        "ORG": {"tp": 1, "fp": 0, "fn": 0},
    }
    scores = nel_scores(result)
    assert scores["nel_macro_f"] == (0.0 + 0.0 + 1.0) / 3
    assert scores["nel_micro_p"] == 0.5


def test_nel_scores_takes_only_the_nel_result():
    result = evaluate_links([[(0, 1, "PER", "Q1")]], [[(0, 1, "PER", "Q1")]], schemes=["strong_all_match"])
    with pytest.raises(ValueError, match="nel_scores takes the result of the 'nel' scheme"):
        nel_scores(result["strong_all_match"])
