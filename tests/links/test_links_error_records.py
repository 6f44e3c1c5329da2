"""Error records that name knowledge-base ids: with a link scheme named,
each span of a span error record carries its "kb_id", and the --errors
file holds the link error records of strong_all_match (or
strong_typed_all_match) after the span records; the fast writer stays
the bytes of `srsly.json_dumps`, records of runs without link schemes do
not change, and the HTML page shows the ids. The expected records are
worked out by hand below."""

import json

import srsly

from helpers import invoke, write_jsonl
from spacy_spanf1.api import compare_files
from spacy_spanf1.report import error_lines, error_records

TEXT0 = "Douglas Adams lived in London."
TEXT1 = "Ann met Bob in Rome."
GOLD = [
    {
        "text": TEXT0,
        "spans": [
            {"start": 0, "end": 13, "label": "PER", "kb_id": "Q42"},
            {"start": 23, "end": 29, "label": "LOC", "kb_id": "Q84"},
        ],
    },
    {
        "text": TEXT1,
        "spans": [
            {"start": 0, "end": 3, "label": "PER"},  # no id: NIL
            {"start": 8, "end": 11, "label": "PER", "kb_id": "Q7"},
            {"start": 15, "end": 19, "label": "LOC", "kb_id": "Q220"},
        ],
    },
]
PRED = [
    {
        "text": TEXT0,
        "spans": [
            {"start": 0, "end": 13, "label": "PER", "kb_id": "Q42"},
            {"start": 23, "end": 29, "label": "LOC", "kb_id": "Q90"},  # a wrong id
        ],
    },
    {
        "text": TEXT1,
        "spans": [
            {"start": 0, "end": 3, "label": "PER", "kb_id": "Q5"},  # linked where gold is NIL
            {"start": 8, "end": 11, "label": "PER", "kb_id": "Q7"},
        ],  # Rome (Q220) missed
    },
]


def span(start, end, label, text, kb_id):
    return {"start": start, "end": end, "label": label, "text": text, "kb_id": kb_id}


# By hand: under strict every predicted span is right but Rome is missed;
# under strong_all_match London's id is wrong (Q84 -> Q90), Ann's is
# wrong (gold NIL, predicted Q5) and Rome is missed.
LONDON_GOLD = span(23, 29, "LOC", "London", "Q84")
LONDON_PRED = span(23, 29, "LOC", "London", "Q90")
ANN_GOLD = span(0, 3, "PER", "Ann", "NIL")
ANN_PRED = span(0, 3, "PER", "Ann", "Q5")
ROME = span(15, 19, "LOC", "Rome", "Q220")
LINK_RECORDS = [
    {"doc": 0, "name": "line 1", "scheme": "strong_all_match", "kind": "wrong_id", "gold": LONDON_GOLD,
     "pred": [LONDON_PRED]},
    {"doc": 1, "name": "line 2", "scheme": "strong_all_match", "kind": "wrong_id", "gold": ANN_GOLD,
     "pred": [ANN_PRED]},
    {"doc": 1, "name": "line 2", "scheme": "strong_all_match", "kind": "missed", "gold": ROME, "pred": []},
]  # fmt: skip


def files(tmp_path, gold=GOLD, pred=PRED):
    return write_jsonl(tmp_path / "gold.jsonl", gold), write_jsonl(tmp_path / "pred.jsonl", pred)


def read_lines(path):
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def errors_file(folder, schemes, gold=GOLD, pred=PRED):
    """The --errors file `compare` writes of gold and pred (as JSONL in folder) under schemes."""
    gold_path, pred_path = files(folder, gold, pred)
    out = folder / "errors.jsonl"
    result = invoke(["compare", gold_path, pred_path, "-s", schemes, "--errors", out])
    assert result.exit_code == 0, result.stdout + result.stderr
    return out


def test_the_errors_file_names_the_ids(tmp_path):
    records = read_lines(errors_file(tmp_path, "strict,strong_all_match,nel"))
    # the span record of the primary scheme first, then the link records
    strict = records[0]
    assert (strict["scheme"], strict["kind"], strict["count"]) == ("strict", "missed", "mis")
    assert strict["gold"] == ROME and strict["pred"] == []
    assert records[1:] == LINK_RECORDS


def test_the_typed_measure_is_the_one_named_first(tmp_path):
    out = errors_file(tmp_path, "strict,nel,strong_typed_all_match,strong_all_match")
    assert read_lines(out)[1:] == [dict(r, scheme="strong_typed_all_match") for r in LINK_RECORDS]


def test_other_link_schemes_add_the_ids_only(tmp_path):
    records = read_lines(errors_file(tmp_path, "strict,nel"))
    assert [r["scheme"] for r in records] == ["strict"]
    assert records[0]["gold"] == ROME


def test_a_document_without_span_errors_has_its_link_errors(tmp_path):
    # document 0 alone: strict finds no error, strong_all_match London's id
    assert read_lines(errors_file(tmp_path, "strict,strong_all_match", GOLD[:1], PRED[:1])) == LINK_RECORDS[:1]


def test_records_without_link_schemes_do_not_change(tmp_path):
    # the same corpus with and without its kb ids, scored under strict
    # alone: the same bytes, and no "kb_id"
    unlinked = [
        [dict(doc, spans=[{k: v for k, v in s.items() if k != "kb_id"} for s in doc["spans"]]) for doc in side]
        for side in (GOLD, PRED)
    ]
    written = []
    for name, (gold_records, pred_records) in (("linked", (GOLD, PRED)), ("unlinked", unlinked)):
        folder = tmp_path / name
        folder.mkdir()
        written.append(errors_file(folder, "strict", gold_records, pred_records).read_bytes())
    assert written[0] == written[1]
    assert b"kb_id" not in written[0]


def test_the_writer_is_srsly_with_kb_ids(tmp_path):
    # ids and texts that need escaping, and spans of every side
    gold_records = [
        {"text": 'Zürich "Z" and 東京 and a\x7fb', "spans": [
            {"start": 0, "end": 6, "label": "LOC", "kb_id": "Wikipedia:Zürich"},
            {"start": 7, "end": 10, "label": "LOC", "kb_id": 'Q"72'},
            {"start": 15, "end": 17, "label": "LOC", "kb_id": "東京"},
            {"start": 22, "end": 25, "label": "MISC", "kb_id": "del\x7fid"},
        ]},
    ]  # fmt: skip
    pred_records = [
        {"text": gold_records[0]["text"], "spans": [
            {"start": 0, "end": 3, "label": "LOC", "kb_id": "Q72"},
            {"start": 7, "end": 10, "label": "MISC", "kb_id": "back\\slash"},
            {"start": 11, "end": 14, "label": "LOC"},
        ]},
    ]  # fmt: skip
    gold, pred = files(tmp_path, gold_records, pred_records)
    for primary in ("strict", "partial"):
        scores = compare_files(gold, pred, schemes=f"{primary},strong_all_match", keep_errors=True)
        records = error_records(scores.errors, scores.pairs, scores.primary, kb_ids=True)
        lines = error_lines(scores.errors, scores.pairs, scores.primary, kb_ids=True)
        assert records and all("kb_id" in s for r in records for s in [r["gold"] or {}, *r["pred"]] if s)
        assert lines == [srsly.json_dumps(r) for r in records]
        plain = error_lines(scores.errors, scores.pairs, scores.primary)
        assert plain == [srsly.json_dumps(r) for r in error_records(scores.errors, scores.pairs, scores.primary)]
        assert all('"kb_id"' not in line for line in plain)
    # by hand: the missed Tokyo and the gold Zürich, with their ids
    by_gold = {r["gold"]["start"]: r["gold"]["kb_id"] for r in records if r["gold"]}
    assert by_gold[0] == "Wikipedia:Zürich" and by_gold[15] == "東京"
    assert any(p["kb_id"] == "NIL" for r in records for p in r["pred"])  # the prediction without an id


def test_the_page_shows_the_ids(tmp_path):
    gold, pred = files(tmp_path)
    page = tmp_path / "report.html"
    result = invoke(["compare", gold, pred, "-s", "strict,strong_all_match", "--html", page])
    assert result.exit_code == 0, result.stdout + result.stderr
    html = page.read_text(encoding="utf-8")
    assert 'title="knowledge-base id: Q220">Q220</span>' in html  # Rome, missed under strict
    page2 = tmp_path / "plain.html"
    result = invoke(["compare", gold, pred, "-s", "strict", "--html", page2])
    assert 'class="kb"' not in page2.read_text(encoding="utf-8")


def test_a_sharded_run_writes_each_link_record_once(tmp_path):
    # two folders of shards, a document each: the streamed errors come
    # once the shards are merged, a scored batch at a
    # time; each document's link records are written once
    for side, records in (("gold", GOLD), ("pred", PRED)):
        folder = tmp_path / side
        folder.mkdir()
        write_jsonl(folder / "a.jsonl", records[1:])
        write_jsonl(folder / "b.jsonl", [dict(records[1], text=TEXT1)])
    out = tmp_path / "errors.jsonl"
    result = invoke(["compare", tmp_path / "gold", tmp_path / "pred", "-s", "strict,strong_all_match", "--errors", out])
    assert result.exit_code == 0, result.stdout + result.stderr
    linked = [(r["doc"], r["kind"], r["gold"]["text"]) for r in read_lines(out) if r["scheme"] == "strong_all_match"]
    # by hand: in each document Ann's wrong id (NIL -> Q5) and Rome missed
    assert linked == [(0, "wrong_id", "Ann"), (0, "missed", "Rome"), (1, "wrong_id", "Ann"), (1, "missed", "Rome")]


def test_a_span_renamed_by_a_label_map_keeps_its_id(tmp_path):
    gold, pred = files(tmp_path)
    label_map = tmp_path / "map.json"
    label_map.write_text(json.dumps({"gold": {"LOC": "GPE"}}))
    out = tmp_path / "errors.jsonl"
    result = invoke(["compare", gold, pred, "-s", "strict,nel", "--label-map", label_map, "--errors", out])
    assert result.exit_code == 0, result.stdout + result.stderr
    # by hand: London is gold GPE (Q84) against predicted LOC (Q90)
    london = next(r for r in read_lines(out) if r["doc"] == 0)
    assert london["kind"] == "wrong_type"
    assert london["gold"] == dict(LONDON_GOLD, label="GPE") and london["pred"] == [LONDON_PRED]


def test_a_sharded_run_writes_the_link_records_of_documents_without_span_errors(tmp_path):
    # shard a: document 0 alone (no strict error; London's wrong id); shard b:
    # document 1 (Rome missed; Ann's wrong id): the records of a local run
    # of both documents (test_the_errors_file_names_the_ids), London's too,
    # under the shards' names
    for side, records in (("gold", GOLD), ("pred", PRED)):
        folder = tmp_path / side
        folder.mkdir()
        write_jsonl(folder / "a.jsonl", records[:1])
        write_jsonl(folder / "b.jsonl", records[1:])
    out = tmp_path / "errors.jsonl"
    result = invoke(["compare", tmp_path / "gold", tmp_path / "pred", "-s", "strict,strong_all_match", "--errors", out])
    assert result.exit_code == 0, result.stdout + result.stderr
    records = read_lines(out)
    assert [(r["name"], r["scheme"], r["kind"], r["gold"]["text"]) for r in records] == [
        ("b.jsonl line 1", "strict", "missed", "Rome"),
        ("a.jsonl line 1", "strong_all_match", "wrong_id", "London"),
        ("b.jsonl line 1", "strong_all_match", "wrong_id", "Ann"),
        ("b.jsonl line 1", "strong_all_match", "missed", "Rome"),
    ]
    names = {"a.jsonl line 1": "line 1", "b.jsonl line 1": "line 2"}
    assert [dict(r, name=names[r["name"]]) for r in records[1:]] == LINK_RECORDS
