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
keyword a TypeError that lists the keywords the door takes, and builds a
door's settings objects of its keywords before the door's body runs. A
door declares the keywords it takes as `**keywords: Unpack[...]` of a
TypedDict of `keyword_types`, which `front_door` writes into the door's
signature one by one.
"""

import enum
import functools
import inspect
import typing
from typing import Any, Callable, Dict, Iterable, Mapping, Optional, Type, TypeVar, Union, cast, overload

from .exceptions import SettingError
from .keyword_types import ReaderKeywords
from .settings import ReadSettings, Settings, comma_list, default_of, field_names

__all__ = [
    "UNSET",
    "Unset",
    "built",
    "door_of",
    "front_door",
    "given",
    "refuse_set",
    "settings_from",
    "unknown_keyword",
    "with_options",
]


class Unset(enum.Enum):
    """The type of UNSET: a keyword the caller did not give."""

    UNSET = "UNSET"

    def __repr__(self) -> str:
        return "UNSET"


#: A keyword the caller did not give (its field keeps the object's value).
UNSET = Unset.UNSET

S = TypeVar("S", bound=Settings)
#: The reader settings a door may declare (listed apart in its errors).
READER_SETTINGS = frozenset(typing.get_type_hints(ReaderKeywords))
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
    for name in ("labels", "relation_labels"):
        if name in changes and changes[name] is not None:
            changes[name] = comma_list(changes[name])
    if obj is None:
        return cls(**changes)
    return obj.replace(**changes) if changes else obj


def unknown_keyword(where: str, name: str, valid: Iterable[str]) -> TypeError:
    """The error of a keyword a front door does not take, listing those it does."""
    return TypeError(f"{where}() got an unexpected keyword argument {name!r}. Valid keywords: {', '.join(valid)}")


#: What checks a door's reader settings: (door name, door, options) -> the options.
CheckExtra = Callable[[str, Callable[..., Any], Mapping[str, Any]], Dict[str, Any]]


@overload
def front_door(func: F) -> F: ...


@overload
def front_door(
    func: None = None,
    *,
    check_extra: Optional[CheckExtra] = None,
    reader_settings: Iterable[str] = (),
    **groups: Type[Settings],
) -> Callable[[F], F]: ...


def front_door(
    func: Optional[F] = None,
    *,
    check_extra: Optional[CheckExtra] = None,
    reader_settings: Iterable[str] = (),
    **groups: Type[Settings],
) -> Any:
    """func, with an unknown keyword a TypeError naming the keywords it
    takes (Python's own error names only the one it does not), unless
    check_extra takes the keywords the door does not declare.

    groups: `@front_door(match=MatchSettings, read=ReadSettings)`: before
    func runs, its parameter `match` becomes the MatchSettings
    `settings_from` builds of the object given (or None) and of the
    door's keywords that are the class's fields (`schemes`, `unit`, ...),
    which func then does not see. The door declares the keywords it takes
    as `**keywords: Unpack[SomeKeywords]` (or as keyword-only parameters
    with the default UNSET); a declared keyword no group takes (a reader
    setting, what a corpus door keeps) reaches func in `**keywords`. Which
    object a keyword fills is said once, here.
    check_extra: for a door that takes reader settings, called as
    `check_extra(name, door, options)` with the keywords no TypedDict
    declares, before
    any settings object is built, so that a misspelled keyword is named as
    one (a TypeError) rather than as the setting it left out; it returns
    the options func gets.
    reader_settings: declared keywords that are reader settings of this
    door though a group has a field of the name (`spans_key` of the
    DocBins an agreement or a sweep reads): handed on in `**keywords`.
    """
    decorate = door_of(groups, check_extra=check_extra, reader_settings=reader_settings)
    return decorate if func is None else decorate(func)


def door_of(
    groups: Mapping[str, Type[Settings]],
    *,
    check_extra: Optional[CheckExtra] = None,
    reader_settings: Iterable[str] = (),
) -> Callable[[F], F]:
    """`front_door(**groups, ...)`, its groups given as a mapping (for a
    decorator of doors alike: `door_of(groups, check_extra=...)`)."""

    def decorate(func: F) -> F:
        return _door(func, dict(groups), check_extra, frozenset(reader_settings))

    return decorate


def _declared(func: Callable[..., Any], parameter: Optional[inspect.Parameter]) -> Dict[str, Any]:
    """The keywords a door declares as `**keywords: Unpack[SomeKeywords]`
    (a TypedDict of `keyword_types`): name -> type; {} for an untyped one."""
    if parameter is None or parameter.annotation is inspect.Parameter.empty:
        return {}
    annotation = typing.get_type_hints(func)[parameter.name]
    if typing.get_origin(annotation) is not typing.Unpack:
        return {}
    (keywords,) = typing.get_args(annotation)
    return dict(typing.get_type_hints(keywords))


def _door(
    func: F,
    groups: Dict[str, Type[Settings]],
    check_extra: Optional[Callable[..., Dict[str, Any]]],
    reader_settings: frozenset = frozenset(),
) -> F:
    signature = inspect.signature(func)
    parameters = signature.parameters
    extra = next((p.name for p in parameters.values() if p.kind is inspect.Parameter.VAR_KEYWORD), None)
    declared = _declared(func, parameters.get(extra) if extra else None)
    explicit = tuple(
        p.name
        for p in parameters.values()
        if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    )
    owners: Dict[str, str] = {}
    for group, cls in groups.items():
        if group not in explicit:
            raise TypeError(f"{func.__name__}() has no parameter {group!r} for its {cls.__name__}")
        for name in field_names(cls):
            if (name in explicit or name in declared) and name not in groups and name not in reader_settings:
                if name in owners:
                    raise TypeError(f"{func.__name__}(): {name!r} is a field of both {owners[name]!r} and {group!r}")
                owners[name] = group
    # what no settings object takes (reader settings) is handed on in **keywords
    passed = [name for name in declared if name not in owners]
    # The declared keywords stand after the settings objects they fill (a
    # door that takes reader settings lists those apart).
    at = max((i + 1 for i, name in enumerate(explicit) if name in groups or name == "match"), default=len(explicit))
    keywords = tuple(name for name in declared if name in owners or name not in READER_SETTINGS | reader_settings)
    valid = explicit[:at] + keywords + explicit[at:]
    names = frozenset(valid) | frozenset(passed)
    # When every settings object and every field is keyword-only (each door
    # so far), they are taken from the keywords as given, without binding
    # the call to the signature (which costs a scorer of a few documents a
    # tenth of its time).
    keyword_only = all(
        name not in parameters or parameters[name].kind is inspect.Parameter.KEYWORD_ONLY for name in (*groups, *owners)
    )

    @functools.wraps(func)
    def door(*args: Any, **kwargs: Any) -> Any:
        unknown = [name for name in kwargs if name not in names]
        if unknown and check_extra is None:
            raise unknown_keyword(func.__name__, unknown[0], valid)
        if unknown and check_extra is not None:
            options = {name: kwargs.pop(name) for name in unknown}
            kwargs.update(check_extra(func.__name__, door, options))
        if not groups:
            return func(*args, **kwargs)
        if keyword_only:
            fields: Dict[str, Dict[str, Any]] = {group: {} for group in groups}
            for name in [name for name in kwargs if name in owners]:
                fields[owners[name]][name] = kwargs.pop(name)
            for group, cls in groups.items():
                kwargs[group] = settings_from(cls, kwargs.get(group), group, **fields[group])
            return func(*args, **kwargs)
        bound = signature.bind(*args, **kwargs)
        arguments = bound.arguments  # args and kwargs follow its changes
        pool = arguments.get(extra, {}) if extra else {}
        found: Dict[str, Dict[str, Any]] = {group: {} for group in groups}
        for where in (arguments, pool):
            for name in [name for name in where if name in owners]:
                found[owners[name]][name] = where.pop(name)
        for group, cls in groups.items():
            arguments[group] = settings_from(cls, arguments.get(group), group, **found[group])
        return func(*bound.args, **bound.kwargs)

    door.keywords = valid  # type: ignore[attr-defined]  # what the door takes, for its own checks
    if declared:  # help() and inspect list each declared keyword
        door.__signature__ = _listed(signature, declared, at, keep_extra=check_extra is not None)  # type: ignore[attr-defined]
    return cast(F, door)  # the door's own signature, for type checkers


def _listed(signature: inspect.Signature, declared: Mapping[str, Any], at: int, keep_extra: bool) -> inspect.Signature:
    """signature with its `**keywords` written out as keyword-only
    parameters, each UNSET by default, after its first `at` parameters
    (and `**keywords` kept last for the reader settings no TypedDict
    declares)."""
    named = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
    written = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=UNSET, annotation=Union.__getitem__((t, Unset)))
        for name, t in declared.items()
    ]
    extra = [p for p in signature.parameters.values() if p.kind is inspect.Parameter.VAR_KEYWORD and keep_extra]
    return signature.replace(parameters=named[:at] + written + named[at:] + extra)


def built(obj: Optional[S]) -> S:
    """A settings object `front_door` has built, as its type (the door's
    parameter is Optional to its callers, never to its body)."""
    if obj is None:
        raise RuntimeError("a settings object front_door did not build: the door lacks it in @front_door(...)")
    return obj


def with_options(read: ReadSettings, options: Mapping[str, Any]) -> ReadSettings:
    """read with a door's `**reader_options` written over its `options`."""
    return read.replace(options={**read.options, **options}) if options else read


def refuse_set(obj: Settings, names: Iterable[str], where: str) -> None:
    """A SettingError for the first of these fields of obj that is not its
    class's default: a setting the front door `where` does not apply."""
    for name in names:
        if getattr(obj, name) != default_of(type(obj), name):
            raise SettingError(f"'{name}' ({getattr(obj, name)!r}) does not apply to {where}", name)
