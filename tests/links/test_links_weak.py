"""`weak_all_match` by hand: a prediction is a TP when it overlaps a gold
span with the same kb id, paired one-to-one as the `type` scheme pairs
(exact place and id first, then the closest overlapping gold span of the
same id; a prediction over gold spans of other ids only takes the first
of them). NIL ids are one id. Per type: each type's spans alone."""

import pytest

from spacy_spanf1.links import evaluate_links


def weak(gold, pred, **kw):
    return evaluate_links(gold, pred, schemes=["weak_all_match"], **kw)["weak_all_match"]


@pytest.mark.parametrize(
    "gold,pred,counts",
    [
        # overlap and the same id: TP (strong_all_match would count FP + FN)
        ([(0, 3, "PER", "Q1")], [(1, 4, "PER", "Q1")], (1, 0, 0)),
        # overlap, another id: FP and FN
        ([(0, 3, "PER", "Q1")], [(1, 4, "PER", "Q2")], (0, 1, 1)),
        # no overlap (end exclusive: 3 and 3 do not meet): FP and FN
        ([(0, 3, "PER", "Q1")], [(3, 5, "PER", "Q1")], (0, 1, 1)),
        # the type does not matter
        ([(0, 3, "PER", "Q1")], [(0, 2, "ORG", "Q1")], (1, 0, 0)),
        # two predictions over one gold span: one-to-one, the exact one wins
        ([(0, 4, "PER", "Q1")], [(0, 2, "PER", "Q1"), (0, 4, "PER", "Q1")], (1, 1, 0)),
        # one prediction over two gold spans of its id: the closest (|Δstart| + |Δend|)
        # 0-2 is at distance 0 + 3 = 3, 3-5 at 3 + 0 = 3: a tie, the first; one TP, one FN
        ([(0, 2, "PER", "Q1"), (3, 5, "PER", "Q1")], [(0, 5, "PER", "Q1")], (1, 0, 1)),
        # NIL ids are one id: NIL over NIL0042 and a missing id matches
        ([(0, 2, "PER", "NIL0042"), (4, 6, "LOC", None)], [(0, 3, "PER", "NIL"), (4, 5, "LOC", "")], (2, 0, 0)),
        # a prediction over a gold span of another id takes it (the type scheme's INC):
        # the second prediction, of the gold span's id, finds it taken
        ([(2, 6, "PER", "Q1")], [(0, 3, "PER", "Q2"), (4, 8, "PER", "Q1")], (0, 2, 1)),
        # the same place twice with two ids, in gold: each prediction its own
        ([(0, 2, "PER", "Q1"), (0, 2, "PER", "Q2")], [(0, 3, "PER", "Q2"), (1, 2, "PER", "Q1")], (2, 0, 0)),
    ],
    ids=["overlap", "other-id", "touching", "other-type", "one-to-one", "closest", "nil", "taken", "two-ids"],
)
def test_weak_all_match_by_hand(gold, pred, counts):
    c = weak([gold], [pred]).totals
    assert (c.tp, c.fp, c.fn) == counts


def test_per_type_and_per_document():
    gold = [[(0, 3, "PER", "Q1"), (5, 7, "ORG", "Q2")], [(0, 1, "PER", "Q3")]]
    pred = [[(1, 4, "ORG", "Q1"), (5, 6, "ORG", "Q2")], [(0, 1, "PER", "Q4")]]
    result = weak(gold, pred, per_doc=True)
    # micro: doc 0 two TPs (the type does not matter), doc 1 FP and FN
    assert result.counts == {"tp": 2, "fp": 1, "fn": 1}
    assert result.per_doc.tolist() == [[2, 0, 0], [0, 1, 1]]
    # per type, each type alone: PER gold 0-3/Q1 and 0-1/Q3 against PER prediction 0-1/Q4;
    # ORG gold 5-7/Q2 against ORG predictions 1-4/Q1 and 5-6/Q2
    assert {label: c.to_dict() for label, c in result.per_label.items()} == {
        "ORG": {"tp": 1, "fp": 1, "fn": 0},
        "PER": {"tp": 0, "fp": 1, "fn": 2},
    }


def test_overlapping_documents_are_paired_by_the_engines_reference():
    # spans of one side overlap each other: the per-document pairing, same rules
    gold = [[(0, 4, "PER", "Q1"), (2, 6, "PER", "Q2")]] * 2
    pred = [[(1, 3, "PER", "Q2"), (3, 5, "PER", "Q1")], [(1, 3, "PER", "Q1")]]
    # doc 0: 1-3/Q2 overlaps 0-4/Q1 and 2-6/Q2: the closest of its id, 2-6 (TP); 3-5/Q1 then 0-4 (TP)
    # doc 1: 1-3/Q1 overlaps 0-4/Q1 (TP); 2-6/Q2 missed
    assert weak(gold, pred, per_doc=True).per_doc.tolist() == [[2, 0, 0], [1, 0, 1]]
