"""The cells of the pages' tables: bars and interval whiskers on 0-100 %,
heat-map cells, and the table's frame."""

from typing import Any, Mapping, Optional, Sequence, Tuple

from ..report.text import format_pct
from .page import escape

#: A heat map runs from this colour (value 0) to that one (value 1).
LOW_RGB: Tuple[int, int, int] = (230, 124, 115)
HIGH_RGB: Tuple[int, int, int] = (87, 187, 138)
#: The end of every table `table_start` opens.
TABLE_END = "</tbody></table>"


def table_start(css_class: str, head: Sequence[str], *, attributes: str = "") -> str:
    """A table's opening up to its body: one row of head cells (HTML, each
    a <th>), the table's class, and any more attributes (HTML)."""
    return f'<table class="{css_class}"{attributes}><thead><tr>{"".join(head)}</tr></thead><tbody>'


def pct_width(value: float) -> float:
    """A ratio as a width in percent, within 0-100."""
    return max(0.0, min(100.0, value * 100))


def bar_cell(value: float, fill: str = "bar-fill") -> str:
    """A cell holding a bar as wide as the ratio (of the cell's width)."""
    return f'<td class="bar"><div class="{fill}" style="width: {pct_width(value):.2f}%"></div></td>'


def whisker(low: float, high: float) -> str:
    """An interval [low, high] of ratios drawn over a bar (at least a sliver wide)."""
    left, right = pct_width(low), pct_width(high)
    return f'<div class="whisker" style="left: {left:.2f}%; width: {max(right - left, 0.4):.2f}%"></div>'


def ci_cells(ci: Optional[Mapping[str, Any]]) -> str:
    """Two cells of an interval of F (`ci["f"]`: estimate, low, high):
    "F [low, high]" as text, and as a range with a tick on 0-100 %."""
    if not ci:
        return "<td></td><td></td>"
    f = ci["f"]
    low, high = pct_width(f["low"]), pct_width(f["high"])
    return (
        f'<td class="ci-text">{format_pct(f["estimate"])} [{format_pct(f["low"])}, {format_pct(f["high"])}]</td>'
        f'<td class="text"><div class="ci-bar"><div class="range" style="left: {low:.2f}%; width: {high - low:.2f}%">'
        f'</div><div class="tick" style="left: {pct_width(f["estimate"]):.2f}%"></div></div></td>'
    )


def heat_color(value: float, low: Tuple[int, int, int] = LOW_RGB, high: Tuple[int, int, int] = HIGH_RGB) -> str:
    """The heat map colour of a value in [0, 1]: `low` blended into `high`."""
    value = max(0.0, min(1.0, value))
    return "#{:02x}{:02x}{:02x}".format(*(round(lo + (hi - lo) * value) for lo, hi in zip(low, high)))


def heat_cell(value: float, content: str, data: Optional[Mapping[str, str]] = None) -> str:
    """A cell of a heat map: coloured by its value in [0, 1], its content
    (HTML), and data attributes (`data-NAME`, escaped)."""
    attributes = "".join(f' data-{name}="{escape(text)}"' for name, text in (data or {}).items())
    return f'<td class="cell"{attributes} style="background: {heat_color(value)}">{content}</td>'
