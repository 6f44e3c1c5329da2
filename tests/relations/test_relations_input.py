"""Bad relations and bad settings: one clear line each, naming what is
wrong, where, and what is valid."""

import pytest

from spacy_spanf1 import InputError, SettingError
from spacy_spanf1.relations import evaluate_relations

SPANS = [(0, 2, "PER"), (5, 8, "ORG")]
GOOD = [{"spans": SPANS, "relations": [(0, 1, "works_for")]}]


def score(gold, pred=None, **kw):
    kw.setdefault("schemes", ["rel_strict"])
    return evaluate_relations(gold, GOOD if pred is None else pred, **kw)


def one_line(error):
    text = str(error.value)
    assert "\n" not in text
    return text


@pytest.mark.parametrize(
    "relation,pattern",
    [
        (
            (0, 5, "works_for"),
            r"Relation 0 of gold document 0 \('works_for'\) names span 5 as its tail, which the "
            r"document lacks \(it has spans 0 to 1\)",
        ),
        ({"head": -1, "tail": 1, "label": "r"}, r"names span -1 as its head"),
        ({"head": 0, "tail": 1}, r"Relation 0 of gold document 0 has no label"),
        ((0, 1, None), r"has no label"),
        ((0, 1, ""), r"has no label"),
        ((0, 1, 7), r"has a label of type int"),
        ({"head": 0, "label": "r"}, r"lacks 'tail'"),
        (("0", 1, "r"), r"has head '0': it must be the index of a span"),
        ((0, 1), r"is \(0, 1\)\. A relation is a"),
        ((1, 1, "works_for"), r"joins the span \(5, 8, 'ORG'\) to itself"),
    ],
)
def test_bad_relations(relation, pattern):
    with pytest.raises(InputError, match=pattern) as error:
        score([{"spans": SPANS, "relations": [relation]}])
    one_line(error)


def test_two_indices_of_one_span_are_a_self_relation():
    with pytest.raises(InputError, match=r"Relation 0 \('r'\) of pred document 1 joins the span \(0, 2, 'PER'\)"):
        score(GOOD * 2, [GOOD[0], {"spans": SPANS + [(0, 2, "PER")], "relations": [(0, 2, "r")]}])


def test_a_document_without_spans_names_the_shape():
    with pytest.raises(InputError, match=r"Document 0 of the gold side has no 'spans': its keys are 'relations'"):
        score([{"relations": []}])
    with pytest.raises(InputError, match=r"Document 0 of the gold side is a list"):
        score([SPANS])
    with pytest.raises(InputError, match=r"The 'relations' of gold document 0 are 'r'"):
        score([{"spans": SPANS, "relations": "r"}])


def test_a_bad_span_is_named():
    with pytest.raises(ValueError, match=r"Span 1 of gold document 0"):
        score([{"spans": [(0, 2, "PER"), (5, 4, "ORG")], "relations": []}])


def test_no_relations_is_fine():
    r = score([{"spans": SPANS}], [{"spans": SPANS, "relations": []}])["rel_strict"]
    assert r.totals.to_dict() == {"tp": 0, "fp": 0, "fn": 0}


@pytest.mark.parametrize(
    "settings,pattern",
    [
        (dict(schemes=None), r"No 'schemes' given: name at least one relation scheme\. Valid schemes: rel_strict"),
        (dict(schemes=["strict"]), r"names no relation scheme \('strict'\)"),
        (dict(schemes=["rel_strict", "rel_loose"]), r"Unknown scheme 'rel_loose'.*Valid schemes: rel_strict"),
        (dict(schemes=["rel_strict", "nel"]), r"'nel' in 'schemes' is a link scheme"),
        (dict(schemes="rel_strict,rel_strict"), r"'rel_strict' is named twice"),
        (dict(symmetric="sibling_of"), r"'symmetric' must be a list of label strings"),
        (dict(relation_labels=[]), r"'relation_labels' is empty"),
        (dict(overlap_threshold=0), r"'overlap_threshold' must be in \(0, 1\]"),
        (dict(unit="word"), r"Unknown unit 'word'"),
    ],
)
def test_bad_settings(settings, pattern):
    with pytest.raises(SettingError, match=pattern) as error:
        score(GOOD, **settings)
    one_line(error)


def test_unequal_numbers_of_documents():
    with pytest.raises(ValueError, match=r"Unequal numbers of documents: 2 gold and 1 predicted"):
        score(GOOD * 2)
