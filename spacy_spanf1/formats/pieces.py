"""The pieces of a discontinuous entity joined by relations, for the
annotation tools that have no spans of several fragments (Label Studio,
doccano): their users label each piece as a region of the entity's label
and link the pieces with a relation of one label.

The reader setting `fragment_relation` names that label; without it,
nothing is joined and the relations are read as relations. With it, the
regions its relations link, directly or through a chain (a-b, b-c), are one
span of several fragments, sorted and merged where they touch or overlap
(`spans.normal_fragments`); the joining relations are not relations of the
document. Pieces of different labels linked, and a link to a region that is
not there, are errors naming the file, the document and the ids.
"""

from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

from ..exceptions import InputError, PathLike, SettingError
from ..spans import AnySpan, Span, normal_fragments, span_of_fragments, split_fragments
from .relations import Relation, by_id, labelstudio_relations

__all__ = [
    "Joining",
    "Link",
    "check_fragment_relation",
    "doccano_joined",
    "doccano_links",
    "join_pieces",
    "joined_links",
    "joined_scores",
    "labelstudio_joined",
    "labelstudio_links",
]

#: A joining relation: (how messages name it, the id of one piece, the id of the other).
Link = Tuple[str, Any, Any]


class Joining:
    """The `fragment_relation` of a file being read: the label that joins
    pieces, and the labels of the file's other relations, so that a label
    no relation of the gold carries (a typo) is an error naming those it
    has, not pieces left unjoined in silence."""

    __slots__ = ("label", "joins", "others")

    def __init__(self, label: str) -> None:
        self.label = label
        self.joins = 0
        self.others: Set[str] = set()

    def finish(self, side: str, path: PathLike) -> None:
        """InputError when the gold has relations but none of the label."""
        if side == "gold" and not self.joins and self.others:
            listed = ", ".join(map(repr, sorted(self.others)))
            raise InputError(
                f"no relation of the gold is labelled {self.label!r} ('fragment_relation'), so no pieces are "
                f"joined; its relations are labelled {listed}",
                path,
            )


def check_fragment_relation(value: Any) -> Optional[Joining]:
    """The `fragment_relation` setting, checked: None (nothing is joined) or
    a relation label, a non-empty string (a Joining of it)."""
    if value is None:
        return None
    if isinstance(value, str) and value:
        return Joining(value)
    raise SettingError(
        f"'fragment_relation' is {value!r}; it names the relation label that joins the pieces of one entity "
        "(a non-empty string), or is left out (nothing is joined)",
        "fragment_relation",
    )


def labelstudio_links(
    results: List[Dict[str, Any]], joining: Joining, where: str, path: PathLike
) -> Tuple[List[Link], List[Dict[str, Any]]]:
    """Label Studio's relation results split into the links labelled with
    the joining label and the others (read as relations)."""
    name = joining.label
    links: List[Link] = []
    others = []
    for k, result in enumerate(results):
        labels = result.get("labels")
        if not isinstance(labels, list) or name not in labels:
            if isinstance(labels, list):
                joining.others.update(map(str, labels))
            others.append(result)
            continue
        shown = f"{where}, relation {k} ({result.get('from_id')!s} -> {result.get('to_id')!s})"
        if len(labels) > 1:
            rest = ", ".join(repr(label) for label in labels if label != name)
            raise InputError(
                f"{shown} has the labels {labels!r}: {name!r} joins pieces of one entity, {rest} names a relation "
                f"between two; a joining relation has only the label {name!r} ('fragment_relation')",
                path,
            )
        links.append((shown, result.get("from_id"), result.get("to_id")))
    joining.joins += len(links)
    return links, others


def doccano_links(items: Any, joining: Joining, path: PathLike, line: Optional[int]) -> Tuple[List[Link], Any]:
    """doccano's relations split into the links of the joining type and
    the others (read as relations; anything but a list is left for the
    relation reader to refuse)."""
    if not isinstance(items, list):
        return [], items
    links: List[Link] = []
    others = []
    for k, item in enumerate(items):
        if isinstance(item, dict) and item.get("type") == joining.label:
            shown = f"relation {k} ({item.get('from_id')!s} -> {item.get('to_id')!s})"
            links.append((shown, item.get("from_id"), item.get("to_id")))
        else:
            if isinstance(item, dict) and item.get("type") is not None:
                joining.others.add(str(item["type"]))
            others.append(item)
    joining.joins += len(links)
    return links, others


def join_pieces(
    spans: Sequence[Span],
    ids: Sequence[Any],
    links: Sequence[Link],
    where: str,
    path: PathLike,
    line: Optional[int],
    what: str = "region",
) -> List[AnySpan]:
    """Each listed span (`ids`: the id of the region of each) as the entity
    it is a piece of: itself when no link names it, else the span of the
    fragments of every piece its links reach.

    what (str): What the format calls a piece ("region", "entity"), for
        messages.
    """
    whats = "entities" if what == "entity" else f"{what}s"
    index: Dict[Any, List[int]] = {}
    for i, rid in enumerate(ids):
        if rid is not None:
            index.setdefault(rid, []).append(i)
    parent = list(range(len(spans)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for shown, *ends in links:
        found = []
        for key, rid in zip(("from_id", "to_id"), ends):
            at = index.get(rid) if rid is not None else None
            if not at:
                listed = ", ".join(str(r) for r in index) or "none"
                raise InputError(
                    f'{where}, {shown} has "{key}" {rid!r}, which is not a labeled {what} of it '
                    f"(its {whats}: {listed})",
                    path,
                    line,
                )
            if len(at) > 1:
                raise InputError(
                    f'{where}, {shown} has "{key}" {rid!r}, a {what} of {len(at)} labels; '
                    f"a piece of an entity is a {what} of one label",
                    path,
                    line,
                )
            found.append(at[0])
        a, b = root(found[0]), root(found[1])
        if a != b:
            parent[max(a, b)] = min(a, b)
    groups: Dict[int, List[int]] = {}
    for i in range(len(spans)):
        groups.setdefault(root(i), []).append(i)
    entities: List[AnySpan] = list(spans)
    for members in groups.values():
        if len(members) < 2:
            continue
        labels = sorted({spans[i].label for i in members})
        if len(labels) > 1:
            pieces = ", ".join(f"{ids[i]!s} ({spans[i].label})" for i in members)
            raise InputError(
                f"{where}: the {whats} {pieces} are linked as pieces of one entity but have different labels; "
                "the pieces of one entity have its label",
                path,
                line,
            )
        fragments = normal_fragments([(spans[i].start, spans[i].end) for i in members], f"of {where}")
        entity = span_of_fragments(fragments, labels[0])
        for i in members:
            entities[i] = entity
    return entities


def joined_scores(
    entities: Sequence[AnySpan], given: Sequence[Any], where: str, path: PathLike, line: Optional[int]
) -> List[Tuple[Span, Any]]:
    """The (span, score) pairs of the listed spans once joined: a span of
    several fragments once, with its pieces' score, which must be one."""
    pairs: List[Tuple[Span, Any]] = []
    seen: Dict[AnySpan, Any] = {}
    for entity, score in zip(entities, given):
        if len(entity) == 3:
            pairs.append((Span(entity[0], entity[1], entity[2]), score))
            continue
        if entity in seen:
            if seen[entity] != score:
                raise InputError(
                    f"{where}: the pieces of the entity {[list(f) for f in entity[3]]} ({entity[2]}) have the "
                    f"scores {seen[entity]!r} and {score!r}; the pieces of one entity carry one score",
                    path,
                    line,
                )
            continue
        seen[entity] = score
        pairs.append((Span(entity[0], entity[1], entity[2]), score))
    return pairs


def labelstudio_joined(
    listed: List[Span],
    given: List[Any],
    result_ids: List[Any],
    linked: List[Dict[str, Any]],
    joining: Joining,
    where: str,
    path: PathLike,
) -> Tuple[
    List[Span],
    Optional[List[Tuple[Span, Any]]],
    Optional[Tuple[List[Relation], int]],
    Optional[List[Any]],
    List[Span],
]:
    """A Label Studio annotation's spans (as listed, `result_ids` the result
    of each, `given` each one's score) once the relations labelled `joining`
    have joined pieces: (sorted spans, scores or None, the other relations
    between the joined spans with how many have no label, or None when there
    are none, the spans' fragments, `Document.fragments`, and each listed
    span as the outer span of its entity)."""
    links, others = labelstudio_links(linked, joining, where, path)
    entities = join_pieces(listed, result_ids, links, where, path, None)
    outer = [Span(e[0], e[1], e[2]) for e in entities]
    scores = joined_scores(entities, given, where, path, None) if any(g is not None for g in given) else None
    relations = labelstudio_relations(others, result_ids, outer, where, path) if others else None
    spans, fragments = split_fragments(entities)
    return spans, scores, relations, fragments, outer


def joined_links(
    links: Optional[List[Tuple[Span, str]]], where: str, path: PathLike
) -> Optional[List[Tuple[Span, str]]]:
    """The kb ids of joined spans, one per span: a piece without an id
    ("") takes its entity's from the others; pieces of one entity with two
    different ids are an error naming both."""
    if links is None:
        return None
    found: Dict[Span, str] = {}
    for span, kb_id in links:
        known = found.get(span, "")
        if known and kb_id and known != kb_id:
            raise InputError(
                f"{where}: the pieces of the entity {span.start}-{span.end} ({span.label}) have the kb ids "
                f"{known!r} and {kb_id!r}; the pieces of one entity carry one kb id",
                path,
            )
        found[span] = known or kb_id
    return list(found.items())


def doccano_joined(
    listed: List[Span],
    given: List[Any],
    ids: List[Any],
    items: Any,
    joining: Joining,
    path: PathLike,
    line: Optional[int],
) -> Tuple[List[Span], Optional[List[Tuple[Span, Any]]], Optional[List[Relation]], Optional[List[Any]]]:
    """A doccano record's entities (as listed, `given` the score of each,
    `ids` the "id" of each) once its relations of type `joining` have joined
    pieces: (sorted spans, scores or None, the other relations between the
    joined spans or None when there are none, the spans' fragments)."""
    links, others = doccano_links(items, joining, path, line)
    entities = join_pieces(listed, ids, links, "the record", path, line, what="entity")
    outer = [Span(e[0], e[1], e[2]) for e in entities]
    scores = joined_scores(entities, given, "the record", path, line) if any(g is not None for g in given) else None
    relations = by_id(others, ids, outer, path, line) if others else None
    spans, fragments = split_fragments(entities)
    return spans, scores, relations, fragments
