"""A sweep through a label map equals the sweep of the data renamed by hand.

The reference is the renaming a user does before sweeping: each span's
label rewritten by a dict lookup in the test, spans mapped to None left
out, and the spans that end up at one place with one label kept once (a
prediction with the highest of their scores). It is swept without a map.
"""

import json
import warnings

import pytest
from hypothesis import given, settings, strategies as st

from helpers import assert_clean_failure, invoke, write, write_jsonl
from spacy_spanf1 import SCHEMES, evaluate_spans, sweep
from spacy_spanf1.api import sweep_files
from spacy_spanf1.exceptions import InputError, SettingError
from spacy_spanf1.notes import unmapped_note

GOLD_LABELS = ("PER", "LOC", "ORG", "MISC")
PRED_LABELS = ("PERSON", "GPE", "FAC", "ORG", "NORP", "X")

#: One map for the predictions: OntoNotes-like labels onto CoNLL-like ones ("X" not named).
PRED_ONLY = {"pred": {"PERSON": "PER", "GPE": "LOC", "FAC": "LOC", "ORG": "ORG", "NORP": None}}
#: One map for both sides: the gold's MISC and the predictions' NORP dropped; ORG and X not named.
BOTH = {"PERSON": "PER", "GPE": "LOC", "FAC": "LOC", "NORP": None, "MISC": None}
#: A map per side: both sides' places become PLACE, the gold's MISC is dropped.
PER_SIDE = {
    "gold": {"LOC": "PLACE", "MISC": None, "PER": "PER"},
    "pred": {"GPE": "PLACE", "FAC": "PLACE", "PERSON": "PER", "NORP": None, "X": None},
}
MAPS = {"pred only": PRED_ONLY, "both": BOTH, "per side": PER_SIDE}


def side_map(label_map, side):
    """The dict of one side, as the test reads a map: a map of sides, or one map for both."""
    if set(label_map) <= {"gold", "pred"}:
        return label_map.get(side)
    return label_map


def renamed_gold(docs, mapping):
    if mapping is None:
        return [sorted(set(doc)) for doc in docs]
    out = []
    for doc in docs:
        kept = {(s, e, mapping.get(label, label)) for s, e, label in doc}
        out.append(sorted(span for span in kept if span[2] is not None))
    return out


def renamed_pred(docs, mapping):
    """Renamed by hand; spans the renaming puts at one place once, with their highest score."""
    out = []
    for doc in docs:
        best = {}
        for s, e, label, score in doc:
            new = label if mapping is None else mapping.get(label, label)
            if new is not None:
                best[(s, e, new)] = max(score, best.get((s, e, new), -1.0))
        out.append(sorted((s, e, label, score) for (s, e, label), score in best.items()))
    return out


def unmapped_by_hand(gold, pred, label_map):
    """Per side, the distinct spans of each label the side's map names neither as a source nor as a target."""
    out = {}
    for side, docs in (("gold", gold), ("pred", pred)):
        mapping = side_map(label_map, side)
        if mapping is None:
            continue
        listed = set(mapping) | {new for new in mapping.values() if new is not None}
        spans = {(i, span[0], span[1], span[2]) for i, doc in enumerate(docs) for span in doc}
        counts = {}
        for *_, label in spans:
            if label not in listed:
                counts[label] = counts.get(label, 0) + 1
        if counts:
            out[side] = counts
    return out


def swept(gold, pred, **keywords):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = sweep(gold, pred, schemes=SCHEMES, **keywords)
    assert [str(w.message) for w in caught] == list(result.warnings)
    return result


span = st.tuples(st.integers(0, 9), st.integers(1, 4)).map(lambda t: (t[0], t[0] + t[1]))
score = st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0])


@st.composite
def corpora(draw):
    """Gold in CoNLL-like labels, predictions in OntoNotes-like ones; some
    predictions doubled at their offsets under a label the maps merge with
    theirs (GPE and FAC), with another score; nested and overlapping spans."""
    gold, pred = [], []
    for _ in range(draw(st.integers(1, 4))):
        gold.append([(s, e, draw(st.sampled_from(GOLD_LABELS))) for s, e in draw(st.lists(span, max_size=4))])
        doc = [(s, e, draw(st.sampled_from(PRED_LABELS)), draw(score)) for s, e in draw(st.lists(span, max_size=6))]
        for s, e, label, _ in list(doc):
            if label in ("GPE", "FAC") and draw(st.booleans()):
                doc.append((s, e, "FAC" if label == "GPE" else "GPE", draw(score)))
        pred.append(doc)
    if not any(pred):
        pred[0].append((0, 1, "GPE", 0.5))
    return gold, pred


@pytest.mark.parametrize("name", sorted(MAPS))
@settings(max_examples=60, deadline=None)
@given(corpus=corpora())
def test_a_sweep_through_a_map_equals_sweeping_the_data_renamed_by_hand(name, corpus):
    gold, pred = corpus
    label_map = MAPS[name]
    gold_by_hand = renamed_gold(gold, side_map(label_map, "gold"))
    pred_by_hand = renamed_pred(pred, side_map(label_map, "pred"))
    if not any(pred_by_hand):  # the map dropped every prediction: nothing left to compare with a sweep
        return
    expected = swept(gold_by_hand, pred_by_hand)
    result = swept(gold, pred, label_map=label_map)
    assert dict(result.schemes) == dict(expected.schemes)
    unmapped = unmapped_by_hand(gold, pred, label_map)
    assert result.unmapped == unmapped
    assert result.warnings == expected.warnings + ((unmapped_note(unmapped),) if unmapped else ())
    assert result.signature["match"]["label_map"] == label_map
    assert result.signature["match"]["map_unlisted"] == "keep"
    assert {k: v for k, v in result.signature["match"].items() if k != "label_map"} == {
        k: v for k, v in expected.signature["match"].items() if k != "label_map"
    }


@settings(max_examples=40, deadline=None)
@given(corpus=corpora(), scheme=st.sampled_from(SCHEMES))
def test_each_threshold_through_a_map_equals_evaluate_spans_through_it(corpus, scheme):
    """At each threshold, the predictions kept there scored by evaluate_spans with the same map."""
    gold, pred = corpus
    if not any(renamed_pred(pred, side_map(PER_SIDE, "pred"))):
        return
    curve = swept(gold, pred, label_map=PER_SIDE)[scheme]
    for i, threshold in enumerate(curve.thresholds.tolist()):
        kept = [sorted({(s, e, label) for s, e, label, x in doc if x >= threshold}) for doc in pred]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the unmapped labels, named by the sweep already
            expected = evaluate_spans(renamed_gold(gold, None), kept, schemes=[scheme], label_map=PER_SIDE)[scheme]
        got = (curve.precision[i], curve.recall[i], curve.f1[i])
        assert got == pytest.approx((expected.precision, expected.recall, expected.f1), abs=1e-12), threshold


@pytest.mark.parametrize("high", ["GPE", "FAC"])
def test_predictions_merged_by_the_map_count_once_with_their_highest_score(high):
    gold = [[(0, 2, "LOC")]]
    low = "FAC" if high == "GPE" else "GPE"
    pred = [[(0, 2, low, 0.3), (0, 2, high, 0.8)]]
    result = swept(gold, pred, label_map={"pred": {"GPE": "LOC", "FAC": "LOC"}})
    # one prediction (0, 2, LOC) with score 0.8: one threshold, where it is the one correct span.
    # Counted twice, 0.3 would be a threshold too, with precision 1/2.
    for scheme in SCHEMES:
        curve = result[scheme]
        assert curve.thresholds.tolist() == [0.8]
        assert (curve.precision.tolist(), curve.recall.tolist()) == ([1.0], [1.0])
    assert result.unmapped == {} and result.warnings == ()


def test_drop_and_per_side_by_hand():
    # gold: PER (0, 2), LOC (3, 5), MISC (6, 8); predictions: PERSON (0, 2) 0.9, GPE (3, 5) 0.6,
    # NORP (6, 8) 0.5. The gold MISC and the predicted NORP are dropped: 2 gold spans and 2
    # predictions, both correct, at 0.9 and 0.6. strict at 0.6: P 2/2, R 2/2; at 0.9: P 1/1, R 1/2.
    gold = [[(0, 2, "PER"), (3, 5, "LOC"), (6, 8, "MISC")]]
    pred = [[(0, 2, "PERSON", 0.9), (3, 5, "GPE", 0.6), (6, 8, "NORP", 0.5)]]
    label_map = {
        "gold": {"MISC": None, "PER": "PER", "LOC": "LOC"},
        "pred": {"PERSON": "PER", "GPE": "LOC", "NORP": None},
    }
    strict = swept(gold, pred, label_map=label_map)["strict"]
    assert strict.thresholds.tolist() == [0.6, 0.9]
    assert strict.precision.tolist() == [1.0, 1.0]
    assert strict.recall.tolist() == [1.0, 0.5]
    assert set(strict.per_label) == {"PER", "LOC"}
    # the same map on the gold side only: the predicted labels stay, none of them is gold
    gold_only = swept(gold, pred, label_map={"gold": label_map["gold"]})
    assert gold_only["strict"].f1.tolist() == [0.0, 0.0, 0.0]
    assert gold_only.unmapped == {}


def test_unmapped_labels_are_counted_per_side_and_warned():
    gold = [[(0, 2, "PER")], [(1, 3, "ORG"), (4, 5, "ORG")]]
    pred = [[(0, 2, "PERSON", 0.7), (0, 2, "PERSON", 0.2)], [(1, 3, "ORG", 0.4), (6, 7, "X", 0.1)]]
    with pytest.warns(UserWarning) as caught:
        result = sweep(gold, pred, schemes=["strict"], label_map={"PERSON": "PER"})
    # gold: ORG twice; predictions: ORG once, X once (PERSON is named, PER is a target)
    assert result.unmapped == {"gold": {"ORG": 2}, "pred": {"ORG": 1, "X": 1}}
    note = (
        'the label map does not name the gold labels "ORG" (2 spans); the predicted labels "ORG" (1 span), "X" (1 span)'
    )
    assert [str(w.message) for w in caught if str(w.message).startswith(note)]
    assert result.to_dict()["unmapped"] == {"gold": {"ORG": 2}, "pred": {"ORG": 1, "X": 1}}
    assert type(result).from_dict(json.loads(json.dumps(result.to_dict()))).unmapped == result.unmapped


def test_map_unlisted_error_names_the_side_the_label_its_spans_and_the_first_document():
    gold = [[(0, 2, "PER")], [(1, 3, "ORG")], [(1, 3, "ORG")]]
    pred = [[(0, 2, "PERSON", 0.7)], [], []]
    with pytest.raises(InputError) as raised:
        sweep(gold, pred, schemes=["strict"], label_map={"PERSON": "PER"}, map_unlisted="error")
    assert 'the gold label "ORG" (2 spans, the first in document 1)' in str(raised.value)
    assert "set 'map_unlisted' to keep" in str(raised.value)
    with pytest.raises(InputError, match='the predicted label "X" \\(1 span, the first in document 0\\)'):
        sweep(
            gold,
            [[(0, 2, "X", 0.5)], [], []],
            schemes=["strict"],
            label_map={"pred": {"PERSON": "PER"}},
            map_unlisted="error",
        )
    # every label named: no error
    sweep(gold, pred, schemes=["strict"], label_map={"PERSON": "PER", "ORG": "ORG"}, map_unlisted="error")


def test_a_map_that_drops_every_prediction_says_so():
    result = swept([[(0, 2, "PER")]], [[(0, 2, "X", 0.5), (3, 4, "X", 0.9)]], label_map={"X": None, "PER": "PER"})
    assert result["strict"].thresholds.tolist() == [] and result["strict"].best is None
    assert result.warnings == ("the label map drops every prediction (2 spans): nothing is left to sweep",)


@pytest.mark.parametrize(
    "label_map, message",
    [
        (["PER"], "must be a dict of labels"),
        ({"PER": 3}, "maps 'PER' to 3: a new label is a non-empty string or None"),
        ({"gold": {"A": "B"}, "test": {"A": "B"}}, "a map of sides has only the keys 'gold' and 'pred'"),
    ],
)
def test_a_bad_map_is_a_setting_error(label_map, message):
    with pytest.raises(SettingError, match=message):
        sweep([[(0, 1, "A")]], [[(0, 1, "A", 0.5)]], schemes=["strict"], label_map=label_map)


TEXTS = ["Anna lives in Oslo", "Bruno met Chen"]
GOLD = [[(0, 4, "PER"), (14, 18, "LOC")], [(0, 5, "PER"), (10, 14, "PER")]]
SCORED = [
    [(0, 4, "PERSON", 0.9), (14, 18, "GPE", 0.6), (14, 18, "FAC", 0.7), (11, 18, "NORP", 0.3)],
    [(0, 5, "PERSON", 0.8), (6, 9, "GPE", 0.2), (10, 14, "ORG", 0.45)],
]


def jsonl_files(folder, scored=SCORED):
    folder.mkdir(exist_ok=True)

    def spans(doc):
        return [dict(zip(("start", "end", "label", "score"), span)) for span in doc]

    gold = write_jsonl(folder / "gold.jsonl", [{"text": t, "spans": spans(d)} for t, d in zip(TEXTS, GOLD)])
    pred = write_jsonl(folder / "pred.jsonl", [{"text": t, "spans": spans(d)} for t, d in zip(TEXTS, scored)])
    return gold, pred


def test_sweep_files_through_a_map_file_equals_the_files_renamed(tmp_path):
    gold, pred = jsonl_files(tmp_path)
    map_file = write(tmp_path / "map.json", json.dumps(PRED_ONLY))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = sweep_files(gold, pred, schemes=SCHEMES, label_map=map_file)
        expected = sweep_files(
            *jsonl_files(tmp_path / "by-hand", renamed_pred(SCORED, PRED_ONLY["pred"])), schemes=SCHEMES
        )
    # the map names every predicted label but X (absent here); the gold's LOC and PER are not mapped
    assert result.unmapped == {} and result.warnings == expected.warnings
    assert len(caught) == 2 * len(expected.warnings)
    assert dict(result.schemes) == dict(expected.schemes)
    assert result.signature["match"]["label_map"] == PRED_ONLY
    assert result.signature["read"] == expected.signature["read"]


def test_cli_sweep_through_a_map_writes_the_unmapped_labels_and_signs_the_map(tmp_path):
    gold, pred = jsonl_files(tmp_path)
    map_file = write(tmp_path / "map.json", json.dumps({"pred": {"PERSON": "PER", "GPE": "LOC", "FAC": "LOC"}}))
    out = tmp_path / "sweep.json"
    result = invoke(["sweep", gold, pred, "--schemes", "strict,iou", "--label-map", map_file, "-o", out])
    assert result.exit_code == 0, result.stderr
    data = json.loads(out.read_text())
    assert data["unmapped"] == {"pred": {"NORP": 1, "ORG": 1}}
    assert data["signature"]["match"]["label_map"] == {"pred": {"FAC": "LOC", "GPE": "LOC", "PERSON": "PER"}}
    assert 'the label map does not name the predicted labels "NORP" (1 span), "ORG" (1 span)' in result.stdout
    # the GPE and FAC predictions of Oslo are one LOC prediction, at 0.7: the thresholds are the distinct
    # scores of the mapped predictions: 0.2, 0.3, 0.45, 0.7, 0.8, 0.9
    assert data["sweep"]["strict"]["thresholds"] == [0.2, 0.3, 0.45, 0.7, 0.8, 0.9]
    refused = invoke(["sweep", gold, pred, "--schemes", "strict", "--label-map", map_file, "--map-unlisted", "error"])
    assert_clean_failure(refused, 1, 'the label map does not name the predicted label "NORP"')


@pytest.mark.parametrize(
    "text, message",
    [
        ('["PERSON", "PER"]', "must be a dict of labels"),
        ('{"PERSON": 1}', "maps 'PERSON' to 1: a new label is a non-empty string or None"),
        ('{"gold": {"A": "B"}, "system": {"A": "B"}}', "a map of sides has only the keys 'gold' and 'pred'"),
        ("{'PERSON': 'PER'}", "the label map is not JSON"),
    ],
)
def test_cli_a_bad_map_is_one_line(tmp_path, text, message):
    gold, pred = jsonl_files(tmp_path)
    map_file = write(tmp_path / "map.json", text)
    assert_clean_failure(invoke(["sweep", gold, pred, "--schemes", "strict", "--label-map", map_file]), 1, message)


def test_cli_map_unlisted_takes_keep_or_error(tmp_path):
    gold, pred = jsonl_files(tmp_path)
    map_file = write(tmp_path / "map.json", json.dumps(PRED_ONLY))
    result = invoke(["sweep", gold, pred, "--schemes", "strict", "--label-map", map_file, "--map-unlisted", "drop"])
    assert_clean_failure(result, 2, "Unknown map unlisted 'drop' in '--map-unlisted'. Valid: keep, error")


@pytest.mark.slow
def test_a_pipeline_sweep_through_a_map_equals_its_predictions_renamed(spancat_model):
    import spacy

    from spacy_spanf1 import sweep_pipeline
    from spacy_spanf1.sweeps.pipeline import OPEN, read_predictions, read_references

    model, dev = spancat_model
    label_map = {"gold": {"PER": "PER", "LOC": "PLACE"}, "pred": {"PER": "PER", "LOC": None}}
    result = sweep_pipeline(model, dev, schemes=["strict", "iou"], label_map=label_map)
    nlp = spacy.load(model)
    nlp.get_pipe("spancat").cfg.update(OPEN)
    gold, pred = read_predictions(nlp, read_references(dev, nlp.vocab), "sc", "token")
    expected = sweep(
        renamed_gold(gold, label_map["gold"]), renamed_pred(pred, label_map["pred"]), schemes=["strict", "iou"]
    )
    assert dict(result.schemes) == dict(expected.schemes)
    assert result.signature["match"]["label_map"] == label_map
    # every gold place is a PLACE and no prediction is: its recall is 0 at every threshold
    assert set(result["strict"].per_label["PLACE"].recall.tolist()) == {0.0}
