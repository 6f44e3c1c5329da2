"""Shared helper: feeding Presidio's SpanEvaluator (the `iou` reference).

SpanEvaluator reads a DataFrame with one row per token (sentence_id, token,
start_indices, annotation, prediction) holding IO tags: a label or "O".
IO tags cannot separate two touching spans of one label, and spans may not
overlap, so `presidio_iou` refuses such input rather than feed Presidio
something other than what the engine scores.
"""
from collections import Counter

import pandas as pd
import pytest


def _io_tags(spans, n_tokens, side, doc):
    tags = ["O"] * n_tokens
    for start, end, label in spans:
        assert 0 <= start < end <= n_tokens, (side, doc, (start, end, label))
        for i in range(start, end):
            assert tags[i] == "O", f"overlapping {side} spans in doc {doc}"
            tags[i] = label
    for a in spans:
        for b in spans:
            assert not (a[1] == b[0] and a[2] == b[2]), f"touching same-label {side} spans in doc {doc}"
    return tags


def presidio_iou(gold_docs, pred_docs, tokens, threshold):
    """Score with Presidio's SpanEvaluator on token IoU, no skip words.

    tokens: one list of token strings per document.
    RETURNS: ({label: (true_positives, num_predicted, num_annotated)},
              the confusion Counter {(annotation, prediction): n},
              Presidio's EvaluationResult itself).
    """
    # Imported here, not at collection, so that test sessions which never
    # call Presidio do not pay for its slow import; a missing Presidio still
    # fails every test that uses it.
    from presidio_evaluator.evaluation import SpanEvaluator

    rows = []
    for doc, (gold, pred, words) in enumerate(zip(gold_docs, pred_docs, tokens)):
        gold_tags = _io_tags(gold, len(words), "gold", doc)
        pred_tags = _io_tags(pred, len(words), "pred", doc)
        offset = 0
        for word, g, p in zip(words, gold_tags, pred_tags):
            rows.append((doc, word, offset, g, p))
            offset += len(word) + 1
    df = pd.DataFrame(rows, columns=["sentence_id", "token", "start_indices", "annotation", "prediction"])
    evaluator = SpanEvaluator(iou_threshold=threshold, char_based=False, skip_words=[])
    result = evaluator.calculate_score_on_df(df, level="entity")
    per_type = {
        label: (m.true_positives, m.num_predicted, m.num_annotated)
        for label, m in result.per_type.items()
    }
    return per_type, Counter(result.results), result


@pytest.fixture(scope="session")
def presidio():
    """The `presidio_iou` helper, as a fixture."""
    return presidio_iou
