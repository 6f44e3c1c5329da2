"""`LabelMap`: labels renamed, merged or dropped before spans are matched,
on both sides or on each side apart.

A map is written as a dict: `{"PERSON": "PER", "GPE": "LOC", "NORP": None}`
renames on both sides (`None`, JSON's `null`, drops the spans of that
label; several labels may map to one), `{"gold": {...}, "pred": {...}}`
gives each side its own (a side left out is not mapped). A label the map
names, as a source or as a target, is *listed*; the spans of the others
are kept as they are and counted (`unmapped`), or are an error under
`map_unlisted="error"`.
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Mapping, Optional, Tuple

from .exceptions import InputError, SettingError

__all__ = ["LabelMap", "SIDES", "MAP_UNLISTED", "check_label_map"]

#: The sides a map may name apart.
SIDES: Tuple[str, ...] = ("gold", "pred")
#: What `map_unlisted` chooses from: keep unlisted labels (counted in a note), or refuse them.
MAP_UNLISTED: Tuple[str, ...] = ("keep", "error")

#: One side's map as pairs, sorted by source label (hashable, so that settings stay frozen).
Pairs = Tuple[Tuple[str, Optional[str]], ...]


@dataclass(frozen=True)
class LabelMap:
    """The label map of each side.

    gold (Optional[Tuple[Tuple[str, Optional[str]], ...]]): (label, new
        label or None) pairs; None: the gold is not mapped.
    pred (Optional[Tuple[Tuple[str, Optional[str]], ...]]): The same for
        the predictions.
    both (bool): Written as one map for both sides (its JSON is then one dict).
    """

    gold: Optional[Pairs] = None
    pred: Optional[Pairs] = None
    both: bool = False

    @classmethod
    def from_dict(cls, value: Mapping[str, Any]) -> "LabelMap":
        """A map from its dict form; SettingError naming what is wrong."""
        if not isinstance(value, Mapping):
            raise SettingError(
                f"must be a dict of labels ({{'PERSON': 'PER', 'NORP': None}}) or of sides "
                f"({{'gold': {{...}}, 'pred': {{...}}}}), not {type(value).__name__}",
                "label_map",
            )
        if value and set(value) <= set(SIDES) and all(isinstance(v, Mapping) for v in value.values()):
            gold, pred = (None if value.get(side) is None else _pairs(value[side], side) for side in SIDES)
            return cls(gold, pred)
        pairs = _pairs(value, None)
        return cls(pairs, pairs, both=True)

    @classmethod
    def read(cls, path: Any) -> "LabelMap":
        """A map from a JSON file of its dict form (UTF-8, a BOM is fine);
        InputError naming the file and what is wrong."""
        try:
            text = Path(path).read_text(encoding="utf-8-sig")
        except OSError as err:
            raise InputError(f"can't read the label map: {err.strerror or err}", path) from None
        try:
            value = json.loads(text)
        except ValueError as err:
            raise InputError(f"the label map is not JSON ({err})", path) from None
        try:
            return cls.from_dict(value)
        except SettingError as err:
            raise InputError(err.message, path, setting="label_map") from None

    def to_dict(self) -> Dict[str, Any]:
        """The dict the map was written as (for JSON and the signature)."""
        if self.both:
            return dict(self.gold or ())
        return {side: dict(getattr(self, side)) for side in self.sides}

    @property
    def sides(self) -> Tuple[str, ...]:
        """The sides that have a map."""
        return tuple(side for side in SIDES if getattr(self, side) is not None)

    def side(self, name: str) -> Dict[str, Optional[str]]:
        """The map of one side ("gold" or "pred") as a dict (empty: not mapped)."""
        return dict(getattr(self, name) or ())

    def listed(self, name: str) -> frozenset:
        """The labels one side's map names, as sources or as targets."""
        pairs = getattr(self, name) or ()
        return frozenset(label for label, _ in pairs) | frozenset(new for _, new in pairs if new is not None)


def _pairs(value: Any, side: Optional[str]) -> Pairs:
    where = "label_map" if side is None else f"label_map of the {side} side"
    if not isinstance(value, Mapping):
        raise SettingError(f"{where}: must be a dict of labels, not {type(value).__name__}", "label_map")
    for label, new in value.items():
        if not isinstance(label, str) or not label:
            raise SettingError(f"{where} maps {label!r}: a label is a non-empty string", "label_map")
        if isinstance(new, Mapping) and side is None:
            raise SettingError(
                f"{where} maps {label!r} to a dict: a map of sides has only the keys 'gold' and 'pred'",
                "label_map",
            )
        if new is not None and (not isinstance(new, str) or not new):
            raise SettingError(
                f"{where} maps {label!r} to {new!r}: a new label is a non-empty string or None (drop)", "label_map"
            )
    return tuple(sorted(value.items()))


def check_label_map(value: Any) -> Optional[LabelMap]:
    """A LabelMap from None, a LabelMap, its dict form or the path of a
    JSON file of it."""
    if value is None or isinstance(value, LabelMap):
        return value
    if isinstance(value, (str, Path)):
        return LabelMap.read(value)
    return LabelMap.from_dict(value)
