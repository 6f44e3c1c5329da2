"""The project's GUM linker (scripts/link_gum.py) on a small corpus
written out here: the dictionary's rule (most frequent identity of a
surface, none when it is more often unlinked), the mentions it finds end
to end, and the three files it writes; and the project step that scores
them."""

import json

import srsly

from helpers import ROOT, python


def write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))


def record(rid, tokens, spans):
    return {
        "id": rid,
        "doc": rid.split("-")[0],
        "genre": "news",
        "text": " ".join(tokens),
        "tokens": tokens,
        "spaces": [True] * len(tokens),
        "spans": spans,
    }


def test_the_linker_links_by_the_training_splits_majority(tmp_path):
    train = [
        record(
            "a-1", ["New", "York", "is", "big"], [{"start": 0, "end": 2, "label": "place", "identity": "New_York_City"}]
        ),
        record(
            "a-2", ["New", "York", "again"], [{"start": 0, "end": 2, "label": "place", "identity": "New_York_City"}]
        ),
        record(
            "a-3", ["New", "York", "state"], [{"start": 0, "end": 2, "label": "place", "identity": "New_York_(state)"}]
        ),
        # "Paris" twice unlinked, once linked: more often unlinked, so no link
        record(
            "a-4",
            ["Paris", "Paris", "Paris"],
            [
                {"start": 0, "end": 1, "label": "person"},
                {"start": 1, "end": 2, "label": "person"},
                {"start": 2, "end": 3, "label": "place", "identity": "Paris"},
            ],
        ),
    ]
    test = [
        record(
            "b-1",
            ["I", "love", "New", "York", "and", "Paris"],
            [
                {"start": 2, "end": 4, "label": "place", "identity": "New_York_City"},
                {"start": 5, "end": 6, "label": "place", "identity": "Paris"},
                {"start": 0, "end": 1, "label": "person"},
            ],
        )
    ]
    write(tmp_path / "train.jsonl", train)
    write(tmp_path / "test.jsonl", test)
    done = python(ROOT / "scripts" / "link_gum.py", tmp_path / "train.jsonl", tmp_path / "test.jsonl", tmp_path / "out")
    assert done.returncode == 0, done.stderr
    read = {
        name: json.loads((tmp_path / "out" / f"{name}.jsonl").read_text())
        for name in ("gold", "gold_mentions", "end_to_end")
    }
    assert [(s["start"], s["kb_id"]) for s in read["gold"]["spans"]] == [(2, "New_York_City"), (5, "Paris"), (0, "NIL")]
    # on the gold mentions: New York -> New_York_City (2 of 3), Paris -> none (2 of 3 unlinked), "I" unseen
    assert [s["kb_id"] for s in read["gold_mentions"]["spans"]] == ["New_York_City", "NIL", "NIL"]
    # end to end: only surfaces that link are found: New York, with its most frequent label
    assert read["end_to_end"]["spans"] == [{"start": 2, "end": 4, "label": "place", "kb_id": "New_York_City"}]


def test_the_project_step_scores_both_runs_under_link_schemes():
    project = srsly.read_yaml(ROOT / "project.yml")
    step = next(c for c in project["commands"] if c["name"] == "link-gum")
    assert "link-gum" in project["workflows"]["all"]
    script = " ".join(step["script"])
    for name in ("end_to_end", "gold_mentions"):
        assert f"corpus/links/{name}.jsonl" in script
    schemes = project["vars"]["link_schemes"].split(",")
    assert schemes[0] == "strict" and {"strong_all_match", "strong_link_match", "nel"} <= set(schemes)
    assert {"metrics/links-end-to-end.json", "metrics/links-gold-mentions.json"} <= set(step["outputs"])
