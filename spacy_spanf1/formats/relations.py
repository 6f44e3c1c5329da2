"""Relations as readers read them: (head span, tail span, label) with the
spans by value (`Document.relations`), each checked where it is written.

A relation names two different spans of its document and has a label (a
non-empty string); anything else is an InputError naming the relation, its
file and line.
"""

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from ..exceptions import InputError, PathLike
from ..notes import note
from ..settings import NOTE_EXAMPLES
from ..spans import Span, is_int

__all__ = [
    "Relation",
    "brat_relation",
    "by_id",
    "by_index",
    "carry_relations",
    "checked_relation",
    "labelstudio_relations",
    "placed_relations",
    "prodigy_relations",
]

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
    head_key, tail_key, label_key = fields
    cache: Dict[int, Span] = {}

    def end(where: str, item: Dict[str, Any], key: str) -> Span:
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
        return cache[index]

    index_help = f"; {_INDEX_HELP}"
    return _read_relations(
        items, (head_key, tail_key), label_key, end, path, line, list_help=index_help, item_help=index_help
    )


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


def labelstudio_relations(
    results: List[Dict[str, Any]], result_ids: List[Any], spans: List[Span], where: str, path: PathLike
) -> Tuple[List[Relation], int]:
    """Label Studio's relation results, `{"type": "relation", "from_id",
    "to_id", "labels", "direction"}`, between the spans of its labels
    results (`result_ids`: the result of each span): one relation per
    label, from `from_id` to `to_id` ("right", the default), the other way
    ("left"), or both ("bi"); and how many have no label (a labeling config
    without <Relations> labels writes them so: they are counted, as read
    and not scored, for the reader's `counts`)."""
    by_id: Dict[Any, List[Span]] = {}
    for rid, span in zip(result_ids, spans):
        by_id.setdefault(rid, []).append(span)
    found = []
    unlabeled = 0
    for k, result in enumerate(results):
        name = f"{where}, relation {k} ({result.get('from_id')!s} -> {result.get('to_id')!s})"
        ends = []
        for key in ("from_id", "to_id"):
            targets = by_id.get(result.get(key)) if result.get(key) is not None else None
            if not targets:
                raise InputError(f'{name} has "{key}" {result.get(key)!r}, which is not a labels result of it', path)
            if len(targets) > 1:
                raise InputError(
                    f'{name} has "{key}" {result.get(key)!r}, a result of {len(targets)} labels (spans); '
                    "a relation's argument is one span",
                    path,
                )
            ends.append(targets[0])
        labels = result.get("labels")
        if labels is None or labels == []:
            unlabeled += 1
            continue
        if not isinstance(labels, list):
            raise InputError(f'{name} has "labels" {labels!r}, not a list of relation labels', path)
        direction = result.get("direction", "right")
        if direction not in ("right", "left", "bi"):
            raise InputError(f'{name} has "direction" {direction!r}; Label Studio writes right, left or bi', path)
        pairs = {"right": [(0, 1)], "left": [(1, 0)], "bi": [(0, 1), (1, 0)]}[direction]
        for label in labels:
            for h, t in pairs:
                found.append(checked_relation(ends[h], ends[t], label, name, path, None))
    return found, unlabeled


def by_id(items: Any, ids: List[Any], spans: List[Span], path: PathLike, line: Optional[int]) -> List[Relation]:
    """doccano's relations, `{"from_id", "to_id", "type"}`, between its
    entities (`ids`: the "id" of each span's entity): from is the head."""
    entity: Dict[Any, Span] = {}
    for entity_id, span in zip(ids, spans):
        if entity_id is not None:
            entity[entity_id] = span

    def end(where: str, item: Dict[str, Any], key: str) -> Span:
        if item.get(key) not in entity:
            raise InputError(f'{where} has "{key}" {item.get(key)!r}, which is not the "id" of an entity', path, line)
        return entity[item[key]]

    return _read_relations(
        items, ("from_id", "to_id"), "type", end, path, line, item_help='; doccano writes {"from_id", "to_id", "type"}'
    )


def prodigy_relations(items: Any, spans: List[Span], unit: str, path: PathLike, line: Optional[int]) -> List[Relation]:
    """Prodigy's `rel.manual` relations, `{"head", "child", "head_span",
    "child_span", "label"}`: the head span to the child span, each among
    the record's spans (character offsets, or in token unit the inclusive
    token offsets, as its spans are read)."""
    keys = ("start", "end", "label") if unit == "char" else ("token_start", "token_end", "label")
    shift = 0 if unit == "char" else 1
    known = set(spans)

    def end(where: str, item: Dict[str, Any], role: str) -> Optional[Span]:
        value = item.get(role)
        if not isinstance(value, dict) or not all(key in value for key in keys):
            raise InputError(
                f'{where} has no "{role}" with {", ".join(map(repr, keys))} (unit {unit}): rel.manual writes '
                "each relation's head_span and child_span",
                path,
                line,
            )
        start, last, label = (value[key] for key in keys)
        span = Span(start, last + shift, label) if is_int(last) else None
        if span not in known:
            shown = (start, last + shift if is_int(last) else last, label)
            raise InputError(f'{where} has a "{role}" {shown!r} that is not among the record\'s spans', path, line)
        return span

    return _read_relations(items, ("head_span", "child_span"), "label", end, path, line)


def _read_relations(
    items: Any,
    roles: Tuple[str, str],
    label_key: str,
    end: Callable[[str, Dict[str, Any], str], Optional[Span]],
    path: PathLike,
    line: Optional[int],
    list_help: str = "",
    item_help: str = ", not an object",
) -> List[Relation]:
    """The relations of a list of objects, each naming its head and its
    tail by the keys `roles` and its label by `label_key`: `end(where,
    item, key)` finds the span an argument names (else raises an
    InputError); `list_help`, `item_help` end the errors of items that are
    not a list and of an item that is not an object."""
    if not isinstance(items, list):
        raise InputError(f'"relations" is a {type(items).__name__}, not a list{list_help}', path, line)
    head_key, tail_key = roles
    found = []
    for k, item in enumerate(items):
        where = f"relation {k}"
        if not isinstance(item, dict):
            raise InputError(f"{where} is {item!r}{item_help}", path, line)
        head, tail = end(where, item, head_key), end(where, item, tail_key)
        found.append(checked_relation(head, tail, item.get(label_key), where, path, line))
    return found


#: The note of relations an argument of which is not among the spans
#: scored once the pair is aligned or placed.
DROPPED_RELATIONS = "dropped_relations"


def carry_relations(pair: Any, relations: Tuple[Any, Any], stats: Any) -> None:
    """Onto a DocPair whose spans pairing aligned or placed: each side's
    relations (gold, pred: None for none) whose arguments are among the
    pair's spans; the others (an argument that the alignment or placing
    left out, or moved) are counted and noted on the PairStats, never
    scored."""
    for side, found, spans in (("gold", relations[0], pair.gold), ("pred", relations[1], pair.pred)):
        if found is None:
            continue
        known = set(spans)
        kept: List[Any] = []
        lost: List[Any] = []
        for relation in found:
            (kept if relation[0] in known and relation[1] in known else lost).append(relation)
        if side == "gold":
            pair.gold_relations = kept
        else:
            pair.pred_relations = kept
        if lost:
            examples = [f"{pair.name}: {label} {_shown(head)} -> {_shown(tail)}" for head, tail, label in lost]
            stats.add_notes(side, {DROPPED_RELATIONS: note(len(lost), examples[:NOTE_EXAMPLES])})


def _shown(span: Optional[Span]) -> str:
    return "(an argument without a place)" if span is None else repr(tuple(span))


def placed_relations(format: Any, gold: Any, pred: Any, options: Dict[str, Any]) -> Tuple[Any, Any]:
    """Both sides' relations where a format that places predictions on the
    gold (a mix) puts their arguments: a predicted argument where
    `place_scores` puts it (None: nowhere), a DocBin's (its doc's tokens)
    in the unit; other gold arguments stay (the gold is not moved)."""
    unit = options.get("unit")
    found: List[Any] = []
    for side, doc in (("gold", gold), ("pred", pred)):
        if doc is None or doc.relations is None:
            found.append(None)
        elif doc.spacy_doc is not None:
            tokens = doc.spacy_doc
            found.append(
                [(_in_unit(tokens, h, unit), _in_unit(tokens, t, unit), label) for h, t, label in doc.relations]
            )
        elif side == "pred":
            args = list(dict.fromkeys(arg for h, t, _ in doc.relations for arg in (h, t)))
            moved = {was: now for now, was in format.place_scores(gold, pred, [(arg, arg) for arg in args], **options)}
            found.append([(moved.get(h), moved.get(t), label) for h, t, label in doc.relations])
        else:
            found.append(doc.relations)
    return found[0], found[1]


def _in_unit(doc: Any, span: Span, unit: Optional[str]) -> Span:
    """A span of a doc's tokens in the unit (characters: the tokens')."""
    if unit != "char":
        return span
    start, end, label = span
    return Span(doc[start].idx, doc[end - 1].idx + len(doc[end - 1]), label)
