"""Relations read from files as their tools write them (JSONL "relations"
indexing "spans", brat `R` lines) and scored by compare, beside the span
schemes; bad relations named with their file and line."""

import json

import pytest

import spacy_spanf1.formats.brat  # noqa: F401  (registers "brat")
from helpers import assert_clean_failure, invoke, write, write_jsonl
from spacy_spanf1 import InputError, SettingError, compare_files

TEXT = "Ada Lovelace met Charles Babbage in London."
ADA, CHARLES, LONDON = (0, 12, "PER"), (17, 32, "PER"), (36, 42, "LOC")


def span(start, end, label):
    return {"start": start, "end": end, "label": label}


def record(spans, relations, **more):
    return {"text": TEXT, "spans": [span(*s) for s in spans], "relations": relations, **more}


def rel(head, tail, label):
    return {"head": head, "tail": tail, "label": label}


def jsonl_pair(tmp_path, gold, pred):
    return write_jsonl(tmp_path / "gold.jsonl", gold), write_jsonl(tmp_path / "pred.jsonl", pred)


def prf(result):
    return (result.totals.tp, result.totals.fp, result.totals.fn)


def test_jsonl_relations_are_scored(tmp_path):
    gold = [record([ADA, CHARLES, LONDON], [rel(0, 1, "met"), rel(0, 2, "in"), rel(1, 2, "in")])]
    # listed in another order (indices follow the listing); Ada cut short to
    # "Ada", Charles as ORG; one relation reversed
    pred = [
        record(
            [LONDON, (17, 32, "ORG"), (0, 3, "PER")],
            [rel(2, 1, "met"), rel(2, 0, "in"), rel(0, 1, "in")],
        )
    ]
    gold_path, pred_path = jsonl_pair(tmp_path, gold, pred)
    with pytest.warns(UserWarning, match='"ORG"'):  # never a gold label
        scores = compare_files(gold_path, pred_path, schemes="strict,rel_strict,rel_exact,rel_type,rel_partial")
    results = scores.results
    assert list(results) == ["strict", "rel_strict", "rel_exact", "rel_type", "rel_partial"]
    # met (Ada, Charles): Ada's boundaries differ (strict, exact: no); type:
    # Ada PER over Ada Lovelace PER (COR), Charles ORG for PER (INC): no;
    # partial: Ada PAR and Charles COR (types ignored): yes.
    # in (Ada, London): partial and type have Ada; strict and exact do not.
    # in (Charles, London) is predicted (London, Charles): wrong everywhere.
    assert prf(results["rel_strict"]) == (0, 3, 3)
    assert prf(results["rel_exact"]) == (0, 3, 3)
    assert prf(results["rel_type"]) == (1, 2, 2)
    assert prf(results["rel_partial"]) == (2, 1, 1)
    assert scores.not_scored == {}


def test_jsonl_relations_keep_their_metadata_out(tmp_path):
    gold = [record([ADA, CHARLES], [rel(0, 1, "met")], genre="news")]
    gold_path, pred_path = jsonl_pair(tmp_path, gold, gold)
    from spacy_spanf1.formats import get_format

    [doc] = list(get_format("jsonl").read(gold_path, side="gold", unit="char"))
    assert doc.meta == {"genre": "news"}
    assert doc.relations == [(ADA, CHARLES, "met")]


def test_spans_alone_count_the_relations_as_not_scored(tmp_path):
    gold = [record([ADA, CHARLES], [rel(0, 1, "met")])]
    pred = [record([ADA, CHARLES], [rel(0, 1, "met"), rel(1, 0, "met")])]
    scores = compare_files(*jsonl_pair(tmp_path, gold, pred), schemes="strict")
    assert scores.not_scored == {"gold": {"relations": 1}, "pred": {"relations": 2}}


@pytest.mark.parametrize(
    "relations,message",
    [
        (
            [rel(0, 5, "met")],
            r'pred\.jsonl:1: relation 0 has "tail": 5, which is not a span of the record '
            r"\(it has spans 0 to 1\)",
        ),
        ([{"head": 0, "tail": 1}], r"pred\.jsonl:1: relation 0 has no label"),
        ([rel(0, 1, "")], r"relation 0 has no label"),
        ([rel(1, 1, "met")], r"pred\.jsonl:1: relation 0 \('met'\) joins the span \(17, 32, 'PER'\) to itself"),
        ([{"tail": 1, "label": "met"}], r'relation 0 has no "head"'),
        ("met", r'"relations" is a str, not a list'),
    ],
)
def test_bad_jsonl_relations(tmp_path, relations, message):
    gold = [record([ADA, CHARLES], [rel(0, 1, "met")])]
    pred = [record([ADA, CHARLES], relations)]
    with pytest.raises(InputError, match=message) as error:
        compare_files(*jsonl_pair(tmp_path, gold, pred), schemes="strict,rel_strict")
    assert "\n" not in str(error.value)


def test_a_relation_scheme_is_never_primary(tmp_path):
    gold = [record([ADA, CHARLES], [rel(0, 1, "met")])]
    with pytest.raises(SettingError, match=r"starts with 'rel_strict'.*relation schemes come after it"):
        compare_files(*jsonl_pair(tmp_path, gold, gold), schemes="rel_strict,strict")


def brat_dir(tmp_path, name, ann):
    folder = tmp_path / name
    folder.mkdir()
    write(folder / "d.txt", TEXT)
    write(folder / "d.ann", ann)
    return folder


GOLD_ANN = (
    "T1\tPER 0 12\tAda Lovelace\nT2\tPER 17 32\tCharles Babbage\nT3\tLOC 36 42\tLondon\n"
    "R1\tmet Arg1:T1 Arg2:T2\nR2\tin Arg1:T2 Arg2:T3\n"
)


def test_brat_relations_are_scored(tmp_path):
    # the relations before the entities, ids of their own: brat allows both
    pred_ann = (
        "R7\tin Arg1:T9 Arg2:T8\nR8\tmet Arg1:T8 Arg2:T5\n"
        "T5\tPER 0 12\tAda Lovelace\nT8\tPER 17 32\tCharles Babbage\nT9\tLOC 36 42\tLondon\n"
    )
    gold, pred = brat_dir(tmp_path, "gold", GOLD_ANN), brat_dir(tmp_path, "pred", pred_ann)
    scores = compare_files(gold, pred, format="brat", schemes="strict,rel_strict")
    assert scores.results["strict"].f1 == 1.0
    # in is reversed, met reversed: both wrong (asymmetric)
    assert prf(scores.results["rel_strict"]) == (0, 2, 2)
    assert scores.not_scored == {}
    out = tmp_path / "scores.json"
    result = invoke(["compare", gold, pred, "--format", "brat", "-s", "strict,rel_strict,rel_exact", "-o", out])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["schemes"]["rel_strict"]["counts"] == {"tp": 0, "fp": 2, "fn": 2}
    assert data["schemes"]["rel_exact"]["counts"] == {"tp": 0, "fp": 2, "fn": 2}
    assert "rel_strict" in result.stdout


@pytest.mark.parametrize(
    "line,message",
    [
        ("R1\tmet Arg1:T1 Arg2:T7", r"d\.ann:4: relation R1 \(met\) has Arg2 T7, which is not a text-bound entity"),
        ("R1\tmet Arg1:T1", r"d\.ann:4: relation R1 is 'R1\\tmet Arg1:T1'; brat writes a relation as"),
        ("R1\tmet Arg1:T2 Arg2:T2", r"d\.ann:4: relation R1 \('met'\) joins the span \(17, 32, 'PER'\) to itself"),
    ],
)
def test_bad_brat_relations(tmp_path, line, message):
    ann = "T1\tPER 0 12\tAda Lovelace\nT2\tPER 17 32\tCharles Babbage\nT3\tLOC 36 42\tLondon\n" + line + "\n"
    gold, pred = brat_dir(tmp_path, "gold", ann), brat_dir(tmp_path, "pred", GOLD_ANN)
    with pytest.raises(InputError, match=message):
        compare_files(gold, pred, format="brat", schemes="strict,rel_strict")
    result = invoke(["compare", gold, pred, "--format", "brat", "-s", "strict,rel_strict"])
    assert_clean_failure(result, 1, "relation R1")


def test_a_brat_argument_split_in_fragments_is_an_error(tmp_path):
    ann = "T1\tPER 0 3;17 24\tAda Charles\nT3\tLOC 36 42\tLondon\nR1\tin Arg1:T1 Arg2:T3\n"
    gold, pred = brat_dir(tmp_path, "gold", ann), brat_dir(tmp_path, "pred", GOLD_ANN)
    with pytest.raises(InputError, match=r"relation R1 \(in\) has Arg1 T1, which fragments=split makes 2 spans"):
        compare_files(gold, pred, format="brat", schemes="strict,rel_strict", fragments="split")


def ls_labels(rid, start, end, label):
    value = {"start": start, "end": end, "text": TEXT[start:end], "labels": [label]}
    return {"id": rid, "from_name": "label", "to_name": "text", "type": "labels", "value": value}


def ls_relation(from_id, to_id, labels, direction="right"):
    return {"from_id": from_id, "to_id": to_id, "type": "relation", "direction": direction, "labels": labels}


LS_SPANS = [ls_labels("a", *ADA), ls_labels("b", *CHARLES), ls_labels("c", *LONDON)]


def test_labelstudio_relations(tmp_path):
    gold = LS_SPANS + [ls_relation("a", "b", ["met"]), ls_relation("b", "c", ["in"])]
    # "left": from b to a is a -> b; "bi" gives both directions (one of them gold)
    pred = LS_SPANS + [ls_relation("b", "a", ["met"], "left"), ls_relation("b", "c", ["in"], "bi")]
    task = {"id": 1, "data": {"text": TEXT}, "annotations": [{"result": gold}], "predictions": [{"result": pred}]}
    path = write(tmp_path / "export.json", json.dumps([task]))
    scores = compare_files(path, path, format="labelstudio", schemes="strict,rel_strict")
    assert prf(scores.results["rel_strict"]) == (2, 1, 0)
    # a relation result without a label (no <Relations> labels in the config) is read and not scored
    task["predictions"] = [{"result": LS_SPANS + [ls_relation("a", "b", [])]}]
    write(path, json.dumps([task]))
    scores = compare_files(path, path, format="labelstudio", schemes="strict,rel_strict")
    assert prf(scores.results["rel_strict"]) == (0, 0, 2)
    assert scores.not_scored == {"pred": {"unlabeled_relations": 1}}
    task["predictions"] = [{"result": LS_SPANS + [ls_relation("a", "z", ["met"])]}]
    write(path, json.dumps([task]))
    with pytest.raises(InputError, match=r'task 1, relation 0 \(a -> z\) has "to_id" \'z\', which is not a labels'):
        compare_files(path, path, format="labelstudio", schemes="strict,rel_strict")


def doccano_record(relations):
    entities = [
        {"id": 10 + i, "label": label, "start_offset": start, "end_offset": end}
        for i, (start, end, label) in enumerate([ADA, CHARLES, LONDON])
    ]
    return {"id": 1, "text": TEXT, "entities": entities, "relations": relations}


def test_doccano_relations(tmp_path):
    gold = write_jsonl(tmp_path / "g.jsonl", [doccano_record([{"id": 0, "from_id": 10, "to_id": 11, "type": "met"}])])
    pred = write_jsonl(
        tmp_path / "p.jsonl",
        [
            doccano_record(
                [{"id": 0, "from_id": 10, "to_id": 11, "type": "met"}, {"from_id": 11, "to_id": 12, "type": "in"}]
            )
        ],
    )
    scores = compare_files(gold, pred, format="doccano", schemes="strict,rel_strict")
    assert prf(scores.results["rel_strict"]) == (1, 1, 0)
    bad = write_jsonl(tmp_path / "b.jsonl", [doccano_record([{"from_id": 10, "to_id": 99, "type": "met"}])])
    with pytest.raises(InputError, match=r'b\.jsonl:1: relation 0 has "to_id" 99, which is not the "id" of an entity'):
        compare_files(gold, bad, format="doccano", schemes="strict,rel_strict")
    bad = write_jsonl(tmp_path / "b.jsonl", [doccano_record([{"from_id": 10, "to_id": 11}])])
    with pytest.raises(InputError, match=r"b\.jsonl:1: relation 0 has no label"):
        compare_files(gold, bad, format="doccano", schemes="strict,rel_strict")


TOKENS = ["Ada", "Lovelace", "met", "Charles", "Babbage", "in", "London", "."]


def prodigy_record(relations, answer="accept"):
    tokens, at = [], 0
    for i, word in enumerate(TOKENS):
        start = TEXT.index(word, at)
        tokens.append({"text": word, "start": start, "end": start + len(word), "id": i})
        at = start + len(word)

    def pspan(start, end, label, token_start, token_end):
        return {"start": start, "end": end, "token_start": token_start, "token_end": token_end, "label": label}

    spans = [pspan(*ADA, 0, 1), pspan(*CHARLES, 3, 4), pspan(*LONDON, 6, 6)]
    rels = [
        {"head": h_tok, "child": c_tok, "head_span": spans[h], "child_span": spans[c], "label": label}
        for h, c, label, h_tok, c_tok in relations
    ]
    return {"text": TEXT, "tokens": tokens, "spans": spans, "relations": rels, "answer": answer, "_input_hash": 7}


def test_prodigy_rel_manual_relations(tmp_path):
    gold = write_jsonl(tmp_path / "g.jsonl", [prodigy_record([(0, 1, "met", 1, 4), (1, 2, "in", 4, 6)])])
    pred = write_jsonl(tmp_path / "p.jsonl", [prodigy_record([(1, 0, "met", 4, 1), (1, 2, "in", 4, 6)])])
    for unit in ("char", "token"):
        scores = compare_files(gold, pred, format="prodigy", schemes="strict,rel_strict", unit=unit)
        assert prf(scores.results["rel_strict"]) == (1, 1, 1), unit
    record = prodigy_record([(0, 1, "met", 1, 4)])
    record["relations"][0]["child_span"] = {"start": 17, "end": 24, "token_start": 3, "token_end": 3, "label": "PER"}
    bad = write_jsonl(tmp_path / "b.jsonl", [record])
    with pytest.raises(InputError, match=r"b\.jsonl:1: relation 0 has a \"child_span\" \(17, 24, 'PER'\) that is not"):
        compare_files(gold, bad, format="prodigy", schemes="strict,rel_strict")
