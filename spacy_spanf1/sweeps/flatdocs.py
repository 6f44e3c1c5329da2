"""What a sweep needs of the documents in which no side overlaps itself,
taken from the engine's `Batch` directly.

`SpanScorer` scores such documents on a Batch and then builds what an
evaluation reports: per-label tables (a second SemEval matching), the
confusion of `iou`, outcome units. A sweep needs less: per document its
credit and predicted count, and with every prediction present whether
each prediction is correct. Both come from the same Batch matchings the
scorer counts (`Batch.semeval` over all pairs, `Batch.overlap_matches`),
so the figures are the scorer's; tests hold the sweep equal to
evaluate_spans at every threshold. gold and pred are the sweep's Flat
spans (curves.py; not imported, which imports this module).
"""

from typing import Any, Dict, Tuple

import numpy

from ..engine.batched import COR, PAR, Batch
from ..engine.columns import Side, overlapping_docs
from ..engine.matching import SEMEVAL_RULES


def self_overlapping(gold: Any, pred: Any, n_docs: int) -> numpy.ndarray:
    """Per document, whether a side overlaps itself (spans sorted)."""
    return overlapping_docs(_side(gold), n_docs) | overlapping_docs(_side(pred), n_docs)


def batch_of(gold: Any, pred: Any, n_docs: int, n_labels: int) -> Batch:
    """The Batch of documents in which no side overlaps itself (spans
    sorted by document, start, end)."""
    return Batch(_side(gold), _side(pred), n_docs, n_labels)


def doc_credit(batch: Batch, scheme: str, n_docs: int, settings: Dict) -> Tuple[numpy.ndarray, numpy.ndarray]:
    """Per document, the credit (COR + PAR / 2 under SemEval, TP under
    `overlap`) and the predicted count (every prediction) of a scheme."""
    pred_doc = batch.pred.doc
    predicted = numpy.bincount(pred_doc, minlength=n_docs).astype(numpy.float64)
    if scheme in SEMEVAL_RULES:
        outcome, _, _ = batch.semeval(SEMEVAL_RULES[scheme], settings["min_overlap"], per_label=False)
        weight = numpy.where(outcome == COR, 1.0, numpy.where(outcome == PAR, 0.5, 0.0))
        # (astype: bincount of nothing gives integers even with weights)
        return numpy.bincount(pred_doc, weights=weight, minlength=n_docs).astype(numpy.float64), predicted
    if scheme == "overlap":
        matched = batch.overlap_matches(settings["overlap_threshold"]) >= 0
        return numpy.bincount(batch.gold.doc[matched], minlength=n_docs).astype(numpy.float64), predicted
    raise ValueError(f"no per-document credit of {scheme!r} here")


def correct_preds(batch: Batch, scheme: str, settings: Dict) -> numpy.ndarray:
    """Whether each prediction of the batch is correct: COR under SemEval,
    matched under `overlap`."""
    if scheme in SEMEVAL_RULES:
        outcome, _, _ = batch.semeval(SEMEVAL_RULES[scheme], settings["min_overlap"], per_label=False)
        return outcome == COR
    if scheme == "overlap":
        matched_gold = batch.overlap_matches(settings["overlap_threshold"])
        correct = numpy.zeros(batch.n_pred, dtype=bool)
        correct[matched_gold[matched_gold >= 0]] = True
        return correct
    raise ValueError(f"no per-prediction outcome of {scheme!r} here")


def _side(flat: Any) -> Side:
    return Side(flat.doc, flat.start, flat.end, flat.label)
