"""Tag sequences -> spans and seqeval-compatible reports.

seqeval 1.2.2 is the reference: most expected values are computed by running
it on the same input (it is a dev dependency, imported directly so that a
missing reference fails instead of skipping). The rest are worked out by hand
in the test.
"""

import dataclasses
import doctest
import math
import random
import warnings

import pytest
import seqeval.scheme
from seqeval.metrics import classification_report
from seqeval.metrics.sequence_labeling import get_entities
from seqeval.scheme import Entities

import spacy_spanf1.tags
from spacy_spanf1.tags import TAG_SCHEMES, TagReport, TagScore, evaluate_tags, spans_from_tags

SCHEME_NAMES = ["IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU"]
SEQEVAL_SCHEMES = {name: getattr(seqeval.scheme, name) for name in SCHEME_NAMES}
LABELS = ["PER", "LOC", "ORG-X", "_"]
# Prefix characters for lenient decoding: the real ones plus ones that
# get_entities treats specially ("." and "O") or as "anything else".
CONLL_PREFIXES = "BIESOUL.Xb"


# --------------------------------------------------------------------------
# seqeval, quietly (it warns about odd tags and ill-defined metrics, and
# pytest turns warnings into errors here)
# --------------------------------------------------------------------------


def ref_spans(tags, mode, scheme=None, suffix=False):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if mode == "conll":
            return [(s, e + 1, label) for label, s, e in get_entities(tags, suffix)]
        entities = Entities([tags], SEQEVAL_SCHEMES[scheme], suffix).entities[0]
        return [(ent.start, ent.end, ent.tag) for ent in entities]


def ref_report(y_true, y_pred, mode, scheme=None, suffix=False):
    kwargs = {"mode": "strict", "scheme": SEQEVAL_SCHEMES[scheme]} if mode == "strict" else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = classification_report(y_true, y_pred, output_dict=True, suffix=suffix, **kwargs)
    # np.float64 / np.int64 -> float / int, so that == and the diff are plain.
    return {
        row: {key: (int(v) if key == "support" else float(v)) for key, v in values.items()}
        for row, values in report.items()
    }


def assert_same_report(ours: TagReport, ref: dict) -> None:
    got = ours.to_dict()
    assert list(got) == list(ref)
    for row in ref.values():
        assert isinstance(row["support"], int)
    if any(math.isnan(v) for v in ref["macro avg"].values() if isinstance(v, float)):
        # No entity on either side: seqeval's macro avg is mean([]) = NaN,
        # ours is 0.0 (docs/definitions.md: an empty ratio is 0.0). Everything else agrees.
        assert list(ref) == ["micro avg", "macro avg", "weighted avg"]
        assert got["macro avg"] == {"precision": 0.0, "recall": 0.0, "f1-score": 0.0, "support": 0}
        ref = {**ref, "macro avg": got["macro avg"]}
    assert got == ref  # exact float equality, every row and field


# --------------------------------------------------------------------------
# Random tag sequences
# --------------------------------------------------------------------------


def make_tag(rng: random.Random, letter: str, label: str, suffix: bool) -> str:
    """One tag in one of several spellings, regular or odd."""
    if letter == "O" and rng.random() < 0.8:
        return "O"
    form = rng.random()
    if form < 0.75:
        return f"{label}-{letter}" if suffix else f"{letter}-{label}"
    if form < 0.83:
        return letter  # no label at all
    if form < 0.89:
        return f"{label}--{letter}" if suffix else f"{letter}--{label}"
    if form < 0.95:
        return f"-{label}-{letter}" if suffix else f"{letter}-{label}-"
    return f"{label}{letter}" if suffix else f"{letter}{label}"  # no delimiter


def encode(spans, n, scheme):
    """Well-formed prefixes for non-overlapping (start, end, label) spans."""
    letters = ["O"] * n
    labels = ["PER"] * n
    for k, (start, end, label) in enumerate(spans):
        prev_adjacent = k > 0 and spans[k - 1][1] == start and spans[k - 1][2] == label
        next_adjacent = k + 1 < len(spans) and spans[k + 1][0] == end and spans[k + 1][2] == label
        size = end - start
        for i in range(start, end):
            labels[i] = label
            first, last = i == start, i == end - 1
            if scheme == "IOB1":
                letters[i] = "B" if first and prev_adjacent else "I"
            elif scheme == "IOE1":
                letters[i] = "E" if last and next_adjacent else "I"
            elif scheme == "IOB2":
                letters[i] = "B" if first else "I"
            elif scheme == "IOE2":
                letters[i] = "E" if last else "I"
            elif scheme == "IOBES":
                letters[i] = "S" if size == 1 else "B" if first else "E" if last else "I"
            else:  # BILOU
                letters[i] = "U" if size == 1 else "B" if first else "L" if last else "I"
    return letters, labels


def random_sentence(rng, prefixes, scheme, suffix, max_len=12):
    """Either a well-formed encoding with some tags replaced at random, or a
    sequence of random prefixes in random order (I after O, E without B,
    label changes mid-entity, ...)."""
    n = rng.randint(0, max_len)
    if rng.random() < 0.5:
        spans, i = [], 0
        while i < n:
            if rng.random() < 0.4:
                end = min(n, i + rng.randint(1, 4))
                spans.append((i, end, rng.choice(LABELS[:3])))
                i = end
            else:
                i += 1
        letters, labels = encode(spans, n, scheme)
        tags = [
            make_tag(rng, letter, label, suffix) if letter != "O" else "O" for letter, label in zip(letters, labels)
        ]
        for _ in range(rng.randint(0, 2)):
            if n:
                tags[rng.randrange(n)] = make_tag(rng, rng.choice(prefixes), rng.choice(LABELS), suffix)
        return tags
    return [make_tag(rng, rng.choice(prefixes + "OO"), rng.choice(LABELS), suffix) for _ in range(n)]


def corrupt(rng, sentence, prefixes, suffix, rate=0.15):
    return [
        make_tag(rng, rng.choice(prefixes), rng.choice(LABELS), suffix) if rng.random() < rate else tag
        for tag in sentence
    ]


def random_corpus(rng, prefixes, scheme, suffix, n_sents):
    y_true = [random_sentence(rng, prefixes, scheme, suffix) for _ in range(n_sents)]
    if rng.random() < 0.2:  # unrelated prediction of the same shape
        y_pred = [[make_tag(rng, rng.choice(prefixes), rng.choice(LABELS), suffix) for _ in sent] for sent in y_true]
    else:
        y_pred = [corrupt(rng, sent, prefixes, suffix) for sent in y_true]
    return y_true, y_pred


# --------------------------------------------------------------------------
# Named examples, worked by hand
# --------------------------------------------------------------------------


def test_conll_example():
    assert spans_from_tags(["B-PER", "I-PER", "O"], mode="conll") == [(0, 2, "PER")]


@pytest.mark.parametrize(
    "tags,scheme,suffix,expected",
    [
        # IOBES: B..E is one span, S a one-token span; B-ORG E-ORG right after S.
        (
            ["B-PER", "I-PER", "E-PER", "O", "S-LOC", "B-ORG", "E-ORG"],
            "IOBES",
            False,
            [(0, 3, "PER"), (4, 5, "LOC"), (5, 7, "ORG")],
        ),
        # IOBES: a chunk without its E- is not an entity in strict mode.
        (["B-PER", "I-PER", "O", "S-LOC"], "IOBES", False, [(3, 4, "LOC")]),
        # BILOU: U is one token, B..L a chunk.
        (
            ["U-LOC", "B-PER", "L-PER", "O", "B-ORG", "I-ORG", "L-ORG"],
            "BILOU",
            False,
            [(0, 1, "LOC"), (1, 3, "PER"), (4, 7, "ORG")],
        ),
        # BILOU: I without B starts nothing, B..I without L is dropped.
        (["I-PER", "L-PER", "O", "B-PER", "I-PER", "O"], "BILOU", False, []),
        # IOB1: B only separates two adjacent chunks of one label.
        (["I-PER", "I-PER", "B-PER", "O", "I-LOC"], "IOB1", False, [(0, 2, "PER"), (2, 3, "PER"), (4, 5, "LOC")]),
        # IOB2: I- after O starts nothing (strict).
        (["I-PER", "I-PER", "O", "B-LOC"], "IOB2", False, [(3, 4, "LOC")]),
        # Suffix form, IOBES.
        (["PER-B", "PER-E", "O", "LOC-S"], "IOBES", True, [(0, 2, "PER"), (3, 4, "LOC")]),
    ],
    ids=["iobes", "iobes_no_end", "bilou", "bilou_broken", "iob1", "iob2_no_begin", "iobes_suffix"],
)
def test_strict_examples(tags, scheme, suffix, expected):
    assert spans_from_tags(tags, mode="strict", scheme=scheme, suffix=suffix) == expected
    assert ref_spans(tags, "strict", scheme, suffix) == expected


@pytest.mark.parametrize(
    "tags,suffix,expected",
    [
        (["PER-B", "PER-I", "O", "LOC-S"], True, [(0, 2, "PER"), (3, 4, "LOC")]),
        # Lenient: I- after O starts a chunk, a label change ends one.
        (["I-PER", "I-PER", "I-LOC", "O"], False, [(0, 2, "PER"), (2, 3, "LOC")]),
        # Bare prefixes get the label "_".
        (["B", "I", "O"], False, [(0, 2, "_")]),
        # "B-ORG-X": the label is everything after the first "-".
        (["B-ORG-X", "I-ORG-X"], False, [(0, 2, "ORG-X")]),
    ],
    ids=["suffix", "lenient", "bare", "hyphen_label"],
)
def test_conll_examples(tags, suffix, expected):
    assert spans_from_tags(tags, mode="conll", suffix=suffix) == expected
    assert ref_spans(tags, "conll", suffix=suffix) == expected


def test_conll_odd_prefixes_match_seqeval():
    # "X" (unknown prefix, label "_") after "O" starts nothing, yet the
    # label change at "B-PER" closes a "_" chunk that reuses the stale start
    # offset 0; ".-PER" neither ends nor starts one.
    tags = ["B", "I", "O", "X", "B-PER", ".-PER", "I-PER"]
    expected = [(0, 2, "_"), (0, 4, "_"), (4, 7, "PER")]
    assert spans_from_tags(tags, mode="conll") == expected
    assert ref_spans(tags, "conll") == expected
    assert spans_from_tags(["X", "B-PER"], mode="conll") == [(0, 1, "_"), (1, 2, "PER")]


def test_conll_report_decodes_joined_sentences():
    # seqeval joins the sentences with "O" and decodes once: in both sides a
    # chunk ending in sentence 1 starts where the last chunk of sentence 0
    # began, so the two PER entities of sentence 1 differ (1..4 vs 0..4 in
    # joined offsets), although sentence 1 is the same on both sides.
    y_true = [["O", "B-PER"], [".-PER", "I-PER"]]
    y_pred = [["B-PER", "O"], [".-PER", "I-PER"]]
    report = evaluate_tags(y_true, y_pred, mode="conll")
    assert report.micro == TagScore(0.0, 0.0, 0.0, 2)
    assert_same_report(report, ref_report(y_true, y_pred, "conll"))


def test_report_by_hand():
    y_true = [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG", "O"]]
    y_pred = [["B-PER", "I-PER", "O", "B-PER"], ["B-ORG", "B-ORG"]]
    report = evaluate_tags(y_true, y_pred, mode="strict", scheme="IOB2")
    # LOC: 0 of 0 predicted, 0 of 1 gold. ORG: 1 of 2, 1 of 1. PER: 1 of 2, 1 of 1.
    assert report.per_type["LOC"] == TagScore(0.0, 0.0, 0.0, 1)
    assert report.per_type["ORG"] == TagScore(0.5, 1.0, 2 * 0.5 * 1.0 / 1.5, 1)
    assert report.per_type["PER"] == TagScore(0.5, 1.0, 2 * 0.5 * 1.0 / 1.5, 1)
    assert report.micro == TagScore(0.5, 2 / 3, 2 * 0.5 * (2 / 3) / (0.5 + 2 / 3), 3)
    assert report.macro.precision == (0.0 + 0.5 + 0.5) / 3
    assert report.weighted.recall == 2 / 3
    assert list(report.to_dict()) == ["LOC", "ORG", "PER", "micro avg", "macro avg", "weighted avg"]
    assert report.to_dict()["ORG"] == {"precision": 0.5, "recall": 1.0, "f1-score": 2 * 0.5 * 1.0 / 1.5, "support": 1}
    assert_same_report(report, ref_report(y_true, y_pred, "strict", "IOB2"))


def test_report_without_entities():
    y = [["O", "O"], []]
    for mode, scheme in (("conll", None), ("strict", "IOBES")):
        report = evaluate_tags(y, y, mode=mode, scheme=scheme)
        zero = TagScore(0.0, 0.0, 0.0, 0)
        assert report == TagReport(zero, zero, zero, {})
        ref = ref_report(y, y, mode, scheme)
        assert math.isnan(ref["macro avg"]["f1-score"])  # the one deliberate difference
        assert_same_report(report, ref)


def test_only_predicted_label():
    y_true = [["O", "O", "B-PER"]]
    y_pred = [["B-LOC", "O", "O"]]
    report = evaluate_tags(y_true, y_pred, mode="conll")
    assert report.per_type["LOC"] == TagScore(0.0, 0.0, 0.0, 0)
    assert report.per_type["PER"] == TagScore(0.0, 0.0, 0.0, 1)
    assert_same_report(report, ref_report(y_true, y_pred, "conll"))


def test_results_are_frozen():
    report = evaluate_tags([["B-PER"]], [["B-PER"]], mode="conll")
    with pytest.raises(dataclasses.FrozenInstanceError):
        report.micro.f1 = 0.5
    with pytest.raises(TypeError):
        report.per_type["PER"] = report.micro


def test_tag_schemes_table():
    assert list(TAG_SCHEMES) == SCHEME_NAMES
    for name, scheme in TAG_SCHEMES.items():
        ref = SEQEVAL_SCHEMES[name]
        assert set(scheme.allowed_prefixes) == set(str(ref.allowed_prefix).replace("Prefix.", "").split("|"))


def test_docstring_examples():
    result = doctest.testmod(spacy_spanf1.tags)
    assert result.attempted >= 8
    assert result.failed == 0


# --------------------------------------------------------------------------
# Differential tests against seqeval
# --------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [False, True], ids=["prefix", "suffix"])
@pytest.mark.parametrize("scheme", SCHEME_NAMES)
def test_strict_spans_match_seqeval(scheme, suffix):
    rng = random.Random(f"strict-spans-{scheme}-{suffix}")
    prefixes = TAG_SCHEMES[scheme].allowed_prefixes
    for _ in range(1500):
        tags = random_sentence(rng, prefixes, scheme, suffix)
        expected = ref_spans(tags, "strict", scheme, suffix)
        assert spans_from_tags(tags, mode="strict", scheme=scheme, suffix=suffix) == expected, tags


@pytest.mark.parametrize("suffix", [False, True], ids=["prefix", "suffix"])
@pytest.mark.parametrize("scheme", SCHEME_NAMES)
def test_conll_spans_match_seqeval(scheme, suffix):
    rng = random.Random(f"conll-spans-{scheme}-{suffix}")
    for _ in range(1500):
        tags = random_sentence(rng, CONLL_PREFIXES, scheme, suffix)
        expected = ref_spans(tags, "conll", suffix=suffix)
        assert spans_from_tags(tags, mode="conll", suffix=suffix) == expected, tags


@pytest.mark.parametrize("suffix", [False, True], ids=["prefix", "suffix"])
@pytest.mark.parametrize("mode", ["conll", "strict"])
@pytest.mark.parametrize("scheme", SCHEME_NAMES)
def test_reports_match_seqeval(scheme, mode, suffix):
    rng = random.Random(f"report-{scheme}-{mode}-{suffix}")
    prefixes = TAG_SCHEMES[scheme].allowed_prefixes if mode == "strict" else CONLL_PREFIXES
    for _ in range(40):
        y_true, y_pred = random_corpus(rng, prefixes, scheme, suffix, n_sents=rng.randint(1, 30))
        strict_scheme = scheme if mode == "strict" else None
        ours = evaluate_tags(y_true, y_pred, mode=mode, scheme=strict_scheme, suffix=suffix)
        assert_same_report(ours, ref_report(y_true, y_pred, mode, strict_scheme, suffix))


@pytest.mark.parametrize("mode", ["conll", "strict"])
@pytest.mark.parametrize("scheme", SCHEME_NAMES)
def test_decoding_without_pair_grid_matches_seqeval(monkeypatch, scheme, mode):
    # Past _GRID_LIMIT tag ids the flags come from the rule table at every
    # position instead of from the grid of all pairs: both must agree with
    # seqeval, spans and reports alike.
    monkeypatch.setattr(spacy_spanf1.tags.decode, "_DECODERS", {})
    monkeypatch.setattr(spacy_spanf1.tags.decode, "_GRID_LIMIT", 0)
    rng = random.Random(f"no-grid-{scheme}-{mode}")
    prefixes = TAG_SCHEMES[scheme].allowed_prefixes if mode == "strict" else CONLL_PREFIXES
    strict_scheme = scheme if mode == "strict" else None
    for _ in range(20):
        suffix = rng.random() < 0.5
        y_true, y_pred = random_corpus(rng, prefixes, scheme, suffix, n_sents=rng.randint(1, 30))
        ours = evaluate_tags(y_true, y_pred, mode=mode, scheme=strict_scheme, suffix=suffix)
        assert_same_report(ours, ref_report(y_true, y_pred, mode, strict_scheme, suffix))
        for tags in y_true[:5]:
            assert spans_from_tags(tags, mode=mode, scheme=strict_scheme, suffix=suffix) == ref_spans(
                tags, mode, strict_scheme, suffix
            ), tags
    assert all(decoder.grid is None for decoder in spacy_spanf1.tags.decode._DECODERS.values())


def test_reports_with_many_labels_match_seqeval():
    # >= 8 labels exercises numpy's pairwise summation in the averages.
    rng = random.Random("many-labels")
    labels = [f"L{i}" for i in range(37)]
    for _ in range(30):
        y_true = [
            [
                rng.choice(["O", "O", f"B-{rng.choice(labels)}", f"I-{rng.choice(labels)}"])
                for _ in range(rng.randint(0, 15))
            ]
            for _ in range(40)
        ]
        y_pred = [[t if rng.random() < 0.7 else f"B-{rng.choice(labels)}" for t in sent] for sent in y_true]
        for mode, scheme in (("conll", None), ("strict", "IOB2")):
            ours = evaluate_tags(y_true, y_pred, mode=mode, scheme=scheme)
            assert_same_report(ours, ref_report(y_true, y_pred, mode, scheme))


@pytest.mark.parametrize("suffix", [False, True], ids=["prefix", "suffix"])
@pytest.mark.parametrize("scheme", SCHEME_NAMES)
def test_strict_rejects_what_seqeval_rejects(scheme, suffix):
    # Any prefix letter, allowed by the scheme or not: seqeval raises
    # (ValueError, or KeyError for an unknown letter) exactly when we raise
    # ValueError; otherwise the spans agree.
    rng = random.Random(f"strict-reject-{scheme}-{suffix}")
    n_raised = 0
    for _ in range(400):
        tags = random_sentence(rng, CONLL_PREFIXES, scheme, suffix, max_len=6)
        try:
            expected = ref_spans(tags, "strict", scheme, suffix)
        except (ValueError, KeyError):
            n_raised += 1
            with pytest.raises(ValueError, match="Invalid tag"):
                spans_from_tags(tags, mode="strict", scheme=scheme, suffix=suffix)
        else:
            assert spans_from_tags(tags, mode="strict", scheme=scheme, suffix=suffix) == expected
    assert 50 < n_raised < 400


def test_spans_are_unique_and_ordered():
    # seqeval counts entities as sets; the decoders never yield one twice.
    rng = random.Random("unique")
    for _ in range(500):
        tags = random_sentence(rng, CONLL_PREFIXES, "IOBES", False, max_len=20)
        spans = spans_from_tags(tags, mode="conll")
        assert len(set(spans)) == len(spans)
        assert [end for _, end, _ in spans] == sorted({end for _, end, _ in spans})


def test_new_tags_in_later_calls(monkeypatch):
    monkeypatch.setattr(spacy_spanf1.tags.decode, "_DECODERS", {})
    assert spans_from_tags(["B-A", "I-A"], mode="strict", scheme="IOB2") == [(0, 2, "A")]
    # A bad tag after new good ones: the error, then the good ones still work.
    with pytest.raises(ValueError, match=r"Invalid tag 'E-C' at tags\[2\]"):
        spans_from_tags(["B-B", "I-B", "E-C"], mode="strict", scheme="IOB2")
    assert spans_from_tags(["I-B", "B-B", "O", "B-A"], mode="strict", scheme="IOB2") == [(1, 2, "B"), (3, 4, "A")]


@pytest.mark.parametrize("n_labels", [300, 60_000], ids=["over_256_tags", "past_surrogates"])
def test_many_distinct_tags(monkeypatch, n_labels):
    # Tag ids are packed one character per tag: past 255 they no longer fit
    # latin-1, and from 0xD800 on they skip the surrogate range.
    monkeypatch.setattr(spacy_spanf1.tags.decode, "_DECODERS", {})
    rng = random.Random(f"many-{n_labels}")
    tags = [f"{rng.choice('BIO')}-L{i}" for i in range(n_labels)]
    rng.shuffle(tags)
    y_true = [tags[i : i + 50] for i in range(0, len(tags), 50)]
    y_pred = [[t if rng.random() < 0.8 else "B-L0" for t in sent] for sent in y_true]
    for mode, scheme in (("conll", None), ("strict", "IOB2")):
        spans = spans_from_tags(tags, mode=mode, scheme=scheme)  # every tag gets an id
        if mode == "conll":  # (seqeval's strict decoding is quadratic in a sentence's length)
            assert spans == ref_spans(tags, mode)
        for sent in y_true:
            assert spans_from_tags(sent, mode=mode, scheme=scheme) == ref_spans(sent, mode, scheme)
        if n_labels < 1000:
            report = evaluate_tags(y_true, y_pred, mode=mode, scheme=scheme)
            assert_same_report(report, ref_report(y_true, y_pred, mode, scheme))


def test_decoder_starts_afresh_past_its_limit(monkeypatch):
    monkeypatch.setattr(spacy_spanf1.tags.decode, "_DECODERS", {})
    monkeypatch.setattr(spacy_spanf1.tags.decode, "_TAG_LIMIT", 5)
    rng = random.Random("limit")
    decoders = []
    for _ in range(50):
        y_true, y_pred = random_corpus(rng, CONLL_PREFIXES, "IOB2", False, n_sents=5)
        ours = evaluate_tags(y_true, y_pred, mode="conll")
        assert_same_report(ours, ref_report(y_true, y_pred, "conll"))
        decoders.append(spacy_spanf1.tags.decode._DECODERS[("conll", None, False)])
    assert len({id(decoder) for decoder in decoders}) > 10


# --------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------

VALID_SCHEMES = "Valid schemes: IOB1, IOB2, IOE1, IOE2, IOBES, BILOU"


def test_unknown_mode():
    with pytest.raises(ValueError, match=r"^Unknown tag mode 'lenient'\. Valid modes: conll, strict$"):
        spans_from_tags(["O"], mode="lenient")
    with pytest.raises(ValueError, match=r"Unknown tag mode None\. Valid modes: conll, strict"):
        evaluate_tags([["O"]], [["O"]], mode=None)


def test_unknown_scheme():
    with pytest.raises(ValueError, match=rf"^Unknown tag scheme 'IOX'\. {VALID_SCHEMES}$"):
        spans_from_tags(["O"], mode="strict", scheme="IOX")
    with pytest.raises(ValueError, match=r"Unknown tag scheme 'iob2'"):
        evaluate_tags([["O"]], [["O"]], mode="strict", scheme="iob2")


def test_strict_needs_a_scheme():
    # seqeval quietly runs the lenient path here; we do not.
    with pytest.raises(ValueError, match=rf"mode='strict' needs a tag scheme, got scheme=None\. {VALID_SCHEMES}"):
        evaluate_tags([["I-PER"]], [["I-PER"]], mode="strict")
    with pytest.raises(ValueError, match="mode='strict' needs a tag scheme"):
        spans_from_tags(["I-PER"], mode="strict")


def test_scheme_only_with_strict():
    with pytest.raises(ValueError, match=r"scheme='IOB2' is only used with mode='strict', not mode='conll'"):
        spans_from_tags(["B-PER"], mode="conll", scheme="IOB2")


def test_different_number_of_sentences():
    with pytest.raises(ValueError, match=r"y_true has 2 sentences but y_pred has 1\."):
        evaluate_tags([["O"], ["O"]], [["O"]], mode="conll")


def test_different_sentence_lengths():
    with pytest.raises(ValueError, match=r"Sentence 1 has 3 tags in y_true but 2 tags in y_pred\."):
        evaluate_tags([["O"], ["B-PER", "I-PER", "O"]], [["O"], ["B-PER", "O"]], mode="strict", scheme="IOB2")


def test_not_lists():
    with pytest.raises(TypeError, match=r"y_true must be a list of sentences .* got tuple"):
        evaluate_tags((["O"],), [["O"]], mode="conll")
    with pytest.raises(TypeError, match=r"y_pred\[1\] must be a list of tag strings, got str"):
        evaluate_tags([["O"], ["O"]], [["O"], "O"], mode="conll")
    with pytest.raises(TypeError, match=r"tags must be a list of tag strings, got str"):
        spans_from_tags("B-PER", mode="conll")
    with pytest.raises(TypeError, match=r"Tag None at y_pred\[0\]\[1\] is a NoneType"):
        evaluate_tags([["O", "O"]], [["O", None]], mode="conll")
    with pytest.raises(TypeError, match=r"Tag \['B-PER'\] at tags\[0\] is a list"):
        spans_from_tags([["B-PER"]], mode="strict", scheme="IOB2")
    with pytest.raises(TypeError, match="suffix must be True or False, got 'yes'"):
        spans_from_tags(["O"], mode="conll", suffix="yes")


def test_prefix_not_in_scheme():
    tags = ["B-PER", "E-PER"]
    with pytest.raises(ValueError, match="Invalid token is found: E-PER"):
        ref_spans(tags, "strict", "IOB2")
    with pytest.raises(
        ValueError,
        match=r"^Invalid tag 'E-PER' at tags\[1\]: prefix 'E' is not allowed in scheme IOB2\. Allowed prefixes: I, O, B$",
    ):
        spans_from_tags(tags, mode="strict", scheme="IOB2")
    with pytest.raises(ValueError, match=r"Invalid tag 'PER-U' at y_pred\[1\]\[0\]: prefix 'U' .* scheme IOBES"):
        evaluate_tags([["O"], ["O"]], [["O"], ["PER-U"]], mode="strict", scheme="IOBES", suffix=True)


def test_unknown_prefix_letter_in_strict_mode():
    with pytest.raises(KeyError):  # seqeval: KeyError('X')
        ref_spans(["X-PER"], "strict", "BILOU")
    with pytest.raises(
        ValueError, match=r"Invalid tag 'X-PER' at tags\[0\]: prefix 'X' is not allowed in scheme BILOU"
    ):
        spans_from_tags(["X-PER"], mode="strict", scheme="BILOU")
    # The lenient mode accepts it, as seqeval's get_entities does.
    assert spans_from_tags(["X-PER"], mode="conll") == ref_spans(["X-PER"], "conll") == [(0, 1, "PER")]


@pytest.mark.parametrize("mode,scheme", [("conll", None), ("strict", "IOE2")])
def test_empty_tag(mode, scheme):
    with pytest.raises(IndexError):  # seqeval: string index out of range
        ref_spans(["O", ""], mode, scheme)
    with pytest.raises(ValueError, match=r"Empty tag '' at tags\[1\]"):
        spans_from_tags(["O", ""], mode=mode, scheme=scheme)
    with pytest.raises(ValueError, match=r"Empty tag '' at y_true\[0\]\[0\]"):
        evaluate_tags([[""]], [["O"]], mode=mode, scheme=scheme)
