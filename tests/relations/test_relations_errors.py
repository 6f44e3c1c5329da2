"""Error records of the relation schemes, by hand: each missed and each
spurious relation with its arguments' texts and which argument found no
match under the span scheme."""

from spacy_spanf1.relations import RelationError, evaluate_relations, relation_errors
from spacy_spanf1.spans import Span

TEXT = "Ada Lovelace met Charles Babbage in London."
ADA, CHARLES, LONDON = Span(0, 12, "PER"), Span(17, 32, "PER"), Span(36, 42, "LOC")
GOLD = [{"text": TEXT, "spans": [ADA, CHARLES, LONDON], "relations": [(0, 1, "met"), (1, 2, "in")]}]


def test_which_argument_failed():
    # Ada cut short, Charles right, London right; in reversed
    pred = [{"text": TEXT, "spans": [(0, 3, "PER"), CHARLES, LONDON], "relations": [(0, 1, "met"), (2, 1, "in")]}]
    found = relation_errors(GOLD, pred, schemes=["rel_strict", "rel_partial"], unit="char")
    ada = Span(0, 3, "PER")
    # by document, missed first, then by head
    assert found["rel_strict"] == [
        RelationError(0, "missed", "met", ADA, CHARLES, ("head",), "Ada Lovelace", "Charles Babbage"),
        RelationError(0, "missed", "in", CHARLES, LONDON, (), "Charles Babbage", "London"),
        RelationError(0, "spurious", "met", ada, CHARLES, ("head",), "Ada", "Charles Babbage"),
        RelationError(0, "spurious", "in", LONDON, CHARLES, (), "London", "Charles Babbage"),
    ]
    # under partial, Ada is Ada Lovelace's match: only the reversed in is wrong
    assert [(e.kind, e.label, e.unmatched) for e in found["rel_partial"]] == [
        ("missed", "in", ()),
        ("spurious", "in", ()),
    ]
    # as many errors as FP + FN
    result = evaluate_relations(GOLD, pred, schemes=["rel_strict"])["rel_strict"]
    assert len(found["rel_strict"]) == result.totals.fp + result.totals.fn


def test_no_text_no_texts():
    pred = [{"spans": [ADA, CHARLES], "relations": []}]
    gold = [{"spans": [ADA, LONDON], "relations": [(0, 1, "in")]}]
    [error] = relation_errors(gold, pred, schemes=["rel_exact"])["rel_exact"]
    assert error == RelationError(0, "missed", "in", ADA, LONDON, ("tail",))
