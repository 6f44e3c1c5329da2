"""brat standoff: a directory of NAME.txt and NAME.ann files.

Each NAME is a document (in sorted name order, key NAME). Text-bound lines
`T1<TAB>LABEL START END[;START END...]<TAB>TEXT` are spans; relations
`R1<TAB>LABEL Arg1:T1 Arg2:T2` are relations between them (the first
argument the head, the second the tail: `Document.relations`); a
normalization `N1<TAB>Reference T1 Wikidata:Q42<TAB>TEXT` is the kb id of
its entity (`Document.links`; an entity's further normalizations are
counted); events (E), attributes (A, M), notes (#) and equivalences (*)
are not read, and are counted in the Document's `counts`. The .ann
text of each entity is compared with the .txt at its offsets (brat joins
the texts of fragments with a space); the offsets are authoritative, as in
brat and BratEval: a disagreement is counted and shown (`offsets.py`,
option `text_mismatch`).

Offsets count characters as brat reads the .txt: brat opens it with
universal newlines (`annotation.open_textfile`), so "\\r\\n" (and a lone
"\\r") count as one character, and with the `utf8` codec, so a byte-order
mark is character 0. The reader does the same, then drops the BOM from the
text and moves every offset back by one. Option `newlines="keep"` counts
characters as written instead (CRLF = 2), for files made by tools that do.
Other files (annotation.conf, visual.conf, tools.conf, .stats_cache) and
subdirectories are ignored.
"""

import os
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

from ..registry import formats
from ..spans import FragmentedSpan, Span, split_fragments
from .base import Document, Format, InputError, Marks, PathLike, decode_utf8
from .offsets import QuotedSpan, check_text_mismatch, place_spans
from ..settings import check_choice
from .records import check_read
from .kb import brat_normalization
from .relations import brat_relation

FRAGMENTS: Tuple[str, ...] = ("error", "merge", "split", "keep")
NEWLINES: Tuple[str, ...] = ("brat", "keep")
#: Annotation id prefix -> what _counts calls the annotations that are not spans.
NOT_SPANS: Dict[str, str] = {
    "E": "events",
    "A": "attributes",
    "M": "attributes",
    "N": "normalizations",
    "#": "notes",
    "*": "equivalences",
}
_BOM = b"\xef\xbb\xbf"
_SHAPE = "T1<TAB>LABEL START END[;START END...]<TAB>TEXT"


class BratFormat(Format):
    """brat standoff directories (unit char).

    fragments (Optional[str]): A discontinuous entity: "error" (default:
        InputError naming it), "merge" (one span from its first start to its
        last end), "split" (one span per fragment) or "keep" (one span of
        several fragments, scored as the positions they cover; fragments
        that overlap are then an error). Fragments with only
        whitespace between them (brat splits an entity at line breaks) are
        merged whatever the setting.
    newlines (Optional[str]): "brat" (default: offsets count "\\r\\n" as one
        character, as brat reads files) or "keep" (characters as written).
    text_mismatch (Optional[str]): An entity whose quoted text is not the
        text at its offsets: "warn" (default: scored at its offsets, counted
        and shown), "error" or "ignore" (`offsets.place_spans`).
    """

    name = "brat"
    units = ("char",)
    extensions = ("",)
    options = ("fragments", "newlines", "text_mismatch")
    keyed = True
    key_field = "file name"
    mixes_as = "text"

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        opts = check_read(self, side, unit, options)
        text_mismatch = check_text_mismatch(opts.get("text_mismatch"))
        fragments = opts.get("fragments", "error")
        newlines = opts.get("newlines", "brat")
        check_choice("fragments", fragments, FRAGMENTS)
        check_choice("newlines", newlines, NEWLINES)
        names = _document_names(Path(path))
        return (_read_document(Path(path), name, fragments, newlines, text_mismatch) for name in names)


def _document_names(folder: Path) -> List[str]:
    if not folder.exists():
        raise InputError("directory not found", folder)
    if not folder.is_dir():
        raise InputError("brat input is a directory of NAME.txt and NAME.ann files, not a file", folder)
    txt: Set[str] = set()
    ann: Set[str] = set()
    with os.scandir(folder) as entries:  # one listing; is_file() needs no stat call
        for entry in entries:
            stem, suffix = os.path.splitext(entry.name)
            if suffix in (".txt", ".ann") and entry.is_file():
                (txt if suffix == ".txt" else ann).add(stem)
    for name in sorted(txt ^ ann):
        have, missing = (f"{name}.txt", f"{name}.ann") if name in txt else (f"{name}.ann", f"{name}.txt")
        raise InputError(f"'{have}' has no '{missing}' beside it; brat documents are NAME.txt + NAME.ann pairs", folder)
    if not txt:
        raise InputError("no brat documents (NAME.txt + NAME.ann) in the directory", folder)
    return sorted(txt)


def _read_bytes(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise InputError("file not found", path) from None
    except OSError as err:
        raise InputError(f"can't read the file: {err.strerror or err}", path) from None


def _read_text(path: str, newlines: str) -> Tuple[str, int, bool]:
    """The text of a .txt file, the offset shift (1 when a BOM was dropped:
    brat counts it as character 0, else 0) and whether it has a "\r"."""
    data = _read_bytes(path)
    shift = 1 if data.startswith(_BOM) else 0
    text = decode_utf8(data[len(_BOM) :] if shift else data, path, 1)
    has_cr = "\r" in text
    if newlines == "brat" and has_cr:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text, shift, has_cr


def _ann_lines(path: str) -> Iterator[Tuple[int, str]]:
    """(line number, line) of an .ann file, read whole (they are small)."""
    text = decode_utf8(_read_bytes(path), path, 1)
    if text.startswith("\ufeff"):
        text = text[1:]
    for lineno, line in enumerate(text.split("\n"), 1):
        yield lineno, line[:-1] if line.endswith("\r") else line


def _read_document(folder: Path, name: str, fragments: str, newlines: str, text_mismatch: str) -> Document:
    base = os.path.join(folder, name)
    ann_path = base + ".ann"
    text, shift, has_cr = _read_text(base + ".txt", newlines)
    # brat's offsets index the text with the BOM as character 0.
    brat_text = "\ufeff" + text if shift else text
    counts: Dict[str, int] = {}
    entities: List[QuotedSpan] = []
    entity_lines: List[int] = []
    seen: Dict[str, int] = {}
    ids: List[str] = []
    normalized: Dict[str, Tuple[str, int]] = {}  # entity -> (kb id, line)
    relation_lines: List[Tuple[int, str]] = []
    for lineno, line in _ann_lines(ann_path):
        if not line.strip():
            continue
        ann_id = line.split("\t", 1)[0].strip()
        prefix = ann_id[:1]
        if prefix == "N":  # a kb id: read when it is an entity's first
            target, kb_id = brat_normalization(line, ann_path, lineno)
            if target[:1] == "T" and target not in normalized:
                normalized[target] = (kb_id, lineno)
                continue
        if prefix == "R":
            relation_lines.append((lineno, line))
            continue
        if prefix in NOT_SPANS:
            counts[NOT_SPANS[prefix]] = counts.get(NOT_SPANS[prefix], 0) + 1
            continue
        if prefix != "T":
            raise InputError(
                f"unknown annotation line {_cut(line)!r}; brat ids start with T (text-bound), R, {', '.join(NOT_SPANS)}",
                ann_path,
                lineno,
            )
        if ann_id in seen:
            raise InputError(f"entity {ann_id} is defined twice (first on line {seen[ann_id]})", ann_path, lineno)
        seen[ann_id] = lineno
        label, frags, written = _parse_textbound(line, ann_id, ann_path, lineno)
        entities.append(QuotedSpan(frags, label, written, f"entity {ann_id}", lineno))
        entity_lines.append(lineno)
        ids.append(ann_id)
    document = f"file '{name}.ann'"
    placed, notes = place_spans(
        entities,
        brat_text,
        policy=text_mismatch,
        document=document,
        path=ann_path,
        line=None,
        hint=_newline_hint(has_cr, newlines),
    )
    spans: Set[Any] = set()
    links: Optional[List[Tuple[Span, str]]] = [] if _normalizations(normalized, seen, ann_path) else None
    entity_spans: Dict[str, List[Span]] = {}
    for ann_id, entity, frags, lineno in zip(ids, entities, placed, entity_lines):
        if fragments == "keep":
            _check_disjoint(sorted(frags), entity.where, ann_path, lineno)
        groups = _join_whitespace(sorted(frags), brat_text)
        if len(groups) > 1 and fragments == "keep":
            pieces = tuple((max(start - shift, 0), end - shift) for start, end in groups)
            spans.add(FragmentedSpan(pieces[0][0], pieces[-1][1], entity.label, pieces))
            entity_spans[ann_id] = [Span(pieces[0][0], pieces[-1][1], entity.label)]
            if links is not None:
                links.append((Span(pieces[0][0], pieces[-1][1], entity.label), normalized.get(ann_id, ("", 0))[0]))
            continue
        if len(groups) > 1:
            if fragments == "error":
                raise InputError(
                    f"{entity.where} ({entity.label}) is discontinuous ({len(groups)} fragments); pass "
                    f"fragments=keep (one span of several fragments), fragments=merge (one span) or "
                    f"fragments=split (one span per fragment)",
                    ann_path,
                    lineno,
                )
            if fragments == "merge":
                groups = [(groups[0][0], max(e for _, e in groups))]
        placed_spans = [Span(max(start - shift, 0), end - shift, entity.label) for start, end in groups]
        spans.update(placed_spans)
        entity_spans[ann_id] = placed_spans
        if links is not None:
            kb_id = normalized.get(ann_id, ("", 0))[0]
            links.extend((span, kb_id) for span in placed_spans)
    relations = [brat_relation(line, entity_spans, ann_path, lineno) for lineno, line in relation_lines]
    ordered, kept = split_fragments(spans)
    marks = Marks(ordered, notes, None, relations or None, links, kept)
    return Document.of_marks(document, text, marks, counts, ann_path, key=name)


def _normalizations(normalized: Dict[str, Tuple[str, int]], seen: Dict[str, int], path: str) -> bool:
    """Whether the file has normalizations (True), after checking that
    each names an entity of the file (InputError naming the first that
    does not)."""
    for target, (_, lineno) in normalized.items():
        if target not in seen:
            raise InputError(f"the normalization names {target}, which is not an entity of the file", path, lineno)
    return bool(normalized)


def _parse_textbound(
    line: str, ann_id: str, path: PathLike, lineno: int
) -> Tuple[str, List[Tuple[int, int]], Optional[str]]:
    """Label, fragments (sorted) and the written text (None when the line
    has no text field) of a T line."""
    parts = line.split("\t", 2)
    bad = f"malformed text-bound annotation {_cut(line)!r}; expected {_SHAPE}"
    if len(parts) < 2 or " " not in parts[1].strip():
        raise InputError(bad, path, lineno)
    label, offsets = parts[1].strip().split(" ", 1)
    frags = []
    for piece in offsets.split(";"):
        numbers = piece.split()
        if len(numbers) != 2 or not all(n.isdigit() for n in numbers):
            raise InputError(bad, path, lineno)
        start, end = int(numbers[0]), int(numbers[1])
        if not start < end:
            raise InputError(
                f"entity {ann_id} has the fragment {start} {end}; offsets need 0 <= start < end", path, lineno
            )
        frags.append((start, end))
    written = parts[2] if len(parts) == 3 else None
    return label, frags, written


def _check_disjoint(frags: List[Tuple[int, int]], where: str, path: PathLike, lineno: int) -> None:
    """InputError when two fragments of one entity share a character."""
    for (a_start, a_end), (b_start, b_end) in zip(frags, frags[1:]):
        if b_start < a_end:
            raise InputError(
                f"{where} has the overlapping fragments {a_start} {a_end} and {b_start} {b_end}; "
                "the fragments of one entity may not share a character",
                path,
                lineno,
            )


def _join_whitespace(frags: List[Tuple[int, int]], text: str) -> List[Tuple[int, int]]:
    """Fragments with only whitespace (or nothing) between them joined."""
    groups = [frags[0]]
    for start, end in frags[1:]:
        last_start, last_end = groups[-1]
        if start <= last_end or not text[last_end:start].strip():
            groups[-1] = (last_start, max(last_end, end))
        else:
            groups.append((start, end))
    return groups


def _newline_hint(has_cr: bool, newlines: str) -> str:
    if not has_cr:
        return ""
    if newlines == "keep":
        return "; the .txt has CR line ends, which brat counts as one character ('newlines' brat)"
    return "; the .txt has CR line ends: if the offsets count CRLF as two characters, pass 'newlines' keep"


def _cut(line: str, n: int = 60) -> str:
    return line if len(line) <= n else line[: n - 1] + "…"


BRAT = BratFormat()
formats.register("brat", func=BRAT)
