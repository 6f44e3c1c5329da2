"""A sweep of a trained span categorizer equals spaCy's find-threshold on
its grid, and the config written with the best threshold loads."""
import random
import shutil

import pytest

pytestmark = pytest.mark.slow

SCHEMES = ["strict", "iou"]
NAMES = ["Anna", "Bruno", "Chen Li", "Dmitri", "Eva Marie", "Farid"]
PLACES = ["Paris", "Oslo", "Saint-Malo", "New York", "Lima", "Aix-en-Provence"]
FILLER = "the a went to and saw met in from with near today later we they".split()


def make_doc(nlp, rng, labelled=True):
    """A sentence of filler words with a name (PER) and a place (LOC). The
    reference keeps each hyphenated place as one token, which spaCy's
    tokenizer splits: predicted spans go through the alignment."""
    from spacy.tokens import Doc, Span

    words, spans = [], []
    for kind, pool in (("PER", NAMES), ("LOC", PLACES)):
        words += rng.sample(FILLER, rng.randint(1, 3))
        item = rng.choice(pool).split(" ")
        spans.append((len(words), len(words) + len(item), kind))
        words += item
    words += rng.sample(FILLER, 2)
    doc = Doc(nlp.vocab, words=words, spaces=[True] * (len(words) - 1) + [False])
    if labelled:
        doc.spans["sc"] = [Span(doc, s, e, label) for s, e, label in spans]
    return doc


@pytest.fixture(scope="session")
def spancat_model(tmp_path_factory):
    """A small spancat pipeline (its own tok2vec) scored by this package's
    scorer, trained for a few dozen steps, and a dev DocBin: (model dir,
    dev path)."""
    import spacy
    from spacy.tokens import DocBin
    from spacy.training import Example

    root = tmp_path_factory.mktemp("spancat")
    rng = random.Random(3)
    nlp = spacy.blank("en")
    nlp.add_pipe("spancat", config={
        "spans_key": "sc", "max_positive": None, "threshold": 0.5,
        "suggester": {"@misc": "spacy.ngram_suggester.v1", "sizes": [1, 2, 3]},
        "scorer": {"@scorers": "spacy-spanf1.scorer.v1", "schemes": SCHEMES},
    })
    train = []
    for doc in (make_doc(nlp, rng) for _ in range(60)):  # trained on spaCy's own tokens
        ref = nlp.make_doc(doc.text)
        ref.spans["sc"] = [ref.char_span(s.start_char, s.end_char, label=s.label_) for s in doc.spans["sc"]]
        train.append(Example(nlp.make_doc(doc.text), ref))
    optimizer = nlp.initialize(lambda: train)
    for step in range(25):
        batch = rng.sample(train, 16)
        nlp.update(batch, sgd=optimizer, drop=0.1)
    model = root / "model"
    nlp.to_disk(model)
    dev = DocBin(store_user_data=False)
    for i in range(40):
        dev.add(make_doc(nlp, rng, labelled=i != 7))  # doc 7 has no span group: skipped by both
    dev_path = root / "dev.spacy"
    dev.to_disk(dev_path)
    return model, dev_path


def test_spacy_grid_equals_find_threshold(spancat_model):
    from spacy.cli.find_threshold import find_threshold

    from spacy_spanf1 import sweep_pipeline

    model, dev = spancat_model
    result = sweep_pipeline(model, dev, pipe="spancat", schemes=SCHEMES, grid="spacy", n_trials=11)
    for scheme in SCHEMES:
        best, score, scores = find_threshold(
            str(model), dev, pipe_name="spancat", threshold_key="threshold",
            scores_key=f"spans_sc_{scheme}_f", n_trials=11, silent=True,
        )
        ours = result[scheme]
        assert ours.thresholds.tolist() == pytest.approx(list(scores))
        assert ours.f1.tolist() == pytest.approx(list(scores.values()), abs=1e-12)
        assert ours.best.threshold == pytest.approx(best)
        assert ours.best.f1 == pytest.approx(score, abs=1e-12)
    # the curve is not flat: the threshold matters on this model
    assert len(set(result["strict"].f1.round(9).tolist())) > 2
    assert result.signature["pipeline"] == {"pipe": "spancat", "spans_key": "sc", "n_docs": 39, "skipped": 1}


def test_every_distinct_score_equals_the_scorer_at_that_threshold(spancat_model):
    """At a threshold between grid points, the sweep equals nlp.evaluate
    with the component's threshold set there (the registered scorer)."""
    import spacy
    from spacy.tokens import DocBin
    from spacy.training import Example

    from spacy_spanf1 import sweep_pipeline

    model, dev = spancat_model
    result = sweep_pipeline(model, dev, schemes=SCHEMES)["strict"]
    nlp = spacy.load(model)
    refs = list(DocBin().from_disk(dev).get_docs(nlp.vocab))
    examples = [Example(nlp.make_doc(r.text), r) for r in refs]
    i = len(result.thresholds) // 2
    nlp.get_pipe("spancat").cfg["threshold"] = float(result.thresholds[i])
    scores = nlp.evaluate(examples)
    assert result.f1[i] == pytest.approx(scores["spans_sc_strict_f"], abs=1e-12)
    assert result.precision[i] == pytest.approx(scores["spans_sc_strict_p"], abs=1e-12)


def test_write_config_sets_the_best_threshold(spancat_model, tmp_path):
    import spacy
    from spacy.util import load_config

    from spacy_spanf1 import sweep_pipeline
    from spacy_spanf1.sweeps import write_config

    model, dev = spancat_model
    result = sweep_pipeline(model, dev, schemes=SCHEMES, grid="spacy")
    written = tmp_path / "best.cfg"
    write_config(model, written, result)
    config = load_config(written)
    assert config["components"]["spancat"]["threshold"] == result["strict"].best.threshold
    assert config["components"]["spancat"]["threshold"] != 0.5  # not the trained config's own
    # a pipeline made from the config (as training starts) has the threshold
    made = spacy.util.load_model_from_config(config, auto_fill=True)
    assert made.get_pipe("spancat").cfg["threshold"] == result["strict"].best.threshold
    # a saved pipeline with the config in its directory loads; its component's
    # own saved cfg (spancat/cfg) is read after the config and keeps 0.5
    copy = tmp_path / "model"
    shutil.copytree(model, copy)
    shutil.copy(written, copy / "config.cfg")
    assert spacy.load(copy).get_pipe("spancat").cfg["threshold"] == 0.5


def test_a_pipeline_without_the_component_is_named(spancat_model):
    from spacy_spanf1 import InputError, sweep_pipeline

    model, dev = spancat_model
    with pytest.raises(InputError, match="no component 'ner'; its components: spancat"):
        sweep_pipeline(model, dev, pipe="ner", schemes=SCHEMES)
