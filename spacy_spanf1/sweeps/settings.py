"""The settings of a sweep: which thresholds, and how ties are broken."""

import math
import numbers
from dataclasses import dataclass
from typing import Any, Dict, Optional, Tuple

import numpy

from ..exceptions import SettingError
from ..settings import Settings, check_count

#: The grids a sweep knows besides every distinct score.
GRIDS: Tuple[str, ...] = ("spacy",)
#: spaCy's `find-threshold` default number of trials.
N_TRIALS = 11
#: The component a pipeline's sweep sets the threshold of by default.
PIPE = "spancat"


@dataclass(frozen=True)
class SweepSettings(Settings):
    """Which thresholds a sweep reports.

    thresholds (Optional[Tuple[float, ...]]): Given thresholds in [0, 1]
        (sorted, each once).
    n_thresholds (Optional[int]): numpy.linspace(0, 1, n_thresholds).
    grid (Optional[str]): "spacy": numpy.linspace(0, 1, n_trials), the
        thresholds spaCy's find-threshold tries, and its choice of the best
        (ties go to the lowest threshold, as find-threshold keeps the first
        maximum).
    n_trials (int): Of grid="spacy", at least 2.
    With none of thresholds, n_thresholds and grid: every distinct score.
    Otherwise, the best threshold is the highest of those of highest F
    (fewer predictions for the same F).
    """

    thresholds: Optional[Tuple[float, ...]] = None
    n_thresholds: Optional[int] = None
    grid: Optional[str] = None
    n_trials: int = N_TRIALS

    def _check(self) -> Dict[str, Any]:
        given = [name for name in ("thresholds", "n_thresholds", "grid") if getattr(self, name) is not None]
        if len(given) > 1:
            raise SettingError(
                f"'{given[0]}' and '{given[1]}' both choose the thresholds: give one of thresholds, "
                "n_thresholds, grid (or none: every distinct score)",
                given[1],
            )
        if self.grid is not None and self.grid not in GRIDS:
            raise SettingError(f"Unknown grid {self.grid!r} in 'grid'. Valid grids: {', '.join(GRIDS)}", "grid")
        return {
            "thresholds": None if self.thresholds is None else _check_thresholds(self.thresholds),
            "n_thresholds": None if self.n_thresholds is None else check_count(self.n_thresholds, "n_thresholds", 2),
            "grid": self.grid,
            "n_trials": check_count(self.n_trials, "n_trials", 2),
        }

    @property
    def ties(self) -> str:
        """Which threshold of highest F is the best: "lowest" (spaCy's
        grid) or "highest"."""
        return "lowest" if self.grid == "spacy" else "highest"

    def grid_points(self) -> Optional[numpy.ndarray]:
        """The thresholds to report, ascending; None: every distinct score."""
        if self.thresholds is not None:
            return numpy.array(self.thresholds, dtype=numpy.float64)
        if self.n_thresholds is not None:
            return numpy.linspace(0, 1, self.n_thresholds)
        if self.grid == "spacy":
            return numpy.linspace(0, 1, self.n_trials)
        return None


def _check_thresholds(values: Any) -> Tuple[float, ...]:
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        raise SettingError(f"'thresholds' must be a list of numbers in [0, 1], got {values!r}.", "thresholds")
    values = list(values)
    if not values:
        raise SettingError(
            "'thresholds' is empty: give numbers in [0, 1], or None for every distinct score.", "thresholds"
        )
    for value in values:
        if (
            isinstance(value, bool)
            or not isinstance(value, numbers.Real)
            or math.isnan(value)
            or not 0 <= float(value) <= 1
        ):
            raise SettingError(f"'thresholds' holds {value!r}; thresholds are numbers in [0, 1].", "thresholds")
    return tuple(sorted(set(float(v) for v in values)))
