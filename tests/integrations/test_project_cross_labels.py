"""The project's ner-on-gum-labels step: a WNUT-17 pipeline scored on GUM
test through a predictions-side label map. The map names every WNUT-17
label and maps onto GUM's labels or drops; the step's commands, as
project.yml writes them, run on a tiny pipeline (an entity ruler whose
patterns are GUM test mentions, labelled with WNUT-17's labels), not on the
trained pipeline, which CI does not train."""

import json

import pytest
import srsly

from helpers import ROOT, gum_project, project_step, run_step
from spacy_spanf1.label_map import LabelMap

MAP = ROOT / "configs" / "wnut17-gum-labels.json"
STEP = "ner-on-gum-labels"
#: WNUT-17's entity types (its guidelines), as assets/wnut17 spells them.
WNUT_LABELS = {"corporation", "creative-work", "group", "location", "person", "product"}
#: GUM's entity types, as assets/gum spells them.
GUM_LABELS = {"abstract", "animal", "event", "object", "organization", "person", "place", "plant", "substance", "time"}


def wnut_labels(split):
    labels = set()
    with open(ROOT / "assets" / "wnut17" / f"{split}.conll", encoding="utf8") as f:
        for line in f:
            fields = line.split()
            if len(fields) == 2 and fields[1] != "O":
                labels.add(fields[1][2:])
    return labels


def test_the_map_names_every_wnut_label_and_maps_onto_gum_s_or_drops():
    label_map = LabelMap.read(MAP)
    assert label_map.sides == ("pred",) and not label_map.both  # the gold (GUM) keeps its labels
    mapping = label_map.side("pred")
    for split in ("train", "dev", "test"):
        assert wnut_labels(split) == WNUT_LABELS, split  # so that --map-unlisted error holds for any prediction
    assert set(mapping) == WNUT_LABELS
    assert {new for new in mapping.values() if new is not None} <= GUM_LABELS
    assert mapping["person"] == "person" and mapping["location"] == "place"
    assert mapping["group"] == mapping["corporation"] == "organization"
    assert mapping["product"] is None and mapping["creative-work"] is None


def step_commands():
    """The step's commands from project.yml, after the steps that make its inputs."""
    workflow = srsly.read_yaml(ROOT / "project.yml")["workflows"]["all"]
    assert workflow.index(STEP) > max(workflow.index("train-ner"), workflow.index("convert-gum"))
    return project_step(STEP)


def test_the_step_s_commands_name_its_inputs_and_outputs():
    step, commands = step_commands()
    words = {word for command in commands for word in command}
    assert set(step["deps"]) <= words
    assert set(step["outputs"]) <= words


#: Which WNUT-17 label the tiny pipeline gives to the mentions of each GUM label it predicts.
RULER_LABELS = {"person": "person", "place": "location", "organization": "corporation", "object": "product"}


@pytest.fixture(scope="module")
def tiny_project(tmp_path_factory):
    """A project folder with the step's inputs: GUM test's first 60
    sentences as corpus/gum-test.spacy, and an entity ruler as
    training/ner/model-best whose patterns are the tokens of the gold
    mentions of one to three tokens, labelled by RULER_LABELS, and one pattern of "creative-work"."""
    import spacy
    from spacy.tokens import DocBin

    root = tmp_path_factory.mktemp("project")
    gum_project(root, 60)
    nlp = spacy.blank("en")
    refs = list(DocBin().from_disk(root / "corpus" / "gum-test.spacy").get_docs(nlp.vocab))
    patterns = {}
    for ref in refs:
        for span in ref.spans["sc"]:
            if len(span) <= 3 and span.label_ in RULER_LABELS and span[0].is_alpha:
                patterns.setdefault(tuple(t.text for t in span), RULER_LABELS[span.label_])
    patterns[("discrimination",)] = "creative-work"
    ruler = nlp.add_pipe("entity_ruler")
    ruler.add_patterns(
        [{"label": label, "pattern": [{"ORTH": t} for t in words]} for words, label in sorted(patterns.items())]
    )
    (root / "training" / "ner").mkdir(parents=True)
    nlp.to_disk(root / "training" / "ner" / "model-best")
    return root, refs, nlp


@pytest.mark.slow
def test_the_step_scores_the_pipeline_s_entities_through_the_map(tiny_project):
    root, refs, nlp = tiny_project
    step, commands = step_commands()
    run_step(step, commands, root)
    # the predictions file: one record per gold document, the gold's text, the ruler's entities in characters
    records = list(srsly.read_jsonl(root / "corpus" / "gum-test-ner.jsonl"))
    assert [r["text"] for r in records] == [ref.text for ref in refs]
    predicted = [nlp(ref.text) for ref in refs]
    assert [[(s["start"], s["end"], s["label"]) for s in r["spans"]] for r in records] == [
        [(e.start_char, e.end_char, e.label_) for e in doc.ents] for doc in predicted
    ]
    wnut = {}
    for doc in predicted:
        for e in doc.ents:
            wnut[e.label_] = wnut.get(e.label_, 0) + 1
    assert set(wnut) == {"person", "location", "corporation", "product", "creative-work"}, wnut
    # counted by hand: gold spans per GUM label, predictions per label once mapped (product and creative-work dropped)
    gold = {}
    for ref in refs:
        for span in ref.spans["sc"]:
            gold[span.label_] = gold.get(span.label_, 0) + 1
    mapping = json.loads(MAP.read_text())["pred"]
    mapped = {}
    for label, n in wnut.items():
        if mapping[label] is not None:
            mapped[mapping[label]] = mapped.get(mapping[label], 0) + n
    assert mapped == {"person": wnut["person"], "place": wnut["location"], "organization": wnut["corporation"]}
    written = json.loads((root / "metrics" / "ner-gum-labels.json").read_text())
    assert list(written["schemes"]) == ["strict", "type"]
    for scheme in ("strict", "type"):
        labels, matrix = (written["schemes"][scheme]["confusion"][k] for k in ("labels", "matrix"))
        assert labels[-1] == "O" and set(labels[:-1]) == set(gold) | set(mapped)
        assert {label: sum(row) for label, row in zip(labels, matrix) if label != "O"} == {
            label: gold.get(label, 0) for label in labels[:-1]
        }
        columns = {label: sum(row[j] for row in matrix) for j, label in enumerate(labels) if label != "O"}
        assert columns == {label: mapped.get(label, 0) for label in labels[:-1]}, scheme
    assert written["signature"]["match"]["label_map"] == {"pred": mapping}
    assert written["signature"]["match"]["map_unlisted"] == "error" and "unmapped" not in written
    html = (root / "metrics" / "ner-gum-labels.html").read_text(encoding="utf8")
    assert '<table class="confusion" data-scheme="strict">' in html
    # without the map: WNUT-17's labels as predicted, every one of them a column of the matrix
    unmapped = json.loads((root / "metrics" / "ner-gum-unmapped.json").read_text())
    labels, matrix = (unmapped["schemes"]["type"]["confusion"][k] for k in ("labels", "matrix"))
    columns = {label: sum(row[j] for row in matrix) for j, label in enumerate(labels) if label != "O"}
    assert {label: n for label, n in columns.items() if n} == wnut
    assert "label_map" not in unmapped["signature"]["match"] or unmapped["signature"]["match"]["label_map"] is None
