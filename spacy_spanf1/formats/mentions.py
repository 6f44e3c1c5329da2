"""`mentions`: what an LLM or a generative extractor returns, mentions
without offsets, one JSON record a document:

    {"id": ..., "text": ..., "mentions": [{"text": "Paris", "label": "LOC"}, ...]}
    {"id": ..., "text": ..., "output": "<the model's raw answer>"}

`mentions` items are objects with a string (`text`, `span` or `entity`) and
a label (`label` or `type`), or `[string, label]` pairs; a bad item is an
error naming the record. An `output` is parsed as `mentions.parse` reads raw
answers (a GPT-NER answer of `@@…##` marks takes the record's `label`); an
answer that does not parse predicts nothing and is counted, never fatal.

Mentions are predictions only: the gold side is read in its own format (by
its extension) in char unit, and the records pair with it by `id` or in
order, their texts checked like every other format's. Each mention is
grounded in the text (`mentions.ground`, options `ground` and `fuzzy`); a
mention not found, or a duplicate, is a predicted span past the end of the
text, which matches nothing (SPU, FP); the error records name a mention
not found by its own kind, `not_in_text`, with its string. The grounding counts are the
document's notes (`grounded_exact`, ..., `not_found`, `duplicates`,
`ambiguous`, `parse_failures`), with examples.
"""

from bisect import bisect_left, bisect_right
from functools import partial
from itertools import islice
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple

from ..mentions.ground import NOTED_KINDS, check_fuzzy, ground_noted, mention_problem, noted_row
from ..mentions.parse import LABEL_KEYS, STRING_KEYS, mention_parts, plain_pairs, short_repr
from ..mentions.predicted import ground_document, read_prediction, row_and_spans
from ..notes import Notes, note
from ..registry import formats
from ..settings import GROUNDINGS, NOTE_EXAMPLES, check_choice
from ..spans import Span
from .base import EMPTY, Document, Format, InputError, PathLike, Placed
from .records import check_read, json_lines, record_key, record_text
from .docbin import doc_spans
from .identity import token_offsets


class MentionsFormat(Format):
    """Mentions without offsets (unit char); predictions only.

    ground (Optional[str]): "ordered" (default), "first" or "all".
    fuzzy (Optional[float]): The similarity threshold of fuzzy grounding,
        in (0, 1] (needs rapidfuzz); default: none.
    """

    name = "mentions"
    units = ("char", "token")
    extensions = ()
    options = ("ground", "fuzzy")
    keyed = True
    key_name = '"id"'
    key_field = "id"
    #: The gold side is read in its own format, and the mentions placed on it.
    predictions_only = True
    places_on_gold = True

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        opts = check_read(self, side, unit, options)
        if side == "gold":
            raise InputError(
                "mentions have no offsets and are read as predictions only; read the gold in its own "
                "format (jsonl, spacy, brat, ...)",
                path,
            )
        ground = opts.get("ground", GROUNDINGS[0])
        check_choice("ground", ground, GROUNDINGS)
        fuzzy = opts.get("fuzzy")
        threshold = check_fuzzy(None if fuzzy is None else _number(fuzzy))
        return _read(Path(path), ground, threshold)

    def place_on_gold(
        self, gold: Document, pred: Optional[Document], *, unit: str, spans_key: Optional[str] = None, **_: Any
    ) -> Placed:
        """(gold spans, predicted spans, unplaced mentions, notes (none)) of a pair, in the
        unit: the gold spans of a spaCy Doc read from it (its entities, or
        the span group `spans_key`), and in token unit the grounded
        characters expanded to the gold document's tokens (as
        `Doc.char_span(..., alignment_mode="expand")` does)."""
        gold_spans = gold.spans
        if gold.spacy_doc is not None:
            gold_spans = doc_spans(gold.spacy_doc, spans_key, unit)
        if pred is None:
            return gold_spans, [], {}, EMPTY
        unplaced = pred.unplaced or {}
        if unit == "char":
            return gold_spans, list(pred.spans or []), unplaced, EMPTY
        offsets = gold.offsets if gold.offsets is not None else token_offsets(gold.tokens or [])
        return (gold_spans, *_to_tokens(pred.spans or [], unplaced, offsets, len(gold.text)), EMPTY)


def _to_tokens(
    spans: List[Span], unplaced: Dict[int, Any], offsets: List[Tuple[int, int]], n_chars: int
) -> Tuple[List[Span], Dict[int, Any]]:
    """Character spans as the token spans that cover them; a span past the
    end of the text (a mention without a place in it) stays past the end
    of the tokens, with its entry of `unplaced`."""
    starts = [start for start, _ in offsets]
    ends = [end for _, end in offsets]
    n = len(offsets)
    out = set()
    moved = {}
    for start, end, label in spans:
        if start >= n_chars:
            token = n + start - n_chars
            out.add(Span(token, token + 1, label))
            if start in unplaced:
                moved[token] = unplaced[start]
            continue
        first, last = bisect_right(ends, start), bisect_left(starts, end)
        if first < last:
            out.add(Span(first, last, label))
    return sorted(out), moved


def _number(value: Any) -> Any:
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return value
    return value


def _read(path: Path, ground: str, threshold: Optional[float]) -> Iterator[Document]:
    # Records without an id pair in file order, and the notes of the file
    # then keep the first NOTE_EXAMPLES examples of each kind in that order
    # (`PairStats.add_notes`): `room` counts the examples each kind still
    # takes, and a document past them counts its kinds without describing
    # their mentions. Records with ids may pair in another order: all
    # examples are kept (room None).
    room: Optional[Dict[str, int]] = None
    first = True
    source = str(path)
    for lineno, record in json_lines(path):
        key = record_key(record) if "id" in record else None
        if first:
            room, first = ({} if key is None else None), False
        text = record.get("text")
        if type(text) is not str or not text.isascii():  # an ASCII string is fine as it is
            text = record_text(record, "text", "the record", path, lineno)
        where = f"line {lineno}"
        if "mentions" in record:
            answer: Any = _checked_mentions(record["mentions"], path, lineno)
        elif "output" in record:
            answer = record["output"]
            if not isinstance(answer, str):
                answer = _checked_mentions(answer, path, lineno) if isinstance(answer, list) else str(answer)
        else:
            found = ", ".join(f'"{key}"' for key in record) or "none"
            raise InputError(
                f'the record has neither "mentions" nor "output" (fields: {found}); a mentions record is '
                '{"text", "mentions": [{"text", "label"}]} or {"text", "output": "<the raw answer>"}',
                path,
                lineno,
            )
        # not found and duplicates: spans past the text, which match nothing
        unplaced: Dict[int, Any] = {}
        if isinstance(answer, list):  # checked pairs: nothing to parse, grounded without records
            mentions = answer
            spans, kinds = ground_noted(text, mentions, ground, threshold, unplaced)
            # the common document: every mention exact, no kind noted
            row = noted_row(
                len(mentions), {kind: len(positions) for kind, positions in kinds.items()} if kinds else EMPTY
            )
            notes = _notes_of_kinds(mentions, row, kinds, where, room)
            # Two exact mentions never share a place (a place's characters
            # are its string, and a repeated string takes another candidate
            # or none): only normalized or fuzzy ones can make a span twice.
            if "grounded_normalized" in kinds or "grounded_fuzzy" in kinds:
                spans = list(set(spans))
        else:
            label = record.get("label") if isinstance(record.get("label"), str) else None
            mentions, placed, failure = read_prediction(answer, text, label)
            grounded = ground_document(text, mentions, placed, ground, threshold)
            row, spans = row_and_spans(grounded, len(text), ground != "all", failure is not None, unplaced)
            notes = _notes(grounded, row, failure, where)
            if room is not None:
                for kind, noted in notes.items():
                    left = room.get(kind, NOTE_EXAMPLES)
                    del noted["examples"][left:]
                    room[kind] = left - len(noted["examples"])
            spans = list(set(spans))
        spans.sort()
        meta = {} if _NOT_META.issuperset(record) else {k: v for k, v in record.items() if k not in _NOT_META}
        # `mentions` is the reader's own list (checked pairs, or what parsing made)
        yield Document(
            where,
            list(map(_span, spans)),
            text,
            meta=meta,
            line=lineno,
            key=key,
            source=source,
            notes=notes or EMPTY,
            strings=mentions,
            unplaced=unplaced or None,
        )


#: Makes a Span of a (start, end, label) tuple without the keyword handling
#: of its constructor.
_span = partial(tuple.__new__, Span)
#: The fields of a record that are not its metadata.
_NOT_META = frozenset(("text", "mentions", "output", "label"))


def _checked_mentions(items: Any, path: Path, lineno: int) -> List[Any]:
    """A record's mentions as (string, label) pairs; InputError naming the
    first bad one (`mention_problem`, the check `ground_mentions` makes)."""
    if not isinstance(items, list):
        raise InputError(f'"mentions" is a {type(items).__name__}, not a list', path, lineno)
    pairs = plain_pairs(items)
    if pairs is not None:  # the common case: checked in one pass
        return pairs
    out = []
    for k, item in enumerate(items):
        parts = mention_parts(item)
        if parts is None:
            raise InputError(
                f'mention {k} is {short_repr(item)}, not {{"text", "label"}} or [string, label]', path, lineno
            )
        string, label = parts
        problem = mention_problem(string, label)
        if problem is not None:
            if isinstance(item, dict) and (problem.startswith("has the string") or label is None):
                keys = STRING_KEYS if problem.startswith("has the string") else LABEL_KEYS
                problem += f" (keys {', '.join(keys)})"
            raise InputError(f"mention {k} {problem}", path, lineno)
        out.append((string, label))
    return out


#: The notes of grounding, each with its count in a grounding row and what
#: a mention of its kind is.
_NOTE_KINDS: Tuple[Tuple[str, str, Callable[[Any], bool]], ...] = (
    ("grounded_exact", "exact", lambda m: m.method == "exact"),
    ("grounded_normalized", "normalized", lambda m: m.method == "normalized"),
    ("grounded_fuzzy", "fuzzy", lambda m: m.method == "fuzzy"),
    ("not_found", "not_found", lambda m: m.status == "not_found"),
    ("duplicates", "duplicates", lambda m: m.status == "duplicate"),
    ("ambiguous", "ambiguous", lambda m: m.ambiguous),
)


def _notes(grounded: List[Any], row: Dict[str, int], failure: Any, where: str) -> Notes:
    """The grounding notes of a document: the count of each kind (from its
    grounding row) and its first NOTE_EXAMPLES mentions described (only
    those are formatted)."""
    found: Notes = {}
    for kind, count, is_kind in _NOTE_KINDS:
        if row[count]:
            examples = islice(filter(is_kind, grounded), NOTE_EXAMPLES)
            found[kind] = note(row[count], [f"{where}: {m.string!r} ({m.label})" for m in examples])
    if failure is not None:
        found["parse_failures"] = note(1, [f"{where}: {failure.reason}: {failure.excerpt!r}"])
    return found


def _notes_of_kinds(
    pairs: Sequence[Tuple[str, str]],
    row: Dict[str, int],
    kinds: Dict[str, List[int]],
    where: str,
    room: Optional[Dict[str, int]] = None,
) -> Notes:
    """`_notes` of a document grounded by `ground_noted`: the same counts and
    examples, from the positions of its mentions of each kind; with `room`
    (kind -> the examples the file's notes still take, NOTE_EXAMPLES for a
    kind not in it), only as many examples as each kind still takes, and
    room is updated."""
    prefix = where + ": "
    found: Notes = {}
    limit = NOTE_EXAMPLES if room is None else room.get("grounded_exact", NOTE_EXAMPLES)
    if row["exact"] and not limit:
        found["grounded_exact"] = {"count": row["exact"], "examples": []}
    elif row["exact"]:
        others: Set[int] = set()
        for kind in ("grounded_normalized", "grounded_fuzzy", "not_found", "duplicates"):
            if kind in kinds:
                others.update(kinds[kind])
        if others:
            positions: List[int] = []
            for k in range(len(pairs)):
                if k not in others:
                    positions.append(k)
                    if len(positions) == limit:
                        break
            examples: Sequence[Tuple[str, str]] = [pairs[k] for k in positions]
        else:
            examples = pairs[:limit]
        found["grounded_exact"] = {
            "count": row["exact"],
            "examples": [f"{prefix}{string!r} ({label})" for string, label in examples],
        }
        if room is not None:
            room["grounded_exact"] = limit - len(examples)
    for kind in NOTED_KINDS if kinds else ():
        if kind in kinds:
            listed = kinds[kind]
            limit = NOTE_EXAMPLES if room is None else room.get(kind, NOTE_EXAMPLES)
            found[kind] = {
                "count": len(listed),
                "examples": [f"{prefix}{pairs[k][0]!r} ({pairs[k][1]})" for k in listed[:limit]],
            }
            if room is not None:
                room[kind] = limit - len(found[kind]["examples"])
    return found


MENTIONS = MentionsFormat()
formats.register("mentions", func=MENTIONS)
