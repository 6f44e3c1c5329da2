"""The pieces of a discontinuous entity linked by a named relation, as
Label Studio and doccano users annotate them (`fragment_relation`,
`--fragment-relation`): one span of several fragments, scored under every
scheme; without the setting the file reads as before."""

import json
import re
from dataclasses import astuple

import pytest

from helpers import assert_clean_failure, invoke, read, write, write_jsonl
from spacy_spanf1 import compare_files
from spacy_spanf1.formats import InputError
from spacy_spanf1.settings import SettingError
from spacy_spanf1.spans import Span

ALL = ["strict", "exact", "partial", "type", "iou", "overlap"]
# "muscle" 7-13, "joint" 18-23, "pain" 24-28, "today" 29-34
TEXT = "Severe muscle\nand joint pain today."


def region(rid, start, end, label="ADR"):
    value = {"start": start, "end": end, "text": TEXT[start:end], "labels": [label]}
    return {"id": rid, "from_name": "label", "to_name": "text", "type": "labels", "value": value}


def link(from_id, to_id, labels):
    return {"from_id": from_id, "to_id": to_id, "type": "relation", "direction": "right", "labels": labels}


def export(tmp_path, gold, pred=None, name="export.json"):
    task = {"id": 1, "data": {"text": TEXT}, "annotations": [{"result": gold}]}
    if pred is not None:
        task["predictions"] = [{"result": pred}]
    return write(tmp_path / name, json.dumps([task]))


MUSCLE_PAIN = [region("a", 7, 13), region("b", 24, 28), link("a", "b", ["piece"])]


def test_labelstudio_joins_linked_regions_into_one_span(tmp_path):
    path = export(tmp_path, MUSCLE_PAIN)
    [doc] = read("labelstudio", path, fragment_relation="piece")
    assert doc.spans == [Span(7, 28, "ADR")]
    assert doc.fragments == [((7, 13), (24, 28))]
    assert doc.relations is None  # the joining relation is not a relation of the task
    # without the setting: two spans and one relation between them, as before
    [plain] = read("labelstudio", path)
    assert plain.spans == [Span(7, 13, "ADR"), Span(24, 28, "ADR")] and plain.fragments is None
    assert plain.relations == [(Span(7, 13, "ADR"), Span(24, 28, "ADR"), "piece")]


def test_a_chain_of_links_is_one_entity_and_other_relations_stay(tmp_path):
    # a-b and b-c join three pieces; "at" links the joined entity to "today"
    gold = [
        region("a", 7, 13),
        region("b", 18, 23),
        region("c", 24, 28),
        region("t", 29, 34, "TIME"),
        link("a", "b", ["piece"]),
        link("c", "b", ["piece"]),
        link("b", "t", ["at"]),
    ]
    [doc] = read("labelstudio", export(tmp_path, gold), fragment_relation="piece")
    # "joint" 18-23 and "pain" 24-28 are a space apart, not touching: three fragments
    assert doc.spans == [Span(7, 28, "ADR"), Span(29, 34, "TIME")]
    assert doc.fragments == [((7, 13), (18, 23), (24, 28)), None]
    assert doc.relations == [(Span(7, 28, "ADR"), Span(29, 34, "TIME"), "at")]


def test_linked_pieces_score_under_every_scheme(tmp_path):
    # gold "muscle ... pain" (7-13 + 24-28: 10 positions) against the prediction "muscle" (7-13: 6)
    path = export(tmp_path, MUSCLE_PAIN, pred=[region("p", 7, 13)])
    scores = compare_files(path, path, format="labelstudio", schemes=ALL, fragment_relation="piece")
    # SemEval (COR, INC, PAR, MIS, SPU), then (TP, FP, FN)
    assert {scheme: astuple(result.totals) for scheme, result in scores.results.items()} == {
        "strict": (0, 1, 0, 0, 0),  # the bounds differ: incorrect
        "exact": (0, 1, 0, 0, 0),
        "partial": (0, 0, 1, 0, 0),  # the position sets overlap: partial
        "type": (1, 0, 0, 0, 0),  # the label is right: correct
        "iou": (1, 0, 0),  # 6 shared positions of 10 in the union, 0.6 >= 0.5: a match
        "overlap": (1, 0, 0),  # 6/10 of the gold and 6/6 of the prediction, both >= 0.5: a match
    }
    # the same export read without joining: two gold spans, "muscle" exact, "pain" missed
    plain = compare_files(path, path, format="labelstudio", schemes=["strict"])
    assert astuple(plain.results["strict"].totals) == (1, 0, 0, 1, 0)


def test_the_command_line_option(tmp_path):
    path = export(tmp_path, MUSCLE_PAIN, pred=[region("p", 7, 13), region("q", 24, 28), link("p", "q", ["piece"])])
    out = tmp_path / "out.json"
    result = invoke(
        ["compare", path, path, "--format", "labelstudio", "-s", "strict", "--fragment-relation", "piece", "-o", out]
    )
    assert result.exit_code == 0, result.output
    counts = json.loads(out.read_text())["schemes"]["strict"]["counts"]
    # the joined prediction is the joined gold: one COR, nothing else
    assert counts["cor"] == 1 and sum(counts.values()) == 1
    bad = export(tmp_path, [region("a", 7, 13), region("b", 24, 28, "Drug"), link("a", "b", ["piece"])], name="b.json")
    result = invoke(["compare", bad, path, "--format", "labelstudio", "-s", "strict", "--fragment-relation", "piece"])
    assert_clean_failure(result, 1, "linked as pieces of one entity but have different labels")


@pytest.mark.parametrize(
    "results, message",
    [
        (
            [region("a", 7, 13), region("b", 24, 28, "Drug"), link("a", "b", ["piece"])],
            r"task 1: the regions a \(ADR\), b \(Drug\) are linked as pieces of one entity but have different labels",
        ),
        (
            [region("a", 7, 13), link("a", "z", ["piece"])],
            r"task 1, relation 0 \(a -> z\) has \"to_id\" 'z', which is not a labeled region of it \(its regions: a\)",
        ),
        (
            [region("a", 7, 13), region("b", 24, 28), link("a", "b", ["piece", "causes"])],
            r"has the labels \['piece', 'causes'\]: 'piece' joins pieces of one entity, 'causes' names a relation",
        ),
    ],
)
def test_bad_links_are_one_clear_error(tmp_path, results, message):
    with pytest.raises(InputError, match=message):
        read("labelstudio", export(tmp_path, results), fragment_relation="piece")


def test_the_setting_is_checked(tmp_path):
    with pytest.raises(SettingError, match="'fragment_relation' is ''; it names the relation label"):
        read("labelstudio", export(tmp_path, MUSCLE_PAIN), fragment_relation="")
    plain = write_jsonl(tmp_path / "d.jsonl", [{"text": TEXT, "spans": []}])
    with pytest.raises(SettingError, match="'fragment_relation' applies to labelstudio, doccano input, not jsonl"):
        compare_files(plain, plain, schemes="strict", fragment_relation="piece")


def test_joined_pieces_share_one_kb_id(tmp_path):
    def kb(rid, kb_id):
        value = {"start": 0, "end": 1, "text": [kb_id]}
        return {"id": rid, "from_name": "kb", "to_name": "text", "type": "textarea", "value": value}

    # one piece names the id, the other none: the entity has it
    [doc] = read(
        "labelstudio", export(tmp_path, MUSCLE_PAIN + [kb("a", "Q1")]), fragment_relation="piece", kb_from="kb"
    )
    assert doc.links == [(Span(7, 28, "ADR"), "Q1")]
    path = export(tmp_path, MUSCLE_PAIN + [kb("a", "Q1"), kb("b", "Q2")], name="two.json")
    with pytest.raises(InputError, match=r"the pieces of the entity 7-28 \(ADR\) have the kb ids 'Q1' and 'Q2'"):
        read("labelstudio", path, fragment_relation="piece", kb_from="kb")


def doccano(entities, relations):
    rows = [
        {"id": eid, "label": label, "start_offset": start, "end_offset": end} for eid, start, end, label in entities
    ]
    return {"id": 1, "text": TEXT, "entities": rows, "relations": relations}


def test_doccano_joins_linked_entities(tmp_path):
    entities = [(1, 7, 13, "ADR"), (2, 24, 28, "ADR"), (3, 29, 34, "TIME")]
    relations = [
        {"id": 0, "from_id": 1, "to_id": 2, "type": "piece"},
        {"id": 1, "from_id": 2, "to_id": 3, "type": "at"},
    ]
    path = write_jsonl(tmp_path / "g.jsonl", [doccano(entities, relations)])
    [doc] = read("doccano", path, fragment_relation="piece")
    assert doc.spans == [Span(7, 28, "ADR"), Span(29, 34, "TIME")]
    assert doc.fragments == [((7, 13), (24, 28)), None]
    assert doc.relations == [(Span(7, 28, "ADR"), Span(29, 34, "TIME"), "at")]
    [plain] = read("doccano", path)
    assert plain.fragments is None and len(plain.spans) == 3 and len(plain.relations) == 2
    # scored against a contiguous prediction "muscle and joint pain" (7-28: 21 positions)
    pred = write_jsonl(tmp_path / "p.jsonl", [doccano([(1, 7, 28, "ADR"), (3, 29, 34, "TIME")], [])])
    scores = compare_files(path, pred, format="doccano", schemes=ALL, fragment_relation="piece")
    got = {scheme: astuple(result.totals) for scheme, result in scores.results.items()}
    # same outer bounds, different position sets: strict incorrect, partial partial; TIME exact
    assert got["strict"] == (1, 1, 0, 0, 0) and got["partial"] == (1, 0, 1, 0, 0)
    # iou 10/21 < 0.5: an FP and an FN beside the TIME match; overlap: 10/21 of the prediction < 0.5
    assert got["iou"] == (1, 1, 1) and got["overlap"] == (1, 1, 1)
    bad = write_jsonl(tmp_path / "b.jsonl", [doccano(entities, [{"from_id": 1, "to_id": 9, "type": "piece"}])])
    with pytest.raises(InputError, match=r"b\.jsonl:1: the record, relation 0 \(1 -> 9\) has \"to_id\" 9"):
        read("doccano", bad, fragment_relation="piece")


def test_joined_pieces_carry_one_score(tmp_path):
    def scored(first, second):
        entities = [
            {"id": 1, "label": "ADR", "start_offset": 7, "end_offset": 13, "score": first},
            {"id": 2, "label": "ADR", "start_offset": 24, "end_offset": 28, "score": second},
        ]
        return {"text": TEXT, "entities": entities, "relations": [{"from_id": 1, "to_id": 2, "type": "piece"}]}

    [doc] = read("doccano", write_jsonl(tmp_path / "p.jsonl", [scored(0.9, 0.9)]), "pred", fragment_relation="piece")
    # the entity once, with its pieces' score
    assert doc.scores == [(Span(7, 28, "ADR"), 0.9)] and doc.fragments == [((7, 13), (24, 28))]
    bad = write_jsonl(tmp_path / "b.jsonl", [scored(0.9, 0.8)])
    with pytest.raises(InputError, match=r"b\.jsonl:1: the record: the pieces of the entity \[\[7, 13\], \[24, 28\]\]"):
        read("doccano", bad, "pred", fragment_relation="piece")


def test_a_joining_label_no_relation_of_the_gold_carries_is_an_error_naming_those_it_has(tmp_path):
    # a typo ("pice") would join nothing and read the pieces' links as relations, in silence
    path = export(tmp_path, MUSCLE_PAIN + [region("t", 29, 34, "TIME"), link("b", "t", ["at"])], [region("p", 7, 13)])
    message = "no relation of the gold is labelled 'pice' ('fragment_relation'), so no pieces are joined; its relations are labelled 'at', 'piece'"
    with pytest.raises(InputError, match=re.escape(message)):
        read("labelstudio", path, fragment_relation="pice")
    result = invoke(["compare", path, path, "--format", "labelstudio", "-s", "strict", "--fragment-relation", "pice"])
    assert_clean_failure(result, 1, message.replace("'fragment_relation'", "'--fragment-relation'"))
    entities = [(1, 7, 13, "ADR"), (2, 24, 28, "ADR")]
    gold = write_jsonl(
        tmp_path / "g.jsonl", [doccano(entities, [{"id": 0, "from_id": 1, "to_id": 2, "type": "piece"}])]
    )
    with pytest.raises(InputError, match=re.escape("its relations are labelled 'piece'")):
        read("doccano", gold, fragment_relation="pice")
    # a prediction without joins, and a gold without any relation, are read as they are
    [doc] = read("doccano", gold, "pred", fragment_relation="pice")
    assert doc.spans == [Span(7, 13, "ADR"), Span(24, 28, "ADR")]
    plain = write_jsonl(tmp_path / "plain.jsonl", [doccano(entities, [])])
    assert [d.spans for d in read("doccano", plain, fragment_relation="piece")] == [doc.spans]
