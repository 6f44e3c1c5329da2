"""Label maps: labels renamed, merged or dropped before matching.

The reference is the renaming a user does by hand: the same spans with
their labels rewritten by a comprehension in the test (and identical spans
once, as evaluate_spans counts them), scored without a map.
"""

import json
import random
import warnings

import pytest

from spacy_spanf1 import SCHEMES, evaluate_spans
from spacy_spanf1.engine.scorer import SpanScorer
from spacy_spanf1.exceptions import InputError, SettingError
from spacy_spanf1.label_map import LabelMap
from spacy_spanf1.results import CorpusScores
from spacy_spanf1.settings import MatchSettings

from helpers import assert_clean_failure, error_corpus, invoke, write, write_jsonl

#: OntoNotes-like predicted labels onto CoNLL-like gold labels.
ONTO_TO_CONLL = {"PERSON": "PER", "GPE": "LOC", "LOC": "LOC", "ORG": "ORG", "NORP": None, "FAC": "LOC"}


def onto_corpus(seed, n_docs=300):
    """Gold in PER/LOC/ORG/MISC (`helpers.error_corpus`: every kind of
    error, wrong labels as "C", spurious ones as "A"); predictions renamed to OntoNotes labels,
    some doubled at the same offsets under two labels that the map merges
    (GPE and FAC), some given a second span overlapping them."""
    rng = random.Random(seed)
    to_onto = {"PER": ["PERSON"], "LOC": ["GPE", "LOC", "FAC"], "ORG": ["ORG"], "MISC": ["NORP", "MISC"]}
    gold, plain = error_corpus(seed, n_docs, labels=("PER", "LOC", "ORG", "MISC"))
    pred = []
    for spans in plain:
        p = []
        for start, end, label in spans:
            r = rng.random()
            if r < 0.1:
                p += [(start, end, "GPE"), (start, end, "FAC")]  # both map to LOC: one span after the map
            elif r < 0.15:
                p += [(max(0, start - 1), end, "ORG"), (start, end, "PERSON")]  # a side that overlaps itself
            else:
                p.append((start, end, rng.choice(to_onto.get(label, [label]))))
        pred.append(sorted(set(p)))
    return gold, pred


def renamed(docs, mapping):
    """The spans with labels rewritten by hand: unnamed labels kept, None dropped, identical spans once."""
    out = []
    for spans in docs:
        kept = [(s, e, mapping.get(label, label)) for s, e, label in spans]
        out.append(sorted({span for span in kept if span[2] is not None}))
    return out


def figures(results):
    return {name: (r.counts, {label: c for label, c in r.per_type.items()}) for name, r in results.items()}


@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_map_on_the_predictions_equals_renaming_them_by_hand(seed, batched):
    gold, pred = onto_corpus(seed)
    mapping = dict(ONTO_TO_CONLL, MISC="MISC", C="C", A="A")
    expected = evaluate_spans(gold, renamed(pred, mapping), schemes=SCHEMES)
    scorer = SpanScorer(SCHEMES, label_map={"pred": mapping}, batched=batched)
    scorer.add_many(gold, pred)
    assert figures(scorer.results()) == figures(expected)
    assert scorer.unmapped == {"gold": {}, "pred": {}}


def test_a_map_on_both_sides_renames_the_gold_too_and_dicts_read_as_tuples():
    gold, pred = onto_corpus(3)
    mapping = {
        "PER": "PERSON",
        "LOC": "GPE",
        "MISC": None,
        "GPE": "GPE",
        "FAC": "GPE",
        "PERSON": "PERSON",
        "ORG": "ORG",
        "NORP": None,
        "C": "C",
        "A": "A",
    }
    expected = evaluate_spans(renamed(gold, mapping), renamed(pred, mapping), schemes=SCHEMES)
    as_dicts = [[{"start": s, "end": e, "label": label} for s, e, label in doc] for doc in pred]
    found = evaluate_spans(gold, as_dicts, schemes=SCHEMES, label_map=mapping)
    assert figures(found) == figures(expected)
    assert "MISC" not in found["strict"].per_type and "PER" not in found["strict"].per_type


def test_two_labels_at_one_place_merged_by_the_map_count_once():
    # Written out: gold ORG at (0, 1); the predictions COMPANY and ORG at (0, 1)
    # become ORG twice at one place, one span: strict COR 1, SPU 0, P = R = 1.
    gold = [[(0, 1, "ORG")]]
    pred = [[(0, 1, "COMPANY"), (0, 1, "ORG")]]
    for batched in (True, False):
        scorer = SpanScorer(["strict", "iou"], label_map={"pred": {"COMPANY": "ORG"}}, batched=batched)
        scorer.add_many(gold, pred)
        results = scorer.results()
        assert (results["strict"].counts["cor"], results["strict"].counts["spu"]) == (1, 0)
        assert (results["iou"].counts["tp"], results["iou"].counts["fp"]) == (1, 0)
    # Without the map: COR 1 (ORG) and the COMPANY prediction at the same place, INC? No:
    # it pairs with nothing left (one-to-one), so SPU 1.
    plain = evaluate_spans(gold, pred, schemes=["strict"])["strict"].counts
    assert (plain["cor"], plain["spu"]) == (1, 1)


def test_a_dropped_label_is_not_scored_and_labels_filter_after_the_map():
    gold = [[(0, 2, "PER"), (3, 5, "LOC")]]
    pred = [[(0, 2, "PERSON"), (3, 5, "GPE"), (6, 7, "NORP")]]
    # PERSON -> PER (COR), GPE -> LOC (COR), NORP dropped: 2 COR, nothing spurious.
    found = evaluate_spans(gold, pred, schemes=["strict"], label_map={"PERSON": "PER", "GPE": "LOC", "NORP": None})
    assert found["strict"].counts == {"cor": 2, "inc": 0, "par": 0, "mis": 0, "spu": 0}
    # `labels` names mapped labels: only PER is scored, one COR.
    only = evaluate_spans(
        gold, pred, schemes=["strict"], labels=["PER"], label_map={"PERSON": "PER", "GPE": "LOC", "NORP": None}
    )
    assert only["strict"].counts == {"cor": 1, "inc": 0, "par": 0, "mis": 0, "spu": 0}


def test_labels_the_map_does_not_name_are_kept_and_named_in_a_warning():
    gold = [[(0, 2, "PER")], [(0, 1, "ORG")]]
    pred = [[(0, 2, "PERSON"), (3, 4, "MISC")], [(0, 1, "ORG"), (2, 3, "MISC")]]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = evaluate_spans(gold, pred, schemes=["strict"], label_map={"PERSON": "PER"})
    # The map names PERSON and PER; ORG (gold 1, pred 1) and MISC (pred 2) are not named.
    messages = [str(w.message) for w in caught]
    assert messages == [
        'the label map does not name the gold labels "ORG" (1 span); the predicted labels '
        '"MISC" (2 spans), "ORG" (1 span): scored as they are'
    ]
    assert found["strict"].counts == {"cor": 2, "inc": 0, "par": 0, "mis": 0, "spu": 2}
    with pytest.raises(InputError, match=r'the label map does not name the gold label "ORG" \(1 span'):
        evaluate_spans(gold, pred, schemes=["strict"], label_map={"PERSON": "PER"}, map_unlisted="error")


def test_a_map_of_one_side_leaves_the_other_alone():
    gold = [[(0, 2, "PERSON")]]
    pred = [[(0, 2, "PERSON")]]
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the gold is not mapped: nothing to name
        found = evaluate_spans(gold, pred, schemes=["strict"], label_map={"pred": {"PERSON": "PER"}})
    assert found["strict"].counts["inc"] == 1  # gold PERSON against predicted PER


@pytest.mark.parametrize(
    "value, message",
    [
        ({"PERSON": 5}, "maps 'PERSON' to 5"),
        ({"PERSON": ""}, "maps 'PERSON' to ''"),
        ({5: "PER"}, "maps 5: a label is a non-empty string"),
        ({"gold": {"A": "B"}, "pred": "B"}, "maps 'gold' to a dict"),
        (["PERSON", "PER"], "must be a dict of labels"),
    ],
)
def test_a_bad_map_is_a_setting_error_naming_the_entry(value, message):
    with pytest.raises(SettingError, match="label_map") as caught:
        MatchSettings(["strict"], label_map=value)
    assert message in str(caught.value)


def test_map_unlisted_takes_keep_or_error():
    with pytest.raises(SettingError, match="Valid: keep, error"):
        MatchSettings(["strict"], label_map={"A": "B"}, map_unlisted="drop")


def test_the_map_is_in_the_signature_as_written(tmp_path):
    both = MatchSettings(["strict"], label_map={"PERSON": "PER", "NORP": None})
    assert both.to_dict()["label_map"] == {"NORP": None, "PERSON": "PER"}
    sides = MatchSettings(["strict"], label_map={"pred": {"PERSON": "PER"}})
    assert sides.to_dict()["label_map"] == {"pred": {"PERSON": "PER"}}
    assert MatchSettings(**sides.to_dict()) == sides
    path = write(tmp_path / "map.json", "\ufeff" + json.dumps({"pred": {"PERSON": "PER"}}))  # a BOM is fine
    assert MatchSettings(["strict"], label_map=path).label_map == sides.label_map
    assert LabelMap.read(path).to_dict() == {"pred": {"PERSON": "PER"}}


def corpus_files(tmp_path):
    """One document: gold Ann and Bob PER, Rome LOC; predicted on the same
    offsets PERSON, ORG and GPE."""
    text, offsets = "Ann met Bob in Rome.", ((0, 3), (8, 11), (15, 19))
    for side, labels in (("gold", ("PER", "PER", "LOC")), ("pred", ("PERSON", "ORG", "GPE"))):
        spans = [{"start": start, "end": end, "label": label} for (start, end), label in zip(offsets, labels)]
        write_jsonl(tmp_path / f"{side}.jsonl", [{"text": text, "spans": spans}])
    write(tmp_path / "map.json", json.dumps({"PERSON": "PER", "GPE": "LOC"}))
    return tmp_path / "gold.jsonl", tmp_path / "pred.jsonl", tmp_path / "map.json"


def test_compare_with_a_label_map_file_reports_what_it_did_not_name(tmp_path):
    gold, pred, mapping = corpus_files(tmp_path)
    out = tmp_path / "out.json"
    result = invoke(["compare", gold, pred, "-s", "strict", "--label-map", mapping, "--silent", "-o", out])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf-8"))
    # Ann PERSON -> PER (COR), Bob ORG against PER (INC), Rome GPE -> LOC (COR).
    assert data["schemes"]["strict"]["counts"] == {"cor": 2, "inc": 1, "par": 0, "mis": 0, "spu": 0}
    assert data["unmapped"] == {"pred": {"ORG": 1}}
    assert 'the label map does not name the predicted labels "ORG" (1 span): scored as they are' in data["warnings"]
    assert data["signature"]["match"]["label_map"] == {"GPE": "LOC", "PERSON": "PER"}
    assert CorpusScores.from_dict(data).unmapped == {"pred": {"ORG": 1}}


def test_compare_refuses_unlisted_labels_and_bad_map_files_in_one_line(tmp_path):
    gold, pred, mapping = corpus_files(tmp_path)
    refused = invoke(["compare", gold, pred, "-s", "strict", "--label-map", mapping, "--map-unlisted", "error"])
    assert_clean_failure(refused, 1, 'does not name the predicted label "ORG" (1 span from document 0 on)')
    missing = invoke(["compare", gold, pred, "-s", "strict", "--label-map", tmp_path / "nope.json"])
    assert_clean_failure(missing, 1, "nope.json: can't read the label map")
    write(tmp_path / "bad.json", '{"PERSON": 3}')
    bad = invoke(["compare", gold, pred, "-s", "strict", "--label-map", tmp_path / "bad.json"])
    assert_clean_failure(bad, 1, "bad.json: label_map maps 'PERSON' to 3")
    write(tmp_path / "broken.json", '{"PERSON": ')
    broken = invoke(["compare", gold, pred, "-s", "strict", "--label-map", tmp_path / "broken.json"])
    assert_clean_failure(broken, 1, "broken.json: the label map is not JSON")


def test_the_registered_scorer_takes_a_label_map():
    import spacy
    from spacy.training import Example

    from spacy_spanf1.integrations.spacy import make_spanf1_scorer_v1

    nlp = spacy.blank("en")
    reference = nlp("Ann met Bob in Rome .")
    reference.ents = [reference.char_span(0, 3, "PER"), reference.char_span(15, 19, "LOC")]
    predicted = nlp("Ann met Bob in Rome .")
    predicted.ents = [predicted.char_span(0, 3, "PERSON"), predicted.char_span(15, 19, "GPE")]
    examples = [Example(predicted, reference)]
    plain = make_spanf1_scorer_v1(["strict"])(examples)
    mapped = make_spanf1_scorer_v1(["strict"], label_map={"pred": {"PERSON": "PER", "GPE": "LOC"}})(examples)
    assert (plain["ents_f"], mapped["ents_f"]) == (0.0, 1.0)
    assert set(mapped["ents_per_type"]) == {"PER", "LOC"}


def test_a_breakdown_by_label_shows_the_mapped_labels(tmp_path):
    from spacy_spanf1 import compare_files

    gold, pred, mapping = corpus_files(tmp_path)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores = compare_files(gold, pred, schemes="strict", label_map=mapping, by="label")
    # Each warning once: the breakdown's second matching of the spans adds none.
    assert [str(w.message) for w in caught] == list(scores.warnings)
    assert len(scores.warnings) == 2
    buckets = {bucket.name: (bucket.n_gold, bucket.n_pred) for bucket in scores.breakdowns["label"]["strict"]}
    # Gold PER x2, LOC; predictions PER (was PERSON), LOC (was GPE), ORG.
    assert buckets == {"LOC": (1, 1), "ORG": (0, 1), "PER": (2, 1)}


def test_an_agreement_maps_every_annotator_and_refuses_a_map_of_sides():
    from spacy_spanf1 import agreement

    annotations = {"a": [[(0, 2, "PER"), (3, 4, "LOC")]], "b": [[(0, 2, "per"), (3, 4, "LOC")]]}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        plain = agreement(annotations, schemes=["strict"])
        mapped = agreement(annotations, schemes=["strict"], label_map={"per": "PER", "LOC": "LOC"})
    # Without the map, b's "per" span is INC against a's PER: F of b against a = 1/2.
    assert (plain.mean_f["strict"], mapped.mean_f["strict"]) == (0.5, 1.0)
    assert mapped.signature["match"]["label_map"] == {"LOC": "LOC", "per": "PER"}
    with pytest.raises(SettingError, match="not a map of sides"):
        agreement(annotations, schemes=["strict"], label_map={"pred": {"per": "PER"}})
