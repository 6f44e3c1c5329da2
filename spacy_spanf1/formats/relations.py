"""Relations as readers read them: (head span, tail span, label) with the
spans by value (`Document.relations`), each checked where it is written.

A relation names two different spans of its document and has a label (a
non-empty string); anything else is an InputError naming the relation, its
file and line.
"""

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..exceptions import InputError, PathLike
from ..spans import Span, is_int

__all__ = ["Relation", "brat_relation", "by_index", "checked_relation"]

Relation = Tuple[Span, Span, str]

_INDEX_HELP = 'a relation is {"head": i, "tail": j, "label": ...}, i and j indices into the record\'s "spans"'


def checked_relation(
    head: Optional[Span], tail: Optional[Span], label: Any, where: str, path: PathLike, line: Optional[int]
) -> Relation:
    """The relation, once its arguments are found (None: not found, which
    the caller has said) and its label checked."""
    if not isinstance(label, str) or not label:
        problem = "no label" if label is None or label == "" else f"a label of type {type(label).__name__} ({label!r})"
        raise InputError(f"{where} has {problem}; every relation needs a label (a non-empty string)", path, line)
    if head is None or tail is None:
        raise InputError(f"{where} names a span that is not there", path, line)
    if head == tail:
        raise InputError(
            f"{where} ({label!r}) joins the span {tuple(head)!r} to itself; a relation is between two different spans",
            path,
            line,
        )
    return head, tail, label


def by_index(
    items: Any,
    spans: Sequence[Any],
    path: PathLike,
    line: Optional[int],
    fields: Tuple[str, str, str] = ("head", "tail", "label"),
    span_of: Callable[[Any], Span] = lambda item: Span(*item),
) -> List[Relation]:
    """Relations written as {"head": i, "tail": j, "label": ...} objects, i
    and j indices into `spans` (as listed; `span_of` makes each a Span)."""
    if not isinstance(items, list):
        raise InputError(f'"relations" is a {type(items).__name__}, not a list; {_INDEX_HELP}', path, line)
    head_key, tail_key, label_key = fields
    found = []
    cache: Dict[int, Span] = {}
    for k, item in enumerate(items):
        where = f"relation {k}"
        if not isinstance(item, dict):
            raise InputError(f"{where} is {item!r}; {_INDEX_HELP}", path, line)
        ends = []
        for key in (head_key, tail_key):
            index = item.get(key)
            if not is_int(index) or not 0 <= index < len(spans):
                has = f"spans 0 to {len(spans) - 1}" if spans else "no spans"
                if key not in item:
                    raise InputError(f'{where} has no "{key}"; {_INDEX_HELP}', path, line)
                raise InputError(
                    f'{where} has "{key}": {index!r}, which is not a span of the record (it has {has})', path, line
                )
            if index not in cache:
                cache[index] = span_of(spans[index])
            ends.append(cache[index])
        found.append(checked_relation(ends[0], ends[1], item.get(label_key), where, path, line))
    return found


def brat_relation(line: str, entities: Dict[str, List[Span]], path: PathLike, lineno: int) -> Relation:
    """A brat relation line `R1<TAB>LABEL Arg1:T1 Arg2:T2`: the first
    argument is the head, the second the tail; `entities`: each text-bound
    id's spans."""
    parts = line.split("\t")
    rel_id = parts[0].strip()
    fields = parts[1].split() if len(parts) > 1 else []
    if len(fields) != 3 or not all(":" in arg for arg in fields[1:]):
        raise InputError(
            f"relation {rel_id} is {line.strip()!r}; brat writes a relation as R1<TAB>LABEL Arg1:T1 Arg2:T2",
            path,
            lineno,
        )
    label = fields[0]
    ends = []
    for arg in fields[1:]:
        role, entity = arg.split(":", 1)
        spans = entities.get(entity)
        if not spans:
            raise InputError(
                f"relation {rel_id} ({label}) has {role} {entity}, which is not a text-bound entity (T) of the file",
                path,
                lineno,
            )
        if len(spans) > 1:
            raise InputError(
                f"relation {rel_id} ({label}) has {role} {entity}, which fragments=split makes {len(spans)} spans; "
                "an argument is one span: pass fragments=merge",
                path,
                lineno,
            )
        ends.append(spans[0])
    return checked_relation(ends[0], ends[1], label, f"relation {rel_id}", path, lineno)
