"""A scheme's confusion matrix: which gold label met which predicted label.

`Confusion` maps (gold label, predicted label) to a count, "O" standing
for no span on that side: (L, "O") counts gold spans of L left without a
prediction, ("O", L) predictions of L left without a gold span. Only the
cells that are not zero are held, so it compares equal to a plain dict of
them. Its `labels` are sorted with "O" last, its `matrix` has a row per
gold label and a column per predicted label, in that order.
docs/definitions.md says what each scheme counts in its cells.
"""

from collections.abc import Mapping
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

__all__ = ["OUTSIDE", "Confusion", "overlap_confusion"]

#: The label of "no span" in a confusion matrix.
OUTSIDE = "O"

Cell = Tuple[str, str]


class Confusion(Mapping):
    """The non-zero cells of a confusion matrix, keyed (gold, predicted).

    cells (Mapping[Tuple[str, str], int]): (gold label or "O", predicted
        label or "O") -> count; cells of 0 are left out.
    labels (Iterable[str]): labels to show in `labels` and `matrix` even
        when all their cells are 0 (e.g. every label of the result).
    """

    __slots__ = ("_cells", "_extra")

    def __init__(self, cells: Optional[Mapping[Cell, int]] = None, labels: Iterable[str] = ()) -> None:
        found: Dict[Cell, int] = {}
        for (gold, pred), n in (cells or {}).items():
            n = int(n)
            if n:
                found[(gold, pred)] = found.get((gold, pred), 0) + n
        self._cells = dict(sorted(found.items(), key=_cell_order))
        self._extra = frozenset(label for label in labels if label != OUTSIDE)

    # Mapping ---------------------------------------------------------------

    def __getitem__(self, cell: Cell) -> int:
        return self._cells[cell]

    def __iter__(self) -> Iterator[Cell]:
        return iter(self._cells)

    def __len__(self) -> int:
        return len(self._cells)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Mapping):
            return self._cells == dict(other.items())
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Confusion({self._cells!r})"

    def __reduce__(self):
        return (Confusion, (self._cells, sorted(self._extra)))

    # The matrix -------------------------------------------------------------

    @property
    def labels(self) -> List[str]:
        """The labels of the rows and of the columns: sorted, "O" last."""
        found = set(self._extra)
        for gold, pred in self._cells:
            found.add(gold)
            found.add(pred)
        found.discard(OUTSIDE)
        return sorted(found) + [OUTSIDE]

    @property
    def matrix(self) -> List[List[int]]:
        """The counts, a row per gold label and a column per predicted
        label, both in the order of `labels`."""
        labels = self.labels
        at = {label: i for i, label in enumerate(labels)}
        rows = [[0] * len(labels) for _ in labels]
        for (gold, pred), n in self._cells.items():
            rows[at[gold]][at[pred]] = n
        return rows

    def row_sums(self) -> Dict[str, int]:
        """gold label -> the sum of its row, in the order of `labels`."""
        return dict(zip(self.labels, (sum(row) for row in self.matrix)))

    def column_sums(self) -> Dict[str, int]:
        """predicted label -> the sum of its column, in the order of `labels`."""
        return dict(zip(self.labels, (sum(column) for column in zip(*self.matrix))))

    def diagonal(self) -> Dict[str, int]:
        """label -> the count of (label, label), "O" left out."""
        return {label: self._cells.get((label, label), 0) for label in self.labels[:-1]}

    def to_frame(self):
        """RETURNS (pandas.DataFrame): the matrix, gold labels as the index,
        predicted labels as the columns. Needs pandas."""
        try:
            import pandas  # type: ignore[import-untyped]
        except ImportError:  # pragma: no cover - pandas comes with the dev extra
            raise ImportError("Confusion.to_frame needs pandas: pip install pandas") from None
        labels = self.labels
        frame = pandas.DataFrame(self.matrix, index=labels, columns=labels)
        frame.index.name = "gold"
        frame.columns.name = "predicted"
        return frame

    # Combining ----------------------------------------------------------------

    def __add__(self, other: Mapping) -> "Confusion":
        if not isinstance(other, Mapping):
            return NotImplemented
        cells = dict(self._cells)
        for cell, n in other.items():
            cells[cell] = cells.get(cell, 0) + n
        extra = self._extra | other._extra if isinstance(other, Confusion) else self._extra
        return Confusion(cells, extra)

    __radd__ = __add__

    def transposed(self) -> "Confusion":
        """The matrix with gold and predicted sides swapped."""
        return Confusion({(pred, gold): n for (gold, pred), n in self._cells.items()}, self._extra)

    # JSON ----------------------------------------------------------------

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): {"labels": [...], "matrix": [[...], ...]}."""
        return {"labels": self.labels, "matrix": self.matrix}

    @classmethod
    def from_dict(cls, data: Any) -> "Confusion":
        """The matrix `to_dict` wrote; also reads the older form, a list of
        [gold label, predicted label, count] rows."""
        if data is None:
            return cls()
        if isinstance(data, Mapping):
            labels = list(data["labels"])
            matrix = data["matrix"]
            if len(matrix) != len(labels) or any(len(row) != len(labels) for row in matrix):
                raise ValueError(
                    f"a confusion matrix of {len(labels)} labels needs {len(labels)} rows of {len(labels)}"
                )
            cells = {(gold, pred): int(n) for gold, row in zip(labels, matrix) for pred, n in zip(labels, row)}
            return cls(cells, labels)
        return cls({(gold, pred): int(n) for gold, pred, n in _rows(data)})


def overlap_confusion(per_label: Mapping[str, Any]) -> Confusion:
    """The confusion of `overlap` from its counts per label: it pairs only
    spans of one label, so its matched pairs are the diagonal (TP), its
    unmatched gold spans the "O" column (FN), its unmatched predictions the
    "O" row (FP)."""
    cells: Dict[Cell, int] = {}
    for label, counts in per_label.items():
        cells[(label, label)] = counts.tp
        cells[(label, OUTSIDE)] = counts.fn
        cells[(OUTSIDE, label)] = counts.fp
    return Confusion(cells, per_label)


def _rows(data: Iterable[Any]) -> Iterator[Sequence[Any]]:
    for row in data:
        if len(row) != 3:
            raise ValueError(f"a confusion row is [gold, predicted, count], not {row!r}")
        yield row


def _cell_order(item: Tuple[Cell, int]) -> Tuple[bool, str, bool, str]:
    """Cells by gold label, then predicted label, "O" last on both."""
    (gold, pred), _ = item
    return (gold == OUTSIDE, gold, pred == OUTSIDE, pred)
