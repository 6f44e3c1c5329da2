"""`jsonl`: one JSON object a line, `{"text": ..., "spans": [{"start",
"end", "label"}]}`, character offsets with an exclusive end (spaCy/Prodigy
span annotation). Scored in `char` unit: no tokenizer is involved, so a span
that does not fall on token boundaries is scored as it is written. With unit
`token`, each record also holds "tokens" (strings, or Prodigy's {"text",
"start", "end"} dicts) and "start"/"end" are token offsets, end exclusive.
A gold line without "spans" has no annotation and is skipped (counted); a
predicted line without "spans" predicts nothing (a predicted file none of
whose lines has "spans" is an error). A span's "text", when given, is
compared with the text at its offsets (option `text_mismatch`, as for brat);
its "kb_id" (a string; null or "" for none) is its knowledge-base id, for
the link schemes (`Document.links`). A record's "relations", [{"head": i,
"tail": j, "label": ...}], i and j indices into its "spans" as listed, are
its `Document.relations`.
Blank lines are not records. A record's "id" (a string, or an integer read
as its str()) is its key: documents pair by id when the first record of
both files has one (`pairing.pair_documents`), and then every record of
both needs one, unique in its file.

Lines are read 64 KB at a time (`base.read_line_blocks`, BLOCK_BYTES) and
parsed with srsly; the spans of a block are checked at once
(`spans.checked_offsets`).
"""

import json
from itertools import chain, repeat
from operator import itemgetter
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy
import srsly

from ..registry import formats
from ..spans import Span, checked_offsets, is_int, join_fragments, normal_fragments, split_fragments
from ..notes import Notes
from .base import EMPTY, Document, Format, InputError, PathLike, gc_paused, read_line_blocks
from .kb import record_links
from . import jsonl_plain
from .jsonl_errors import first_span_error, json_reason, other_span_field_error, prodigy_error
from .offsets import check_text_mismatch, place_spans
from .relations import by_index
from .records import (
    check_text,
    predicts_nothing_error,
    quoted_span,
    record_key,
)


def _record(line: str, path: PathLike, lineno: int) -> Dict[str, Any]:
    """The record of a line; InputError for a line that is not a JSON object."""
    try:
        record = srsly.json_loads(line)
    except ValueError as err:
        # Python's json reads what srsly's does not: NaN and Infinity (what
        # json.dumps writes for float("nan")), integers past 64 bits.
        import json

        try:
            record = json.loads(line)
        except ValueError:
            raise InputError(f"invalid JSON ({json_reason(line, err)})", path, lineno) from None
    if not isinstance(record, dict):
        raise InputError(
            f'expected a JSON object {{"text": ..., "spans": [...]}}, got {type(record).__name__}',
            path,
            lineno,
        )
    return record


def read_tokens(
    record: Dict[str, Any], text: str, path: PathLike, lineno: int
) -> Tuple[List[str], List[Tuple[int, int]]]:
    """Token strings and their character offsets in text, from "tokens":
    strings (found in the text in order) or {"text", "start", "end"} dicts."""
    tokens = record.get("tokens")
    if not isinstance(tokens, list):
        raise InputError('unit token needs a "tokens" list in every record (token offsets)', path, lineno)
    words, offsets, pos = [], [], 0
    for k, token in enumerate(tokens):
        if isinstance(token, dict) and isinstance(token.get("text"), str):
            word = token["text"]
            start, end = token.get("start"), token.get("end")
            if not (is_int(start) and is_int(end) and text[start:end] == word):
                start = text.find(word, pos)
                end = start + len(word)
        elif isinstance(token, str):
            word = token
            start = text.find(word, pos)
            end = start + len(word)
        else:
            raise InputError(f'token {k} is {token!r}, not a string or a {{"text", ...}} object', path, lineno)
        if start < 0:
            raise InputError(f"token {k} ({word!r}) is not in the text after character {pos}", path, lineno)
        words.append(word)
        offsets.append((start, end))
        pos = end
    return words, offsets


def record_meta(record: Dict[str, Any]) -> Dict[str, Any]:
    """A record's metadata, for breakdowns and grouped resampling: its fields
    other than "text", "spans", "tokens" and "relations", and the contents of a "meta"
    object (spaCy's and Prodigy's place for them); `_`-fields are left out."""
    meta = {k: v for k, v in record.items() if k not in _NOT_META and k != "meta" and not k.startswith("_")}
    inner = record.get("meta")
    if isinstance(inner, dict):
        meta.update({k: v for k, v in inner.items() if isinstance(k, str) and not k.startswith("_")})
    elif "meta" in record:
        meta["meta"] = inner
    return meta


#: The fields of a span object, gathered in C.
_SPAN_FIELDS = itemgetter("start", "end", "label")
#: Fields that are not metadata: a record with no other has meta {}.
_NOT_META = frozenset(("text", "spans", "tokens", "relations"))
#: Bytes of lines read and turned into documents at a time (about a hundred
#: records of a few hundred characters). A block's documents stay in
#: memory until they are paired and scored; a small block keeps them in
#: the processor's cache, and leaves the collection of young objects after
#: each scored batch few of them to walk (with blocks of a megabyte the same
#: compare took a fifth longer).
BLOCK_BYTES = 1 << 16


def _block_documents(
    block: List[Tuple[int, str]],
    path: PathLike,
    unit: str,
    text_mismatch: str = "warn",
    chars_without_tokens: bool = False,
) -> List[Document]:
    """The documents of a block of lines, their spans checked at once.

    The block runs with the cyclic garbage collector paused: parsed JSON
    holds no cycles, and a collection every few hundred records would walk
    the block's documents again and again. A block of plain records (the
    usual one) is read column by column (`jsonl_plain.plain_block`); any other, record
    by record (`_read_block`), which says what is wrong with a record."""
    with gc_paused():
        docs = jsonl_plain.plain_block(block, path, text_mismatch) if unit == "char" else None
        return docs if docs is not None else _read_block(block, path, unit, text_mismatch, chars_without_tokens)


def _read_block(
    block: List[Tuple[int, str]], path: PathLike, unit: str, text_mismatch: str, chars_without_tokens: bool = False
) -> List[Document]:
    """The documents of a block, record by record (each record is taken
    apart as soon as it is parsed: its span objects live for one line)."""
    source = str(path)
    docs: List[Document] = []
    flat: List[Tuple[Any, Any, Any]] = []
    counts: List[int] = []  # spans per document; -1: no "spans" (no annotation)
    limits: List[int] = []
    fragmented: Dict[int, List[Any]] = {}  # document -> its spans' fragments (None: contiguous), as listed
    for lineno, line in block:
        if not line or line.isspace():
            continue  # blank lines are not records
        try:
            record = jsonl_plain.json_loads(line)
        except ValueError:
            record = None
        if type(record) is not dict:  # or not JSON: `_record` says what it is
            record = _record(line, path, lineno)
        if "answer" in record or "_input_hash" in record:
            prodigy_error(record, path, lineno)
        text = record.get("text")
        if type(text) is not str:
            if "spans" not in record:
                other_span_field_error(record, path, lineno)  # another format's record (tokens and ner_tags)
            problem = "no" if "text" not in record else f"a non-string ({type(text).__name__})"
            raise InputError(f'the record has {problem} "text"', path, lineno)
        if not text.isascii():
            check_text(text, 'the record\'s "text"', path, lineno)
        tokens = offsets = None
        if unit == "token" and not (chars_without_tokens and "tokens" not in record):
            tokens, offsets = read_tokens(record, text, path, lineno)
        items = record.get("spans")
        notes = scores = links = None
        if type(items) is list:
            limit = len(text) if tokens is None else len(tokens)
            if '"fragments"' in line:  # spans of several fragments: their outer bounds, and the fragments apart
                items, fragmented[len(docs)] = _fragment_items(items, limit, path, lineno)
            try:
                found = list(map(_SPAN_FIELDS, items))
            except (TypeError, KeyError):
                first_span_error(limit, items, unit, path, lineno)
            if tokens is None and text_mismatch != "ignore" and line.count('"text"') > 1:
                found, notes = _quoted_spans(found, items, text, text_mismatch, path, lineno)
            flat.extend(found)
            if '"score"' in line:  # scored predictions, for sweeps
                scores = _line_scores(line, found)
            if '"kb_id"' in line:  # linked spans, for the link schemes
                links = record_links(found, items, path, lineno)
            counts.append(len(items))
            limits.append(limit)
        elif items is None and "spans" not in record:
            other_span_field_error(record, path, lineno)
            counts.append(-1)
            limits.append(0)
        else:
            raise InputError(f'"spans" is a {type(items).__name__}, not a list', path, lineno)
        relations = None
        if "relations" in record:  # indices into "spans" as listed
            relations = by_index(record["relations"], found if type(items) is list else [], path, lineno)
        meta = {} if _NOT_META.issuperset(record) else record_meta(record)
        key = record_key(record) if "id" in record else None
        docs.append(
            Document(
                f"line {lineno}",
                None,
                text,
                tokens,
                offsets,
                meta,
                line=lineno,
                key=key,
                source=source,
                notes=notes or EMPTY,
                scores=scores,
                links=links,
                relations=relations,
            )
        )
    sizes = numpy.maximum(numpy.array(counts, dtype=numpy.int64), 0)
    unsorted = _check_block_spans(block, [doc.line for doc in docs], flat, sizes, limits, unit, path) if flat else set()
    # Span tuples made in C (tuple.__new__); a record found unsorted is
    # sorted, identical spans once.
    spans = list(map(tuple.__new__, repeat(Span), flat))
    pos = 0
    for k, (doc, n) in enumerate(zip(docs, counts)):
        if n < 0:
            continue
        doc.spans = sorted(set(spans[pos : pos + n])) if k in unsorted else spans[pos : pos + n]
        if k in fragmented:
            doc.spans, doc.fragments = split_fragments(join_fragments(spans[pos : pos + n], fragmented[k]))
        pos += n
    return docs


def _fragment_items(items: List[Any], limit: int, path: PathLike, lineno: int) -> Tuple[List[Any], List[Any]]:
    """A record's span objects with "fragments" given their outer "start"
    and "end", and each span's normal fragments (None for one without)."""
    out, fragments = [], []
    for i, item in enumerate(items):
        if type(item) is dict and "fragments" in item:
            try:
                pieces = normal_fragments(item["fragments"], str(i), limit=limit)
            except ValueError as err:
                raise InputError(str(err)[0].lower() + str(err)[1:], path, lineno) from None
            for key, bound in (("start", pieces[0][0]), ("end", pieces[-1][1])):
                if key in item and item[key] != bound:
                    raise InputError(
                        f"span {i} has {key}={item[key]!r}, but its fragments give {key}={bound}; "
                        "leave out start and end or give the fragments' outer bounds",
                        path,
                        lineno,
                    )
            item = {**item, "start": pieces[0][0], "end": pieces[-1][1]}
            fragments.append(pieces if len(pieces) > 1 else None)
        else:
            fragments.append(None)
        out.append(item)
    return out, fragments


def _line_scores(line: str, found: List[Tuple[Any, Any, Any]]) -> List[Tuple[Span, Any]]:
    """Each span of a line with its "score" (None without one). The line is
    parsed again by the standard library: srsly's parser can be one unit in
    the last place off (it reads 0.3 as 0.30000000000000004), and a
    threshold is a score."""
    items = json.loads(line).get("spans") or []
    return [(Span(*span), item.get("score") if isinstance(item, dict) else None) for span, item in zip(found, items)]


def _check_block_spans(block, linenos, flat, sizes, limits, unit, path) -> set:
    """Check every span of a block at once (InputError naming the line and
    span of the first bad one). RETURNS the documents (positions in the
    block) whose spans are not in order without overlap: the others are
    sorted and unique already."""
    starts, ends, labels = zip(*flat)
    span_limits = numpy.repeat(numpy.array(limits, dtype=numpy.int64), sizes)
    bad, start, end = checked_offsets(starts, ends, labels, span_limits, empty_label=False)
    if bad is not None:
        k = int(numpy.searchsorted(numpy.cumsum(sizes), bad, side="right"))
        lineno = linenos[k]
        record = _record(block[lineno - block[0][0]][1], path, lineno)
        first_span_error(limits[k], record["spans"], unit, path, lineno)
    if start is None or end is None:  # fine spans the quick check could not take
        start = numpy.array(starts, dtype=numpy.int64)
        end = numpy.array(ends, dtype=numpy.int64)
    doc_of = numpy.repeat(numpy.arange(len(sizes)), sizes)
    same = doc_of[1:] == doc_of[:-1]
    return set(doc_of[1:][same & (start[1:] < end[:-1])].tolist())


def _quoted_spans(
    found: List[Tuple[Any, Any, Any]], items: List[Any], text: str, policy: str, path: PathLike, lineno: int
) -> Tuple[List[Tuple[Any, Any, Any]], Notes]:
    """The (start, end, label) of a record whose spans quote their "text"
    (spaCy's and Prodigy's convention), placed by the one policy for
    offsets that disagree with their text (`offsets.place_spans`)."""
    if not any(type(item) is dict and "text" in item for item in items):
        return found, {}
    quoted = [
        quoted_span(start, end, label, item.get("text"), f"span {i}", path, lineno)
        for i, ((start, end, label), item) in enumerate(zip(found, items))
    ]
    placed, notes = place_spans(quoted, text, policy=policy, document=f"line {lineno}", path=path, line=lineno)
    return [(f[0][0], f[0][1], span.label) for span, f in zip(quoted, placed)], notes


def read_jsonl(
    path: PathLike, unit: str = "char", text_mismatch: str = "warn", chars_without_tokens: bool = False
) -> Iterator[Document]:
    """Documents of a JSONL file, one at a time, read a block of lines at a
    time. Raises InputError naming the line of any problem.

    text_mismatch (str): A span whose "text" is not the text at its
        offsets (char unit): "warn", "error" or "ignore" (`offsets.py`).
    chars_without_tokens (bool): In token unit, a record without "tokens"
        has character offsets (its Document has no tokens), for predictions
        placed on the gold tokens of another format (`formats.mixed`);
        else it is an error."""
    # the blocks' documents handed on in C (no Python frame a document)
    return chain.from_iterable(_read_blocks(path, unit, text_mismatch, chars_without_tokens))


def _read_blocks(path: PathLike, unit: str, text_mismatch: str, chars_without_tokens: bool) -> Iterator[List[Document]]:
    """The documents of a JSONL file, a block at a time (`read_jsonl`)."""
    for block in read_line_blocks(path, BLOCK_BYTES):
        yield _block_documents(block, path, unit, text_mismatch, chars_without_tokens)


class JsonlFormat(Format):
    """{"text", "spans": [{"start", "end", "label"}]} a line, character
    offsets, scored in char unit so that no tokenizer is involved and a span
    off token boundaries is scored as written (unit token reads them as
    offsets into each record's "tokens"); a gold line without "spans" is
    skipped and counted."""

    name = "jsonl"
    units = ("char", "token")
    extensions = (".jsonl",)
    options = ("text_mismatch",)
    counted_as = "documents (JSONL records)"
    key_name = '"id"'
    key_field = "id"
    unique_keys = True
    mixes_as = "text"
    names_annotators = True  # each record's "annotator"

    def annotator_of(self, doc: Document) -> Optional[str]:
        """A record's "annotator" field (kept in its metadata)."""
        who = doc.meta.get("annotator")
        return None if who is None else str(who)

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        blocks = _read_blocks(
            path, unit, check_text_mismatch(options.get("text_mismatch")), bool(options.get("chars_without_tokens"))
        )
        return chain.from_iterable(blocks if side == "gold" else _predicting(blocks, path))


def _predicting(blocks: Iterator[List[Document]], path: PathLike) -> Iterator[List[Document]]:
    """The predicted documents, a block at a time; InputError at the end
    when no record had "spans" (the file would predict nothing: a silent
    zero)."""
    first: Dict[str, Any] = {}
    with_spans = n = 0
    for docs in blocks:
        if docs and n == 0:
            first = docs[0].meta
        n += len(docs)
        if not with_spans:
            with_spans = any(doc.spans is not None for doc in docs)
        yield docs
    if n and not with_spans:
        raise predicts_nothing_error(("spans",), ["text", *first], path)


JSONL = JsonlFormat()
formats.register("jsonl", func=JSONL)
