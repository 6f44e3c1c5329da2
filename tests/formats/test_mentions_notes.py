"""The notes and spans of the `mentions` reader's documents: a document of
checked pairs is grounded without a record a mention (`ground_noted`), and
its notes name the same mentions, in the same order, as the records of
`ground_in` would."""

import random

import pytest

from helpers import write_jsonl
from spacy_spanf1.formats.mentions import MENTIONS, _notes, _notes_of_kinds, ground_noted
from spacy_spanf1.mentions.ground import Text, ground_in, noted_row
from spacy_spanf1.mentions.predicted import row_and_spans


def read(tmp_path, records, **options):
    return list(MENTIONS.read(write_jsonl(tmp_path / "answers.jsonl", records), side="pred", unit="char", **options))


def test_a_document_of_every_kind_notes_each_mention_in_order(tmp_path):
    text = "Ann met Ann and Bo in new york."
    mentions = [
        ["Ann", "PER"],
        ["Ann", "PER"],
        ["Ann", "PER"],
        ["Bo", "PER"],
        ["New York", "LOC"],
        ["Berlin", "LOC"],
        ["Bo", "PER"],
    ]
    (doc,) = read(tmp_path, [{"text": text, "mentions": mentions}])
    # By hand, under "ordered": "Ann" is at 0-3 and 8-11 (ambiguous): its first two listings take
    # them in turn (exact), its third is a duplicate (still ambiguous); "Bo" is at 16-18 once, its
    # second listing a duplicate (not ambiguous); "New York" is found normalized at 22-30;
    # "Berlin" is not found. The text has 31 characters: the mentions without a place are spans
    # past its end, two characters apart, in the order listed (Ann, Berlin, Bo).
    assert doc.spans == [
        (0, 3, "PER"),
        (8, 11, "PER"),
        (16, 18, "PER"),
        (22, 30, "LOC"),
        (32, 33, "PER"),
        (34, 35, "LOC"),
        (36, 37, "PER"),
    ]
    assert doc.unplaced == {32: ("Ann", "duplicate"), 34: ("Berlin", "not_found"), 36: ("Bo", "duplicate")}
    assert doc.notes == {
        "grounded_exact": {
            "count": 3,
            "examples": ["line 1: 'Ann' (PER)", "line 1: 'Ann' (PER)", "line 1: 'Bo' (PER)"],
        },
        "grounded_normalized": {"count": 1, "examples": ["line 1: 'New York' (LOC)"]},
        "not_found": {"count": 1, "examples": ["line 1: 'Berlin' (LOC)"]},
        "duplicates": {"count": 2, "examples": ["line 1: 'Ann' (PER)", "line 1: 'Bo' (PER)"]},
        "ambiguous": {"count": 3, "examples": ["line 1: 'Ann' (PER)"] * 3},
    }
    assert list(doc.notes) == ["grounded_exact", "grounded_normalized", "not_found", "duplicates", "ambiguous"]


def test_the_exact_examples_are_the_first_five_exact_mentions(tmp_path):
    records = [
        {
            "text": "Al Bo Cy Di Ed Fa",
            "mentions": [["Al", "X"], ["Zed", "X"], ["Bo", "X"], ["Cy", "X"], ["Di", "X"], ["Ed", "X"], ["Fa", "X"]],
        }
    ]
    (doc,) = read(tmp_path, records)
    # six exact mentions, of which the first five are examples; "Zed", between them, is not one
    assert doc.notes["grounded_exact"] == {
        "count": 6,
        "examples": [f"line 1: {s!r} (X)" for s in ("Al", "Bo", "Cy", "Di", "Ed")],
    }
    assert doc.notes["not_found"] == {"count": 1, "examples": ["line 1: 'Zed' (X)"]}


@pytest.mark.parametrize("ground", ["ordered", "first", "all"])
@pytest.mark.parametrize("threshold", [None, 0.8])
def test_grounding_without_records_gives_what_the_records_give(ground, threshold):
    rng = random.Random(0)
    words = ["Ann", "ann", "Bob", "Paris", "paris", "New  York", "New York", "the", "Café", "cafe"]
    listed = words + ["ANN", "Zed", "New York x", "Bob Paris"]
    for _ in range(1000):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(1, 12)))
        pairs = [(rng.choice(listed), rng.choice("AB")) for _ in range(rng.randint(0, 9))]
        grounded = ground_in(Text(text), pairs, ground, threshold)
        unplaced_of_records = {}
        row, spans = row_and_spans(grounded, len(text), ground != "all", False, unplaced_of_records)
        unplaced = {}
        fast_spans, kinds = ground_noted(text, pairs, ground, threshold, unplaced)
        fast_row = noted_row(len(pairs), {kind: len(positions) for kind, positions in kinds.items()})
        assert sorted(set(fast_spans)) == sorted(set(spans)), (text, pairs)
        assert fast_row == row and unplaced == unplaced_of_records, (text, pairs)
        notes, fast_notes = _notes(grounded, row, None, "line 1"), _notes_of_kinds(pairs, fast_row, kinds, "line 1")
        assert fast_notes == notes and list(fast_notes) == list(notes), (text, pairs)


def test_a_file_in_order_describes_only_the_examples_its_notes_keep(tmp_path):
    # Eight documents, each with one mention not in its text. Records without
    # an id pair in file order, and the corpus keeps the first five examples
    # of a kind: the reader describes the mentions of lines 1-5 and counts
    # those of lines 6-8 without describing them.
    records = [{"text": f"Ann {i}", "mentions": [["Zed", "PER"]]} for i in range(8)]
    docs = read(tmp_path, records)
    assert [doc.notes["not_found"]["count"] for doc in docs] == [1] * 8
    assert [len(doc.notes["not_found"]["examples"]) for doc in docs] == [1] * 5 + [0] * 3
    assert docs[4].notes["not_found"]["examples"] == ["line 5: 'Zed' (PER)"]


def test_keyed_documents_keep_every_example_for_the_gold_order(tmp_path):
    # With ids the documents pair in the gold's order, here the reverse of the
    # file's: the examples kept are those of ids 7 to 3 (lines 8 to 4), which
    # a reader that stopped describing after its first five lines would lose.
    from spacy_spanf1.api import compare_files

    gold = write_jsonl(
        tmp_path / "gold.jsonl",
        [{"id": i, "text": f"Ann {i}", "spans": [{"start": 0, "end": 3, "label": "PER"}]} for i in reversed(range(8))],
    )
    pred = write_jsonl(
        tmp_path / "pred.jsonl", [{"id": i, "text": f"Ann {i}", "mentions": [["Zed", "PER"]]} for i in range(8)]
    )
    docs = read(tmp_path, [{"id": i, "text": f"Ann {i}", "mentions": [["Zed", "PER"]]} for i in range(8)])
    assert [len(doc.notes["not_found"]["examples"]) for doc in docs] == [1] * 8
    scores = compare_files(gold, pred, schemes="strict", format="mentions")
    assert scores.notes["pred"]["not_found"] == {
        "count": 8,
        "examples": [f"line {n}: 'Zed' (PER)" for n in (8, 7, 6, 5, 4)],
    }
