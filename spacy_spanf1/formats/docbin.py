"""`spacy`: a `.spacy` DocBin (the module is `docbin` so that it does not
shadow the spacy package). Spans come from `Doc.ents`, or from
`Doc.spans[spans_key]`; unit `token` (default) or `char`.

Gold and predicted docs may be tokenized differently (texts may not), so
they are paired by spaCy's alignment: the reader yields each doc's text
(the common pairing code checks it and counts the documents) and keeps the
spaCy Doc (`Document.spacy_doc`); the pairing code then calls `align`, which
builds the `Example` and reads both sides' spans with `docs.example_spans`
(missing annotation follows spaCy's scorers: `None` skips the document),
and, when a doc has knowledge-base ids, their `Span.kb_id_` as the
Documents' `links` (`links.examples`).
The span group keys of each doc and their spans are its
`Document.span_groups`, so that a `spans_key` no gold doc has is reported,
and span groups a corpus scored without one has are named.
A doc's `doc._.rel` (kept in its user_data, which DocBin serializes) gives
the Document's `relations` in either shape `integrations.relations`
reads, between `doc.ents` in the doc's own tokens, relations of the
tutorial's dict from a score of RELATION_THRESHOLD on; `align` maps their
arguments onto the scored spans as it maps the spans.
"""

from typing import Any, Dict, Iterator, List, Optional

from ..registry import formats
from ..spans import Span
from .relations import Relation
from .base import EMPTY, Aligned, Document, Format, PathLike
from .base import InputError, check_file
from ..settings import RELATION_THRESHOLD, UNITS
from ..links.examples import doc_has_kb_ids


#: What DocBin raises on a file that is not a DocBin, or one whose contents
#: do not decode (spaCy's E1014 and msgpack's errors are ValueErrors; a
#: message of other fields fails on a missing key, a list or a string).
NOT_A_DOCBIN = (ValueError, LookupError, TypeError)


def _not_a_docbin(path: PathLike, err: Exception) -> InputError:
    reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return InputError(f"can't read it as a spaCy DocBin (.spacy): {reason}", path)


def load_docbin(path: PathLike) -> Any:
    """A .spacy file as a DocBin (read whole, as DocBin reads it); an
    InputError naming the file when it is not one."""
    from spacy.tokens import DocBin

    path = check_file(path)
    try:
        return DocBin().from_disk(path)
    except NOT_A_DOCBIN as err:
        raise _not_a_docbin(path, err) from None


def read_docbin(path: PathLike, vocab, docbin: Any = None) -> Iterator[Any]:
    """The docs of a .spacy DocBin (or of `docbin`, read from path), one at
    a time."""
    docbin = load_docbin(path) if docbin is None else docbin
    try:
        docs = docbin.get_docs(vocab)
        first = next(docs, None)
    except NOT_A_DOCBIN as err:  # a DocBin whose contents do not decode
        raise _not_a_docbin(path, err) from None
    if first is not None:
        yield first
        yield from docs


def doc_document(index: int, doc: Any, unit: str, side: str, source: str = "") -> Document:
    """A spaCy Doc as a Document to pair (spans come from `align`)."""
    offsets = None
    if unit == "token" and side == "gold":
        offsets = [(t.idx, t.idx + len(t.text)) for t in doc]
    # the doc's user_data (string keys: genre, source, ...) is its metadata
    meta = {key: value for key, value in doc.user_data.items() if isinstance(key, str)}
    groups = {key: len(group) for key, group in doc.spans.items()} if side == "gold" else EMPTY
    name = f"doc {index}"
    return Document(
        name,
        [],
        doc.text,
        None,
        offsets,
        meta,
        source=source,
        spacy_doc=doc,
        span_groups=groups or EMPTY,
        relations=docbin_relations(doc, name, source) if REL_KEY in doc.user_data else None,
    )


#: Where spaCy keeps `doc._.rel` in a doc's user_data.
REL_KEY = ("._.", "rel", None, None)


def docbin_relations(doc: Any, where: str, path: PathLike) -> Optional[List[Relation]]:
    """The relations of a doc's `doc._.rel` (from its user_data, so that
    the extension need not be registered), between its entities in its own
    tokens; None when it is None."""
    from ..integrations.relations import rel_relations

    value = doc.user_data[REL_KEY]
    if value is None:
        return None
    ents = list(doc.ents)
    spans = [Span(e.start, e.end, e.label_) for e in ents]
    return rel_relations(value, [e.start for e in ents], spans, RELATION_THRESHOLD, where, path or None)


def _mapped_relations(example: Any, relations: Optional[List[Relation]], side: str, unit: str) -> Any:
    """A side's relations (in its doc's tokens) on the spans `example_spans`
    scores: in char unit by the tokens' characters, a predicted argument in
    token unit on the gold tokens it aligns to (None: none)."""
    if relations is None:
        return None
    doc = example.reference if side == "gold" else example.predicted
    moved: Dict[Span, Optional[Span]] = {}

    def place(span: Span) -> Optional[Span]:
        if span not in moved:
            start, end, label = span
            if unit == "char":
                moved[span] = Span(doc[start].idx, doc[end - 1].idx + len(doc[end - 1]), label)
            elif side == "gold":
                moved[span] = span
            else:
                indices = example.alignment.x2y[start:end]
                moved[span] = Span(int(indices[0]), int(indices[-1]) + 1, label) if len(indices) else None
        return moved[span]

    return [(place(head), place(tail), label) for head, tail, label in relations]


def align_docs(
    gold: Document, pred: Document, *, unit: str = UNITS[0], spans_key: Optional[str] = None, **_: Any
) -> Aligned:
    """The spans of a gold and a predicted Document holding spaCy Docs, by
    spaCy's alignment; (None, None) when the gold doc lacks annotation."""
    from spacy.training import Example

    from ..integrations.spacy import example_spans

    example = Example(pred.spacy_doc, gold.spacy_doc)
    found = example_spans(example, spans_key, unit)
    if found is None:
        return None, None
    if doc_has_kb_ids(gold.spacy_doc, spans_key) or doc_has_kb_ids(pred.spacy_doc, spans_key):
        from ..links.examples import example_links

        gold.links, pred.links = example_links(example, spans_key, unit) or (None, None)
    gold.relations = _mapped_relations(example, gold.relations, "gold", unit)
    pred.relations = _mapped_relations(example, pred.relations, "pred", unit)
    return list(found[0]), list(found[1])


def doc_spans(doc: Any, spans_key: Optional[str], unit: str) -> Optional[List[Span]]:
    """The spans of one spaCy Doc read on its own (its entities, or the
    span group `spans_key`), in the unit; None when it has no such
    annotation."""
    from spacy.training import Example

    from ..integrations.spacy import example_spans

    found = example_spans(Example(doc, doc), spans_key, unit)
    return None if found is None else list(found[0])


class DocBinFormat(Format):
    """spaCy DocBins, .spacy (unit token or char); tokenization may differ
    between the files, texts may not."""

    name = "spacy"
    units = ("token", "char")
    extensions = (".spacy",)
    options = ("spans_key",)
    mixes_as = "doc"
    #: Tokenizations may differ: pairs are checked on their text, and
    #: their spans read by spaCy's alignment.
    aligns = True

    def __init__(self) -> None:
        self._vocab: Optional[Any] = None  # a spacy.vocab.Vocab, made when first needed

    @property
    def vocab(self):
        if self._vocab is None:
            from spacy.vocab import Vocab

            self._vocab = Vocab()
        return self._vocab

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        for index, doc in enumerate(read_docbin(path, self.vocab)):
            yield doc_document(index, doc, unit, side, str(path))

    def align(self, gold: Document, pred: Document, **options: Any) -> Aligned:
        return align_docs(gold, pred, **options)


DOCBIN = DocBinFormat()
formats.register("spacy", func=DOCBIN)
