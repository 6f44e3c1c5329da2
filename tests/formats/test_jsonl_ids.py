"""JSONL documents pair by "id" when both files have ids (docs/formats.md,
"Pairing"): reordered predictions score as in order, a gold id without a
prediction predicts nothing (noted), a predicted id that is not gold, a
repeated id and a record without an id among records with ids are errors
naming the lines; the texts are still checked."""

import pytest

from helpers import jsonl, write
from spacy_spanf1.api import compare_files
from spacy_spanf1.formats import InputError

ANN = {"text": "Ann Lee flew.", "spans": [{"start": 0, "end": 7, "label": "PER"}]}
ACME = {
    "text": "Acme hired Bo.",
    "spans": [{"start": 0, "end": 4, "label": "ORG"}, {"start": 11, "end": 13, "label": "PER"}],
}
PARIS = {
    "text": "Paris, then Rome.",
    "spans": [{"start": 0, "end": 5, "label": "LOC"}, {"start": 12, "end": 16, "label": "LOC"}],
}
#: The predictions: Ann right; Acme right, Bo missed; Paris right, Rome as PER.
P_ANN = dict(ANN)
P_ACME = {"text": ACME["text"], "spans": [{"start": 0, "end": 4, "label": "ORG"}]}
P_PARIS = {
    "text": PARIS["text"],
    "spans": [{"start": 0, "end": 5, "label": "LOC"}, {"start": 12, "end": 16, "label": "PER"}],
}


def _with_id(record, doc_id):
    return {"id": doc_id, **record}


def _files(tmp_path, gold, pred):
    return write(tmp_path / "g.jsonl", jsonl(*gold)), write(tmp_path / "p.jsonl", jsonl(*pred))


def test_reordered_predictions_with_ids_score_as_in_order(tmp_path):
    """strict by hand: gold 5 spans (1 + 2 + 2), predicted 4; correct: Ann,
    Acme, Paris = 3; Rome is labelled wrong (1 FP, 1 FN); Bo missed (FN).
    P = 3/4, R = 3/5, whichever order the predictions come in."""
    gold = [_with_id(ANN, 1), _with_id(ACME, 2), _with_id(PARIS, "c")]
    pred = [_with_id(P_PARIS, "c"), _with_id(P_ANN, 1), _with_id(P_ACME, 2)]
    g, p = _files(tmp_path, gold, pred)
    scores = compare_files(g, p, schemes="strict")
    strict = scores.results["strict"]
    assert (strict.precision, strict.recall) == (3 / 4, 3 / 5)
    assert scores.documents == 3


def test_integer_and_string_ids_are_one_key(tmp_path):
    """An integer id 1 and the string "1" are the same document (str())."""
    g, p = _files(tmp_path, [_with_id(ANN, 1), _with_id(ACME, 2)], [_with_id(P_ACME, "2"), _with_id(P_ANN, "1")])
    assert compare_files(g, p, schemes="strict").results["strict"].counts["cor"] == 2


def test_gold_id_without_prediction_predicts_nothing_and_is_noted(tmp_path):
    g, p = _files(tmp_path, [_with_id(ANN, 1), _with_id(ACME, 2)], [_with_id(P_ANN, 1)])
    scores = compare_files(g, p, schemes="strict")
    strict = scores.results["strict"]
    assert (strict.counts["cor"], strict.counts["mis"]) == (1, 2)  # Acme and Bo missed
    assert scores.notes["pred"]["missing_documents"]["count"] == 1
    with pytest.raises(InputError, match=r"line 2 of .*g\.jsonl has no predicted document"):
        compare_files(g, p, schemes="strict", missing_pred="error")


@pytest.mark.parametrize("extra_id", [9, 2])
def test_predicted_id_not_in_gold_is_an_error(tmp_path, extra_id):
    g, p = _files(tmp_path, [_with_id(ANN, 1)], [_with_id(P_ANN, 1), _with_id(P_ACME, extra_id)])
    with pytest.raises(InputError, match=rf"p\.jsonl:2: line 2 \(\"id\" '{extra_id}'\) is not in .*g\.jsonl"):
        compare_files(g, p, schemes="strict")


def _on_side(tmp_path, side, records, other):
    """The files of records on side ("gold" or "pred") and other on the
    other side, and the stem of the file of records."""
    g, p = _files(tmp_path, *((records, other) if side == "gold" else (other, records)))
    return g, p, "g" if side == "gold" else "p"


@pytest.mark.parametrize("side", ["gold", "pred"])
def test_repeated_id_is_an_error_naming_both_lines(tmp_path, side):
    records = [_with_id(ANN, "a"), _with_id(ACME, "b"), _with_id(PARIS, "a")]
    other = [_with_id(ANN, "a"), _with_id(ACME, "b"), _with_id(PARIS, "c")]
    g, p, name = _on_side(tmp_path, side, records, other)
    with pytest.raises(
        InputError, match=rf"{name}\.jsonl:3: line 3 has the \"id\" 'a' of line 1 \(the same document twice\)"
    ):
        compare_files(g, p, schemes="strict")


def test_repeated_unannotated_gold_id_is_an_error_too(tmp_path):
    """A gold line without "spans" (skipped) does not make its id free to repeat."""
    g, p = _files(tmp_path, [{"id": 1, "text": "Ann Lee flew."}, _with_id(ANN, 1)], [_with_id(P_ANN, 1)])
    with pytest.raises(InputError, match=r"line 2 has the \"id\" '1' of line 1"):
        compare_files(g, p, schemes="strict")


@pytest.mark.parametrize("side", ["gold", "pred"])
def test_record_without_id_among_ids_is_an_error(tmp_path, side):
    records = [_with_id(ANN, 1), ACME]
    other = [_with_id(ANN, 1), _with_id(ACME, 2)]
    g, p, name = _on_side(tmp_path, side, records, other)
    with pytest.raises(
        InputError, match=rf"{name}\.jsonl:2: line 2 has no \"id\", but the documents pair by \"id\" \(line 1 has one\)"
    ):
        compare_files(g, p, schemes="strict")


def test_ids_on_one_side_only_pair_in_order(tmp_path):
    """Predictions without ids pair by position, as before (ids are metadata)."""
    g, p = _files(tmp_path, [_with_id(ANN, "b"), _with_id(ACME, "a")], [P_ANN, P_ACME])
    assert compare_files(g, p, schemes="strict").results["strict"].counts["cor"] == 2


def test_text_is_checked_across_documents_paired_by_id(tmp_path):
    g, p = _files(
        tmp_path,
        [_with_id(ANN, 1), _with_id(ACME, 2)],
        [_with_id(P_ACME, 2), _with_id(dict(P_ANN, text="Ann Lee flew!"), 1)],
    )
    with pytest.raises(
        InputError, match=r"p\.jsonl:2: the text of line 2 differs from line 1 of .*g\.jsonl at character 12"
    ):
        compare_files(g, p, schemes="strict")


def test_by_id_breakdown_still_reads_the_id(tmp_path):
    g, p = _files(tmp_path, [_with_id(ANN, 1), _with_id(ACME, 2)], [_with_id(P_ACME, 2), _with_id(P_ANN, 1)])
    scores = compare_files(g, p, schemes="strict", by="id")
    rows = {str(b.name): b.f1 for b in scores.breakdowns["id"]["strict"]}
    # id 1: Ann right (F1 1); id 2: Acme right, Bo missed (P 1, R 1/2, F1 2/3)
    assert rows == pytest.approx({"1": 1.0, "2": 2 / 3})
