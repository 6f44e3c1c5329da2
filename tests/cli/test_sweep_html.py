"""The --html page of `spacy-spanf1 sweep` (spacy_spanf1.sweeps.page):
laid out in headless Chromium, whose measurements are turned back into
data coordinates through each chart's frame, so that the points drawn are
checked against values worked out by hand."""

import re

import numpy
import pytest

from helpers import SWEEP_GOLD as GOLD, SWEEP_SCORED as SCORED, invoke, measure_in_chromium, write_jsonl
from spacy_spanf1.html.charts import chart_indices
from spacy_spanf1.sweeps import sweep
from spacy_spanf1.sweeps.page import render_sweep_html


# Injected into a copy of the page: every chart's frame, curves, best
# points and bins, in the SVG's own coordinates.
MEASURE = """
<script>
function frame(svg) {
  const r = svg.querySelector("rect.frame");
  return {x: +r.getAttribute("x"), y: +r.getAttribute("y"), w: +r.getAttribute("width"), h: +r.getAttribute("height")};
}
const charts = {};
for (const svg of document.querySelectorAll("svg.sweep-chart, svg.reliability")) {
  const key = svg.id || ("reliability-" + svg.dataset.scheme);
  const box = svg.getBoundingClientRect();
  charts[key] = {
    frame: frame(svg), width: box.width, height: box.height,
    curves: [...svg.querySelectorAll("polyline.curve")].map(p => ({
      scheme: p.dataset.scheme, stroke: p.getAttribute("stroke"), dash: getComputedStyle(p).strokeDasharray,
      points: [...Array(p.points.numberOfItems).keys()].map(i => [p.points.getItem(i).x, p.points.getItem(i).y]),
    })),
    best: [...svg.querySelectorAll("circle.best")].map(c => ({scheme: c.dataset.scheme, x: c.cx.baseVal.value, y: c.cy.baseVal.value})),
    bins: [...svg.querySelectorAll("circle.bin")].map(c => ({count: +c.dataset.count, x: c.cx.baseVal.value, y: c.cy.baseVal.value})),
    counts: [...svg.querySelectorAll("text.bin-count")].map(t => t.textContent),
    diagonal: svg.querySelectorAll("line.diagonal").length,
  };
}
const pre = document.createElement("pre");
pre.id = "measured";
pre.textContent = JSON.stringify({charts: charts, legend: [...document.querySelectorAll(".legend-item")].map(e => e.textContent)});
document.body.appendChild(pre);
</script>
"""


def data_point(chart, point):
    """An SVG point of a chart as (x, y) in [0, 1], through its frame."""
    f = chart["frame"]
    return ((point[0] - f["x"]) / f["w"], 1 - (point[1] - f["y"]) / f["h"])


def data_points(chart, points):
    return [data_point(chart, p) for p in points]


def write_files(tmp_path):
    preds = [
        {
            "text": g["text"],
            "spans": [{"start": s, "end": e, "label": label, "score": score} for s, e, label, score in doc],
        }
        for g, doc in zip(GOLD, SCORED)
    ]
    write_jsonl(tmp_path / "gold.jsonl", GOLD)
    write_jsonl(tmp_path / "pred.jsonl", preds)


@pytest.mark.slow  # starts a browser
def test_sweep_html_charts_in_headless_chromium(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    write_files(tmp_path)
    result = invoke(["sweep", "gold.jsonl", "pred.jsonl", "--schemes", "strict,iou", "--html", "sweep.html"])
    assert result.exit_code == 0, result.stderr
    page = (tmp_path / "sweep.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    measured = measure_in_chromium(page, MEASURE, tmp_path)
    charts = measured["charts"]
    assert set(charts) == {"pr-chart", "f-chart", "reliability-strict", "reliability-iou"}
    # iou counts what strict counts at every threshold here: its curves are
    # strict's, drawn dashed over them, and the legend says so
    assert measured["legend"] == ["strict", "iou (same curves as strict, dashed)"]
    for chart in charts.values():
        assert chart["width"] > 200 and chart["height"] > 200  # laid out, not collapsed
    # 4 gold spans; thresholds 0.2, 0.6, 0.8, 0.9 (the distinct scores), at
    # each under strict: TP 2, 2, 2, 1 of 4, 3, 2, 1 predicted.
    pr, f = charts["pr-chart"], charts["f-chart"]
    curves = {c["scheme"]: c for c in pr["curves"]}
    assert set(curves) == {"strict", "iou"} and curves["strict"]["stroke"] != curves["iou"]["stroke"]
    for chart in (pr, f):
        dashes = {c["scheme"]: c["dash"] for c in chart["curves"]}
        assert dashes["strict"] == "none" and dashes["iou"].replace("px", "") in {"8, 8", "8 8"}, dashes
        assert [c["points"] for c in chart["curves"] if c["scheme"] == "iou"] == [
            c["points"] for c in chart["curves"] if c["scheme"] == "strict"
        ]
    assert all(len(c["points"]) == 4 for c in pr["curves"] + f["curves"])
    strict_pr = data_points(pr, curves["strict"]["points"])
    assert strict_pr == [pytest.approx(p, abs=0.01) for p in [(0.5, 0.5), (0.5, 2 / 3), (0.5, 1.0), (0.25, 1.0)]]
    strict_f = data_points(f, {c["scheme"]: c for c in f["curves"]}["strict"]["points"])
    assert strict_f == [pytest.approx(p, abs=0.01) for p in [(0.2, 0.5), (0.6, 4 / 7), (0.8, 2 / 3), (0.9, 0.4)]]
    # the best point (0.8, F 2/3) is marked on both charts
    best = {b["scheme"]: b for b in pr["best"]}
    assert set(best) == {"strict", "iou"}
    assert data_point(pr, (best["strict"]["x"], best["strict"]["y"])) == pytest.approx((0.5, 1.0), abs=0.01)
    best_f = {b["scheme"]: b for b in f["best"]}["strict"]
    assert data_point(f, (best_f["x"], best_f["y"])) == pytest.approx((0.8, 2 / 3), abs=0.01)
    # reliability (strict): one prediction in each of bins 2, 6, 8 and 9;
    # 0.9 and 0.8 are right, 0.6 and 0.2 wrong.
    rel = charts["reliability-strict"]
    assert rel["diagonal"] == 1
    assert sorted(data_points(rel, [(b["x"], b["y"]) for b in rel["bins"]])) == [
        pytest.approx(p, abs=0.01) for p in [(0.2, 0.0), (0.6, 0.0), (0.8, 1.0), (0.9, 1.0)]
    ]
    assert [b["count"] for b in rel["bins"]] == [1, 1, 1, 1] and rel["counts"] == ["1", "1", "1", "1"]
    # the tables: AP 0.5 and best 0.8 under strict; PER's best 0.8 with F 0.8
    assert re.search(r'<tr data-scheme="strict"><td>strict</td><td>0\.5000</td><td>0\.8</td><td>0\.6667</td>', page)
    assert re.search(r'<tr data-label="PER"><td>PER</td><td>0\.8</td><td>0\.8000</td>', page)
    assert "Every threshold is drawn" in page


@pytest.mark.slow  # starts a browser
def test_long_curves_are_thinned_keeping_first_last_and_best(tmp_path):
    # 3000 documents, one gold PER each; a prediction per document with its
    # own score, right in every third document: 3000 distinct thresholds.
    n = 3000
    rng = numpy.random.default_rng(0)
    scores = rng.permutation(numpy.arange(1, n + 1) / (n + 1))
    gold = [[(0, 2, "PER")] for _ in range(n)]
    pred = [[(0, 2, "PER", float(s))] if i % 3 == 0 else [(3, 4, "PER", float(s))] for i, s in enumerate(scores)]
    # a reference run: the thresholds and curves the page is drawn from
    result = sweep(gold, pred, schemes=["strict", "partial"])
    strict = result["strict"]
    assert len(strict.thresholds) == n
    page = render_sweep_html(result, max_points=500)
    assert "500 of 3000" in page
    measured = measure_in_chromium(page, MEASURE, tmp_path)
    pr = measured["charts"]["pr-chart"]
    f = measured["charts"]["f-chart"]
    assert [len(c["points"]) for c in pr["curves"] + f["curves"]] == [500, 500, 500, 500]
    points = data_points(f, {c["scheme"]: c for c in f["curves"]}["strict"]["points"])
    # the first and last thresholds are drawn, with their F
    assert points[0] == pytest.approx((strict.thresholds[0], strict.f1[0]), abs=0.005)
    assert points[-1] == pytest.approx((strict.thresholds[-1], strict.f1[-1]), abs=0.005)
    # the best point is one of the points of the curve, and is marked
    k = int(numpy.argmax(strict.f1[::-1]))  # ties to the highest threshold
    best = (strict.thresholds[n - 1 - k], strict.f1[n - 1 - k])
    assert any(p == pytest.approx(best, abs=1e-3) for p in points)
    marked = {b["scheme"]: b for b in f["best"]}["strict"]
    assert data_point(f, (marked["x"], marked["y"])) == pytest.approx(best, abs=1e-3)
    # the thresholds drawn are in order along the x axis
    xs = [p[0] for p in points]
    assert xs == sorted(xs)


def test_chart_indices():
    assert chart_indices(4, 2, 500).tolist() == [0, 1, 2, 3]
    # 10 points, at most 5: 4 evenly spaced (0, 3, 6, 9) and the best, 7
    assert chart_indices(10, 7, 5).tolist() == [0, 3, 6, 7, 9]
    # a best already among them takes no room
    assert chart_indices(10, 6, 5).tolist() == [0, 3, 6, 9]
    # no best: 10 of 1000, 0 to 999 every 111
    assert chart_indices(1000, None, 10).tolist() == list(range(0, 1000, 111))


def test_page_is_escaped_and_self_contained():
    gold = [[(0, 2, "<i>&")]]
    pred = [[(0, 2, "<i>&", 0.7), (3, 4, "<i>&", 0.4)]]
    page = render_sweep_html(sweep(gold, pred, schemes=["strict"]), sources=["<b>.jsonl"])
    assert "<i>" not in page and "&lt;i&gt;&amp;" in page and "&lt;b&gt;.jsonl" in page
    assert "<script" not in page and "<link" not in page and not re.search(r'(src|href)="http', page)


def test_a_curve_that_coincides_with_an_earlier_one_is_dashed_and_named():
    # Each prediction either has a gold span's boundaries and label or
    # overlaps no gold span of its label, so iou (at 0.5) counts what strict
    # counts at every threshold: the same curves, one hidden under the other
    # if drawn alike. partial ignores labels ("Oslo" as PER is correct), so
    # its curves differ.
    gold = [[(s["start"], s["end"], s["label"]) for s in doc["spans"]] for doc in GOLD]
    page = render_sweep_html(sweep(gold, SCORED, schemes=["strict", "iou", "partial"]))
    curve = re.compile(
        r'<polyline class="(?P<cls>[^"]*)" data-scheme="(?P<scheme>[^"]*)"'
        r'(?: data-same-as="(?P<same>[^"]*)")? stroke="[^"]*" points="(?P<points>[^"]*)"/>'
    )
    for chart in ("pr-chart", "f-chart"):
        svg = re.search(rf'<svg id="{chart}".*?</svg>', page, re.S).group(0)
        curves = {m["scheme"]: m for m in curve.finditer(svg)}
        assert set(curves) == {"strict", "iou", "partial"}
        assert curves["iou"]["points"] == curves["strict"]["points"] != curves["partial"]["points"]
        assert (curves["iou"]["cls"], curves["iou"]["same"]) == ("curve same", "strict")
        assert curves["strict"]["cls"] == curves["partial"]["cls"] == "curve"
    assert "svg .curve.same { stroke-dasharray: 8 8; }" in page  # drawn dashed over strict's
    assert re.findall(
        r'data-scheme="(\w+)"><span class="swatch"[^>]*></span>\w+ <span class="same-as">([^<]*)<', page
    ) == [("iou", "(same curves as strict, dashed)")]
