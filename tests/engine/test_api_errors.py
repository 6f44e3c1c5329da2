"""Bad input to evaluate_spans: each error must say what is wrong, where
(document and span index) and what is valid."""

import re

import pytest

from spacy_spanf1 import SCHEMES, MatchSettings, evaluate_spans
from spacy_spanf1.exceptions import SettingError

GOLD = [[(0, 2, "PER")], [(1, 3, "ORG"), (4, 5, "LOC")], [(0, 1, "PER")]]
VALID_SCHEMES = re.escape("Valid schemes: " + ", ".join(SCHEMES))


def score(gold=GOLD, pred=GOLD, **kwargs):
    kwargs.setdefault("schemes", ["strict", "iou"])
    return evaluate_spans(gold, pred, **kwargs)


# --------------------------------------------------------------------------
# Documents
# --------------------------------------------------------------------------


def test_fewer_predicted_documents_list():
    with pytest.raises(ValueError, match=r"Unequal numbers of documents: 3 gold and 2 predicted.*same documents"):
        score(GOLD, GOLD[:2])


def test_fewer_gold_documents_list():
    with pytest.raises(ValueError, match=r"Unequal numbers of documents: 1 gold and 3 predicted.*same documents"):
        score(GOLD[:1], GOLD)


def test_unequal_documents_generators():
    """Generators have no length: the counts come from reading them out."""
    with pytest.raises(ValueError, match=r"Unequal numbers of documents: 3 gold and 2 predicted"):
        score((d for d in GOLD), (d for d in GOLD[:2]))
    with pytest.raises(ValueError, match=r"Unequal numbers of documents: 2 gold and 3 predicted"):
        score(iter(GOLD[:2]), iter(GOLD))
    with pytest.raises(ValueError, match=r"Unequal numbers of documents: 0 gold and 3 predicted"):
        score(iter([]), (d for d in GOLD))


def test_document_that_is_not_a_list_of_spans():
    with pytest.raises(ValueError, match=r"Document 1 of the pred spans is a str, not a list of spans"):
        score(GOLD, [GOLD[0], "PER", GOLD[2]])
    with pytest.raises(ValueError, match=r"Document 0 of the gold spans is 5, not a list of spans"):
        score([5, [], []], GOLD)


# --------------------------------------------------------------------------
# Spans
# --------------------------------------------------------------------------


@pytest.mark.parametrize("start,end", [(3, 3), (4, 3)])
def test_start_not_before_end(start, end):
    gold = [GOLD[0], [(1, 3, "ORG"), (start, end, "LOC")], GOLD[2]]
    with pytest.raises(
        ValueError,
        match=rf"Span 1 of gold document 1 has start={start}, end={end}\..*0 <= start < end \(end exclusive\)",
    ):
        score(gold, GOLD)


def test_negative_start():
    pred = [GOLD[0], GOLD[1], [(0, 1, "PER"), (2, 4, "LOC"), (-1, 1, "ORG")]]
    with pytest.raises(ValueError, match=r"Span 2 of pred document 2 has start=-1, end=1\..*0 <= start < end"):
        score(GOLD, pred)


def test_start_not_before_end_in_a_dict_span():
    pred = [[{"start": 2, "end": 2, "label": "PER"}], [], []]
    with pytest.raises(ValueError, match=r"Span 0 of pred document 0 has start=2, end=2\..*0 <= start < end"):
        score(GOLD, pred)


@pytest.mark.parametrize("label,kind", [(5, "int"), (None, "NoneType"), (("PER",), "tuple")])
def test_label_not_a_string(label, kind):
    gold = [[(0, 2, "PER")], [(1, 3, label)], []]
    with pytest.raises(
        ValueError,
        match=rf"Span 0 of gold document 1 has a label of type {kind} \({re.escape(repr(label))}\)\. Labels are strings",
    ):
        score(gold, GOLD)


@pytest.mark.parametrize("shape", ["tuple", "dict"])
def test_unhashable_label_is_named_like_any_other(shape):
    span = (0, 1, ["PER"]) if shape == "tuple" else {"start": 0, "end": 1, "label": ["PER"]}
    with pytest.raises(
        ValueError, match=r"Span 0 of pred document 1 has a label of type list \(\['PER'\]\)\. Labels are strings"
    ):
        score(GOLD, [GOLD[0], [span], []])


def test_bad_dict_span_after_good_ones_is_named():
    """A list of dict spans is read on arrays; one bad span among them is
    still named with its document and index, and what is valid."""
    pred = [
        [{"start": 0, "end": 2, "label": "PER"}],
        [{"start": 1, "end": 3, "label": "ORG"}],
        [{"start": 0, "end": 1, "label": "PER"}, {"start": True, "end": 2, "label": "LOC"}],
    ]
    with pytest.raises(ValueError, match=r"Span 1 of pred document 2 has non-integer offsets: start=True, end=2"):
        score(GOLD, pred)
    pred[2][1] = {"start": 1, "end": 2, "label": "LOC", "kb_id": "Q1"}
    pred[1].append({"start": 4, "label": "LOC"})
    with pytest.raises(ValueError, match=r"Span 1 of pred document 1 lacks 'end'.*keys 'start', 'end' and 'label'"):
        score(GOLD, pred)


def test_offsets_not_integers():
    with pytest.raises(
        ValueError, match=r"Span 0 of gold document 0 has non-integer offsets: start=0\.5, end=2.*integers"
    ):
        score([[(0.5, 2, "PER")], [], []], GOLD)


def test_span_of_the_wrong_shape():
    with pytest.raises(
        ValueError, match=r"Span 1 of pred document 0 is \(0, 2\)\. A span is a \(start, end, label\) tuple"
    ):
        score(GOLD, [[(0, 2, "PER"), (0, 2)], [], []])
    with pytest.raises(ValueError, match=r"Span 0 of gold document 2 lacks 'label'.*keys 'start', 'end' and 'label'"):
        score([[], [], [{"start": 0, "end": 1}]], GOLD)


# --------------------------------------------------------------------------
# Schemes
# --------------------------------------------------------------------------


def test_unknown_scheme():
    with pytest.raises(ValueError, match=rf"Unknown scheme 'fuzzy' in 'schemes'\. {VALID_SCHEMES}"):
        score(schemes=["strict", "fuzzy"])
    with pytest.raises(ValueError, match=rf"Unknown scheme 'ent_type' in 'schemes'\. {VALID_SCHEMES}"):
        score(schemes=["ent_type"])


def test_schemes_none_is_a_setting_error():
    with pytest.raises(SettingError, match=rf"No 'schemes' given: name at least one scheme\. {VALID_SCHEMES}"):
        score(schemes=None)


def test_schemes_omitted_is_a_setting_error():
    with pytest.raises(SettingError, match=r"schemes"):
        evaluate_spans(GOLD, GOLD)


def test_schemes_empty_is_a_value_error():
    with pytest.raises(ValueError, match=rf"'schemes' is empty: name at least one scheme\. {VALID_SCHEMES}"):
        score(schemes=[])


def test_scheme_named_twice():
    with pytest.raises(ValueError, match=r"Scheme 'iou' is named twice in 'schemes'"):
        score(schemes=["iou", "strict", "iou"])


# --------------------------------------------------------------------------
# Thresholds, unit, labels
# --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["iou_threshold", "overlap_threshold", "min_overlap"])
@pytest.mark.parametrize("value", [0, 1.5, -0.1])
def test_threshold_outside_zero_one(name, value):
    with pytest.raises(
        ValueError, match=rf"'{name}' must be in \(0, 1\] \(greater than 0, at most 1\), got {re.escape(repr(value))}\."
    ):
        score(**{name: value})


@pytest.mark.parametrize("name", ["iou_threshold", "overlap_threshold", "min_overlap"])
@pytest.mark.parametrize("value", ["0.5", True])
def test_threshold_not_a_number(name, value):
    with pytest.raises(ValueError, match=rf"'{name}' must be a number in \(0, 1\], got {re.escape(repr(value))}\."):
        score(**{name: value})


@pytest.mark.parametrize("name", ["iou_threshold", "overlap_threshold"])
def test_threshold_none_is_not_allowed(name):
    with pytest.raises(ValueError, match=rf"'{name}' must be a number in \(0, 1\], got None\."):
        score(**{name: None})


@pytest.mark.parametrize("name", ["iou_threshold", "overlap_threshold", "min_overlap"])
def test_threshold_of_one_is_allowed(name):
    assert score(**{name: 1})["strict"].f1 == 1.0


@pytest.mark.parametrize("unit", ["word", "chars", ""])
def test_unknown_unit(unit):
    with pytest.raises(ValueError, match=rf"Unknown unit {re.escape(repr(unit))} in 'unit'\. Valid units: token, char"):
        score(unit=unit)


def test_unit_none_is_the_input_s_own_token():
    # As MatchSettings has it: None is the input's own unit, tokens for spaCy Spans.
    import spacy

    doc = spacy.blank("en")("Ann Lee flew")
    gold, pred = [[doc[0:2]]], [[doc[0:1]]]  # "Ann Lee": tokens (0, 2), characters (0, 7)
    error = evaluate_spans(gold, pred, schemes="strict", unit=None, keep_errors=True)["strict"].errors[0]
    assert (error.gold.start, error.gold.end, error.pred[0].end) == (0, 2, 1)
    error = evaluate_spans(gold, pred, schemes="strict", unit="char", keep_errors=True)["strict"].errors[0]
    assert (error.gold.start, error.gold.end, error.pred[0].end) == (0, 7, 3)


def test_labels_empty_or_a_string():
    with pytest.raises(ValueError, match=r"'labels' is empty: give None for all labels or a list of labels"):
        score(labels=[])
    with pytest.raises(ValueError, match=r"'labels' holds 3, which is not a string"):
        score(labels=["PER", 3])
    # As every front door's keyword, a string is a comma-separated list (not
    # its characters); MatchSettings itself takes a list.
    assert score(labels="PER")["strict"].per_label.keys() == {"PER"}
    assert score(labels="PER,LOC")["strict"].per_label.keys() == {"PER", "LOC"}
    with pytest.raises(ValueError, match=r"'labels' must be a list of label strings, got the string 'PER'"):
        MatchSettings("strict", labels="PER")


def _no_schemes_calls():
    import spacy_spanf1
    from spacy_spanf1.integrations.hf import make_compute_metrics
    from spacy_spanf1.stats import breakdown

    return {
        "evaluate_spans": lambda: spacy_spanf1.evaluate_spans([[]], [[]]),
        "SpanScorer": lambda: spacy_spanf1.SpanScorer(),
        "evaluate_examples": lambda: spacy_spanf1.evaluate_examples([]),
        "make_compute_metrics": lambda: make_compute_metrics(["O", "B-PER", "I-PER"]),
        "breakdown": lambda: breakdown([[]], [[]], by="label"),
    }


@pytest.mark.parametrize("name", list(_no_schemes_calls()))
def test_schemes_left_out_is_a_setting_error_listing_the_valid_names(name):
    """The README's claim: leaving out `schemes` is a SettingError (a
    ValueError) that lists the valid names (not Python's "missing keyword
    argument")."""
    with pytest.raises(SettingError, match=VALID_SCHEMES):
        _no_schemes_calls()[name]()


def test_compare_files_without_schemes_names_the_setting(tmp_path):
    from spacy_spanf1 import compare_files
    from spacy_spanf1.formats import SettingError

    with pytest.raises(SettingError, match="No 'schemes' given.*" + VALID_SCHEMES):
        compare_files(tmp_path / "gold.jsonl", tmp_path / "pred.jsonl")
