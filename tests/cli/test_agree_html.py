"""`spacy-spanf1 agree --html`: the page laid out by headless Chromium: the
heat map cells, the documents shown, every annotator's row per document."""

import numpy
import pytest
from helpers import invoke, measure_in_chromium, write_jsonl

TEXTS = ["Ada Lovelace met Charles Babbage in London .", "Rome is big", "Paris is far <b>"]
TOKENS = [text.split() for text in TEXTS]
ANNOTATORS = {
    "ann": [[(0, 2, "PER"), (3, 5, "PER"), (6, 7, "LOC")], [(0, 1, "LOC")], [(0, 1, "LOC")]],
    "ben": [[(0, 2, "PER"), (3, 5, "PER"), (6, 7, "ORG")], [(0, 1, "LOC")], []],
    "cy": [[(0, 1, "PER"), (3, 5, "PER"), (6, 7, "LOC")], None, [(0, 1, "LOC")]],
}
# strict F by hand (symmetric): ann-ben: COR 3, INC 1 of 4 and 4 (docs 0-2): 3/4... and doc 2: ann's Paris
# is a MIS for ben: COR 3, INC 1, MIS 1, SPU 0: P 3/4, R 3/5, F 2/3.
# ann-cy (docs 0, 2): COR 3 (Babbage, London, Paris), INC 1 (Ada): F 3/4.
# ben-cy (docs 0, 2): COR 1 (Babbage), INC 2 (Ada, London), cy's Paris SPU: P 1/4, R 1/3, F 2/7.
HAND_F = {("ann", "ben"): 2 / 3, ("ann", "cy"): 3 / 4, ("ben", "cy"): 2 / 7}
# disagreements: doc 0: Ada Lovelace, Ada, London LOC, London ORG (4); doc 2: Paris (1); doc 1: none


def write(tmp_path):
    return [
        write_jsonl(
            tmp_path / f"{name}.jsonl",
            [
                {"text": text, "tokens": tokens, "spans": [{"start": s, "end": e, "label": lab} for s, e, lab in spans]}
                for text, tokens, spans in zip(TEXTS, TOKENS, docs)
                if spans is not None
            ],
        )
        for name, docs in ANNOTATORS.items()
    ]


MEASURE = """
<script>
const cells = [...document.querySelectorAll("table.matrix td.cell")].map(td => ({
  reference: td.dataset.reference, scored: td.dataset.scored,
  f: td.firstChild.textContent, color: getComputedStyle(td).backgroundColor,
  width: td.getBoundingClientRect().width}));
const docs = [...document.querySelectorAll("section.doc")].map(section => ({
  doc: section.dataset.doc,
  rows: [...section.querySelectorAll(".rows .row")].map(row => ({
    annotator: row.dataset.annotator, text: row.querySelector(".spans").innerText,
    top: row.getBoundingClientRect().top,
    labels: [...row.querySelectorAll(".spans .label")].map(el => {
      let mark = el.nextElementSibling;
      while (mark && !mark.classList.contains("mark")) mark = mark.nextElementSibling;
      return [getComputedStyle(el, "::after").content, mark ? mark.textContent : null];
    })}))}));
const left = document.querySelector("section.doc") ? document.body.innerText.match(/(\\d+) more left out/) : null;
const pre = document.createElement("pre");
pre.id = "measured";
pre.textContent = JSON.stringify({cells: cells, docs: docs, left: left ? left[1] : null,
  alpha: document.querySelector("td.alpha").innerText, scripts: document.scripts.length});
document.body.appendChild(pre);
</script>
"""


def channels(css):
    return [int(v) for v in css[css.index("(") + 1 : -1].split(",")]


def token_alpha():
    """Krippendorff's alpha of the token labels, by the krippendorff package."""
    import krippendorff

    labels = ["O", "LOC", "ORG", "PER"]
    rows = []
    for docs in ANNOTATORS.values():
        row = []
        for tokens, spans in zip(TOKENS, docs):
            tags = [numpy.nan] * len(tokens) if spans is None else [0] * len(tokens)
            for s, e, lab in sorted(spans or [], key=lambda x: (x[0], -x[1]), reverse=True):  # longest first wins
                for i in range(s, e):
                    tags[i] = labels.index(lab)
            row.extend(tags)
        rows.append(row)
    return krippendorff.alpha(reliability_data=numpy.array(rows, dtype=float), level_of_measurement="nominal")


@pytest.mark.slow  # starts a browser
@pytest.mark.parametrize("html_docs, shown", [(10, ["0", "2"]), (1, ["0"])])
def test_agree_html_in_headless_chromium(tmp_path, html_docs, shown):
    paths = write(tmp_path)
    page = tmp_path / "agree.html"
    result = invoke(
        ["agree", *paths, "--unit", "token", "-s", "strict,partial", "--html", page, "--html-docs", html_docs]
    )
    assert result.exit_code == 0, result.output
    measured = measure_in_chromium(page.read_text(encoding="utf-8"), MEASURE, tmp_path)
    assert measured["scripts"] == 1  # the measuring script only: the page has none
    cells = {(c["reference"], c["scored"]): c for c in measured["cells"]}
    assert len(cells) == 6
    for (a, b), cell in cells.items():
        f = HAND_F[tuple(sorted((a, b)))]
        assert cell["f"] == f"{f * 100:.2f}", cell
        assert cell["width"] > 20
    # greener (green minus red) as F grows: ben-cy < ann-ben < ann-cy
    green = {pair: channels(c["color"])[1] - channels(c["color"])[0] for pair, c in cells.items()}
    assert green[("ben", "cy")] < green[("ann", "ben")] < green[("ann", "cy")]
    assert green[("cy", "ben")] == green[("ben", "cy")]
    assert [d["doc"] for d in measured["docs"]] == shown  # most disagreements first
    assert measured["left"] == (None if len(shown) == 2 else "1")
    for doc in measured["docs"]:
        rows = doc["rows"]
        assert [r["annotator"] for r in rows] == ["ann", "ben", "cy"]
        assert rows[0]["top"] < rows[1]["top"] < rows[2]["top"]  # one above the other
        index = int(doc["doc"])
        for row in rows:
            spans = ANNOTATORS[row["annotator"]][index]
            assert row["text"] == TEXTS[index]
            words = TOKENS[index]
            assert row["labels"] == [[f'"{lab}"', " ".join(words[s:e])] for s, e, lab in spans]
    assert measured["alpha"] == f"{token_alpha():.4f}"


def test_html_docs_zero_shows_none_and_says_so(tmp_path):
    paths = write(tmp_path)
    page = tmp_path / "agree.html"
    result = invoke(["agree", *paths, "--unit", "token", "-s", "strict", "--html", page, "--html-docs", "0"])
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    assert "Documents with disagreements (2)" in text and "2 more left out" in text
    assert 'class="doc"' not in text
    assert "&lt;b&gt;" not in text  # doc 2 is not shown; its markup would be escaped
