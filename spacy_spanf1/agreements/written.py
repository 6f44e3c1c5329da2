"""The consensus written as a gold file the package reads back: JSONL (in
the unit the annotators' files were read in) or a spaCy DocBin (.spacy).

JSONL, char unit: {"text", "spans"} a line, character offsets. Token unit:
{"text", "tokens", "spans"} a line, "start"/"end" token offsets (end
exclusive), as `--format jsonl --unit token` reads them; a token is written
as its string when the reader finds it there in the text, else as
{"text", "start", "end"}. A document's metadata (the first annotator's
file that has it) is written beside, without the "annotator" field.

DocBin: one Doc a document, its text as it was read; the spans are in
`doc.ents` when no two consensus spans of the corpus overlap, else (or
when a spans key is given) in `doc.spans[spans_key or "sc"]`.
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..exceptions import InputError
from ..spans import Span
from .files import AnnotatorFiles

#: The span group of a DocBin consensus whose spans overlap, when no
#: spans key is given (spaCy's SpanCategorizer default).
SPANS_KEY = "sc"


@dataclass(frozen=True)
class WrittenConsensus:
    """A consensus ready to write: `where` says where the spans are
    ("ents", "spans[KEY]", or "spans" for JSONL) and `write(path)` writes it."""

    where: str
    payload: Any

    def write(self, path: Path) -> None:
        if isinstance(self.payload, list):
            path.write_text("".join(json.dumps(record) + "\n" for record in self.payload), encoding="utf-8")
        else:
            self.payload.to_disk(path)


def is_docbin_path(path: Path) -> bool:
    return Path(path).suffix == ".spacy"


def prepare_consensus(
    path: Path, files: AnnotatorFiles, agreed: Sequence[Optional[List[Span]]], spans_key: Optional[str] = None
) -> WrittenConsensus:
    """The consensus of `files` (per document its spans, None: no one did
    it), built in memory so that what cannot be written is an error before
    anything is printed or written."""
    if is_docbin_path(path):
        return _docbin(files, agreed, spans_key)
    return WrittenConsensus("spans", jsonl_records(files, agreed))


def jsonl_records(files: AnnotatorFiles, agreed: Sequence[Optional[List[Span]]]) -> List[Dict[str, Any]]:
    """One record per document someone did."""
    records = []
    for doc, spans in enumerate(agreed):
        if spans is None:
            continue
        record: Dict[str, Any] = {"text": files.texts[doc]}
        if files.unit == "token":
            record["tokens"] = _tokens_field(files.texts[doc], files.tokens[doc] or [], files.offsets[doc] or [])
        record["spans"] = [{"start": s.start, "end": s.end, "label": s.label} for s in spans]
        meta = files.meta[doc] if doc < len(files.meta) else {}
        record.update({k: v for k, v in meta.items() if k not in record and k != "annotator"})
        records.append(record)
    return records


def _tokens_field(text: str, tokens: List[str], offsets: List[Tuple[int, int]]) -> List[Any]:
    """The tokens as strings when the jsonl reader finds each at its own
    offsets (searching the text in order), else as {"text", "start", "end"}."""
    pos = 0
    for word, (start, end) in zip(tokens, offsets):
        if text.find(word, pos) != start:
            return [{"text": w, "start": s, "end": e} for w, (s, e) in zip(tokens, offsets)]
        pos = end
    return list(tokens)


def _docbin(
    files: AnnotatorFiles, agreed: Sequence[Optional[List[Span]]], spans_key: Optional[str]
) -> WrittenConsensus:
    from spacy.tokens import DocBin
    from spacy.vocab import Vocab

    overlap = any(_overlapping(spans) for spans in agreed if spans)
    key = spans_key if spans_key is not None else (SPANS_KEY if overlap else None)
    vocab = Vocab()
    docbin = DocBin(store_user_data=True)
    for doc_index, spans in enumerate(agreed):
        if spans is None:
            continue
        text = files.texts[doc_index]
        if files.unit == "token":
            offsets = files.offsets[doc_index] or []
            chars = [(offsets[s.start][0], offsets[s.end - 1][1], s.label) for s in spans]
            cuts = [c for pair in offsets for c in pair]
        else:
            chars = [(s.start, s.end, s.label) for s in spans]
            cuts = []
        doc = _doc_of(vocab, text, cuts, chars)
        found = []
        for start, end, label in chars:
            span = doc.char_span(start, end, label=label)
            if span is None:  # a boundary inside whitespace the tokens cannot reach
                raise InputError(
                    f"document {doc_index}: the consensus span ({start}, {end}, {label!r}) does not fall on spaCy "
                    "tokens of its text: write the consensus as .jsonl",
                    setting="consensus_path",
                )
            found.append(span)
        if key is None:
            doc.ents = found
        else:
            doc.spans[key] = found
        meta = files.meta[doc_index] if doc_index < len(files.meta) else {}
        for name, value in meta.items():
            if name != "annotator":
                doc.user_data[name] = value
        docbin.add(doc)
    return WrittenConsensus("ents" if key is None else f"spans[{key!r}]", docbin)


def _overlapping(spans: List[Span]) -> bool:
    """Whether two of the sorted spans share a position."""
    furthest = spans[0].end
    for span in spans[1:]:
        if span.start < furthest:
            return True
        furthest = max(furthest, span.end)
    return False


def _doc_of(vocab: Any, text: str, cuts: Sequence[int], spans: Sequence[Tuple[int, int, str]]):
    """A Doc of exactly `text`, cut at the whitespace, at every offset of
    `cuts` and at the spans' characters: as spaCy's tokenizer does, the
    first space after a word is that word's trailing space (unless a span
    starts or ends with it), other whitespace is a token of its own."""
    from spacy.tokens import Doc

    starts = {start for start, _, _ in spans}
    ends = {end for _, end, _ in spans}
    points = {0, len(text)} | starts | ends
    points.update(c for c in cuts if 0 <= c <= len(text))
    for k in range(1, len(text)):
        if text[k].isspace() != text[k - 1].isspace():
            points.add(k)
    ordered = sorted(points)
    words: List[str] = []
    spaces: List[bool] = []
    for start, end in zip(ordered, ordered[1:]):
        piece = text[start:end]
        if (
            piece[0] == " "
            and piece.isspace()
            and words
            and not spaces[-1]
            and not words[-1].isspace()
            and start not in starts
            and start + 1 not in ends
        ):
            spaces[-1] = True  # as spaCy's tokenizer: the first space is the word's, the rest a token
            piece = piece[1:]
        if piece:
            words.append(piece)
            spaces.append(False)
    doc = Doc(vocab, words=words, spaces=spaces)
    if doc.text != text:  # the pieces above cover the text exactly: this is a bug, not bad input
        raise RuntimeError(f"the consensus Doc does not keep the text: {doc.text!r} is not {text!r}")
    return doc
