"""The HTML page of a sweep: a precision-recall chart and an F-by-threshold
chart with a curve per scheme, a reliability diagram per scheme, and the
tables of average precision, best thresholds and each label's best.

Built from the widgets of `spacy_spanf1.html` (the charts are inline SVG,
`html.charts`): the page has its CSS inline and no JavaScript. A curve is
drawn with at most `MAX_POINTS` points whatever the corpus size (thinned
as `chart_indices` says), and the page says so. A curve that coincides
with an earlier scheme's is drawn dashed over it, so that both show, and
the legend says which it repeats.
"""

from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy

from ..html.charts import (
    CHART_CSS,
    MAX_POINTS,
    Curve,
    calibration_chart,
    chart_indices,
    curve_chart,
    legend,
    series_color,
)
from ..html.page import escape, render_page, signature_block, sources_text, write_html
from ..html.tables import TABLE_END, table_start
from .results import SchemeSweep, SweepResult


def best_index(swept: SchemeSweep) -> Optional[int]:
    """The index of the best threshold among the thresholds; None when
    there is no best."""
    if swept.best is None or not len(swept.thresholds):
        return None
    return int(numpy.argmin(numpy.abs(swept.thresholds - swept.best.threshold)))


def _curve_chart(
    result: SweepResult, chart_id: str, x_of: str, y_of: str, x_title: str, y_title: str, max_points: int
) -> str:
    """One chart, a curve per scheme (x_of, y_of: the SchemeSweep arrays
    drawn), the best point of each marked."""
    curves = []
    for i, (scheme, swept) in enumerate(result.items()):
        best = best_index(swept)
        keep = chart_indices(len(swept.thresholds), best, max_points)
        xs, ys = getattr(swept, x_of), getattr(swept, y_of)
        marked = None
        if best is not None:
            marked = (xs[best], ys[best], f"{scheme}: best threshold {swept.best.threshold:.4g}, F {swept.best.f1:.4f}")
        curves.append(Curve(scheme, series_color(i), xs[keep], ys[keep], marked))
    return curve_chart(chart_id, curves, x_title, y_title, css_class="sweep-chart")


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
    same = same_curves(result)
    return legend([(scheme, series_color(i), same.get(scheme)) for i, scheme in enumerate(result)], "● best threshold")


def _summary_table(result: SweepResult) -> List[str]:
    esc = escape
    out = [
        table_start(
            "summary",
            [
                "<th>scheme</th>",
                "<th>AP</th>",
                "<th>best threshold</th>",
                "<th>F</th>",
                "<th>F interval</th>",
                "<th>thresholds</th>",
                "<th>ECE</th>",
            ],
        )
    ]
    for scheme, swept in result.items():
        best = swept.best
        interval = ""
        if best is not None and best.interval is not None:
            ci = best.interval.to_dict()
            interval = f"[{ci.get('low', float('nan')):.4f}, {ci.get('high', float('nan')):.4f}]"
        out.append(
            f'<tr data-scheme="{esc(scheme)}"><td>{esc(scheme)}</td><td>{swept.ap:.4f}</td>'
            f"<td>{'-' if best is None else f'{best.threshold:.4g}'}</td>"
            f"<td>{'-' if best is None else f'{best.f1:.4f}'}</td><td>{interval}</td>"
            f"<td>{len(swept.thresholds)}</td><td>{swept.calibration.ece:.4f}</td></tr>"
        )
    out.append(TABLE_END)
    return out


def _label_table(result: SweepResult) -> List[str]:
    """Each label's best threshold and F, a column pair per scheme."""
    esc = escape
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
            cells.append(
                "<td>-</td><td>-</td>" if best is None else f"<td>{best.threshold:.4g}</td><td>{best.f1:.4f}</td>"
            )
        out.append(f'<tr data-label="{esc(label)}"><td>{esc(label)}</td>{"".join(cells)}</tr>')
    out.append(TABLE_END)
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
    said = "; ".join(f"{escape(s)}: {drawn} of {n}" for s, drawn, n in thinned)
    return (
        f'<p class="note thinning">Curves are drawn with at most {max_points} points: evenly spaced '
        f"thresholds, the first, the last and the best kept ({said} thresholds drawn). The tables and "
        "the JSON output hold every threshold.</p>"
    )


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
    esc = escape
    out: List[str] = []
    if sources:
        out.append('<p class="meta">' + sources_text(sources) + "</p>")
    if result.signature:
        out.append(signature_block(result.signature))
    out.append("<h2>Average precision and best thresholds</h2>")
    out += _summary_table(result)
    out.append(
        f'<p class="note">Best threshold: highest F, ties to the '
        f"{esc(str(result.signature.get('sweep', {}).get('ties', 'highest')))} threshold. ECE: expected "
        "calibration error over 10 equal-width score bins.</p>"
    )
    out.append("<h2>Curves</h2>")
    out.append(_legend(result))
    out.append(_thinning_note(result, max_points))
    out.append('<div class="charts">')
    out.append(
        "<figure><figcaption>Precision against recall</figcaption>"
        + _curve_chart(result, "pr-chart", "recall", "precision", "recall", "precision", max_points)
        + "</figure>"
    )
    out.append(
        "<figure><figcaption>F against threshold</figcaption>"
        + _curve_chart(result, "f-chart", "thresholds", "f1", "threshold", "F", max_points)
        + "</figure>"
    )
    out.append("</div>")
    out.append("<h2>Reliability</h2>")
    out.append(
        '<p class="note">Every prediction judged with all predictions present, binned by score: per bin '
        "the mean score against the share correct, with the count of the bin beside its dot and as a bar; "
        "the dashed diagonal is perfect calibration.</p>"
    )
    out.append('<div class="charts">')
    for i, (scheme, swept) in enumerate(result.items()):
        out.append(
            f"<figure><figcaption>{esc(scheme)} (ECE {swept.calibration.ece:.4f})</figcaption>"
            + calibration_chart(scheme, swept.calibration.bins, series_color(i))
            + "</figure>"
        )
    out.append("</div>")
    labels = _label_table(result)
    if labels:
        out.append("<h2>Best threshold per label</h2>")
        out += labels
    return render_page("spacy-spanf1 sweep", out, css=CHART_CSS, heading="Threshold sweep")


def write_sweep_html(path: Any, result: SweepResult, **options: Any) -> None:
    """Write `render_sweep_html(result, **options)` to path as UTF-8."""
    write_html(path, render_sweep_html(result, **options))
