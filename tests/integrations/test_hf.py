"""`make_compute_metrics` for Hugging Face's Trainer.

References: seqeval 1.2.2 run here on the de-masked tag lists (built with the
Hugging Face examples' own list comprehension) for the seqeval keys and the
strict scheme; `evaluate_spans` on `spans_from_tags` per sentence for the
other schemes; a small case worked out by hand. transformers is imported
only in the test that needs a real EvalPrediction.
"""

import doctest
import warnings
from pathlib import Path

import numpy
import pytest
from seqeval.metrics import accuracy_score, classification_report, f1_score, precision_score, recall_score
from seqeval.scheme import IOB2

import spacy_spanf1.integrations.hf
from helpers import ROOT, python
from spacy_spanf1 import SCHEMES, evaluate_spans, spans_from_tags
from spacy_spanf1.exceptions import SettingError
from spacy_spanf1.integrations.hf import make_compute_metrics

NAMES = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-MISC", "I-MISC"]
TAG_MODES = {"strict": ("strict", "IOB2"), "conll": ("conll", None)}
SETTINGS = {"iou_threshold": 0.3, "overlap_threshold": 0.6, "min_overlap": 0.5}


def random_batch(seed, n_sentences=300, max_words=30, weights=(6, 2, 2, 2, 2, 1, 1)):
    """Logits and label ids shaped as Trainer hands them over: a [CLS]
    position, words of one to three sub-words (the later ones -100), [SEP],
    then padding (-100) to the longest sentence. A few sentences have no
    word at all. Predictions lean to the gold class, so that every scheme
    sees matches, near misses and ill-formed tag sequences."""
    rng = numpy.random.default_rng(seed)
    weights = numpy.array(weights, dtype=float)  # of each class id, in gold
    n_classes = len(weights)
    rows = []
    for s in range(n_sentences):
        n_words = 0 if s % 50 == 7 else int(rng.integers(1, max_words + 1))
        row = [-100]
        for word in rng.choice(n_classes, size=n_words, p=weights / weights.sum()).tolist():
            row += [word] + [-100] * int(rng.choice(3, p=[0.7, 0.2, 0.1]))
        rows.append(row + [-100])
    length = max(map(len, rows))
    labels = numpy.full((n_sentences, length), -100, dtype=numpy.int64)
    for s, row in enumerate(rows):
        labels[s, : len(row)] = row
    logits = rng.normal(size=(n_sentences, length, n_classes)).astype(numpy.float32)
    rows_, cols = numpy.nonzero((labels != -100) & (rng.random(labels.shape) < 0.75))
    logits[rows_, cols, labels[rows_, cols]] += 4.0
    return logits, labels


def demask(pred, labels, names=NAMES):
    """Tag lists as the Hugging Face token-classification examples make them."""
    true_predictions = [
        [names[p] for (p, gold) in zip(prediction, label) if gold != -100] for prediction, label in zip(pred, labels)
    ]
    true_labels = [
        [names[gold] for (p, gold) in zip(prediction, label) if gold != -100] for prediction, label in zip(pred, labels)
    ]
    return true_labels, true_predictions


def seqeval_figures(y_true, y_pred, tag_mode):
    kwargs = {"mode": "strict", "scheme": IOB2} if tag_mode == "strict" else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return (
            classification_report(y_true, y_pred, output_dict=True, **kwargs),
            precision_score(y_true, y_pred, **kwargs),
            recall_score(y_true, y_pred, **kwargs),
            f1_score(y_true, y_pred, **kwargs),
            accuracy_score(y_true, y_pred),
        )


def expected_metrics(logits, labels, tag_mode, settings):
    """Every key, from seqeval (seqeval's keys and `strict`) and from
    evaluate_spans (the other schemes), in the order make_compute_metrics
    gives them."""
    mode, scheme = TAG_MODES[tag_mode]
    y_true, y_pred = demask(logits.argmax(-1).tolist(), labels.tolist())
    report, p, r, f, accuracy = seqeval_figures(y_true, y_pred, tag_mode)
    micro, macro = report.pop("micro avg"), report.pop("macro avg")
    report.pop("weighted avg")
    # scheme -> ((precision, recall, f1, macro f1), {label: f1})
    figures = {
        "strict": (
            (micro["precision"], micro["recall"], micro["f1-score"], macro["f1-score"]),
            {label: row["f1-score"] for label, row in report.items()},
        )
    }
    # seqeval's scores and its report's micro avg are the same numbers.
    assert (p, r, f) == figures["strict"][0][:3]
    results = evaluate_spans(
        [spans_from_tags(t, mode=mode, scheme=scheme) for t in y_true],
        [spans_from_tags(t, mode=mode, scheme=scheme) for t in y_pred],
        schemes=[s for s in SCHEMES if s != "strict"],
        **settings,
    )
    figures.update(
        (s, ((res.precision, res.recall, res.f1, res.macro_f1), {label: c.f1 for label, c in res.per_type.items()}))
        for s, res in results.items()
    )
    out = {"overall_precision": p, "overall_recall": r, "overall_f1": f, "overall_accuracy": accuracy}
    for s in SCHEMES:
        out.update(zip([f"{s}_precision", f"{s}_recall", f"{s}_f1", f"{s}_macro_f1"], figures[s][0]))
    for s in SCHEMES:
        out.update({f"{s}_{label}_f1": v for label, v in figures[s][1].items()})
    return out


@pytest.fixture(scope="module")
def batch():
    return random_batch(seed=12)


# --------------------------------------------------------------------------
# Agreement with seqeval and evaluate_spans
# --------------------------------------------------------------------------


@pytest.mark.parametrize("tag_mode", ["strict", "conll"])
def test_every_key_matches_references(batch, tag_mode):
    logits, labels = batch
    mode, scheme = TAG_MODES[tag_mode]
    compute = make_compute_metrics(NAMES, schemes=list(SCHEMES), tag_mode=mode, tag_scheme=scheme, **SETTINGS)
    got = compute((logits, labels))
    expected = expected_metrics(logits, labels, tag_mode, SETTINGS)
    assert list(got) == list(expected)
    assert got == expected  # exact: seqeval's numbers bit for bit
    # seqeval's per-label keys: every label found in gold or prediction.
    assert {k for k in got if k.startswith("strict_") and k.count("_") == 2 and k != "strict_macro_f1"} == {
        "strict_PER_f1",
        "strict_LOC_f1",
        "strict_MISC_f1",
    }
    # The data exercise what they are meant to: the settings change figures,
    # and strict and conll decoding differ on these ill-formed sequences.
    defaults = expected_metrics(logits, labels, tag_mode, {})
    assert defaults["iou_f1"] != got["iou_f1"]
    assert defaults["overlap_f1"] != got["overlap_f1"]
    assert defaults["partial_f1"] != got["partial_f1"]
    other = expected_metrics(logits, labels, "conll" if tag_mode == "strict" else "strict", SETTINGS)
    assert other["overall_f1"] != got["overall_f1"]


def test_macro_over_many_labels_is_seqeval_bit_for_bit():
    """seqeval's macro avg is numpy.average, whose pairwise summation orders
    the additions differently from a plain mean once there are 8 labels or
    more; with this seed the two differ in the last bit, and the strict
    macro F must be seqeval's."""
    names = ["O"] + [f"{p}-L{i:02d}" for i in range(12) for p in "BI"]
    logits, labels = random_batch(seed=1, n_sentences=200, weights=[12] + [1] * 24)
    y_true, y_pred = demask(logits.argmax(-1).tolist(), labels.tolist(), names)
    report = seqeval_figures(y_true, y_pred, "strict")[0]
    per_label = [row["f1-score"] for label, row in report.items() if not label.endswith(" avg")]
    assert len(per_label) == 12
    assert sum(per_label) / len(per_label) != report["macro avg"]["f1-score"]
    got = make_compute_metrics(names, schemes=["strict"])((logits, labels))
    assert got["strict_macro_f1"] == report["macro avg"]["f1-score"]


def test_accuracy_is_token_accuracy_on_unmasked_positions(batch):
    logits, labels = batch
    keep = labels != -100
    correct = int((logits.argmax(-1)[keep] == labels[keep]).sum())
    got = make_compute_metrics(NAMES, schemes=["strict"])((logits, labels))
    assert got["overall_accuracy"] == correct / int(keep.sum())
    assert 0.5 < got["overall_accuracy"] < 0.95


def test_strict_counts_equal_evaluate_spans(batch):
    """The strict scheme's figures follow seqeval's arithmetic; its counts
    are evaluate_spans'. P and R are then equal; F agrees to rounding."""
    logits, labels = batch
    y_true, y_pred = demask(logits.argmax(-1).tolist(), labels.tolist())
    res = evaluate_spans(
        [spans_from_tags(t, mode="strict", scheme="IOB2") for t in y_true],
        [spans_from_tags(t, mode="strict", scheme="IOB2") for t in y_pred],
        schemes=["strict"],
    )["strict"]
    got = make_compute_metrics(NAMES, schemes=["strict"])((logits, labels))
    assert (got["strict_precision"], got["strict_recall"]) == (res.precision, res.recall)
    assert got["strict_f1"] == pytest.approx(res.f1, rel=1e-12)
    assert got["strict_macro_f1"] == pytest.approx(res.macro_f1, rel=1e-12)
    for label, counts in res.per_type.items():
        assert got[f"strict_{label}_f1"] == pytest.approx(counts.f1, rel=1e-12)


def test_labels_setting_filters_every_scheme(batch):
    logits, labels = batch
    got = make_compute_metrics(NAMES, schemes=["strict", "iou"], labels=["PER"])((logits, labels))
    assert [k for k in got if k.endswith("_f1") and k.count("_") == 2 and "macro" not in k] == [
        "strict_PER_f1",
        "iou_PER_f1",
    ]
    # strict: an exact match is one label's business, so PER alone scores as
    # PER does among all labels (seqeval's per-label row).
    y_true, y_pred = demask(logits.argmax(-1).tolist(), labels.tolist())
    per = seqeval_figures(y_true, y_pred, "strict")[0]["PER"]
    assert (got["strict_precision"], got["strict_recall"], got["strict_f1"]) == (
        per["precision"],
        per["recall"],
        per["f1-score"],
    )
    assert got["strict_macro_f1"] == got["strict_f1"]
    # iou: as evaluate_spans with the same setting.
    res = evaluate_spans(
        [spans_from_tags(t, mode="strict", scheme="IOB2") for t in y_true],
        [spans_from_tags(t, mode="strict", scheme="IOB2") for t in y_pred],
        schemes=["iou"],
        labels=["PER"],
    )["iou"]
    assert (got["iou_precision"], got["iou_recall"], got["iou_f1"], got["iou_macro_f1"]) == (
        res.precision,
        res.recall,
        res.f1,
        res.f1,
    )
    assert got["iou_f1"] != make_compute_metrics(NAMES, schemes=["iou"])((logits, labels))["iou_f1"]


@pytest.mark.parametrize("primary", ["partial", "iou"])
def test_primary_scheme_fills_overall_keys(batch, primary):
    logits, labels = batch
    got = make_compute_metrics(NAMES, schemes=["strict", "partial", "iou"], primary=primary)((logits, labels))
    assert [got[f"overall_{k}"] for k in ("precision", "recall", "f1")] == [
        got[f"{primary}_{k}"] for k in ("precision", "recall", "f1")
    ]
    assert got["overall_f1"] != got["strict_f1"]


def test_per_type_false_drops_label_keys(batch):
    logits, labels = batch
    got = make_compute_metrics(NAMES, schemes=["strict", "iou"], per_type=False)((logits, labels))
    assert list(got) == [
        "overall_precision",
        "overall_recall",
        "overall_f1",
        "overall_accuracy",
        "strict_precision",
        "strict_recall",
        "strict_f1",
        "strict_macro_f1",
        "iou_precision",
        "iou_recall",
        "iou_f1",
        "iou_macro_f1",
    ]


# --------------------------------------------------------------------------
# Worked by hand
# --------------------------------------------------------------------------

HAND_NAMES = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
# Sentence 0, unmasked: gold B-PER I-PER O B-LOC -> PER(0,2) LOC(3,4)
#                       pred B-PER O     O B-LOC -> PER(0,1) LOC(3,4)
# Sentence 1, unmasked: gold B-LOC I-LOC -> LOC(0,2); pred the same.
# Sentence 2, unmasked: gold B-PER I-PER -> PER(0,2)
#                       pred I-PER I-PER -> strict IOB2: nothing; conll: PER(0,2)
HAND_LABELS = [[-100, 1, 2, 0, 3, -100], [-100, 3, -100, 4, -100, -100], [-100, 1, 2, -100, -100, -100]]
HAND_PREDS = [[0, 1, 0, 0, 3, 2], [0, 3, 6, 4, 0, 5], [0, 2, 2, -100, -100, -100]]


def hand_expected(p, r, f1, macro_f1, partial, per_f1):
    """The figures of the hand-worked batch that the two tag modes set apart;
    the rest are the same in both: overall is strict, iou has strict's P and
    R, LOC is always right, and 6 of the 8 unmasked tokens are tagged right."""
    return {
        "overall_precision": p,
        "overall_recall": r,
        "overall_f1": f1,
        "overall_accuracy": 6 / 8,
        "strict_precision": p,
        "strict_recall": r,
        "strict_f1": f1,
        "strict_macro_f1": macro_f1,
        "partial_precision": partial[0],
        "partial_recall": partial[1],
        "iou_precision": p,
        "iou_recall": r,
        "iou_PER_f1": per_f1,
        "iou_LOC_f1": 1.0,
        "strict_PER_f1": per_f1,
        "strict_LOC_f1": 1.0,
    }


@pytest.mark.parametrize(
    "tag_mode,expected",
    [
        # strict: gold 4, predicted 3 (PER(0,1), LOC, LOC), correct 2.
        # P 2/3, R 2/4, F 2PR/(P+R) = 4/7. PER: P 0/1 R 0/2 F 0; LOC: F 1.
        # partial: PER(0,1) partly matches PER(0,2): credit 2 + 0.5 of
        # 3 predicted and 4 gold. iou: PER(0,1) has IoU 1/2 < 0.6, so it is
        # a false positive and PER(0,2) of sentence 0 is missed.
        # Accuracy: 8 unmasked tokens (4 + 2 + 2), wrong: I-PER->O (s0) and
        # B-PER->I-PER (s2), so 6/8.
        ("strict", hand_expected(p=2 / 3, r=2 / 4, f1=4 / 7, macro_f1=0.5, partial=(2.5 / 3, 2.5 / 4), per_f1=0.0)),
        # conll: I-PER I-PER is PER(0,2), a correct fourth prediction:
        # P 3/4, R 3/4; PER: P 1/2, R 1/2, F 1/2; macro (0.5 + 1) / 2.
        ("conll", hand_expected(p=3 / 4, r=3 / 4, f1=3 / 4, macro_f1=0.75, partial=(3.5 / 4, 3.5 / 4), per_f1=0.5)),
    ],
)
def test_worked_example(tag_mode, expected):
    mode, scheme = TAG_MODES[tag_mode]
    # Class id 6 and 5 (outside HAND_NAMES' 5) and -100 sit on masked
    # positions only, where any value is allowed.
    with pytest.raises(ValueError):  # ... and only there
        make_compute_metrics(HAND_NAMES, schemes=["strict"])(([[6]], [[0]]))
    compute = make_compute_metrics(
        HAND_NAMES, schemes=["strict", "partial", "iou"], tag_mode=mode, tag_scheme=scheme, iou_threshold=0.6
    )
    got = compute((HAND_PREDS, HAND_LABELS))
    assert {k: got[k] for k in expected} == pytest.approx(expected, rel=1e-15)


# --------------------------------------------------------------------------
# Input forms
# --------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["int64", "int32", "int16", "int8", "uint8", "list"])
def test_class_ids_give_the_same_as_logits(batch, dtype):
    logits, labels = batch
    compute = make_compute_metrics(NAMES, schemes=list(SCHEMES))
    from_logits = compute((logits, labels))
    ids = logits.argmax(-1)
    if dtype == "uint8":  # cannot hold -100: the labels stay int64
        preds, label_ids = ids.astype(dtype), labels
    elif dtype == "list":
        preds, label_ids = ids.tolist(), labels.tolist()
    else:
        # Trainer pads predictions with -100 as well when it joins batches.
        preds = numpy.where(labels == -100, -100, ids).astype(dtype)
        label_ids = labels.astype(dtype)
    assert compute((preds, label_ids)) == from_logits
    assert from_logits["overall_f1"] > 0.3


def test_logits_argmax_over_the_last_axis():
    # Two sentences, three positions: the logits pick B-PER I-PER O and O O O
    # over the last axis; over any other axis they would not.
    logits = numpy.zeros((2, 3, 3))
    logits[0, 0, 1] = logits[0, 1, 2] = logits[0, 2, 0] = 1.0
    logits[1, :, 0] = 1.0
    labels = [[1, 2, 0], [0, 0, 0]]
    got = make_compute_metrics(["O", "B-PER", "I-PER"], schemes=["strict"])((logits, labels))
    assert (got["overall_f1"], got["overall_accuracy"]) == (1.0, 1.0)


def test_real_eval_prediction(batch):
    from transformers import EvalPrediction

    logits, labels = batch
    compute = make_compute_metrics(NAMES, schemes=list(SCHEMES))
    got = compute(EvalPrediction(predictions=logits, label_ids=labels))
    assert got == compute((logits, labels))
    assert got and all(type(v) is float for v in got.values())
    assert all(type(k) is str for k in got)
    # With inputs (include_for_metrics=["inputs"]) the tuple grows; the
    # attributes are still read.
    with_inputs = EvalPrediction(predictions=logits, label_ids=labels, inputs=labels)
    assert compute(with_inputs) == got


def test_empty_batch_is_all_zero():
    got = make_compute_metrics(NAMES, schemes=["strict", "iou"])(
        (numpy.zeros((0, 0, 7)), numpy.zeros((0, 0), dtype=int))
    )
    assert got == dict.fromkeys(got, 0.0) and len(got) == 12
    masked = make_compute_metrics(NAMES, schemes=["strict"])(([[1, 2]], [[-100, -100]]))
    assert masked == dict.fromkeys(masked, 0.0) and len(masked) == 8


def test_docstring_examples():
    result = doctest.testmod(spacy_spanf1.integrations.hf)
    assert result.attempted > 0 and result.failed == 0


def test_import_does_not_load_heavy_libraries():
    code = (
        "import sys, spacy_spanf1.integrations.hf; "
        "print(spacy_spanf1.integrations.hf.__file__); "
        "print(sorted(m for m in ('transformers', 'torch', 'tensorflow', 'jax', 'spacy', 'thinc') if m in sys.modules))"
    )
    out = python("-c", code)
    assert out.returncode == 0, out.stderr
    path, heavy = out.stdout.splitlines()
    assert Path(path).resolve() == ROOT / "spacy_spanf1" / "integrations" / "hf.py"
    assert heavy == "[]"


# --------------------------------------------------------------------------
# Bad input
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "predictions,label_ids,error,match",
    [
        (
            numpy.zeros((2, 5, 7)),
            numpy.zeros((2, 6), dtype=int),
            ValueError,
            r"predictions \(after argmax over the class axis\) have shape \(2, 5\) but label_ids have shape \(2, 6\)",
        ),
        ([[0, 1, 2]], [[0, 1]], ValueError, r"have shape \(1, 3\) but label_ids have shape \(1, 2\)"),
        (
            [[0, 1, 0], [0, 7, 0]],
            [[0, 1, 2], [0, 3, 0]],
            ValueError,
            r"predictions\[1\]\[1\] is class id 7, outside label_names: valid class ids are 0 to 6 \(label_names has 7 names\)",
        ),
        ([[0, -100, 0]], [[0, 1, 0]], ValueError, r"predictions\[0\]\[1\] is class id -100, outside label_names"),
        (
            [[0, 1, 0]],
            [[0, 1, 9]],
            ValueError,
            r"label_ids\[0\]\[2\] is class id 9, outside label_names: valid class ids are 0 to 6 .*or -100",
        ),
        ([[0, 1, 0]], [[-1, 1, 0]], ValueError, r"label_ids\[0\]\[0\] is class id -1"),
        (
            numpy.zeros((1, 3, 5)),
            [[0, 1, 0]],
            ValueError,
            r"predictions have 5 classes on their last axis \(shape \(1, 3, 5\)\) but label_names has 7 names",
        ),
        (
            [[0.0, 1.0, 0.0]],
            [[0, 1, 0]],
            ValueError,
            r"class ids of shape \(batch, length\); got shape \(1, 3\) of dtype float64",
        ),
        ([0, 1, 0], [[0, 1, 0]], ValueError, r"predictions must be logits .* got shape \(3,\)"),
        (
            [[0, 1, 0]],
            [0, 1, 0],
            ValueError,
            r"label_ids must be class ids of shape \(batch, length\).* got shape \(3,\)",
        ),
        (
            (numpy.zeros((1, 3, 7)), numpy.zeros((1, 3, 4))),
            [[0, 1, 0]],
            ValueError,
            r"predictions is a tuple of 2 items",
        ),
        ([[0, 1], [0]], [[0, 1], [0]], ValueError, r"label_ids is not rectangular"),
    ],
    ids=[
        "shape_logits",
        "shape_ids",
        "class_id_too_big",
        "class_id_negative",
        "label_id_too_big",
        "label_id_negative",
        "class_axis",
        "float_ids",
        "one_dim_predictions",
        "one_dim_labels",
        "tuple_predictions",
        "ragged",
    ],
)
def test_bad_predictions(predictions, label_ids, error, match):
    compute = make_compute_metrics(NAMES, schemes=["strict"])
    with pytest.raises(error, match=match):
        compute((predictions, label_ids))


def test_bad_eval_pred_object():
    compute = make_compute_metrics(NAMES, schemes=["strict"])
    with pytest.raises(TypeError, match=r"takes an EvalPrediction .* or a \(predictions, label_ids\) tuple, got dict"):
        compute({"predictions": [[0]], "label_ids": [[0]]})


BAD_SETTINGS = {
    "no_schemes": (
        {"schemes": None},
        SettingError,
        r"No 'schemes' given: name at least one scheme. Valid schemes: strict, exact",
    ),
    "empty_schemes": ({"schemes": []}, ValueError, r"'schemes' is empty"),
    "unknown_scheme": ({"schemes": ["strict", "fuzzy"]}, ValueError, r"Unknown scheme 'fuzzy' in 'schemes'"),
    "primary": (
        {"schemes": ["strict"], "primary": "iou"},
        ValueError,
        r"primary='iou' is not one of the schemes given: strict\. Pass one of them",
    ),
    "iou_threshold": ({"schemes": ["iou"], "iou_threshold": 1.5}, ValueError, r"'iou_threshold' must be in \(0, 1\]"),
    "unknown_setting": (
        {"schemes": ["iou"], "iou": 0.5},
        TypeError,
        r"unexpected keyword argument 'iou'\. Valid keywords: ",
    ),
    "conll_with_scheme": (
        {"schemes": ["strict"], "tag_mode": "conll", "tag_scheme": "IOBES"},
        ValueError,
        r"tag_mode='conll', tag_scheme='IOBES': scheme='IOBES' is only used with mode='strict'",
    ),
    "strict_without_scheme": (
        {"schemes": ["strict"], "tag_scheme": None},
        ValueError,
        r"tag_scheme=None: mode='strict' needs a tag scheme",
    ),
    "unknown_tag_scheme": (
        {"schemes": ["strict"], "tag_scheme": "BIO"},
        ValueError,
        r"Unknown tag scheme 'BIO'. Valid schemes: IOB1, IOB2",
    ),
    "unknown_tag_mode": (
        {"schemes": ["strict"], "tag_mode": "lenient"},
        ValueError,
        r"Unknown tag mode 'lenient'. Valid modes: conll, strict",
    ),
}


@pytest.mark.parametrize("kwargs,error,match", BAD_SETTINGS.values(), ids=list(BAD_SETTINGS))
def test_bad_settings(kwargs, error, match):
    with pytest.raises(error, match=match):
        make_compute_metrics(NAMES, **kwargs)


def test_conll_mode_drops_the_default_scheme():
    """tag_mode="conll" alone works: the default IOB2 is not an error there."""
    labels = [[1, 2, 0, 1]]
    preds = [[1, 2, 0, 0]]
    by_default = make_compute_metrics(NAMES, schemes=["strict"], tag_mode="conll")((preds, labels))
    explicit = make_compute_metrics(NAMES, schemes=["strict"], tag_mode="conll", tag_scheme=None)((preds, labels))
    assert by_default == explicit
    # gold: two entities, predicted: the first one -> P 1, R 1/2
    assert (by_default["overall_precision"], by_default["overall_recall"]) == (1.0, 0.5)


@pytest.mark.parametrize(
    "label_names,match",
    [
        (
            ["O", "B-PER", "I-PER", "X-PER"],
            r"Invalid tag 'X-PER' at label_names\[3\]: prefix 'X' is not allowed in scheme IOB2\. Allowed prefixes: I, O, B",
        ),
        (["O", "S-PER"], r"Invalid tag 'S-PER' at label_names\[1\]"),
        (["O", ""], r"Empty tag '' at label_names\[1\]"),
        ("O B-PER I-PER", r"label_names must be a list of tag strings, one per class id .*got str"),
        ({0: "O", 1: "B-PER"}, r"got a dict\. For a model's id2label, pass \[id2label\[i\] for i in range"),
        (["O", 1], r"label_names\[1\] is 1 \(int\); label_names must hold tag strings"),
        ([], r"label_names is empty"),
    ],
    ids=["unknown_prefix", "prefix_not_in_scheme", "empty_tag", "string", "dict", "not_str", "empty"],
)
def test_bad_label_names(label_names, match):
    with pytest.raises(ValueError, match=match):
        make_compute_metrics(label_names, schemes=["strict"])


def test_unknown_prefix_is_fine_in_conll_mode():
    # seqeval's default mode reads any tag: X-PER is a chunk of its own.
    compute = make_compute_metrics(["O", "B-PER", "X-PER"], schemes=["strict"], tag_mode="conll", tag_scheme=None)
    got = compute(([[2, 0, 1]], [[2, 0, 1]]))
    assert (got["overall_f1"], got["strict_PER_f1"]) == (1.0, 1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert f1_score([["X-PER", "O", "B-PER"]], [["X-PER", "O", "B-PER"]]) == 1.0


def test_label_key_clash_is_an_error():
    compute = make_compute_metrics(["O", "B-macro"], schemes=["strict"])
    with pytest.raises(ValueError, match=r"label 'macro' would be reported as 'strict_macro_f1', a key already in use"):
        compute(([[1, 0]], [[1, 0]]))
    assert "strict_macro_f1" in make_compute_metrics(["O", "B-macro"], schemes=["strict"], per_type=False)(
        ([[1, 0]], [[1, 0]])
    )
