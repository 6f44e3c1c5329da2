"""Two sides' documents read together, a batch at a time: what the link
and relation scorers feed themselves with."""

from itertools import islice
from typing import Any, Iterable, Iterator, List, Tuple


def paired_batches(
    gold_docs: Iterable[Any], pred_docs: Iterable[Any], size: int
) -> Iterator[Tuple[List[Any], List[Any]]]:
    """(gold batch, predicted batch) of up to `size` documents each, in
    order, until both sides end. A side that ends first is a ValueError
    that counts both sides' documents (reading the longer one to its end)."""
    gold_iter, pred_iter = iter(gold_docs), iter(pred_docs)
    n_docs = 0
    while True:
        gold_chunk = list(islice(gold_iter, size))
        pred_chunk = list(islice(pred_iter, size))
        if len(gold_chunk) != len(pred_chunk):
            raise ValueError(
                f"Unequal numbers of documents: {n_docs + len(gold_chunk) + sum(1 for _ in gold_iter)} gold and "
                f"{n_docs + len(pred_chunk) + sum(1 for _ in pred_iter)} predicted. "
                "gold_docs and pred_docs must list the same documents in the same order."
            )
        if not gold_chunk:
            return
        n_docs += len(gold_chunk)
        yield gold_chunk, pred_chunk
