"""The confusion matrix of the compare page: a heat-mapped table, rows gold
labels, columns predicted labels, "O" (no span) last; correct cells in
green, confusions in red, each shade by its count; every off-diagonal cell
links to the first document shown with an error of that cell."""

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from .page import escape
from .tables import TABLE_END, heat_color, table_start

WHITE: Tuple[int, int, int] = (255, 255, 255)
#: The shade of a cell of the diagonal (a match) and of one off it (a confusion).
MATCH_RGB: Tuple[int, int, int] = (87, 187, 138)
CONFUSED_RGB: Tuple[int, int, int] = (230, 124, 115)
OUTSIDE = "O"

CSS = """
table.confusion td.cell { text-align: center; min-width: 2.4rem; font-variant-numeric: tabular-nums; }
table.confusion td.zero { color: #bbb; }
table.confusion th.pred { writing-mode: vertical-rl; transform: rotate(180deg); text-align: left; }
table.confusion td.cell a { color: inherit; }
"""

#: The error kinds that split a pair into (gold, O) and (O, predicted).
_APART = ("wrong_boundaries", "low_overlap")


def record_cells(record: Mapping[str, Any]) -> List[Tuple[str, str]]:
    """The off-diagonal cells an error record stands for: (gold label or
    O, predicted label or O); a boundary error or low overlap stands for
    both (gold, O) and (O, predicted), as well as the pair."""
    gold = record.get("gold")
    gold_label = OUTSIDE if gold is None else gold["label"]
    preds = [p["label"] for p in record.get("pred", ())]
    cells = [(gold_label, label) for label in preds] or [(gold_label, OUTSIDE)]
    if gold is not None and preds and record.get("kind") in _APART:
        cells += [(gold_label, OUTSIDE)] + [(OUTSIDE, label) for label in preds]
    return [(g, p) for g, p in cells if g != p]


def confusion_html(
    confusion: Mapping[str, Any],
    scheme: str,
    by_doc: Mapping[int, Sequence[Mapping[str, Any]]],
    shown: Sequence[int],
    linked: bool = True,
) -> List[str]:
    """The heat-mapped matrix of `{"labels", "matrix"}` (the JSON's
    confusion of `scheme`); when `linked` (the records are this scheme's
    errors) its off-diagonal cells link to the first of the documents shown
    with such an error."""
    esc = escape
    labels: List[str] = list(confusion["labels"])
    matrix: List[List[int]] = confusion["matrix"]
    first_doc: Dict[Tuple[str, str], int] = {}
    how_many: Dict[Tuple[str, str], int] = {}
    for index in shown if linked else ():
        found = {cell for record in by_doc.get(index, ()) for cell in record_cells(record)}
        for cell in found:
            first_doc.setdefault(cell, index)
            how_many[cell] = how_many.get(cell, 0) + 1
    most_diagonal = max([matrix[i][i] for i in range(len(labels) - 1)] + [1])
    most_off = max([n for i, row in enumerate(matrix) for j, n in enumerate(row) if i != j] + [1])
    out = [
        f"<h2>Confusion matrix ({esc(scheme)})</h2>",
        '<p class="note">Rows: gold labels; columns: predicted labels; O: no span (the O column counts gold '
        "spans left unmatched, the O row predictions left unmatched). "
        + (
            "A cell off the diagonal links to the first document shown with such an error.</p>"
            if linked
            else "The documents below show the primary scheme's errors.</p>"
        ),
        table_start(
            "confusion",
            ["<th>gold \\ predicted</th>"] + [f'<th class="pred">{esc(label)}</th>' for label in labels],
            attributes=f' data-scheme="{esc(scheme)}"',
        ),
    ]
    for i, gold in enumerate(labels):
        cells = [f"<th>{esc(gold)}</th>"]
        for j, pred in enumerate(labels):
            cells.append(
                _cell(
                    gold,
                    pred,
                    matrix[i][j],
                    i == j,
                    most_diagonal if i == j else most_off,
                    first_doc.get((gold, pred)),
                    how_many.get((gold, pred), 0),
                )
            )
        out.append(f"<tr>{''.join(cells)}</tr>")
    out.append(TABLE_END)
    return out


def _cell(gold: str, pred: str, n: int, diagonal: bool, most: int, doc: Optional[int], docs: int) -> str:
    esc = escape
    data = f' data-gold="{esc(gold)}" data-pred="{esc(pred)}"'
    if not n:
        return f'<td class="cell zero"{data}>0</td>'
    shade = heat_color(n / most, WHITE, MATCH_RGB if diagonal else CONFUSED_RGB)
    content = str(n)
    if doc is not None:
        title = f"{docs} document{'s' if docs != 1 else ''} shown with such errors"
        content = f'<a href="#doc-{doc}" title="{title}">{n}</a>'
    return f'<td class="cell"{data} style="background: {shade}">{content}</td>'
