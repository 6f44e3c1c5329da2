"""The Prodigy reader (`spacy_spanf1.formats.prodigy`): a file written by hand in
Prodigy's JSONL export, read as the same data written as JSONL would be, and each
problem named with its file in a one-line error."""

import pytest

import spacy_spanf1.formats.prodigy  # noqa: F401  (registers "prodigy")
from helpers import GOLD, PRED, TEXT, as_jsonl, counts, one_line, read, write_jsonl
from spacy_spanf1.formats import InputError, SettingError
from spacy_spanf1.spans import Span


TOKENS = [
    ("Ada", 0, 3),
    ("Lovelace", 4, 12),
    ("met", 13, 16),
    ("Charles", 17, 24),
    ("Babbage", 25, 32),
    ("in", 33, 35),
    ("London", 36, 42),
    (".", 42, 43),
]


def prodigy_record(spans, answer="accept", input_hash=11, **extra):
    record = {
        "text": TEXT,
        "_input_hash": input_hash,
        "_task_hash": 99,
        "_view_id": "ner_manual",
        "tokens": [{"text": t, "start": s, "end": e, "id": i, "ws": True} for i, (t, s, e) in enumerate(TOKENS)],
        "spans": spans,
        "answer": answer,
        "meta": {"source": "wiki"},
    }
    record.update(extra)
    return record


P_GOLD = [
    {"start": 0, "end": 12, "token_start": 0, "token_end": 1, "label": "PER"},
    {"start": 17, "end": 32, "token_start": 3, "token_end": 4, "label": "PER"},
    {"start": 36, "end": 42, "token_start": 6, "token_end": 6, "label": "LOC"},
]


P_PRED = [
    {"start": 0, "end": 3, "token_start": 0, "token_end": 0, "label": "PER"},
    {"start": 17, "end": 32, "token_start": 3, "token_end": 4, "label": "ORG"},
    {"start": 36, "end": 42, "token_start": 6, "token_end": 6, "label": "LOC"},
]


def test_prodigy_char_unit_like_jsonl(tmp_path):
    gold = read("prodigy", write_jsonl(tmp_path / "g.jsonl", [prodigy_record(P_GOLD, genre="bio")]))[0]
    pred = read("prodigy", write_jsonl(tmp_path / "p.jsonl", [prodigy_record(P_PRED, answer=None)]), side="pred")[0]
    assert gold.spans == GOLD and pred.spans == PRED
    assert gold.key == "11" and gold.name == "line 1"
    assert gold.meta == {"genre": "bio", "source": "wiki"}
    jg, jp = as_jsonl(tmp_path, "jg.jsonl", TEXT, GOLD), as_jsonl(tmp_path, "jp.jsonl", TEXT, PRED)
    assert jg[0].spans == gold.spans and jg[0].text == gold.text
    assert counts([gold.spans], [pred.spans]) == counts([jg[0].spans], [jp[0].spans])


def test_prodigy_token_unit_inclusive_end(tmp_path):
    doc = read("prodigy", write_jsonl(tmp_path / "g.jsonl", [prodigy_record(P_GOLD)]), unit="token")[0]
    assert doc.spans == [Span(0, 2, "PER"), Span(3, 5, "PER"), Span(6, 7, "LOC")]
    assert doc.tokens[:2] == ["Ada", "Lovelace"] and doc.offsets[6] == (36, 42)


def test_prodigy_answers_counted(tmp_path):
    path = write_jsonl(
        tmp_path / "g.jsonl",
        [
            prodigy_record(P_GOLD, input_hash=1),
            prodigy_record(P_PRED, "reject", 2),
            prodigy_record(P_PRED, "ignore", 3),
            prodigy_record([], "accept", 4),
        ],
    )
    docs = read("prodigy", path)
    assert [d.spans for d in docs] == [GOLD, None, None, []]
    assert [d.counts for d in docs] == [{}, {"rejected": 1}, {"ignored": 1}, {}]
    assert [d.key for d in docs] == ["1", "2", "3", "4"]
    assert [d.spans for d in read("prodigy", path, side="pred")] == [GOLD, PRED, PRED, []]


@pytest.mark.parametrize(
    "spans,unit,problem",
    [
        ([{"start": 0, "end": 99, "label": "PER"}], "char", "0 <= start < end <= 43"),
        ([{"start": 0, "end": 3}], "char", "lacks 'label'"),
        ([{"token_start": 1, "token_end": 8, "label": "PER"}], "token", "token_end < 8"),
        ([{"start": 0, "end": 3, "label": "PER"}], "token", "lacks 'token_start', 'token_end'"),
    ],
    ids=["offsets", "no-label", "token-range", "no-token-offsets"],
)
def test_prodigy_errors(tmp_path, spans, unit, problem):
    path = write_jsonl(tmp_path / "g.jsonl", [prodigy_record(spans)])
    with pytest.raises(InputError) as err:
        read("prodigy", path, unit=unit)
    assert problem in one_line(err) and f"{path}:1:" in one_line(err)


def test_prodigy_bad_token(tmp_path):
    record = prodigy_record(P_GOLD)
    record["tokens"][1]["start"] = 5
    with pytest.raises(InputError, match="token 1 \\('Lovelace'\\)"):
        read("prodigy", write_jsonl(tmp_path / "g.jsonl", [record]), unit="token")


def test_prodigy_unit_checked(tmp_path):
    with pytest.raises(SettingError, match="char or token unit"):
        read("prodigy", write_jsonl(tmp_path / "g.jsonl", [prodigy_record(P_GOLD)]), unit="word")
