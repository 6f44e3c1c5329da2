"""Readers of the four input formats and the pairing of gold and predicted
files (`spacy_spanf1.formats`), in-process. The command line runs them in
`test_cli.py`."""
import json

import pytest
from spacy.tokens import Doc, DocBin, SpanGroup
from spacy.tokens import Span as SpacySpan
from spacy.vocab import Vocab

from types import SimpleNamespace

from spacy_spanf1.formats import (
    InputError,
    UsageError,
    infer_format,
    open_pairs,
)
from spacy_spanf1.formats import read_conll as _read_conll
from spacy_spanf1.formats import read_jsonl as _read_jsonl
from spacy_spanf1.formats import read_kaggle
from spacy_spanf1.spans import Span


def read_jsonl(*args, **kwargs):
    return list(_read_jsonl(*args, **kwargs))


def read_conll(*args, **kwargs):
    return list(_read_conll(*args, **kwargs))


def load_corpus(gold, pred, fmt=None, **options):
    """The paired stream, read whole (for tests only)."""
    pairs = open_pairs(gold, pred, fmt, **options)
    read = list(pairs)
    return SimpleNamespace(pairs=read, n_docs=pairs.stats.documents, skipped=pairs.stats.skipped_names, unit=pairs.unit)


@pytest.fixture(scope="module")
def vocab():
    return Vocab()


def write(path, text, encoding="utf-8"):
    path.write_text(text, encoding=encoding)
    return path


def jsonl(*records):
    return "".join(json.dumps(r) + "\n" for r in records)


# --------------------------------------------------------------------------
# Format names
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,fmt",
    [("a.spacy", "spacy"), ("a.jsonl", "jsonl"), ("a.conll", "conll"), ("a.iob", "conll"),
     ("a.bio", "conll"), ("a.txt", "conll"), ("A.CSV", "kaggle")],
)
def test_infer_format_from_extension(name, fmt):
    assert infer_format(name) == fmt


def test_infer_format_explicit_wins():
    assert infer_format("a.data", "jsonl") == "jsonl"


@pytest.mark.parametrize("name,fmt", [("a.data", None), ("a", None), ("a.jsonl", "json")], ids=["ext", "none", "bad"])
def test_infer_format_unknown(name, fmt):
    with pytest.raises(UsageError, match="format"):
        infer_format(name, fmt)


# --------------------------------------------------------------------------
# JSONL
# --------------------------------------------------------------------------


def test_read_jsonl(tmp_path):
    path = write(
        tmp_path / "a.jsonl",
        jsonl(
            {"text": "Ann met Bob", "spans": [{"start": 8, "end": 11, "label": "PER"},
                                              {"start": 0, "end": 3, "label": "PER"},
                                              {"start": 0, "end": 3, "label": "PER"}]},
            {"text": "nothing", "spans": []},
        )
        + "\n"
        + jsonl({"text": "no annotation", "meta": {"x": 1}}),
    )
    docs = read_jsonl(path)
    assert [d.name for d in docs] == ["line 1", "line 2", "line 4"]
    assert docs[0].spans == [Span(0, 3, "PER"), Span(8, 11, "PER")]  # sorted, once
    assert docs[1].spans == []
    assert docs[2].spans is None  # no "spans": missing annotation


def test_read_jsonl_keeps_line_separators_inside_strings(tmp_path):
    text = "a\u2028b c"
    path = write(tmp_path / "a.jsonl", json.dumps({"text": text, "spans": []}, ensure_ascii=False) + "\n")
    assert read_jsonl(path)[0].text == text


@pytest.mark.parametrize(
    "line,message",
    [
        ('{"text": "abc", "spans": [}', r"a\.jsonl:2: invalid JSON"),
        ('["abc"]', r"a\.jsonl:2: expected a JSON object"),
        ('{"spans": []}', r'a\.jsonl:2: the record has no "text"'),
        ('{"text": "abc", "spans": {"start": 0}}', r'a\.jsonl:2: "spans" is a dict'),
        ('{"text": "abc", "spans": [{"start": 0, "end": 9, "label": "X"}]}', r"a\.jsonl:2: span 0 has start=0, end=9"),
        ('{"text": "abc", "spans": [{"start": 2, "end": 2, "label": "X"}]}', r"a\.jsonl:2: span 0 has start=2, end=2"),
        ('{"text": "abc", "spans": [{"start": 0, "end": 1}]}', r"a\.jsonl:2: span 0 lacks 'label'"),
        ('{"text": "abc", "spans": [{"start": "0", "end": 1, "label": "X"}]}', r"a\.jsonl:2: span 0 has non-integer"),
        ('{"text": "abc", "spans": [{"start": 0, "end": 1, "label": ""}]}', r"a\.jsonl:2: span 0 has the label ''"),
    ],
    ids=["json", "not-object", "no-text", "spans-not-list", "out-of-text", "empty", "no-label", "str-offset", "empty-label"],
)
def test_read_jsonl_errors_name_the_line(tmp_path, line, message):
    path = write(tmp_path / "a.jsonl", jsonl({"text": "ok", "spans": []}) + line + "\n")
    with pytest.raises(InputError, match=message):
        read_jsonl(path)


def test_read_text_not_utf8(tmp_path):
    path = tmp_path / "a.jsonl"
    path.write_bytes(b'{"text": "ok", "spans": []}\n{"text": "\xff"}\n')
    with pytest.raises(InputError, match=r"a\.jsonl:2: not UTF-8 text \(byte 0xff\)"):
        read_jsonl(path)


@pytest.mark.parametrize("chunk_bytes", [1, 5, 16, 1 << 20])
def test_line_blocks_split_lines_as_written(tmp_path, chunk_bytes):
    from spacy_spanf1.formats.base import read_line_blocks

    path = tmp_path / "a.txt"
    # A BOM, CRLF and LF endings, a blank line, a multi-byte character, a
    # line separator inside a line, and no newline at the end.
    path.write_bytes("\ufeffone\r\ntwo é\n\nthree\u2028x\r\nfour".encode("utf-8"))
    blocks = list(read_line_blocks(path, chunk_bytes))
    assert [item for block in blocks for item in block] == [
        (1, "one"), (2, "two é"), (3, ""), (4, "three\u2028x"), (5, "four")
    ]
    if chunk_bytes == 1:  # a block holds the whole lines read so far
        assert all(block for block in blocks)


def test_line_blocks_name_the_line_of_bad_utf8_in_a_later_block(tmp_path):
    from spacy_spanf1.formats.base import read_line_blocks

    path = tmp_path / "a.txt"
    path.write_bytes(b"a\nb\nc\nd\xff\ne\n")
    with pytest.raises(InputError, match=r"a\.txt:4: not UTF-8 text \(byte 0xff\)"):
        list(read_line_blocks(path, 4))


def test_bad_span_after_blank_lines_names_its_line(tmp_path):
    bad = {"text": "abc", "spans": [{"start": 0, "end": 1, "label": "X"}, {"start": 1, "end": 7, "label": "X"}]}
    path = write(tmp_path / "a.jsonl", "\n" + jsonl({"text": "ok", "spans": []}) + "\n  \n" + json.dumps(bad) + "\n")
    with pytest.raises(InputError, match=r"a\.jsonl:5: span 1 has start=1, end=7"):
        read_jsonl(path)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InputError, match="nope.jsonl: file not found"):
        read_jsonl(tmp_path / "nope.jsonl")
    (tmp_path / "d.jsonl").mkdir()
    with pytest.raises(InputError, match=r"d\.jsonl: not a file"):
        read_jsonl(tmp_path / "d.jsonl")


# --------------------------------------------------------------------------
# CoNLL
# --------------------------------------------------------------------------

CONLL = """-DOCSTART- -X- O O

Ann NNP B-PER
Lee NNP I-PER
met VBD O
Bob NNP S-PER

-DOCSTART- -X- O O
Rome NNP S-LOC
\t
Paris NNP B-LOC
"""


def test_read_conll_sentences_and_docstart(tmp_path):
    docs = read_conll(write(tmp_path / "a.conll", CONLL))
    assert [d.tokens for d in docs] == [["Ann", "Lee", "met", "Bob"], ["Rome"], ["Paris"]]
    assert [d.line for d in docs] == [3, 9, 11]
    # conll mode: S- starts a chunk of its own
    assert docs[0].spans == [Span(0, 2, "PER"), Span(3, 4, "PER")]
    assert docs[2].spans == [Span(0, 1, "LOC")]


def test_read_conll_tag_column_and_strict_mode(tmp_path):
    path = write(tmp_path / "a.conll", "Ann B-PER x\nLee E-PER x\nBob S-PER x\nmet O x\n")
    docs = read_conll(path, tag_column=1, tag_mode="strict", tag_scheme="IOBES")
    assert docs[0].spans == [Span(0, 2, "PER"), Span(2, 3, "PER")]


def test_read_conll_strict_mode_drops_broken_chunks(tmp_path):
    path = write(tmp_path / "a.conll", "Ann I-PER\nLee I-PER\nmet O\nBob B-PER\n")
    assert read_conll(path)[0].spans == [Span(0, 2, "PER"), Span(3, 4, "PER")]
    strict = read_conll(path, tag_mode="strict", tag_scheme="IOB2")
    assert strict[0].spans == [Span(3, 4, "PER")]


@pytest.mark.parametrize(
    "text,options,message",
    [
        ("Ann B-PER\nLee\n", {}, r"a\.conll:2: expected a token and a tag column"),
        ("Ann B-PER\nLee X-PER\n", {"tag_mode": "strict", "tag_scheme": "IOB2"}, r"a\.conll:2: Invalid tag 'X-PER'"),
        ("Ann B-PER\n\nLee B-PER\n", {"tag_column": 5}, r"a\.conll:1: the line has 2 columns; there is no tag column 5"),
    ],
    ids=["one-column", "bad-tag", "no-column"],
)
def test_read_conll_errors_name_the_line(tmp_path, text, options, message):
    with pytest.raises(InputError, match=message):
        read_conll(write(tmp_path / "a.conll", text), **options)


@pytest.mark.parametrize(
    "options,param",
    [({"tag_mode": "lenient"}, "tag_mode"), ({"tag_mode": "strict"}, "tag_scheme"),
     ({"tag_mode": "strict", "tag_scheme": "BIO"}, "tag_scheme"), ({"tag_scheme": "IOB2"}, "tag_scheme")],
    ids=["mode", "no-scheme", "bad-scheme", "scheme-without-strict"],
)
def test_read_conll_bad_options(tmp_path, options, param):
    with pytest.raises(UsageError) as info:
        read_conll(write(tmp_path / "a.conll", "a O\n"), **options)
    assert info.value.param == param


# --------------------------------------------------------------------------
# Kaggle CSV
# --------------------------------------------------------------------------


def test_read_kaggle(tmp_path):
    text = "\ufeffid,discourse_id,discourse_type,predictionstring\nB,1,Lead,0 1 2\nA,2,Claim,5 6\nB,3,Claim,4 3\nB,4,Lead,2 1 0\n"
    docs = read_kaggle(write(tmp_path / "a.csv", text))
    assert list(docs) == ["B", "A"]  # order of first appearance
    assert docs["B"].spans == [Span(0, 3, "Lead"), Span(3, 5, "Claim")]  # duplicate row once
    assert docs["A"].spans == [Span(5, 7, "Claim")]
    assert docs["A"].line == 3


@pytest.mark.parametrize(
    "text,message",
    [
        ("", r"a\.csv: empty file"),
        ("id,label,predictionstring\nA,X,1\n", r"a\.csv:1: the header has no column 'class' or 'discourse_type'"),
        ("id,class,predictionstring\nA,X,1\nA,X\n", r"a\.csv:3: the row has 2 fields, the header has 3"),
        ("id,class,predictionstring\nA,X,1 b 2\n", r"a\.csv:2: predictionstring holds 'b'"),
        ("id,class,predictionstring\nA,X,1 3\n", r"a\.csv:2: predictionstring '1 3' is not one contiguous run"),
        ("id,class,predictionstring\nA,X,\n", r"a\.csv:2: empty predictionstring"),
        ("id,class,predictionstring\nA,X,-1 0\n", r"a\.csv:2: predictionstring holds the negative word index -1"),
        ("id,class,predictionstring\n,X,1\n", r"a\.csv:2: empty id"),
        ('id,class,predictionstring\nA,"X,1\n', r"a\.csv:2: the row has 2 fields"),
    ],
    ids=["empty", "no-class", "fields", "index", "gap", "empty-ps", "negative", "empty-id", "open-quote"],
)
def test_read_kaggle_errors_name_the_line(tmp_path, text, message):
    with pytest.raises(InputError, match=message):
        read_kaggle(write(tmp_path / "a.csv", text))


# --------------------------------------------------------------------------
# Pairing
# --------------------------------------------------------------------------


def test_load_corpus_jsonl_skips_gold_without_spans(tmp_path):
    gold = write(tmp_path / "g.jsonl", jsonl(
        {"text": "Ann met Bob", "spans": [{"start": 0, "end": 3, "label": "PER"}]},
        {"text": "no annotation"},
    ))
    pred = write(tmp_path / "p.jsonl", jsonl(
        {"text": "Ann met Bob", "spans": [{"start": 8, "end": 11, "label": "PER"}]},
        {"text": "no annotation", "spans": [{"start": 0, "end": 2, "label": "X"}]},
    ))
    corpus = load_corpus(gold, pred)
    assert corpus.unit == "char" and corpus.n_docs == 2 and corpus.skipped == ["line 2"]
    assert [(p.gold, p.pred) for p in corpus.pairs] == [([Span(0, 3, "PER")], [Span(8, 11, "PER")])]
    assert corpus.pairs[0].span_text(Span(8, 11, "PER")) == "Bob"


def test_load_corpus_jsonl_text_mismatch(tmp_path):
    gold = write(tmp_path / "g.jsonl", jsonl({"text": "same", "spans": []}, {"text": "Ann met Bob", "spans": []}))
    pred = write(tmp_path / "p.jsonl", jsonl({"text": "same", "spans": []}, {"text": "Ann met Rob", "spans": []}))
    with pytest.raises(InputError, match=r"p\.jsonl:2: the text of record 2 differs from line 2 of .*g\.jsonl at character 8: gold 'Ann met Bob', predicted 'Ann met Rob'"):
        load_corpus(gold, pred)


def test_load_corpus_jsonl_token_unit(tmp_path):
    record = {"text": "New York's mayor", "tokens": ["New", "York", "'s", "mayor"],
              "spans": [{"start": 0, "end": 2, "label": "GPE"}, {"start": 0, "end": 4, "label": "PER"}]}
    prodigy = dict(record, tokens=[{"text": t, "start": s, "end": e, "id": i} for i, (t, s, e) in
                                   enumerate([("New", 0, 3), ("York", 4, 8), ("'s", 8, 10), ("mayor", 11, 16)])],
                   spans=[{"start": 3, "end": 4, "label": "PER"}])
    gold = write(tmp_path / "g.jsonl", jsonl(record))
    pred = write(tmp_path / "p.jsonl", jsonl(prodigy))
    corpus = load_corpus(gold, pred, unit="token")
    pair = corpus.pairs[0]
    assert corpus.unit == "token"
    assert pair.gold == [Span(0, 2, "GPE"), Span(0, 4, "PER")] and pair.pred == [Span(3, 4, "PER")]
    assert pair.offsets == [(0, 3), (4, 8), (8, 10), (11, 16)]
    assert pair.span_text(Span(0, 2, "GPE")) == "New York"
    # Without --unit token the same offsets are characters: "New York" would be "Ne".
    assert load_corpus(gold, pred).pairs[0].gold[0] == Span(0, 2, "GPE")
    other = write(tmp_path / "o.jsonl", jsonl(dict(record, tokens=["New", "York's", "mayor"], spans=[])))
    with pytest.raises(InputError, match=r"o\.jsonl:1: the tokens of record 1 differ .* at token 1: gold 'York' at characters 4-8, predicted \"York's\" at characters 4-10"):
        load_corpus(gold, other, unit="token")
    bad = write(tmp_path / "b.jsonl", jsonl({"text": "abc", "spans": []}))
    with pytest.raises(InputError, match=r'b\.jsonl:1: unit token needs a "tokens" list'):
        load_corpus(bad, bad, unit="token")
    wrong = write(tmp_path / "w.jsonl", jsonl({"text": "abc", "tokens": ["abc", "d"], "spans": []}))
    with pytest.raises(InputError, match=r"w\.jsonl:1: token 1 \('d'\) is not in the text after character 3"):
        load_corpus(wrong, wrong, unit="token")
    far = write(tmp_path / "f.jsonl", jsonl({"text": "a b", "tokens": ["a", "b"], "spans": [{"start": 1, "end": 3, "label": "X"}]}))
    with pytest.raises(InputError, match=r"f\.jsonl:1: span 0 has start=1, end=3; token offsets need 0 <= start < end <= 2"):
        load_corpus(far, far, unit="token")


def test_load_corpus_unequal_counts(tmp_path):
    gold = write(tmp_path / "g.jsonl", jsonl({"text": "a", "spans": []}, {"text": "b", "spans": []}))
    pred = write(tmp_path / "p.jsonl", jsonl({"text": "a", "spans": []}))
    with pytest.raises(InputError, match=r"unequal numbers of documents \(JSONL records\): 2 in .*g\.jsonl, 1 in .*p\.jsonl"):
        load_corpus(gold, pred)


def test_load_corpus_conll_token_mismatch(tmp_path):
    gold = write(tmp_path / "g.conll", "a O\nb O\n\nc O\nd B-X\ne O\n")
    pred = write(tmp_path / "p.conll", "a O\nb O\n\nc O\nD B-X\ne O\n")
    with pytest.raises(InputError, match=r"p\.conll:5: sentence 2 differs .* at token 1: gold has 'd', predicted has 'D'"):
        load_corpus(gold, pred)
    short = write(tmp_path / "s.conll", "a O\nb O\n\nc O\nd B-X\n")
    with pytest.raises(InputError, match=r"at token 2: gold has 'e', predicted has the end of the sentence"):
        load_corpus(gold, short)


def test_load_corpus_kaggle_ids_any_order(tmp_path):
    gold = write(tmp_path / "g.csv", "id,class,predictionstring\nA,X,0 1\nB,Y,3\n")
    pred = write(tmp_path / "p.csv", "id,class,predictionstring\nB,Y,3\nA,X,1\n")
    corpus = load_corpus(gold, pred)
    assert [p.name for p in corpus.pairs] == ["id 'A'", "id 'B'"]
    assert corpus.pairs[0].pred == [Span(1, 2, "X")]
    unknown = write(tmp_path / "u.csv", "id,class,predictionstring\nA,X,1\nC,Y,3\n")
    with pytest.raises(InputError, match=r"u\.csv:3: id 'C' is not in .*g\.csv"):
        load_corpus(gold, unknown)


def docbin(path, docs):
    DocBin(docs=docs).to_disk(path)
    return path


def test_load_corpus_spacy_aligns_tokenization(tmp_path, vocab):
    gold_doc = Doc(vocab, words=["New", "York", "is", "big"], spaces=[True, True, True, False], ents=["B-LOC", "I-LOC", "O", "O"])
    pred_doc = Doc(vocab, words=["New", "Yo", "rk", "is", "big"], spaces=[True, False, True, True, False],
                   ents=["B-LOC", "I-LOC", "I-LOC", "O", "O"])
    missing = Doc(vocab, words=["no", "annotation"])
    gold = docbin(tmp_path / "g.spacy", [gold_doc, missing])
    pred = docbin(tmp_path / "p.spacy", [pred_doc, Doc(vocab, words=["no", "annotation"])])
    corpus = load_corpus(gold, pred)
    assert corpus.unit == "token" and corpus.skipped == ["doc 1"]
    assert corpus.pairs[0].gold == corpus.pairs[0].pred == [Span(0, 2, "LOC")]
    chars = load_corpus(gold, pred, unit="char")
    assert chars.pairs[0].pred == [Span(0, 8, "LOC")]
    assert chars.pairs[0].span_text(Span(0, 8, "LOC")) == "New York"


def test_load_corpus_spacy_span_groups(tmp_path, vocab):
    def doc(spans, key="sc"):
        d = Doc(vocab, words=["Ann", "Lee", "met", "Bob"])
        if key:
            d.spans[key] = SpanGroup(d, spans=[SpacySpan(d, s, e, label=label) for s, e, label in spans])
        return d

    gold = docbin(tmp_path / "g.spacy", [doc([(0, 2, "PER"), (0, 1, "NAME")]), doc([], key=None)])
    pred = docbin(tmp_path / "p.spacy", [doc([(0, 1, "NAME"), (3, 4, "PER")]), doc([(0, 1, "X")])])
    corpus = load_corpus(gold, pred, spans_key="sc")
    assert corpus.skipped == ["doc 1"]
    assert corpus.pairs[0].gold == [Span(0, 1, "NAME"), Span(0, 2, "PER")]
    assert corpus.pairs[0].pred == [Span(0, 1, "NAME"), Span(3, 4, "PER")]


def test_load_corpus_spacy_text_mismatch_and_bad_file(tmp_path, vocab):
    gold = docbin(tmp_path / "g.spacy", [Doc(vocab, words=["a", "b"])])
    pred = docbin(tmp_path / "p.spacy", [Doc(vocab, words=["a", "c"])])
    with pytest.raises(InputError, match=r"p\.spacy: the text of doc 0 differs from doc 0 of .* at character 2: gold 'a b ', predicted 'a c '"):
        load_corpus(gold, pred)
    bad = write(tmp_path / "bad.spacy", "not a docbin")
    with pytest.raises(InputError, match=r"bad\.spacy: can't read it as a spaCy DocBin"):
        load_corpus(gold, bad)


@pytest.mark.parametrize(
    "names,options,param",
    [
        (("g.jsonl", "p.conll"), {}, "format"),
        (("g.conll", "p.conll"), {"unit": "char"}, "unit"),
        (("g.conll", "p.conll"), {"spans_key": "sc"}, "spans_key"),
        (("g.jsonl", "p.jsonl"), {"tag_mode": "strict"}, "tag_mode"),
        (("g.spacy", "p.spacy"), {"unit": "word"}, "unit"),
    ],
    ids=["formats-differ", "unit", "spans-key", "tag-option", "unknown-unit"],
)
def test_load_corpus_options_that_do_not_fit(tmp_path, names, options, param):
    with pytest.raises(UsageError) as info:
        load_corpus(tmp_path / names[0], tmp_path / names[1], **options)
    assert info.value.param == param


# --------------------------------------------------------------------------
# The registry, streaming, no silent zeros (library level)
# --------------------------------------------------------------------------

import weakref  # noqa: E402

import catalogue  # noqa: E402

from spacy_spanf1 import registry  # noqa: E402
from spacy_spanf1.app import compare_files, score_pairs  # noqa: E402
from spacy_spanf1.formats import Document, Format, get_format, pair_documents, PairStats  # noqa: E402


class GuardedFormat(Format):
    """Yields n documents per side; fails if a side is read twice, or if
    more than `limit` documents are alive at once (read all at once)."""

    name = "test-stream"
    units = ("char",)
    extensions = ()

    def __init__(self, n, limit=50):
        self.n = n
        self.limit = limit
        self.alive = 0
        self.peak = 0
        self.reads = set()

    def _released(self):
        self.alive -= 1

    def read(self, path, *, side, unit, **options):
        if side in self.reads:
            raise AssertionError(f"the {side} side was read twice")
        self.reads.add(side)
        for i in range(self.n):
            text = f"doc {i} Ann"
            spans = [Span(6 + len(str(i)) - 1, 9 + len(str(i)) - 1, "PER")] if side == "gold" or i % 2 else []
            doc = Document(f"doc {i}", spans, text)
            self.alive += 1
            self.peak = max(self.peak, self.alive)
            if self.alive > self.limit:
                raise AssertionError(f"{self.alive} documents alive at once")
            weakref.finalize(doc, self._released)
            yield doc


@pytest.fixture
def guarded():
    fmt = GuardedFormat(20_000)
    registry.formats.register("test-stream", func=fmt)
    yield fmt
    catalogue._remove(("spacy_spanf1", "formats", "test-stream"))


def test_compare_files_streams_a_registered_reader(guarded):
    assert get_format("test-stream") is guarded
    scores = compare_files("any", "any", schemes="strict", fmt="test-stream")
    assert scores.documents == 20_000 and scores.skipped == 0
    counts = scores.results["strict"].counts
    assert counts["cor"] == 10_000 and counts["mis"] == 10_000
    assert guarded.reads == {"gold", "pred"} and guarded.peak <= guarded.limit


def test_compare_files_keeps_only_documents_with_errors(guarded):
    scores = compare_files("any", "any", schemes="strict", fmt="test-stream", keep_errors=True)
    assert len(scores.pairs) == len(scores.errors) == 10_000  # the even documents miss their span
    assert all(pair.pred == [] for pair in scores.pairs.values())


def test_unknown_format_lists_the_registry():
    with pytest.raises(UsageError, match=r"Unknown format 'nope'. Valid formats: spacy, jsonl, conll, kaggle") as info:
        get_format("nope")
    assert info.value.param == "format"


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


def test_pairing_unequal_counts_name_both_counts():
    docs = lambda k: (Document(f"line {i}", [], "a") for i in range(k))  # noqa: E731
    with pytest.raises(InputError, match=r"unequal numbers of documents: 5 in gold, 3 in predicted"):
        list(pair_documents(docs(5), docs(3)))


def test_jsonl_spans_under_another_field(tmp_path):
    gold = write(tmp_path / "g.jsonl", jsonl({"text": "Ann", "spans": [{"start": 0, "end": 3, "label": "PER"}]}))
    pred = write(tmp_path / "p.jsonl", jsonl({"text": "Ann", "entities": [[0, 3, "PER"]]}))
    with pytest.raises(InputError, match=r"p\.jsonl:1: the record has no \"spans\" but has \"entities\".*'format' doccano"):
        compare_files(gold, pred, schemes="strict")


def test_every_gold_document_skipped_is_an_error(tmp_path):
    gold = write(tmp_path / "g.jsonl", jsonl({"text": "Ann"}, {"text": "Bob"}))
    with pytest.raises(InputError, match=r"every gold document of .*g\.jsonl \(2\) was skipped: none has annotation"):
        compare_files(gold, gold, schemes="strict")


def test_spans_key_no_gold_document_has(tmp_path, vocab):
    doc = Doc(vocab, words=["Ann", "met", "Bob"])
    doc.spans["sc"] = SpanGroup(doc, spans=[SpacySpan(doc, 0, 1, label="PER")])
    gold = docbin(tmp_path / "g.spacy", [doc])
    with pytest.raises(InputError, match=r"no gold document in .* has the span group 'ents'. Span keys found: sc") as info:
        compare_files(gold, gold, schemes="strict", spans_key="ents")
    assert info.value.setting == "spans_key"


def test_spans_batch_check_falls_back_to_the_precise_message():
    from spacy_spanf1.spans import check_spans, span_problem
    import numpy

    assert check_spans([0, numpy.int32(2)], [1, numpy.int64(3)], ["A", "B"], [3, 3]) is None
    assert check_spans([0, 2, 1], [1, 5, 2], ["A", "B", "C"], [3, 3, 3]) == 1
    assert check_spans([0, True], [1, 2], ["A", "B"]) == 1
    assert check_spans([0, 1.0], [1, 2], ["A", "B"]) == 1
    assert check_spans([0], [1], [""], empty_label=False) == 0
    assert "token offsets need 0 <= start < end <= 3" in span_problem(2, 5, "B", limit=3)


def conll_two_columns(tmp_path):
    rows = [("Ann", "B-PER", "B-PER"), ("Lee", "I-PER", "O"), ("met", "O", "O"), ("Bob", "B-PER", "B-LOC"),
            ("", "", ""), ("Rome", "B-LOC", "B-LOC"), ("is", "O", "B-X")]
    both = write(tmp_path / "both.conll", "\n".join(" ".join(r).strip() for r in rows) + "\n")
    gold = write(tmp_path / "gold.conll", "\n".join(f"{r[0]} {r[1]}".strip() for r in rows) + "\n")
    pred = write(tmp_path / "pred.conll", "\n".join(f"{r[0]} {r[2]}".strip() for r in rows) + "\n")
    return both, gold, pred


def test_conll_two_columns_gives_the_two_file_figures(tmp_path):
    both, gold, pred = conll_two_columns(tmp_path)
    schemes = "strict,exact,partial,type,iou,overlap"
    one = compare_files(both, schemes=schemes, gold_column=1, pred_column=2)
    two = compare_files(gold, pred, schemes=schemes)
    assert one.to_dict() == two.to_dict()
    assert one.results["strict"].counts == {"cor": 1, "inc": 2, "par": 0, "mis": 0, "spu": 1}
    negative = compare_files(both, schemes=schemes, gold_column=-2, pred_column=-1)
    assert negative.to_dict() == two.to_dict()
    with pytest.raises(UsageError) as info:
        compare_files(both, schemes="strict", gold_column=1)
    assert info.value.param == "pred_column"
    with pytest.raises(UsageError) as info:
        compare_files(both, schemes="strict")
    assert info.value.param == "pred_path"


# --------------------------------------------------------------------------
# The garbage collector while a stream is scored
# --------------------------------------------------------------------------


def test_cycles_made_while_a_stream_is_scored_are_collected():
    """score_pairs pauses the cyclic collector and collects itself: a
    reference cycle made for each document (as a reader or a pipeline may)
    is collected within FULL_COLLECTION batches, and the collector is
    enabled again after, also when the stream raises."""
    import gc
    import weakref
    from collections import deque

    from spacy_spanf1 import app
    from spacy_spanf1.formats import DocPair

    batch, n_docs = 16, 16 * app.FULL_COLLECTION * 5
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
    scores = app.score_pairs(pairs(), ["strict"], batch_size=batch)
    assert scores.documents == n_docs
    assert gc.isenabled()
    assert most <= batch * (app.FULL_COLLECTION + 2) + 1, most  # never more than FULL_COLLECTION batches of garbage
    assert len(alive) < n_docs

    def failing():
        yield DocPair(0, "doc 0", [], [], "a")
        raise InputError("bad", "x.jsonl", 2)

    with pytest.raises(InputError):
        app.score_pairs(failing(), ["strict"])
    assert gc.isenabled()
    gc.disable()
    try:
        app.score_pairs(pairs(), ["strict"], batch_size=batch)
        assert not gc.isenabled()  # a caller's choice is kept
    finally:
        gc.enable()
