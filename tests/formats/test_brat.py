"""The brat, Label Studio, doccano, Prodigy and tags readers: each reads a
file written by hand in the tool's own export layout, agrees with the same
data written as JSONL (or CoNLL), and names the file and the problem in a
one-line error."""
import json

import pytest

import spacy_spanf1.formats.brat  # noqa: F401  (registers "brat")
import spacy_spanf1.formats.doccano  # noqa: F401
import spacy_spanf1.formats.labelstudio  # noqa: F401
import spacy_spanf1.formats.prodigy  # noqa: F401
import spacy_spanf1.formats.tags  # noqa: F401
from spacy_spanf1 import registry
from spacy_spanf1.counts import PRFCounts, SemEvalCounts
from spacy_spanf1.evaluate import evaluate_spans
from spacy_spanf1.formats import InputError, UsageError, read_conll, read_jsonl
from spacy_spanf1.spans import Span

TEXT = "Ada Lovelace met Charles Babbage in London."
# Ada Lovelace 0-12, Charles Babbage 17-32, London 36-42
GOLD = [Span(0, 12, "PER"), Span(17, 32, "PER"), Span(36, 42, "LOC")]
PRED = [Span(0, 3, "PER"), Span(17, 32, "ORG"), Span(36, 42, "LOC")]


def read(name, path, side="gold", unit=None, **options):
    fmt = registry.formats.get(name)
    return list(fmt.read(path, side=side, unit=unit or fmt.units[0], **options))


def write(path, text):
    path.write_text(text, encoding="utf-8", newline="")
    return path


def jsonl_file(path, *records):
    return write(path, "".join(json.dumps(r) + "\n" for r in records))


def as_jsonl(tmp_path, name, text, spans):
    spans = [{"start": s, "end": e, "label": lab} for s, e, lab in spans]
    return list(read_jsonl(jsonl_file(tmp_path / name, {"text": text, "spans": spans})))


def counts(gold, pred, unit="char"):
    res = evaluate_spans(gold, pred, schemes=["strict", "iou"], unit=unit)
    return {scheme: result.totals for scheme, result in res.items()}


def one_line(err):
    msg = str(err.value)
    assert "\n" not in msg
    return msg


@pytest.mark.parametrize("name", ["brat", "labelstudio", "doccano", "prodigy", "tags"])
def test_registered(name):
    fmt = registry.formats.get(name)
    assert fmt.name == name
    assert fmt.units[0] in ("char", "token")


# --------------------------------------------------------------------------
# brat
# --------------------------------------------------------------------------


def brat_dir(tmp_path, docs, sub="brat"):
    folder = tmp_path / sub
    folder.mkdir()
    for name, (text, ann) in docs.items():
        write(folder / f"{name}.txt", text)
        write(folder / f"{name}.ann", ann)
    return folder


GOLD_ANN = "T1\tPER 0 12\tAda Lovelace\nT2\tPER 17 32\tCharles Babbage\nT3\tLOC 36 42\tLondon\n"
PRED_ANN = "T1\tPER 0 3\tAda\nT2\tORG 17 32\tCharles Babbage\nT3\tLOC 36 42\tLondon\n"


def test_brat_reads_standoff_like_jsonl(tmp_path):
    gold_dir = brat_dir(tmp_path, {"b": (TEXT, GOLD_ANN), "a": ("Paris.", "T1\tLOC 0 5\tParis\n")})
    write(gold_dir / "annotation.conf", "[entities]\nPER\nLOC\n")
    docs = read("brat", gold_dir)
    assert [d.key for d in docs] == ["a", "b"]
    assert docs[0].name == "file 'a.ann'"
    assert docs[1].spans == GOLD and docs[1].text == TEXT
    jsonl = as_jsonl(tmp_path, "g.jsonl", TEXT, GOLD)
    assert jsonl[0].spans == docs[1].spans and jsonl[0].text == docs[1].text
    pred_dir = brat_dir(tmp_path, {"b": (TEXT, PRED_ANN)}, "pred")
    pred = read("brat", pred_dir, side="pred")
    jsonl_pred = as_jsonl(tmp_path, "p.jsonl", TEXT, PRED)
    assert counts([docs[1].spans], [pred[0].spans]) == counts([jsonl[0].spans], [jsonl_pred[0].spans])
    found = counts([docs[1].spans], [pred[0].spans])
    assert found == {"strict": SemEvalCounts(cor=1, inc=2, par=0, mis=0, spu=0), "iou": PRFCounts(tp=1, fp=2, fn=2)}


def test_brat_line_break_fragments_merge_by_default(tmp_path):
    text = "New\nYork is big."
    folder = brat_dir(tmp_path, {"d": (text, "T1\tLOC 0 3;4 8\tNew York\n")})
    assert read("brat", folder)[0].spans == [Span(0, 8, "LOC")]
    assert read("brat", folder, fragments="split")[0].spans == [Span(0, 8, "LOC")]


def test_brat_crlf_counts_as_one_character_like_brat(tmp_path):
    text = "Hi.\r\nParis is big."
    folder = brat_dir(tmp_path, {"d": (text, "T1\tLOC 4 9\tParis\n")})
    doc = read("brat", folder)[0]
    assert doc.text == "Hi.\nParis is big." and doc.spans == [Span(4, 9, "LOC")]
    keep = brat_dir(tmp_path, {"d": (text, "T1\tLOC 5 10\tParis\n")}, "keep")
    doc = read("brat", keep, newlines="keep")[0]
    assert doc.text == text and doc.spans == [Span(5, 10, "LOC")]


def test_brat_bom_shifts_offsets(tmp_path):
    folder = tmp_path / "bom"
    folder.mkdir()
    (folder / "d.txt").write_bytes(b"\xef\xbb\xbfParis.")
    write(folder / "d.ann", "T1\tLOC 1 6\tParis\n")
    doc = read("brat", folder)[0]
    assert doc.text == "Paris." and doc.spans == [Span(0, 5, "LOC")]


DISCONTINUOUS = ("tea and coffee cups", "T1\tITEM 0 3;15 19\ttea cups\n")


@pytest.mark.parametrize(
    "fragments,spans",
    [("merge", [Span(0, 19, "ITEM")]), ("split", [Span(0, 3, "ITEM"), Span(15, 19, "ITEM")])],
)
def test_brat_discontinuous(tmp_path, fragments, spans):
    folder = brat_dir(tmp_path, {"d": DISCONTINUOUS})
    assert read("brat", folder, fragments=fragments)[0].spans == spans


@pytest.mark.parametrize("fragments", [None, "error"])
def test_brat_discontinuous_error_names_entity(tmp_path, fragments):
    folder = brat_dir(tmp_path, {"d": DISCONTINUOUS})
    with pytest.raises(InputError) as err:
        read("brat", folder, fragments=fragments)
    msg = one_line(err)
    assert "d.ann:1:" in msg and "entity T1" in msg and "discontinuous" in msg and "fragments=merge" in msg


def test_brat_bad_fragments_option(tmp_path):
    folder = brat_dir(tmp_path, {"d": DISCONTINUOUS})
    with pytest.raises(UsageError, match="Unknown fragments 'join' in 'fragments'. Valid: error, merge, split"):
        read("brat", folder, fragments="join")


def test_brat_other_annotations_counted_not_spans(tmp_path):
    ann = GOLD_ANN + (
        "R1\tKnows Arg1:T1 Arg2:T2\nR2\tIn Arg1:T2 Arg2:T3\nE1\tMeet:T2 Agent:T1\n"
        "A1\tNegated E1\nM2\tSpeculated E1\nN1\tReference T3 Wikipedia:123\tLondon\n"
        "#1\tAnnotatorNotes T1\tcheck\n*\tAlias T1 T2\n"
    )
    doc = read("brat", brat_dir(tmp_path, {"d": (TEXT, ann)}))[0]
    assert doc.spans == GOLD
    assert doc.meta["_counts"] == {
        "relations": 2, "events": 1, "attributes": 2, "normalizations": 1, "notes": 1, "equivalences": 1,
    }


def test_brat_no_counts_when_nothing_skipped(tmp_path):
    assert "_counts" not in read("brat", brat_dir(tmp_path, {"d": (TEXT, GOLD_ANN)}))[0].meta


def test_brat_text_mismatch(tmp_path):
    folder = brat_dir(tmp_path, {"d": (TEXT, "T1\tPER 0 12\tAda Byron\n")})
    with pytest.raises(InputError) as err:
        read("brat", folder)
    msg = one_line(err)
    assert "d.ann:1:" in msg and "entity T1" in msg and "'Ada Byron'" in msg and "'Ada Lovelace'" in msg


def test_brat_fragment_text_joined_with_space(tmp_path):
    folder = brat_dir(tmp_path, {"d": ("tea and coffee cups", "T1\tITEM 0 3;15 19\ttea  cups\n")})
    with pytest.raises(InputError, match="entity T1"):
        read("brat", folder, fragments="merge")


@pytest.mark.parametrize("missing", ["txt", "ann"])
def test_brat_missing_pair_file(tmp_path, missing):
    folder = brat_dir(tmp_path, {"d": (TEXT, GOLD_ANN)})
    (folder / f"d.{missing}").unlink()
    with pytest.raises(InputError) as err:
        read("brat", folder)
    assert f"no 'd.{missing}'" in one_line(err) and str(folder) in one_line(err)


@pytest.mark.parametrize(
    "ann,problem",
    [
        ("T1\tPER 0\tAda\n", "malformed text-bound annotation"),
        ("T1\tPER zero 3\tAda\n", "malformed text-bound annotation"),
        ("T1\tPER 0 99\tAda\n", "0 <= start < end <= 43"),
        ("T1\tPER 3 3\t\n", "0 <= start < end"),
        ("X1\tfoo\n", "unknown annotation line"),
        ("T1\tPER 0 3\tAda\nT1\tPER 0 3\tAda\n", "defined twice"),
    ],
    ids=["no-end", "not-int", "past-text", "empty", "unknown-id", "duplicate"],
)
def test_brat_malformed_lines(tmp_path, ann, problem):
    folder = brat_dir(tmp_path, {"d": (TEXT, ann)})
    with pytest.raises(InputError) as err:
        read("brat", folder)
    assert problem in one_line(err) and "d.ann:" in one_line(err)


def test_brat_path_is_a_file(tmp_path):
    with pytest.raises(InputError, match="directory of NAME.txt and NAME.ann"):
        read("brat", write(tmp_path / "x.ann", GOLD_ANN))


# --------------------------------------------------------------------------
# Label Studio
# --------------------------------------------------------------------------


def ls_result(start, end, label, text=None, rid="r"):
    value = {"start": start, "end": end, "labels": [label]}
    if text is not None:
        value["text"] = text
    return {"id": rid, "from_name": "label", "to_name": "text", "type": "labels", "value": value}


def ls_export(tmp_path, tasks, name="export.json"):
    return write(tmp_path / name, json.dumps(tasks))


def ls_task(tid=1, annotations=(), predictions=(), **extra):
    task = {"id": tid, "data": {"text": TEXT, "genre": "news"}, "annotations": list(annotations),
            "predictions": list(predictions), "meta": {"batch": 2}}
    task.update(extra)
    return task


GOLD_RESULT = [ls_result(0, 12, "PER", "Ada Lovelace", "a"), ls_result(17, 32, "PER", "Charles Babbage", "b"),
               ls_result(36, 42, "LOC", "London", "c")]
PRED_RESULT = [ls_result(0, 3, "PER", "Ada"), ls_result(17, 32, "ORG"), ls_result(36, 42, "LOC")]


def test_labelstudio_one_file_both_sides(tmp_path):
    path = ls_export(tmp_path, [ls_task(17, [{"id": 5, "completed_by": 1, "result": GOLD_RESULT}],
                                         [{"model_version": "v1", "result": PRED_RESULT}])])
    gold, pred = read("labelstudio", path), read("labelstudio", path, side="pred")
    assert gold[0].spans == GOLD and pred[0].spans == PRED
    assert gold[0].key == "17" and gold[0].name == "task 17"
    assert gold[0].meta == {"genre": "news", "batch": 2}
    jg, jp = as_jsonl(tmp_path, "g.jsonl", TEXT, GOLD), as_jsonl(tmp_path, "p.jsonl", TEXT, PRED)
    assert jg[0].spans == gold[0].spans and jg[0].text == gold[0].text
    assert counts([gold[0].spans], [pred[0].spans]) == counts([jg[0].spans], [jp[0].spans])


def test_labelstudio_several_labels_one_span_each(tmp_path):
    result = [{"type": "labels", "value": {"start": 0, "end": 12, "labels": ["PER", "NAME"]}}]
    path = ls_export(tmp_path, [ls_task(annotations=[{"result": result}])])
    assert read("labelstudio", path)[0].spans == [Span(0, 12, "NAME"), Span(0, 12, "PER")]


def test_labelstudio_cancelled_skipped_and_counted(tmp_path):
    anns = [{"was_cancelled": True, "completed_by": 1, "result": PRED_RESULT},
            {"was_cancelled": False, "completed_by": 2, "result": GOLD_RESULT}]
    path = ls_export(tmp_path, [ls_task(annotations=anns), ls_task(2, annotations=anns[:1])])
    docs = read("labelstudio", path)
    assert docs[0].spans == GOLD and docs[0].meta["_counts"] == {"cancelled_annotations": 1}
    assert docs[1].spans is None and docs[1].meta["_counts"] == {"cancelled_annotations": 1}


def test_labelstudio_annotator_chooses(tmp_path):
    anns = [{"completed_by": 1, "result": PRED_RESULT},
            {"completed_by": {"id": 2, "email": "b@x.org"}, "result": GOLD_RESULT}]
    path = ls_export(tmp_path, [ls_task(annotations=anns)])
    first = read("labelstudio", path)[0]
    assert first.spans == PRED and first.meta["_counts"] == {"unused_annotations": 1}
    assert read("labelstudio", path, annotator="b@x.org")[0].spans == GOLD
    assert read("labelstudio", path, annotator=2)[0].spans == GOLD
    assert read("labelstudio", path, annotator=9)[0].spans is None


def test_labelstudio_model_version_chooses(tmp_path):
    preds = [{"model_version": "v1", "result": GOLD_RESULT}, {"model_version": "v2", "result": PRED_RESULT}]
    path = ls_export(tmp_path, [ls_task(annotations=[{"result": GOLD_RESULT}], predictions=preds)])
    assert read("labelstudio", path, side="pred")[0].spans == GOLD
    doc = read("labelstudio", path, side="pred", model_version="v2")[0]
    assert doc.spans == PRED and doc.meta["_counts"] == {"unused_predictions": 1}


def test_labelstudio_two_files_pred_from_annotations(tmp_path):
    gold = ls_export(tmp_path, [ls_task(annotations=[{"result": GOLD_RESULT}])], "a.json")
    other = ls_export(tmp_path, [ls_task(annotations=[{"result": PRED_RESULT}])], "b.json")
    with pytest.raises(InputError, match="pred_from=annotations"):
        read("labelstudio", other, side="pred")
    assert read("labelstudio", other, side="pred", pred_from="annotations")[0].spans == PRED
    assert read("labelstudio", gold)[0].spans == GOLD


def test_labelstudio_relations_and_other_results_counted(tmp_path):
    result = GOLD_RESULT + [{"type": "relation", "from_id": "a", "to_id": "b"},
                            {"type": "choices", "value": {"choices": ["ok"]}}]
    path = ls_export(tmp_path, [ls_task(annotations=[{"result": result}])])
    doc = read("labelstudio", path)[0]
    assert doc.spans == GOLD and doc.meta["_counts"] == {"relations": 1, "other_results": 1}


def test_labelstudio_text_field(tmp_path):
    task = {"id": 3, "data": {"body": TEXT}, "annotations": [{"result": GOLD_RESULT}]}
    path = ls_export(tmp_path, [task])
    assert read("labelstudio", path, text_field="body")[0].spans == GOLD
    with pytest.raises(InputError, match="task 3 has no 'text' field \\(fields: 'body'\\)"):
        read("labelstudio", path)


@pytest.mark.parametrize(
    "tasks,problem",
    [
        ([ls_task(annotations=[{"result": [ls_result(0, 12, "PER", "Ada Byron", "a")]}])],
         "task 1, result a (0-12, PER) gives the text 'Ada Byron' but the text at those offsets is 'Ada Lovelace'"),
        ([ls_task(annotations=[{"result": [ls_result(0, 99, "PER")]}])], "0 <= start < end <= 43"),
        ([ls_task(annotations=[{"result": [ls_result("0", 3, "PER")]}])], "non-integer offsets"),
        ([ls_task(annotations=[{"result": [{"type": "labels", "value": {"start": 0, "end": 3, "labels": []}}]}])],
         "one or more labels"),
        ({"id": 1}, "expected a JSON array of tasks"),
        ([["not a task"]], "not an object"),
    ],
    ids=["text", "offsets", "non-int", "no-label", "not-array", "not-object"],
)
def test_labelstudio_errors(tmp_path, tasks, problem):
    path = ls_export(tmp_path, tasks)
    with pytest.raises(InputError) as err:
        read("labelstudio", path)
    assert problem in one_line(err) and str(path) in one_line(err)


def test_labelstudio_invalid_json(tmp_path):
    path = write(tmp_path / "export.json", '[{"id": 1,\n "data": }]')
    with pytest.raises(InputError) as err:
        read("labelstudio", path)
    assert f"{path}:2: invalid JSON" in one_line(err)


def test_unknown_option_names_valid_ones(tmp_path):
    path = ls_export(tmp_path, [ls_task(annotations=[{"result": GOLD_RESULT}])])
    with pytest.raises(UsageError, match="labelstudio input takes no option 'fragments'. Its options: text_field"):
        read("labelstudio", path, fragments="merge")


# --------------------------------------------------------------------------
# doccano
# --------------------------------------------------------------------------


def test_doccano_label_and_entities_forms_equal(tmp_path):
    label = jsonl_file(tmp_path / "label.jsonl", {"id": 7, "text": TEXT, "label": [[0, 12, "PER"], [17, 32, "PER"], [36, 42, "LOC"]], "Comments": []})
    entities = jsonl_file(tmp_path / "ent.jsonl", {
        "id": 7, "text": TEXT, "Comments": [],
        "entities": [{"id": 1, "label": "PER", "start_offset": 0, "end_offset": 12},
                     {"id": 2, "label": "PER", "start_offset": 17, "end_offset": 32},
                     {"id": 3, "label": "LOC", "start_offset": 36, "end_offset": 42}],
        "relations": [{"id": 1, "from_id": 1, "to_id": 2, "type": "knows"}]})
    a, b = read("doccano", label)[0], read("doccano", entities)[0]
    assert a.spans == b.spans == GOLD
    assert a.meta == {"id": 7, "Comments": []} and b.meta == {"id": 7, "Comments": [], "_counts": {"relations": 1}}
    jg = as_jsonl(tmp_path, "g.jsonl", TEXT, GOLD)
    assert jg[0].spans == a.spans and jg[0].text == a.text
    pred = jsonl_file(tmp_path / "pred.jsonl", {"text": TEXT, "label": [[0, 3, "PER"], [17, 32, "ORG"], [36, 42, "LOC"]]})
    p = read("doccano", pred, side="pred")[0]
    jp = as_jsonl(tmp_path, "p.jsonl", TEXT, PRED)
    assert counts([a.spans], [p.spans]) == counts([jg[0].spans], [jp[0].spans])


def test_doccano_no_annotation(tmp_path):
    path = jsonl_file(tmp_path / "d.jsonl", {"text": TEXT})
    assert read("doccano", path)[0].spans is None
    assert read("doccano", path, side="pred")[0].spans == []


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
    ],
    ids=["offsets", "short", "classification", "empty-label", "no-label", "both", "no-text"],
)
def test_doccano_errors(tmp_path, record, problem):
    path = jsonl_file(tmp_path / "d.jsonl", record)
    with pytest.raises(InputError) as err:
        read("doccano", path)
    assert problem in one_line(err) and f"{path}:1:" in one_line(err)


def test_doccano_malformed_json(tmp_path):
    path = write(tmp_path / "d.jsonl", '{"text": "a"}\n{"text": \n')
    with pytest.raises(InputError) as err:
        read("doccano", path)
    assert f"{path}:2: invalid JSON" in one_line(err)


# --------------------------------------------------------------------------
# Prodigy
# --------------------------------------------------------------------------

TOKENS = [("Ada", 0, 3), ("Lovelace", 4, 12), ("met", 13, 16), ("Charles", 17, 24), ("Babbage", 25, 32),
          ("in", 33, 35), ("London", 36, 42), (".", 42, 43)]


def prodigy_record(spans, answer="accept", input_hash=11, **extra):
    record = {
        "text": TEXT, "_input_hash": input_hash, "_task_hash": 99, "_view_id": "ner_manual",
        "tokens": [{"text": t, "start": s, "end": e, "id": i, "ws": True} for i, (t, s, e) in enumerate(TOKENS)],
        "spans": spans, "answer": answer, "meta": {"source": "wiki"},
    }
    record.update(extra)
    return record


P_GOLD = [{"start": 0, "end": 12, "token_start": 0, "token_end": 1, "label": "PER"},
          {"start": 17, "end": 32, "token_start": 3, "token_end": 4, "label": "PER"},
          {"start": 36, "end": 42, "token_start": 6, "token_end": 6, "label": "LOC"}]
P_PRED = [{"start": 0, "end": 3, "token_start": 0, "token_end": 0, "label": "PER"},
          {"start": 17, "end": 32, "token_start": 3, "token_end": 4, "label": "ORG"},
          {"start": 36, "end": 42, "token_start": 6, "token_end": 6, "label": "LOC"}]


def test_prodigy_char_unit_like_jsonl(tmp_path):
    gold = read("prodigy", jsonl_file(tmp_path / "g.jsonl", prodigy_record(P_GOLD, genre="bio")))[0]
    pred = read("prodigy", jsonl_file(tmp_path / "p.jsonl", prodigy_record(P_PRED, answer=None)), side="pred")[0]
    assert gold.spans == GOLD and pred.spans == PRED
    assert gold.key == "11" and gold.name == "line 1"
    assert gold.meta == {"genre": "bio", "source": "wiki"}
    jg, jp = as_jsonl(tmp_path, "jg.jsonl", TEXT, GOLD), as_jsonl(tmp_path, "jp.jsonl", TEXT, PRED)
    assert jg[0].spans == gold.spans and jg[0].text == gold.text
    assert counts([gold.spans], [pred.spans]) == counts([jg[0].spans], [jp[0].spans])


def test_prodigy_token_unit_inclusive_end(tmp_path):
    doc = read("prodigy", jsonl_file(tmp_path / "g.jsonl", prodigy_record(P_GOLD)), unit="token")[0]
    assert doc.spans == [Span(0, 2, "PER"), Span(3, 5, "PER"), Span(6, 7, "LOC")]
    assert doc.tokens[:2] == ["Ada", "Lovelace"] and doc.offsets[6] == (36, 42)


def test_prodigy_answers_counted(tmp_path):
    path = jsonl_file(tmp_path / "g.jsonl", prodigy_record(P_GOLD, input_hash=1),
                      prodigy_record(P_PRED, "reject", 2), prodigy_record(P_PRED, "ignore", 3),
                      prodigy_record([], "accept", 4))
    docs = read("prodigy", path)
    assert [d.spans for d in docs] == [GOLD, None, None, []]
    assert [d.meta.get("_counts") for d in docs] == [None, {"rejected": 1}, {"ignored": 1}, None]
    assert [d.key for d in docs] == ["1", "2", "3", "4"]
    assert [d.spans for d in read("prodigy", path, side="pred")] == [GOLD, PRED, PRED, []]


@pytest.mark.parametrize(
    "spans,unit,problem",
    [
        ([{"start": 0, "end": 99, "label": "PER"}], "char", "0 <= start < end <= 43"),
        ([{"start": 0, "end": 3}], "char", "lacks 'label'"),
        ([{"start": 0, "end": 3, "label": "PER", "text": "Bob"}], "char", "gives the text 'Bob'"),
        ([{"token_start": 1, "token_end": 8, "label": "PER"}], "token", "token_end < 8"),
        ([{"start": 0, "end": 3, "label": "PER"}], "token", "lacks 'token_start', 'token_end'"),
    ],
    ids=["offsets", "no-label", "text", "token-range", "no-token-offsets"],
)
def test_prodigy_errors(tmp_path, spans, unit, problem):
    path = jsonl_file(tmp_path / "g.jsonl", prodigy_record(spans))
    with pytest.raises(InputError) as err:
        read("prodigy", path, unit=unit)
    assert problem in one_line(err) and f"{path}:1:" in one_line(err)


def test_prodigy_bad_token(tmp_path):
    record = prodigy_record(P_GOLD)
    record["tokens"][1]["start"] = 5
    with pytest.raises(InputError, match="token 1 \\('Lovelace'\\)"):
        read("prodigy", jsonl_file(tmp_path / "g.jsonl", record), unit="token")


def test_prodigy_unit_checked(tmp_path):
    with pytest.raises(UsageError, match="char or token unit"):
        read("prodigy", jsonl_file(tmp_path / "g.jsonl", prodigy_record(P_GOLD)), unit="word")


# --------------------------------------------------------------------------
# tags (Hugging Face token/tag JSON Lines)
# --------------------------------------------------------------------------

WORDS = ["Ada", "Lovelace", "met", "Charles", "Babbage", "in", "London", "."]
STR_TAGS = ["B-PER", "I-PER", "O", "B-PER", "I-PER", "O", "B-LOC", "O"]
NAMES = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
ID_TAGS = [1, 2, 0, 1, 2, 0, 3, 0]
TOKEN_GOLD = [Span(0, 2, "PER"), Span(3, 5, "PER"), Span(6, 7, "LOC")]


def test_tags_strings_like_conll_and_jsonl(tmp_path):
    path = jsonl_file(tmp_path / "t.jsonl", {"id": "0", "tokens": WORDS, "ner_tags": STR_TAGS, "genre": "bio"})
    doc = read("tags", path)[0]
    assert doc.spans == TOKEN_GOLD
    assert doc.text == "Ada Lovelace met Charles Babbage in London ." and doc.offsets[1] == (4, 12)
    assert doc.meta == {"id": "0", "genre": "bio"}
    conll = write(tmp_path / "t.conll", "".join(f"{w}\t{t}\n" for w, t in zip(WORDS, STR_TAGS)))
    assert list(read_conll(conll))[0].spans == doc.spans
    assert list(read_conll(conll))[0].text == doc.text
    spans = [{"start": s, "end": e, "label": lab} for s, e, lab in TOKEN_GOLD]
    jl = list(read_jsonl(jsonl_file(tmp_path / "j.jsonl", {"text": doc.text, "tokens": WORDS, "spans": spans}), unit="token"))
    assert jl[0].spans == doc.spans
    pred = [Span(0, 1, "PER"), Span(3, 5, "ORG"), Span(6, 7, "LOC")]
    pred_tags = ["B-PER", "O", "O", "B-ORG", "I-ORG", "O", "B-LOC", "O"]
    p = read("tags", jsonl_file(tmp_path / "p.jsonl", {"tokens": WORDS, "ner_tags": pred_tags}), side="pred")[0]
    assert p.spans == pred
    assert counts([doc.spans], [p.spans], "token") == counts([jl[0].spans], [pred], "token")


@pytest.mark.parametrize("names", [NAMES, ",".join(NAMES), " O, B-PER,I-PER , B-LOC,I-LOC"], ids=["list", "string", "spaces"])
def test_tags_ids_with_label_names(tmp_path, names):
    path = jsonl_file(tmp_path / "t.jsonl", {"tokens": WORDS, "ner_tags": ID_TAGS})
    assert read("tags", path, label_names=names)[0].spans == TOKEN_GOLD


@pytest.mark.parametrize("container", ["Sequence", "List"])
def test_tags_ids_with_dataset_info(tmp_path, container):
    path = jsonl_file(tmp_path / "t.jsonl", {"tokens": WORDS, "tags": ID_TAGS})
    feature = {"feature": {"names": NAMES, "_type": "ClassLabel"}, "_type": container}
    if container == "Sequence":
        feature.update(length=-1, id=None)
        feature["feature"].update(num_classes=5, names_file=None, id=None)
    info = {"description": "", "features": {"tokens": {"feature": {"dtype": "string", "_type": "Value"}, "_type": container},
                                            "tags": feature}}
    write(tmp_path / "dataset_info.json", json.dumps(info))
    assert read("tags", path, tag_field="tags")[0].spans == TOKEN_GOLD
    with pytest.raises(InputError, match="has no ClassLabel names for 'ner_tags'"):
        read("tags", jsonl_file(tmp_path / "u.jsonl", {"tokens": WORDS, "ner_tags": ID_TAGS}))


def test_tags_ids_without_names(tmp_path):
    path = jsonl_file(tmp_path / "t.jsonl", {"tokens": WORDS, "ner_tags": ID_TAGS})
    with pytest.raises(InputError) as err:
        read("tags", path)
    assert "pass label_names" in one_line(err) and "dataset_info.json" in one_line(err)


def test_tags_count_differs(tmp_path):
    path = jsonl_file(tmp_path / "t.jsonl", {"tokens": WORDS, "ner_tags": STR_TAGS}, {"tokens": WORDS, "ner_tags": STR_TAGS[:-1]})
    with pytest.raises(InputError) as err:
        read("tags", path)
    assert f"{path}:2: 7 tags in 'ner_tags' but 8 tokens" in one_line(err)


def test_tags_id_out_of_range(tmp_path):
    path = jsonl_file(tmp_path / "t.jsonl", {"tokens": WORDS, "ner_tags": [1, 2, 0, 1, 2, 0, 5, 0]})
    with pytest.raises(InputError) as err:
        read("tags", path, label_names=NAMES)
    assert f"{path}:1: tag id 5 (token 6)" in one_line(err) and "valid ids are 0..4" in one_line(err)


def test_tags_mode_and_scheme(tmp_path):
    path = jsonl_file(tmp_path / "t.jsonl", {"tokens": ["a", "b"], "ner_tags": ["I-PER", "I-PER"]})
    assert read("tags", path)[0].spans == [Span(0, 2, "PER")]
    assert read("tags", path, tag_mode="strict", tag_scheme="IOB2")[0].spans == []
    with pytest.raises(UsageError, match="tag_mode=.strict. needs a tag scheme"):
        read("tags", path, tag_mode="strict")


@pytest.mark.parametrize(
    "record,problem",
    [
        ({"tokens": "Ada", "ner_tags": ["O"]}, "'tokens' must be a list of strings"),
        ({"tokens": ["Ada"], "ner_tags": [1.0]}, "all strings or all integer ids"),
        ({"tokens": ["Ada"], "ner_tags": [""]}, "token 0:"),
    ],
    ids=["tokens", "float", "empty-tag"],
)
def test_tags_errors(tmp_path, record, problem):
    path = jsonl_file(tmp_path / "t.jsonl", record)
    with pytest.raises(InputError) as err:
        read("tags", path, label_names=NAMES)
    assert problem in one_line(err) and f"{path}:1:" in one_line(err)


def test_tags_missing_tag_field(tmp_path):
    path = jsonl_file(tmp_path / "t.jsonl", {"tokens": WORDS})
    assert read("tags", path)[0].spans is None
    assert read("tags", path, side="pred")[0].spans == []


# --------------------------------------------------------------------------
# Through the command line: the registry finds each format, and what a
# reader counts but does not score is shown
# --------------------------------------------------------------------------


def test_compare_reads_brat_directories_and_shows_what_it_did_not_score(tmp_path):
    import json as json_module

    from typer.testing import CliRunner

    from spacy_spanf1.cli import app

    text = "Ada Lovelace met Charles Babbage in London."
    for side, lines in (
        ("gold", ["T1\tPER 0 12\tAda Lovelace", "T2\tPER 17 32\tCharles Babbage", "T3\tLOC 36 42\tLondon",
                  "R1\tKnows Arg1:T1 Arg2:T2"]),
        ("pred", ["T1\tPER 0 3\tAda", "T2\tPER 17 32\tCharles Babbage"]),
    ):
        folder = tmp_path / side
        folder.mkdir()
        (folder / "doc1.txt").write_text(text, encoding="utf-8")
        (folder / "doc1.ann").write_text("\n".join(lines) + "\n", encoding="utf-8")
    result = CliRunner().invoke(app, ["compare", str(tmp_path / "gold"), str(tmp_path / "pred"), "-s", "strict",
                                      "-o", str(tmp_path / "scores.json")])
    assert result.exit_code == 0, result.stderr
    data = json_module.loads((tmp_path / "scores.json").read_text())
    # Charles Babbage right; Ada for Ada Lovelace INC; London missed
    assert data["schemes"]["strict"]["counts"] == {"cor": 1, "inc": 1, "par": 0, "mis": 1, "spu": 0}
    assert data["not_scored"] == {"gold": {"relations": 1}}
    assert "Read but not scored (gold" in result.stdout and "relations 1" in result.stdout


def test_compare_one_label_studio_export_scores_predictions_against_annotations(tmp_path):
    import json as json_module

    from typer.testing import CliRunner

    from spacy_spanf1.cli import app

    tasks = [{
        "id": 17, "data": {"text": "Ada Lovelace met Charles Babbage in London."},
        "annotations": [{"completed_by": 1, "result": [
            {"type": "labels", "value": {"start": 0, "end": 12, "text": "Ada Lovelace", "labels": ["PER"]}},
            {"type": "labels", "value": {"start": 36, "end": 42, "text": "London", "labels": ["LOC"]}}]}],
        "predictions": [{"model_version": "v1", "result": [
            {"type": "labels", "value": {"start": 0, "end": 12, "text": "Ada Lovelace", "labels": ["PER"]}}]}],
    }]
    export = tmp_path / "export.json"
    export.write_text(json_module.dumps(tasks), encoding="utf-8")
    out = tmp_path / "scores.json"
    result = CliRunner().invoke(app, ["compare", str(export), "--format", "labelstudio", "-s", "strict", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    # one of two gold spans predicted, and right
    assert json_module.loads(out.read_text())["schemes"]["strict"]["counts"] == {"cor": 1, "inc": 0, "par": 0, "mis": 1, "spu": 0}
    # a reader option given to a format that does not take it: a usage error naming the flag
    bad = CliRunner().invoke(app, ["compare", str(export), "--format", "labelstudio", "-s", "strict", "--fragments", "merge"])
    assert bad.exit_code == 2 and "--fragments" in bad.stderr and "brat" in bad.stderr


def test_compare_reads_hugging_face_tag_files_with_label_names(tmp_path):
    import json as json_module

    from typer.testing import CliRunner

    from spacy_spanf1.cli import app

    names = "O,B-PER,I-PER,B-LOC,I-LOC"
    gold = {"id": "0", "tokens": ["Ada", "Lovelace", "visited", "London", "."], "ner_tags": [1, 2, 0, 3, 0]}
    pred = {"id": "0", "tokens": ["Ada", "Lovelace", "visited", "London", "."], "ner_tags": [1, 0, 0, 3, 0]}
    for name, record in (("gold.jsonl", gold), ("pred.jsonl", pred)):
        (tmp_path / name).write_text(json_module.dumps(record) + "\n", encoding="utf-8")
    out = tmp_path / "scores.json"
    result = CliRunner().invoke(app, ["compare", str(tmp_path / "gold.jsonl"), str(tmp_path / "pred.jsonl"),
                                      "--format", "tags", "--label-names", names, "-s", "strict,partial", "-o", str(out)])
    assert result.exit_code == 0, result.stderr
    data = json_module.loads(out.read_text())
    # "Ada" for "Ada Lovelace": INC under strict, PAR under partial; London right
    assert data["schemes"]["strict"]["counts"] == {"cor": 1, "inc": 1, "par": 0, "mis": 0, "spu": 0}
    assert data["schemes"]["partial"]["counts"] == {"cor": 1, "inc": 0, "par": 1, "mis": 0, "spu": 0}
    no_names = CliRunner().invoke(app, ["compare", str(tmp_path / "gold.jsonl"), str(tmp_path / "pred.jsonl"),
                                        "--format", "tags", "-s", "strict"])
    assert no_names.exit_code == 1 and "label_names" in no_names.stderr.replace("--label-names", "label_names")
