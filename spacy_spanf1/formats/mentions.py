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
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple

from ..mentions.ground import check_fuzzy
from ..mentions.parse import LABEL_KEYS, STRING_KEYS, mention_parts
from ..mentions.score import ground_document, predicted_spans, read_prediction
from ..notes import GROUNDING_NOTES, Notes, note
from ..registry import formats
from ..settings import GROUNDINGS, NOTE_EXAMPLES, check_choice
from ..spans import Span
from .base import EMPTY, Document, Format, InputError, PathLike, Placed
from .records import check_read, json_lines, record_key, record_text
from .docbin import doc_spans
from .pairing import token_offsets

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

    def place_on_gold(self, gold: Document, pred: Optional[Document], *, unit: str,
                      spans_key: Optional[str] = None, **_: Any) -> Placed:
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


def _to_tokens(spans: List[Span], unplaced: Dict[int, Any], offsets: List[Tuple[int, int]],
               n_chars: int) -> Tuple[List[Span], Dict[int, Any]]:
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
    for lineno, record in json_lines(path):
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
        label = record.get("label") if isinstance(record.get("label"), str) else None
        mentions, placed, failure = read_prediction(answer, text, label)
        grounded = ground_document(text, mentions, placed, ground, threshold)
        # not found and duplicates: spans past the text, which match nothing
        unplaced: Dict[int, Any] = {}
        spans = set(map(Span._make, predicted_spans(grounded, None, text, "char", scores_duplicates=ground != "all",
                                                    unplaced=unplaced)))
        meta = {k: v for k, v in record.items() if k not in ("text", "mentions", "output", "label")}
        notes = _notes(grounded, failure, where)
        yield Document(where, sorted(spans), text, meta=meta, line=lineno, key=record_key(record), source=str(path),
                       notes=notes or EMPTY, strings=list(mentions), unplaced=unplaced or None)


def _checked_mentions(items: Any, path: Path, lineno: int) -> List[Any]:
    """A record's mentions as (string, label) pairs; InputError naming the
    first bad one."""
    if not isinstance(items, list):
        raise InputError(f'"mentions" is a {type(items).__name__}, not a list', path, lineno)
    out = []
    for k, item in enumerate(items):
        parts = mention_parts(item)
        if parts is None:
            raise InputError(f'mention {k} is {item!r}, not {{"text", "label"}} or [string, label]', path, lineno)
        string, label = parts
        if not isinstance(string, str) or not string.strip():
            raise InputError(f"mention {k} has no string (keys {', '.join(STRING_KEYS)}): {item!r}", path, lineno)
        if label is None:
            raise InputError(f"mention {k} ({string!r}) has no label (keys {', '.join(LABEL_KEYS)})", path, lineno)
        if not isinstance(label, str) or not label:
            raise InputError(f"mention {k} ({string!r}) has the label {label!r}; labels are non-empty strings", path, lineno)
        out.append((string, label))
    return out


def _notes(grounded: List[Any], failure: Any, where: str) -> Notes:
    found: Dict[str, List[str]] = {}
    for mention in grounded:
        described = f"{where}: {mention.string!r} ({mention.label})"
        if mention.status == "grounded":
            found.setdefault(f"grounded_{mention.method}", []).append(described)
        elif mention.status == "not_found":
            found.setdefault("not_found", []).append(described)
        else:
            found.setdefault("duplicates", []).append(described)
        if mention.ambiguous:
            found.setdefault("ambiguous", []).append(described)
    if failure is not None:
        found["parse_failures"] = [f"{where}: {failure.reason}: {failure.excerpt!r}"]
    return {kind: note(len(found[kind]), found[kind][:NOTE_EXAMPLES]) for kind in GROUNDING_NOTES if kind in found}


MENTIONS = MentionsFormat()
formats.register("mentions", func=MENTIONS)
