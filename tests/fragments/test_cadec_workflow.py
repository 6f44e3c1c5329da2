"""The documented CADEC workflow on a small sample written here in CADEC's
layout (text/NAME.txt, original/NAME.ann): scripts/convert_cadec.py puts
the files side by side, and the brat reader with fragments="keep" scores
them under every scheme and the three views."""

from dataclasses import astuple
from pathlib import Path

import pytest

from helpers import load_file, write
from spacy_spanf1 import compare_files

ROOT = Path(__file__).resolve().parents[2]
ALL = ["strict", "exact", "partial", "type", "iou", "overlap"]

#: Two posts. ARTHROTEC.1: "muscle ... pain" (discontinuous, over a line
#: break) and "joint pain"; ARTHROTEC.2: one contiguous ADR and a Drug.
POSTS = {
    "ARTHROTEC.1": (
        "Severe muscle\nand joint pain.",
        "T1\tADR 7 13;24 28\tmuscle pain\nT2\tADR 18 28\tjoint pain\n#1\tAnnotatorNotes T1\tpain in muscles\n",
    ),
    "ARTHROTEC.2": ("Arthrotec made me drowsy.", "T1\tDrug 0 9\tArthrotec\nT2\tADR 18 24\tdrowsy\n"),
}
#: A system's brat output: "muscle ... pain" found, "joint pain" as "joint";
#: in post 2, "drowsy" found and "Arthrotec" missed.
SYSTEM = {
    "ARTHROTEC.1": "T1\tADR 7 13;24 28\tmuscle pain\nT2\tADR 18 23\tjoint\n",
    "ARTHROTEC.2": "T1\tADR 18 24\tdrowsy\n",
}


def _convert():
    return load_file(ROOT / "scripts" / "convert_cadec.py").convert_cadec


@pytest.fixture
def corpus(tmp_path):
    cadec = tmp_path / "CADEC.v2"
    for folder in ("text", "original"):
        (cadec / folder).mkdir(parents=True)
    (tmp_path / "system").mkdir()
    for name, (text, ann) in POSTS.items():
        write(cadec / "text" / f"{name}.txt", text)
        write(cadec / "original" / f"{name}.ann", ann)
    gold = tmp_path / "cadec_brat"
    assert _convert()(cadec, gold) == sorted(POSTS)
    pred = tmp_path / "system"
    for name, ann in SYSTEM.items():
        write(pred / f"{name}.txt", POSTS[name][0])
        write(pred / f"{name}.ann", ann)
    return gold, pred


def test_cadec_sample_under_every_scheme_and_view(corpus):
    gold, pred = corpus
    by_view = {
        view: compare_files(gold, pred, schemes=ALL, fragments="keep", view=view).results
        for view in ("all", "disc_docs", "disc_mentions")
    }
    # all: 4 gold, 3 predicted; "muscle ... pain" and "drowsy" exact, "joint"
    # inside "joint pain", Arthrotec missed
    everything = by_view["all"]
    assert astuple(everything["strict"].totals) == (2, 1, 0, 1, 0)
    assert astuple(everything["partial"].totals) == (2, 0, 1, 1, 0)
    assert astuple(everything["type"].totals) == (3, 0, 0, 1, 0)
    # iou: over "joint pain" (18-28) the group of both ADR predictions
    # ("joint" 18-23, "muscle ... pain" 7-13 and 24-28) shares 5 + 4 of its
    # 10 characters and adds the 6 of "muscle": 9 / 16 >= 0.5
    assert astuple(everything["iou"].totals) == (3, 0, 1)
    assert astuple(everything["overlap"].totals) == (3, 0, 1)
    # disc_docs: post 1 only
    assert astuple(by_view["disc_docs"]["strict"].totals) == (1, 1, 0, 0, 0)
    # disc_mentions: "muscle ... pain" on both sides
    assert astuple(by_view["disc_mentions"]["strict"].totals) == (1, 0, 0, 0, 0)
    # the brat notes line is read and not scored, as brat's other lines
    assert compare_files(gold, pred, schemes=["strict"], fragments="keep").not_scored == {"gold": {"notes": 1}}


def test_a_post_without_its_annotations_is_named(tmp_path):
    cadec = tmp_path / "CADEC.v2"
    (cadec / "text").mkdir(parents=True)
    (cadec / "original").mkdir()
    write(cadec / "text" / "LIPITOR.1.txt", "x")
    with pytest.raises(SystemExit, match="LIPITOR.1 is in text/ only"):
        _convert()(cadec, tmp_path / "out")
