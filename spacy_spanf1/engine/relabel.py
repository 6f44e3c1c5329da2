"""A label map applied to the spans of a batch, before they are matched.

Each side's labels are renamed (or the spans dropped, a label mapped to
None) on the label column of its arrays. Spans that the map makes
identical (the same offsets, two labels mapped to one) overlap each other,
so the scorer scores their documents one by one, from the spans mapped by
`Relabel.spans`, which counts them once: of such a group, the spans of the
source label with the lowest id are kept, as often as they were given.
The labels the map does not name are counted per side
(`Relabel.unmapped`), or refused.
"""

from typing import Any, Dict, List, Sequence, Tuple

import numpy

from ..exceptions import InputError
from ..label_map import SIDES, LabelMap
from ..notes import SIDE_NAMES, quoted, spans_counted
from ..spans import Span
from .columns import Side

__all__ = ["Relabel"]


class Relabel:
    """A label map as the scorer applies it.

    label_map (LabelMap): The map of each side.
    refuse_unlisted (bool): An InputError for a label the map does not name.
    """

    def __init__(self, label_map: LabelMap, refuse_unlisted: bool = False) -> None:
        self.label_map = label_map
        self.refuse_unlisted = refuse_unlisted
        self._maps = {side: label_map.side(side) for side in SIDES}
        self._listed = {side: label_map.listed(side) for side in SIDES}
        #: side -> label -> spans of that label the map does not name.
        self.unmapped: Dict[str, Dict[str, int]] = {side: {} for side in SIDES}

    def targets(self) -> List[str]:
        """The new labels of both sides (the scorer gives them ids first)."""
        return sorted({new for m in self._maps.values() for new in m.values() if new is not None})

    def remap(self, side: str, label_ids: Dict[str, int]) -> numpy.ndarray:
        """New id (-1: dropped) by old id, for one side's label column."""
        mapping = self._maps[side]
        new_ids = [-1 if (new := mapping.get(name, name)) is None else label_ids[new] for name in label_ids]
        return numpy.array(new_ids, dtype=numpy.int64)

    def side(self, name: str, side: Side, label_ids: Dict[str, int], first_doc: int) -> Side:
        """One side's spans with their labels mapped."""
        names = list(label_ids)
        if name not in self.label_map.sides:
            return side
        counts = numpy.bincount(side.label, minlength=len(names))
        self._count_unlisted(name, counts, names, first_doc)
        remap = self.remap(name, label_ids)
        label = remap[side.label]
        doc, start, end, _ = side
        if (remap[counts > 0] < 0).any():  # a label of the data is dropped
            keep = label >= 0
            doc, start, end, label = doc[keep], start[keep], end[keep], label[keep]
        # Spans that the map puts at one place with one label overlap each other: the
        # scorer scores their documents one by one, from `spans`, which counts them once.
        return Side(doc, start, end, label)

    def spans(self, name: str, spans: Sequence[Span], label_ids: Dict[str, int]) -> List[Span]:
        """One document's spans with their labels mapped, as `side` maps
        them (its unlisted labels are counted there)."""
        if name not in self.label_map.sides:
            return list(spans)
        mapping = self._maps[name]
        first: Dict[Any, int] = {}
        mapped: List[Tuple[Span, int]] = []
        for span in spans:
            new = mapping.get(span[2], span[2])
            if new is None:
                continue
            raw = label_ids[span[2]]
            # a span of several fragments keeps them (a tuple key like a Span's)
            key = Span(span[0], span[1], new) if len(span) == 3 else span._replace(label=new)
            first[key] = min(first.get(key, raw), raw)
            mapped.append((key, raw))
        return sorted(span for span, raw in mapped if first[span] == raw)

    def _count_unlisted(self, name: str, counts: numpy.ndarray, names: List[str], first_doc: int) -> None:
        listed = self._listed[name]
        unmapped = self.unmapped[name]
        for label_id in numpy.flatnonzero(counts).tolist():
            label = names[label_id]
            if label in listed:
                continue
            if self.refuse_unlisted:
                raise InputError(
                    f"the label map does not name the {SIDE_NAMES[name]} label {quoted(label)} "
                    f"({spans_counted(int(counts[label_id]))} from document {first_doc} on): map it (null drops it), "
                    f"or set 'map_unlisted' to keep; the map names "
                    f"{', '.join(map(quoted, sorted(listed))) or 'no label'}",
                    setting="label_map",
                )
            unmapped[label] = unmapped.get(label, 0) + int(counts[label_id])
