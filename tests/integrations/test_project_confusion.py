"""The project's confusion-spancat step: the label map onto CoNLL-2003's
labels names every GUM label, and the step's commands, as project.yml
writes them, run on a tiny span categorizer over the first GUM test
sentences (not on the trained pipeline, which CI does not train)."""

import json

import pytest
import srsly

from helpers import ROOT, gum_project, project_step, run_step
from spacy_spanf1.label_map import LabelMap

MAP = ROOT / "configs" / "gum-conll-labels.json"
STEP = "confusion-spancat"
#: GUM's entity types (GUM's guidelines), as the corpus in assets/gum spells them.
GUM_LABELS = {"abstract", "animal", "event", "object", "organization", "person", "place", "plant", "substance", "time"}


def gum_labels(split):
    return {
        span["label"]
        for record in srsly.read_jsonl(ROOT / "assets" / "gum" / f"gum_{split}.jsonl")
        for span in record["spans"]
    }


def test_the_conll_map_names_every_gum_label_and_maps_onto_conll_s():
    label_map = LabelMap.read(MAP)
    assert label_map.both
    mapping = label_map.side("gold")
    for split in ("train", "dev", "test"):
        assert gum_labels(split) == GUM_LABELS, split  # so that --map-unlisted error holds on every split
    assert set(mapping) == GUM_LABELS
    assert {new for new in mapping.values() if new is not None} == {"PER", "ORG", "LOC", "MISC"}
    assert sorted(label for label, new in mapping.items() if new is None) == ["abstract", "time"]
    assert {mapping["person"], mapping["organization"], mapping["place"]} == {"PER", "ORG", "LOC"}


@pytest.fixture(scope="module")
def tiny_project(tmp_path_factory):
    """A project folder with the step's inputs: GUM test's first 40
    sentences as corpus/gum-test.spacy, and an untrained span categorizer
    of GUM's labels (initialized, one update) as training/spancat/model-best."""
    import spacy
    from spacy.tokens import DocBin
    from spacy.training import Example

    root = tmp_path_factory.mktemp("project")
    gum_project(root, 40)
    nlp = spacy.blank("en")
    nlp.add_pipe(
        "spancat", config={"spans_key": "sc", "suggester": {"@misc": "spacy.ngram_suggester.v1", "sizes": [1, 2, 3]}}
    )
    refs = list(DocBin().from_disk(root / "corpus" / "gum-test.spacy").get_docs(nlp.vocab))
    examples = [Example(nlp.make_doc(ref.text), ref) for ref in refs]
    spacy.util.fix_random_seed(0)
    optimizer = nlp.initialize(lambda: examples)
    nlp.update(examples, sgd=optimizer)
    (root / "training" / "spancat").mkdir(parents=True)
    nlp.to_disk(root / "training" / "spancat" / "model-best")
    return root, refs


@pytest.mark.slow
def test_the_step_writes_the_confusion_matrices_and_the_mapped_scores(tiny_project):
    root, refs = tiny_project
    step, commands = project_step(STEP)
    run_step(step, commands, root)
    # each row of a confusion matrix sums to the gold spans of its label (counted here from the corpus)
    gold = {}
    for ref in refs:
        for span in ref.spans["sc"]:
            gold[span.label_] = gold.get(span.label_, 0) + 1
    confusion = json.loads((root / "metrics" / "spancat-confusion.json").read_text())["schemes"]
    assert list(confusion) == ["strict", "type"]
    for scheme in ("strict", "type"):
        labels, matrix = confusion[scheme]["confusion"]["labels"], confusion[scheme]["confusion"]["matrix"]
        assert labels[-1] == "O" and set(labels[:-1]) >= set(gold)
        assert {label: sum(row) for label, row in zip(labels, matrix) if label in gold} == gold
        assert sum(sum(row[:-1]) for row in matrix) > 0  # the tiny pipeline predicts spans
    for page, scheme in (("confusion-strict", "strict"), ("confusion-type", "type"), ("conll-labels", "strict")):
        html = (root / "metrics" / f"spancat-{page}.html").read_text(encoding="utf8")
        assert f'<table class="confusion" data-scheme="{scheme}">' in html, page
    # through the map: CoNLL's labels only, abstract and time dropped on both sides, the map signed
    written = json.loads(MAP.read_text())
    mapped = json.loads((root / "metrics" / "spancat-conll-labels.json").read_text())
    coarse = {}
    for label, n in gold.items():
        if written[label] is not None:
            coarse[written[label]] = coarse.get(written[label], 0) + n
    labels, matrix = (mapped["schemes"]["strict"]["confusion"][k] for k in ("labels", "matrix"))
    assert set(labels) <= {"PER", "ORG", "LOC", "MISC", "O"}
    assert {label: sum(row) for label, row in zip(labels, matrix) if label != "O"} == coarse
    assert mapped["signature"]["match"]["label_map"] == written
    assert mapped["signature"]["match"]["map_unlisted"] == "error" and "unmapped" not in mapped
    swept = json.loads((root / "metrics" / "spancat-sweep-conll-labels.json").read_text())
    assert swept["signature"]["match"]["label_map"] == written and set(swept["sweep"]) == {"strict", "type"}
    assert set(swept["sweep"]["strict"]["per_label"]) <= {"PER", "ORG", "LOC", "MISC"}


def test_the_step_s_commands_name_its_inputs_and_outputs():
    step, commands = project_step(STEP)
    words = {word for command in commands for word in command}
    assert set(step["deps"]) <= words
    assert set(step["outputs"]) <= words
