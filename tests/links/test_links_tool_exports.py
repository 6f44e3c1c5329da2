"""Kb ids from annotation tools' exports, written as the tools write them:
Label Studio's per-region results (a TextArea, Choices or Taxonomy with
perRegion="true" shares the region's "id" with its labels result; the
control is named with `kb_from`), and Prodigy's entity-linking tasks
(`entity_linker.manual`: one span, its candidates as "options", the id
chosen in "accept") or a span's "kb_id". Counts by hand; bad input is one
clear error each."""

import json

import pytest

from helpers import assert_clean_failure, invoke
from spacy_spanf1 import compare_files
from spacy_spanf1.exceptions import InputError, SettingError
from spacy_spanf1.formats import get_format

TEXT = "Douglas Adams was born in Cambridge and lived in London."
ADAMS, CAMBRIDGE, LONDON = (0, 13), (26, 35), (49, 55)
SCHEMES = "strict,strong_mention_match,strong_link_match,strong_nil_match,strong_all_match"

# ---------------------------------------------------------------- Label Studio


def region(rid, where, label):
    start, end = where
    value = {"start": start, "end": end, "text": TEXT[start:end], "labels": [label]}
    return {"id": rid, "from_name": "label", "to_name": "text", "type": "labels", "value": value}


def per_region(rid, where, kind, chosen, control="entity_id"):
    """A per-region result as Label Studio exports it: the region's offsets
    beside the control's own value (a TextArea's "text" list, a Choices'
    "choices", a Taxonomy's "taxonomy" paths)."""
    start, end = where
    key = {"textarea": "text", "choices": "choices", "taxonomy": "taxonomy"}[kind]
    return {
        "id": rid,
        "from_name": control,
        "to_name": "text",
        "type": kind,
        "value": {"start": start, "end": end, key: chosen},
    }


def export(path, annotations=None, predictions=None):
    task = {"id": 7, "data": {"text": TEXT}}
    if annotations is not None:
        task["annotations"] = [{"id": 1, "completed_by": 1, "result": annotations}]
    if predictions is not None:
        task["predictions"] = [{"model_version": "el", "result": predictions}]
    path.write_text(json.dumps([task]), encoding="utf8")
    return path


def labelstudio_pair(tmp_path, kind="textarea"):
    ids = {"textarea": lambda q: [q], "choices": lambda q: [q], "taxonomy": lambda q: [["Wikidata", q]]}[kind]
    gold = [
        region("g1", ADAMS, "PER"),
        per_region("g1", ADAMS, kind, ids("Q42")),
        region("g2", CAMBRIDGE, "LOC"),
        per_region("g2", CAMBRIDGE, kind, ids("Q350")),
        region("g3", LONDON, "LOC"),  # no kb id: NIL
    ]
    pred = [
        region("p1", ADAMS, "PER"),
        per_region("p1", ADAMS, kind, ids("Q42")),  # right
        region("p2", CAMBRIDGE, "LOC"),
        per_region("p2", CAMBRIDGE, kind, ids("Q49108")),  # wrong id (Cambridge, Massachusetts)
        region("p3", LONDON, "LOC"),
        per_region("p3", LONDON, kind, []),  # an empty TextArea: NIL
    ]
    return export(tmp_path / "gold.json", annotations=gold), export(tmp_path / "pred.json", predictions=pred)


def totals(scores, name):
    c = scores.results[name].totals
    return c.tp, c.fp, c.fn


@pytest.mark.parametrize("kind", ["textarea", "choices", "taxonomy"])
def test_label_studio_per_region_kb_ids(tmp_path, kind):
    gold, pred = labelstudio_pair(tmp_path, kind)
    scores = compare_files(gold, pred, format="labelstudio", schemes=SCHEMES, kb_from="entity_id")
    # gold: Adams Q42, Cambridge Q350, London NIL; pred: Adams Q42, Cambridge Q49108, London NIL
    assert totals(scores, "strong_mention_match") == (3, 0, 0)  # the same three offsets
    assert totals(scores, "strong_link_match") == (1, 1, 1)  # Adams right; Cambridge an FP and an FN
    assert totals(scores, "strong_nil_match") == (1, 0, 0)  # London NIL on both sides
    assert totals(scores, "strong_all_match") == (2, 1, 1)


def test_label_studio_without_kb_from_reads_no_ids_and_counts_the_results(tmp_path):
    gold, pred = labelstudio_pair(tmp_path)
    with pytest.warns(UserWarning, match="carries no knowledge-base id"):
        scores = compare_files(gold, pred, format="labelstudio", schemes=SCHEMES)
    assert totals(scores, "strong_all_match") == (3, 0, 0)  # every span NIL on both sides
    # the per-region results are counted as results not read, as before
    (doc,) = get_format("labelstudio").read(gold, side="gold", unit="char")
    assert doc.links is None and doc.counts == {"other_results": 2}


def test_label_studio_prediction_without_the_control_scores_nil(tmp_path):
    gold, _ = labelstudio_pair(tmp_path)
    pred = export(tmp_path / "bare.json", predictions=[region("p1", ADAMS, "PER")])
    with pytest.warns(UserWarning, match="the prediction carries no knowledge-base id"):
        scores = compare_files(gold, pred, format="labelstudio", schemes=SCHEMES, kb_from="entity_id")
    # the NIL prediction at Adams's offsets against the gold Q42: an FP and an FN;
    # Cambridge and London missed
    assert totals(scores, "strong_all_match") == (0, 1, 3)


def test_label_studio_kb_from_on_the_command_line(tmp_path):
    gold, pred = labelstudio_pair(tmp_path)
    out = tmp_path / "out.json"
    args = ["compare", gold, pred, "--format", "labelstudio", "-s", SCHEMES, "--kb-from", "entity_id"]
    result = invoke([*args, "--output", out, "--silent"])
    assert result.exit_code == 0, result.output
    counts = json.loads(out.read_text(encoding="utf8"))["schemes"]["strong_all_match"]["counts"]
    assert counts == {"tp": 2, "fp": 1, "fn": 1}


@pytest.mark.parametrize(
    "results, message",
    [
        ([region("g1", ADAMS, "PER"), per_region("g1", ADAMS, "textarea", [42])], "kb_id of type int"),
        ([region("g1", ADAMS, "PER"), per_region("g1", ADAMS, "choices", ["Q42", "Q5"])], "2 kb ids"),
        ([region("g1", ADAMS, "PER"), per_region("zz", ADAMS, "textarea", ["Q42"])], "no labels result of the same id"),
        ([region("g1", ADAMS, "PER"), per_region("g1", ADAMS, "textarea", ["Q42"], "comment")], "'comment'"),
    ],
    ids=["not a string", "two ids", "no region", "no such control"],
)
def test_label_studio_bad_kb_ids_are_one_clear_error(tmp_path, results, message):
    gold = export(tmp_path / "gold.json", annotations=results)
    pred = export(tmp_path / "pred.json", predictions=[region("p1", ADAMS, "PER")])
    with pytest.raises(InputError, match=message):
        compare_files(gold, pred, format="labelstudio", schemes=SCHEMES, kb_from="entity_id")
    args = ["compare", gold, pred, "--format", "labelstudio", "-s", SCHEMES, "--kb-from", "entity_id", "--silent"]
    result = invoke(args)
    assert_clean_failure(result, 1, message)


def test_label_studio_kb_from_must_name_a_control(tmp_path):
    gold, pred = labelstudio_pair(tmp_path)
    with pytest.raises(SettingError, match="kb_from"):
        compare_files(gold, pred, format="labelstudio", schemes=SCHEMES, kb_from="")


# ---------------------------------------------------------------- Prodigy

OPTIONS = [
    {"id": "Q42", "html": "<a href='https://www.wikidata.org/wiki/Q42'>Q42</a>: English writer"},
    {"id": "Q350", "html": "<a href='https://www.wikidata.org/wiki/Q350'>Q350</a>: city in England"},
    {"id": "Q49108", "html": "<a href='https://www.wikidata.org/wiki/Q49108'>Q49108</a>: city in Massachusetts"},
    {"id": "NIL_otherLink", "text": "Link not in options"},
    {"id": "NIL_ambiguous", "text": "Need more context"},
]


def el_task(where, label, accept, input_hash, answer="accept"):
    """A task of the entity-linking recipe, as `prodigy db-out` writes it."""
    start, end = where
    return {
        "text": TEXT,
        "_input_hash": input_hash,
        "_task_hash": input_hash * 7,
        "spans": [{"start": start, "end": end, "text": TEXT[start:end], "label": label}],
        "options": OPTIONS,
        "_view_id": "choice",
        "config": {"choice_style": "single"},
        "accept": accept,
        "answer": answer,
    }


def write_lines(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf8")
    return path


def test_prodigy_entity_linking_answers(tmp_path):
    # one mention a task; each task its own key here (see docs/formats.md on tasks that share one)
    gold = write_lines(
        tmp_path / "gold.jsonl",
        [
            el_task(ADAMS, "PERSON", ["Q42"], 1),
            el_task(CAMBRIDGE, "GPE", ["Q350"], 2),
            el_task(LONDON, "GPE", ["NIL_otherLink"], 3),  # a NIL id
            el_task(LONDON, "GPE", ["Q84"], 4, answer="reject"),  # not annotation: skipped
        ],
    )
    pred = write_lines(
        tmp_path / "pred.jsonl",
        [
            el_task(ADAMS, "PERSON", ["Q42"], 1),
            el_task(CAMBRIDGE, "GPE", ["Q49108"], 2),
            el_task(LONDON, "GPE", [], 3),  # no choice: NIL
            el_task(LONDON, "GPE", [], 4),
        ],
    )
    scores = compare_files(gold, pred, format="prodigy", schemes=SCHEMES)
    assert totals(scores, "strong_mention_match") == (3, 0, 0)
    assert totals(scores, "strong_link_match") == (1, 1, 1)  # Adams; Cambridge wrong
    assert totals(scores, "strong_nil_match") == (1, 0, 0)  # NIL_otherLink and no choice: both NIL
    assert totals(scores, "strong_all_match") == (2, 1, 1)


def test_prodigy_span_kb_ids(tmp_path):
    def record(ids):
        spans = [
            {"start": s, "end": e, "label": "X", **({} if kb is None else {"kb_id": kb})}
            for (s, e), kb in zip((ADAMS, CAMBRIDGE), ids)
        ]
        return {"text": TEXT, "spans": spans, "answer": "accept"}

    gold = write_lines(tmp_path / "gold.jsonl", [record(["Q42", "Q350"])])
    pred = write_lines(tmp_path / "pred.jsonl", [record(["Q42", None])])
    scores = compare_files(gold, pred, format="prodigy", schemes=SCHEMES)
    assert totals(scores, "strong_link_match") == (1, 0, 1)  # Cambridge's NIL prediction is not a linked span
    assert totals(scores, "strong_all_match") == (1, 1, 1)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"accept": [42]}, "kb_id of type int"),
        ({"accept": ["Q42", "Q350"]}, "links one span to the one option"),
        ({"spans": [{"start": 0, "end": 7, "label": "P"}, {"start": 8, "end": 13, "label": "P"}]}, "has 2 spans"),
        ({"spans": [{"start": 0, "end": 13, "label": "P", "kb_id": "Q42"}]}, "kb ids twice"),
    ],
    ids=["not a string", "two ids", "two spans", "twice"],
)
def test_prodigy_bad_kb_ids_are_one_clear_error(tmp_path, change, message):
    gold = write_lines(tmp_path / "gold.jsonl", [{**el_task(ADAMS, "PERSON", ["Q42"], 1), **change}])
    with pytest.raises(InputError, match=message):
        compare_files(gold, gold, format="prodigy", schemes=SCHEMES)
    assert_clean_failure(invoke(["compare", gold, gold, "--format", "prodigy", "-s", SCHEMES, "--silent"]), 1, message)
