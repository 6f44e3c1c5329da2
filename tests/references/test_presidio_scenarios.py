"""The scenarios of Presidio Evaluator's "Span Matching Strategies" document
(the Presidio Evaluator documentation), one test each, under the
`iou` scheme.

Each expected value is written out by hand from the document and docs/definitions.md
§ iou: per label (TP, FP, FN), the confusion entries and the errors. Every
scenario is also run through Presidio's SpanEvaluator itself (token IoU, no
skip words): its per-type TP, num_predicted (= TP + FP) and num_annotated
(= TP + FN) must agree, and so must its confusion counts (its
`to_confusion_matrix()`), cell for cell, its double counts included (see
test_presidio_confusion_is_copied_double_counts_and_all).

Spans are (start, end exclusive, label) over the document's tokens; the
tag lists of the document are written next to them.

The document's "low overlap" is two kinds here: `wrong_boundaries` (a group
of the gold span's own label below the threshold) and `low_overlap`
(another label, below the threshold).
"""

import pytest

from spacy_spanf1 import evaluate_spans


def iou(gold, pred, threshold):
    return evaluate_spans([gold], [pred], schemes=["iou"], iou_threshold=threshold, keep_errors=True)["iou"]


def counts(res):
    return {label: (c.tp, c.fp, c.fn) for label, c in res.per_type.items()}


def check_presidio(presidio, tokens, gold, pred, threshold, res, *, confusion=True):
    ref, ref_confusion, _ = presidio([gold], [pred], [tokens], threshold)
    assert {label: (c.tp, c.tp + c.fp, c.tp + c.fn) for label, c in res.per_type.items()} == ref
    if confusion:
        assert res.confusion == dict(ref_confusion)


# --------------------------------------------------------------------------
# Basic overlap scenarios
# --------------------------------------------------------------------------


@pytest.mark.parametrize("threshold", [0.5, 0.75])
def test_1_exact_match(presidio, threshold):
    tokens = "John Smith visited Boston".split()
    gold = [(0, 2, "PERSON")]  # [PERSON, PERSON, O, O]
    pred = [(0, 2, "PERSON")]  # [PERSON, PERSON, O, O]
    res = iou(gold, pred, threshold)
    assert counts(res) == {"PERSON": (1, 0, 0)}
    assert res.confusion == {("PERSON", "PERSON"): 1}
    assert res.errors == ()
    assert (res.precision, res.recall, res.f1) == (1.0, 1.0, 1.0)
    check_presidio(presidio, tokens, gold, pred, threshold, res)


@pytest.mark.parametrize("threshold", [0.5, 0.75])
def test_2_missing_entity(presidio, threshold):
    tokens = "John Smith visited Boston".split()
    gold = [(0, 2, "PERSON"), (3, 4, "LOCATION")]  # [PERSON, PERSON, O, LOCATION]
    pred = [(0, 2, "PERSON")]  # [PERSON, PERSON, O, O]
    res = iou(gold, pred, threshold)
    # FN for "Boston".
    assert counts(res) == {"PERSON": (1, 0, 0), "LOCATION": (0, 0, 1)}
    assert res.confusion == {("PERSON", "PERSON"): 1, ("LOCATION", "O"): 1}
    assert [(e.kind, e.gold, e.pred, e.iou) for e in res.errors] == [("missed", (3, 4, "LOCATION"), (), 0.0)]
    # P = 1/1, R = 1/2, F = 2/3.
    assert (res.precision, res.recall) == (1.0, 0.5)
    assert res.f1 == pytest.approx(2 / 3)
    check_presidio(presidio, tokens, gold, pred, threshold, res)


@pytest.mark.parametrize("threshold", [0.5, 0.75])
def test_3_false_detection(presidio, threshold):
    tokens = "The report was filed yesterday".split()
    gold = []  # [O, O, O, O, O]
    pred = [(1, 2, "ORGANIZATION")]  # [O, ORGANIZATION, O, O, O]
    res = iou(gold, pred, threshold)
    # FP for "report".
    assert counts(res) == {"ORGANIZATION": (0, 1, 0)}
    assert res.confusion == {("O", "ORGANIZATION"): 1}
    assert [(e.kind, e.gold, e.pred) for e in res.errors] == [("spurious", None, ((1, 2, "ORGANIZATION"),))]
    assert (res.precision, res.recall, res.f1) == (0.0, 0.0, 0.0)
    check_presidio(presidio, tokens, gold, pred, threshold, res)


@pytest.mark.parametrize("threshold", [0.5, 0.75])
def test_4_type_mismatch(presidio, threshold):
    tokens = "New York is a city".split()
    gold = [(0, 2, "LOCATION")]  # [LOCATION, LOCATION, O, O, O]
    pred = [(0, 2, "ORGANIZATION")]  # [ORGANIZATION, ORGANIZATION, O, O, O]
    res = iou(gold, pred, threshold)
    # IoU 2/2 = 1.0 >= threshold, other type: FN for LOCATION, FP for
    # ORGANIZATION; a wrong type, so (LOCATION, ORGANIZATION) and no
    # (LOCATION, O).
    assert counts(res) == {"LOCATION": (0, 0, 1), "ORGANIZATION": (0, 1, 0)}
    assert res.confusion == {("LOCATION", "ORGANIZATION"): 1}
    assert [(e.kind, e.gold, e.pred, e.iou) for e in res.errors] == [
        ("wrong_type", (0, 2, "LOCATION"), ((0, 2, "ORGANIZATION"),), 1.0)
    ]
    check_presidio(presidio, tokens, gold, pred, threshold, res)


def test_5a_partial_match_same_type(presidio):
    tokens = "John Smith Johnson visited".split()
    gold = [(0, 3, "PERSON")]  # [PERSON, PERSON, PERSON, O]
    pred = [(0, 1, "PERSON")]  # [PERSON, O, O, O]
    res = iou(gold, pred, 0.75)
    # IoU = |{0}| / |{0, 1, 2}| = 1/3 < 0.75: FN and FP; num_predicted +1.
    assert counts(res) == {"PERSON": (0, 1, 1)}
    assert res.per_type["PERSON"].tp + res.per_type["PERSON"].fp == 1  # num_predicted
    assert res.confusion == {("PERSON", "O"): 1, ("O", "PERSON"): 1}
    [error] = res.errors
    assert (error.kind, error.gold, error.pred) == ("wrong_boundaries", (0, 3, "PERSON"), ((0, 1, "PERSON"),))
    assert error.iou == pytest.approx(1 / 3)
    check_presidio(presidio, tokens, gold, pred, 0.75, res)


def test_5b_partial_match_different_type(presidio):
    tokens = "New York Mets won".split()
    gold = [(0, 3, "ORGANIZATION")]  # [ORGANIZATION, ORGANIZATION, ORGANIZATION, O]
    pred = [(0, 1, "LOCATION")]  # [LOCATION, O, O, O]
    res = iou(gold, pred, 0.75)
    # The document says "IoU: 0.2"; over tokens it is 1/3 ("New" of
    # "New York Mets"; over characters 3/13 = 0.23). Below the threshold
    # either way: FN for ORGANIZATION, FP for LOCATION, a low overlap, not a
    # wrong type.
    assert counts(res) == {"ORGANIZATION": (0, 0, 1), "LOCATION": (0, 1, 0)}
    assert res.confusion == {("ORGANIZATION", "O"): 1, ("O", "LOCATION"): 1}
    [error] = res.errors
    assert (error.kind, error.gold, error.pred) == ("low_overlap", (0, 3, "ORGANIZATION"), ((0, 1, "LOCATION"),))
    assert error.iou == pytest.approx(1 / 3)
    check_presidio(presidio, tokens, gold, pred, 0.75, res)


# --------------------------------------------------------------------------
# Multiple span scenarios
# --------------------------------------------------------------------------

NEW_YORK_METS = (
    "New York Mets".split(),
    [(0, 3, "ORGANIZATION")],  # [ORGANIZATION, ORGANIZATION, ORGANIZATION]
    [(0, 1, "ORGANIZATION"), (2, 3, "ORGANIZATION")],  # [ORGANIZATION, O, ORGANIZATION]
)


def test_multiple_spans_same_type_threshold_0_5(presidio):
    tokens, gold, pred = NEW_YORK_METS
    res = iou(gold, pred, 0.5)
    # Combined IoU = |{0, 2}| / |{0, 1, 2}| = 2/3 >= 0.5: a match. The two
    # predictions form one group, one predicted unit: TP 1, FP 0.
    assert counts(res) == {"ORGANIZATION": (1, 0, 0)}
    assert res.confusion == {("ORGANIZATION", "ORGANIZATION"): 1}
    assert res.errors == ()
    assert (res.precision, res.recall) == (1.0, 1.0)
    check_presidio(presidio, tokens, gold, pred, 0.5, res)


def test_multiple_spans_same_type_threshold_0_75(presidio):
    tokens, gold, pred = NEW_YORK_METS
    res = iou(gold, pred, 0.75)
    # 2/3 < 0.75: a miss (FN), and the group is one FP.
    assert counts(res) == {"ORGANIZATION": (0, 1, 1)}
    assert res.confusion == {("ORGANIZATION", "O"): 1, ("O", "ORGANIZATION"): 1}
    [error] = res.errors
    assert (error.kind, error.gold, error.pred) == ("wrong_boundaries", gold[0], tuple(pred))
    assert error.iou == pytest.approx(2 / 3)
    check_presidio(presidio, tokens, gold, pred, 0.75, res)


def test_multiple_spans_of_different_types(presidio):
    tokens = "John Smith Johnson".split()
    gold = [(0, 3, "PERSON")]  # [PERSON, PERSON, PERSON]
    pred = [(0, 1, "PERSON"), (1, 2, "LOCATION"), (2, 3, "PERSON")]  # [PERSON, LOCATION, PERSON]
    res = iou(gold, pred, 0.5)
    # PERSON IoU = 2/3 >= 0.5: TP for PERSON. LOCATION IoU = 1/3: FP for
    # LOCATION, a low overlap (below the threshold), so (O, LOCATION), and
    # Presidio adds (PERSON, O) for a low group of another label although
    # PERSON is matched.
    assert counts(res) == {"PERSON": (1, 0, 0), "LOCATION": (0, 1, 0)}
    assert res.confusion == {("PERSON", "PERSON"): 1, ("O", "LOCATION"): 1, ("PERSON", "O"): 1}
    [error] = res.errors
    assert (error.kind, error.gold, error.pred) == ("low_overlap", gold[0], ((1, 2, "LOCATION"),))
    assert error.iou == pytest.approx(1 / 3)
    check_presidio(presidio, tokens, gold, pred, 0.5, res)


# --------------------------------------------------------------------------
# Real-world examples
# --------------------------------------------------------------------------


def test_example_1_complex_name_with_multiple_parts(presidio):
    # Six tokens, as the document's six tags need.
    tokens = ["Dr.", "Jane", "Smith-", "Johnson", ",", "PhD."]
    gold = [(0, 1, "TITLE"), (1, 4, "PERSON"), (5, 6, "TITLE")]  # [TITLE, PERSON, PERSON, PERSON, O, TITLE]
    pred = [(0, 1, "TITLE"), (1, 3, "PERSON")]  # [TITLE, PERSON, PERSON, O, O, O]
    res = iou(gold, pred, 0.5)
    # TP for "Dr."; PERSON IoU 2/3 >= 0.5: TP for "Jane Smith"; FN for "PhD.".
    assert counts(res) == {"TITLE": (1, 0, 1), "PERSON": (1, 0, 0)}
    assert res.confusion == {("TITLE", "TITLE"): 1, ("PERSON", "PERSON"): 1, ("TITLE", "O"): 1}
    assert [(e.kind, e.gold) for e in res.errors] == [("missed", (5, 6, "TITLE"))]
    # P = 2/2, R = 2/3.
    assert (res.precision, res.recall) == (1.0, pytest.approx(2 / 3))
    check_presidio(presidio, tokens, gold, pred, 0.5, res)


ADDRESS = (
    ["123", "Main", "Street,", "New", "York,", "NY", "10001"],
    [(0, 7, "ADDRESS")],  # [ADDRESS] * 7
    # [ADDRESS, ADDRESS, ADDRESS, LOCATION, LOCATION, LOCATION, ADDRESS]
    [(0, 3, "ADDRESS"), (3, 6, "LOCATION"), (6, 7, "ADDRESS")],
)


def test_example_2_address_combined_iou_above_threshold(presidio):
    tokens, gold, pred = ADDRESS
    res = iou(gold, pred, 0.5)
    # ADDRESS combined IoU = 4/7 = 0.57 >= 0.5: TP. LOCATION IoU = 3/7 =
    # 0.43 < 0.5: FP, a low overlap: (O, LOCATION) and (ADDRESS, O).
    assert counts(res) == {"ADDRESS": (1, 0, 0), "LOCATION": (0, 1, 0)}
    assert res.confusion == {("ADDRESS", "ADDRESS"): 1, ("O", "LOCATION"): 1, ("ADDRESS", "O"): 1}
    [error] = res.errors
    assert (error.kind, error.pred) == ("low_overlap", ((3, 6, "LOCATION"),))
    assert error.iou == pytest.approx(3 / 7)
    check_presidio(presidio, tokens, gold, pred, 0.5, res)


def test_example_2_address_combined_iou_below_threshold(presidio):
    tokens, gold, pred = ADDRESS
    res = iou(gold, pred, 0.75)
    # 4/7 < 0.75: FN for ADDRESS and the ADDRESS group is one FP;
    # LOCATION is an FP. The ADDRESS group comes first (its first span
    # starts first): (ADDRESS, O) and (O, ADDRESS); the low LOCATION group
    # adds (ADDRESS, O) again and (O, LOCATION).
    assert counts(res) == {"ADDRESS": (0, 1, 1), "LOCATION": (0, 1, 0)}
    assert res.confusion == {("ADDRESS", "O"): 2, ("O", "ADDRESS"): 1, ("O", "LOCATION"): 1}
    assert sorted((e.kind, e.pred, round(e.iou, 6)) for e in res.errors) == [
        ("low_overlap", ((3, 6, "LOCATION"),), round(3 / 7, 6)),
        ("wrong_boundaries", ((0, 3, "ADDRESS"), (6, 7, "ADDRESS")), round(4 / 7, 6)),
    ]
    check_presidio(presidio, tokens, gold, pred, 0.75, res)


def test_example_2_address_location_as_wrong_type(presidio):
    tokens, gold, pred = ADDRESS
    res = iou(gold, pred, 0.4)
    # At 0.4 both groups reach the threshold: TP for ADDRESS, and LOCATION
    # (3/7 = 0.43) is an FP of the wrong type: (ADDRESS, LOCATION).
    assert counts(res) == {"ADDRESS": (1, 0, 0), "LOCATION": (0, 1, 0)}
    assert res.confusion == {("ADDRESS", "ADDRESS"): 1, ("ADDRESS", "LOCATION"): 1}
    assert [e.kind for e in res.errors] == ["wrong_type"]
    check_presidio(presidio, tokens, gold, pred, 0.4, res)


# --------------------------------------------------------------------------
# Where Presidio 0.3.2's own bookkeeping is not copied
# --------------------------------------------------------------------------


def test_presidio_confusion_is_copied_double_counts_and_all(presidio):
    """The confusion cells are Presidio's `to_confusion_matrix()`: a group
    of another label below the threshold adds (gold, O) every time, even
    when the gold span is matched or already counted; a group of the gold's
    own label below the threshold adds (gold, O) only when it comes first.
    For the address at 0.75 that is (ADDRESS, O) twice, at 0.5 once
    although ADDRESS is a TP. docs/definitions.md § Confusion matrices."""
    tokens, gold, pred = ADDRESS
    for threshold, twice in ((0.75, 2), (0.5, 1)):
        _, ref_confusion, raw = presidio([gold], [pred], [tokens], threshold)
        assert ref_confusion[("ADDRESS", "O")] == twice
        res = iou(gold, pred, threshold)
        assert res.confusion[("ADDRESS", "O")] == twice
        labels, matrix = raw.to_confusion_matrix()
        assert (res.confusion.labels, res.confusion.matrix) == (labels, matrix)
    # The same group of the gold's own label below the threshold, after a
    # group of another label: (LOCATION, O) is counted by the LOCATION group
    # alone, once. gold ADDRESS over 0-6; LOCATION over 0-1 (IoU 1/7, low),
    # ADDRESS over 2-4 (IoU 2/7, low): (ADDRESS, O) once (the LOCATION
    # group), (O, LOCATION), (O, ADDRESS).
    tokens = [f"w{i}" for i in range(7)]
    gold, pred = [(0, 7, "ADDRESS")], [(0, 1, "LOCATION"), (2, 4, "ADDRESS")]
    res = iou(gold, pred, 0.5)
    assert res.confusion == {("ADDRESS", "O"): 1, ("O", "LOCATION"): 1, ("O", "ADDRESS"): 1}
    check_presidio(presidio, tokens, gold, pred, 0.5, res)
    # The other way round, the ADDRESS group first: it adds (ADDRESS, O)
    # as the first, and the low LOCATION group adds it again.
    pred = [(0, 2, "ADDRESS"), (3, 4, "LOCATION")]
    res = iou(gold, pred, 0.5)
    assert res.confusion == {("ADDRESS", "O"): 2, ("O", "LOCATION"): 1, ("O", "ADDRESS"): 1}
    check_presidio(presidio, tokens, gold, pred, 0.5, res)


def test_fn_is_annotated_minus_tp_when_another_type_comes_first(presidio):
    """gold PERSON over 3 tokens; LOCATION over the first, PERSON over the
    other two. Presidio takes the groups in order of start: the LOCATION
    group (IoU 1/3, low) counts the annotation as a false negative, then the
    PERSON group (IoU 2/3 >= 0.5) counts it as a true positive too. Its
    num_annotated stays 1, so its recall is TP / num_annotated = 1. docs/definitions.md:
    FN exactly when not TP, so FN = 0 (and TP + FN = num_annotated)."""
    tokens = "John Smith Johnson".split()
    gold = [(0, 3, "PERSON")]
    pred = [(0, 1, "LOCATION"), (1, 3, "PERSON")]
    res = iou(gold, pred, 0.5)
    assert counts(res) == {"PERSON": (1, 0, 0), "LOCATION": (0, 1, 0)}
    # the low LOCATION group: (O, LOCATION) and (PERSON, O), as Presidio counts it
    assert res.confusion == {("PERSON", "PERSON"): 1, ("O", "LOCATION"): 1, ("PERSON", "O"): 1}
    ref, ref_confusion, raw = presidio([gold], [pred], [tokens], 0.5)
    assert ref == {"PERSON": (1, 1, 1), "LOCATION": (0, 1, 0)}
    assert (raw.per_type["PERSON"].true_positives, raw.per_type["PERSON"].false_negatives) == (1, 1)
    assert res.confusion == dict(ref_confusion)
    check_presidio(presidio, tokens, gold, pred, 0.5, res, confusion=False)
