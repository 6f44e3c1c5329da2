"""Checks of user settings. Each error names the setting, the value received
and what is valid."""
from typing import Any, Iterable, Optional, Tuple

#: Every scheme, in the order tables list them. The only list of names.
SCHEMES: Tuple[str, ...] = ("strict", "exact", "partial", "type", "iou", "overlap")
UNITS: Tuple[str, ...] = ("token", "char")


def check_schemes(schemes: Any, setting: str = "schemes") -> Tuple[str, ...]:
    """The schemes as a tuple of known names, in the order given.

    RAISES TypeError when no schemes are given, ValueError for unknown names.
    """
    valid = ", ".join(SCHEMES)
    if schemes is None:
        raise TypeError(f"No '{setting}' given: name at least one scheme. Valid schemes: {valid}")
    if isinstance(schemes, str):
        schemes = [s.strip() for s in schemes.split(",") if s.strip()]
    schemes = tuple(schemes)
    if not schemes:
        raise ValueError(f"'{setting}' is empty: name at least one scheme. Valid schemes: {valid}")
    for name in schemes:
        if name not in SCHEMES:
            raise ValueError(f"Unknown scheme {name!r} in '{setting}'. Valid schemes: {valid}")
    duplicates = sorted({name for name in schemes if schemes.count(name) > 1})
    if duplicates:
        raise ValueError(f"Scheme {duplicates[0]!r} is named twice in '{setting}'.")
    return schemes


def check_fraction(name: str, value: Any, *, optional: bool = False) -> Optional[float]:
    """A number in (0, 1], or None when optional and not set."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"'{name}' must be a number in (0, 1], got {value!r}.")
    if not 0.0 < value <= 1.0:
        raise ValueError(f"'{name}' must be in (0, 1] (greater than 0, at most 1), got {value!r}.")
    return float(value)


def check_unit(unit: Any) -> str:
    if unit not in UNITS:
        raise ValueError(f"Unknown unit {unit!r} in 'unit'. Valid units: {', '.join(UNITS)}")
    return unit


def check_beta(beta: Any) -> float:
    if isinstance(beta, bool) or not isinstance(beta, (int, float)) or not beta > 0:
        raise ValueError(f"'beta' must be a positive number, got {beta!r}.")
    return float(beta)


def check_labels(labels: Optional[Iterable[str]]) -> Optional[frozenset]:
    """None (all labels) or a non-empty set of label strings."""
    if labels is None:
        return None
    if isinstance(labels, str):
        raise ValueError(f"'labels' must be a list of label strings, got the string {labels!r}.")
    labels = list(labels)
    if not labels:
        raise ValueError("'labels' is empty: give None for all labels or a list of labels.")
    for label in labels:
        if not isinstance(label, str):
            raise ValueError(f"'labels' holds {label!r}, which is not a string.")
    return frozenset(labels)


def check_n_resamples(value: Any, setting: str = "n_resamples") -> int:
    """A positive integer (a bool is not one)."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"'{setting}' must be a positive integer, got {value!r}.")
    if value < 1:
        raise ValueError(f"'{setting}' must be a positive integer (at least 1), got {value!r}.")
    return int(value)


def check_open_fraction(name: str, value: Any) -> float:
    """A number strictly between 0 and 1 (a confidence level, an alpha)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"'{name}' must be a number in (0, 1), got {value!r}.")
    if not 0.0 < value < 1.0:
        raise ValueError(f"'{name}' must be in (0, 1) (greater than 0, less than 1), got {value!r}.")
    return float(value)


def check_seed(value: Any) -> int:
    """A non-negative integer, as numpy.random.default_rng takes it."""
    import numbers

    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"'seed' must be a non-negative integer, got {value!r}.")
    if value < 0:
        raise ValueError(f"'seed' must be a non-negative integer, got {value!r}.")
    return int(value)


def check_choice(setting: str, value: Any, valid: Tuple[str, ...]) -> str:
    """One of the valid names, spelled exactly."""
    if not isinstance(value, str) or value not in valid:
        raise ValueError(f"Unknown {setting} {value!r} in '{setting}'. Valid: {', '.join(valid)}")
    return value
