"""Knowledge-base ids as the readers find them, checked: a JSONL span's
"kb_id", a brat normalization line, a spaCy span's `kb_id_`. A reader
whose document carries at least one id gives every span of it with its id
("" for none: NIL) as `Document.links`; a document without any id has no
links, and the link schemes score its spans as NIL.
"""

from typing import Any, Iterable, List, Optional, Tuple

from ..spans import Span
from .base import InputError, PathLike

__all__ = ["KB_HELP", "brat_normalization", "checked_kb_id", "record_links"]

KB_HELP = 'a kb_id is a string (missing, null or "" for none: NIL)'


def checked_kb_id(value: Any, where: str, path: PathLike, lineno: Optional[int]) -> str:
    """A kb id as a string ("" for None); InputError naming `where` for
    anything else."""
    if value is None:
        return ""
    if type(value) is not str:
        raise InputError(f"{where} has a kb_id of type {type(value).__name__} ({value!r}); {KB_HELP}", path, lineno)
    return value


def record_links(
    found: Iterable[Tuple[Any, Any, Any]], items: List[Any], path: PathLike, lineno: Optional[int]
) -> Optional[List[Tuple[Span, str]]]:
    """The (span, kb id) pairs of a record's span objects (`items`, read as
    `found`), None when none of them has a "kb_id"."""
    if not any(type(item) is dict and "kb_id" in item for item in items):
        return None
    return [
        (Span(*span), checked_kb_id(item.get("kb_id"), f"span {n}", path, lineno))
        for n, (span, item) in enumerate(zip(found, items))
    ]


def brat_normalization(line: str, path: PathLike, lineno: int) -> Tuple[str, str]:
    """(annotation id, kb id) of a brat normalization line
    `N1<TAB>Reference T1 Wikidata:Q42<TAB>Douglas Adams`: the id is the
    reference as written (`Wikidata:Q42`); InputError for a malformed line."""
    parts = line.rstrip("\r\n").split("\t")
    fields = parts[1].split() if len(parts) > 1 else []
    if len(fields) != 3 or not fields[2]:
        raise InputError(
            f"malformed normalization {line.strip()[:60]!r}; expected N1<TAB>Reference T1 DATABASE:ID<TAB>TEXT",
            path,
            lineno,
        )
    return fields[1], fields[2]
