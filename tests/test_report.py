"""Error records and the HTML report (`spacy_spanf1.report`); the page is
opened in headless Chromium, which must lay out the highlighted spans."""
import html
import json
import os
import re
import shutil
import subprocess

from types import SimpleNamespace

import pytest
import srsly
from typer.testing import CliRunner

from spacy_spanf1.app import score_pairs
from spacy_spanf1.cli import app
from spacy_spanf1.formats import DocPair, PairStats
from spacy_spanf1.report import (
    _display_tokens,
    error_records,
    label_colors,
    render_html,
    write_errors,
)
from spacy_spanf1.spans import Span


def token_pair(index, words, gold, pred):
    offsets, pos = [], 0
    for word in words:
        offsets.append((pos, pos + len(word)))
        pos += len(word) + 1
    return DocPair(index, f"sentence {index + 1}", sorted(gold), sorted(pred), " ".join(words), offsets)


@pytest.fixture
def corpus():
    pairs = [
        token_pair(0, ["Barack", "Obama", "met", "Angela", "Merkel", "in", "Berlin"],
                   [Span(0, 2, "PER"), Span(3, 5, "PER"), Span(6, 7, "LOC")],
                   [Span(1, 2, "PER"), Span(3, 5, "ORG"), Span(5, 6, "MISC")]),
        # sentence 2 is skipped (no annotation)
        token_pair(2, ["Rome", "and", "Milan"], [Span(0, 1, "LOC"), Span(2, 3, "LOC")],
                   [Span(0, 1, "LOC"), Span(2, 3, "ORG")]),
    ]
    return SimpleNamespace(pairs=pairs, stats=PairStats(3, 1, ["sentence 2"]), sources=("gold.conll", "pred.conll"))


def score_corpus(corpus, schemes, **settings):
    """Score the fixture's pairs: (results, errors, the documents with errors)."""
    scores = score_pairs(corpus.pairs, schemes, stats=corpus.stats, sources=corpus.sources, **settings)
    corpus.scores = scores
    return scores.results, scores.errors, scores.pairs


def test_error_records(corpus):
    results, errors, kept = score_corpus(corpus, ["strict", "iou"], keep_errors=True)
    records = error_records(errors, kept, "strict")
    summary = [(r["doc"], r["count"], r["kind"], r["gold"] and r["gold"]["text"], [p["text"] for p in r["pred"]]) for r in records]
    # The errors of the primary scheme, strict: "Obama" for "Barack Obama" has
    # other boundaries (INC); ORG "Angela Merkel" the right boundaries and
    # another label (INC); "in" overlaps no gold span (SPU); "Berlin" is
    # predicted by nothing (MIS); "Milan" as ORG (INC).
    assert summary == [
        (0, "inc", "wrong_boundaries", "Barack Obama", ["Obama"]),
        (0, "inc", "wrong_type", "Angela Merkel", ["Angela Merkel"]),
        (0, "spu", "spurious", None, ["in"]),
        (0, "mis", "missed", "Berlin", []),
        (2, "inc", "wrong_type", "Milan", ["Milan"]),  # the document index counts the skipped one
    ]
    counts = results["strict"].counts
    assert len(records) == counts["inc"] + counts["mis"] + counts["spu"]
    assert records[1]["gold"] == {"start": 3, "end": 5, "label": "PER", "text": "Angela Merkel"}
    assert records[1]["pred"] == [{"start": 3, "end": 5, "label": "ORG", "text": "Angela Merkel"}]
    assert records[1]["iou"] == 1.0 and records[1]["name"] == "sentence 1"
    assert records[1]["scheme"] == "strict"
    # "Obama" covers half of "Barack Obama", and is all inside it.
    assert (records[0]["iou"], records[0]["gold_coverage"], records[0]["pred_coverage"]) == (0.5, 0.5, 1.0)


def test_error_records_iou_threshold(corpus):
    # At threshold 0.5 "Obama" for "Barack Obama" (IoU 1/2) is a match; at 1.0 it is not.
    _, errors, kept = score_corpus(corpus, ["iou"], iou_threshold=0.5, keep_errors=True)
    assert "wrong_boundaries" not in {r["kind"] for r in error_records(errors, kept)}
    _, errors, kept = score_corpus(corpus, ["iou"], iou_threshold=1.0, keep_errors=True)
    assert "wrong_boundaries" in {r["kind"] for r in error_records(errors, kept)}


def test_write_errors_round_trip(tmp_path, corpus):
    _, errors, kept = score_corpus(corpus, ["strict"], keep_errors=True)
    records = error_records(errors, kept)
    write_errors(tmp_path / "e.jsonl", records)
    assert list(srsly.read_jsonl(tmp_path / "e.jsonl")) == records


def test_display_tokens_cut_at_span_boundaries():
    pair = DocPair(0, "line 1", [Span(3, 8, "X")], [], "foobar baz", None)
    tokens, spans = _display_tokens(pair, [Span(3, 8, "X")])
    assert tokens == ["foo", "bar", "b", "az"]
    assert spans == [(1, 3, "X")]
    assert "".join(tokens[s] for s in range(1, 3)) == "barb"


def test_render_html_is_self_contained_and_escaped(corpus):
    corpus.pairs[0].gold = sorted(corpus.pairs[0].gold + [Span(2, 3, "<i>&")])
    results, errors, kept = score_corpus(corpus, ["strict", "iou"], keep_errors=True)
    page = render_html(corpus.scores.to_dict(), list(kept.values()), error_records(errors, kept),
                       sources=corpus.sources)
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page and "<link" not in page and not re.search(r'(src|href)="http', page)
    assert "<i>" not in page and "&lt;i&gt;&amp;" in page
    assert page.count('<section class="doc"') == 2
    assert '<tr><td>strict</td>' in page and '<tr><td>iou</td>' in page
    assert "F per label (strict)" in page
    assert "3 documents, 1 skipped" in page


def test_label_colors_are_stable():
    assert label_colors(["B", "A", "B"]) == {"A": "#7aecec", "B": "#feca74"}


# --------------------------------------------------------------------------
# Headless Chromium
# --------------------------------------------------------------------------

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")

# Injected into a copy of the page: measures what the browser laid out.
MEASURE = """
<script>
const found = [];
for (const panel of document.querySelectorAll("section.doc .panel")) {
  const panelBox = panel.getBoundingClientRect();
  for (const el of panel.querySelectorAll("span")) {
    if (getComputedStyle(el).zIndex !== "10") continue;  // displaCy's label chip
    const box = el.getBoundingClientRect();
    const token = el.parentElement.parentElement;  // the highlighted token
    found.push({
      doc: panel.closest("section.doc").dataset.doc,
      side: panel.classList.contains("gold") ? "gold" : "pred",
      label: el.textContent.trim(),
      token: token.firstChild.textContent.trim(),
      color: getComputedStyle(el).backgroundColor,
      width: box.width, height: box.height, x: box.left, panelX: panelBox.left,
      visible: getComputedStyle(el).visibility === "visible",
    });
  }
}
const bars = [...document.querySelectorAll(".chart .bar-fill")].map(b => b.getBoundingClientRect().width);
const pre = document.createElement("pre");
pre.id = "measured";
pre.textContent = JSON.stringify({spans: found, bars: bars});
document.body.appendChild(pre);
</script>
"""


def find_browser():
    candidates = [os.environ.get("CHROMIUM")] + [shutil.which(name) for name in BROWSERS]
    return next((c for c in candidates if c), None)


def rgb(hex_color):
    return "rgb({}, {}, {})".format(*(int(hex_color[i : i + 2], 16) for i in (1, 3, 5)))


def test_html_renders_spans_in_headless_chromium(tmp_path, monkeypatch):
    browser = find_browser()
    if browser is None:
        pytest.fail("headless Chromium not found: `make test` installs it (apt-get install -y chromium), or set CHROMIUM")
    monkeypatch.chdir(tmp_path)
    records = [
        {"text": "Barack Obama visited Paris.", "spans": [{"start": 0, "end": 12, "label": "PER"},
                                                       {"start": 21, "end": 26, "label": "LOC"}]},
        {"text": "Apple hired Tim Cook.", "spans": [{"start": 0, "end": 5, "label": "ORG"}]},
    ]
    preds = [
        {"text": records[0]["text"], "spans": [{"start": 7, "end": 12, "label": "PER"},
                                               {"start": 21, "end": 26, "label": "LOC"}]},
        {"text": records[1]["text"], "spans": [{"start": 0, "end": 5, "label": "LOC"}]},
    ]
    (tmp_path / "gold.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    (tmp_path / "pred.jsonl").write_text("".join(json.dumps(r) + "\n" for r in preds), encoding="utf-8")
    result = CliRunner().invoke(app, ["compare", "gold.jsonl", "pred.jsonl", "-s", "strict,iou", "--html", "report.html"])
    assert result.exit_code == 0, result.stderr
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    (tmp_path / "measure.html").write_text(page.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
    profile = tmp_path / "profile"
    out = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1280,2000",
         f"--user-data-dir={profile}", "--dump-dom", (tmp_path / "measure.html").as_uri()],
        capture_output=True, text=True, timeout=120,
    )
    match = re.search(r'<pre id="measured">(.*?)</pre>', out.stdout, re.S)
    assert match, out.stderr[-2000:]
    measured = json.loads(html.unescape(match.group(1)))
    colors = label_colors(["LOC", "ORG", "PER"])
    spans = {(s["doc"], s["side"], s["label"], s["token"]): s for s in measured["spans"]}
    assert set(spans) == {
        ("0", "gold", "PER", "Barack"), ("0", "gold", "LOC", "Paris"),
        ("0", "pred", "PER", "Obama"), ("0", "pred", "LOC", "Paris"),
        ("1", "gold", "ORG", "Apple"), ("1", "pred", "LOC", "Apple"),
    }
    for (_, side, label, _), span in spans.items():
        assert span["visible"] and span["width"] > 5 and span["height"] > 5, span
        assert span["color"] == rgb(colors[label]), span
    # gold and prediction side by side: the predicted panel starts right of the gold one
    assert spans[("0", "pred", "PER", "Obama")]["panelX"] > spans[("0", "gold", "PER", "Barack")]["x"] + 100
    # the per-label chart (strict) draws a bar for each label with a non-zero F: LOC only
    assert len(measured["bars"]) == 3 and sum(width > 0 for width in measured["bars"]) == 1
