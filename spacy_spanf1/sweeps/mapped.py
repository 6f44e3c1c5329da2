"""A label map applied to the flat columns of a sweep, before it matches.

Each side's label column is rewritten by that side's map (a label mapped
to None drops its spans); a side without a map is left as it is. The
labels a side's map does not name are kept and their distinct spans
counted (the sweep's `unmapped`, and a warning), or refused under
`map_unlisted="error"`.
Spans the map puts at one place with one label are then one span, as the
sweep counts a span given twice: the gold span once, the prediction once
with the highest score of those merged.
"""

from typing import Dict, List, Sequence, Tuple

import numpy

from ..exceptions import InputError
from ..label_map import SIDES, LabelMap
from ..notes import SIDE_NAMES, quoted, spans_counted
from .keys import as_int64, label_ids, pack_keys

__all__ = ["map_columns"]

#: side -> label -> spans of that label its map does not name.
Unmapped = Dict[str, Dict[str, int]]


def map_columns(
    gold_columns: Sequence, pred_columns: Sequence, label_map: LabelMap, refuse_unlisted: bool = False
) -> Tuple[Sequence, Sequence, Unmapped]:
    """The gold (document, start, end, label) and scored (document, start,
    end, label, score) columns with each side's labels mapped, and the
    spans of labels the maps do not name, by side.

    Raises InputError for such a label when refuse_unlisted, naming the
    side, the label, its spans and the first document holding one.
    """
    unmapped: Unmapped = {}
    out = []
    for side, columns in zip(SIDES, (gold_columns, pred_columns)):
        if side not in label_map.sides:
            out.append(columns)
            continue
        found: Dict[str, int] = {}
        out.append(_mapped(side, columns, label_map, refuse_unlisted, found))
        if found:
            unmapped[side] = found
    return out[0], out[1], unmapped


def _mapped(side: str, columns: Sequence, label_map: LabelMap, refuse: bool, unmapped: Dict[str, int]) -> List:
    mapping, listed = label_map.side(side), label_map.listed(side)
    labels = columns[3]
    names = sorted(set(labels))
    inverse = label_ids(labels, {label: i for i, label in enumerate(names)})
    unlisted = [i for i, label in enumerate(names) if label not in listed]
    if unlisted:
        counts = _distinct_spans(columns, inverse, len(names))
        if refuse:
            i = unlisted[0]
            first = int(numpy.asarray(columns[0])[numpy.flatnonzero(inverse == i)].min())
            raise InputError(
                f"the label map does not name the {SIDE_NAMES[side]} label {quoted(names[i])} "
                f"({spans_counted(int(counts[i]))}, the first in document {first}): map it (null drops it), "
                f"or set 'map_unlisted' to keep; the map names {', '.join(map(quoted, sorted(listed))) or 'no label'}",
                setting="label_map",
            )
        unmapped.update((names[i], int(counts[i])) for i in unlisted)
    new = [mapping.get(label, label) for label in names]
    renamed = [new[i] for i in inverse.tolist()]
    if None not in new:
        return [*columns[:3], renamed, *columns[4:]]
    keep = numpy.flatnonzero(numpy.array([label is not None for label in new], dtype=bool)[inverse])
    kept = [numpy.asarray(column)[keep] for i, column in enumerate(columns) if i != 3]
    return [*kept[:3], [renamed[i] for i in keep.tolist()], *kept[3:]]


def _distinct_spans(columns: Sequence, inverse: numpy.ndarray, n_labels: int) -> numpy.ndarray:
    """Per label id, its distinct spans (a span given twice is one, as the
    sweep counts it)."""
    [keys] = pack_keys([*(as_int64(c) for c in columns[:3]), inverse.astype(numpy.int64)])
    _, first = numpy.unique(keys, return_index=True)
    return numpy.bincount(inverse[first], minlength=n_labels)
