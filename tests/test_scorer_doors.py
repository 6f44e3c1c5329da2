"""The scorers' front doors (span lists, breakdowns, mentions, spaCy
Examples, tag sequences) take `match=MatchSettings(...)` or its fields as
typed keywords, as the file doors do: the same numbers either way, a
keyword beside the object written over its field, an unknown keyword a
TypeError naming the valid ones, a bad value or a setting the door does
not apply a SettingError naming the setting. The registered scorer takes
each setting as its own config key, and spaCy refuses one it does not know."""

import inspect
import warnings

import pytest
import spacy
from spacy.training import Example

from spacy_spanf1 import MatchSettings, SettingError, evaluate_examples, evaluate_mentions, evaluate_spans
from spacy_spanf1.integrations.hf import make_compute_metrics
from spacy_spanf1.report.relations import relation_error_records
from spacy_spanf1.stats import breakdown

#: "Ann Lee" (characters 0-7, tokens 0-2) found as "Ann" (0-3, tokens
#: 0-1): IoU 1 / 2 in tokens, 3 / 7 = 0.43 in characters.
TEXT = "Ann Lee flew home"


def as_dicts(results):
    return {scheme: result.to_dict() for scheme, result in results.items()}


def ann_example():
    nlp = spacy.blank("en")
    reference, predicted = nlp(TEXT), nlp(TEXT)
    reference.ents = [reference.char_span(0, 7, "PER")]
    predicted.ents = [predicted.char_span(0, 3, "PER")]
    reference.spans["sc"] = list(reference.ents)
    predicted.spans["sc"] = list(predicted.ents)
    return Example(predicted, reference)


def run_breakdown(**settings):
    gold, pred = [[(0, 4, "PER"), (5, 6, "LOC")]], [[(0, 2, "PER"), (5, 6, "LOC")]]
    return {s: [b.to_dict() for b in bs] for s, bs in breakdown(gold, pred, by="label", **settings).items()}


def run_mentions(**settings):
    found = evaluate_mentions([[(0, 7, "PER")]], [[("Ann", "PER")]], texts=[TEXT], **settings)
    return as_dicts(found.results)


def run_tags(**settings):
    # -100 dropped: gold B-PER I-PER O (a span of tokens 0-2), predicted B-PER O O (0-1)
    compute = make_compute_metrics(["O", "B-PER", "I-PER"], **settings)
    return compute(([[0, 1, 0, 0, 0]], [[-100, 1, 2, 0, -100]]))


#: Each door called with its other arguments; its settings come as keywords.
DOORS = {
    "evaluate_spans": lambda **s: as_dicts(evaluate_spans([[(0, 2, "PER")]], [[(0, 1, "PER")]], **s)),
    "breakdown": run_breakdown,
    "evaluate_mentions": run_mentions,
    "evaluate_examples": lambda **s: as_dicts(evaluate_examples([ann_example()], **s)),
    "make_compute_metrics": run_tags,
}


# --------------------------------------------------------------------------
# The settings object and the keywords give the same numbers
# --------------------------------------------------------------------------


@pytest.mark.parametrize("door", list(DOORS))
def test_the_object_and_the_keywords_give_the_same_numbers(door):
    run = DOORS[door]
    by_object = run(match=MatchSettings(["strict", "iou"], iou_threshold=0.6, labels=["PER"]))
    by_keywords = run(schemes="strict,iou", iou_threshold=0.6, labels="PER")
    assert by_object == by_keywords
    # a keyword beside the object is written over its field: "Ann" for "Ann
    # Lee" (IoU 1 / 2 in tokens, 3 / 7 in characters) matches at 0.4, not at 0.6
    written_over = run(match=MatchSettings(["strict", "iou"], iou_threshold=0.6), iou_threshold=0.4)
    assert written_over == run(schemes=["strict", "iou"], iou_threshold=0.4)
    assert written_over != run(match=MatchSettings(["strict", "iou"], iou_threshold=0.6))


def test_the_thresholds_reach_the_scorer_by_hand():
    # "Ann" for "Ann Lee": IoU 1 / 2 in tokens, a match at 0.5 not at 0.6
    strict_iou = MatchSettings(["strict", "iou"])
    assert DOORS["evaluate_spans"](match=strict_iou)["iou"]["label_counts"]["PER"] == {"tp": 1, "fp": 0, "fn": 0}
    assert DOORS["evaluate_spans"](match=strict_iou, iou_threshold=0.6)["iou"]["label_counts"]["PER"] == {
        "tp": 0,
        "fp": 1,
        "fn": 1,
    }
    assert DOORS["evaluate_examples"](match=strict_iou.replace(spans_key="sc"))["iou"]["f"] == 1.0
    assert DOORS["evaluate_examples"](match=strict_iou, spans_key="sc", iou_threshold=0.6)["iou"]["f"] == 0.0
    assert run_tags(match=strict_iou)["iou_f1"] == 1.0 and run_tags(match=strict_iou, iou_threshold=0.6)["iou_f1"] == 0
    # in characters, 3 / 7 = 0.43: a match at 0.4 not at the default 0.5
    assert run_mentions(match=strict_iou, iou_threshold=0.4)["iou"]["f"] == 1.0
    assert run_mentions(match=strict_iou)["iou"]["f"] == 0.0
    # breakdown by label (LOC, PER), PER (0, 4) against (0, 2): IoU 1 / 2
    assert [b["counts"]["gold"]["tp"] for b in run_breakdown(match=strict_iou)["iou"]] == [1, 1]
    assert [b["counts"]["gold"]["tp"] for b in run_breakdown(match=strict_iou, iou_threshold=0.6)["iou"]] == [1, 0]


def test_mentions_take_string_schemes_alone_as_a_keyword():
    # "Ann" is not the gold string "Ann Lee": (0 tp, 1 fp, 1 fn) under strings
    alone = run_mentions(schemes=["strings"])
    assert alone["strings"]["label_counts"] == {"PER": {"tp": 0, "fp": 1, "fn": 1}}
    assert run_mentions(match=MatchSettings(["strict", "strings"])) == run_mentions(schemes="strict,strings")
    assert run_mentions(match=MatchSettings("strict"), schemes=["strings"]) == alone  # the keyword wins
    with pytest.raises(SettingError, match=r"'iou_threshold' must be in \(0, 1\]") as found:
        run_mentions(schemes=["strings"], iou_threshold=2)  # checked without a span scheme too
    assert found.value.setting == "iou_threshold"


def test_evaluate_spans_unit_and_spans_key():
    doc = spacy.blank("en")(TEXT)
    gold, pred = [[doc[0:2]]], [[doc[0:1]]]
    by_object = evaluate_spans(gold, pred, match=MatchSettings("strict", unit="char"), keep_errors=True)
    by_keyword = evaluate_spans(gold, pred, schemes="strict", unit="char", keep_errors=True)
    assert by_object["strict"].errors == by_keyword["strict"].errors
    assert by_object["strict"].errors[0].gold[:2] == (0, 7)  # "Ann Lee" in characters


# --------------------------------------------------------------------------
# An unknown keyword, a bad value, a setting a door does not apply
# --------------------------------------------------------------------------


@pytest.mark.parametrize("door", list(DOORS))
def test_an_unknown_keyword_is_a_type_error_naming_the_valid_ones(door):
    with pytest.raises(TypeError) as found:
        DOORS[door](schemes="strict", iou_treshold=0.3)
    message = str(found.value)
    assert f"{door}() got an unexpected keyword argument 'iou_treshold'. Valid keywords: " in message
    valid = message.split("Valid keywords: ")[1].split(", ")
    assert {"match", "schemes", "iou_threshold", "labels"} <= set(valid)


@pytest.mark.parametrize("door", list(DOORS))
def test_a_bad_value_is_a_setting_error_naming_the_setting(door):
    for form in ({"schemes": "strict", "overlap_threshold": "half"}, {"schemes": "strict,exakt"}):
        with pytest.raises(SettingError) as found:
            DOORS[door](**form)
        assert found.value.setting == list(form)[-1]
    with pytest.raises(TypeError, match=r"'match' must be a MatchSettings \(or None\), got str: 'strict'"):
        DOORS[door](match="strict")


@pytest.mark.parametrize(
    "door, setting",
    [
        ("evaluate_spans", {"spans_key": "sc"}),
        ("evaluate_spans", {"beta": 2.0}),
        ("breakdown", {"beta": 2.0}),
        ("evaluate_mentions", {"spans_key": "sc"}),
        ("evaluate_examples", {"beta": 2.0}),
        ("make_compute_metrics", {"label_map": {"PER": "P"}}),
        ("make_compute_metrics", {"unit": "char"}),
    ],
)
def test_a_setting_a_door_does_not_apply_is_refused(door, setting):
    name = list(setting)[0]
    with pytest.raises(SettingError, match=rf"'{name}' \(.*\) does not apply to {door}") as found:
        DOORS[door](match=MatchSettings("strict", **setting))
    assert found.value.setting == name


def test_the_warnings_of_evaluate_spans_name_the_caller_s_line():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        evaluate_spans([[(0, 1, "A")]], [[(0, 1, "B")]], schemes="strict", labels=["C"])
        evaluate_spans([[(0, 1, "A")]], [[(0, 1, "B")]], schemes="strict", label_map={"B": "C"})
    messages = [str(w.message) for w in caught]
    assert len(messages) == 2 and "'labels' names 'C'" in messages[0]
    assert messages[1] == 'the label map does not name the gold labels "A" (1 span): scored as they are'
    assert [w.filename for w in caught] == [__file__] * len(caught)


# --------------------------------------------------------------------------
# The registered scorer and the relation error lines: named settings
# --------------------------------------------------------------------------


def test_the_registered_scorer_refuses_a_key_it_does_not_take():
    from confection import ConfigValidationError

    config = {"scorer": {"@scorers": "spacy-spanf1.scorer.v1", "schemes": ["strict"], "iou_treshold": 0.3}}
    with pytest.raises(ConfigValidationError) as found:
        spacy.registry.resolve(config)
    assert "iou_treshold" in str(found.value)
    block = {"@scorers": "spacy-spanf1.scorer.v1", "schemes": ["strict", "iou"], "iou_threshold": 0.3}
    # strict: "Ann" for "Ann Lee" is no match; iou at 0.3: IoU 1 / 2 is one
    scores = spacy.registry.resolve({"scorer": block})["scorer"]([ann_example()])
    assert (scores["ents_f"], scores["ents_iou_f"]) == (0.0, 1.0)


def test_relation_error_records_name_their_settings():
    records = inspect.signature(relation_error_records).parameters
    assert not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in records.values())
    assert relation_error_records({}, "rel_strict", symmetric=["sibling"]) == []
