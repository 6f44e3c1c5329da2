"""Metrics for Hugging Face's `Trainer` (token classification).

`make_compute_metrics` returns the function that `Trainer(compute_metrics=...)`
calls with an `EvalPrediction`. Positions whose label id is -100 (special
tokens, sub-words after the first) are dropped from both sides first, as the
Hugging Face token-classification examples do; the tags are then decoded as
`spans_from_tags` decodes them (seqeval 1.2.2) and every scheme is scored.

Only numpy is needed: this module never imports transformers (or torch).

The batch is decoded in one pass: each label id is mapped once to the tag id
of its name, the sentences are laid end to end (an "O" after each, as
`tags.decode` joins them) and `Decoder.decode_ids` finds every entity at once.
The `strict` scheme's figures come from `tags.tag_report`, i.e. seqeval's own
arithmetic, so that every strict key equals seqeval's to the last bit (the
macro average too, which seqeval sums in numpy's pairwise order); its counts
are those of `evaluate_spans`' strict scheme, and tests hold them equal. The
other schemes are scored by `evaluate_spans`.
"""

from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple, Union

import numpy

from ..exceptions import SettingError
from ..keywords import UNSET, Maybe, built, front_door, refuse_set
from ..settings import MatchSettings
from ..engine.scorer import evaluate_spans
from ..engine.metrics import safe_div
from ..tags import check_tag_options, get_decoder, tag_report

__all__ = ["make_compute_metrics"]

IGNORE_INDEX = -100  # Hugging Face's label id for positions not scored

_Entities = Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]  # label ids, starts, ends
# precision, recall, f1, macro f1, per-label f1
_Figures = Tuple[float, float, float, float, Dict[str, float]]


#: The settings of MatchSettings that do not apply to tag sequences (the
#: spans are decoded from token tags; `strict` is seqeval's, with no label map).
UNUSED = ("unit", "spans_key", "beta", "label_map", "map_unlisted", "view", "symmetric", "relation_labels")


@front_door(match=MatchSettings)
def make_compute_metrics(
    label_names: Sequence[str],
    *,
    match: Optional[MatchSettings] = None,
    schemes: Maybe[Union[str, Sequence[str], None]] = UNSET,
    tag_mode: str = "strict",
    tag_scheme: Optional[str] = "IOB2",
    primary: Optional[str] = None,
    per_type: bool = True,
    iou_threshold: Maybe[float] = UNSET,
    overlap_threshold: Maybe[float] = UNSET,
    min_overlap: Maybe[Optional[float]] = UNSET,
    labels: Maybe[Union[str, Iterable[str], None]] = UNSET,
) -> Callable[[Any], Dict[str, float]]:
    """Make a `compute_metrics` function for `transformers.Trainer`.

    label_names (Sequence[str]): The tag of each class id, e.g.
        ["O", "B-PER", "I-PER"] (`features["ner_tags"].feature.names`).
    match (Optional[MatchSettings]): The schemes and how spans are
        matched; or its fields as keywords, a keyword given beside the
        object written over its field: schemes, iou_threshold,
        overlap_threshold, min_overlap, labels (score only these). The
        other fields do not apply to tag sequences (a SettingError when set).
    schemes (Sequence[str]): strict, exact, partial, type, iou, overlap.
        Required: there is no default scheme.
    tag_mode (str): "strict" (seqeval's mode="strict", needs tag_scheme) or
        "conll" (seqeval's default, lenient decoding, which takes no scheme).
        `evaluate.load("seqeval")` and the Hugging Face examples use "conll".
    tag_scheme (Optional[str]): For tag_mode "strict": IOB1, IOB2, IOE1,
        IOE2, IOBES or BILOU. The default, IOB2, is dropped under "conll";
        another scheme there is an error.
    primary (Optional[str]): The scheme reported under the `overall_*` keys;
        default the first of `schemes`.
    per_type (bool): Whether to add `<scheme>_<LABEL>_f1` for every label
        found in gold or prediction.
    iou_threshold, overlap_threshold, min_overlap, labels: Passed on to
        `evaluate_spans` (`labels` to `strict` too).
    RETURNS (Callable[[Any], Dict[str, float]]): compute_metrics(eval_pred),
        where eval_pred is an `EvalPrediction` or a (predictions, label_ids)
        tuple; predictions are logits (batch, length, classes) or class ids
        (batch, length), label_ids class ids with -100 where ignored. It
        returns Python floats: `overall_precision`, `overall_recall`,
        `overall_f1`, `overall_accuracy` (token accuracy on the positions not
        ignored), and per scheme `<scheme>_precision`, `_recall`, `_f1`,
        `_macro_f1` (and per label `<scheme>_<LABEL>_f1`). A ratio with a
        zero denominator is 0.0.

    Every setting is checked here, so a mistake fails before training
    starts: a SettingError (a ValueError) for unknown schemes or settings out
    of range, a primary scheme not among `schemes`, a missing `schemes`, a
    setting that does not apply; a TypeError naming the valid keywords for
    an unknown one; ValueError for a bad tag mode or scheme, label names
    that are not strings or (strict mode) carry a prefix the scheme does not
    allow.

    >>> compute_metrics = make_compute_metrics(
    ...     ["O", "B-PER", "I-PER"], schemes=["strict", "partial"])
    >>> labels = [[-100, 1, 2, 0, -100]]
    >>> preds = [[0, 1, 0, 0, 0]]
    >>> m = compute_metrics((preds, labels))
    >>> m["overall_f1"], m["partial_f1"], m["overall_accuracy"]
    (0.0, 0.5, 0.6666666666666666)
    """
    match = built(match)
    refuse_set(match, UNUSED, "make_compute_metrics")
    schemes = match.schemes
    if primary is None:
        primary = schemes[0]
    elif primary not in schemes:
        raise SettingError(
            f"primary={primary!r} is not one of the schemes given: "
            f"{', '.join(schemes)}. Pass one of them, or None for the first."
        )
    names = _check_label_names(label_names)
    if tag_mode == "conll" and tag_scheme == "IOB2":
        tag_scheme = None  # the default scheme; conll decoding takes none
    try:
        check_tag_options(tag_mode, tag_scheme, False)
    except ValueError as err:
        raise ValueError(f"tag_mode={tag_mode!r}, tag_scheme={tag_scheme!r}: {err}") from None
    settings = match.scorer_settings()
    labels = None if match.labels is None else frozenset(match.labels)
    _tag_ids(tag_mode, tag_scheme, names)  # a tag the scheme does not allow
    span_schemes = tuple(s for s in schemes if s != "strict")

    def compute_metrics(eval_pred: Any) -> Dict[str, float]:
        true, pred = _read_eval_pred(eval_pred, len(names))
        decoder, codes = _tag_ids(tag_mode, tag_scheme, names)
        keep = true != IGNORE_INDEX
        lengths = keep.sum(axis=1)
        true_tags, pred_tags = codes[true[keep]], codes[pred[keep]]
        # seqeval's accuracy_score compares tag strings; equal names have
        # equal tag ids.
        accuracy = safe_div(int(numpy.count_nonzero(true_tags == pred_tags)), len(true_tags))
        # Sentence s starts at offsets[s] in the joined sequence.
        offsets = numpy.cumsum(lengths + 1) - (lengths + 1)
        positions = numpy.arange(len(true_tags)) + numpy.repeat(numpy.arange(len(lengths)), lengths)
        size = len(true_tags) + len(lengths)
        gold = decoder.decode_ids(_joined(true_tags, positions, size))
        predicted = decoder.decode_ids(_joined(pred_tags, positions, size))
        figures: Dict[str, _Figures] = {}
        if "strict" in schemes:
            figures["strict"] = _strict_figures(gold, predicted, decoder.labels, labels)
        if span_schemes:
            results = evaluate_spans(
                _sentence_spans(gold, offsets, decoder.labels),
                _sentence_spans(predicted, offsets, decoder.labels),
                schemes=span_schemes,
                **settings,
            )
            for scheme, res in results.items():
                figures[scheme] = (
                    res.precision,
                    res.recall,
                    res.f1,
                    res.macro_f1,
                    {label: c.f1 for label, c in res.per_type.items()},
                )
        return _flat_metrics(figures, schemes, primary, accuracy, per_type)

    return compute_metrics


def _check_label_names(label_names: Any) -> List[str]:
    example = "e.g. ['O', 'B-PER', 'I-PER']"
    if isinstance(label_names, dict):
        raise ValueError(
            "label_names must be a list of tag strings, one per class id "
            f"({example}), got a dict. For a model's id2label, pass "
            "[id2label[i] for i in range(len(id2label))]."
        )
    if isinstance(label_names, str) or not isinstance(label_names, (list, tuple)):
        raise ValueError(
            "label_names must be a list of tag strings, one per class id "
            f"({example}), got {type(label_names).__name__} {label_names!r:.60}."
        )
    if not label_names:
        raise ValueError(f"label_names is empty: give the tag of every class id ({example}).")
    for i, name in enumerate(label_names):
        if not isinstance(name, str):
            raise ValueError(
                f"label_names[{i}] is {name!r} ({type(name).__name__}); label_names must hold tag strings ({example})."
            )
    return list(label_names)


def _tag_ids(mode: str, scheme: Optional[str], names: List[str]):
    """The decoder and the tag id of each class id's name (raising, in
    strict mode, at a name whose prefix the scheme does not allow)."""
    decoder = get_decoder(mode, scheme, False)
    return decoder, decoder.ids([names], "label_names", nested=False)[:-1]


def _read_eval_pred(eval_pred: Any, n_classes: int) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """Label ids and predicted class ids, both (batch, length) int64, checked."""
    if hasattr(eval_pred, "predictions") and hasattr(eval_pred, "label_ids"):
        predictions, label_ids = eval_pred.predictions, eval_pred.label_ids
    elif isinstance(eval_pred, tuple) and len(eval_pred) == 2:
        predictions, label_ids = eval_pred
    else:
        raise TypeError(
            "compute_metrics takes an EvalPrediction (with .predictions and "
            "a .label_ids) or a (predictions, label_ids) tuple, got "
            f"{type(eval_pred).__name__}."
        )
    true = _array(label_ids, "label_ids")
    if true.ndim != 2 or not _is_int(true):
        raise ValueError(
            "label_ids must be class ids of shape (batch, length), with -100 "
            f"where a position is ignored; got shape {true.shape} of dtype {true.dtype}."
        )
    pred = _array(predictions, "predictions")
    if pred.ndim == 3:
        if pred.shape[-1] != n_classes:
            raise ValueError(
                f"predictions have {pred.shape[-1]} classes on their last axis "
                f"(shape {pred.shape}) but label_names has {n_classes} names: "
                "give one name per class id, in the model's order."
            )
        pred = pred.argmax(axis=-1)
    elif pred.ndim != 2 or not _is_int(pred):
        raise ValueError(
            "predictions must be logits of shape (batch, length, classes) or "
            f"class ids of shape (batch, length); got shape {pred.shape} of "
            f"dtype {pred.dtype}."
        )
    if pred.shape != true.shape:
        raise ValueError(
            f"predictions (after argmax over the class axis) have shape "
            f"{pred.shape} but label_ids have shape {true.shape}: they must "
            "be the same (batch, length)."
        )
    true = true.astype(numpy.int64, copy=False)
    pred = pred.astype(numpy.int64, copy=False)
    keep = true != IGNORE_INDEX
    valid = f"valid class ids are 0 to {n_classes - 1} (label_names has {n_classes} names)"
    for array, name, extra in (
        (true, "label_ids", ", or -100 for a position to ignore"),
        (pred, "predictions", "; only positions whose label id is -100 may hold other values"),
    ):
        bad = keep & ((array < 0) | (array >= n_classes))
        if bad.any():
            s, t = numpy.argwhere(bad)[0].tolist()
            raise ValueError(f"{name}[{s}][{t}] is class id {array[s, t]}, outside label_names: {valid}{extra}.")
    return true, pred


def _array(value: Any, name: str) -> numpy.ndarray:
    if isinstance(value, tuple):
        raise ValueError(
            f"{name} is a tuple of {len(value)} items (a model with several "
            "outputs?); give one array (or nested list), e.g. the logits alone "
            "with Trainer(preprocess_logits_for_metrics=lambda logits, labels: "
            "logits[0].argmax(-1))."
        )
    try:
        return numpy.asarray(value)
    except ValueError:  # ragged nested lists
        raise ValueError(
            f"{name} is not rectangular: pad every sentence to one length (with -100 in label_ids) as Trainer does."
        ) from None


def _is_int(array: numpy.ndarray) -> bool:
    return numpy.issubdtype(array.dtype, numpy.integer)


def _joined(tag_ids: numpy.ndarray, positions: numpy.ndarray, size: int) -> numpy.ndarray:
    """The sentences' tag ids end to end, an "O" (tag id 0) after each."""
    joined = numpy.zeros(size, dtype=numpy.intp)
    joined[positions] = tag_ids
    return joined


def _sentence_spans(entities: _Entities, offsets: numpy.ndarray, labels: List[str]) -> List[List[Tuple[int, int, str]]]:
    """One list of (start, end, label) spans per sentence, offsets in it."""
    label_ids, starts, ends = entities
    sentence = numpy.searchsorted(offsets, starts, side="right") - 1
    base = offsets[sentence]
    spans = list(zip((starts - base).tolist(), (ends - base).tolist(), map(labels.__getitem__, label_ids.tolist())))
    bounds = numpy.searchsorted(sentence, numpy.arange(len(offsets) + 1)).tolist()
    return [spans[a:b] for a, b in zip(bounds, bounds[1:])]


def _strict_figures(gold: _Entities, pred: _Entities, names: List[str], labels: Optional[frozenset]) -> _Figures:
    if labels is not None:  # evaluate_spans' `labels` setting
        allowed = numpy.array([name in labels for name in names], dtype=bool)
        gold = tuple(column[allowed[gold[0]]] for column in gold)
        pred = tuple(column[allowed[pred[0]]] for column in pred)
    report = tag_report(gold, pred, names)
    return (
        report.micro.precision,
        report.micro.recall,
        report.micro.f1,
        report.macro.f1,
        {label: score.f1 for label, score in report.per_type.items()},
    )


def _flat_metrics(
    figures: Dict[str, _Figures],
    schemes: Sequence[str],
    primary: str,
    accuracy: float,
    per_type: bool,
) -> Dict[str, float]:
    p, r, f, _, _ = figures[primary]
    out = {
        "overall_precision": float(p),
        "overall_recall": float(r),
        "overall_f1": float(f),
        "overall_accuracy": float(accuracy),
    }
    for scheme in schemes:
        p, r, f, macro, per_label = figures[scheme]
        out[f"{scheme}_precision"] = float(p)
        out[f"{scheme}_recall"] = float(r)
        out[f"{scheme}_f1"] = float(f)
        out[f"{scheme}_macro_f1"] = float(macro)
    if per_type:
        for scheme in schemes:
            for label, value in figures[scheme][4].items():
                key = f"{scheme}_{label}_f1"
                if key in out:
                    raise ValueError(
                        f"The F1 of label {label!r} would be reported as {key!r}, "
                        "a key already in use; rename the label or pass per_type=False."
                    )
                out[key] = float(value)
    return out
