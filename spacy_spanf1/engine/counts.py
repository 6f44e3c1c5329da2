"""Counts are data: frozen records that add up. Ratios come from `metrics`.

A corpus score is the sum of its documents' counts, so a corpus can be
scored in parts and merged with `+`.
"""

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any, ClassVar, Dict

from .metrics import f_score, safe_div


class _Additive:
    """Field-wise `+` for count records (and `sum()`, which starts at 0)."""

    if TYPE_CHECKING:
        # What the subclasses (frozen dataclasses) provide.
        __dataclass_fields__: ClassVar[Dict[str, Any]]

        @property
        def credit(self) -> float: ...

        @property
        def predicted(self) -> int: ...

        @property
        def possible(self) -> int: ...

    def __add__(self, other):
        if not isinstance(other, type(self)):
            return NotImplemented
        return type(self)(*(a + b for a, b in zip(self._values(), other._values())))

    def __radd__(self, other):
        if other == 0:
            return self
        return NotImplemented

    def _values(self):
        return tuple(getattr(self, f.name) for f in fields(self))

    def to_dict(self) -> Dict[str, int]:
        """RETURNS (Dict[str, int]): The raw counts by name."""
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def precision(self) -> float:
        return safe_div(self.credit, self.predicted)

    @property
    def recall(self) -> float:
        return safe_div(self.credit, self.possible)

    @property
    def f1(self) -> float:
        return f_score(self.precision, self.recall)

    @property
    def is_empty(self) -> bool:
        """True when no gold and no predicted span was counted."""
        return self.predicted == 0 and self.possible == 0


@dataclass(frozen=True)
class SemEvalCounts(_Additive):
    """SemEval-2013 counts: correct, incorrect, partial, missed, spurious.

    POS = COR + INC + PAR + MIS (gold spans), ACT = COR + INC + PAR + SPU
    (predicted spans). A partial match earns half credit; only the `partial`
    and `type` schemes produce partial matches, so one formula serves all
    four SemEval schemes.
    """

    cor: int = 0
    inc: int = 0
    par: int = 0
    mis: int = 0
    spu: int = 0

    @property
    def possible(self) -> int:
        return self.cor + self.inc + self.par + self.mis

    @property
    def predicted(self) -> int:
        return self.cor + self.inc + self.par + self.spu

    @property
    def credit(self) -> float:
        return self.cor + 0.5 * self.par


@dataclass(frozen=True)
class PRFCounts(_Additive):
    """True positives, false positives, false negatives."""

    tp: int = 0
    fp: int = 0
    fn: int = 0

    @property
    def possible(self) -> int:
        return self.tp + self.fn

    @property
    def predicted(self) -> int:
        return self.tp + self.fp

    @property
    def credit(self) -> int:
        return self.tp
