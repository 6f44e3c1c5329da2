"""Pairing gold and predicted documents (`spacy_spanf1.formats.pairing`) and
scoring the paired stream (`spacy_spanf1.api.score_pairs`): document counts,
skipped documents, options that do not fit the format, and a stream scored
without holding it or its garbage."""

import pytest

from helpers import jsonl, load_corpus, write
from spacy_spanf1.api import compare_files, score_pairs
from spacy_spanf1.formats import Document, InputError, PairStats, SettingError, pair_documents
from spacy_spanf1.spans import Span


# --------------------------------------------------------------------------
# Pairing
# --------------------------------------------------------------------------


def test_load_corpus_unequal_counts(tmp_path):
    gold = write(tmp_path / "g.jsonl", jsonl({"text": "a", "spans": []}, {"text": "b", "spans": []}))
    pred = write(tmp_path / "p.jsonl", jsonl({"text": "a", "spans": []}))
    with pytest.raises(
        InputError, match=r"unequal numbers of documents \(JSONL records\): 2 in .*g\.jsonl, 1 in .*p\.jsonl"
    ):
        load_corpus(gold, pred)


def test_pairing_unequal_counts_name_both_counts():
    docs = lambda k: (Document(f"line {i}", [], "a") for i in range(k))  # noqa: E731
    with pytest.raises(InputError, match=r"unequal numbers of documents: 5 in gold, 3 in predicted"):
        list(pair_documents(docs(5), docs(3)))


@pytest.mark.parametrize(
    "names,options,param",
    [
        (("g.csv", "p.jsonl"), {}, "format"),
        (("g.conll", "p.conll"), {"unit": "char"}, "unit"),
        (("g.conll", "p.conll"), {"spans_key": "sc"}, "spans_key"),
        (("g.jsonl", "p.jsonl"), {"tag_mode": "strict"}, "tag_mode"),
        (("g.spacy", "p.spacy"), {"unit": "word"}, "unit"),
    ],
    ids=["formats-differ", "unit", "spans-key", "tag-option", "unknown-unit"],
)
def test_load_corpus_options_that_do_not_fit(tmp_path, names, options, param):
    with pytest.raises(SettingError) as info:
        load_corpus(tmp_path / names[0], tmp_path / names[1], **options)
    assert info.value.setting == param


def test_every_gold_document_skipped_is_an_error(tmp_path):
    gold = write(tmp_path / "g.jsonl", jsonl({"text": "Ann"}, {"text": "Bob"}))
    pred = write(tmp_path / "p.jsonl", jsonl({"text": "Ann", "spans": []}, {"text": "Bob", "spans": []}))
    with pytest.raises(InputError, match=r"every gold document of .*g\.jsonl \(2\) was skipped: none has annotation"):
        compare_files(gold, pred, schemes="strict")


# --------------------------------------------------------------------------
# Scoring a paired stream
# --------------------------------------------------------------------------


def test_score_pairs_200k_documents_from_a_generator():
    n = 200_000
    gold_docs = (Document(f"line {i}", [Span(0, 3, "X")] if i % 10 else None, "abc def") for i in range(n))
    pred_docs = (Document(f"line {i}", [Span(0, 3, "X" if i % 3 else "Y")], "abc def") for i in range(n))
    stats = PairStats()
    scores = score_pairs(pair_documents(gold_docs, pred_docs, stats=stats), ["strict", "iou"], stats=stats)
    assert scores.documents == n and scores.skipped == n // 10 and len(scores.skipped_names) == 5
    strict = scores.results["strict"].counts
    assert strict["cor"] + strict["inc"] == n - n // 10
    assert strict["inc"] == sum(1 for i in range(n) if i % 10 and not i % 3)


def test_cycles_made_while_a_stream_is_scored_are_collected():
    """score_pairs pauses the cyclic collector and collects itself: a
    reference cycle made for each document (as a reader or a pipeline may)
    is collected within FULL_COLLECTION batches, and the collector is
    enabled again after, also when the stream raises."""
    import gc
    import weakref
    from collections import deque

    from spacy_spanf1 import corpus
    from spacy_spanf1.formats import DocPair

    batch, n_docs = 16, 16 * corpus.FULL_COLLECTION * 5
    alive = set()
    most = 0

    class Cycle:
        def __init__(self):
            self.me = self

    def pairs():
        # Each cycle stays in use for two batches (so it has moved to the
        # oldest generation when it becomes garbage: only a full collection
        # frees it).
        nonlocal most
        in_use = deque(maxlen=2 * batch)
        for i in range(n_docs):
            cycle = Cycle()
            alive.add(i)
            weakref.finalize(cycle, alive.discard, i)
            in_use.append(cycle)
            del cycle
            most = max(most, len(alive))
            yield DocPair(i, f"doc {i}", [Span(0, 1, "X")], [Span(0, 1, "X")], "a b")

    assert gc.isenabled()
    scores = corpus.score_pairs(pairs(), ["strict"], batch_size=batch)
    assert scores.documents == n_docs
    assert gc.isenabled()
    assert most <= batch * (corpus.FULL_COLLECTION + 2) + 1, most  # never more than FULL_COLLECTION batches of garbage
    assert len(alive) < n_docs

    def failing():
        yield DocPair(0, "doc 0", [], [], "a")
        raise InputError("bad", "x.jsonl", 2)

    with pytest.raises(InputError):
        corpus.score_pairs(failing(), ["strict"])
    assert gc.isenabled()
    gc.disable()
    try:
        corpus.score_pairs(pairs(), ["strict"], batch_size=batch)
        assert not gc.isenabled()  # a caller's choice is kept
    finally:
        gc.enable()


# --------------------------------------------------------------------------
# Notes counted exactly, whatever the size of the corpus
# --------------------------------------------------------------------------


@pytest.mark.slow
def test_notes_exact_at_50000_documents(tmp_path):
    """Every one of 50,000 predicted spans quotes a text that is not at its
    offsets: the note counts each, run after run (pairing once counted a
    document by its object's address, which a later document may reuse)."""
    n = 50_000
    gold = write(
        tmp_path / "g.jsonl",
        jsonl(*({"text": f"Ann met Bo {i}", "spans": [{"start": 0, "end": 3, "label": "PER"}]} for i in range(n))),
    )
    pred = write(
        tmp_path / "p.jsonl",
        jsonl(
            *(
                {"text": f"Ann met Bo {i}", "spans": [{"start": 0, "end": 3, "label": "PER", "text": "Bob"}]}
                for i in range(n)
            )
        ),
    )
    for _ in range(2):
        scores = compare_files(gold, pred, schemes="strict")
        assert scores.notes["pred"]["text_mismatch"]["count"] == n
        assert scores.results["strict"].counts["cor"] == n


@pytest.mark.slow
def test_grounding_report_exact_at_50000_documents(tmp_path):
    """50,000 documents, each with two mentions found verbatim: the grounding
    report counts 100,000 mentions, all grounded exactly (strict COR agrees)."""
    n = 50_000
    gold = write(
        tmp_path / "g.jsonl",
        jsonl(
            *(
                {
                    "text": f"Ann met Bo {i}",
                    "spans": [{"start": 0, "end": 3, "label": "PER"}, {"start": 8, "end": 10, "label": "PER"}],
                }
                for i in range(n)
            )
        ),
    )
    pred = write(
        tmp_path / "p.jsonl",
        jsonl(
            *(
                {
                    "text": f"Ann met Bo {i}",
                    "mentions": [{"text": "Ann", "label": "PER"}, {"text": "Bo", "label": "PER"}],
                }
                for i in range(n)
            )
        ),
    )
    scores = compare_files(gold, pred, schemes="strict", format="mentions")
    report = scores.to_dict()["grounding"]
    assert report["mentions"] == 2 * n and report["exact"] == 2 * n
    assert scores.results["strict"].counts["cor"] == 2 * n


def test_keyed_prediction_shared_by_gold_documents_is_counted_once():
    """Two gold documents of one key (one rejected, one accepted) pair with
    one predicted document: its notes count once."""
    mismatch = {"text_mismatch": {"count": 1, "examples": ["x"]}}
    gold = [Document("a0", None, "Ann", key="a"), Document("a1", [Span(0, 3, "PER")], "Ann", key="a")]
    pred = [Document("p", [Span(0, 3, "PER")], "Ann", key="a", notes=mismatch)]
    stats = PairStats()
    list(pair_documents(gold, pred, stats=stats))
    assert stats.notes["pred"]["text_mismatch"]["count"] == 1


@pytest.mark.slow
def test_not_scored_counts_exact_at_50000_documents(tmp_path):
    """50,000 doccano records each with one relation on the predicted side:
    the relations read and not scored are counted 50,000 times."""
    n = 50_000
    gold = write(
        tmp_path / "g.jsonl", jsonl(*({"text": f"Ann met Bo {i}", "label": [[0, 3, "PER"]]} for i in range(n)))
    )
    pred = write(
        tmp_path / "p.jsonl",
        jsonl(
            *(
                {
                    "text": f"Ann met Bo {i}",
                    "entities": [
                        {"id": 1, "start_offset": 0, "end_offset": 3, "label": "PER"},
                        {"id": 2, "start_offset": 8, "end_offset": 10, "label": "PER"},
                    ],
                    "relations": [{"from_id": 1, "to_id": 2, "type": "x"}],
                }
                for i in range(n)
            )
        ),
    )
    scores = compare_files(gold, pred, schemes="strict", format="doccano")
    assert scores.not_scored["pred"] == {"relations": n}
    assert scores.results["strict"].counts["cor"] == n
