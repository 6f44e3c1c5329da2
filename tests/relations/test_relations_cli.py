"""The relation settings on the command line and the front doors:
--symmetric and --relation-labels (symmetric= and relation_labels=), signed
only when a relation scheme is named; a bad value is one clear error."""

import json

import pytest

from helpers import assert_clean_failure, invoke, write_jsonl
from spacy_spanf1 import MatchSettings, SettingError, compare_files
from spacy_spanf1.signature import make_signature

TEXT = "Ada Lovelace met Charles Babbage in London."
SPANS = [
    {"start": 0, "end": 12, "label": "PER"},
    {"start": 17, "end": 32, "label": "PER"},
    {"start": 36, "end": 42, "label": "LOC"},
]


def rel(head, tail, label):
    return {"head": head, "tail": tail, "label": label}


def pair(tmp_path):
    """Gold: sibling(Ada, Charles), in(Ada, London); the prediction has
    both reversed: sibling(Charles, Ada), in(London, Ada). Spans equal."""
    gold = {"text": TEXT, "spans": SPANS, "relations": [rel(0, 1, "sibling"), rel(0, 2, "in")]}
    pred = {"text": TEXT, "spans": SPANS, "relations": [rel(1, 0, "sibling"), rel(2, 0, "in")]}
    return write_jsonl(tmp_path / "gold.jsonl", [gold]), write_jsonl(tmp_path / "pred.jsonl", [pred])


def scored(tmp_path, *options):
    gold, pred = pair(tmp_path)
    out = tmp_path / "out.json"
    result = invoke(["compare", gold, pred, "-s", "strict,rel_strict", "-o", out, "--silent", *options])
    assert result.exit_code == 0, result.output
    return json.loads(out.read_text(encoding="utf8"))


def test_symmetric_label_on_the_command_line(tmp_path):
    # Without --symmetric both reversed relations are wrong: TP 0, FP 2, FN 2.
    plain = scored(tmp_path)["schemes"]["rel_strict"]
    assert plain["counts"] == {"tp": 0, "fp": 2, "fn": 2}
    # sibling symmetric: sibling(Charles, Ada) is sibling(Ada, Charles):
    # TP 1; in(London, Ada) stays wrong: FP 1, FN 1. P = R = F = 1/2;
    # per label sibling F 1, in F 0: macro (1 + 0) / 2 = 0.5.
    data = scored(tmp_path, "--symmetric", "sibling")
    result = data["schemes"]["rel_strict"]
    assert result["counts"] == {"tp": 1, "fp": 1, "fn": 1}
    assert (result["p"], result["r"], result["f"], result["macro_f"]) == (0.5, 0.5, 0.5, 0.5)
    assert result["per_type"]["sibling"]["f"] == 1.0 and result["per_type"]["in"]["f"] == 0.0
    assert data["signature"]["match"]["symmetric"] == ["sibling"]
    assert data["signature"]["match"]["relation_labels"] is None
    # both symmetric: both relations match, TP 2.
    both = scored(tmp_path, "--symmetric", "sibling,in")["schemes"]["rel_strict"]
    assert both["counts"] == {"tp": 2, "fp": 0, "fn": 0}


def test_relation_label_without_support_counts_zero_in_macro(tmp_path):
    # As above (TP 1, FP 1, FN 1), with works_for named and in neither side:
    # per label sibling F 1, in F 0, works_for F 0: macro (1 + 0 + 0) / 3.
    data = scored(tmp_path, "--symmetric", "sibling", "--relation-labels", "sibling,in,works_for")
    result = data["schemes"]["rel_strict"]
    assert result["counts"] == {"tp": 1, "fp": 1, "fn": 1}
    assert result["macro_f"] == pytest.approx(1 / 3, abs=1e-9)
    assert result["per_type"]["works_for"] == {"p": 0.0, "r": 0.0, "f": 0.0}
    assert data["signature"]["match"]["relation_labels"] == ["sibling", "in", "works_for"]
    # Only sibling scored: the in relations are left out, TP 1 alone.
    only = scored(tmp_path, "--symmetric", "sibling", "--relation-labels", "sibling")["schemes"]["rel_strict"]
    assert only["counts"] == {"tp": 1, "fp": 0, "fn": 0}
    assert list(only["per_type"]) == ["sibling"]


def test_the_front_door_takes_the_same_keywords(tmp_path):
    gold, pred = pair(tmp_path)
    scores = compare_files(
        gold, pred, schemes="strict,rel_strict", symmetric=["sibling"], relation_labels="sibling,in,works_for"
    )
    totals = scores.results["rel_strict"].totals
    assert (totals.tp, totals.fp, totals.fn) == (1, 1, 1)
    by_object = compare_files(
        gold, pred, match=MatchSettings("strict,rel_strict", symmetric="sibling", relation_labels=["sibling"])
    )
    totals = by_object.results["rel_strict"].totals
    assert (totals.tp, totals.fp, totals.fn) == (1, 0, 0)


def test_the_relation_settings_are_signed_with_a_relation_scheme_only():
    assert "symmetric" not in make_signature(MatchSettings("strict"))["match"]
    assert "relation_labels" not in make_signature(MatchSettings("strict"))["match"]
    signed = make_signature(MatchSettings("strict,rel_exact", symmetric="b,a"))["match"]
    assert (signed["symmetric"], signed["relation_labels"]) == (["b", "a"], None)


def test_relation_settings_without_a_relation_scheme_are_an_error(tmp_path):
    with pytest.raises(SettingError, match="'symmetric' \\(sibling\\) applies to the relation schemes"):
        MatchSettings("strict", symmetric=["sibling"])
    with pytest.raises(SettingError, match="'relation_labels' is empty"):
        MatchSettings("strict,rel_strict", relation_labels=[])
    with pytest.raises(SettingError, match="'relation_labels' holds 3"):
        MatchSettings("strict,rel_strict", relation_labels=["in", 3])
    gold, pred = pair(tmp_path)
    result = invoke(["compare", gold, pred, "-s", "strict", "--relation-labels", "in"])
    assert_clean_failure(result, 2, "'--relation-labels' (in) applies to the relation schemes")


def short_ada_pair(tmp_path):
    """Gold as `pair`; the prediction cuts Ada Lovelace to "Ada" and
    relates it: sibling(Charles, Ada), in(Ada, London)."""
    gold = {"text": TEXT, "spans": SPANS, "relations": [rel(0, 1, "sibling"), rel(0, 2, "in")]}
    spans = [{"start": 0, "end": 3, "label": "PER"}, *SPANS[1:]]
    pred = {"text": TEXT, "spans": spans, "relations": [rel(1, 0, "sibling"), rel(0, 2, "in")]}
    return write_jsonl(tmp_path / "gold.jsonl", [gold]), write_jsonl(tmp_path / "pred.jsonl", [pred])


def error_lines(tmp_path, schemes, *options):
    gold, pred = short_ada_pair(tmp_path)
    errors = tmp_path / "errors.jsonl"
    result = invoke(["compare", gold, pred, "-s", schemes, "--errors", errors, "--silent", *options])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in errors.read_text(encoding="utf8").splitlines()]


def test_relation_error_records_follow_the_span_records(tmp_path):
    ada = {"start": 0, "end": 12, "label": "PER", "text": "Ada Lovelace"}
    short = {"start": 0, "end": 3, "label": "PER", "text": "Ada"}
    charles = {"start": 17, "end": 32, "label": "PER", "text": "Charles Babbage"}
    london = {"start": 36, "end": 42, "label": "LOC", "text": "London"}
    # Without a relation scheme: the span record alone (Ada's boundaries).
    [span_only] = error_lines(tmp_path, "strict")
    assert (span_only["kind"], span_only["gold"], span_only["pred"]) == ("wrong_boundaries", ada, [short])
    records = error_lines(tmp_path, "strict,rel_strict,rel_exact", "--symmetric", "sibling")
    assert records[0] == span_only
    # Under strict pairing "Ada" is no match for "Ada Lovelace" (an INC
    # pair), so no relation with it as an argument matches: both gold
    # relations are missed and both predictions spurious, missed first,
    # each by (head, tail). sibling is symmetric: its prediction is written
    # with its arguments in text order ("Ada", then Charles).
    base = {"doc": 0, "name": "line 1", "scheme": "rel_strict"}
    assert records[1:] == [
        {**base, "kind": "missed", "gold": {"label": "sibling", "head": ada, "tail": charles}},
        {**base, "kind": "missed", "gold": {"label": "in", "head": ada, "tail": london}},
        {**base, "kind": "spurious", "pred": {"label": "sibling", "head": short, "tail": charles}},
        {**base, "kind": "spurious", "pred": {"label": "in", "head": short, "tail": london}},
    ]


def test_relation_error_records_take_the_relation_settings(tmp_path):
    # Under partial "Ada" pairs with "Ada Lovelace" (PAR), so both
    # predictions match once sibling is symmetric: no relation record.
    records = error_lines(tmp_path, "partial,rel_partial", "--symmetric", "sibling")
    assert [r["scheme"] for r in records] == ["partial"]
    # Without --symmetric, sibling(Charles, "Ada") is the wrong direction.
    records = error_lines(tmp_path, "partial,rel_partial")
    assert [(r["kind"], r.get("gold", r.get("pred"))["label"]) for r in records[1:]] == [
        ("missed", "sibling"),
        ("spurious", "sibling"),
    ]
    # Only in scored: the sibling relations give no records.
    records = error_lines(tmp_path, "strict,rel_strict", "--relation-labels", "in")
    assert [(r["kind"], r.get("gold", r.get("pred"))["label"]) for r in records[1:]] == [
        ("missed", "in"),
        ("spurious", "in"),
    ]


def test_sharded_input_writes_the_relation_records_of_every_document(tmp_path):
    # Two shards of the pair of short_ada_pair (a span error each) and one
    # of `pair` (no span error, two relation errors): the records of the
    # first two shards' documents, one span record and four relation
    # records each, then the third's four relation records (its gold
    # relations missed and its reversed predictions spurious), as one file
    # of the three documents gives them.
    gold, pred = short_ada_pair(tmp_path)
    (tmp_path / "clean").mkdir()
    clean_gold, clean_pred = pair(tmp_path / "clean")
    for side, path, clean in (("gold", gold, clean_gold), ("pred", pred, clean_pred)):
        shards = tmp_path / f"{side}_shards"
        shards.mkdir()
        for name in ("a", "b"):
            (shards / f"{name}.jsonl").write_text(path.read_text(encoding="utf8"), encoding="utf8")
        (shards / "c.jsonl").write_text(clean.read_text(encoding="utf8"), encoding="utf8")
    errors = tmp_path / "errors.jsonl"
    args = ["compare", tmp_path / "gold_shards", tmp_path / "pred_shards", "-s", "strict,rel_strict", "--silent"]
    result = invoke([*args, "--errors", errors])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in errors.read_text(encoding="utf8").splitlines()]
    relations = [("rel_strict", "missed")] * 2 + [("rel_strict", "spurious")] * 2
    assert [(r["name"], r["scheme"], r["kind"]) for r in records] == [
        (name, scheme, kind)
        for name in ("a.jsonl line 1", "b.jsonl line 1")
        for scheme, kind in [("strict", "wrong_boundaries")] + relations
    ] + [("c.jsonl line 1", scheme, kind) for scheme, kind in relations]
    assert [r["doc"] for r in records] == [0] * 5 + [1] * 5 + [2] * 4
    # the same records as one file of the three documents gives, in-process
    one = tmp_path / "one"
    one.mkdir()
    for side in ("gold", "pred"):
        lines = [(tmp_path / f"{side}_shards" / f"{n}.jsonl").read_text(encoding="utf8") for n in "abc"]
        (one / f"{side}.jsonl").write_text("".join(lines), encoding="utf8")
    whole = tmp_path / "whole.jsonl"
    cmd = ["compare", one / "gold.jsonl", one / "pred.jsonl", "-s", "strict,rel_strict", "--silent", "--errors", whole]
    result = invoke(cmd)
    assert result.exit_code == 0, result.output

    # (in one batch of three documents the span records of the batch come first)
    def key(record):
        return json.dumps({k: v for k, v in record.items() if k != "name"}, sort_keys=True)

    assert sorted(map(key, records)) == sorted(key(json.loads(line)) for line in whole.read_text().splitlines())


def test_on_errors_is_given_the_relation_errors(tmp_path):
    # The Python callback: after each batch's span errors, the errors of
    # the first relation scheme named (RelationErrors, each `doc` a key of
    # the documents given), for the document without span errors too;
    # sharded input gives the same once the shards are merged.
    gold, pred = pair(tmp_path)
    calls = []

    def on_errors(errors, pairs, scheme):
        calls.append((scheme, [(e.kind, e.label, pairs[e.doc].name) for e in errors]))

    compare_files(gold, pred, schemes="strict,rel_strict,rel_exact", on_errors=on_errors)
    # The prediction reverses both relations (spans equal): no span error,
    # both gold relations missed, both predictions spurious, under rel_strict.
    wanted = [
        ("strict", []),
        (
            "rel_strict",
            [
                ("missed", "sibling", "line 1"),
                ("missed", "in", "line 1"),
                ("spurious", "sibling", "line 1"),
                ("spurious", "in", "line 1"),
            ],
        ),
    ]
    assert calls == wanted
    for side in ("gold", "pred"):
        shards = tmp_path / f"{side}_shards"
        shards.mkdir()
        for name in ("a", "b"):
            (shards / f"{name}.jsonl").write_text((tmp_path / f"{side}.jsonl").read_text(encoding="utf8"))
    calls.clear()
    scores = compare_files(
        tmp_path / "gold_shards", tmp_path / "pred_shards", schemes="strict,rel_strict", on_errors=on_errors
    )
    # merged: the relation errors of both shards' documents (no span error in either)
    given = [error for scheme, errors in calls if scheme == "rel_strict" for error in errors]
    assert given == [(kind, label, f"{name}.jsonl line 1") for name in "ab" for kind, label, _ in wanted[1][1]]
    assert all(errors == [] for scheme, errors in calls if scheme == "strict")
    assert scores.results["rel_strict"].counts == {"tp": 0, "fp": 4, "fn": 4}


def test_a_shards_relation_errors_travel_with_its_scores(tmp_path):
    # On a cluster a shard's result reaches the client pickled: its
    # relation errors (the document of `pair` has no span error) with it.
    import pickle

    from spacy_spanf1.distributed.run import shard_keep
    from spacy_spanf1.distributed.shards import ShardSpec
    from spacy_spanf1.distributed.tasks import score_pair_shard
    from spacy_spanf1.corpus import Keep
    from spacy_spanf1.settings import ReadSettings

    gold, pred = pair(tmp_path)
    keep = shard_keep(Keep(on_errors=lambda *_: None))
    spec = ShardSpec(0, str(gold), str(pred))
    settings = {"match": MatchSettings("strict,rel_strict"), "read": ReadSettings(), "keep": keep}
    result = pickle.loads(pickle.dumps(score_pair_shard(spec, settings)))
    [(doc, (kept, errors))] = result.scores.relation_errors.items()
    assert doc == 0 and kept.name == "line 1"
    assert [(e.kind, e.label) for e in errors] == [
        ("missed", "sibling"),
        ("missed", "in"),
        ("spurious", "sibling"),
        ("spurious", "in"),
    ]
