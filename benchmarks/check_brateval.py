"""BratEval's ChEMU sample: the engine against the counts BratEval publishes.

Run it with BratEval's test data at hand (it is not shipped here: it is
BratEval's, fetched from its repository):

    BRATEVAL_CHEMU=/path/to/brateval_chemu python -m pytest benchmarks/check_brateval.py

where the folder holds `gold/` (BratEval's
src/test/resources/data/corpora/chemu_sample/ner/gt) and `pred/`
(src/test/resources/data/systems/chemu_sample/ner/test); the default folder
is ../shared/data/brateval_chemu beside the checkout.

BratEval (READ-BioMed/brateval, commit 17acc1670975b6b78acd3c1626cef9e411900001)
ships a gold and a predicted brat corpus of 50 ChEMU documents. It also ships
its own output on them, which its CompareEntitiesTest.java checks, in
src/test/resources/data/bratevals/chemu_sample/ner-gt-test-<span>-<type>.txt
(tp/fp/fn/precision/recall/f1 per entity type and "all").  Below, "published in X"
means that file at that commit.

How BratEval's modes map to the schemes (CompareEntities.evaluate,
Entity.getMatchResult). It goes over each gold entity and takes the first
unused prediction it matches, one to one. TP and FN go to the gold type, FP
to the predicted type.

- `-s exact -t exact` (same offsets, same type) is `strict`:
  TP = COR, FP = ACT - COR, FN = POS - COR, overall and per type.
- `-s overlap -t exact` (any shared character, same type) is `type`:
  the same formulas, overall and per type (`type` never counts PAR).
- `-s exact -t inexact` (same offsets, type ignored) is `exact`, overall
  only. BratEval books a match across types under the gold type and drops
  the predicted type's FP. `exact`'s per-label counts score each label's
  spans alone, so they are `strict`'s.
- `-s overlap -t inexact` (any overlap, type ignored) matches as `partial`
  does: TP = COR + PAR, FP = SPU, FN = MIS, overall only. BratEval's P/R/F
  give a partial match full credit, `partial`'s give it half, so no ratio
  is compared.
- `-t hierarchical` published the `-t exact` tables, because no
  annotation.conf was loaded. `-s approx 0.8` compares the edit distance of
  the quoted strings, not of the text at the offsets. Neither has a scheme.

Five predicted entities quote a text that disagrees with their offsets
(PRED_TEXT_MISMATCHES below). The reader takes the offsets as the truth and notes each
mismatch.
"""

import os
import warnings
from pathlib import Path

import pytest

from spacy_spanf1 import InputError, compare_files

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("BRATEVAL_CHEMU", ROOT.parent / "shared" / "data" / "brateval_chemu"))
GOLD, PRED = DATA / "gold", DATA / "pred"
SCHEMES = ["strict", "exact", "partial", "type"]
#: BratEval's published tables, their rows copied as written (tp|fp|fn|p|r|f1 per type).
TABLES = Path(__file__).resolve().parent / "brateval"

if not (GOLD / "0000.ann").is_file() or not (PRED / "0000.ann").is_file():
    pytest.exit(
        f"BratEval's ChEMU sample is not in {DATA}: set BRATEVAL_CHEMU to its folder "
        "(gold/ and pred/, see the module's docstring)",
        returncode=4,
    )

# Published in ner-gt-test-exact-exact.txt (rows copied as written; the same
# table is published in ner-gt-test-exact-hierarchical.txt).
EXACT_EXACT = (TABLES / "ner-gt-test-exact-exact.rows").read_text(encoding="utf-8")

# Published in ner-gt-test-overlap-exact.txt (the same table is published in
# ner-gt-test-overlap-hierarchical.txt).
OVERLAP_EXACT = (TABLES / "ner-gt-test-overlap-exact.rows").read_text(encoding="utf-8")

# Published in ner-gt-test-exact-inexact.txt, its "all" row.
EXACT_INEXACT_ALL = "all|762|5|8|0.9935|0.9896|0.9915"
# Published in ner-gt-test-overlap-inexact.txt, its "all" row.
OVERLAP_INEXACT_ALL = "all|767|0|3|1.0000|0.9961|0.9980"

# The T lines whose quoted text differs from the .txt at their offsets. They
# were found by comparing the two (UTF-8, universal newlines, as brat reads
# files). Each is (file, id, offsets).
PRED_TEXT_MISMATCHES = [
    ("0007.ann", "T13", "200 279"),
    ("0008.ann", "T3", "177 200"),
    ("0010.ann", "T11", "220 245"),
    ("0010.ann", "T14", "510 524"),
    ("0010.ann", "T16", "155 200"),
]


def _rows(table):
    """label -> (tp, fp, fn, p, r, f) of BratEval's summary rows."""
    rows = {}
    for line in table.strip().splitlines():
        label, tp, fp, fn, p, r, f = line.split("|")
        rows[label] = (int(tp), int(fp), int(fn), float(p), float(r), float(f))
    return rows


def _brateval_view(counts, *, partial_is_match=False):
    """(tp, fp, fn, p, r, f) of SemEval counts, as BratEval counts them."""
    tp = counts.cor + counts.par if partial_is_match else counts.cor
    return (tp, counts.predicted - tp, counts.possible - tp, counts.precision, counts.recall, counts.f1)


def _assert_row(got, published, *, ratios=True):
    assert got[:3] == published[:3]
    if ratios:  # BratEval prints 4 decimals
        assert got[3:] == pytest.approx(published[3:], abs=5e-5)


def _text_mismatches(folder):
    """(file, id, offsets) of every T line whose quoted text is not the .txt
    at its offsets (fragments joined by a space, as brat joins them)."""
    found = []
    for ann in sorted(folder.glob("*.ann")):
        with open(ann.with_suffix(".txt"), encoding="utf-8", newline=None) as f:
            text = f.read()
        with open(ann, encoding="utf-8", newline=None) as f:
            lines = f.read().split("\n")
        for line in lines:
            if not line.startswith("T"):
                continue
            ann_id, middle, quoted = line.split("\t", 2)
            offsets = middle.split(" ", 1)[1]
            frags = [tuple(map(int, piece.split())) for piece in offsets.split(";")]
            if " ".join(text[s:e] for s, e in frags) != quoted:
                found.append((ann.name, ann_id, offsets))
    return found


@pytest.fixture(scope="module")
def scores():
    # The default text_mismatch="warn" may warn; what it reports is checked
    # in scores.notes below.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return compare_files(GOLD, PRED, format="brat", schemes=SCHEMES)


def test_the_sample_has_five_text_mismatches_all_predicted():
    assert _text_mismatches(GOLD) == []
    assert _text_mismatches(PRED) == PRED_TEXT_MISMATCHES


@pytest.mark.parametrize(
    "scheme,table",
    [("strict", EXACT_EXACT), ("type", OVERLAP_EXACT)],
    ids=["strict_is_exact_span_exact_type", "type_is_overlap_exact_type"],
)
def test_scheme_is_brateval_with_exact_type_overall_and_per_type(scores, scheme, table):
    published = _rows(table)
    result = scores.results[scheme]
    assert result.totals.par == 0  # neither scheme counts a partial match
    _assert_row(_brateval_view(result.totals), published["all"])
    assert {label: _brateval_view(c)[:3] for label, c in result.per_type.items()} == {
        label: row[:3] for label, row in published.items() if label != "all"
    }
    for label, counts in result.per_type.items():
        _assert_row(_brateval_view(counts), published[label])


def test_exact_is_brateval_exact_span_inexact_type_overall(scores):
    _assert_row(_brateval_view(scores.results["exact"].totals), _rows(EXACT_INEXACT_ALL)["all"])


def test_partial_matches_as_brateval_overlap_inexact_type_overall(scores):
    # Counts only: BratEval gives a partial match full credit, `partial` half.
    totals = scores.results["partial"].totals
    got = _brateval_view(totals, partial_is_match=True)
    _assert_row(got, _rows(OVERLAP_INEXACT_ALL)["all"], ratios=False)
    assert (totals.inc, totals.spu, totals.mis) == (0, got[1], got[2])


def test_both_sides_have_the_spans_brateval_counted(scores):
    # Published in ner-gt-test-exact-exact.txt, "all": 761 + 9 gold (tp + fn)
    # and 761 + 6 predicted (tp + fp) entities in 50 documents.
    totals = scores.results["strict"].totals
    assert (scores.documents, totals.possible, totals.predicted) == (50, 770, 767)


def test_text_mismatches_are_noted(scores):
    noted = scores.notes["pred"]["text_mismatch"]
    assert noted["count"] == len(PRED_TEXT_MISMATCHES)
    assert noted["examples"] and all(isinstance(e, str) for e in noted["examples"])
    assert len(noted["examples"]) <= noted["count"]
    assert any("T13" in e for e in noted["examples"])  # the first one read (0007.ann)
    assert scores.notes.get("gold", {}).get("text_mismatch", {"count": 0})["count"] == 0


def test_text_mismatch_error_names_the_ann_file_and_t13():
    with pytest.raises(InputError) as info:
        compare_files(GOLD, PRED, format="brat", schemes=["strict"], text_mismatch="error")
    assert "0007.ann" in str(info.value)
    assert "T13" in str(info.value)
