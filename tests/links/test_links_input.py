"""What evaluate_links reads: linked spans as dicts, 4-tuples and spaCy
Spans (`kb_id_`), the same figures from each; bad input is one clear
ValueError naming the document and the span; settings are checked."""

import pytest
from spacy.tokens import Doc, Span

from spacy_spanf1 import LINK_SCHEMES, SchemeResult
from spacy_spanf1.links import evaluate_links, is_nil_id

GOLD = [[(0, 2, "PER", "Q1"), (3, 4, "LOC", "NIL")], [(1, 3, "ORG", "Q2")]]
PRED = [[(0, 2, "PER", "Q1"), (3, 4, "LOC", "Q5")], [(1, 2, "ORG", "")]]


def as_dicts(docs):
    return [[{"start": s, "end": e, "label": label, "kb_id": kb} for s, e, label, kb in doc] for doc in docs]


def as_spacy(vocab, docs):
    out = []
    for doc in docs:
        spacy_doc = Doc(vocab, words=[f"w{i}" for i in range(6)])
        spacy_doc.ents = [Span(spacy_doc, s, e, label=label, kb_id=kb) for s, e, label, kb in doc]
        out.append(spacy_doc.ents)
    return out


def figures(results):
    return {name: (r.counts, {label: c.to_dict() for label, c in r.per_label.items()}) for name, r in results.items()}


def test_dicts_tuples_and_spacy_spans_give_the_same_figures(vocab):
    tuples = figures(evaluate_links(GOLD, PRED, schemes=LINK_SCHEMES))
    assert figures(evaluate_links(as_dicts(GOLD), as_dicts(PRED), schemes=LINK_SCHEMES)) == tuples
    assert figures(evaluate_links(as_spacy(vocab, GOLD), as_spacy(vocab, PRED), schemes=LINK_SCHEMES)) == tuples
    mixed = [[GOLD[0][0], {"start": 3, "end": 4, "label": "LOC", "kb_id": "NIL"}], as_spacy(vocab, GOLD)[1]]
    assert figures(evaluate_links(mixed, PRED, schemes=LINK_SCHEMES)) == tuples


def test_char_unit_reads_the_character_offsets_of_spacy_spans(vocab):
    gold = as_spacy(vocab, GOLD)
    results = evaluate_links(gold, gold, schemes=["strong_all_match"], unit="char", per_doc=True)
    assert results["strong_all_match"].per_doc.tolist() == [[2, 0, 0], [1, 0, 0]]


def test_missing_none_and_empty_ids_are_nil_but_not_under_nel():
    assert [is_nil_id(x) for x in ("", "NIL", "NIL0042", "Q1", "nil")] == [True, True, True, False, False]
    gold = [[{"start": 0, "end": 1, "label": "PER"}, (2, 3, "PER", None), (4, 5, "PER")]]
    pred = [[(0, 1, "PER", "NIL7"), (2, 3, "PER", ""), (4, 5, "PER", "NIL")]]
    results = evaluate_links(gold, pred, schemes=["strong_nil_match", "strong_link_match", "nel"])
    assert results["strong_nil_match"].counts == {"tp": 3, "fp": 0, "fn": 0}
    assert results["strong_link_match"].counts == {"tp": 0, "fp": 0, "fn": 0}
    # nel: "" (missing, None) against "NIL7" FP + FN, "" against "" TP, "" against "NIL" FN
    assert results["nel"].counts == {"tp": 1, "fp": 1, "fn": 2}


def test_identical_spans_count_once():
    gold = [[(0, 1, "PER", "Q1"), (0, 1, "PER", "Q1")]]
    results = evaluate_links(gold, gold, schemes=["weak_all_match", "nel", "strong_typed_all_match"])
    assert {name: r.counts for name, r in results.items()} == {name: {"tp": 1, "fp": 0, "fn": 0} for name in results}


@pytest.mark.parametrize(
    "pred,message",
    [
        (
            [[], [(0, 1, "PER", "Q1"), (1, 2, "PER", 42)]],
            r"^Span 1 of pred document 1 has a kb_id of type int \(42\)\. Knowledge-base ids are strings",
        ),
        (
            [[], [{"start": 0, "end": 1, "label": "PER", "kb_id": ["Q1"]}]],
            r"^Span 0 of pred document 1 has a kb_id of type list \(\['Q1'\]\)",
        ),
        ([[], [(0, 1, "PER", "Q1"), (2, 1, "PER", "Q1")]], r"^Span 1 of pred document 1 has start=2, end=1"),
        ([[], [(0, 1, 7, "Q1")]], r"^Span 0 of pred document 1 has a label of type int"),
        ([[], [{"start": 0, "label": "PER"}]], r"^Span 0 of pred document 1 lacks 'end'"),
        ([[], [(0, 1)]], r"^Span 0 of pred document 1 is \(0, 1\)\. A linked span is"),
        ([[], "PER"], r"^Document 1 of the pred spans is a str, not a list of spans"),
    ],
    ids=["kb-int", "kb-list", "offsets", "label", "dict-key", "shape", "document"],
)
def test_bad_input_is_a_value_error_naming_the_document_and_span(pred, message):
    with pytest.raises(ValueError, match=message):
        evaluate_links([[], []], pred, schemes=["strong_all_match"])


def test_the_document_is_counted_across_batches():
    pred = [[]] * 5000 + [[(0, 1, "PER", 3.5)]]
    with pytest.raises(ValueError, match=r"^Span 0 of pred document 5000 has a kb_id of type float"):
        evaluate_links([[]] * 5001, pred, schemes=["nel"])


@pytest.mark.parametrize(
    "kwargs,message",
    [
        ({}, r"No 'schemes' given: name at least one link scheme\. Valid link schemes: strong_mention_match, "),
        ({"schemes": ["strong_all"]}, r"Unknown link scheme 'strong_all' in 'schemes'"),
        ({"schemes": ["strict"]}, r"'strict' in 'schemes' is a span scheme: score it with evaluate_spans"),
        ({"schemes": ["nel", "nel"]}, r"Scheme 'nel' is named twice"),
        ({"schemes": ["nel"], "unit": "word"}, r"Unknown unit 'word'"),
        ({"schemes": ["nel"], "negative_labels": "NIL"}, r"'negative_labels' must be a list of strings"),
        ({"schemes": ["nel"], "negative_labels": 0}, r"'negative_labels' must be a list of strings.*got 0"),
    ],
    ids=["none", "unknown", "span-scheme", "twice", "unit", "negative-labels", "negative-labels-int"],
)
def test_settings_are_checked(kwargs, message):
    with pytest.raises(ValueError, match=message):
        evaluate_links(GOLD, PRED, **kwargs)


def test_unequal_numbers_of_documents():
    with pytest.raises(ValueError, match=r"Unequal numbers of documents: 2 gold and 1 predicted"):
        evaluate_links(GOLD, PRED[:1], schemes=["nel"])


def test_results_add_up_and_round_trip():
    whole = evaluate_links(GOLD, PRED, schemes=LINK_SCHEMES)
    first = evaluate_links(GOLD[:1], PRED[:1], schemes=LINK_SCHEMES)
    second = evaluate_links(GOLD[1:], PRED[1:], schemes=LINK_SCHEMES)
    for name in LINK_SCHEMES:
        assert (first[name] + second[name]).totals == whole[name].totals
        back = SchemeResult.from_dict(whole[name].to_dict())
        assert back == whole[name]


def test_negative_labels_may_be_any_iterable():
    results = evaluate_links(
        [[(0, 1, "PER", "NIL")]], [[(0, 1, "PER", "X")]], schemes=["nel"], negative_labels=(x for x in ["NIL"])
    )
    assert results["nel"].counts == {"tp": 0, "fp": 1, "fn": 0}
