"""The project's GUM relations (scripts/gum_relations.py): the two gold
rules and the extractor's rules on sentences written out here, counted by
hand; the seeded perturbation of the spans; and the relations-gum step's
commands, as project.yml writes them, on the first GUM test sentences."""

import json
import random
import shutil

import srsly

from helpers import ROOT, load_file, project_step, python, run_step

STEP = "relations-gum"
RELATION_SCHEMES = ["rel_strict", "rel_exact", "rel_partial", "rel_type", "rel_overlap"]


def load():
    return load_file(ROOT / "scripts" / "gum_relations.py")


TOKENS = ["Obama", "met", "him", "at", "the", "University", "of", "Chicago", "in", "Paris", ",", "France"]
SPANS = [
    {"start": 0, "end": 1, "label": "person", "identity": "Barack_Obama"},  # 0 Obama
    {"start": 2, "end": 3, "label": "person", "identity": "Barack_Obama"},  # 1 him
    {"start": 4, "end": 8, "label": "organization", "identity": "University_of_Chicago"},  # 2
    {"start": 7, "end": 8, "label": "place", "identity": "Chicago"},  # 3 Chicago
    {"start": 9, "end": 12, "label": "place"},  # 4 Paris , France
    {"start": 9, "end": 10, "label": "place", "identity": "Paris"},  # 5 Paris
    {"start": 11, "end": 12, "label": "place"},  # 6 France
    {"start": 1, "end": 8, "label": "event"},  # 7 met him at the University of Chicago
    {"start": 11, "end": 12, "label": "organization"},  # 8 France again, as an organization
]


def triples(relations):
    return sorted((r["head"], r["tail"], r["label"]) for r in relations)


def test_the_gold_rules_counted_by_hand():
    rules = load()
    # same_entity: only Obama and him share an identity (Chicago is not University_of_Chicago), head first.
    # contains_place: the university holds Chicago; Paris , France holds Paris and France; the event
    # holds Chicago but is no container; France as an organization has France's own boundaries (not
    # strictly inside), and so does France inside it.
    assert triples(rules.gold_relations(SPANS)) == [
        (0, 1, "same_entity"),
        (2, 3, "contains_place"),
        (4, 5, "contains_place"),
        (4, 6, "contains_place"),
    ]


def test_an_identity_relates_mentions_of_one_sentence_only(tmp_path):
    source = tmp_path / "gum.jsonl"
    records = [
        {"id": "d-1", "doc": "d", "text": "Obama spoke", "tokens": ["Obama", "spoke"], "spans": [SPANS[0]]},
        {"id": "d-2", "doc": "d", "text": "Obama left", "tokens": ["Obama", "left"], "spans": [SPANS[0]]},
    ]
    source.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf8")
    done = python(ROOT / "scripts" / "gum_relations.py", source, tmp_path / "out")
    assert done.returncode == 0, done.stderr
    gold = list(srsly.read_jsonl(tmp_path / "out" / "gold.jsonl"))
    assert [r["relations"] for r in gold] == [[], []]
    assert [r["tokens"] for r in gold] == [["Obama", "spoke"], ["Obama", "left"]]


def test_the_extractor_s_rules_counted_by_hand():
    rules = load()
    spans = [{k: v for k, v in s.items() if k != "identity"} for s in SPANS]
    # him: the nearest person mention before it with an upper-case letter is Obama; no two surfaces
    # are equal but the two France mentions, which overlap; contains_place as in gold
    assert triples(rules.predicted_relations(TOKENS, spans)) == [
        (0, 1, "same_entity"),
        (2, 3, "contains_place"),
        (4, 5, "contains_place"),
        (4, 6, "contains_place"),
    ]
    tokens = ["Ada", "saw", "ada", "and", "it", ",", "it", "and", "her"]
    spans = [
        {"start": 0, "end": 1, "label": "organization"},  # Ada: a name, but not a person
        {"start": 2, "end": 3, "label": "place"},  # ada: equal to Ada lowercased
        {"start": 4, "end": 5, "label": "abstract"},  # it
        {"start": 6, "end": 7, "label": "abstract"},  # it again: no upper-case letter, no relation
        {"start": 8, "end": 9, "label": "person"},  # her: no person mention before it
    ]
    assert triples(rules.predicted_relations(tokens, spans)) == [(0, 1, "same_entity")]
    spans[0]["label"] = "person"
    assert triples(rules.predicted_relations(tokens, spans)) == [(0, 1, "same_entity"), (0, 4, "same_entity")]


def test_the_perturbation_keeps_retypes_resizes_or_drops_each_span():
    rules = load()
    records = list(srsly.read_jsonl(ROOT / "assets" / "gum" / "gum_test.jsonl"))
    outcomes = {"kept": 0, "retyped": 0, "resized": 0}
    n_gold = n_pred = 0
    for record in records:
        gold = record["spans"]
        pred = rules.perturb(gold, len(record["tokens"]), random.Random(f"0:{record['id']}"))
        assert pred == rules.perturb(gold, len(record["tokens"]), random.Random(f"0:{record['id']}"))
        keys = {(s["start"], s["end"], s["label"]) for s in gold}
        for span in pred:
            key = (span["start"], span["end"], span["label"])
            if key in keys:
                outcomes["kept"] += 1
            elif any((s["start"], s["end"]) == key[:2] for s in gold):
                outcomes["retyped"] += 1
            else:
                outcomes["resized"] += 1
                assert any(s["start"] == span["start"] and abs(s["end"] - span["end"]) == 1 for s in gold)
        n_gold += len(gold)
        n_pred += len(pred)
    # 75 %, 10 %, 10 % of the gold spans, 5 % dropped (a loose band: 2,330 draws)
    assert 0.70 < outcomes["kept"] / n_gold < 0.82
    assert 0.06 < outcomes["retyped"] / n_gold < 0.14 and 0.06 < outcomes["resized"] / n_gold < 0.14
    assert 0.90 < n_pred / n_gold < 0.98


def test_the_step_scores_the_first_gum_sentences_under_every_relation_scheme(tmp_path):
    step, commands = project_step(STEP)
    shutil.copytree(ROOT / "scripts", tmp_path / "scripts")
    (tmp_path / "assets" / "gum").mkdir(parents=True)
    lines = (ROOT / "assets" / "gum" / "gum_test.jsonl").read_text(encoding="utf8").splitlines(keepends=True)[:60]
    (tmp_path / "assets" / "gum" / "gum_test.jsonl").write_text("".join(lines), encoding="utf8")
    (tmp_path / "metrics").mkdir()
    run_step(step, commands, tmp_path)
    gold = list(srsly.read_jsonl(tmp_path / "corpus" / "relations" / "gold.jsonl"))
    pred = list(srsly.read_jsonl(tmp_path / "corpus" / "relations" / "predicted.jsonl"))
    n_gold = sum(len(r["relations"]) for r in gold)
    n_pred = sum(len(r["relations"]) for r in pred)
    assert len(gold) == len(pred) == 60 and n_gold > 0 and n_pred > 0
    schemes = srsly.read_json(tmp_path / "metrics" / "relations-gum.json")["schemes"]
    assert list(schemes) == ["strict", "exact", *RELATION_SCHEMES]
    counts = {name: schemes[name]["counts"] for name in RELATION_SCHEMES}
    for name, c in counts.items():
        assert c["tp"] + c["fn"] == n_gold and c["tp"] + c["fp"] == n_pred, name
    # Strict asks more of an argument than Boundaries, and Boundaries more than partial overlap
    assert counts["rel_strict"]["tp"] <= counts["rel_exact"]["tp"] <= counts["rel_partial"]["tp"]


def test_the_step_s_commands_name_its_inputs_and_outputs():
    step, commands = project_step(STEP)
    words = {word for command in commands for word in command}
    assert set(step["deps"]) <= words
    assert set(step["outputs"]) <= words
