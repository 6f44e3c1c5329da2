"""The JSONL reader reads a block of plain records column by column
(`jsonl_plain.plain_block`) and any other block record by record (`_read_block`): the
two give the same documents, notes and errors."""

import json
import random
from dataclasses import asdict

import pytest

from spacy_spanf1.exceptions import InputError
from spacy_spanf1.formats import jsonl, jsonl_plain
from spacy_spanf1.spans import Span


def _outcome(read, block, mismatch):
    try:
        docs = read(block, "f.jsonl", mismatch)
    except InputError as err:
        return ("error", str(err), err.line)
    return None if docs is None else [asdict(doc) for doc in docs]


def _by_record(block, path, mismatch):
    return jsonl._read_block(block, path, "char", mismatch)


def test_a_plain_block_is_read_in_columns():
    lines = [
        json.dumps(
            {
                "text": "Ada met Bob",
                "spans": [{"start": 8, "end": 11, "label": "PER"}, {"start": 0, "end": 3, "label": "PER"}],
            }
        ),
        json.dumps({"spans": [], "text": "nothing here"}),
        json.dumps({"text": "Ada Ada", "spans": [{"start": 0, "end": 3, "label": "PER"}] * 2}),
    ]
    docs = jsonl_plain.plain_block(list(enumerate(lines, 1)), "f.jsonl", "warn")
    assert docs is not None
    assert [(d.name, d.line, d.text, d.spans, d.meta, d.key) for d in docs] == [
        ("line 1", 1, "Ada met Bob", [Span(0, 3, "PER"), Span(8, 11, "PER")], {}, None),  # sorted
        ("line 2", 2, "nothing here", [], {}, None),
        ("line 3", 3, "Ada Ada", [Span(0, 3, "PER")], {}, None),  # identical spans once
    ]
    assert all(type(span) is Span for doc in docs for span in doc.spans)
    assert _outcome(jsonl_plain.plain_block, list(enumerate(lines, 1)), "warn") == _outcome(
        _by_record, list(enumerate(lines, 1)), "warn"
    )


@pytest.mark.parametrize(
    "record",
    [
        {"text": "a b", "spans": [], "id": "x"},
        {"text": "a b", "spans": [], "meta": {"genre": "news"}},
        {"text": "a b", "spans": [], "tokens": ["score"]},
        {"text": "a b", "spans": [{"start": 0, "end": 1, "label": "A", "text": "a"}]},
        {"text": "a b", "spans": [{"start": 0, "end": 1, "label": "A", "score": 0.5}]},
        {"text": "a b", "spans": [{"start": 0, "end": 1, "label": "score"}]},  # '"score"' is in the line
        {"text": 'he said "score', "spans": []},  # and here
        {"text": "a b"},
        {"text": "a b", "spans": [{"start": 0, "end": 1}]},
        {"text": 1, "spans": []},
    ],
)
def test_a_block_with_any_other_record_is_read_record_by_record(record):
    block = [(1, json.dumps({"text": "a", "spans": []})), (2, json.dumps(record))]
    assert jsonl_plain.plain_block(block, "f.jsonl", "warn") is None
    block = [(1, json.dumps({"text": "a", "spans": []})), (2, "")]  # a blank line
    assert jsonl_plain.plain_block(block, "f.jsonl", "warn") is None


def test_both_readings_give_the_same_documents_and_errors():
    rng = random.Random(3)

    def record():
        text = rng.choice(["alpha beta gamma", "é café ü", "x" * 30, "a\ud83db", "score", 'say "score', "ok " * 9])
        spans = []
        for _ in range(rng.randint(0, 4)):
            start = rng.randint(0, 2)
            span = {
                "start": start,
                "end": start + (rng.randint(-1, 30) if rng.random() < 0.05 else rng.randint(1, 3)),
                "label": rng.choice(
                    ["A", "B", "C", "", "score", 'a"score', ["score"]] if rng.random() < 0.05 else ["A", "B"]
                ),
            }
            if rng.random() < 0.03:
                span[rng.choice(["text", "score", "label"])] = rng.choice([1.5, "al", None])
            spans.append(span)
        return json.dumps({"text": text, "spans": spans}, ensure_ascii=rng.random() < 0.5)

    columns = 0
    for _ in range(3000):
        block = [(i + 1, record()) for i in range(rng.randint(1, 5))]
        for mismatch in ("warn", "ignore"):
            found = _outcome(jsonl_plain.plain_block, block, mismatch)
            if found is not None:
                columns += 1
                assert found == _outcome(_by_record, block, mismatch), block
    assert columns > 1000  # the blocks read in columns (some of them raising) were compared
