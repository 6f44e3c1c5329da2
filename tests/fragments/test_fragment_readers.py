"""Spans of several fragments read from files: brat `fragments="keep"` (as
brat writes them, fragments across a line break included) and the inline
format of the CADEC / ShARe experiments, scored through compare_files."""

from dataclasses import astuple

import pytest

from helpers import read, write
from spacy_spanf1 import compare_files, evaluate_spans
from spacy_spanf1.formats import InputError
from spacy_spanf1.spans import Span
from transcriptions.dai2020 import compute_on_corpus, inline_fragments, read_inline, write_inline

ALL = ["strict", "exact", "partial", "type", "iou", "overlap"]
TEXT = "Severe muscle\nand joint pain today."


def _brat(tmp_path, sub, ann, text=TEXT):
    folder = tmp_path / sub
    folder.mkdir()
    write(folder / "d.txt", text)
    write(folder / "d.ann", ann)
    return folder


def test_brat_keeps_fragments(tmp_path):
    # "muscle ... pain": muscle 7-13, pain 24-28 (after the line break);
    # "joint pain" 18-28 contiguous
    ann = "T1\tADR 7 13;24 28\tmuscle pain\nT2\tADR 18 28\tjoint pain\n"
    [doc] = read("brat", _brat(tmp_path, "g", ann), fragments="keep")
    assert doc.spans == [Span(7, 28, "ADR"), Span(18, 28, "ADR")]
    assert doc.fragments == [((7, 13), (24, 28)), None]
    # merge and split as before
    [merged] = read("brat", _brat(tmp_path, "m", ann), fragments="merge")
    assert merged.spans == [Span(7, 28, "ADR"), Span(18, 28, "ADR")] and merged.fragments is None


def test_brat_fragments_across_a_line_break_are_one(tmp_path):
    # brat writes an entity over a line break as two fragments; only
    # whitespace between them: one fragment, an ordinary span
    text = "Severe muscle\naches today."
    [doc] = read("brat", _brat(tmp_path, "g", "T1\tADR 7 13;14 19\tmuscle aches\n", text), fragments="keep")
    assert doc.spans == [Span(7, 19, "ADR")] and doc.fragments is None
    # a discontinuous entity one of whose fragments crosses a line break
    text = "joint and muscle\naches today"
    ann = "T1\tADR 0 5;17 22\tjoint aches\nT2\tADR 10 16;17 22\tmuscle aches\n"
    [doc] = read("brat", _brat(tmp_path, "h", ann, text), fragments="keep")
    assert doc.spans == [Span(0, 22, "ADR"), Span(10, 22, "ADR")]
    assert doc.fragments == [((0, 5), (17, 22)), None]


def test_brat_overlapping_fragments_are_an_error_when_kept(tmp_path):
    folder = _brat(tmp_path, "g", "T1\tADR 7 13;10 28\tx\n")
    with pytest.raises(InputError) as caught:
        read("brat", folder, fragments="keep")
    message = str(caught.value)
    assert "d.ann:1" in message and "entity T1" in message and "overlapping fragments 7 13 and 10 28" in message


def test_compare_files_scores_brat_fragments(tmp_path):
    gold = _brat(tmp_path, "g", "T1\tADR 7 13;24 28\tmuscle pain\nT2\tADR 18 28\tjoint pain\n")
    pred = _brat(tmp_path, "p", "T1\tADR 7 28\tmuscle and joint pain\n")
    scores = compare_files(gold, pred, schemes=ALL, fragments="keep")
    got = {scheme: astuple(result.totals) for scheme, result in scores.results.items()}
    # prediction: 21 positions 7..27; gold 1: 10 positions (7-13, 24-28),
    # all inside it; gold 2: 10 positions (18-28), all inside it.
    # SemEval: the prediction meets gold 1 first (INC / PAR / COR), gold 2 is missed
    assert got["strict"] == (0, 1, 0, 1, 0)
    assert got["partial"] == (0, 0, 1, 1, 0)
    assert got["type"] == (1, 0, 0, 1, 0)
    # iou: 10/21 < 0.5 for both: two FP (one per gold span), two FN
    assert got["iou"] == (0, 2, 2)
    # overlap: 10/10 of gold but 10/21 of the prediction: no candidate
    assert got["overlap"] == (0, 1, 2)
    # merged, the first gold span would be [7, 28): an exact match
    merged = compare_files(gold, pred, schemes=["strict"], fragments="merge")
    assert astuple(merged.results["strict"].totals) == (1, 0, 0, 1, 0)


GOLD_INLINE = "w0 w1 w2 w3 w4 w5 w6 w7\n0,1,4,5 ADR|7,7 ADR\n\nw0 w1 w2\n0,2 Drug\n\nw0 w1 w2 w3\n\n\n"
PRED_INLINE = "w0 w1 w2 w3 w4 w5 w6 w7\n0,5 ADR|7,7 ADR\n\nw0 w1 w2\n0,2 Drug\n\nw0 w1 w2 w3\n0,0 ADR\n\n"


def test_the_inline_format(tmp_path):
    write(tmp_path / "g.txt", GOLD_INLINE)
    docs = read("inline", tmp_path / "g.txt")
    assert [d.name for d in docs] == ["sentence 1", "sentence 2", "sentence 3"]
    assert docs[0].spans == [Span(0, 6, "ADR"), Span(7, 8, "ADR")]
    assert docs[0].fragments == [((0, 2), (4, 6)), None]
    assert docs[0].tokens == [f"w{k}" for k in range(8)]
    assert docs[1].fragments is None and docs[2].spans == []
    # touching fragments are one (as the experiments' reader joins them)
    write(tmp_path / "t.txt", "a b c d\n0,1,2,3 ADR\n\n")
    [doc] = read("inline", tmp_path / "t.txt")
    assert doc.spans == [Span(0, 4, "ADR")] and doc.fragments is None


def test_compare_files_on_the_inline_format_equals_dai_et_al(tmp_path):
    write(tmp_path / "g.txt", GOLD_INLINE)
    write(tmp_path / "p.txt", PRED_INLINE)
    scores = compare_files(tmp_path / "g.txt", tmp_path / "p.txt", format="inline", schemes=["strict"])
    _, gold = read_inline(GOLD_INLINE)
    _, pred = read_inline(PRED_INLINE)
    expected = compute_on_corpus(gold, pred)
    # tp 2 (7,7 ADR; 0,2 Drug), fp 2, fn 1: P 2/4, R 2/3
    assert expected["micro-precision"] == 0.5 and expected["micro-recall"] == 2 / 3
    assert scores.results["strict"].precision == expected["micro-precision"]
    assert scores.results["strict"].recall == expected["micro-recall"]


@pytest.mark.parametrize(
    "line,says",
    [
        ("0,1,1,2 ADR", "overlapping fragments"),
        ("0,9 ADR", "out of the text"),
        ("0,1,4 ADR", "odd number of indices"),
        ("3,1 ADR", "ends before it starts"),
        ("0,1ADR", "mention 1 is '0,1ADR'"),
    ],
)
def test_bad_inline_mentions_are_one_clear_line(tmp_path, line, says):
    write(tmp_path / "g.txt", f"a b c d e\n{line}\n\n")
    with pytest.raises(InputError) as caught:
        read("inline", tmp_path / "g.txt")
    message = str(caught.value)
    assert says in message and "g.txt:2" in message and "\n" not in message


def test_inline_files_through_the_transcription_helpers_agree():
    _, gold = read_inline(GOLD_INLINE)
    spans = [[dict(zip(("fragments", "label"), inline_fragments(m))) for m in s] for s in gold]
    assert write_inline(["x"], [["0,1 A"]]) == "x\n0,1 A\n\n"
    result = evaluate_spans(spans, spans, schemes=["strict"])["strict"]
    assert result.f1 == 1.0


def test_jsonl_spans_with_fragments(tmp_path):
    import json

    text = "Severe muscle and joint pain today."
    record = {
        "text": text,
        "spans": [
            {"fragments": [[24, 28], [7, 13]], "label": "ADR"},
            {"start": 18, "end": 28, "label": "ADR"},
            {"fragments": [[0, 3], [3, 6]], "label": "X"},  # touching: one
        ],
    }
    write(tmp_path / "g.jsonl", json.dumps(record) + "\n")
    [doc] = read("jsonl", tmp_path / "g.jsonl")
    assert doc.spans == [Span(0, 6, "X"), Span(7, 28, "ADR"), Span(18, 28, "ADR")]
    assert doc.fragments == [None, ((7, 13), (24, 28)), None]
    pred = {"text": text, "spans": [{"start": 7, "end": 28, "label": "ADR"}]}
    write(tmp_path / "p.jsonl", json.dumps(pred) + "\n")
    strict = compare_files(tmp_path / "g.jsonl", tmp_path / "p.jsonl", schemes=["strict"]).results["strict"]
    assert astuple(strict.totals) == (0, 1, 0, 2, 0)  # [7, 28) is not "muscle ... pain"
    record["spans"] = [{"fragments": [[7, 13], [30, 40]], "label": "ADR"}]
    write(tmp_path / "bad.jsonl", json.dumps(record) + "\n")
    with pytest.raises(InputError, match=r"bad.jsonl:1.*fragment \[30, 40\] out of the text"):
        read("jsonl", tmp_path / "bad.jsonl")


def test_compare_files_views_and_the_command_line_side_by_side(tmp_path):
    import json

    from helpers import invoke

    write(tmp_path / "g.txt", GOLD_INLINE)
    write(tmp_path / "p.txt", PRED_INLINE)
    gold, pred = tmp_path / "g.txt", tmp_path / "p.txt"
    # sentence 1 alone has a discontinuous gold mention: {0,1,4,5} ADR
    # (predicted as 0-5: wrong) and 7,7 ADR (right): P = R = 1/2
    docs = compare_files(gold, pred, format="inline", schemes=["strict"], view="disc_docs").results["strict"]
    assert (docs.precision, docs.recall) == (0.5, 0.5)
    # no discontinuous prediction, one discontinuous gold mention: FN 1
    with pytest.warns(UserWarning, match="no predicted span in the view disc_mentions"):
        mentions = compare_files(gold, pred, format="inline", schemes=["strict"], view="disc_mentions")
    assert astuple(mentions.results["strict"].totals) == (0, 0, 0, 1, 0)
    out = tmp_path / "views.json"
    views = "all,disc_docs,disc_mentions"
    result = invoke(["compare", gold, pred, "--format", "inline", "--schemes", "strict", "--view", views, "-o", out])
    assert result.exit_code == 0, result.output
    assert "disc_docs F" in result.output and "disc_mentions P" in result.output
    written = json.loads(out.read_text())
    assert list(written) == ["all", "disc_docs", "disc_mentions"]
    assert written["disc_docs"]["schemes"]["strict"]["p"] == 0.5
    assert written["disc_docs"]["signature"]["match"]["view"] == "disc_docs"


def test_error_records_and_the_html_page_show_the_fragments(tmp_path):
    import srsly

    from spacy_spanf1.report import error_lines, error_records

    gold = _brat(tmp_path, "g", "T1\tADR 7 13;24 28\tmuscle pain\nT2\tADR 18 28\tjoint pain\n")
    pred = _brat(tmp_path, "p", "T1\tADR 7 28\tmuscle and joint pain\n")
    scores = compare_files(gold, pred, schemes=["strict"], fragments="keep", keep_errors=True)
    records = error_records(scores.errors, scores.pairs, "strict")
    first = records[0]
    assert first["kind"] == "wrong_boundaries"
    assert first["gold"] == {
        "start": 7,
        "end": 28,
        "label": "ADR",
        "text": "muscle pain",  # the fragments' texts, joined by a space as brat joins them
        "fragments": ((7, 13), (24, 28)),
    }
    assert first["pred"] == [{"start": 7, "end": 28, "label": "ADR", "text": "muscle\nand joint pain"}]
    assert first["iou"] == 10 / 21
    lines = error_lines(scores.errors, scores.pairs, "strict")
    assert lines == [srsly.json_dumps(record) for record in records]
    from helpers import invoke

    page, errors = tmp_path / "page.html", tmp_path / "errors.jsonl"
    flags = ["--fragments", "keep", "--html", page, "--errors", errors]
    result = invoke(["compare", gold, pred, "--schemes", "strict", *flags])
    assert result.exit_code == 0, result.output
    html = page.read_text(encoding="utf-8")
    # the gold panel marks "muscle" and "pain" apart, not the text between them
    gold_panel = html.split('<div class="panel gold">', 1)[1].split("</div>", 1)[0]
    assert ">muscle</span>\nand " in gold_panel
    assert errors.read_text(encoding="utf-8").splitlines() == lines
