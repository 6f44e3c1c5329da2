"""A sweep of a trained span categorizer equals spaCy's find-threshold on
its grid, and the config written with the best threshold loads."""

import shutil

import pytest

pytestmark = pytest.mark.slow

SCHEMES = ["strict", "iou"]


def test_spacy_grid_equals_find_threshold(spancat_model):
    from spacy.cli.find_threshold import find_threshold

    from spacy_spanf1 import sweep_pipeline

    model, dev = spancat_model
    result = sweep_pipeline(model, dev, pipe="spancat", schemes=SCHEMES, grid="spacy", n_trials=11)
    for scheme in SCHEMES:
        best, score, scores = find_threshold(
            str(model),
            dev,
            pipe_name="spancat",
            threshold_key="threshold",
            scores_key=f"spans_sc_{scheme}_f",
            n_trials=11,
            silent=True,
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
