"""Fixtures shared by the test modules; plain helper functions are in helpers.py."""
import pytest

from helpers import error_corpus, presidio_iou


@pytest.fixture(scope="session")
def presidio():
    """The `presidio_iou` helper (Presidio's SpanEvaluator as the `iou` reference), as a fixture."""
    return presidio_iou


@pytest.fixture(scope="module")
def vocab():
    """A spaCy Vocab for the Docs a module builds."""
    from spacy.vocab import Vocab

    return Vocab()


@pytest.fixture(scope="module")
def stats_corpus():
    """200 documents of gold spans and a system's predictions with every kind of error."""
    return error_corpus(7, 200)


@pytest.fixture(scope="module")
def stats_results(stats_corpus):
    """stats_corpus scored under every scheme, with per-document rows."""
    from spacy_spanf1 import SCHEMES, evaluate_spans

    return evaluate_spans(*stats_corpus, schemes=list(SCHEMES), per_doc=True)
