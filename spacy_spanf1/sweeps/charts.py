"""The HTML page of a sweep: a precision-recall chart and an F-by-threshold
chart with a curve per scheme, a reliability diagram per scheme, and the
tables of average precision, best thresholds and each label's best.

The charts are inline SVG, the page has its CSS inline and no JavaScript.
A curve is drawn with at most `MAX_POINTS` points whatever the corpus
size: a longer one is thinned to evenly spaced thresholds, keeping the
first, the last and the best (`chart_indices`), and the page says so.
A curve that coincides with an earlier scheme's is drawn dashed over it,
so that both show, and the legend says which it repeats.
"""
import html
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy

from ..report import CSS
from ..results import signature_text
from .results import SchemeSweep, SweepResult

#: At most this many points are drawn of a curve.
MAX_POINTS = 500
#: A colour per scheme, in the order the schemes were swept (then again).
COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2")

#: The plot area of the two curve charts, and its margins.
WIDTH, HEIGHT = 560, 360
LEFT, RIGHT, TOP, BOTTOM = 50, 20, 15, 40
#: The plot area of a reliability diagram.
SMALL = 260

#: The rules of the sweep page beside the report's own (report.CSS).
PAGE_CSS = """
.charts { display: flex; flex-wrap: wrap; gap: 2rem; align-items: flex-start; }
svg { background: #fff; overflow: visible; }
svg .frame { fill: none; stroke: #999; }
svg .grid line { stroke: #eee; }
svg .tick { font-size: 11px; fill: #555; }
svg .axis-title { font-size: 12px; fill: #333; }
svg .curve { fill: none; stroke-width: 2; stroke-linejoin: round; }
svg .curve.same { stroke-dasharray: 8 8; }
svg .best { stroke: #222; stroke-width: 1.5; }
svg .diagonal { stroke: #999; stroke-dasharray: 4 3; }
svg .bin { stroke: #222; stroke-width: 1; }
svg .bin-count { font-size: 10px; fill: #333; }
svg .bar { fill: #dde4ec; }
.legend { display: flex; flex-wrap: wrap; gap: 1rem; margin: 0.5rem 0; font-size: 0.9rem; }
.legend .swatch { display: inline-block; width: 1.4rem; height: 0.25rem; vertical-align: middle; margin-right: 0.3rem; }
"""


def scheme_color(i: int) -> str:
    return COLORS[i % len(COLORS)]


def best_index(swept: SchemeSweep) -> Optional[int]:
    """The index of the best threshold among the thresholds; None when
    there is no best."""
    if swept.best is None or not len(swept.thresholds):
        return None
    return int(numpy.argmin(numpy.abs(swept.thresholds - swept.best.threshold)))


def chart_indices(n: int, best: Optional[int], max_points: int = MAX_POINTS) -> numpy.ndarray:
    """The indices of the points drawn of a curve of n points: all of them
    when n <= max_points, else evenly spaced ones with the first, the last
    and `best` among them, at most max_points in all."""
    if n <= max_points:
        return numpy.arange(n)
    room = max_points - (best is not None)
    picked = numpy.unique(numpy.round(numpy.linspace(0, n - 1, max(room, 2))).astype(int))
    if best is not None:
        picked = numpy.unique(numpy.append(picked, best))
    return picked


def _x(value: float, left: int, width: int) -> float:
    return left + value * width


def _y(value: float, top: int, height: int) -> float:
    return top + (1 - value) * height


def _points(xs: Sequence[float], ys: Sequence[float], left: int, top: int, width: int, height: int) -> str:
    return " ".join(f"{_x(x, left, width):.2f},{_y(y, top, height):.2f}" for x, y in zip(xs, ys))


def _axes(left: int, top: int, width: int, height: int, x_title: str, y_title: str) -> List[str]:
    """The frame, the grid at every 0.2, the tick labels and the axis titles."""
    out = ['<g class="grid">']
    ticks = [i / 5 for i in range(6)]
    for t in ticks:
        x, y = _x(t, left, width), _y(t, top, height)
        out.append(f'<line x1="{x:.2f}" y1="{top}" x2="{x:.2f}" y2="{top + height}"/>')
        out.append(f'<line x1="{left}" y1="{y:.2f}" x2="{left + width}" y2="{y:.2f}"/>')
    out.append("</g>")
    for t in ticks:
        out.append(f'<text class="tick" x="{_x(t, left, width):.2f}" y="{top + height + 14}" '
                   f'text-anchor="middle">{t:.1f}</text>')
        out.append(f'<text class="tick" x="{left - 6}" y="{_y(t, top, height) + 4:.2f}" '
                   f'text-anchor="end">{t:.1f}</text>')
    out.append(f'<rect class="frame" x="{left}" y="{top}" width="{width}" height="{height}"/>')
    out.append(f'<text class="axis-title" x="{left + width / 2:.2f}" y="{top + height + 32}" '
               f'text-anchor="middle">{x_title}</text>')
    out.append(f'<text class="axis-title" transform="translate({left - 36},{top + height / 2:.2f}) rotate(-90)" '
               f'text-anchor="middle">{y_title}</text>')
    return out


def _curve_chart(result: SweepResult, chart_id: str, x_of: str, y_of: str, x_title: str, y_title: str,
                 max_points: int) -> str:
    """One chart, a curve per scheme (x_of, y_of: the SchemeSweep arrays
    drawn), the best point of each marked."""
    esc = html.escape
    full_w, full_h = LEFT + WIDTH + RIGHT, TOP + HEIGHT + BOTTOM
    out = [f'<svg id="{chart_id}" class="sweep-chart" width="{full_w}" height="{full_h}" '
           f'viewBox="0 0 {full_w} {full_h}" role="img" aria-label="{y_title} against {x_title}">']
    out += _axes(LEFT, TOP, WIDTH, HEIGHT, x_title, y_title)
    drawn: Dict[str, str] = {}  # points -> the first scheme drawn with them
    for i, (scheme, swept) in enumerate(result.items()):
        color = scheme_color(i)
        best = best_index(swept)
        keep = chart_indices(len(swept.thresholds), best, max_points)
        xs, ys = getattr(swept, x_of)[keep], getattr(swept, y_of)[keep]
        points = _points(xs, ys, LEFT, TOP, WIDTH, HEIGHT)
        if points in drawn:  # dashed over the earlier one, which shows between the dashes
            out.append(f'<polyline class="curve same" data-scheme="{esc(scheme)}" data-same-as="{esc(drawn[points])}" '
                       f'stroke="{color}" points="{points}"/>')
        else:
            drawn[points] = scheme
            out.append(f'<polyline class="curve" data-scheme="{esc(scheme)}" stroke="{color}" points="{points}"/>')
        if best is not None:
            bx, by = getattr(swept, x_of)[best], getattr(swept, y_of)[best]
            out.append(
                f'<circle class="best" data-scheme="{esc(scheme)}" cx="{_x(bx, LEFT, WIDTH):.2f}" '
                f'cy="{_y(by, TOP, HEIGHT):.2f}" r="5" fill="{color}"><title>{esc(scheme)}: best threshold '
                f"{swept.best.threshold:.4g}, F {swept.best.f1:.4f}</title></circle>"
            )
    out.append("</svg>")
    return "".join(out)


def same_curves(result: SweepResult) -> Dict[str, str]:
    """{scheme: the first earlier scheme with the same curves}: the same
    thresholds, precision, recall and F."""
    same: Dict[str, str] = {}
    items = list(result.items())
    for i, (scheme, swept) in enumerate(items):
        for earlier, other in items[:i]:
            if earlier not in same and all(
                numpy.array_equal(getattr(swept, name), getattr(other, name))
                for name in ("thresholds", "precision", "recall", "f1")
            ):
                same[scheme] = earlier
                break
    return same


def _legend(result: SweepResult) -> str:
    esc = html.escape
    same = same_curves(result)
    items = [f'<span class="legend-item" data-scheme="{esc(scheme)}"><span class="swatch" '
             f'style="background: {scheme_color(i)}"></span>{esc(scheme)}'
             + (f' <span class="same-as">(same curves as {esc(same[scheme])}, dashed)</span>' if scheme in same else "")
             + "</span>"
             for i, scheme in enumerate(result)]
    return '<div class="legend">' + "".join(items) + " <span>● best threshold</span></div>"


def _reliability(scheme: str, swept: SchemeSweep, color: str) -> str:
    """The reliability diagram of one scheme: per non-empty bin its mean
    score against its share correct (a dot, its count written beside it),
    the diagonal of perfect calibration, and bars of the bin counts."""
    esc = html.escape
    left, top, size = 45, 10, SMALL
    full_w, full_h = left + size + 15, top + size + 40
    bins = swept.calibration.bins
    n_max = max([b.count for b in bins] + [1])
    out = [f'<svg class="reliability" data-scheme="{esc(scheme)}" width="{full_w}" height="{full_h}" '
           f'viewBox="0 0 {full_w} {full_h}" role="img" aria-label="reliability diagram, {esc(scheme)}">']
    out += _axes(left, top, size, size, "mean score", "share correct")
    for b in bins:  # the counts as bars along the bottom, a fifth of the height at most
        if b.count:
            h = size / 5 * b.count / n_max
            out.append(f'<rect class="bar" x="{_x(b.lower, left, size) + 1:.2f}" y="{top + size - h:.2f}" '
                       f'width="{(b.upper - b.lower) * size - 2:.2f}" height="{h:.2f}"/>')
    out.append(f'<line class="diagonal" x1="{left}" y1="{top + size}" x2="{left + size}" y2="{top}"/>')
    for b in bins:
        if not b.count:
            continue
        cx, cy = _x(b.mean_score, left, size), _y(b.share_correct, top, size)
        out.append(f'<circle class="bin" data-count="{b.count}" cx="{cx:.2f}" cy="{cy:.2f}" r="4" fill="{color}">'
                   f"<title>[{b.lower:.1f}, {b.upper:.1f}): {b.count} predictions, mean score "
                   f"{b.mean_score:.3f}, share correct {b.share_correct:.3f}</title></circle>")
        out.append(f'<text class="bin-count" x="{cx + 6:.2f}" y="{cy - 6:.2f}">{b.count}</text>')
    out.append("</svg>")
    return "".join(out)


def _summary_table(result: SweepResult) -> List[str]:
    esc = html.escape
    out = ['<table class="summary"><thead><tr><th>scheme</th><th>AP</th><th>best threshold</th><th>F</th>'
           "<th>F interval</th><th>thresholds</th><th>ECE</th></tr></thead><tbody>"]
    for scheme, swept in result.items():
        best = swept.best
        interval = ""
        if best is not None and best.interval is not None:
            ci = best.interval.to_dict()
            interval = f"[{ci.get('low', float('nan')):.4f}, {ci.get('high', float('nan')):.4f}]"
        out.append(
            f'<tr data-scheme="{esc(scheme)}"><td>{esc(scheme)}</td><td>{swept.ap:.4f}</td>'
            f'<td>{"-" if best is None else f"{best.threshold:.4g}"}</td>'
            f'<td>{"-" if best is None else f"{best.f1:.4f}"}</td><td>{interval}</td>'
            f"<td>{len(swept.thresholds)}</td><td>{swept.calibration.ece:.4f}</td></tr>"
        )
    out.append("</tbody></table>")
    return out


def _label_table(result: SweepResult) -> List[str]:
    """Each label's best threshold and F, a column pair per scheme."""
    esc = html.escape
    labels = sorted({label for swept in result.values() for label in swept.per_label})
    if not labels:
        return []
    head = "".join(f'<th colspan="2">{esc(scheme)}</th>' for scheme in result)
    sub = "".join("<th>threshold</th><th>F</th>" for _ in result)
    out = [f'<table class="per-label"><thead><tr><th rowspan="2">label</th>{head}</tr><tr>{sub}</tr></thead><tbody>']
    for label in labels:
        cells = []
        for swept in result.values():
            best = swept.per_label_best.get(label)
            cells.append("<td>-</td><td>-</td>" if best is None
                         else f"<td>{best.threshold:.4g}</td><td>{best.f1:.4f}</td>")
        out.append(f'<tr data-label="{esc(label)}"><td>{esc(label)}</td>{"".join(cells)}</tr>')
    out.append("</tbody></table>")
    return out


def _thinning_note(result: SweepResult, max_points: int) -> str:
    """What the curves show: every threshold, or how many of them."""
    thinned: List[Tuple[str, int, int]] = []
    for scheme, swept in result.items():
        n = len(swept.thresholds)
        drawn = len(chart_indices(n, best_index(swept), max_points))
        if drawn < n:
            thinned.append((scheme, drawn, n))
    if not thinned:
        return f'<p class="note thinning">Every threshold is drawn (at most {max_points} points a curve).</p>'
    said = "; ".join(f"{html.escape(s)}: {drawn} of {n}" for s, drawn, n in thinned)
    return (f'<p class="note thinning">Curves are drawn with at most {max_points} points: evenly spaced '
            f"thresholds, the first, the last and the best kept ({said} thresholds drawn). The tables and "
            "the JSON output hold every threshold.</p>")


def render_sweep_html(result: SweepResult, *, sources: Sequence[str] = (), max_points: int = MAX_POINTS) -> str:
    """One self-contained HTML page of a sweep.

    result (SweepResult): From `sweep`, `sweep_files` or `sweep_pipeline`.
    sources (Sequence[str]): The files (or pipeline and corpus) swept, shown
        at the top.
    max_points (int): Draw at most this many points of a curve.
    RETURNS (str): The page: the summary table, the precision-recall chart,
        F against threshold, a reliability diagram per scheme and each
        label's best threshold.
    """
    if max_points < 3:
        raise ValueError(f"max_points must be at least 3 (the first, last and best points), not {max_points}")
    esc = html.escape
    out = ["<!DOCTYPE html>", '<html lang="en"><head><meta charset="utf-8">',
           "<title>spacy-spanf1 sweep</title>", f"<style>{CSS}{PAGE_CSS}</style></head><body>", "<h1>Threshold sweep</h1>"]
    if sources:
        out.append('<p class="meta">' + " · ".join(f"<code>{esc(str(src))}</code>" for src in sources) + "</p>")
    if result.signature:
        out.append(f'<p class="meta signature">Signature: <code>{esc(signature_text(result.signature))}</code></p>')
    out.append("<h2>Average precision and best thresholds</h2>")
    out += _summary_table(result)
    out.append(f'<p class="note">Best threshold: highest F, ties to the '
               f'{esc(str(result.signature.get("sweep", {}).get("ties", "highest")))} threshold. ECE: expected '
               "calibration error over 10 equal-width score bins.</p>")
    out.append("<h2>Curves</h2>")
    out.append(_legend(result))
    out.append(_thinning_note(result, max_points))
    out.append('<div class="charts">')
    out.append('<figure><figcaption>Precision against recall</figcaption>'
               + _curve_chart(result, "pr-chart", "recall", "precision", "recall", "precision", max_points)
               + "</figure>")
    out.append('<figure><figcaption>F against threshold</figcaption>'
               + _curve_chart(result, "f-chart", "thresholds", "f1", "threshold", "F", max_points) + "</figure>")
    out.append("</div>")
    out.append("<h2>Reliability</h2>")
    out.append('<p class="note">Every prediction judged with all predictions present, binned by score: per bin '
               "the mean score against the share correct, with the count of the bin beside its dot and as a bar; "
               "the dashed diagonal is perfect calibration.</p>")
    out.append('<div class="charts">')
    for i, (scheme, swept) in enumerate(result.items()):
        out.append(f"<figure><figcaption>{esc(scheme)} (ECE {swept.calibration.ece:.4f})</figcaption>"
                   + _reliability(scheme, swept, scheme_color(i)) + "</figure>")
    out.append("</div>")
    labels = _label_table(result)
    if labels:
        out.append("<h2>Best threshold per label</h2>")
        out += labels
    out.append("</body></html>")
    return "\n".join(out)


def write_sweep_html(path: Any, result: SweepResult, **options: Any) -> None:
    """Write `render_sweep_html(result, **options)` to path as UTF-8."""
    from pathlib import Path

    Path(path).write_text(render_sweep_html(result, **options), encoding="utf-8")
