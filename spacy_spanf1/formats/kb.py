"""Knowledge-base ids as the readers find them, checked: a JSONL span's
"kb_id", a brat normalization line, a spaCy span's `kb_id_`, a Label
Studio region's per-region result (`RegionIds`), a Prodigy span's "kb_id"
or entity-linking answer (`prodigy_links`). A reader
whose document carries at least one id gives every span of it with its id
("" for none: NIL) as `Document.links`; a document without any id has no
links, and the link schemes score its spans as NIL.
"""

from typing import Any, Dict, Iterable, List, Optional, Tuple

from ..spans import Span
from ..exceptions import SettingError
from .base import InputError, PathLike

__all__ = [
    "KB_HELP",
    "REGION_KB_TYPES",
    "RegionIds",
    "brat_normalization",
    "checked_kb_id",
    "prodigy_links",
    "record_links",
]

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


# ---------------------------------------------------------------- Label Studio

#: Label Studio's per-region results that can hold a region's kb id (a
#: control with perRegion="true" whose result shares the region's "id"),
#: and the key of their value that holds it.
REGION_KB_TYPES: Dict[str, str] = {"textarea": "text", "choices": "choices", "taxonomy": "taxonomy"}


class RegionIds:
    """The kb ids of Label Studio regions: the per-region results of the
    control `kb_from` (its `from_name`: a TextArea, Choices or Taxonomy
    with perRegion="true"), by region id, for a whole export (`finish`:
    an InputError when no result of that control is in it)."""

    def __init__(self, kb_from: Any, path: PathLike) -> None:
        if kb_from is not None and (type(kb_from) is not str or not kb_from):
            raise SettingError(
                f"'kb_from' must be the name of a per-region control (its from_name), got {kb_from!r}", "kb_from"
            )
        self.kb_from: Optional[str] = kb_from
        self.path = path
        self.found = False
        self.controls: Dict[str, None] = {}  # per-region controls seen, for the error

    def takes(self, result: Dict[str, Any]) -> bool:
        """Whether the result is a region's kb id (else it is read as before)."""
        if result.get("type") in REGION_KB_TYPES and isinstance(result.get("from_name"), str):
            self.controls.setdefault(result["from_name"], None)
        return self.kb_from is not None and result.get("from_name") == self.kb_from

    def links(
        self, results: List[Dict[str, Any]], result_ids: List[Any], spans: List[Span], where: str
    ) -> Optional[List[Tuple[Span, str]]]:
        """Each span (read from the labels result `result_ids[i]`) with its
        region's kb id ("" for none), None when no result holds one."""
        if not results:
            return None
        self.found = True
        regions = set(result_ids)
        by_region: Dict[Any, str] = {}
        for result in results:
            rid = result.get("id")
            what = f"{where}, result {rid} ({self.kb_from})"
            key = REGION_KB_TYPES.get(result.get("type"))  # type: ignore[arg-type]
            if key is None:
                raise InputError(
                    f"{what} is a {result.get('type')!r} result; the kb ids of 'kb_from' are per-region "
                    f"{', '.join(REGION_KB_TYPES)} results",
                    self.path,
                )
            if rid is None or rid not in regions:
                raise InputError(
                    f"{what} has no labels result of the same id (region {rid!r}): a kb id belongs to a "
                    'labelled region (a control with perRegion="true")',
                    self.path,
                )
            value = result.get("value")
            chosen = value.get(key) if isinstance(value, dict) else None
            if not isinstance(chosen, list):
                raise InputError(f'{what} has no "{key}" list in its value', self.path)
            if key == "taxonomy":  # paths from the root: the leaf chosen
                chosen = [path[-1] if isinstance(path, list) and path else path for path in chosen]
            if len(chosen) > 1:
                raise InputError(f"{what} gives {len(chosen)} kb ids {chosen!r}; a region has one", self.path)
            by_region[rid] = checked_kb_id(chosen[0], what, self.path, None) if chosen else ""
        return [(span, by_region.get(rid, "")) for span, rid in zip(spans, result_ids)]

    def finish(self, side: str) -> None:
        """InputError when the gold has no result of the control (a
        prediction without one scores NIL, and the run says so)."""
        if side == "gold" and self.kb_from is not None and not self.found:
            listed = ", ".join(map(repr, self.controls)) or "none"
            raise InputError(
                f"no result of the control {self.kb_from!r} ('kb_from'); the per-region "
                f"{'/'.join(REGION_KB_TYPES)} controls in the export: {listed}",
                self.path,
            )


# ---------------------------------------------------------------- Prodigy


def prodigy_links(
    record: Dict[str, Any], items: List[Any], spans: List[Span], path: PathLike, lineno: int
) -> Optional[List[Tuple[Span, str]]]:
    """The (span, kb id) pairs of a Prodigy record: each span's "kb_id",
    or the answer of an entity-linking task (the choice interface of
    `entity_linker.manual`: one span, its candidate ids as "options", the
    id chosen in "accept"; no choice is NIL); None when it holds neither."""
    with_ids = any(type(item) is dict and "kb_id" in item for item in items)
    chose = "options" in record and "accept" in record and bool(items)
    if with_ids and chose:
        raise InputError(
            'the record gives kb ids twice: a span\'s "kb_id" and an accepted option ("accept"); give one', path, lineno
        )
    if with_ids:
        return record_links([(span[0], span[1], span[2]) for span in spans], items, path, lineno)
    if not chose:
        return None
    accepted = record["accept"]
    if len(items) != 1 or not isinstance(accepted, list) or len(accepted) > 1:
        raise InputError(
            f"an entity-linking task links one span to the one option it accepts; this one has {len(items)} "
            f'spans and "accept": {accepted!r}',
            path,
            lineno,
        )
    return [(spans[0], checked_kb_id(accepted[0], '"accept"', path, lineno) if accepted else "")]
