"""Link schemes wherever schemes are named: the CLI's JSON, intervals,
the checks that keep them out of the primary place and out of span-only
tools, and the registered scorer on an `entity_linker` (`nlp.evaluate`,
and `spacy train` picking a model on `nel_strong_all_match_f`)."""

import json
import warnings

import pytest

from helpers import assert_clean_failure, invoke, python
from spacy_spanf1 import compare_files, evaluate_spans, sweep
from spacy_spanf1.exceptions import SettingError


def record(text, *spans):
    """A JSONL record of text and spans, each (start, end, label, kb_id or
    None for a span without one)."""
    return {
        "text": text,
        "spans": [
            {"start": s, "end": e, "label": label, **({} if kb is None else {"kb_id": kb})} for s, e, label, kb in spans
        ],
    }


GOLD = [
    record("Douglas Adams lived in London.", (0, 13, "PER", "Q42"), (23, 29, "LOC", "Q84")),
    record("Ford Prefect met Arthur.", (0, 12, "PER", "NIL"), (17, 23, "PER", None)),
]
PRED = [
    record("Douglas Adams lived in London.", (0, 13, "PER", "Q42"), (23, 29, "LOC", "Q90")),
    record("Ford Prefect met Arthur.", (0, 12, "PER", None), (17, 23, "PER", "Q1")),
]


@pytest.fixture
def files(tmp_path):
    for name, records in (("g", GOLD), ("p", PRED)):
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return tmp_path / "g.jsonl", tmp_path / "p.jsonl"


def test_the_cli_writes_link_schemes_in_its_json(files, tmp_path):
    out = tmp_path / "out.json"
    result = invoke(["compare", *files, "-s", "strict,strong_all_match,strong_link_match,nel", "-o", out, "--silent"])
    assert result.exit_code == 0, result.stderr
    data = json.loads(out.read_text())
    assert list(data["schemes"]) == ["strict", "strong_all_match", "strong_link_match", "nel"]
    # By hand. Gold: Q42, Q84, NIL, (none); predicted: Q42, Q90, (none), Q1.
    # strong_all_match keys (span, id, NIL ids alike): Q42 and Ford's NIL match;
    # London and Arthur are wrong on both sides.
    all_match = data["schemes"]["strong_all_match"]
    assert all_match["counts"] == {"tp": 2, "fp": 2, "fn": 2}
    assert (all_match["p"], all_match["r"], all_match["f"]) == (0.5, 0.5, 0.5)
    assert all_match["per_type"]["LOC"] == {"p": 0.0, "r": 0.0, "f": 0.0}
    # strong_link_match: linked spans of both sides only: gold Q42, Q84; predicted Q42, Q90, Q1
    assert data["schemes"]["strong_link_match"]["counts"] == {"tp": 1, "fp": 2, "fn": 1}
    # nel (spaCy): at gold boundaries; Ford: gold NIL (negative) vs "" (an id): FP;
    # Arthur: gold "" vs Q1: FP and FN; London: FP and FN
    assert data["schemes"]["nel"]["counts"] == {"tp": 1, "fp": 3, "fn": 2}
    assert data["signature"]["match"]["schemes"] == ["strict", "strong_all_match", "strong_link_match", "nel"]


def test_link_schemes_take_bootstrap_intervals(files):
    scores = compare_files(*files, schemes="strict,strong_all_match", bootstrap=50)
    interval = scores.to_dict()["schemes"]["strong_all_match"]["ci"]["f"]
    # both documents score TP 1, FP 1, FN 1: every resample gives F 0.5
    assert (interval["low"], interval["high"]) == (0.5, 0.5)


def test_a_link_scheme_is_never_the_primary_scheme(files):
    with pytest.raises(SettingError, match="the first .primary. scheme is a span scheme .* link schemes come after it"):
        compare_files(*files, schemes="nel,strict")
    result = invoke(["compare", *files, "-s", "strong_all_match"])
    assert_clean_failure(result, 2, "link schemes come after it")


def test_span_lists_refuse_link_schemes(files):
    with pytest.raises(SettingError, match="'nel' is a link scheme: it compares knowledge-base ids"):
        evaluate_spans([[(0, 1, "A")]], [[(0, 1, "A")]], schemes=["strict", "nel"])


# ------------------------------------------------ the registered scorer

KB_ENTITIES = [("Q42", 10, [1.0, 0.0, 0.0]), ("Q5", 5, [0.0, 1.0, 0.0]), ("Q84", 5, [0.0, 0.0, 1.0])]
KB_ALIASES = [("Douglas", ["Q42", "Q5"], [0.6, 0.3]), ("London", ["Q84"], [0.9])]
REFERENCES = [
    ("Douglas wrote in London .", [(0, 1, "PERSON", "Q42"), (3, 4, "GPE", "Q84")]),
    ("Douglas met Douglas in Paris .", [(0, 1, "PERSON", "Q5"), (2, 3, "PERSON", "Q42"), (4, 5, "GPE", "NIL")]),
    ("London calling .", [(0, 1, "GPE", "Q84")]),
]


def linker_pipeline(schemes):
    """sentencizer, entity_ruler (Douglas, London; not Paris) and an
    entity_linker over a small knowledge base, scored by our scorer."""
    import spacy
    from spacy.kb import InMemoryLookupKB
    from spacy.tokens import Span
    from spacy.training import Example

    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    ruler = nlp.add_pipe("entity_ruler")
    scorer = {"@scorers": "spacy-spanf1.scorer.v1", "schemes": schemes}
    linker = nlp.add_pipe("entity_linker", config={"entity_vector_length": 3, "use_gold_ents": False, "scorer": scorer})

    def create_kb(vocab):
        kb = InMemoryLookupKB(vocab, entity_vector_length=3)
        for entity, freq, vector in KB_ENTITIES:
            kb.add_entity(entity, freq, vector)
        for alias, entities, probs in KB_ALIASES:
            kb.add_alias(alias, entities, probs)
        return kb

    linker.set_kb(create_kb)
    examples = []
    for text, ents in REFERENCES:
        ref = nlp.make_doc(text)
        ref.ents = [Span(ref, s, e, label=label, kb_id=kb) for s, e, label, kb in ents]
        for token in ref:
            token.is_sent_start = token.i == 0
        examples.append(Example(nlp.make_doc(text), ref))
    nlp.initialize(lambda: examples)
    # (initializing clears the ruler's patterns)
    ruler.add_patterns([{"label": "PERSON", "pattern": "Douglas"}, {"label": "GPE", "pattern": "London"}])
    return nlp, examples


def test_the_scorer_on_an_entity_linker_gives_spacys_nel_keys_and_the_link_schemes(neleval):
    from spacy.scorer import Scorer
    from spacy.training import Example

    nlp, examples = linker_pipeline(["nel", "strong_all_match", "strong_link_match"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ours = nlp.evaluate(examples)
    predicted = [Example(nlp(eg.reference.text), eg.reference) for eg in examples]
    theirs = Scorer.score_links(predicted, negative_labels=["NIL"])
    for key, value in theirs.items():
        assert ours[key] == value, key
    # neleval on the same entities (token offsets)
    gold = [[(e.start, e.end, e.label_, e.kb_id_) for e in eg.reference.ents] for eg in predicted]
    pred = [[(e.start, e.end, e.label_, e.kb_id_) for e in eg.predicted.ents] for eg in predicted]
    counts = neleval.counts(gold, pred, measures=["strong_all_match", "strong_link_match"])
    for name in ("strong_all_match", "strong_link_match"):
        tp, fp, fn = counts[name]
        assert ours[f"nel_{name}_counts"] == {"tp": tp, "fp": fp, "fn": fn}, name
        p = tp / (tp + fp) if tp + fp else 0.0
        assert ours[f"nel_{name}_p"] == pytest.approx(p)
    assert not any(key.startswith("ents_") for key in ours if key.startswith("ents_strict"))


def test_the_scorer_scores_span_and_link_schemes_together():
    nlp, examples = linker_pipeline(["strict", "strong_all_match"])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scores = nlp.evaluate(examples)
    # the ruler misses Paris: 5 of 6 gold entities found, none spurious
    assert scores["ents_strict_counts"]["cor"] == 5 and scores["ents_strict_counts"]["mis"] == 1
    assert "nel_strong_all_match_f" in scores


def test_a_bad_link_scheme_in_the_scorer_config_is_a_config_error():
    from confection import ConfigValidationError

    from spacy_spanf1.integrations.spacy import make_spanf1_scorer_v1

    with pytest.raises(ConfigValidationError, match="Scheme 'nel' is named twice"):
        make_spanf1_scorer_v1(["nel", "nel"])


CONFIG = """
[paths]
train = "train.spacy"
dev = "train.spacy"
kb = "kb"

[nlp]
lang = "en"
pipeline = ["sentencizer","entity_linker"]

[components]

[components.sentencizer]
factory = "sentencizer"

[components.entity_linker]
factory = "entity_linker"
entity_vector_length = 3
use_gold_ents = true

[components.entity_linker.model]
@architectures = "spacy.EntityLinker.v2"
nO = null

[components.entity_linker.model.tok2vec]
@architectures = "spacy.HashEmbedCNN.v2"
pretrained_vectors = null
width = 16
depth = 1
embed_size = 100
window_size = 1
maxout_pieces = 2
subword_features = true

[components.entity_linker.scorer]
@scorers = "spacy-spanf1.scorer.v1"
schemes = ["nel", "strong_all_match", "strong_link_match"]

[corpora]

[corpora.train]
@readers = "spacy.Corpus.v1"
path = ${paths.train}

[corpora.dev]
@readers = "spacy.Corpus.v1"
path = ${paths.dev}

[training]
max_epochs = 2
max_steps = 0
eval_frequency = 5

[training.score_weights]
nel_strong_all_match_f = 1.0
nel_micro_f = 0.0
sents_f = 0.0

[initialize]

[initialize.components]

[initialize.components.entity_linker]

[initialize.components.entity_linker.kb_loader]
@misc = "spacy.KBFromFile.v1"
kb_path = ${paths.kb}
"""


@pytest.mark.slow
def test_spacy_train_picks_a_linker_on_a_link_scheme(tmp_path):
    nlp, examples = linker_pipeline(["nel"])
    from spacy.tokens import DocBin

    nlp.get_pipe("entity_linker").kb.to_disk(tmp_path / "kb")
    DocBin(docs=[eg.reference for eg in examples] * 4).to_disk(tmp_path / "train.spacy")
    (tmp_path / "partial.cfg").write_text(CONFIG)
    filled = python("-m", "spacy", "init", "fill-config", "partial.cfg", "config.cfg", cwd=tmp_path)
    assert filled.returncode == 0, filled.stderr
    trained = python("-m", "spacy", "train", "config.cfg", "--output", "out", cwd=tmp_path)
    assert trained.returncode == 0, trained.stderr[-2000:]
    meta = json.loads((tmp_path / "out" / "model-best" / "meta.json").read_text())
    assert set(meta["performance"]) >= {"nel_strong_all_match_f", "nel_micro_f"}
    assert 0.0 <= meta["performance"]["nel_strong_all_match_f"] <= 1.0


def test_link_schemes_take_paired_tests_against_a_baseline(files):
    gold, pred = files
    scores = compare_files(gold, pred, schemes="strict,strong_all_match", baseline=gold, test="randomization")
    tested = scores.to_dict()["comparison"]["schemes"]["strong_all_match"]
    # the gold as a baseline scores F 1.0; the prediction 0.5 (TP 2, FP 2, FN 2)
    assert tested["delta"] == pytest.approx(-0.5)


def test_sharded_input_gives_the_link_figures_of_one_file(files, tmp_path):
    lines = {name: path.read_text().splitlines(keepends=True) for name, path in zip("gp", files)}
    for name in "gp":
        (tmp_path / name).mkdir()
        for i, line in enumerate(lines[name]):
            (tmp_path / name / f"s{i}.jsonl").write_text(line)
    whole = compare_files(*files, schemes="strict,strong_all_match,nel")
    sharded = compare_files(tmp_path / "g", tmp_path / "p", schemes="strict,strong_all_match,nel")
    for name in ("strong_all_match", "nel"):
        assert sharded.results[name].counts == whole.results[name].counts
        assert sharded.results[name].per_type == whole.results[name].per_type


def test_evaluate_pipeline_scores_a_linker_end_to_end(neleval, tmp_path):
    from spacy.scorer import Scorer
    from spacy.tokens import DocBin
    from spacy.training import Example

    from spacy_spanf1 import evaluate_pipeline
    from spacy_spanf1.links import nel_scores

    nlp, examples = linker_pipeline(["nel"])
    DocBin(docs=[eg.reference for eg in examples]).to_disk(tmp_path / "test.spacy")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scores = evaluate_pipeline(nlp, tmp_path / "test.spacy", schemes="strict,strong_all_match,nel")
    predicted = [Example(nlp(eg.reference.text), eg.reference) for eg in examples]
    assert nel_scores(scores.results["nel"]) == Scorer.score_links(predicted, negative_labels=["NIL"])
    gold = [[(e.start, e.end, e.label_, e.kb_id_) for e in eg.reference.ents] for eg in predicted]
    pred = [[(e.start, e.end, e.label_, e.kb_id_) for e in eg.predicted.ents] for eg in predicted]
    tp, fp, fn = neleval.counts(gold, pred, measures=["strong_all_match"])["strong_all_match"]
    assert scores.results["strong_all_match"].counts == {"tp": tp, "fp": fp, "fn": fn}


def test_a_sweep_refuses_link_schemes_and_says_why(tmp_path):
    message = "compares knowledge-base ids, which a sweep does not read"
    with pytest.raises(SettingError, match=message):
        sweep([[(0, 1, "A")]], [[(0, 1, "A", 0.5)]], schemes="strict,strong_all_match")
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"text": "x y", "spans": [{"start": 0, "end": 1, "label": "A", "kb_id": "Q1"}]}) + "\n")
    pred = tmp_path / "p.jsonl"
    pred.write_text(
        json.dumps({"text": "x y", "spans": [{"start": 0, "end": 1, "label": "A", "kb_id": "Q1", "score": 0.5}]}) + "\n"
    )
    assert_clean_failure(invoke(["sweep", gold, pred, "-s", "strict,strong_all_match"]), 2, message)
