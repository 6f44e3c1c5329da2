"""Error records: one per error of a scheme, as dicts (`error_records`)
and as the JSON lines of the --errors file (`error_lines`, `ErrorFile`).

A record is defined once: its keys in their order (`RECORD_KEYS`, and
`SPAN_KEYS` for each of its spans), the dict `error_record` makes of an
error with them (in that order: tests check it), and the lines of the file,
written without the dicts at a few microseconds an error from the same
keys: the bytes `srsly.json_dumps` makes of the records (tests check it
on every kind, both units, and texts that need escaping).

The errors are those of one scheme (the primary one on the command line),
with the kinds the scheme gives them (`outcomes.py`): missed, spurious,
wrong_type, wrong_boundaries, low_overlap, and `not_in_text` for a
predicted mention that is not in the text. `ErrorFile` writes the lines a
batch at a time while the corpus is scored (it is the `on_errors` of
`compare_files`).
"""

import os
from json.encoder import encode_basestring_ascii
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import srsly

from ..engine.outcomes import ERROR_KINDS, SpanError
from ..exceptions import PathLike
from ..settings import RELATION_SCHEMES
from ..formats import DocPair
from ..spans import Span

#: The keys of an error record, in the order it is written: the document
#: (its index in the corpus, skipped documents included, and its name),
#: the scheme, the error's kind and count, its gold span (or None) and its
#: predicted spans (`SPAN_KEYS` each), its IoU and coverage both ways.
RECORD_KEYS = ("doc", "name", "scheme", "kind", "count", "gold", "pred", "iou", "gold_coverage", "pred_coverage")
#: The keys of a span of a record: its offsets in the corpus unit (None
#: for a mention without a place in the text), label and text; a span of
#: several fragments has its outer bounds, the texts of its fragments
#: joined by a space (as brat joins them) and a last key, "fragments".
SPAN_KEYS = ("start", "end", "label", "text")
#: The key a span of a record has last (after "fragments") when the run
#: reads knowledge-base ids (a link scheme is named): the span's id, "NIL"
#: for a span without one (`kb_ids_of`).
KB_KEY = "kb_id"
#: The kind of the error records of a mention that is not in the text
#: (mentions without offsets): a spurious prediction, named apart.
NOT_IN_TEXT = "not_in_text"
#: Every kind an error record has.
RECORD_KINDS = ERROR_KINDS + (NOT_IN_TEXT,)
#: kind -> its place in RECORD_KINDS (records at one position are in this order).
KIND_ORDER = {kind: i for i, kind in enumerate(RECORD_KINDS)}


def record_kind(error: SpanError, pair: DocPair) -> str:
    """The kind of an error's record: its own, or `not_in_text` for a
    spurious prediction made of mentions that were not found in the text."""
    unplaced = pair.pred_unplaced
    if (
        unplaced
        and error.kind == "spurious"
        and error.pred
        and all(unplaced.get(p[0], ("", ""))[1] == "not_found" for p in error.pred)
    ):
        return NOT_IN_TEXT
    return error.kind


class KbIds:
    """The knowledge-base ids of one side of a document, by span
    (`DocPair.gold_links` / `pred_links`): `of(span)` is the id of the
    span, "NIL" when it has none (missing or ""). A span listed twice with
    different ids has the first; a span whose label a label map changed
    is found by its offsets."""

    __slots__ = ("spans", "places")

    def __init__(self, links: Optional[Sequence[Tuple[Span, str]]]) -> None:
        self.spans: Dict[Tuple[int, int, str], str] = {}
        self.places: Dict[Tuple[int, int], str] = {}
        for span, kb in links or ():
            self.spans.setdefault((span[0], span[1], span[2]), kb)
            self.places.setdefault((span[0], span[1]), kb)

    def of(self, span: Span) -> str:
        kb = self.spans.get((span[0], span[1], span[2]))
        if kb is None:
            kb = self.places.get((span[0], span[1]))
        return kb or "NIL"


def kb_ids_of(pair: DocPair) -> Tuple[KbIds, KbIds]:
    """The (gold, predicted) ids of a document's spans."""
    return KbIds(pair.gold_links), KbIds(pair.pred_links)


def span_record(pair: DocPair, span: Span, kb_ids: Optional[KbIds] = None) -> Dict[str, Any]:
    """The record of a span (`SPAN_KEYS`): its offsets, label and text; a
    predicted mention without a place in the text (`pair.pred_unplaced`)
    has no offsets and the string as listed. With `kb_ids` (of the span's
    side), its knowledge-base id too (`KB_KEY`)."""
    unplaced = pair.pred_unplaced
    if unplaced and span[0] in unplaced:
        found: Dict[str, Any] = {"start": None, "end": None, "label": span[2], "text": unplaced[span[0]][0]}
    elif len(span) > 3:  # a span of several fragments: its outer bounds, the texts of its fragments, the fragments
        start, end, label, fragments = span
        texts = [pair.text[a:b] if pair.offsets is None else pair.span_text(Span(a, b, label)) for a, b in fragments]
        found = {"start": start, "end": end, "label": label, "text": " ".join(texts), "fragments": fragments}
    else:
        start, end, label = span
        text = pair.text[start:end] if pair.offsets is None else pair.span_text(span)
        found = {"start": start, "end": end, "label": label, "text": text}
    if kb_ids is not None:
        found[KB_KEY] = kb_ids.of(span)
    return found


def error_record(error: SpanError, pair: DocPair, scheme: str = "", kb_ids: bool = False) -> Dict[str, Any]:
    """The record of one error of a document (`RECORD_KEYS`); kb_ids: each
    span with its knowledge-base id (`KB_KEY`)."""
    gold = error.gold
    gold_ids, pred_ids = kb_ids_of(pair) if kb_ids else (None, None)
    return {
        "doc": pair.index,
        "name": pair.name,
        "scheme": scheme,
        "kind": record_kind(error, pair) if pair.pred_unplaced else error.kind,
        "count": error.count,
        "gold": None if gold is None else span_record(pair, gold, gold_ids),
        "pred": [span_record(pair, p, pred_ids) for p in error.pred],
        "iou": error.iou,
        "gold_coverage": error.gold_coverage,
        "pred_coverage": error.pred_coverage,
    }


def _position(error: SpanError, pair: DocPair, kind: str) -> Tuple[int, int, int, int]:
    """Where a record goes: document, start and end of the gold span (else
    of the first prediction), kind."""
    first = error.gold if error.gold is not None else error.pred[0]
    return pair.index, first[0], first[1], KIND_ORDER[kind]


def error_records(
    errors: Iterable[SpanError], pairs: Mapping[int, DocPair], scheme: str = "", kb_ids: bool = False
) -> List[Dict[str, Any]]:
    """One record (`error_record`) per error, in document order, then by
    position (start, end of the gold span, else of the first prediction),
    then kind.

    errors (Iterable[SpanError]): From a SpanScorer fed `pairs` in order.
    pairs (Mapping[int, DocPair]): The scored documents (SpanError.doc
        indexes them): a sequence, or a mapping holding those of the errors.
    scheme (str): The scheme the errors are of.
    kb_ids (bool): Each span with its knowledge-base id (`KB_KEY`): when
        the run reads them (a link scheme is named).
    RETURNS (List[Dict[str, Any]]): The records, keys as `RECORD_KEYS`.
    """
    records = []
    positions = []
    for error in errors:
        pair = pairs[error.doc]
        record = error_record(error, pair, scheme, kb_ids)
        records.append(record)
        positions.append(_position(error, pair, record["kind"]))
    order = sorted(range(len(records)), key=positions.__getitem__)
    return [records[i] for i in order]


#: The one ASCII character ujson writes as it is and the standard library escapes.
DEL = "\x7f"


def json_string(text: str) -> str:
    """A string as `srsly.json_dumps` encodes it. An ASCII string without
    DEL is escaped by the standard library's C encoder, which escapes every
    other ASCII character as ujson does (tests/cli/test_error_stream.py checks
    all 128) and takes a tenth of the time of a call of ujson's; any other
    string goes to srsly."""
    if text.isascii() and DEL not in text:
        return encode_basestring_ascii(text)
    return srsly.json_dumps(text)


def _key_fragments(keys: Sequence[str]) -> Dict[str, str]:
    """key -> the JSON that opens its value in an object of those keys in
    that order: '{"first":', then ',"next":' and so on."""
    return {key: ("{" if i == 0 else ",") + json_string(key) + ":" for i, key in enumerate(keys)}


RECORD_JSON = _key_fragments(RECORD_KEYS)
SPAN_JSON = _key_fragments(SPAN_KEYS)


def error_lines(
    errors: Iterable[SpanError], pairs: Mapping[int, DocPair], scheme: str = "", kb_ids: bool = False
) -> List[str]:
    """The JSON lines of `error_records(errors, pairs, scheme, kb_ids)` (without
    their newlines): the text `srsly.json_dumps` makes of each record,
    made without the dicts, so that the file of a large corpus is written
    at a few microseconds an error (`ErrorFile`). The keys are written in
    the records' order (`RECORD_KEYS`, `SPAN_KEYS`) with ujson's compact
    separators; strings are encoded as `json_string` does, the scores
    (iou, coverage: a few ratios of small integers) by srsly, each value
    once."""
    encode, dumps = encode_basestring_ascii, srsly.json_dumps
    key, span_key = RECORD_JSON, SPAN_JSON
    start_key, end_key, label_key, text_key = (span_key[name] for name in SPAN_KEYS)
    gold_key, pred_key = key["gold"], key["pred"]
    iou_key, gold_cover_key, pred_cover_key = key["iou"], key["gold_coverage"], key["pred_coverage"]
    numbers: Dict[float, str] = {}
    labels: Dict[str, str] = {}
    docs: Dict[int, Tuple[str, str, Optional[Sequence[Tuple[int, int]]], DocPair]] = {}
    ids: Dict[int, Tuple[KbIds, KbIds]] = {}
    kb_key = "," + json_string(KB_KEY) + ":"
    head = key["scheme"] + json_string(scheme)
    kinds = {kind: key["kind"] + json_string(kind) for kind in RECORD_KINDS}
    counts: Dict[str, str] = {}

    def first_time(value: Any, found: Dict[Any, str], encoded: str) -> str:
        found[value] = encoded
        return encoded

    def span(item: Span, text: str, offsets: Any, pair: DocPair, side: Optional[KbIds] = None) -> str:
        if len(item) > 3:  # of several fragments
            return dumps(span_record(pair, item, side))
        start, end, label = item
        if pair.pred_unplaced and start in pair.pred_unplaced:
            return dumps(span_record(pair, item, side))
        piece = text[start:end] if offsets is None else pair.span_text(item)
        return (
            f"{start_key}{start}{end_key}{end}"
            f"{label_key}{labels.get(label) or first_time(label, labels, json_string(label))}"
            f"{text_key}{encode(piece) if piece.isascii() and DEL not in piece else dumps(piece)}"
            f"{'' if side is None else kb_key + json_string(side.of(item))}}}"
        )

    lines = []
    positions = []
    for error in errors:
        found = docs.get(error.doc)
        if found is None:
            pair = pairs[error.doc]
            found = docs[error.doc] = (
                f"{key['doc']}{pair.index}{key['name']}{json_string(pair.name)}{head}",
                pair.text,
                pair.offsets,
                pair,
            )
        head_of_doc, text, offsets, pair = found
        gold, pred, kind = error.gold, error.pred, error.kind
        if pair.pred_unplaced:
            kind = record_kind(error, pair)
        iou, gold_cover, pred_cover = error.iou, error.gold_coverage, error.pred_coverage
        gold_ids = pred_ids = None
        if kb_ids:
            sides = ids.get(error.doc)
            if sides is None:
                sides = ids[error.doc] = kb_ids_of(pair)
            gold_ids, pred_ids = sides
        lines.append(
            f"{head_of_doc}{kinds[kind]}"
            f"{counts.get(error.count) or first_time(error.count, counts, key['count'] + json_string(error.count))}"
            f"{gold_key}{'null' if gold is None else span(gold, text, offsets, pair, gold_ids)}"
            f"{pred_key}[{','.join([span(p, text, offsets, pair, pred_ids) for p in pred])}]"
            f"{iou_key}{numbers.get(iou) or first_time(iou, numbers, dumps(iou))}"
            f"{gold_cover_key}{numbers.get(gold_cover) or first_time(gold_cover, numbers, dumps(gold_cover))}"
            f"{pred_cover_key}{numbers.get(pred_cover) or first_time(pred_cover, numbers, dumps(pred_cover))}}}"
        )
        first = gold if gold is not None else pred[0]  # as `_position`, inline: this loop is the hot one
        positions.append((pair.index, first[0], first[1], KIND_ORDER[kind]))
    order = sorted(range(len(lines)), key=positions.__getitem__)
    return [lines[i] for i in order]


def relation_records(errors: Sequence[Any], pairs: Mapping[int, DocPair], scheme: str) -> List[Dict[str, Any]]:
    """The records of a relation scheme's errors (`RelationError`s, as
    `on_errors` is given them: each `doc` a key of `pairs`), in order; the
    relation error records of `report.relations`."""
    records = []
    for error in errors:
        pair = pairs[error.doc]
        side = "gold" if error.kind == "missed" else "pred"
        relation = {"label": error.label, "head": span_record(pair, error.head), "tail": span_record(pair, error.tail)}
        records.append({"doc": pair.index, "name": pair.name, "scheme": scheme, "kind": error.kind, side: relation})
    return records


def write_errors(path: Path, records: Iterable[Dict[str, Any]]) -> None:
    """Write the error records as JSON lines."""
    srsly.write_jsonl(path, records)


class OtherRecords:
    """Whether a document has error records besides the span records: a
    callable of a DocPair, true when one of `lines` (an ErrorFile's
    link_lines) gives a line of it. Picklable when they are
    (a shard may run on a worker)."""

    def __init__(self, lines: Sequence[Callable[[Mapping[int, DocPair]], List[str]]]) -> None:
        self.lines = tuple(lines)

    def __call__(self, pair: DocPair) -> bool:
        return any(lines({pair.index: pair}) for lines in self.lines)


class ErrorFile:
    """The error records of a run written as JSON lines while it is scored,
    the same bytes `write_errors` writes of all of them: call it as
    `on_errors(errors, pairs, scheme)` after each scored batch, in document
    order. The lines go to PATH.partial beside the file, moved into place
    by `commit`; a run that fails (`discard`, or leaving the `with` block
    by an exception) leaves no half-written file, and an older file at
    PATH as it was.

    path (PathLike): The file of the records. Opening it may raise OSError.
    kb_ids (bool): Each span of a record with its knowledge-base id
        (`KB_KEY`): when the run names a link scheme.
    link_lines (Optional[Callable]): After the span records of each batch,
        the lines it gives of the batch's documents: `link_lines(pairs)`,
        the link error records of a link scheme (`report.links`).

    `record_documents` tells which documents link_lines writes records of
    (`OtherRecords`; None without it), so that a sharded
    run keeps those documents for its merged delivery though they have no
    error of the primary scheme (`distributed.run.shard_keep`).

    A call for a relation scheme (`on_errors` is given the errors of the
    first relation scheme named after each batch's span errors) writes
    their relation error records (`report.relations`).
    """

    def __init__(
        self,
        path: PathLike,
        *,
        kb_ids: bool = False,
        link_lines: Optional[Callable[[Mapping[int, DocPair]], List[str]]] = None,
    ) -> None:
        self.path = Path(path)
        self.partial = self.path.with_name(self.path.name + ".partial")
        self.written = 0
        self.kb_ids = kb_ids
        self.link_lines = link_lines
        # the link records name documents without span errors (relation
        # records come from the stream's own relation call)
        self.record_documents: Optional[OtherRecords] = None if link_lines is None else OtherRecords((link_lines,))
        self.file = self.partial.open("w", encoding="utf-8")

    def __call__(self, errors: Sequence[Any], pairs: Mapping[int, DocPair], scheme: str = "") -> None:
        if scheme in RELATION_SCHEMES:
            lines = [srsly.json_dumps(record) for record in relation_records(errors, pairs, scheme)]
        else:
            lines = error_lines(errors, pairs, scheme, self.kb_ids) if errors else []
            if self.link_lines is not None:
                lines += self.link_lines(pairs)
        if lines:
            self.file.write("\n".join(lines) + "\n")
        self.written += len(lines)

    def commit(self) -> None:
        """Close the file and put it in place (an older one is replaced)."""
        self.file.close()
        try:
            os.replace(self.partial, self.path)
        except OSError:
            self.partial.unlink(missing_ok=True)
            raise

    def discard(self) -> None:
        """Close the file and remove it (PATH is not touched)."""
        self.file.close()
        self.partial.unlink(missing_ok=True)

    def __enter__(self) -> "ErrorFile":
        return self

    def __exit__(self, *exc: Any) -> None:
        if not self.file.closed:
            self.discard()
