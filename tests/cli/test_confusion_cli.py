"""`--confusion` on the terminal and the confusion matrices of the --output
JSON, on the two documents of examples/ (gold.jsonl, pred.jsonl), counted
by hand here.

doc 0 "Ann Lee flew to New York.": gold PER "Ann Lee" (0, 7), LOC "New
York" (16, 24); pred PER "Ann" (0, 3), ORG "New York" (16, 24).
doc 1 "Acme hired Bo Chen in Paris.": gold ORG "Acme" (0, 4), PER "Bo
Chen" (11, 18), LOC "Paris" (22, 27); pred PER "Bo Chen", LOC "Paris",
LOC "in" (19, 21).
"""

import json
import shutil
from pathlib import Path

import pytest

from helpers import invoke
from spacy_spanf1 import CorpusScores

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

# strict: "Ann" is an INC with other boundaries (PER, O) + (O, PER); ORG over
# LOC with its boundaries (LOC, ORG); Acme missed (ORG, O); Bo Chen and
# Paris correct; "in" spurious (O, LOC).
STRICT = {
    "labels": ["LOC", "ORG", "PER", "O"],
    "matrix": [[1, 1, 0, 0], [0, 0, 0, 1], [0, 0, 1, 1], [1, 0, 1, 0]],
}
# type: "Ann" overlaps PER with its label: (PER, PER), so PER has 2 on the diagonal.
TYPE = {
    "labels": ["LOC", "ORG", "PER", "O"],
    "matrix": [[1, 1, 0, 0], [0, 0, 0, 1], [0, 0, 2, 0], [1, 0, 0, 0]],
}


@pytest.fixture()
def examples(tmp_path, monkeypatch):
    for name in ("gold.jsonl", "pred.jsonl"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def table(stdout, title):
    """The rows of the table under the title, cells split on spaces."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if title in line)
    rows = []
    for line in lines[start + 2 :]:
        if not line.strip():
            break
        rows.append(line.split())
    return rows


def test_confusion_prints_one_table_per_scheme(examples):
    result = invoke(["compare", "gold.jsonl", "pred.jsonl", "-s", "strict,type", "--confusion"])
    assert result.exit_code == 0, result.stderr
    for scheme, expected in (("strict", STRICT), ("type", TYPE)):
        rows = table(result.stdout, f"{scheme} confusion")
        assert rows[0] == ["gold", "\\", "pred", *expected["labels"]]
        assert rows[1:] == [[label, *map(str, row)] for label, row in zip(expected["labels"], expected["matrix"])]


def test_no_confusion_table_without_the_flag(examples):
    result = invoke(["compare", "gold.jsonl", "pred.jsonl", "-s", "strict"])
    assert result.exit_code == 0, result.stderr
    assert "confusion" not in result.stdout


def test_every_scheme_writes_its_confusion_in_the_json(examples):
    result = invoke(
        [
            "compare",
            "gold.jsonl",
            "pred.jsonl",
            "-s",
            "strict,exact,partial,type,iou,overlap",
            "-o",
            "scores.json",
            "--silent",
        ]
    )
    assert result.exit_code == 0, result.stderr
    data = json.loads((examples / "scores.json").read_text())
    assert data["schemes"]["strict"]["confusion"] == STRICT
    assert data["schemes"]["type"]["confusion"] == TYPE
    for scheme, block in data["schemes"].items():
        assert block["confusion"]["labels"][-1] == "O", scheme
    assert "confusion" not in data  # no longer beside the blocks
    back = CorpusScores.from_dict(data).to_dict()
    assert {scheme: block["confusion"] for scheme, block in back["schemes"].items()} == {
        scheme: block["confusion"] for scheme, block in data["schemes"].items()
    }


def test_older_json_with_iou_rows_beside_the_blocks_reads(examples):
    result = invoke(["compare", "gold.jsonl", "pred.jsonl", "-s", "strict,iou", "-o", "scores.json", "--silent"])
    assert result.exit_code == 0, result.stderr
    data = json.loads((examples / "scores.json").read_text())
    iou = CorpusScores.from_dict(data).results["iou"].confusion
    for block in data["schemes"].values():
        del block["confusion"]
    data["confusion"] = [[gold, pred, n] for (gold, pred), n in sorted(iou.items())]
    older = CorpusScores.from_dict(data)
    assert older.results["iou"].confusion == iou
    assert older.results["strict"].confusion == {}


def test_the_html_page_heat_maps_the_primary_scheme_and_links_its_cells(examples):
    import re

    result = invoke(["compare", "gold.jsonl", "pred.jsonl", "-s", "strict,iou", "--html", "page.html", "--silent"])
    assert result.exit_code == 0, result.stderr
    page = (examples / "page.html").read_text()
    [table] = re.findall(r'<table class="confusion" data-scheme="strict">.*?</table>', page, re.S)
    cells = {
        (gold, pred): (int(re.sub(r"<[^>]+>", "", content)), re.findall(r'href="#doc-(\d+)"', content))
        for gold, pred, content in re.findall(r'data-gold="([^"]+)" data-pred="([^"]+)"[^>]*>(.*?)</td>', table)
    }
    labels, matrix = STRICT["labels"], STRICT["matrix"]
    assert {cell: n for cell, (n, _) in cells.items()} == {
        (g, p): matrix[i][j] for i, g in enumerate(labels) for j, p in enumerate(labels)
    }
    links = {cell: docs for cell, (_, docs) in cells.items() if docs}
    # doc 0: "Ann" a boundary error (PER, O) and (O, PER), ORG over LOC (LOC, ORG);
    # doc 1: Acme missed (ORG, O), "in" spurious (O, LOC). The diagonal has no link.
    assert links == {
        ("PER", "O"): ["0"],
        ("O", "PER"): ["0"],
        ("LOC", "ORG"): ["0"],
        ("ORG", "O"): ["1"],
        ("O", "LOC"): ["1"],
    }
    assert 'id="doc-0"' in page and 'id="doc-1"' in page


def test_the_html_page_has_every_schemes_matrix_and_links_only_the_primary(examples):
    import re

    result = invoke(["compare", "gold.jsonl", "pred.jsonl", "-s", "strict,type", "--html", "page.html", "--silent"])
    assert result.exit_code == 0, result.stderr
    page = (examples / "page.html").read_text()
    tables = re.findall(r'<table class="confusion" data-scheme="(\w+)">(.*?)</table>', page, re.S)
    assert [scheme for scheme, _ in tables] == ["strict", "type"]
    type_table = tables[1][1]
    cells = {
        (gold, pred): int(re.sub(r"<[^>]+>", "", content))
        for gold, pred, content in re.findall(r'data-gold="([^"]+)" data-pred="([^"]+)"[^>]*>(.*?)</td>', type_table)
    }
    labels, matrix = TYPE["labels"], TYPE["matrix"]
    assert cells == {(g, p): matrix[i][j] for i, g in enumerate(labels) for j, p in enumerate(labels)}
    # the error records (and so the documents shown) are the primary scheme's
    assert "href=" not in type_table and "href=" in tables[0][1]
