"""What every reader shares (`spacy_spanf1.formats`): telling a format from
a file name, the registry of formats and the streaming of what a registered
reader yields, reading lines in blocks, and the checks of span offsets."""

import weakref

import catalogue
import pytest

import spacy_spanf1.formats.brat  # noqa: F401  (registers "brat")
import spacy_spanf1.formats.doccano  # noqa: F401
import spacy_spanf1.formats.labelstudio  # noqa: F401
import spacy_spanf1.formats.prodigy  # noqa: F401
import spacy_spanf1.formats.huggingface  # noqa: F401
from spacy_spanf1 import registry
from spacy_spanf1.api import compare_files
from spacy_spanf1.formats import Document, Format, InputError, SettingError, get_format, infer_format
from spacy_spanf1.spans import Span


# --------------------------------------------------------------------------
# Format names
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name,fmt",
    [("a.spacy", "spacy"), ("a.jsonl", "jsonl"), ("A.CSV", "kaggle")]
    + [(f"a.{extension}", "conll") for extension in ("conll", "iob", "bio", "txt")],
)
def test_infer_format_from_extension(name, fmt):
    assert infer_format(name) == fmt


def test_infer_format_explicit_wins():
    assert infer_format("a.data", "jsonl") == "jsonl"


@pytest.mark.parametrize("name,fmt", [("a.data", None), ("a", None), ("a.jsonl", "json")], ids=["ext", "none", "bad"])
def test_infer_format_unknown(name, fmt):
    with pytest.raises(SettingError, match="format"):
        infer_format(name, fmt)


# --------------------------------------------------------------------------
# Lines read in blocks
# --------------------------------------------------------------------------


@pytest.mark.parametrize("chunk_bytes", [1, 5, 16, 1 << 20])
def test_line_blocks_split_lines_as_written(tmp_path, chunk_bytes):
    from spacy_spanf1.formats.base import read_line_blocks

    path = tmp_path / "a.txt"
    # A BOM, CRLF and LF endings, a blank line, a multi-byte character, a
    # line separator inside a line, and no newline at the end.
    path.write_bytes("\ufeffone\r\ntwo é\n\nthree\u2028x\r\nfour".encode("utf-8"))
    blocks = list(read_line_blocks(path, chunk_bytes))
    assert [item for block in blocks for item in block] == [
        (1, "one"),
        (2, "two é"),
        (3, ""),
        (4, "three\u2028x"),
        (5, "four"),
    ]
    if chunk_bytes == 1:  # a block holds the whole lines read so far
        assert all(block for block in blocks)


def test_line_blocks_name_the_line_of_bad_utf8_in_a_later_block(tmp_path):
    from spacy_spanf1.formats.base import read_line_blocks

    path = tmp_path / "a.txt"
    path.write_bytes(b"a\nb\nc\nd\xff\ne\n")
    with pytest.raises(InputError, match=r"a\.txt:4: not UTF-8 text \(byte 0xff\)"):
        list(read_line_blocks(path, 4))


# --------------------------------------------------------------------------
# The registry, and streaming what a registered reader yields
# --------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["brat", "labelstudio", "doccano", "prodigy", "tags"])
def test_registered(name):
    fmt = registry.formats.get(name)
    assert fmt.name == name
    assert fmt.units[0] in ("char", "token")


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
    scores = compare_files("any", "any", schemes="strict", format="test-stream")
    assert scores.documents == 20_000 and scores.skipped == 0
    counts = scores.results["strict"].counts
    assert counts["cor"] == 10_000 and counts["mis"] == 10_000
    assert guarded.reads == {"gold", "pred"} and guarded.peak <= guarded.limit


def test_compare_files_keeps_only_documents_with_errors(guarded):
    scores = compare_files("any", "any", schemes="strict", format="test-stream", keep_errors=True)
    assert len(scores.pairs) == len(scores.errors) == 10_000  # the even documents miss their span
    assert all(pair.pred == [] for pair in scores.pairs.values())


def test_unknown_format_lists_the_registry():
    with pytest.raises(
        SettingError, match=r"Unknown format 'nope'. Valid formats: spacy, jsonl, conll, kaggle"
    ) as info:
        get_format("nope")
    assert info.value.setting == "format"


# --------------------------------------------------------------------------
# Span offsets, checked in batches
# --------------------------------------------------------------------------


def test_spans_batch_check_falls_back_to_the_precise_message():
    from spacy_spanf1.spans import check_spans, span_problem
    import numpy

    assert check_spans([0, numpy.int32(2)], [1, numpy.int64(3)], ["A", "B"], [3, 3]) is None
    assert check_spans([0, 2, 1], [1, 5, 2], ["A", "B", "C"], [3, 3, 3]) == 1
    assert check_spans([0, True], [1, 2], ["A", "B"]) == 1
    assert check_spans([0, 1.0], [1, 2], ["A", "B"]) == 1
    assert check_spans([0], [1], [""], empty_label=False) == 0
    assert "token offsets need 0 <= start < end <= 3" in span_problem(2, 5, "B", limit=3)
