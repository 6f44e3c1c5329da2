"""The command line: every command run as a subprocess on small files made
here (figures printed, files written), and the bad-input cases, each run
in-process (typer's CliRunner, fast) and a sample of them as subprocesses
too, checking the exit status, the message and that no traceback appears.

Subprocesses are slow to start (spaCy, numpy), so each group of them runs
at once, on a few threads, in a module fixture; the tests check the results.
"""

import json
import random
import shutil
from pathlib import Path

import pytest
import spacy
from spacy.tokens import Doc, DocBin, SpanGroup
from spacy.tokens import Span as SpacySpan

from helpers import COMPARE_JSONL, assert_clean_failure, char_offsets, figures, invoke, run, run_many, write_jsonl
from spacy_spanf1.cli import evaluate_model
from transcriptions.tags import iob2


# --------------------------------------------------------------------------
# One corpus, four formats
# --------------------------------------------------------------------------

# (words, gold spans, predicted spans), token offsets, end exclusive.
CORPUS = [
    (["Barack", "Obama", "visited", "Paris", "."], [(0, 2, "PER"), (3, 4, "LOC")], [(1, 2, "PER"), (3, 4, "LOC")]),
    (
        ["Apple", "hired", "Tim", "Cook", "in", "New", "York"],
        [(0, 1, "ORG"), (2, 4, "PER"), (5, 7, "LOC")],
        [(0, 1, "LOC"), (1, 2, "ORG"), (2, 4, "PER"), (5, 7, "LOC")],
    ),
    (["Ms", "Smith", "left"], [(1, 2, "PER")], []),
    (["Paris", "London", "Rome"], [(0, 1, "LOC"), (1, 2, "LOC"), (2, 3, "LOC")], [(0, 2, "LOC"), (2, 3, "LOC")]),
]
# strict: COR 4 (LOC, PER, LOC, Rome), INC 3, MIS 2, SPU 1 -> P 4/8, R 4/9
STRICT_COUNTS = {"cor": 4, "inc": 3, "par": 0, "mis": 2, "spu": 1}


def write_corpus_jsonl(path, side):
    records = []
    for words, *spans in CORPUS:
        offsets = char_offsets(words)
        records.append(
            {
                "text": " ".join(words),
                "spans": [
                    {"start": offsets[s][0], "end": offsets[e - 1][1], "label": label} for s, e, label in spans[side]
                ],
            }
        )
    write_jsonl(path, records)


def write_conll(path, side):
    lines = ["-DOCSTART- O", ""]
    for words, *spans in CORPUS:
        lines += [f"{w}\t{t}" for w, t in zip(words, iob2(len(words), spans[side]))] + [""]
    path.write_text("\n".join(lines), encoding="utf-8")


def write_kaggle(path, side):
    rows = [
        f"doc{i},{label},{' '.join(str(k) for k in range(start, end))}"
        for i, (words, *spans) in enumerate(CORPUS)
        for start, end, label in spans[side]
    ]
    if side == 1:
        random.Random(0).shuffle(rows)  # ids in any order
    path.write_text("id,class,predictionstring\n" + "\n".join(rows) + "\n", encoding="utf-8")


def make_doc(vocab, words, spans):
    return Doc(vocab, words=words, spaces=[True] * (len(words) - 1) + [False], ents=iob2(len(words), spans))


def write_spacy(path, side):
    vocab = spacy.blank("en").vocab
    DocBin(docs=[make_doc(vocab, words, spans[side]) for words, *spans in CORPUS]).to_disk(path)


WRITERS = {
    "spacy": (write_spacy, "spacy"),
    "jsonl": (write_corpus_jsonl, "jsonl"),
    "conll": (write_conll, "conll"),
    "kaggle": (write_kaggle, "csv"),
}


@pytest.fixture(scope="module")
def corpus_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    for writer, ext in WRITERS.values():
        writer(root / f"gold.{ext}", 0)
        writer(root / f"pred.{ext}", 1)
    return root


@pytest.fixture(scope="module")
def round_trip(corpus_dir):
    jobs = {
        fmt: (
            [
                "compare",
                f"gold.{ext}",
                f"pred.{ext}",
                "--schemes",
                "strict,exact,partial,type,overlap",
                "--output",
                f"scores-{fmt}.json",
            ],
            {},
        )
        for fmt, (_, ext) in WRITERS.items()
    }
    return run_many(jobs, corpus_dir)


@pytest.mark.parametrize("fmt", list(WRITERS))
def test_compare_each_format(round_trip, corpus_dir, fmt):
    result = round_trip[fmt]
    assert result.returncode == 0, result.stderr
    data = json.loads((corpus_dir / f"scores-{fmt}.json").read_text())
    assert set(data) >= {"schemes", "documents", "skipped"}
    assert data["documents"] == 4 and data["skipped"] == 0
    strict = data["schemes"]["strict"]
    assert strict["counts"] == STRICT_COUNTS
    assert strict["p"] == pytest.approx(0.5) and strict["r"] == pytest.approx(4 / 9)
    assert set(strict) == {"p", "r", "f", "macro_f", "counts", "per_type", "confusion"}
    assert set(strict["per_type"]) == {"LOC", "ORG", "PER"}
    assert set(strict["per_type"]["LOC"]) == {"p", "r", "f"}
    # printed: a row per scheme with P, R, F as percentages, and the counts
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines() if line.strip()}
    assert rows["strict"][1:4] == ["50.00", "44.44", "47.06"]
    assert "COR 4  INC 3  PAR 0  MIS 2  SPU 1" in result.stdout
    assert "strict (per type)" in result.stdout
    assert {"exact", "partial", "type", "overlap"} <= set(rows)


def test_formats_round_trip_to_the_same_figures(round_trip, corpus_dir):
    scores = {fmt: json.loads((corpus_dir / f"scores-{fmt}.json").read_text()) for fmt in WRITERS}
    # Token and char unit agree wherever only boundaries (not lengths) count.
    for scheme in ("strict", "exact", "partial", "type"):
        figures = {fmt: data["schemes"][scheme] for fmt, data in scores.items()}
        assert all(f == figures["spacy"] for f in figures.values()), (scheme, figures)
    assert scores["kaggle"]["schemes"]["overlap"] == scores["conll"]["schemes"]["overlap"]


def test_compare_kaggle_prints_the_official_score(round_trip, corpus_dir):
    data = json.loads((corpus_dir / "scores-kaggle.json").read_text())
    per_type = data["schemes"]["overlap"]["per_type"]
    expected = sum(per_type[c]["f"] for c in ("LOC", "ORG", "PER")) / 3
    assert data["official_score"] == pytest.approx(expected, abs=1e-9)
    assert f"mean F1 of the 3 gold classes): {expected:.4f}" in round_trip["kaggle"].stdout
    assert "official_score" not in json.loads((corpus_dir / "scores-jsonl.json").read_text())


# --------------------------------------------------------------------------
# compare: error report, labels, tag options
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def report_run(corpus_dir):
    args = ["compare", "gold.jsonl", "pred.jsonl", "-s", "iou,strict", "--errors", "out/errors.jsonl"]
    args += ["--html", "out/report.html", "-o", "out/scores.json"]
    return run(args, corpus_dir)


def test_compare_writes_errors_and_html(report_run, corpus_dir):
    assert report_run.returncode == 0, report_run.stderr
    records = [json.loads(line) for line in (corpus_dir / "out/errors.jsonl").read_text().splitlines()]
    assert {r["kind"] for r in records} <= {"missed", "spurious", "wrong_type", "wrong_boundaries", "low_overlap"}
    first = records[0]
    assert set(first) == {
        "doc",
        "name",
        "scheme",
        "kind",
        "count",
        "gold",
        "pred",
        "iou",
        "gold_coverage",
        "pred_coverage",
    }
    assert {r["scheme"] for r in records} == {"iou"}
    # "Barack Obama" (PER) predicted as "Obama" (PER): IoU 5/12 < 0.5
    assert first["doc"] == 0 and first["kind"] == "wrong_boundaries"
    assert first["gold"] == {"start": 0, "end": 12, "label": "PER", "text": "Barack Obama"}
    assert first["pred"] == [{"start": 7, "end": 12, "label": "PER", "text": "Obama"}]
    assert first["iou"] == pytest.approx(5 / 12)
    by_kind = {(r["doc"], r["kind"]): r for r in records}
    assert by_kind[(1, "wrong_type")]["gold"]["text"] == "Apple"
    assert by_kind[(1, "spurious")]["pred"][0]["text"] == "hired"
    assert by_kind[(2, "missed")]["gold"]["text"] == "Smith"
    data = json.loads((corpus_dir / "out/scores.json").read_text())
    assert list(data["schemes"]) == ["iou", "strict"]
    assert "iou (per type)" in report_run.stdout  # the first scheme is primary
    page = (corpus_dir / "out/report.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and 'id="doc-0"' in page
    assert "Saved HTML report" in report_run.stdout


def test_compare_errors_are_the_primary_schemes(corpus_dir):
    args = [
        *COMPARE_JSONL,
        "--errors",
        "out/strict-errors.jsonl",
        "-o",
        "out/strict-scores.json",
    ]
    result = run(args, corpus_dir)
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in (corpus_dir / "out/strict-errors.jsonl").read_text().splitlines()]
    counts = json.loads((corpus_dir / "out/strict-scores.json").read_text())["schemes"]["strict"]["counts"]
    assert {r["scheme"] for r in records} == {"strict"}
    assert len(records) == counts["inc"] + counts["mis"] + counts["spu"] > 0
    assert sorted(r["count"] for r in records) == sorted(
        ["inc"] * counts["inc"] + ["mis"] * counts["mis"] + ["spu"] * counts["spu"]
    )


def test_compare_labels_filter(corpus_dir, monkeypatch):
    monkeypatch.chdir(corpus_dir)
    result = invoke(["compare", "gold.conll", "pred.conll", "-s", "strict", "--labels", "LOC,ORG", "-o", "labels.json"])
    assert result.exit_code == 0, result.stderr
    data = json.loads((corpus_dir / "labels.json").read_text())
    assert set(data["schemes"]["strict"]["per_type"]) == {"LOC", "ORG"}
    counts = data["schemes"]["strict"]["counts"]
    assert counts["cor"] + counts["inc"] + counts["par"] + counts["mis"] == 6  # gold: 5 LOC, 1 ORG


def test_compare_tag_mode_and_column(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    # Three columns (token, POS, tag); a chunk that starts with I- is dropped in strict mode.
    (tmp_path / "gold.iob").write_text("Ann X B-PER\nLee X I-PER\nmet X O\nBob X B-PER\n", encoding="utf-8")
    (tmp_path / "pred.iob").write_text("Ann X I-PER\nLee X I-PER\nmet X O\nBob X B-PER\n", encoding="utf-8")
    lenient = invoke(["compare", "gold.iob", "pred.iob", "-s", "strict", "--tag-column", "2", "-o", "l.json"])
    strict = invoke(
        [
            "compare",
            "gold.iob",
            "pred.iob",
            "-s",
            "strict",
            "--tag-mode",
            "strict",
            "--tag-scheme",
            "IOB2",
            "-o",
            "s.json",
        ]
    )
    assert lenient.exit_code == strict.exit_code == 0, lenient.stderr + strict.stderr
    lenient = json.loads((tmp_path / "l.json").read_text())["schemes"]["strict"]
    strict = json.loads((tmp_path / "s.json").read_text())["schemes"]["strict"]
    assert lenient["p"] == 1.0 and lenient["r"] == 1.0  # I-PER I-PER read as one chunk
    assert strict["p"] == 1.0 and strict["r"] == 0.5  # the I- chunk is dropped


def test_compare_silent_prints_nothing(corpus_dir, monkeypatch):
    monkeypatch.chdir(corpus_dir)
    result = invoke(["compare", "gold.conll", "pred.conll", "-s", "strict", "--silent", "-f", "conll"])
    assert result.exit_code == 0 and result.stdout == ""


# --------------------------------------------------------------------------
# evaluate
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def evaluate_dir(tmp_path_factory):
    root = tmp_path_factory.mktemp("evaluate")
    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns(
        [
            {"label": "PER", "pattern": "Obama"},
            {"label": "LOC", "pattern": "Paris"},
            {"label": "ORG", "pattern": "Apple"},
        ]
    )
    nlp.to_disk(root / "ner_model")
    spans_nlp = spacy.blank("en")
    spans_nlp.add_pipe("span_ruler", config={"spans_key": "sc"}).add_patterns(
        [
            {"label": "PER", "pattern": [{"LOWER": "barack"}, {"LOWER": "obama"}]},
            {"label": "PER", "pattern": "Obama"},
            {"label": "CITY", "pattern": "Paris"},
        ]
    )
    spans_nlp.to_disk(root / "spans_model")
    ref = spacy.blank("en")
    docs = []
    for text, ents in [
        ("Barack Obama visited Paris.", [(0, 12, "PER"), (21, 26, "LOC")]),
        ("Apple hired Tim Cook.", [(0, 5, "ORG"), (12, 20, "PER")]),
        ("This one has no annotation.", None),
    ]:
        doc = ref(text)
        if ents is not None:
            doc.ents = [doc.char_span(s, e, label=label) for s, e, label in ents]
            extra = [SpacySpan(doc, 1, 2, label="PER")] if text.startswith("Barack") else []
            doc.spans["sc"] = SpanGroup(doc, spans=list(doc.ents) + extra)
        docs.append(doc)
    DocBin(docs=docs).to_disk(root / "dev.spacy")
    return root


@pytest.fixture(scope="module")
def evaluate_run(evaluate_dir):
    args = ["evaluate", "ner_model", "dev.spacy", "--schemes", "strict,iou", "--n-process", "2"]
    args += ["--output", "ents.json", "--errors", "ents.jsonl", "--html", "ents.html"]
    return run(args, evaluate_dir)


@pytest.mark.slow  # `evaluate --n-process 2` runs the pipeline in two worker processes (about 4 s)
def test_evaluate_ents(evaluate_run, evaluate_dir):
    root, result = evaluate_dir, evaluate_run
    assert result.returncode == 0, result.stderr
    data = json.loads((root / "ents.json").read_text())
    assert data["documents"] == 3 and data["skipped"] == 1
    strict = data["schemes"]["strict"]
    # Obama (INC for Barack Obama), Paris and Apple right, Tim Cook missed
    assert strict["counts"] == {"cor": 2, "inc": 1, "par": 0, "mis": 1, "spu": 0}
    assert data["schemes"]["iou"]["counts"] == {"tp": 3, "fp": 0, "fn": 1}
    rows = {line.split()[0]: line.split() for line in result.stdout.splitlines() if line.strip()}
    assert rows["strict"][1:4] == ["66.67", "50.00", "57.14"]
    assert "skipped: 1" in result.stdout and "without annotation were skipped: doc 2" in result.stdout
    assert "Running pipeline" not in result.stderr  # no progress bar: stderr is not a terminal
    records = [json.loads(line) for line in (root / "ents.jsonl").read_text().splitlines()]
    # The errors of the primary scheme, strict: INC + MIS records.
    assert [(r["doc"], r["count"], r["kind"], r["gold"]["text"]) for r in records] == [
        (0, "inc", "wrong_boundaries", "Barack Obama"),
        (1, "mis", "missed", "Tim Cook"),
    ]
    assert (root / "ents.html").read_text(encoding="utf-8").count('class="doc"') == 2


def test_no_progress_bar_when_stderr_is_not_a_terminal(evaluate_dir):
    # a log file or a pipe would fill with the bar's redrawn fragments
    result = run(["evaluate", "ner_model", "dev.spacy", "--schemes", "strict"], evaluate_dir)
    assert result.returncode == 0, result.stderr
    for fragment in ("\r", "it/s", "doc/s", "Running pipeline"):
        assert fragment not in result.stderr, f"{fragment!r} on stderr: {result.stderr[-500:]!r}"


def test_a_progress_bar_when_stderr_is_a_terminal(evaluate_dir):
    import fcntl
    import os
    import pty
    import struct
    import subprocess
    import sys
    import termios

    from helpers import cli_env

    terminal, stderr = pty.openpty()
    fcntl.ioctl(stderr, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))  # 80 columns: room for the bar
    process = subprocess.Popen(
        [sys.executable, "-m", "spacy_spanf1", "evaluate", "ner_model", "dev.spacy", "-s", "strict"],
        cwd=evaluate_dir,
        stdout=subprocess.PIPE,
        stderr=stderr,
        env=cli_env(),
    )
    os.close(stderr)
    shown = b""
    while True:
        try:
            chunk = os.read(terminal, 4096)
        except OSError:  # the process closed the terminal
            break
        if not chunk:
            break
        shown += chunk
    process.communicate(timeout=300)
    os.close(terminal)
    assert process.returncode == 0
    assert b"Running pipeline" in shown


def test_evaluate_span_group_in_char_unit(evaluate_dir):
    data = evaluate_model(
        str(evaluate_dir / "spans_model"),
        evaluate_dir / "dev.spacy",
        schemes="strict,exact",
        spans_key="sc",
        unit="char",
        silent=True,
    )
    assert data["documents"] == 3 and data["skipped"] == 1
    # gold: Barack Obama PER, Obama PER, Paris LOC, Apple ORG, Tim Cook PER
    # pred: Barack Obama PER, Obama PER, Paris CITY
    assert data["schemes"]["strict"]["counts"] == {"cor": 2, "inc": 1, "par": 0, "mis": 2, "spu": 0}
    assert data["schemes"]["exact"]["counts"] == {"cor": 3, "inc": 0, "par": 0, "mis": 2, "spu": 0}


# --------------------------------------------------------------------------
# prf
# --------------------------------------------------------------------------

PRF_EXAMPLE = ("3 0 1 PER 4 6 LOC 8 8 ORG 2 0 1 PER 4 6 LOC", "0.6667 1.0 0.8")
PRF_CASES = {
    "example": PRF_EXAMPLE,
    "lines": ("3\n0 1 PER\n4 6 LOC\n8 8 ORG\n2\n0 1 PER\n4 6 LOC\n", "0.6667 1.0 0.8"),
    "no-predictions": ("0\n2\n0 1 PER\n4 6 LOC\n", "0.0 0.0 0.0"),
    "no-gold": ("1\n0 1 PER\n0\n", "0.0 0.0 0.0"),
    "both-empty": ("0\n0\n", "0.0 0.0 0.0"),
    "type-counts": ("2 0 1 PER 3 3 LOC 2 0 1 LOC 3 3 LOC", "0.5 0.5 0.5"),
    "inclusive-ends": ("1 2 2 X 1 2 3 X", "0.0 0.0 0.0"),
    "recall-third": ("1 0 0 A 3 0 0 A 1 1 B 2 2 C", "1.0 0.3333 0.5"),
}


@pytest.fixture(scope="module")
def prf_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("prf")
    jobs = {
        "module": (["prf"], {"stdin": PRF_EXAMPLE[0]}),
        "console-script": (["prf"], {"stdin": PRF_EXAMPLE[0], "console_script": True}),
    }
    return run_many(jobs, root)


@pytest.mark.parametrize("name", ["module", "console-script"])
def test_prf_subprocess(prf_runs, name):
    assert prf_runs[name].returncode == 0, prf_runs[name].stderr
    assert prf_runs[name].stdout == PRF_EXAMPLE[1] + "\n"


@pytest.mark.parametrize("name", list(PRF_CASES))
def test_prf(name):
    stdin, expected = PRF_CASES[name]
    result = invoke(["prf"], stdin)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == expected + "\n"


# --------------------------------------------------------------------------
# --help on every command
# --------------------------------------------------------------------------

HELP = {
    "app": ([], ["evaluate", "compare", "prf"]),
    "evaluate": (
        ["evaluate"],
        [
            "MODEL",
            "DATA",
            "--schemes",
            "--spans-key",
            "--output",
            "--errors",
            "--html",
            "--n-process",
            "strict,exact,partial,type,iou,overlap",
        ],
    ),
    "compare": (
        ["compare"],
        [
            "GOLD",
            "PRED",
            "--format",
            "spacy, jsonl, conll, kaggle",
            "scored in char unit",
            "--tag-scheme",
            "--labels",
            "error of the primary (first) scheme",
        ],
    ),
    "prf": (["prf"], ["standard input", "Ends are inclusive", "prints 0.6667 1.0 0.8"]),
}


@pytest.fixture(scope="module")
def help_runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("help")
    return run_many({"app": (["--help"], {"console_script": True}), "no-args": ([], {})}, root)


def test_help_console_script(help_runs):
    assert help_runs["app"].returncode == 0
    for text in HELP["app"][1]:
        assert text in help_runs["app"].stdout
    assert "Usage:" in help_runs["no-args"].stdout + help_runs["no-args"].stderr
    assert "Traceback" not in help_runs["no-args"].stderr


@pytest.mark.parametrize("name", list(HELP))
def test_help(name):
    args, expected = HELP[name]
    result = invoke([*args, "--help"])
    assert result.exit_code == 0, result.stderr
    text = " ".join(result.stdout.split())
    for piece in expected:
        assert piece in text, piece


# --------------------------------------------------------------------------
# Bad input: one line on stderr, status 1 (2 for usage errors), no traceback
# --------------------------------------------------------------------------

GOOD = "gold.jsonl pred.jsonl -s strict"

# name: (files to write {name: text}, the command line, message). A
# command other than evaluate is compare. Each is one line on stderr and
# status 1.
INPUT_ERRORS = {
    "missing-file": ({}, "gold.jsonl nope.jsonl -s strict", "nope.jsonl: file not found"),
    "missing-data": ({}, "evaluate model nope.spacy -s strict", "nope.spacy: file not found"),
    "missing-model": (
        {},
        "evaluate no_such_model gold.spacy -s strict",
        "no_such_model: can't load the pipeline: [E050] Can't find model 'no_such_model'",
    ),
    "directory": ({}, "dir.jsonl pred.jsonl -s strict", "dir.jsonl: not a file"),
    "not-a-docbin": (
        {"bad.spacy": "hello"},
        "gold.spacy bad.spacy -s strict",
        "bad.spacy: can't read it as a spaCy DocBin",
    ),
    "not-utf8": (
        {"bad.conll": b"a O\n\xff\xfe B-X\n"},
        "gold.conll bad.conll -s strict",
        "bad.conll:2: not UTF-8 text (byte 0xff)",
    ),
    "wrong-format": ({}, "gold.conll pred.conll -s strict --format jsonl", "gold.conll:1: invalid JSON"),
    "jsonl-line": (
        {"bad.jsonl": '{"text": "a", "spans": []}\n{"text": "b", "spans": [}\n'},
        "gold.jsonl bad.jsonl -s strict",
        "bad.jsonl:2: invalid JSON",
    ),
    "jsonl-span": (
        {"bad.jsonl": '{"text": "abc", "spans": [{"start": 1, "end": 7, "label": "X"}]}\n'},
        "gold.jsonl bad.jsonl -s strict",
        "bad.jsonl:1: span 0 has start=1, end=7; character offsets need 0 <= start < end <= 3",
    ),
    "csv-row": (
        {"bad.csv": "id,class,predictionstring\ndoc0,PER,0 1\ndoc1,PER\n"},
        "gold.csv bad.csv -s strict",
        "bad.csv:3: the row has 2 fields, the header has 3",
    ),
    "csv-index": (
        {"bad.csv": "id,class,predictionstring\ndoc0,PER,0 x\n"},
        "gold.csv bad.csv -s strict",
        "bad.csv:2: predictionstring holds 'x', not a word index",
    ),
    "csv-header": (
        {"bad.csv": "id,type,predictionstring\ndoc0,PER,0\n"},
        "gold.csv bad.csv -s strict",
        "bad.csv:1: the header has no column 'class'",
    ),
    "csv-unknown-id": (
        {"bad.csv": "id,class,predictionstring\ndoc0,PER,0\ndoc9,PER,1\n"},
        "gold.csv bad.csv -s overlap",
        "bad.csv:3: id 'doc9' is not in gold.csv",
    ),
    "conll-line": (
        {"bad.conll": "Barack B-PER\nObama\n"},
        "gold.conll bad.conll -s strict",
        "bad.conll:2: expected a token and a tag column",
    ),
    "conll-tag": (
        {},
        "gold.conll pred.conll -s strict --tag-mode strict --tag-scheme IOE2",
        "gold.conll:3: Invalid tag 'B-PER'",
    ),
    "unknown-label": (
        {},
        f"{GOOD} --labels PER,FOO",
        '--labels: the label "FOO" occurs in neither gold.jsonl nor pred.jsonl. Labels found: "LOC", "ORG", "PER"',
    ),
    "unequal-counts": (
        {"short.jsonl": '{"text": "Barack Obama visited Paris .", "spans": []}\n'},
        "gold.jsonl short.jsonl -s strict",
        "unequal numbers of documents (JSONL records): 4 in gold.jsonl, 1 in short.jsonl",
    ),
    "unequal-sentences": (
        {"short.conll": "Barack O\n"},
        "gold.conll short.conll -s strict",
        "unequal numbers of sentences: 4 in gold.conll, 1 in short.conll",
    ),
    "text-mismatch": (
        {"other.jsonl": '{"text": "Barack Obama visited Rome .", "spans": []}\n' * 4},
        "gold.jsonl other.jsonl -s strict",
        (
            "other.jsonl:1: the text of record 1 differs from line 1 of gold.jsonl at character 21: "
            "gold '…ama visited Paris .', predicted '…ama visited Rome .'"
        ),
    ),
    "token-mismatch": (
        {"other.conll": "Barack O\nObama O\nvisits O\nParis O\n. O\n\nx O\n\nx O\n\nx O\n"},
        "gold.conll other.conll -s strict",
        (
            "other.conll:3: sentence 1 differs from gold.conll (sentence starting at line 3) at token 2: "
            "gold has 'visited', predicted has 'visits'"
        ),
    ),
    "docbin-text-mismatch": (
        {},
        "gold.spacy other.spacy -s strict",
        (
            "other.spacy: the text of doc 2 differs from doc 2 of gold.spacy at character 5: "
            "gold 'Ms Smith left', predicted 'Ms Smyth left'"
        ),
    ),
    "write-error": ({}, f"{GOOD} -o gold.jsonl/scores.json", "gold.jsonl/scores.json: can't write the file"),
}
# name: (stdin, message) of `prf`, status 1 likewise.
PRF_ERRORS = {
    "prf-count": ("x 0 1 PER", "stdin:1: the number of predicted spans must be an integer, got 'x'"),
    "prf-short": ("2\n0 1 PER\n", "stdin:2: input ends where the start of predicted span 2 of 2 was expected"),
    "prf-extra": ("0\n0\nPER\n", "stdin:3: unexpected input 'PER' after the last gold span"),
    "prf-reversed": ("1\n5 2 PER\n0\n", "stdin:2: predicted span 1 of 1 ends (2) before it starts (5)"),
    "prf-empty": ("", "stdin: no input"),
}
# Usage errors, as INPUT_ERRORS: status 2.
USAGE_ERRORS = {
    "no-schemes": (
        {},
        "gold.jsonl pred.jsonl",
        (
            "Missing option '--schemes': name at least one scheme, e.g. --schemes strict,iou. "
            "Valid schemes: strict, exact, partial, type, iou, overlap"
        ),
    ),
    "unknown-scheme": (
        {},
        "gold.jsonl pred.jsonl -s strict,fuzzy",
        "Invalid value for '--schemes': Unknown scheme 'fuzzy' in '--schemes'. Valid schemes:",
    ),
    "unknown-extension": (
        {"gold.data": "x"},
        "gold.data gold.data -s strict",
        "Can't tell the format of 'gold.data' from its extension '.data'. Pass '--format'",
    ),
    "unknown-format": ({}, f"{GOOD} --format xml", "Invalid value for '--format': Unknown format 'xml'"),
    "formats-that-do-not-mix": (
        {},
        "gold.jsonl pred.csv -s strict",
        (
            "'gold.jsonl' looks like jsonl and 'pred.csv' like kaggle (set '--format', or "
            "'--gold-format' and '--pred-format', if an extension misleads); jsonl gold and "
            "kaggle predictions cannot describe the same documents"
        ),
    ),
    "threshold": (
        {},
        f"{GOOD} --iou-threshold 1.5",
        "Invalid value for '--iou-threshold': '--iou-threshold' must be in (0, 1]",
    ),
    "unit": (
        {},
        "gold.conll pred.conll -s strict --unit char",
        "conll input is scored in token unit; '--unit' char does not apply",
    ),
    "tag-scheme": (
        {},
        "gold.conll pred.conll -s strict --tag-scheme IOB2",
        "--tag-scheme='IOB2' is only used with --tag-mode='strict'",
    ),
    "n-process": ({}, "evaluate m gold.spacy -s strict --n-process 0", "Invalid value for '--n-process'"),
    "unknown-option": ({}, f"{GOOD} --fuzzy-match", "No such option: --fuzzy-match"),
}
# name: (files to write, args, stdin, status, message) of every case.
BAD_INPUT = {
    **{name: (files, line.split(), None, 1, message) for name, (files, line, message) in INPUT_ERRORS.items()},
    **{name: ({}, ["prf"], stdin, 1, message) for name, (stdin, message) in PRF_ERRORS.items()},
    **{name: (files, line.split(), None, 2, message) for name, (files, line, message) in USAGE_ERRORS.items()},
}
# Also run as subprocesses: the real process must not print a traceback either.
BAD_SUBPROCESS = ["missing-file", "jsonl-line", "csv-row", "text-mismatch", "unknown-label", "prf-short", "no-schemes"]


@pytest.fixture(scope="module")
def bad_template(corpus_dir, tmp_path_factory):
    template = tmp_path_factory.mktemp("bad") / "template"
    shutil.copytree(corpus_dir, template, ignore=shutil.ignore_patterns("*.json", "out"))
    (template / "dir.jsonl").mkdir()
    # A DocBin whose third text differs from gold.spacy's.
    vocab = spacy.blank("en").vocab
    docs = [make_doc(vocab, words, gold) for words, gold, _ in CORPUS]
    docs[2] = make_doc(vocab, ["Ms", "Smyth", "left"], [])
    DocBin(docs=docs).to_disk(template / "other.spacy")
    return template


def bad_case(template, name):
    """The case's directory and its full argument list."""
    files, args, stdin, _, _ = BAD_INPUT[name]
    case_dir = template.parent / name
    if not case_dir.exists():
        shutil.copytree(template, case_dir)
        for file_name, content in files.items():
            path = case_dir / file_name
            if isinstance(content, bytes):
                path.write_bytes(content)
            else:
                path.write_text(content, encoding="utf-8")
    if args and args[0] not in ("evaluate", "prf"):
        args = ["compare", *args]
    return case_dir, args, stdin


@pytest.mark.parametrize("name", list(BAD_INPUT))
def test_bad_input(bad_template, monkeypatch, name):
    case_dir, args, stdin = bad_case(bad_template, name)
    monkeypatch.chdir(case_dir)
    _, _, _, status, message = BAD_INPUT[name]
    assert_clean_failure(invoke(args, stdin), status, message)


@pytest.fixture(scope="module")
def bad_runs(bad_template):
    cases = {name: bad_case(bad_template, name) for name in BAD_SUBPROCESS}
    return run_many({name: (args, {"cwd": cwd, "stdin": stdin}) for name, (cwd, args, stdin) in cases.items()})


@pytest.mark.parametrize("name", BAD_SUBPROCESS)
def test_bad_input_subprocess(bad_runs, name):
    _, _, _, status, message = BAD_INPUT[name]
    assert_clean_failure(bad_runs[name], status, message)


# --------------------------------------------------------------------------
# A registered reader, no silent zeros, one file with two columns, clean output
# --------------------------------------------------------------------------


def test_format_registered_from_outside(tmp_path, monkeypatch):
    import catalogue

    from spacy_spanf1 import registry
    from spacy_spanf1.formats import Document, Format
    from spacy_spanf1.spans import Span

    class Lines(Format):
        """A word a line; a line "word LABEL" is a one-word span."""

        name = "test-fmt"
        units = ("token",)

        def read(self, path, *, side, unit, **options):
            for i, line in enumerate(Path(path).read_text(encoding="utf-8").split("\n\n")):
                rows = [row.split() for row in line.split("\n") if row.strip()]
                words = [r[0] for r in rows]
                spans = [Span(k, k + 1, r[1]) for k, r in enumerate(rows) if len(r) > 1]
                yield Document(f"block {i + 1}", spans, " ".join(words), words)

    registry.formats.register("test-fmt", func=Lines())
    try:
        monkeypatch.chdir(tmp_path)
        (tmp_path / "g.lines").write_text("Ann PER\nmet\nBob PER\n\nRome LOC\n", encoding="utf-8")
        (tmp_path / "p.lines").write_text("Ann PER\nmet\nBob LOC\n\nRome LOC\n", encoding="utf-8")
        result = invoke(["compare", "g.lines", "p.lines", "-s", "strict", "--format", "test-fmt", "-o", "s.json"])
        assert result.exit_code == 0, result.stderr
        data = json.loads((tmp_path / "s.json").read_text())
        assert data["documents"] == 2
        assert data["schemes"]["strict"]["counts"] == {"cor": 2, "inc": 1, "par": 0, "mis": 0, "spu": 0}
        unknown = invoke(["compare", "g.lines", "p.lines", "-s", "strict", "--format", "nope"])
        assert_clean_failure(
            unknown,
            2,
            "Valid formats: spacy, jsonl, conll, kaggle, brat, labelstudio, doccano, prodigy, tags, mentions, aida, inline, test-fmt",
        )
    finally:
        catalogue._remove(("spacy_spanf1", "formats", "test-fmt"))


def test_repeated_schemes_is_an_error(corpus_dir, monkeypatch):
    monkeypatch.chdir(corpus_dir)
    result = invoke(["compare", "gold.jsonl", "pred.jsonl", "-s", "strict", "-s", "iou"])
    assert_clean_failure(
        result,
        2,
        "'--schemes' is given 2 times (-s strict -s iou); give it once, comma-separated: --schemes strict,iou",
    )


def test_no_silent_zeros(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "g.jsonl").write_text(
        '{"text": "Ann", "spans": [{"start": 0, "end": 3, "label": "PER"}]}\n', encoding="utf-8"
    )
    (tmp_path / "doccano.jsonl").write_text('{"text": "Ann", "label": [[0, 3, "PER"]]}\n', encoding="utf-8")
    (tmp_path / "none.jsonl").write_text('{"text": "Ann"}\n', encoding="utf-8")
    result = invoke(["compare", "g.jsonl", "doccano.jsonl", "-s", "strict"])
    assert_clean_failure(
        result,
        1,
        'doccano.jsonl:1: the record has no "spans" but has "label": spans under "label" '
        "are another format's; read the file with '--format' doccano",
    )
    (tmp_path / "empty-spans.jsonl").write_text('{"text": "Ann", "spans": []}\n', encoding="utf-8")
    result = invoke(["compare", "none.jsonl", "empty-spans.jsonl", "-s", "strict"])
    assert_clean_failure(result, 1, "every gold document of none.jsonl (1) was skipped: none has annotation")
    result = invoke(["compare", "g.jsonl", "none.jsonl", "-s", "strict"])
    assert_clean_failure(result, 1, 'none.jsonl: no record has "spans", so the file predicts nothing')
    vocab = spacy.blank("en").vocab
    doc = make_doc(vocab, ["Ann", "met"], [(0, 1, "PER")])
    doc.spans["sc"] = SpanGroup(doc, spans=[SpacySpan(doc, 0, 1, label="PER")])
    DocBin(docs=[doc]).to_disk(tmp_path / "g.spacy")
    result = invoke(["compare", "g.spacy", "g.spacy", "-s", "strict", "--spans-key", "spans"])
    assert_clean_failure(
        result, 1, "--spans-key: no gold document in g.spacy has the span group 'spans'. Span keys found: sc"
    )


def test_compare_one_conll_file_two_columns(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_conll(tmp_path / "gold.conll", 0)
    write_conll(tmp_path / "pred.conll", 1)
    gold_lines = (tmp_path / "gold.conll").read_text(encoding="utf-8").split("\n")
    pred_lines = (tmp_path / "pred.conll").read_text(encoding="utf-8").split("\n")
    both = [
        f"{g}\t{p.split()[-1]}" if g.strip() and not g.startswith("-DOCSTART-") else g
        for g, p in zip(gold_lines, pred_lines)
    ]
    (tmp_path / "both.conll").write_text("\n".join(both), encoding="utf-8")
    schemes = "strict,exact,partial,type,iou,overlap"
    one = invoke(["compare", "both.conll", "--gold-column", "1", "--pred-column", "2", "-s", schemes, "-o", "one.json"])
    two = invoke(["compare", "gold.conll", "pred.conll", "-s", schemes, "-o", "two.json"])
    assert one.exit_code == two.exit_code == 0, one.stderr + two.stderr
    one_data, two_data = (json.loads((tmp_path / name).read_text()) for name in ("one.json", "two.json"))
    assert figures(one_data) == figures(two_data)
    assert json.loads((tmp_path / "one.json").read_text())["schemes"]["strict"]["counts"] == STRICT_COUNTS
    missing = invoke(["compare", "both.conll", "-s", "strict"])
    assert_clean_failure(
        missing,
        2,
        "no predicted file: give 'PRED', or, for a CoNLL file with both tag columns, "
        "'--gold-column' and '--pred-column'",
    )


@pytest.fixture(scope="module")
def plain_runs(corpus_dir):
    records = [
        {"text": f"document number {i} with a rather long name", **({"spans": []} if i % 2 else {})} for i in range(8)
    ]
    write_jsonl(corpus_dir / "skips.jsonl", records)
    plain = {"WASABI_LOG_FRIENDLY": None, "NO_COLOR": None}  # not set, whatever the caller's environment
    args = ["compare", "gold.jsonl", "pred.jsonl", "-s", "strict,iou", "-o", "out/plain.json"]
    skips = ["compare", "skips.jsonl", "skips.jsonl", "-s", "strict"]
    jobs = {
        "plain": (args, {"env": plain}),
        "no-color": (args, {"env": dict(plain, NO_COLOR="1")}),
        "usage": (["compare", "gold.jsonl", "pred.jsonl", "-s", "fuzzy"], {"env": plain}),
        "input": (["compare", "gold.jsonl", "nope.jsonl", "-s", "strict"], {"env": plain}),
        "skips": (skips, {"env": plain}),
    }
    return run_many(jobs, corpus_dir)


@pytest.mark.parametrize("name", ["plain", "no-color", "usage", "input", "skips"])
def test_no_ansi_codes_in_pipes(plain_runs, name):
    result = plain_runs[name]
    assert result.returncode == {"usage": 2, "input": 1}.get(name, 0), result.stderr
    assert "\x1b[" not in result.stdout and "\x1b[" not in result.stderr


def test_long_warnings_are_not_wrapped(plain_runs):
    lines = plain_runs["skips"].stdout.splitlines()
    warning = [line for line in lines if "without annotation were skipped" in line]
    assert len(warning) == 1 and warning[0].endswith("line 1, line 3, line 5, line 7")
