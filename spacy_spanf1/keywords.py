"""How the Python front doors take their settings: a settings object
(`match=MatchSettings(...)`, `read=ReadSettings(...)`, ...), or the
object's fields as typed keywords, or both.

A keyword left out is `UNSET` (not None: None is a value several settings
take, `unit=None` for the input's own). `settings_from` builds the object
a front door works with: the given object, or the class's defaults, with
every keyword that was given written over its field, and checked again
(so `compare_files(g, p, match=m, schemes="iou")` scores m's settings
under iou: a keyword given beside an object wins, as
`MatchSettings.replace` would have it). `front_door` makes an unknown
keyword a TypeError that lists the keywords the door takes.
"""

import enum
import functools
import inspect
from typing import Any, Callable, Iterable, Optional, Type, TypeVar, Union, cast

from .exceptions import SettingError
from .settings import Settings, comma_list, default_of

__all__ = ["UNSET", "Unset", "front_door", "given", "refuse_set", "settings_from", "unknown_keyword"]


class Unset(enum.Enum):
    """The type of UNSET: a keyword the caller did not give."""

    UNSET = "UNSET"

    def __repr__(self) -> str:
        return "UNSET"


#: A keyword the caller did not give (its field keeps the object's value).
UNSET = Unset.UNSET

S = TypeVar("S", bound=Settings)
T = TypeVar("T")
F = TypeVar("F", bound=Callable[..., Any])
#: A keyword of a front door: a value, or UNSET.
Maybe = Union[T, Unset]


def given(**keywords: Any) -> dict:
    """The keywords that were given (not UNSET)."""
    return {name: value for name, value in keywords.items() if value is not UNSET}


def settings_from(cls: Type[S], obj: Optional[S], name: str, **keywords: Any) -> S:
    """The settings a front door works with: `obj` (or `cls()` with its
    defaults when None) with each keyword that is not UNSET written over
    its field, checked again. `labels` and `by` may be comma-separated
    strings. A keyword names a field of cls.

    name (str): The door's parameter that took obj ("match", "read"),
        named when obj is not a `cls`.
    Raises TypeError when obj is not a cls; SettingError (from cls) for a
    bad value.
    """
    if obj is not None and not isinstance(obj, cls):
        raise TypeError(f"'{name}' must be a {cls.__name__} (or None), got {type(obj).__name__}: {obj!r}")
    changes = given(**keywords)
    if "labels" in changes and changes["labels"] is not None:
        changes["labels"] = comma_list(changes["labels"])
    if obj is None:
        return cls(**changes)
    return obj.replace(**changes) if changes else obj


def unknown_keyword(where: str, name: str, valid: Iterable[str]) -> TypeError:
    """The error of a keyword a front door does not take, listing those it does."""
    return TypeError(f"{where}() got an unexpected keyword argument {name!r}. Valid keywords: {', '.join(valid)}")


def front_door(func: F) -> F:
    """func, with an unknown keyword a TypeError naming the keywords it
    takes (Python's own error names only the one it does not). A door with
    `**reader_options` checks those itself."""
    parameters = inspect.signature(func).parameters.values()
    valid = tuple(
        p.name
        for p in parameters
        if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    )
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters)
    names = frozenset(valid)

    @functools.wraps(func)
    def door(*args: Any, **kwargs: Any) -> Any:
        if not takes_any:
            for name in kwargs:
                if name not in names:
                    raise unknown_keyword(func.__name__, name, valid)
        return func(*args, **kwargs)

    door.keywords = valid  # type: ignore[attr-defined]  # what the door takes, for its own checks
    return cast(F, door)  # the door's own signature, for type checkers and help()


def refuse_set(obj: Settings, names: Iterable[str], where: str) -> None:
    """A SettingError for the first of these fields of obj that is not its
    class's default: a setting the front door `where` does not apply."""
    for name in names:
        if getattr(obj, name) != default_of(type(obj), name):
            raise SettingError(f"'{name}' ({getattr(obj, name)!r}) does not apply to {where}", name)
