"""Error records (`spacy_spanf1.report`) and the HTML report (`spacy_spanf1.html`); the page is
opened in headless Chromium, which must lay out the highlighted spans."""

import html
import re
from types import SimpleNamespace

import pytest
import srsly

from helpers import char_offsets, invoke, measure_in_chromium, write_jsonl
from spacy_spanf1 import MatchSettings
from spacy_spanf1.api import score_pairs
from spacy_spanf1.formats import DocPair, PairStats
from spacy_spanf1.html.compare import render_html
from spacy_spanf1.html.spans import label_color, label_colors, render_spans
from spacy_spanf1.report import error_records, write_errors
from spacy_spanf1.spans import Span


def token_pair(index, words, gold, pred):
    return DocPair(index, f"sentence {index + 1}", sorted(gold), sorted(pred), " ".join(words), char_offsets(words))


@pytest.fixture
def corpus():
    pairs = [
        token_pair(
            0,
            ["Barack", "Obama", "met", "Angela", "Merkel", "in", "Berlin"],
            [Span(0, 2, "PER"), Span(3, 5, "PER"), Span(6, 7, "LOC")],
            [Span(1, 2, "PER"), Span(3, 5, "ORG"), Span(5, 6, "MISC")],
        ),
        # sentence 2 is skipped (no annotation)
        token_pair(
            2, ["Rome", "and", "Milan"], [Span(0, 1, "LOC"), Span(2, 3, "LOC")], [Span(0, 1, "LOC"), Span(2, 3, "ORG")]
        ),
    ]
    return SimpleNamespace(pairs=pairs, stats=PairStats(3, 1, ["sentence 2"]), sources=("gold.conll", "pred.conll"))


def score_corpus(corpus, match, **keep):
    """Score the fixture's pairs under match (the schemes, or MatchSettings):
    (results, errors, the documents with errors)."""
    scores = score_pairs(corpus.pairs, match, stats=corpus.stats, sources=corpus.sources, **keep)
    corpus.scores = scores
    return scores.results, scores.errors, scores.pairs


def test_error_records(corpus):
    results, errors, kept = score_corpus(corpus, ["strict", "iou"], keep_errors=True)
    records = error_records(errors, kept, "strict")
    summary = [
        (r["doc"], r["count"], r["kind"], r["gold"] and r["gold"]["text"], [p["text"] for p in r["pred"]])
        for r in records
    ]
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
    _, errors, kept = score_corpus(corpus, MatchSettings(["iou"], iou_threshold=0.5), keep_errors=True)
    assert "wrong_boundaries" not in {r["kind"] for r in error_records(errors, kept)}
    _, errors, kept = score_corpus(corpus, MatchSettings(["iou"], iou_threshold=1.0), keep_errors=True)
    assert "wrong_boundaries" in {r["kind"] for r in error_records(errors, kept)}


def test_write_errors_round_trip(tmp_path, corpus):
    _, errors, kept = score_corpus(corpus, ["strict"], keep_errors=True)
    records = error_records(errors, kept)
    write_errors(tmp_path / "e.jsonl", records)
    assert list(srsly.read_jsonl(tmp_path / "e.jsonl")) == records


def visible_text(fragment):
    """The text a browser shows of rendered spans, without CSS content."""
    return html.unescape(re.sub(r"<[^>]+>", "", fragment))


def test_rendered_text_is_the_document_text():
    text = "Ann Lee  flew\nto New-York, twice.\r\n"
    pair = DocPair(0, "line 1", [], [], text, None)
    spans = [Span(0, 3, "PER"), Span(4, 7, "PER"), Span(0, 7, "X"), Span(17, 25, "LOC"), Span(20, 24, "ORG")]
    fragment = render_spans(pair, spans, label_colors(["PER", "X", "LOC", "ORG"]))
    assert visible_text(fragment) == text
    # adjacent spans of one label are two marks, each with its label
    assert fragment.count('data-label="PER"') == 2
    # token offsets are shown as the text between their characters
    words = ["Ann", "Lee", "flew"]
    token_pair = DocPair(0, "s", [], [], "Ann Lee flew", [(0, 3), (4, 7), (8, 12)])
    fragment = render_spans(token_pair, [Span(0, 2, "PER")], label_colors(["PER"]))
    assert visible_text(fragment) == " ".join(words)
    assert re.search(r'class="mark first last"[^>]*>Ann Lee<', fragment)


def test_html_shows_at_most_max_docs_most_errors_first(corpus):
    _, errors, kept = score_corpus(corpus, ["strict"], keep_errors=True)
    records = error_records(errors, kept, "strict")
    page = render_html(corpus.scores.to_dict(), list(kept.values()), records, max_docs=1)
    # document 0 has four errors, document 2 one: only document 0 is shown
    assert page.count('<section class="doc"') == 1 and 'id="doc-0"' in page
    assert "1 more left out (the --errors file lists every error)" in page


def test_render_html_is_self_contained_and_escaped(corpus):
    corpus.pairs[0].gold = sorted(corpus.pairs[0].gold + [Span(2, 3, "<i>&")])
    results, errors, kept = score_corpus(corpus, ["strict", "iou"], keep_errors=True)
    page = render_html(
        corpus.scores.to_dict(), list(kept.values()), error_records(errors, kept), sources=corpus.sources
    )
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page and "<link" not in page and not re.search(r'(src|href)="http', page)
    assert "<i>" not in page and "&lt;i&gt;&amp;" in page
    assert page.count('<section class="doc"') == 2
    assert "<tr><td>strict</td>" in page and "<tr><td>iou</td>" in page
    assert "F per label (strict)" in page
    assert "3 documents, 1 skipped" in page


def test_a_label_has_one_colour_in_every_report():
    alone = label_colors(["PER"])["PER"]
    assert label_colors(["ORG", "PER", "LOC"])["PER"] == alone == label_color("PER")
    assert re.fullmatch(r"#[0-9a-f]{6}", alone)
    assert len({label_color(label) for label in ["PER", "LOC", "ORG", "MISC", "DATE"]}) == 5


# --------------------------------------------------------------------------
# Headless Chromium
# --------------------------------------------------------------------------

# Injected into a copy of the page: measures what the browser laid out.
MEASURE = """
<script>
const found = [], texts = [];
for (const panel of document.querySelectorAll("section.doc .panel")) {
  const panelBox = panel.getBoundingClientRect();
  const side = panel.classList.contains("gold") ? "gold" : "pred";
  const doc = panel.closest("section.doc").dataset.doc;
  texts.push({doc: doc, side: side, text: panel.querySelector(".spans").innerText});
  for (const el of panel.querySelectorAll(".spans .label")) {
    const box = el.getBoundingClientRect();
    let mark = el.nextElementSibling;
    while (mark && !mark.classList.contains("mark")) mark = mark.nextElementSibling;
    found.push({
      doc: doc, side: side, label: el.dataset.label,
      shown: getComputedStyle(el, "::after").content,
      token: mark ? mark.textContent : null,
      color: getComputedStyle(el).backgroundColor,
      markColor: mark ? getComputedStyle(mark).backgroundColor : null,
      width: box.width, height: box.height, x: box.left, right: box.right,
      top: box.top, bottom: box.bottom, panelX: panelBox.left,
    });
  }
}
const bars = [...document.querySelectorAll(".chart .bar-fill")].map(b => b.getBoundingClientRect().width);
const pre = document.createElement("pre");
pre.id = "measured";
pre.textContent = JSON.stringify({spans: found, texts: texts, bars: bars});
document.body.appendChild(pre);
</script>
"""


def rgb(hex_color):
    return "rgb({}, {}, {})".format(*(int(hex_color[i : i + 2], 16) for i in (1, 3, 5)))


@pytest.mark.slow  # starts a browser
def test_html_renders_spans_in_headless_chromium(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    records = [
        {
            "text": "Barack Obama visited Paris.",
            "spans": [{"start": 0, "end": 12, "label": "PER"}, {"start": 21, "end": 26, "label": "LOC"}],
        },
        {"text": "Apple hired Tim Cook.", "spans": [{"start": 0, "end": 5, "label": "ORG"}]},
    ]
    preds = [
        {
            "text": records[0]["text"],
            "spans": [{"start": 7, "end": 12, "label": "PER"}, {"start": 21, "end": 26, "label": "LOC"}],
        },
        {"text": records[1]["text"], "spans": [{"start": 0, "end": 5, "label": "LOC"}]},
    ]
    write_jsonl(tmp_path / "gold.jsonl", records)
    write_jsonl(tmp_path / "pred.jsonl", preds)
    result = invoke(["compare", "gold.jsonl", "pred.jsonl", "-s", "strict,iou", "--html", "report.html"])
    assert result.exit_code == 0, result.stderr
    measured = measure_in_chromium((tmp_path / "report.html").read_text(encoding="utf-8"), MEASURE, tmp_path)
    colors = label_colors(["LOC", "ORG", "PER"])
    spans = {(s["doc"], s["side"], s["label"], s["token"]): s for s in measured["spans"]}
    assert set(spans) == {
        ("0", "gold", "PER", "Barack Obama"),
        ("0", "gold", "LOC", "Paris"),
        ("0", "pred", "PER", "Obama"),
        ("0", "pred", "LOC", "Paris"),
        ("1", "gold", "ORG", "Apple"),
        ("1", "pred", "LOC", "Apple"),
    }
    for (_, _side, label, _), span in spans.items():
        assert span["width"] > 5 and span["height"] > 5, span
        assert span["shown"] == f'"{label}"'  # the label is drawn, as CSS content
        assert span["color"] == span["markColor"] == rgb(colors[label]), span
    # the text of each panel, as the browser lays it out, is the document's text
    texts = {(t["doc"], t["side"]): t["text"] for t in measured["texts"]}
    assert texts[("0", "gold")] == texts[("0", "pred")] == records[0]["text"]
    assert texts[("1", "gold")] == records[1]["text"]
    # labels do not overlap one another
    boxes = [s for s in measured["spans"]]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            if (a["doc"], a["side"]) == (b["doc"], b["side"]):
                assert (
                    a["right"] <= b["x"] or b["right"] <= a["x"] or a["bottom"] <= b["top"] or b["bottom"] <= a["top"]
                )
    # gold and prediction side by side: the predicted panel starts right of the gold one
    assert spans[("0", "pred", "PER", "Obama")]["panelX"] > spans[("0", "gold", "PER", "Barack Obama")]["x"] + 100
    # the per-label chart (strict) draws a bar for each label with a non-zero F: LOC only
    assert len(measured["bars"]) == 3 and sum(width > 0 for width in measured["bars"]) == 1


def css_rules(css):
    """{selector: its declarations} of a flat stylesheet (no @-rules)."""
    rules = {}
    for selectors, body in re.findall(r"([^{}]+)\{([^}]*)\}", re.sub(r"/\*.*?\*/", "", css, flags=re.S)):
        for selector in selectors.split(","):
            rules[selector.strip()] = rules.get(selector.strip(), "") + body
    return rules


@pytest.mark.parametrize(
    "command",
    [
        ["compare", "examples/gold.jsonl", "examples/pred.jsonl", "-s", "strict"],
        ["agree", "examples/gold.jsonl", "examples/pred.jsonl", "-s", "strict"],
        ["sweep", "examples/gold.jsonl", "examples/scored.jsonl", "-s", "strict"],
    ],
    ids=["report", "agreement", "sweep"],
)
def test_the_signature_wraps_on_every_page(command, tmp_path, monkeypatch):
    # The signature is one long word (`a:1|b:2|...`): without a rule that
    # lets it break anywhere it runs past the page's right edge.
    from helpers import ROOT

    monkeypatch.chdir(ROOT)
    page = tmp_path / "page.html"
    result = invoke([*command, "--html", page, "--silent"])
    assert result.exit_code == 0, result.output
    text = page.read_text(encoding="utf-8")
    holder = re.search(r'<p class="([^"]*)">Signature: <code>([^<]*)</code>', text)
    assert holder and " " not in holder.group(2).strip()
    rules = css_rules(re.search(r"<style>(.*?)</style>", text, re.S).group(1))
    wraps = [selector for selector, body in rules.items() if re.search(r"overflow-wrap:\s*anywhere", body)]
    assert {f".{name}" for name in holder.group(1).split()} & set(wraps), (
        f"no overflow-wrap: anywhere on {holder.group(0)!r}: {wraps}"
    )


@pytest.mark.slow  # starts a browser
def test_the_signature_stays_within_the_page_in_headless_chromium(tmp_path, monkeypatch):
    from helpers import ROOT

    monkeypatch.chdir(ROOT)
    page = tmp_path / "page.html"
    result = invoke(
        ["compare", "examples/gold.jsonl", "examples/pred.jsonl", "-s", "strict,iou", "--html", page, "--silent"]
    )
    assert result.exit_code == 0, result.output
    script = """<script>
const p = document.querySelector("p.signature"), body = document.body;
const pre = document.createElement("pre"); pre.id = "measured";
pre.textContent = JSON.stringify({right: p.getBoundingClientRect().right, scroll: p.scrollWidth, client: p.clientWidth,
                                  body: body.getBoundingClientRect().right, lines: p.getClientRects().length,
                                  height: p.getBoundingClientRect().height});
body.appendChild(pre);
</script>"""
    measured = measure_in_chromium(page.read_text(encoding="utf-8"), script, tmp_path)
    assert measured["scroll"] <= measured["client"] and measured["right"] <= measured["body"] + 1, measured
