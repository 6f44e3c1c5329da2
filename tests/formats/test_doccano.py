"""The doccano reader (`spacy_spanf1.formats.doccano`): a file written by hand in
doccano's JSONL export ("label" or "entities"), read as the same data written as JSONL would be, and each
problem named with its file in a one-line error."""

import pytest

import spacy_spanf1.formats.doccano  # noqa: F401  (registers "doccano")
from helpers import GOLD, PRED, TEXT, as_jsonl, counts, read, read_error, write, write_jsonl
from spacy_spanf1.formats import InputError
from spacy_spanf1.spans import Span


def test_doccano_label_and_entities_forms_equal(tmp_path):
    label = write_jsonl(
        tmp_path / "label.jsonl",
        [{"id": 7, "text": TEXT, "label": [[0, 12, "PER"], [17, 32, "PER"], [36, 42, "LOC"]], "Comments": []}],
    )
    entities = write_jsonl(
        tmp_path / "ent.jsonl",
        [
            {
                "id": 7,
                "text": TEXT,
                "Comments": [],
                "entities": [
                    {"id": 1, "label": "PER", "start_offset": 0, "end_offset": 12},
                    {"id": 2, "label": "PER", "start_offset": 17, "end_offset": 32},
                    {"id": 3, "label": "LOC", "start_offset": 36, "end_offset": 42},
                ],
                "relations": [{"id": 1, "from_id": 1, "to_id": 2, "type": "knows"}],
            }
        ],
    )
    a, b = read("doccano", label)[0], read("doccano", entities)[0]
    assert a.spans == b.spans == GOLD
    assert a.meta == b.meta == {"id": 7, "Comments": []} and not a.counts and not b.counts
    # the relation, between entities 1 and 2 by their ids, is read (not counted as not scored)
    assert a.relations is None and b.relations == [(GOLD[0], GOLD[1], "knows")]
    jg = as_jsonl(tmp_path, "g.jsonl", TEXT, GOLD)
    assert jg[0].spans == a.spans and jg[0].text == a.text
    pred = write_jsonl(
        tmp_path / "pred.jsonl", [{"text": TEXT, "label": [[0, 3, "PER"], [17, 32, "ORG"], [36, 42, "LOC"]]}]
    )
    p = read("doccano", pred, side="pred")[0]
    jp = as_jsonl(tmp_path, "p.jsonl", TEXT, PRED)
    assert counts([a.spans], [p.spans]) == counts([jg[0].spans], [jp[0].spans])


def test_doccano_no_annotation(tmp_path):
    path = write_jsonl(tmp_path / "d.jsonl", [{"text": TEXT}, {"text": TEXT, "label": [[0, 3, "PER"]]}])
    assert read("doccano", path)[0].spans is None
    assert read("doccano", path, side="pred")[0].spans == []


def test_doccano_prediction_without_any_span_field_is_an_error(tmp_path):
    path = write_jsonl(tmp_path / "d.jsonl", [{"text": TEXT}, {"text": TEXT}])
    with pytest.raises(InputError) as err:
        read("doccano", path, side="pred")
    message = str(err.value)
    assert "predicts nothing" in message and '"label"' in message and "d.jsonl" in message


def test_doccano_1x_labels_is_read_as_label(tmp_path):
    # doccano 1.x sequence-labeling export: {"id", "text", "labels": [[start, end, label]]}
    old = write_jsonl(tmp_path / "old.jsonl", [{"id": 7, "text": TEXT, "labels": [[0, 12, "PER"], [36, 42, "LOC"]]}])
    new = write_jsonl(tmp_path / "new.jsonl", [{"id": 7, "text": TEXT, "label": [[0, 12, "PER"], [36, 42, "LOC"]]}])
    assert read("doccano", old)[0].spans == read("doccano", new)[0].spans == [Span(0, 12, "PER"), Span(36, 42, "LOC")]
    assert read("doccano", old)[0].meta == {"id": 7}


def test_doccano_misspelled_span_field_is_an_error(tmp_path):
    path = write_jsonl(tmp_path / "d.jsonl", [{"text": TEXT, "lable": [[0, 3, "PER"]]}])
    with pytest.raises(InputError, match='"lable": a misspelling of "label"'):
        read("doccano", path)


@pytest.mark.parametrize(
    "record,problem",
    [
        ({"text": TEXT, "label": [[0, 99, "PER"]]}, "0 <= start < end <= 43"),
        ({"text": TEXT, "label": [[0, 3]]}, "not [start, end, label]"),
        ({"text": TEXT, "label": ["positive"]}, "text-classification export"),
        ({"text": TEXT, "label": [[0, 3, ""]]}, "labels are non-empty strings"),
        ({"text": TEXT, "entities": [{"start_offset": 0, "end_offset": 3}]}, "lacks 'label'"),
        ({"text": TEXT, "label": [], "entities": []}, "both"),
        ({"label": []}, "no 'text' field"),
        # a fourth item is a score or an error (one that is no number was
        # read as a three-item span, the item dropped)
        (
            {"text": TEXT, "label": [[0, 3, "PER", "extra"]]},
            "item 0 of \"label\" is [0, 3, 'PER', 'extra'], whose fourth item is not a number",
        ),
        (
            {"text": TEXT, "label": [[0, 3, "PER", 0.5], [4, 7, "LOC", None]]},
            "item 1 of \"label\" is [4, 7, 'LOC', None], whose fourth item is not a number",
        ),
        ({"text": TEXT, "labels": [[0, 3, "PER", True]]}, "item 0 of \"labels\" is [0, 3, 'PER', True]"),
        ({"text": TEXT, "label": [[0, 3, "PER", 0.5, "x"]]}, "not [start, end, label] or [start, end, label, score]"),
        (
            {"text": TEXT, "entities": [{"start_offset": 0, "end_offset": 3, "label": "PER", "score": "high"}]},
            "entity 0 has the \"score\" 'high', not a number",
        ),
    ],
    ids=[
        "offsets",
        "short",
        "classification",
        "empty-label",
        "no-label",
        "both",
        "no-text",
        "word",
        "null",
        "bool",
        "five-items",
        "entity-score",
    ],
)
def test_doccano_errors(tmp_path, record, problem):
    path = write_jsonl(tmp_path / "d.jsonl", [record])
    message = read_error("doccano", path)
    assert problem in message and f"{path}:1:" in message


def test_doccano_malformed_json(tmp_path):
    path = write(tmp_path / "d.jsonl", '{"text": "a"}\n{"text": \n')
    message = read_error("doccano", path)
    assert f"{path}:2: invalid JSON" in message


def test_a_numeric_fourth_item_is_a_score(tmp_path):
    path = write_jsonl(tmp_path / "d.jsonl", [{"text": TEXT, "label": [[0, 3, "PER", 0.25], [4, 7, "LOC", 1]]}])
    doc = read("doccano", path, side="pred")[0]
    assert doc.spans == [Span(0, 3, "PER"), Span(4, 7, "LOC")]
    assert doc.scores == [(Span(0, 3, "PER"), 0.25), (Span(4, 7, "LOC"), 1)]
