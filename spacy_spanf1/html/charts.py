"""Inline SVG charts on [0, 1] x [0, 1]: curves (one per series, each
with its best point marked), a calibration diagram, and their legend.

A curve is drawn with at most `MAX_POINTS` points whatever its length: a
longer one is thinned to evenly spaced points, keeping the first, the
last and the best (`chart_indices`). A curve that coincides with an
earlier one is drawn dashed over it, so that both show.
"""

from typing import Any, Dict, List, NamedTuple, Optional, Sequence, Tuple

import numpy

from .page import escape

#: At most this many points are drawn of a curve.
MAX_POINTS = 500
#: A colour per series, in order (then again).
COLORS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2")

#: The plot area of a curve chart, and its margins.
WIDTH, HEIGHT = 560, 360
LEFT, RIGHT, TOP, BOTTOM = 50, 20, 15, 40
#: The plot area of a calibration diagram.
SMALL = 260

#: The rules of the charts, added to a page's own (`page.render_page(css=...)`).
CHART_CSS = """
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


class Curve(NamedTuple):
    """One series of a curve chart: its name (the `data-scheme` of its
    marks), colour, the points drawn, and its best point (x, y and the
    text of its tooltip) or None."""

    name: str
    color: str
    xs: Sequence[float]
    ys: Sequence[float]
    best: Optional[Tuple[float, float, str]] = None


def series_color(i: int) -> str:
    """The colour of the i-th series."""
    return COLORS[i % len(COLORS)]


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


def axes(left: int, top: int, width: int, height: int, x_title: str, y_title: str) -> List[str]:
    """The frame, the grid at every 0.2, the tick labels and the axis titles."""
    out = ['<g class="grid">']
    ticks = [i / 5 for i in range(6)]
    for t in ticks:
        x, y = _x(t, left, width), _y(t, top, height)
        out.append(f'<line x1="{x:.2f}" y1="{top}" x2="{x:.2f}" y2="{top + height}"/>')
        out.append(f'<line x1="{left}" y1="{y:.2f}" x2="{left + width}" y2="{y:.2f}"/>')
    out.append("</g>")
    for t in ticks:
        out.append(
            f'<text class="tick" x="{_x(t, left, width):.2f}" y="{top + height + 14}" '
            f'text-anchor="middle">{t:.1f}</text>'
        )
        out.append(
            f'<text class="tick" x="{left - 6}" y="{_y(t, top, height) + 4:.2f}" text-anchor="end">{t:.1f}</text>'
        )
    out.append(f'<rect class="frame" x="{left}" y="{top}" width="{width}" height="{height}"/>')
    out.append(
        f'<text class="axis-title" x="{left + width / 2:.2f}" y="{top + height + 32}" '
        f'text-anchor="middle">{x_title}</text>'
    )
    out.append(
        f'<text class="axis-title" transform="translate({left - 36},{top + height / 2:.2f}) rotate(-90)" '
        f'text-anchor="middle">{y_title}</text>'
    )
    return out


def curve_chart(
    chart_id: str, curves: Sequence[Curve], x_title: str, y_title: str, css_class: str = "curve-chart"
) -> str:
    """One chart of curves, the best point of each marked; a curve with
    the points of an earlier one is drawn dashed over it (`data-same-as`
    names the earlier one)."""
    esc = escape
    full_w, full_h = LEFT + WIDTH + RIGHT, TOP + HEIGHT + BOTTOM
    out = [
        f'<svg id="{chart_id}" class="{css_class}" width="{full_w}" height="{full_h}" '
        f'viewBox="0 0 {full_w} {full_h}" role="img" aria-label="{y_title} against {x_title}">'
    ]
    out += axes(LEFT, TOP, WIDTH, HEIGHT, x_title, y_title)
    drawn: Dict[str, str] = {}  # points -> the first curve drawn with them
    for curve in curves:
        points = _points(curve.xs, curve.ys, LEFT, TOP, WIDTH, HEIGHT)
        if points in drawn:  # dashed over the earlier one, which shows between the dashes
            out.append(
                f'<polyline class="curve same" data-scheme="{esc(curve.name)}" '
                f'data-same-as="{esc(drawn[points])}" stroke="{curve.color}" points="{points}"/>'
            )
        else:
            drawn[points] = curve.name
            out.append(
                f'<polyline class="curve" data-scheme="{esc(curve.name)}" stroke="{curve.color}" points="{points}"/>'
            )
        if curve.best is not None:
            bx, by, title = curve.best
            out.append(
                f'<circle class="best" data-scheme="{esc(curve.name)}" cx="{_x(bx, LEFT, WIDTH):.2f}" '
                f'cy="{_y(by, TOP, HEIGHT):.2f}" r="5" fill="{curve.color}"><title>{esc(title)}</title></circle>'
            )
    out.append("</svg>")
    return "".join(out)


def legend(entries: Sequence[Tuple[str, str, Optional[str]]], marks: str = "") -> str:
    """The legend of the curves: (name, colour, the earlier curve it
    repeats or None) each, then what the marks mean (text)."""
    esc = escape
    items = [
        f'<span class="legend-item" data-scheme="{esc(name)}"><span class="swatch" '
        f'style="background: {color}"></span>{esc(name)}'
        + (f' <span class="same-as">(same curves as {esc(same)}, dashed)</span>' if same is not None else "")
        + "</span>"
        for name, color, same in entries
    ]
    return '<div class="legend">' + "".join(items) + (f" <span>{esc(marks)}</span>" if marks else "") + "</div>"


def calibration_chart(name: str, bins: Sequence[Any], color: str) -> str:
    """The reliability diagram of one series: per non-empty bin (`lower`,
    `upper`, `count`, `mean_score`, `share_correct`) its mean score against
    its share correct (a dot, its count written beside it), the diagonal
    of perfect calibration, and bars of the bin counts."""
    esc = escape
    left, top, size = 45, 10, SMALL
    full_w, full_h = left + size + 15, top + size + 40
    n_max = max([b.count for b in bins] + [1])
    out = [
        f'<svg class="reliability" data-scheme="{esc(name)}" width="{full_w}" height="{full_h}" '
        f'viewBox="0 0 {full_w} {full_h}" role="img" aria-label="reliability diagram, {esc(name)}">'
    ]
    out += axes(left, top, size, size, "mean score", "share correct")
    for b in bins:  # the counts as bars along the bottom, a fifth of the height at most
        if b.count:
            h = size / 5 * b.count / n_max
            out.append(
                f'<rect class="bar" x="{_x(b.lower, left, size) + 1:.2f}" y="{top + size - h:.2f}" '
                f'width="{(b.upper - b.lower) * size - 2:.2f}" height="{h:.2f}"/>'
            )
    out.append(f'<line class="diagonal" x1="{left}" y1="{top + size}" x2="{left + size}" y2="{top}"/>')
    for b in bins:
        if not b.count:
            continue
        cx, cy = _x(b.mean_score, left, size), _y(b.share_correct, top, size)
        out.append(
            f'<circle class="bin" data-count="{b.count}" cx="{cx:.2f}" cy="{cy:.2f}" r="4" fill="{color}">'
            f"<title>[{b.lower:.1f}, {b.upper:.1f}): {b.count} predictions, mean score "
            f"{b.mean_score:.3f}, share correct {b.share_correct:.3f}</title></circle>"
        )
        out.append(f'<text class="bin-count" x="{cx + 6:.2f}" y="{cy - 6:.2f}">{b.count}</text>')
    out.append("</svg>")
    return "".join(out)
