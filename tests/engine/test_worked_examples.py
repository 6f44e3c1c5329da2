"""The README's worked example, computed by hand.

Tokens: Ann(0) Lee(1) flew(2) to(3) New(4) York(5)
gold: PER "Ann Lee" (0, 2), LOC "New York" (4, 6)
pred: PER "Ann"     (0, 1), ORG "New York" (4, 6)
"""

import pytest

from spacy_spanf1 import SCHEMES, evaluate_spans

GOLD = [[(0, 2, "PER"), (4, 6, "LOC")]]
PRED = [[(0, 1, "PER"), (4, 6, "ORG")]]

EXPECTED = {
    # PER overlaps, boundaries differ -> INC; ORG same boundaries, other label -> INC
    "strict": ({"cor": 0, "inc": 2, "par": 0, "mis": 0, "spu": 0}, 0.0, 0.0, 0.0),
    # label ignored: ORG has the gold boundaries -> COR; PER -> INC. P = R = 1/2
    "exact": ({"cor": 1, "inc": 1, "par": 0, "mis": 0, "spu": 0}, 0.5, 0.5, 0.5),
    # PER overlaps -> PAR (half credit); ORG -> COR. P = R = (1 + 0.5) / 2
    "partial": ({"cor": 1, "inc": 0, "par": 1, "mis": 0, "spu": 0}, 0.75, 0.75, 0.75),
    # PER overlaps with the same label -> COR; ORG overlaps, other label -> INC
    "type": ({"cor": 1, "inc": 1, "par": 0, "mis": 0, "spu": 0}, 0.5, 0.5, 0.5),
    # PER: IoU 1/2 >= 0.5 -> TP; LOC: ORG group IoU 1.0 -> FP(ORG), FN(LOC)
    "iou": ({"tp": 1, "fp": 1, "fn": 1}, 0.5, 0.5, 0.5),
    # PER: covers 1/2 of gold and 1/1 of prediction -> TP; LOC/ORG differ -> FN, FP
    "overlap": ({"tp": 1, "fp": 1, "fn": 1}, 0.5, 0.5, 0.5),
}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_readme_worked_example(scheme):
    result = evaluate_spans(GOLD, PRED, schemes=[scheme])[scheme]
    counts, p, r, f = EXPECTED[scheme]
    assert result.counts == counts
    assert result.precision == pytest.approx(p)
    assert result.recall == pytest.approx(r)
    assert result.f1 == pytest.approx(f)


def test_iou_records_the_wrong_type_error():
    result = evaluate_spans(GOLD, PRED, schemes=["iou"], keep_errors=True)["iou"]
    assert result.confusion == {("PER", "PER"): 1, ("LOC", "ORG"): 1}
    (error,) = result.errors
    assert (error.doc, error.kind, error.gold, error.pred, error.iou) == (
        0,
        "wrong_type",
        (4, 6, "LOC"),
        ((4, 6, "ORG"),),
        1.0,
    )
