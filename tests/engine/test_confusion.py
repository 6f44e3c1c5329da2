"""Confusion matrices: the cells of every scheme computed by hand, what
they add up to (docs/definitions.md § Confusion matrices), on generated
corpora with nested spans and labels on one side only, and the Confusion
object itself (matrix, JSON, merging, pickling, DataFrame).

`iou`'s cells are compared with presidio-evaluator's to_confusion_matrix()
in tests/references (test_references.py, test_presidio_scenarios.py).
"""

import functools
import json
import pickle
import random
from collections import Counter

import pytest

from spacy_spanf1 import SCHEMES, evaluate_spans
from spacy_spanf1.engine.confusion import Confusion
from spacy_spanf1.engine.result import SchemeResult
from spacy_spanf1.engine.scorer import SpanScorer

SEMEVAL = ["strict", "exact", "partial", "type"]

# The README's worked example. Tokens: Ann(0) Lee(1) flew(2) to(3) New(4) York(5)
GOLD = [[(0, 2, "PER"), (4, 6, "LOC")]]
PRED = [[(0, 1, "PER"), (4, 6, "ORG")]]

HAND = {
    # PER (0, 1) over gold PER (0, 2): INC with other boundaries, a boundary
    # error: (PER, O) and (O, PER). ORG over LOC with its exact boundaries:
    # INC, a pure label error: (LOC, ORG).
    "strict": {("PER", "O"): 1, ("O", "PER"): 1, ("LOC", "ORG"): 1},
    # ORG has the gold boundaries: COR, (LOC, ORG); PER: INC, boundaries differ.
    "exact": {("LOC", "ORG"): 1, ("PER", "O"): 1, ("O", "PER"): 1},
    # ORG: COR, (LOC, ORG); PER: PAR, (PER, PER).
    "partial": {("LOC", "ORG"): 1, ("PER", "PER"): 1},
    # PER overlaps with its own label: COR, (PER, PER); ORG overlaps LOC: INC, (LOC, ORG).
    "type": {("PER", "PER"): 1, ("LOC", "ORG"): 1},
    # PER: IoU 1/2 >= 0.5, TP; ORG over LOC, IoU 1: wrong type, (LOC, ORG).
    "iou": {("PER", "PER"): 1, ("LOC", "ORG"): 1},
    # PER: matched; LOC unmatched (FN) and ORG unmatched (FP).
    "overlap": {("PER", "PER"): 1, ("LOC", "O"): 1, ("O", "ORG"): 1},
}


@pytest.mark.parametrize("scheme", SCHEMES)
def test_worked_example_cells_by_hand(scheme):
    confusion = evaluate_spans(GOLD, PRED, schemes=[scheme])[scheme].confusion
    assert confusion == HAND[scheme]
    assert confusion.labels == ["LOC", "ORG", "PER", "O"]
    assert sum(map(sum, confusion.matrix)) == sum(HAND[scheme].values())


def test_worked_example_strict_matrix():
    confusion = evaluate_spans(GOLD, PRED, schemes=["strict"])["strict"].confusion
    # rows gold, columns predicted:   LOC ORG PER O
    assert confusion.matrix == [
        [0, 1, 0, 0],  # LOC
        [0, 0, 0, 0],  # ORG (never gold)
        [0, 0, 0, 1],  # PER
        [0, 0, 1, 0],
    ]  # O
    assert confusion[("LOC", "ORG")] == 1 and ("LOC", "LOC") not in confusion


def test_type_diagonal_is_the_pairing_s_cor_not_the_per_label_tables():
    """gold A (0, 3); predictions B (0, 1) and A (2, 3). Under `type` the
    one-to-one pairing takes B first: no gold of its label overlaps it, so it
    is INC with gold A, which is then taken; A (2, 3) finds no free gold: SPU.
    COR = 0, INC = 1, SPU = 1 (nervaluate's ent_type counts). Label A's own
    table pairs A (2, 3) with gold A: COR 1. The matrix shows the pairing:
    (A, B) = 1, (O, A) = 1, diagonal 0, its trace the total COR (0), not the
    sum of the per-label tables' COR (1)."""
    from nervaluate import Evaluator

    gold, pred = [[(0, 3, "A")]], [[(0, 1, "B"), (2, 3, "A")]]
    result = evaluate_spans(gold, pred, schemes=["type"])["type"]
    assert result.counts == {"cor": 0, "inc": 1, "par": 0, "mis": 0, "spu": 1}
    ref = Evaluator(
        [[{"start": 0, "end": 2, "label": "A"}]],
        [[{"start": 0, "end": 0, "label": "B"}, {"start": 2, "end": 2, "label": "A"}]],
        tags=["A", "B"],
        loader="dict",
    ).evaluate()
    overall = ref["overall"]["ent_type"]
    assert (overall.correct, overall.incorrect, overall.spurious) == (0, 1, 1)
    assert result.per_type["A"].cor == 1
    assert result.confusion == {("A", "B"): 1, ("O", "A"): 1}
    assert sum(result.confusion.diagonal().values()) == result.totals.cor == 0


# --------------------------------------------------------------------------
# What the cells add up to, on generated corpora
# --------------------------------------------------------------------------


def random_doc(rng, length, labels, nested):
    spans = set()
    for _ in range(rng.randint(0, 4)):
        start = rng.randrange(length)
        spans.add((start, min(length, start + rng.randint(1, 4)), rng.choice(labels)))
    if not nested:  # keep the spans apart, first come first kept
        kept, end = [], -1
        for span in sorted(spans):
            if span[0] >= end:
                kept.append(span)
                end = span[1]
        spans = set(kept)
    return sorted(spans)


@functools.cache
def generated(seed, nested):
    """Gold labels A, B, C; predicted labels B, C, D: A only in gold, D only
    in predictions."""
    rng = random.Random(seed)
    gold, pred = [], []
    for _ in range(300):
        length = rng.randint(2, 15)
        gold.append(random_doc(rng, length, "ABC", nested))
        pred.append(random_doc(rng, length, "BCD", nested))
    return gold, pred


CORPORA = [(seed, nested) for seed in (1, 2) for nested in (False, True)]
SETTINGS = [{}, {"min_overlap": 0.5, "overlap_threshold": 0.3}]


def label_counts(docs):
    return Counter(span[2] for doc in docs for span in doc)


@pytest.mark.parametrize("settings", SETTINGS, ids=["default", "thresholds"])
@pytest.mark.parametrize("seed,nested", CORPORA)
def test_rows_and_columns_add_up_to_the_spans(seed, nested, settings):
    gold, pred = generated(seed, nested)
    results = evaluate_spans(gold, pred, schemes=list(SCHEMES), **settings)
    n_gold, n_pred = label_counts(gold), label_counts(pred)
    assert set(n_gold) == set("ABC") and set(n_pred) == set("BCD")
    for scheme in SEMEVAL + ["overlap"]:
        confusion = results[scheme].confusion
        assert confusion.labels == ["A", "B", "C", "D", "O"], scheme
        rows, columns = confusion.row_sums(), confusion.column_sums()
        # each gold span is in one cell of its row, each prediction in one
        # cell of its column; O/O is always 0
        assert {label: n for label, n in rows.items() if n and label != "O"} == n_gold, scheme
        assert {label: n for label, n in columns.items() if n and label != "O"} == n_pred, scheme
        assert ("O", "O") not in confusion
        assert confusion.matrix[-1][-1] == 0


@pytest.mark.parametrize("settings", SETTINGS, ids=["default", "thresholds"])
@pytest.mark.parametrize("seed,nested", CORPORA)
def test_cells_add_up_to_the_scheme_s_counts(seed, nested, settings):
    gold, pred = generated(seed, nested)
    results = evaluate_spans(gold, pred, schemes=list(SCHEMES), **settings)
    for scheme in SEMEVAL:
        result = results[scheme]
        c, confusion = result.totals, result.confusion
        o_row = sum(n for (g, _), n in confusion.items() if g == "O")
        o_column = sum(n for (_, p), n in confusion.items() if p == "O")
        labelled = sum(n for (g, p), n in confusion.items() if "O" not in (g, p))
        off_diagonal = sum(n for (g, p), n in confusion.items() if "O" not in (g, p) and g != p)
        trace = sum(confusion.diagonal().values())
        # a boundary error (INC of strict / exact whose boundaries differ)
        # is in the O row and the O column, every other pair in a labelled cell
        split = {"strict": c.inc - off_diagonal, "exact": c.inc, "partial": 0, "type": 0}[scheme]
        assert (o_row, o_column) == (c.spu + split, c.mis + split), scheme
        assert labelled == c.cor + c.inc + c.par - split, scheme
        if scheme in ("strict", "type"):
            assert trace == c.cor, scheme
            assert off_diagonal == c.inc - split, scheme
    # strict: the diagonal is COR per label (of the label's own table too)
    strict = results["strict"]
    assert strict.confusion.diagonal() == {label: c.cor for label, c in sorted(strict.per_type.items())}
    assert 0 < strict.totals.cor and 0 < strict.totals.inc
    # strict has both kinds of INC: pure label errors and boundary errors
    assert 0 < sum(n for (g, p), n in strict.confusion.items() if "O" not in (g, p) and g != p) < strict.totals.inc
    # overlap: diagonal TP, O column FN, O row FP, per label
    for label, c in results["overlap"].per_type.items():
        confusion = results["overlap"].confusion
        assert (confusion.get((label, label), 0), confusion.get((label, "O"), 0), confusion.get(("O", label), 0)) == (
            c.tp,
            c.fn,
            c.fp,
        )
    # iou: the diagonal is TP per label
    iou = results["iou"]
    assert iou.confusion.diagonal() == {label: c.tp for label, c in sorted(iou.per_type.items())}


@pytest.mark.parametrize("seed,nested", CORPORA)
def test_batches_merge_to_the_whole(seed, nested):
    gold, pred = generated(seed, nested)
    whole = evaluate_spans(gold, pred, schemes=list(SCHEMES))
    first = evaluate_spans(gold[:120], pred[:120], schemes=list(SCHEMES))
    second = evaluate_spans(gold[120:], pred[120:], schemes=list(SCHEMES))
    scorer = SpanScorer(list(SCHEMES), batch_size=37)
    for g, p in zip(gold, pred):
        scorer.add(g, p)
    batched = scorer.results()
    for scheme in SCHEMES:
        assert (first[scheme] + second[scheme]).confusion == whole[scheme].confusion, scheme
        assert first[scheme].confusion + second[scheme].confusion == whole[scheme].confusion, scheme
        assert batched[scheme].confusion == whole[scheme].confusion, scheme


# --------------------------------------------------------------------------
# The Confusion object
# --------------------------------------------------------------------------


def test_a_confusion_equals_a_dict_of_its_cells_and_drops_zeros():
    confusion = Confusion({("B", "A"): 2, ("A", "A"): 1, ("A", "O"): 0, ("O", "B"): 3})
    assert confusion == {("A", "A"): 1, ("B", "A"): 2, ("O", "B"): 3}
    assert {("A", "A"): 1, ("B", "A"): 2, ("O", "B"): 3} == confusion
    assert confusion != {("A", "A"): 1}
    assert len(confusion) == 3 and ("A", "O") not in confusion
    assert list(confusion) == [("A", "A"), ("B", "A"), ("O", "B")]
    assert confusion.labels == ["A", "B", "O"]
    assert confusion.matrix == [[1, 0, 0], [2, 0, 0], [0, 3, 0]]
    # labels with no cell are shown when asked for; "O" is always last
    assert Confusion({("Z", "O"): 1}, labels=["M"]).labels == ["M", "Z", "O"]
    assert Confusion().labels == ["O"] and Confusion().matrix == [[0]]


def test_a_confusion_reads_back_what_it_wrote_and_the_older_rows():
    confusion = Confusion({("PER", "PER"): 4, ("LOC", "ORG"): 1, ("O", "ORG"): 2}, labels=["MISC"])
    data = json.loads(json.dumps(confusion.to_dict()))
    assert data == {
        "labels": ["LOC", "MISC", "ORG", "PER", "O"],
        "matrix": [[0, 0, 1, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 4, 0], [0, 0, 2, 0, 0]],
    }
    back = Confusion.from_dict(data)
    assert back == confusion and back.labels == confusion.labels and back.to_dict() == data
    rows = [["LOC", "ORG", 1], ["O", "ORG", 2], ["PER", "PER", 4]]
    assert Confusion.from_dict(rows) == confusion
    with pytest.raises(ValueError, match="rows of"):
        Confusion.from_dict({"labels": ["A", "O"], "matrix": [[1, 0]]})


def test_a_confusion_adds_transposes_and_pickles():
    a = Confusion({("A", "A"): 1, ("A", "O"): 2})
    b = Confusion({("A", "A"): 3, ("O", "B"): 1}, labels=["C"])
    assert a + b == {("A", "A"): 4, ("A", "O"): 2, ("O", "B"): 1}
    assert (a + b).labels == ["A", "B", "C", "O"]
    assert {("A", "A"): 1} + a == {("A", "A"): 2, ("A", "O"): 2}
    assert a.transposed() == {("A", "A"): 1, ("O", "A"): 2}
    assert a.transposed().transposed() == a
    back = pickle.loads(pickle.dumps(b))
    assert back == b and back.labels == b.labels


def test_a_confusion_as_a_data_frame():
    pandas = pytest.importorskip("pandas")
    frame = Confusion({("A", "B"): 2, ("O", "A"): 1}).to_frame()
    expected = pandas.DataFrame([[0, 2, 0], [0, 0, 0], [1, 0, 0]], index=["A", "B", "O"], columns=["A", "B", "O"])
    assert frame.values.tolist() == expected.values.tolist()
    assert list(frame.index) == ["A", "B", "O"] and list(frame.columns) == ["A", "B", "O"]
    assert (frame.index.name, frame.columns.name) == ("gold", "predicted")


@pytest.mark.parametrize("scheme", SCHEMES)
def test_a_scheme_result_writes_and_reads_its_confusion(scheme):
    gold, pred = generated(1, True)
    result = evaluate_spans(gold, pred, schemes=[scheme])[scheme]
    data = json.loads(json.dumps(result.to_dict()))
    assert data["confusion"] == result.confusion.to_dict()
    back = SchemeResult.from_dict(data)
    assert back == result and back.confusion == result.confusion
    assert pickle.loads(pickle.dumps(result)).confusion == result.confusion
    # a result built with a plain dict of cells holds a Confusion
    plain = SchemeResult(scheme, result.totals, result.per_label, dict(result.confusion))
    assert isinstance(plain.confusion, Confusion) and plain == result


def test_a_label_map_s_confusion_is_that_of_the_data_renamed_by_hand():
    """The matrix names the mapped labels: PERSON -> PER on the predicted
    side, NORP dropped; the same as renaming the predictions first."""
    gold = [[(0, 2, "PER"), (4, 6, "LOC")]]
    pred = [[(0, 2, "PERSON"), (4, 6, "GPE"), (7, 8, "NORP")]]
    renamed = [[(0, 2, "PER"), (4, 6, "GPE")]]
    mapped = evaluate_spans(
        gold, pred, schemes=list(SCHEMES), label_map={"pred": {"PERSON": "PER", "GPE": "GPE", "NORP": None}}
    )
    by_hand = evaluate_spans(gold, renamed, schemes=list(SCHEMES))
    for scheme in SCHEMES:
        assert mapped[scheme].confusion == by_hand[scheme].confusion, scheme
    # strict: PER matched; LOC predicted as GPE with its boundaries
    assert mapped["strict"].confusion == {("PER", "PER"): 1, ("LOC", "GPE"): 1}
