"""The brat reader (`spacy_spanf1.formats.brat`): a file written by hand in
brat's standoff layout (NAME.txt and NAME.ann), read as the same data written as JSONL would be, and each
problem named with its file in a one-line error."""

import json

import pytest

import spacy_spanf1.formats.brat  # noqa: F401  (registers "brat")
from helpers import GOLD, PRED, TEXT, as_jsonl, counts, invoke, one_line, read, write
from spacy_spanf1.engine.counts import PRFCounts, SemEvalCounts
from spacy_spanf1.formats import InputError, SettingError
from spacy_spanf1.spans import Span


def brat_dir(tmp_path, docs, sub="brat"):
    folder = tmp_path / sub
    folder.mkdir()
    for name, (text, ann) in docs.items():
        write(folder / f"{name}.txt", text)
        write(folder / f"{name}.ann", ann)
    return folder


GOLD_ANN = "T1\tPER 0 12\tAda Lovelace\nT2\tPER 17 32\tCharles Babbage\nT3\tLOC 36 42\tLondon\n"


PRED_ANN = "T1\tPER 0 3\tAda\nT2\tORG 17 32\tCharles Babbage\nT3\tLOC 36 42\tLondon\n"


def test_brat_reads_standoff_like_jsonl(tmp_path):
    gold_dir = brat_dir(tmp_path, {"b": (TEXT, GOLD_ANN), "a": ("Paris.", "T1\tLOC 0 5\tParis\n")})
    write(gold_dir / "annotation.conf", "[entities]\nPER\nLOC\n")
    docs = read("brat", gold_dir)
    assert [d.key for d in docs] == ["a", "b"]
    assert docs[0].name == "file 'a.ann'"
    assert docs[1].spans == GOLD and docs[1].text == TEXT
    jsonl = as_jsonl(tmp_path, "g.jsonl", TEXT, GOLD)
    assert jsonl[0].spans == docs[1].spans and jsonl[0].text == docs[1].text
    pred_dir = brat_dir(tmp_path, {"b": (TEXT, PRED_ANN)}, "pred")
    pred = read("brat", pred_dir, side="pred")
    jsonl_pred = as_jsonl(tmp_path, "p.jsonl", TEXT, PRED)
    assert counts([docs[1].spans], [pred[0].spans]) == counts([jsonl[0].spans], [jsonl_pred[0].spans])
    found = counts([docs[1].spans], [pred[0].spans])
    assert found == {"strict": SemEvalCounts(cor=1, inc=2, par=0, mis=0, spu=0), "iou": PRFCounts(tp=1, fp=2, fn=2)}


def test_brat_line_break_fragments_merge_by_default(tmp_path):
    text = "New\nYork is big."
    folder = brat_dir(tmp_path, {"d": (text, "T1\tLOC 0 3;4 8\tNew York\n")})
    assert read("brat", folder)[0].spans == [Span(0, 8, "LOC")]
    assert read("brat", folder, fragments="split")[0].spans == [Span(0, 8, "LOC")]


def test_brat_crlf_counts_as_one_character_like_brat(tmp_path):
    text = "Hi.\r\nParis is big."
    folder = brat_dir(tmp_path, {"d": (text, "T1\tLOC 4 9\tParis\n")})
    doc = read("brat", folder)[0]
    assert doc.text == "Hi.\nParis is big." and doc.spans == [Span(4, 9, "LOC")]
    keep = brat_dir(tmp_path, {"d": (text, "T1\tLOC 5 10\tParis\n")}, "keep")
    doc = read("brat", keep, newlines="keep")[0]
    assert doc.text == text and doc.spans == [Span(5, 10, "LOC")]


def test_brat_bom_shifts_offsets(tmp_path):
    folder = tmp_path / "bom"
    folder.mkdir()
    (folder / "d.txt").write_bytes(b"\xef\xbb\xbfParis.")
    write(folder / "d.ann", "T1\tLOC 1 6\tParis\n")
    doc = read("brat", folder)[0]
    assert doc.text == "Paris." and doc.spans == [Span(0, 5, "LOC")]


DISCONTINUOUS = ("tea and coffee cups", "T1\tITEM 0 3;15 19\ttea cups\n")


@pytest.mark.parametrize(
    "fragments,spans",
    [("merge", [Span(0, 19, "ITEM")]), ("split", [Span(0, 3, "ITEM"), Span(15, 19, "ITEM")])],
)
def test_brat_discontinuous(tmp_path, fragments, spans):
    folder = brat_dir(tmp_path, {"d": DISCONTINUOUS})
    assert read("brat", folder, fragments=fragments)[0].spans == spans


@pytest.mark.parametrize("fragments", [None, "error"])
def test_brat_discontinuous_error_names_entity(tmp_path, fragments):
    folder = brat_dir(tmp_path, {"d": DISCONTINUOUS})
    with pytest.raises(InputError) as err:
        read("brat", folder, fragments=fragments)
    msg = one_line(err)
    assert "d.ann:1:" in msg and "entity T1" in msg and "discontinuous" in msg and "fragments=merge" in msg


def test_brat_bad_fragments_option(tmp_path):
    folder = brat_dir(tmp_path, {"d": DISCONTINUOUS})
    with pytest.raises(SettingError, match="Unknown fragments 'join' in 'fragments'. Valid: error, merge, split"):
        read("brat", folder, fragments="join")


def test_brat_other_annotations_counted_not_spans(tmp_path):
    ann = GOLD_ANN + (
        "R1\tKnows Arg1:T1 Arg2:T2\nR2\tIn Arg1:T2 Arg2:T3\nE1\tMeet:T2 Agent:T1\n"
        "A1\tNegated E1\nM2\tSpeculated E1\nN1\tReference T3 Wikipedia:123\tLondon\n"
        "#1\tAnnotatorNotes T1\tcheck\n*\tAlias T1 T2\n"
    )
    doc = read("brat", brat_dir(tmp_path, {"d": (TEXT, ann)}))[0]
    assert doc.spans == GOLD
    # relations are read (Arg1 the head, Arg2 the tail); a compare without a
    # relation scheme counts them as not scored
    by_id = dict(zip(["T1", "T2", "T3"], sorted(GOLD)))
    assert doc.relations == [(by_id["T1"], by_id["T2"], "Knows"), (by_id["T2"], by_id["T3"], "In")]
    assert doc.counts == {
        "events": 1,
        "attributes": 2,
        "notes": 1,
        "equivalences": 1,
    }
    # the normalization is T3's kb id (the link schemes read it), not counted
    assert [kb for _, kb in doc.links] == ["", "", "Wikipedia:123"]


def test_brat_no_counts_when_nothing_skipped(tmp_path):
    assert not read("brat", brat_dir(tmp_path, {"d": (TEXT, GOLD_ANN)}))[0].counts


def test_brat_text_mismatch_is_an_error_when_asked(tmp_path):
    folder = brat_dir(tmp_path, {"d": (TEXT, "T1\tPER 0 12\tAda Byron\n")})
    with pytest.raises(InputError) as err:
        read("brat", folder, text_mismatch="error")
    msg = one_line(err)
    assert "d.ann:1:" in msg and "entity T1" in msg and '"Ada Byron"' in msg and '"Ada Lovelace"' in msg


def test_brat_fragment_text_joined_with_space(tmp_path):
    folder = brat_dir(tmp_path, {"d": ("tea and coffee cups", "T1\tITEM 0 3;15 19\ttea  cups\n")})
    with pytest.raises(InputError, match="entity T1"):
        read("brat", folder, fragments="merge", text_mismatch="error")


@pytest.mark.parametrize("missing", ["txt", "ann"])
def test_brat_missing_pair_file(tmp_path, missing):
    folder = brat_dir(tmp_path, {"d": (TEXT, GOLD_ANN)})
    (folder / f"d.{missing}").unlink()
    with pytest.raises(InputError) as err:
        read("brat", folder)
    assert f"no 'd.{missing}'" in one_line(err) and str(folder) in one_line(err)


@pytest.mark.parametrize(
    "ann,problem",
    [
        ("T1\tPER 0\tAda\n", "malformed text-bound annotation"),
        ("T1\tPER zero 3\tAda\n", "malformed text-bound annotation"),
        ("T1\tPER 0 99\tAda\n", "0 <= start < end <= 43"),
        ("T1\tPER 3 3\t\n", "0 <= start < end"),
        ("X1\tfoo\n", "unknown annotation line"),
        ("T1\tPER 0 3\tAda\nT1\tPER 0 3\tAda\n", "defined twice"),
    ],
    ids=["no-end", "not-int", "past-text", "empty", "unknown-id", "duplicate"],
)
def test_brat_malformed_lines(tmp_path, ann, problem):
    folder = brat_dir(tmp_path, {"d": (TEXT, ann)})
    with pytest.raises(InputError) as err:
        read("brat", folder)
    assert problem in one_line(err) and "d.ann:" in one_line(err)


def test_brat_path_is_a_file(tmp_path):
    with pytest.raises(InputError, match="directory of NAME.txt and NAME.ann"):
        read("brat", write(tmp_path / "x.ann", GOLD_ANN))


# --------------------------------------------------------------------------
# Through the command line: what a reader counts but does not score is shown
# --------------------------------------------------------------------------


def test_compare_reads_brat_directories_and_shows_what_it_did_not_score(tmp_path):
    gold = brat_dir(tmp_path, {"doc1": (TEXT, GOLD_ANN + "R1\tKnows Arg1:T1 Arg2:T2\n")}, "gold")
    pred = brat_dir(tmp_path, {"doc1": (TEXT, "T1\tPER 0 3\tAda\nT2\tPER 17 32\tCharles Babbage\n")}, "pred")
    result = invoke(["compare", gold, pred, "-s", "strict", "-o", tmp_path / "scores.json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads((tmp_path / "scores.json").read_text())
    # Charles Babbage right; Ada for Ada Lovelace INC; London missed
    assert data["schemes"]["strict"]["counts"] == {"cor": 1, "inc": 1, "par": 0, "mis": 1, "spu": 0}
    assert data["not_scored"] == {"gold": {"relations": 1}}
    assert "Read but not scored (gold" in result.stdout and "relations 1" in result.stdout


def test_the_crlf_hint_names_the_flag_on_the_command_line(tmp_path):
    # The prediction counts the CRLF as two characters: its quoted text is found one further on.
    gold = brat_dir(tmp_path, {"a": ("A\r\nAnn ok", "T1\tPER 2 5\tAnn\n")}, "gold")
    pred = brat_dir(tmp_path, {"a": ("A\r\nAnn ok", "T1\tPER 3 6\tAnn\n")}, "pred")
    result = invoke(["compare", gold, pred, "--format", "brat", "--schemes", "strict"])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.stdout.splitlines() if "quote a text" in line)
    # The note's line said "pass newlines=keep": a setting, not the flag
    assert "if the offsets count CRLF as two characters, pass '--newlines' keep" in line
    assert "newlines=" not in line and "'newlines'" not in line
    kept = invoke(["compare", gold, pred, "--format", "brat", "--schemes", "strict", "--newlines", "keep"])
    assert kept.exit_code == 0 and "quote a text" not in kept.stdout, kept.output
