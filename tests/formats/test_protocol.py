"""A format of another package, declared only through the reader protocol
(`formats.base.Format`): registered in `registry.formats`, it is read by
`compare_files` and `agree_files` as the built-in formats are, and what its
reader hands on as typed fields of its Documents (notes, counts) is summed
exactly, on any number of documents."""

import catalogue
import pytest

from spacy_spanf1 import registry
from spacy_spanf1 import agreement
from spacy_spanf1.api import agree_files, compare_files
from spacy_spanf1.exceptions import InputError
from spacy_spanf1.formats import Document, Format, Marks
from spacy_spanf1.model import EMPTY
from spacy_spanf1.formats.base import check_options, read_lines
from spacy_spanf1.notes import note
from spacy_spanf1.spans import Span


class TsvFormat(Format):
    """A row a document: `text<TAB>start end label;start end label...`.
    A label "O" is read and not scored (counted); a lowercase label is
    read upper-cased and noted."""

    name = "tsv-test"
    units = ("char",)
    extensions = (".tsvtest",)
    counted_as = "rows"

    def read(self, path, *, side, unit, **options):
        check_options(self, unit, options, side=side)
        for lineno, line in read_lines(path):
            yield self.document(lineno, line.split("\t"), str(path))

    def document(self, lineno, fields, source, **typed):
        text, cells = fields[0], fields[1] if len(fields) > 1 else ""
        spans, outside, lowered = [], 0, []
        for cell in filter(None, cells.split(";")):
            start, end, label = cell.split(" ")
            if label == "O":
                outside += 1
                continue
            if label != label.upper():
                lowered.append(f"row {lineno}")
            spans.append(Span(int(start), int(end), label.upper()))
        notes = {"lowercase_labels": note(len(lowered), lowered)} if lowered else {}
        counts = {"outside": outside} if outside else {}
        return Document(
            f"row {lineno}", sorted(set(spans)), text, line=lineno, source=source, notes=notes, counts=counts, **typed
        )


class NamedTsvFormat(TsvFormat):
    """`annotator<TAB>text<TAB>spans` a row: one file names its annotators."""

    name = "named-tsv-test"
    extensions = (".namedtsvtest",)
    names_annotators = True
    annotator_field = "annotator column"

    def read(self, path, *, side, unit, **options):
        check_options(self, unit, options, side=side)
        for lineno, line in read_lines(path):
            who, *fields = line.split("\t")
            yield self.document(lineno, fields, str(path), annotator=who or None)


@pytest.fixture
def tsv_formats():
    formats = {"tsv-test": TsvFormat(), "named-tsv-test": NamedTsvFormat()}
    for name, reader in formats.items():
        registry.formats.register(name, func=reader)
    yield formats
    for name in formats:
        catalogue._remove(("spacy_spanf1", "formats", name))


def write(path, rows):
    path.write_text("".join(row + "\n" for row in rows), encoding="utf-8")
    return path


GOLD = ["Ann met Bo\t0 3 PER;8 10 PER", "Cy left Oslo\t0 2 PER;8 12 LOC"]
PRED = ["Ann met Bo\t0 3 PER;8 10 loc", "Cy left Oslo\t0 2 O"]


def test_compare_files_reads_a_format_declared_through_the_protocol(tmp_path, tsv_formats):
    gold, pred = write(tmp_path / "g.tsvtest", GOLD), write(tmp_path / "p.tsvtest", PRED)
    scores = compare_files(gold, pred, schemes="strict")  # the format from the registered extension
    # row 1: (0, 3, PER) correct, (8, 10) PER as LOC incorrect; row 2: both missed (its
    # "O" is counted, not scored): precision 1/2, recall 1/4, F1 2 * 1/8 / (3/4) = 1/3
    result = scores.results["strict"]
    assert result.counts == {"cor": 1, "inc": 1, "par": 0, "mis": 2, "spu": 0}
    assert result.f1 == pytest.approx(1 / 3)
    assert scores.not_scored == {"pred": {"outside": 1}}
    assert scores.notes["pred"]["lowercase_labels"] == {"count": 1, "examples": ["row 1"]}
    assert "gold" not in scores.notes


def test_the_declared_name_of_its_documents_is_in_the_count_error(tmp_path, tsv_formats):
    gold, pred = write(tmp_path / "g.tsvtest", GOLD), write(tmp_path / "p.tsvtest", PRED[:1])
    with pytest.raises(InputError, match=r"unequal numbers of rows: 2 in .*g\.tsvtest, 1 in"):
        compare_files(gold, pred, schemes="strict")


ANNOTATORS = {
    "a": ["Ann met Bo\t0 3 PER;8 10 PER", "Cy left\t0 2 PER"],
    "b": ["Ann met Bo\t0 3 PER", "Cy left\t0 7 PER"],
}
SPANS = {"a": [[(0, 3, "PER"), (8, 10, "PER")], [(0, 2, "PER")]], "b": [[(0, 3, "PER")], [(0, 7, "PER")]]}


def test_agree_files_reads_one_file_per_annotator_of_a_registered_format(tmp_path, tsv_formats):
    paths = [write(tmp_path / f"{who}.tsvtest", rows) for who, rows in ANNOTATORS.items()]
    expected = agreement(SPANS, schemes=["strict"], unit="char", lengths=[10, 7])
    result = agree_files(paths, schemes=["strict"])
    assert result.annotators == ("a", "b")
    assert result.to_dict()["schemes"] == expected.to_dict()["schemes"]


def test_agree_files_asks_a_format_that_names_annotators(tmp_path, tsv_formats):
    rows = [f"{who}\t{row}" for who, mine in ANNOTATORS.items() for row in mine]
    path = write(tmp_path / "all.namedtsvtest", rows)
    expected = agreement(SPANS, schemes=["strict"], unit="char", lengths=[10, 7])
    result = agree_files([path], schemes=["strict"])
    assert result.annotators == ("a", "b")
    assert result.to_dict()["schemes"] == expected.to_dict()["schemes"]
    write(path, rows + ["\tDee\t0 3 PER"])
    with pytest.raises(InputError, match="row 5 has no annotator column: every record names its annotator"):
        agree_files([path], schemes=["strict"])


class ManyFormat(Format):
    """n documents made on the fly, each predicted one with a note and a
    count of its own (freed once paired: CPython reuses their addresses)."""

    name = "many-test"
    units = ("char",)

    def __init__(self, n, keyed):
        self.n = n
        self.keyed = keyed

    def read(self, path, *, side, unit, **options):
        for i in range(self.n):
            name = f"doc {i}"
            typed = {} if side == "gold" else {"notes": {"odd": note(1, [name])}, "counts": {"ignored_cells": 1}}
            yield Document(name, [Span(0, 3, "PER")], "Ann", key=f"k{i}" if self.keyed else None, **typed)


@pytest.mark.parametrize("keyed", [False, True], ids=["in-order", "by-key"])
def test_reader_notes_and_counts_exact_at_50000_documents(keyed):
    n = 50_000
    registry.formats.register("many-test", func=ManyFormat(n, keyed))
    try:
        scores = compare_files("any", "any", schemes="strict", format="many-test")
    finally:
        catalogue._remove(("spacy_spanf1", "formats", "many-test"))
    assert scores.notes["pred"]["odd"]["count"] == n
    assert scores.notes["pred"]["odd"]["examples"][:2] == ["doc 0", "doc 1"]
    assert scores.not_scored == {"pred": {"ignored_cells": n}}
    assert scores.results["strict"].counts["cor"] == n


def test_the_registry_holds_the_built_in_formats_from_its_first_read():
    # in a fresh interpreter: the registry alone, before anything imported spacy_spanf1.formats
    import subprocess
    import sys

    code = (
        "from spacy_spanf1 import registry; "
        "print(registry.formats.get('doccano').name, 'jsonl' in registry.formats, len(registry.formats.get_all()))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out[:2] == ["doccano", "True"] and int(out[2]) >= 12


def test_a_reader_makes_its_document_of_the_marks_it_read(tmp_path):
    span = Span(0, 3, "PER")
    marks = Marks([span], scores=[(span, 0.9)], links=[(span, "Q1")])
    doc = Document.of_marks("row 1", "Ann met Bo", marks, {"outside": 0, "rejected": 2}, tmp_path / "a.tsv", line=1)
    # the zero count is left out, no notes is the shared empty mapping, the path a string
    assert doc.counts == {"rejected": 2}
    assert doc.notes is EMPTY
    assert doc.source == str(tmp_path / "a.tsv")
    assert (doc.name, doc.spans, doc.text, doc.line, doc.meta) == ("row 1", [span], "Ann met Bo", 1, {})
    assert (doc.scores, doc.links, doc.relations, doc.fragments) == ([(span, 0.9)], [(span, "Q1")], None, None)
    assert Document.of_marks("row 2", "", Marks(None), {}, "a.tsv").counts is EMPTY
