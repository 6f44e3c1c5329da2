"""seqeval-compatible figures over decoded tags: `TagScore`, `TagReport`,
`tag_report` (the arithmetic) and `evaluate_tags` (the front door)."""

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Dict, List, Mapping, Optional

import numpy

from ..engine.metrics import f_score_seqeval, safe_div
from .decode import Entities, check_sentences, check_tag_options, get_decoder

__all__ = ["TagReport", "TagScore", "evaluate_tags", "tag_report"]


@dataclass(frozen=True)
class TagScore:
    """Precision, recall, F1 and support of one label or one average.

    precision (float): Correct / predicted; 0.0 when nothing was predicted.
    recall (float): Correct / gold; 0.0 when there is no gold entity.
    f1 (float): 2PR / (P + R); 0.0 when P + R is 0.
    support (int): The number of gold entities.
    """

    precision: float
    recall: float
    f1: float
    support: int

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): seqeval's row: keys "precision",
        "recall", "f1-score" and "support"."""
        return {
            "precision": self.precision,
            "recall": self.recall,
            "f1-score": self.f1,
            "support": self.support,
        }


@dataclass(frozen=True)
class TagReport:
    """The figures of seqeval's `classification_report`.

    micro (TagScore): Counts pooled over all labels.
    macro (TagScore): Unweighted mean over labels found in gold or prediction
        (0.0 when there is none; seqeval gives NaN there).
    weighted (TagScore): Mean weighted by each label's support (0.0 when
        there is no gold entity, as in seqeval).
    per_type (Mapping[str, TagScore]): One score per label, labels sorted.
    """

    micro: TagScore
    macro: TagScore
    weighted: TagScore
    per_type: Mapping[str, TagScore] = field(default_factory=dict)

    def __post_init__(self) -> None:
        # read-only, and still picklable (a mappingproxy is not: __reduce__)
        object.__setattr__(self, "per_type", MappingProxyType(dict(self.per_type)))

    def __reduce__(self) -> Any:
        return (TagReport, (self.micro, self.macro, self.weighted, dict(self.per_type)))

    def to_dict(self) -> Dict[str, Dict[str, Any]]:
        """RETURNS (Dict[str, Dict[str, Any]]): Same keys, order and numbers
        as seqeval's `classification_report(..., output_dict=True)`: one row
        per label, then "micro avg", "macro avg" and "weighted avg"."""
        report = {label: score.to_dict() for label, score in self.per_type.items()}
        report["micro avg"] = self.micro.to_dict()
        report["macro avg"] = self.macro.to_dict()
        report["weighted avg"] = self.weighted.to_dict()
        return report


def tag_report(true: Entities, pred: Entities, label_names: List[str]) -> TagReport:
    """Scores from the decoded entities of both sides (label ids, starts and
    ends, ends increasing)."""
    # seqeval counts sets of (sentence, label, start, end); the decoders never
    # find one entity twice (ends strictly increase), so the arrays are sets
    # already. Per side, an end position identifies an entity: match them by
    # end, each gold end against the first predicted end not below it.
    true_labels, true_starts, true_ends = true
    pred_labels, pred_starts, pred_ends = pred
    pi = numpy.searchsorted(pred_ends, true_ends)
    ti = numpy.flatnonzero(pi < len(pred_ends))
    pi = pi[ti]
    same = (
        (true_ends[ti] == pred_ends[pi]) & (true_labels[ti] == pred_labels[pi]) & (true_starts[ti] == pred_starts[pi])
    )
    n_labels = len(label_names)
    counts_true = numpy.bincount(true_labels, minlength=n_labels).tolist()
    counts_pred = numpy.bincount(pred_labels, minlength=n_labels).tolist()
    counts_tp = numpy.bincount(true_labels[ti[same]], minlength=n_labels).tolist()
    # Labels found on either side, sorted by name as seqeval sorts them.
    found = sorted((label_names[i], i) for i in range(n_labels) if counts_true[i] or counts_pred[i])
    labels = [label for label, _ in found]
    tps = [counts_tp[i] for _, i in found]
    preds = [counts_pred[i] for _, i in found]
    trues = [counts_true[i] for _, i in found]
    ps = [safe_div(tp, n) for tp, n in zip(tps, preds)]
    rs = [safe_div(tp, n) for tp, n in zip(tps, trues)]
    fs = [f_score_seqeval(p, r) for p, r in zip(ps, rs)]
    per_type = {label: TagScore(p, r, f, n) for label, p, r, f, n in zip(labels, ps, rs, fs, trues)}
    support = sum(trues)
    micro_p, micro_r = safe_div(sum(tps), sum(preds)), safe_div(sum(tps), support)
    micro = TagScore(micro_p, micro_r, f_score_seqeval(micro_p, micro_r), support)
    # Averages go through numpy.average, as in seqeval, so that the
    # (pairwise) summation order, and hence every bit, is the same.
    if labels:
        macro = TagScore(
            float(numpy.average(numpy.array(ps))),
            float(numpy.average(numpy.array(rs))),
            float(numpy.average(numpy.array(fs))),
            support,
        )
    else:
        macro = TagScore(0.0, 0.0, 0.0, 0)
    if support:
        weights = numpy.array(trues, dtype=numpy.int64)
        weighted = TagScore(
            float(numpy.average(numpy.array(ps), weights=weights)),
            float(numpy.average(numpy.array(rs), weights=weights)),
            float(numpy.average(numpy.array(fs), weights=weights)),
            support,
        )
    else:
        weighted = TagScore(0.0, 0.0, 0.0, 0)
    return TagReport(micro, macro, weighted, dict(per_type))


def evaluate_tags(
    y_true: List[List[str]],
    y_pred: List[List[str]],
    *,
    mode: str,
    scheme: Optional[str] = None,
    suffix: bool = False,
) -> TagReport:
    """Score predicted tag sequences against gold ones, as seqeval 1.2.2's
    `classification_report(y_true, y_pred, output_dict=True, mode=...,
    scheme=..., suffix=...)` does, to the last bit.

    y_true (List[List[str]]): Gold tags, one list per sentence.
    y_pred (List[List[str]]): Predicted tags, same shape as y_true.
    mode (str): "conll" or "strict" (see `spans_from_tags`).
    scheme (Optional[str]): For mode "strict" (required there, and only
        there): one of IOB1, IOB2, IOE1, IOE2, IOBES, BILOU.
    suffix (bool): Whether the prefix comes last, as in "PER-B".
    RETURNS (TagReport): Micro, macro and weighted averages and per-label
        scores. An entity is (sentence, label, start, end); identical
        entities count once. A ratio with a zero denominator is 0.0.

    In "conll" mode the sentences are decoded as seqeval decodes them: joined
    into one sequence with an "O" after each sentence. Raises ValueError when
    the two sides differ in the number of sentences or in a sentence's length.

    >>> rep = evaluate_tags(
    ...     [["B-PER", "I-PER", "O"], ["B-LOC", "O"]],
    ...     [["B-PER", "I-PER", "O"], ["B-PER", "O"]],
    ...     mode="strict", scheme="IOB2")
    >>> rep.micro.precision, rep.micro.recall
    (0.5, 0.5)
    >>> rep.per_type["PER"].precision, rep.per_type["PER"].support
    (0.5, 1)
    >>> rep.macro.f1, rep.weighted.f1
    (0.3333333333333333, 0.3333333333333333)
    """
    check_tag_options(mode, scheme, suffix)
    check_sentences(y_true, y_pred)
    decoder = get_decoder(mode, scheme, suffix)
    true = decoder.decode(y_true, "y_true", nested=True)
    pred = decoder.decode(y_pred, "y_pred", nested=True)
    return tag_report(true, pred, decoder.labels)
