"""Annotations of several annotators read from files: one file (or brat
directory) per annotator in any registered format, or one export that
names its annotators (Label Studio `completed_by`, Prodigy
`_annotator_id` / `_session_id`, a JSONL `annotator` field).

Documents are matched across annotators by key where the format gives
every document one (a task id, `_input_hash`, a file name), else by text.
A document an annotator's file lacks, or holds without annotation (a
Label Studio task without that annotator's annotation, a Prodigy answer
other than "accept"), is a document that annotator did not do.
"""

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple, cast

from ..exceptions import InputError, PathLike, SettingError
from ..formats import check_pairing_options, format_names, get_format, infer_format
from ..formats.base import Document
from ..formats.docbin import doc_spans
from .links import linked_spans


@dataclass(frozen=True)
class AnnotatorFiles:
    """What was read: annotator -> one entry per document (spans or None),
    each document's length in `unit`, its text and key, and notes
    (cancelled Label Studio annotations). In token unit, each document's
    tokens and their characters in the text; and each document's metadata
    (the first annotator's file that has it gives it), for the consensus
    and for resampling groups."""

    annotations: Dict[str, List[Optional[list]]]
    lengths: List[int]
    texts: List[str]
    keys: List[Optional[str]]
    unit: str
    format: str
    notes: Dict[str, int] = field(default_factory=dict)
    tokens: List[Optional[List[str]]] = field(default_factory=list)
    offsets: List[Optional[List[Tuple[int, int]]]] = field(default_factory=list)
    meta: List[Dict[str, Any]] = field(default_factory=list)
    #: annotator -> one entry per document: its linked spans (`links.linked_spans`) or None
    links: Dict[str, List[Optional[list]]] = field(default_factory=dict)


def read_annotator_files(
    paths: Sequence[PathLike],
    format: Optional[str] = None,
    names: Optional[Sequence[str]] = None,
    unit: Optional[str] = None,
    options: Optional[Mapping[str, Any]] = None,
) -> AnnotatorFiles:
    """Read the annotators' files (each once) and match their documents."""
    paths = cast(List[Path], [Path(p) for p in paths])  # the parameter's type is wider
    if not paths:
        raise SettingError("'paths' is empty: give one file per annotator, or one export naming annotators", "paths")
    _check_given_once(paths)
    options = dict(options or {})
    notes: Dict[str, int] = {}
    if len(paths) == 1:
        name = infer_format(paths[0], format)
        by_annotator, unit = _split_export(paths[0], name, unit, options, notes)
    else:
        name = infer_format(paths[0], format)
        for path in paths[1:]:
            other = infer_format(path, format)
            if other != name:
                raise SettingError(
                    f"'{paths[0]}' looks like {name} and '{path}' like {other}: give every annotator's file in one "
                    "format (or set 'format')",
                    "format",
                )
        reader = get_format(name)
        unit, opts = check_pairing_options(reader, unit, options)
        by_annotator = {
            str(i): _with_doc_spans(reader.read(path, side="gold", unit=unit, **opts), unit, opts)
            for i, path in enumerate(paths)
        }
        labels = [path.stem if path.is_file() else path.name for path in paths]
        by_annotator = dict(zip(labels if len(set(labels)) == len(labels) else map(str, paths), by_annotator.values()))
    if names is not None:
        names = list(names)
        if len(names) != len(by_annotator):
            found = ", ".join(by_annotator)
            raise SettingError(
                f"'names' gives {len(names)} names for {len(by_annotator)} annotators ({found}): give one per annotator",
                "names",
            )
        if len(set(names)) != len(names):
            twice = next(n for n in names if names.count(n) > 1)
            raise SettingError(f"'names' gives the name {twice!r} twice: each annotator is named once", "names")
        by_annotator = dict(zip(names, by_annotator.values()))
    return _matched(by_annotator, unit, name, notes)


def _check_given_once(paths: Sequence[Path]) -> None:
    """The same file (or brat directory) given twice would be one annotator
    scored against itself: an error naming it."""
    seen: Dict[Path, Path] = {}
    for path in paths:
        resolved = path.resolve()
        if resolved in seen:
            first = seen[resolved]
            written = "" if str(first) == str(path) else f" (as '{first}' and '{path}')"
            raise SettingError(
                f"'paths' gives the file '{first}' twice{written}: give each annotator's file once (an "
                "annotator scored against itself agrees perfectly)",
                "paths",
            )
        seen[resolved] = path


def _split_export(path: Path, name: str, unit: Optional[str], options: Dict[str, Any], notes: Dict[str, int]):
    """annotator -> documents of one export that names its annotators
    (read once, by its format's `read_annotators`)."""
    reader = get_format(name)
    if not reader.names_annotators:
        naming = ", ".join(n for n in format_names() if get_format(n).names_annotators)
        raise SettingError(
            f"one {name} input names no annotators: give one file per annotator, or one export that names them "
            f"({naming})",
            "paths",
        )
    unit, opts = check_pairing_options(reader, unit, options)
    found, not_read = reader.read_annotators(path, unit=unit, **opts)
    notes.update(not_read)
    return found, unit


def _with_doc_spans(docs: Any, unit: str, options: Dict[str, Any]) -> List[Document]:
    """The documents of one annotator; those holding a spaCy Doc (DocBins,
    whose spans are read when a pair is aligned) get the Doc's spans."""
    out = []
    for doc in docs:
        if doc.spacy_doc is not None:
            doc = dataclasses.replace(
                doc,
                spans=doc_spans(doc.spacy_doc, options.get("spans_key"), unit),
                tokens=[token.text for token in doc.spacy_doc],
            )
        out.append(doc)
    return out


def _matched(by_annotator: Dict[str, List[Document]], unit: str, format: str, notes: Dict[str, int]) -> AnnotatorFiles:
    """Every annotator's documents on one list of documents, matched by key
    (when every document has one) or by text. A text that one annotator's
    file holds more than once (a repeated heading, "Thanks!") is that many
    documents: the k-th time an annotator gives it is its k-th document of
    that text."""
    every = [doc for docs in by_annotator.values() for doc in docs]
    keyed = bool(every) and all(doc.key is not None for doc in every)
    order: Dict[Any, int] = {}
    texts: List[str] = []
    keys: List[Optional[str]] = []
    lengths: List[int] = []
    tokens: List[Optional[List[str]]] = []
    offsets: List[Optional[List[Tuple[int, int]]]] = []
    metas: List[Dict[str, Any]] = []
    identities: Dict[str, List[Any]] = {}
    for who, docs in by_annotator.items():
        seen: Dict[str, int] = {}
        mine = identities[who] = []
        for doc in docs:
            if keyed:
                identity: Any = doc.key
            else:
                k = seen.get(doc.text, 0)
                seen[doc.text] = k + 1
                identity = (doc.text, k)
            mine.append(identity)
            if identity not in order:
                order[identity] = len(order)
                texts.append(doc.text)
                keys.append(doc.key)
                lengths.append(len(doc.text) if unit == "char" else len(doc.tokens or ()))
                tokens.append(doc.tokens)
                offsets.append(doc.offsets)
                metas.append({k: v for k, v in doc.meta.items() if not k.startswith("_")})  # as pairing's
            elif texts[order[identity]] != doc.text:
                raise InputError(
                    f"{doc.name} has the key {doc.key!r} of another document with another text: the annotators' "
                    "documents with one key must have one text",
                    doc.source,
                )
    annotations: Dict[str, List[Optional[list]]] = {}
    links: Dict[str, List[Optional[list]]] = {}
    for who, docs in by_annotator.items():
        entries: List[Optional[list]] = [None] * len(order)
        linked: List[Optional[list]] = [None] * len(order)
        links[who] = linked
        for doc, identity in zip(docs, identities[who]):
            at = order[identity]
            if doc.spans is None:
                continue
            if entries[at] is not None:
                raise InputError(f"{doc.name}: annotator {who!r} gives this document twice", doc.source)
            entries[at] = list(doc.spans)
            linked[at] = linked_spans(doc)
        annotations[who] = entries
    return AnnotatorFiles(annotations, lengths, texts, keys, unit, format, notes, tokens, offsets, metas, links)
