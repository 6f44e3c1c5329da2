"""Fixtures shared by the test modules; plain helper functions are in helpers.py."""

import random

import pytest

from helpers import error_corpus, presidio_iou


@pytest.fixture(scope="session")
def presidio():
    """The `presidio_iou` helper (Presidio's SpanEvaluator as the `iou` reference), as a fixture."""
    return presidio_iou


@pytest.fixture
def rel_extension():
    """`Doc._.rel`, where the relation components keep their relations, set
    for the test (with a default of None) unless it is already there."""
    from spacy.tokens import Doc

    had = Doc.has_extension("rel")
    if not had:
        Doc.set_extension("rel", default=None)
    yield
    if not had:
        Doc.remove_extension("rel")


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


SPANCAT_SCHEMES = ["strict", "iou"]
SPANCAT_NAMES = ["Anna", "Bruno", "Chen Li", "Dmitri", "Eva Marie", "Farid"]
SPANCAT_PLACES = ["Paris", "Oslo", "Saint-Malo", "New York", "Lima", "Aix-en-Provence"]
SPANCAT_FILLER = "the a went to and saw met in from with near today later we they".split()


def spancat_doc(nlp, rng, labelled=True):
    """A sentence of filler words with a name (PER) and a place (LOC). The
    reference keeps each hyphenated place as one token, which spaCy's
    tokenizer splits: predicted spans go through the alignment."""
    from spacy.tokens import Doc, Span

    words, spans = [], []
    for kind, pool in (("PER", SPANCAT_NAMES), ("LOC", SPANCAT_PLACES)):
        words += rng.sample(SPANCAT_FILLER, rng.randint(1, 3))
        item = rng.choice(pool).split(" ")
        spans.append((len(words), len(words) + len(item), kind))
        words += item
    words += rng.sample(SPANCAT_FILLER, 2)
    doc = Doc(nlp.vocab, words=words, spaces=[True] * (len(words) - 1) + [False])
    if labelled:
        doc.spans["sc"] = [Span(doc, s, e, label) for s, e, label in spans]
    return doc


@pytest.fixture(scope="session")
def spancat_model(tmp_path_factory):
    """A small spancat pipeline (its own tok2vec) scored by this package's
    scorer, trained for a few dozen steps, and a dev DocBin: (model dir,
    dev path)."""
    import spacy
    from spacy.tokens import DocBin
    from spacy.training import Example

    root = tmp_path_factory.mktemp("spancat")
    rng = random.Random(3)
    nlp = spacy.blank("en")
    nlp.add_pipe(
        "spancat",
        config={
            "spans_key": "sc",
            "max_positive": None,
            "threshold": 0.5,
            "suggester": {"@misc": "spacy.ngram_suggester.v1", "sizes": [1, 2, 3]},
            "scorer": {"@scorers": "spacy-spanf1.scorer.v1", "schemes": SPANCAT_SCHEMES},
        },
    )
    train = []
    for doc in (spancat_doc(nlp, rng) for _ in range(60)):  # trained on spaCy's own tokens
        ref = nlp.make_doc(doc.text)
        ref.spans["sc"] = [ref.char_span(s.start_char, s.end_char, label=s.label_) for s in doc.spans["sc"]]
        train.append(Example(nlp.make_doc(doc.text), ref))
    # the weights are drawn from the global random state: seeded, so that
    # the model is the same whichever tests ran before
    spacy.util.fix_random_seed(0)
    optimizer = nlp.initialize(lambda: train)
    for _ in range(25):
        batch = rng.sample(train, 16)
        nlp.update(batch, sgd=optimizer, drop=0.1)
    model = root / "model"
    nlp.to_disk(model)
    dev = DocBin(store_user_data=False)
    for i in range(40):
        dev.add(spancat_doc(nlp, rng, labelled=i != 7))  # doc 7 has no span group: skipped by both
    dev_path = root / "dev.spacy"
    dev.to_disk(dev_path)
    return model, dev_path
