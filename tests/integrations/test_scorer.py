"""The spaCy scorer: registry, config, keys, and agreement with spaCy's own
scorers on real Examples (different tokenization, missing annotation,
overlapping span groups)."""

import random

import pytest
import spacy
from spacy.lang.en import English
from spacy.scorer import Scorer, get_ner_prf
from spacy.tokens import Doc, SpanGroup
from spacy.training import Example

from helpers import python
from spacy_spanf1 import SCHEMES, evaluate_spans
from spacy_spanf1.exceptions import SettingError
from spacy_spanf1.integrations.spacy import example_spans, make_spanf1_scorer_v1, same_tokens

LABELS = ["PER", "LOC", "ORG"]


@pytest.fixture(scope="session")
def en_vocab():
    return English().vocab


def random_words(rng, n):
    return ["".join(rng.choice("abcdefgh") for _ in range(rng.randint(2, 6))) for _ in range(n)]


def split_words(rng, words, rate):
    """Re-tokenize: cut some words in two (no space between the pieces)."""
    out_words, out_spaces = [], []
    for word in words:
        if len(word) >= 2 and rng.random() < rate:
            cut = rng.randint(1, len(word) - 1)
            out_words += [word[:cut], word[cut:]]
            out_spaces += [False, True]
        else:
            out_words.append(word)
            out_spaces.append(True)
    return out_words, out_spaces


def random_iob(rng, n, missing_rate=0.0):
    tags, i = [], 0
    while i < n:
        r = rng.random()
        if r < missing_rate:
            tags.append(None)
            i += 1
        elif r < 0.3:
            length = min(rng.randint(1, 3), n - i)
            label = rng.choice(LABELS)
            tags += [f"B-{label}"] + [f"I-{label}"] * (length - 1)
            i += length
        else:
            tags.append("O")
            i += 1
    return tags


def random_example(rng, vocab, *, retokenize, missing_rate=0.0):
    words = random_words(rng, rng.randint(3, 15))
    if retokenize:
        ref_words, ref_spaces = split_words(rng, words, 0.3)
        pred_words, pred_spaces = split_words(rng, words, 0.3)
    else:
        ref_words, ref_spaces = words, [True] * len(words)
        pred_words, pred_spaces = words, [True] * len(words)
    reference = Doc(vocab, words=ref_words, spaces=ref_spaces, ents=random_iob(rng, len(ref_words), missing_rate))
    predicted = Doc(vocab, words=pred_words, spaces=pred_spaces, ents=random_iob(rng, len(pred_words)))
    return Example(predicted, reference)


def score(examples, **settings):
    return make_spanf1_scorer_v1(**settings)(examples)


@pytest.mark.parametrize(
    "retokenize,missing_rate",
    [(False, 0.0), (True, 0.0), (False, 0.1), (True, 0.1)],
    ids=["same_tokens", "retokenized", "missing_annotation", "retokenized_missing"],
)
def test_strict_equals_get_ner_prf(en_vocab, retokenize, missing_rate):
    rng = random.Random(7)
    examples = [random_example(rng, en_vocab, retokenize=retokenize, missing_rate=missing_rate) for _ in range(1500)]
    ours = score(examples, schemes=["strict", "iou"])
    spacy_scores = get_ner_prf(examples)
    # bit-equal: same counts and spaCy's own F formula
    assert ours["ents_p"] == spacy_scores["ents_p"]
    assert ours["ents_r"] == spacy_scores["ents_r"]
    assert ours["ents_f"] == spacy_scores["ents_f"]
    assert ours["ents_strict_f"] == spacy_scores["ents_f"]
    for label, prf in spacy_scores["ents_per_type"].items():
        assert ours["ents_per_type"][label] == prf


def test_strict_equals_score_spans_on_ents(en_vocab):
    rng = random.Random(11)
    examples = [random_example(rng, en_vocab, retokenize=False) for _ in range(800)]
    ours = score(examples, schemes=["strict"])
    theirs = Scorer.score_spans(examples, "ents")
    for key in ("ents_p", "ents_r", "ents_f"):
        assert ours[key] == theirs[key]
    assert ours["ents_per_type"] == theirs["ents_per_type"]


def random_group(rng, doc, key, n):
    spans = []
    for _ in range(n):
        start = rng.randrange(len(doc))
        end = min(len(doc), start + rng.randint(1, 4))
        spans.append(doc[start:end])
        spans[-1].label_ = rng.choice(LABELS)
    doc.spans[key] = SpanGroup(doc, name=key, spans=spans)


@pytest.mark.parametrize("retokenize", [False, True], ids=["same_tokens", "retokenized"])
def test_span_group_equals_score_spans(en_vocab, retokenize):
    """Overlapping spans in a span group, as spancat scores them."""
    rng = random.Random(3)
    examples = []
    for _ in range(800):
        eg = random_example(rng, en_vocab, retokenize=retokenize)
        random_group(rng, eg.reference, "sc", rng.randint(0, 6))
        if rng.random() < 0.9:  # some predicted docs lack the key
            random_group(rng, eg.predicted, "sc", rng.randint(0, 6))
        examples.append(eg)
    examples.append(Example(Doc(en_vocab, words=["no", "key"]), Doc(en_vocab, words=["no", "key"])))
    theirs = Scorer.score_spans(
        examples,
        "spans_sc",
        getter=lambda doc, attr: doc.spans.get(attr[6:], []),
        has_annotation=lambda doc: "sc" in doc.spans,
        allow_overlap=True,
    )
    ours = score(examples, schemes=["strict", "partial"], spans_key="sc")
    for suffix in ("p", "r", "f"):
        assert ours[f"spans_sc_{suffix}"] == theirs[f"spans_sc_{suffix}"]
        assert ours[f"spans_sc_strict_{suffix}"] == theirs[f"spans_sc_{suffix}"]
    assert ours["spans_sc_per_type"] == theirs["spans_sc_per_type"]


def test_fast_path_only_when_tokens_match(en_vocab):
    a = Doc(en_vocab, words=["New", "York", "is"], spaces=[True, True, False])
    same = Doc(en_vocab, words=["New", "York", "is"], spaces=[True, True, False])
    split = Doc(en_vocab, words=["Ne", "w", "York", "is"], spaces=[False, True, True, False])
    other_text = Doc(en_vocab, words=["New", "Yorx", "is"], spaces=[True, True, False])
    assert same_tokens(a, same)
    assert not same_tokens(a, split)
    assert not same_tokens(a, other_text)


def test_retokenized_prediction_is_aligned(en_vocab):
    """Hand-made: the prediction "Ne w York" (3 tokens) maps onto the
    reference tokens 0..2 ("New York"), a strict match."""
    reference = Doc(en_vocab, words=["New", "York", "is", "big"], ents=["B-LOC", "I-LOC", "O", "O"])
    predicted = Doc(
        en_vocab,
        words=["Ne", "w", "York", "is", "big"],
        spaces=[False, True, True, True, False],
        ents=["B-LOC", "I-LOC", "I-LOC", "O", "O"],
    )
    eg = Example(predicted, reference)
    assert example_spans(eg) == ([(0, 2, "LOC")], [(0, 2, "LOC")])
    result = score([eg], schemes=["strict"])
    assert result["ents_f"] == 1.0


def test_missing_annotation_prediction_ignored(en_vocab):
    reference = Doc(en_vocab, words=["a", "b", "c", "d"], ents=["B-PER", "O", None, "O"])
    predicted = Doc(en_vocab, words=["a", "b", "c", "d"], ents=["B-PER", "O", "B-LOC", "O"])
    result = score([Example(predicted, reference)], schemes=["strict", "iou"])
    # the LOC prediction covers an unannotated token: neither right nor wrong
    assert result["ents_strict_counts"] == {"cor": 1, "inc": 0, "par": 0, "mis": 0, "spu": 0}
    assert result["ents_iou_counts"] == {"tp": 1, "fp": 0, "fn": 0}


def test_unannotated_reference_doc_skipped(en_vocab):
    reference = Doc(en_vocab, words=["a", "b"])
    predicted = Doc(en_vocab, words=["a", "b"], ents=["B-PER", "O"])
    result = score([Example(predicted, reference)], schemes=["strict"])
    assert result["ents_p"] is None and result["ents_f"] is None


def test_char_unit(en_vocab):
    """char offsets: "New York" = [0, 8); a prediction on "York" = [4, 8).
    iou = 4 / 8 = 0.5 in chars (1 / 2 in tokens)."""
    reference = Doc(en_vocab, words=["New", "York", "rocks"], ents=["B-LOC", "I-LOC", "O"])
    predicted = Doc(en_vocab, words=["New", "York", "rocks"], ents=["O", "B-LOC", "O"])
    eg = Example(predicted, reference)
    assert example_spans(eg, unit="char") == ([(0, 8, "LOC")], [(4, 8, "LOC")])
    result = score([eg], schemes=["iou"], unit="char", iou_threshold=0.5)
    assert result["ents_iou_counts"] == {"tp": 1, "fp": 0, "fn": 0}
    result = score([eg], schemes=["iou"], unit="char", iou_threshold=0.6)
    assert result["ents_iou_counts"] == {"tp": 0, "fp": 1, "fn": 1}


def test_keys(en_vocab):
    reference = Doc(en_vocab, words=["a", "b", "c"], ents=["B-PER", "O", "B-LOC"])
    predicted = Doc(en_vocab, words=["a", "b", "c"], ents=["B-PER", "B-LOC", "O"])
    result = score([Example(predicted, reference)], schemes=list(SCHEMES), beta=2.0)
    expected = {"ents_p", "ents_r", "ents_f", "ents_per_type"}
    for scheme in SCHEMES:
        expected |= {f"ents_{scheme}_{k}" for k in ("p", "r", "f", "macro_f", "per_type", "counts", "f2")}
    assert set(result) == expected
    # strict: 1 correct of 2 predicted, 2 gold -> P = R = F = 0.5
    assert result["ents_p"] == 0.5 and result["ents_r"] == 0.5 and result["ents_f"] == 0.5
    # F2 = 5 * 0.5 * 0.5 / (4 * 0.5 + 0.5) = 0.5
    assert result["ents_strict_f2"] == pytest.approx(0.5)
    # macro over PER (F 1.0) and LOC (F 0.0)
    assert result["ents_strict_macro_f"] == 0.5


def test_confusion_keys_only_when_asked(en_vocab):
    # gold PER (0, 1), LOC (2, 3); predicted PER (0, 1), LOC (1, 2)
    reference = Doc(en_vocab, words=["a", "b", "c"], ents=["B-PER", "O", "B-LOC"])
    predicted = Doc(en_vocab, words=["a", "b", "c"], ents=["B-PER", "B-LOC", "O"])
    examples = [Example(predicted, reference)]
    flat = score(examples, schemes=["strict", "type"])
    assert not any(key.endswith("_confusion") for key in flat)
    result = score(examples, schemes=["strict", "type"], confusion=True)
    assert set(result) == set(flat) | {"ents_strict_confusion", "ents_type_confusion"}
    # PER matched; the LOC prediction overlaps no gold span: (LOC, O) missed, (O, LOC) spurious
    expected = {"labels": ["LOC", "PER", "O"], "matrix": [[0, 0, 1], [0, 1, 0], [1, 0, 0]]}
    assert result["ents_strict_confusion"] == result["ents_type_confusion"] == expected
    with pytest.raises(ValueError, match="'confusion' must be true or false"):
        make_spanf1_scorer_v1(schemes=["strict"], confusion="yes")


@pytest.mark.parametrize(
    "settings,message",
    [
        ({}, "No 'schemes' given"),
        ({"schemes": []}, "'schemes' is empty"),
        ({"schemes": ["strikt"]}, "Unknown scheme 'strikt' in 'schemes'. Valid schemes: strict, exact"),
        ({"schemes": ["iou"], "iou_threshold": 1.5}, "'iou_threshold' must be in \\(0, 1\\]"),
        ({"schemes": ["iou"], "overlap_threshold": 0}, "'overlap_threshold' must be in \\(0, 1\\]"),
        ({"schemes": ["strict"], "min_overlap": -0.5}, "'min_overlap' must be in \\(0, 1\\]"),
        ({"schemes": ["strict"], "unit": "byte"}, "Unknown unit 'byte' in 'unit'. Valid units: token, char"),
        ({"schemes": ["strict"], "beta": 0}, "'beta' must be a positive number"),
    ],
    ids=["no_schemes", "empty", "unknown", "iou_range", "overlap_range", "min_overlap_range", "unit", "beta"],
)
def test_bad_settings(settings, message):
    with pytest.raises((TypeError, ValueError), match=message):
        make_spanf1_scorer_v1(**settings)


NER_CONFIG = """
[nlp]
lang = "en"
pipeline = ["ner"]

[components]

[components.ner]
factory = "ner"

[components.ner.scorer]
@scorers = "spacy-spanf1.scorer.v1"
schemes = ["iou", "strict", "partial", "overlap"]
iou_threshold = 0.5
"""


def test_registered_scorer_resolves_from_config():
    assert spacy.registry.scorers.get("spacy-spanf1.scorer.v1") is make_spanf1_scorer_v1
    nlp = spacy.util.load_model_from_config(spacy.util.load_config_from_str(NER_CONFIG), auto_fill=True)
    assert nlp.get_pipe("ner").scorer.__name__ == "score_spanf1_v1"


def test_confusion_from_the_config(en_vocab):
    config = spacy.util.load_config_from_str(NER_CONFIG + "confusion = true\n")
    nlp = spacy.util.load_model_from_config(config, auto_fill=True)
    reference = Doc(nlp.vocab, words=["a", "b", "c"], ents=["B-PER", "O", "B-LOC"])
    predicted = Doc(nlp.vocab, words=["a", "b", "c"], ents=["B-PER", "O", "B-ORG"])
    result = nlp.get_pipe("ner").scorer([Example(predicted, reference)])
    # LOC predicted as ORG with its boundaries: (LOC, ORG) under every scheme but overlap,
    # which pairs only spans of one label
    assert result["ents_strict_confusion"]["matrix"] == [[0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 1, 0], [0, 0, 0, 0]]
    assert result["ents_overlap_confusion"]["matrix"] == [[0, 0, 0, 1], [0, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0]]
    assert result["ents_iou_confusion"]["labels"] == ["LOC", "ORG", "PER", "O"]


def test_nlp_evaluate_reports_every_key(en_vocab):
    nlp = spacy.util.load_model_from_config(spacy.util.load_config_from_str(NER_CONFIG), auto_fill=True)
    nlp.get_pipe("ner").add_label("PER")
    nlp.get_pipe("ner").add_label("LOC")
    nlp.initialize()
    # The component's own score() on a prediction with no entities:
    # reference "Ann met Bob in Rome" with PER, PER, LOC -> every gold missed.
    reference = Doc(nlp.vocab, words=["Ann", "met", "Bob", "in", "Rome"], ents=["B-PER", "O", "B-PER", "O", "B-LOC"])
    predicted = nlp.make_doc(reference.text)
    eg = Example(predicted, reference)
    scores = nlp.get_pipe("ner").score([eg])
    for scheme in ("iou", "strict", "partial", "overlap"):
        for suffix in ("p", "r", "f", "macro_f", "per_type", "counts"):
            assert f"ents_{scheme}_{suffix}" in scores
    # primary scheme is iou: no predicted span, 3 gold spans -> P 0, R 0
    assert scores["ents_iou_counts"] == {"tp": 0, "fp": 0, "fn": 3}
    assert scores["ents_r"] == 0.0 and scores["ents_p"] == 0.0
    full = nlp.evaluate([eg])
    for key in ("ents_p", "ents_r", "ents_f", "ents_per_type", "ents_iou_f", "ents_strict_counts"):
        assert key in full
    counts = full["ents_iou_counts"]
    # whatever the untrained model predicts, the 3 gold spans are all counted
    assert counts["tp"] + counts["fn"] == 3


def test_nlp_evaluate_spancat_uses_component_key():
    config = """
[nlp]
lang = "en"
pipeline = ["spancat"]

[components]

[components.spancat]
factory = "spancat"
spans_key = "mine"

[components.spancat.scorer]
@scorers = "spacy-spanf1.scorer.v1"
schemes = ["strict", "iou"]
"""
    nlp = spacy.util.load_model_from_config(spacy.util.load_config_from_str(config), auto_fill=True)
    nlp.get_pipe("spancat").add_label("PER")
    nlp.initialize()
    reference = nlp.make_doc("Ann met Bob")
    reference.spans["mine"] = [reference[0:1], reference[0:3]]
    for span in reference.spans["mine"]:
        span.label_ = "PER"
    scores = nlp.evaluate([Example(nlp.make_doc(reference.text), reference)])
    assert "spans_mine_strict_f" in scores and "spans_mine_iou_counts" in scores
    counts = scores["spans_mine_strict_counts"]
    # both gold spans are counted (possible = cor + inc + par + mis = 2)
    assert counts["cor"] + counts["inc"] + counts["par"] + counts["mis"] == 2


def test_scorer_ignores_component_labels(en_vocab):
    """spaCy's ner passes labels=...; the scorer's own settings win."""
    reference = Doc(en_vocab, words=["a", "b"], ents=["B-PER", "B-LOC"])
    predicted = Doc(en_vocab, words=["a", "b"], ents=["B-PER", "B-LOC"])
    scorer = make_spanf1_scorer_v1(schemes=["strict"], labels=["PER"])
    result = scorer([Example(predicted, reference)], labels=["PER", "LOC"], beam_width=1)
    assert result["ents_strict_counts"] == {"cor": 1, "inc": 0, "par": 0, "mis": 0, "spu": 0}


def test_python_api_equals_scorer(en_vocab):
    rng = random.Random(5)
    examples = [random_example(rng, en_vocab, retokenize=False) for _ in range(200)]
    scores = score(examples, schemes=list(SCHEMES))
    gold = [[(e.start, e.end, e.label_) for e in eg.reference.ents] for eg in examples]
    pred = [[(e.start, e.end, e.label_) for e in eg.predicted.ents] for eg in examples]
    res = evaluate_spans(gold, pred, schemes=list(SCHEMES))
    for scheme in SCHEMES:
        assert scores[f"ents_{scheme}_f"] == res[scheme].f1
        assert scores[f"ents_{scheme}_counts"] == res[scheme].counts


@pytest.mark.parametrize("retokenize", [False, True], ids=["same_tokens", "retokenized"])
def test_batched_ent_reader_equals_per_example_reader(en_vocab, retokenize):
    """The scorer decodes Doc.ents of many docs at once; example_spans reads
    one example at a time. Same spans, so the same counts in every scheme."""
    from spacy_spanf1.engine.scorer import SpanScorer

    rng = random.Random(21)
    examples = [random_example(rng, en_vocab, retokenize=retokenize, missing_rate=0.1) for _ in range(700)]
    examples.append(Example(Doc(en_vocab, words=["x"]), Doc(en_vocab, words=["x"])))  # skipped
    per_example = SpanScorer(list(SCHEMES))
    for eg in examples:
        spans = example_spans(eg)
        if spans is not None:
            per_example.add(*spans)
    expected = per_example.results()
    result = score(examples, schemes=list(SCHEMES))
    for scheme in SCHEMES:
        assert result[f"ents_{scheme}_counts"] == expected[scheme].counts
        assert result[f"ents_{scheme}_per_type"] == {
            label: {"p": c.precision, "r": c.recall, "f": c.f1} for label, c in expected[scheme].per_type.items()
        }


def test_same_count_other_boundaries_takes_the_alignment(en_vocab):
    """Same text "abc", two tokens on both sides, other boundaries:
    reference a|bc, prediction ab|c. The predicted entity "ab" aligns to
    reference tokens 0..1, i.e. (0, 2) = the gold span. The identity fast
    path would wrongly give (0, 1)."""
    reference = Doc(en_vocab, words=["a", "bc"], spaces=[False, False], ents=["B-X", "I-X"])
    predicted = Doc(en_vocab, words=["ab", "c"], spaces=[False, False], ents=["B-X", "O"])
    assert not same_tokens(predicted, reference)
    eg = Example(predicted, reference)
    assert example_spans(eg) == ([(0, 2, "X")], [(0, 2, "X")])
    result = score([eg], schemes=["strict"])  # the scorer's batched reader
    assert result["ents_strict_counts"] == {"cor": 1, "inc": 0, "par": 0, "mis": 0, "spu": 0}
    assert get_ner_prf([eg])["ents_f"] == result["ents_f"] == 1.0


@pytest.mark.parametrize(
    "retokenize,missing_rate",
    [(False, 0.0), (True, 0.1)],
    ids=["same_tokens", "retokenized_missing"],
)
def test_evaluate_examples_equals_get_ner_prf(en_vocab, retokenize, missing_rate):
    from spacy_spanf1 import evaluate_examples

    rng = random.Random(17)
    examples = [random_example(rng, en_vocab, retokenize=retokenize, missing_rate=missing_rate) for _ in range(600)]
    examples.append(Example(Doc(en_vocab, words=["none"]), Doc(en_vocab, words=["none"], ents=[None])))
    res = evaluate_examples(examples, schemes=["strict", "iou"], per_doc=True)
    spacy_scores = get_ner_prf(examples)
    assert (res["strict"].precision, res["strict"].recall, res["strict"].f1) == (
        spacy_scores["ents_p"],
        spacy_scores["ents_r"],
        spacy_scores["ents_f"],
    )
    # the unannotated reference doc is skipped, not scored
    assert res["strict"].n_docs == len(res["strict"].per_doc) == 600
    keys = score(examples, schemes=["strict", "iou"])
    assert keys["ents_iou_counts"] == res["iou"].counts


def test_evaluate_examples_span_group_equals_scorer(en_vocab):
    from spacy_spanf1 import evaluate_examples

    rng = random.Random(23)
    examples = []
    for _ in range(300):
        eg = random_example(rng, en_vocab, retokenize=True)
        random_group(rng, eg.reference, "sc", rng.randint(0, 5))
        random_group(rng, eg.predicted, "sc", rng.randint(0, 5))
        examples.append(eg)
    res = evaluate_examples(examples, schemes=list(SCHEMES), spans_key="sc")
    keys = score(examples, schemes=list(SCHEMES), spans_key="sc")
    for scheme in SCHEMES:
        assert keys[f"spans_sc_{scheme}_counts"] == res[scheme].counts
        assert keys[f"spans_sc_{scheme}_f"] == res[scheme].f1
    with pytest.raises(SettingError, match="Valid schemes"):
        evaluate_examples(examples, schemes=None)


@pytest.mark.slow
def test_spacy_evaluate_uses_the_scorer_set_in_a_pipelines_config(tmp_path):
    """The README's second way: a pipeline you have, its component's scorer
    set in its config.cfg, scored by `python -m spacy evaluate`."""
    import json

    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler", name="ner")
    ruler.add_patterns([{"label": "PER", "pattern": "Ann"}, {"label": "LOC", "pattern": "Rome"}])
    nlp.to_disk(tmp_path / "model")
    config_path = tmp_path / "model" / "config.cfg"
    config = config_path.read_text(encoding="utf8")
    assert "[components.ner.scorer]" in config
    start = config.index("[components.ner.scorer]")
    end = config.find("\n[", start + 1)
    end = len(config) if end < 0 else end
    config = (
        config[:start]
        + ('[components.ner.scorer]\n@scorers = "spacy-spanf1.scorer.v1"\nschemes = ["iou", "strict"]\n')
        + config[end:]
    )
    config_path.write_text(config, encoding="utf8")
    reference = spacy.blank("en")("Ann met Bob in Rome")
    reference.ents = [
        reference.char_span(0, 3, "PER"),
        reference.char_span(8, 11, "PER"),
        reference.char_span(15, 19, "LOC"),
    ]
    DocBin(docs=[reference]).to_disk(tmp_path / "dev.spacy")
    result = python(
        "-m",
        "spacy",
        "evaluate",
        tmp_path / "model",
        tmp_path / "dev.spacy",
        "--output",
        tmp_path / "metrics.json",
        cwd=None,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    # Ann and Rome found, Bob missed: TP 2, FN 1 under both schemes
    assert metrics["ents_iou_counts"] == {"tp": 2, "fp": 0, "fn": 1}
    assert metrics["ents_strict_counts"] == {"cor": 2, "inc": 0, "par": 0, "mis": 1, "spu": 0}
    assert metrics["ents_f"] == metrics["ents_iou_f"] == pytest.approx(0.8)  # P 1, R 2/3
