"""Gold and predictions in two formats (`gold_format`, `pred_format`): a
spaCy DocBin gold against an LLM's JSONL, CoNLL gold against JSONL with
tokens, brat or Label Studio gold against JSONL.

Two formats mix when their documents can be the same documents: each
format declares the kind of its documents (`Format.mixes_as`):

- "text": a text and character offsets (jsonl, brat, labelstudio,
  doccano, prodigy; jsonl and prodigy also have tokens in token unit);
- "doc": spaCy Docs (spacy), a text and its tokens;
- "tokens": tokens only, the text made from them (conll, tags).

Valid pairs (`valid_pairs_text` says it in messages): "text" and "doc"
with each other, in char unit, or in token unit on a gold side with tokens
(spacy, or jsonl/prodigy read with their tokens); "tokens" with "tokens",
"doc" or a "text" format that has tokens, in token unit. kaggle (no text)
mixes with nothing; mentions are predictions only and place themselves on
any gold (`formats.mentions`).

Pairing and the checks are the common ones (`pairing.pair_documents`):
by key when both sides carry keys, else in order; the texts are compared
(the tokens, where one side has tokens only). `MixedFormat.place_on_gold`
then puts both sides' spans in the unit: a DocBin's spans are read from
its Doc (its entities, or `spans_key`; as spaCy's scorer, a prediction on
gold tokens whose entity annotation is missing is ignored); in token unit,
predicted spans on other tokens, or in characters only (a side read in
characters: brat, Label Studio, doccano, and JSONL records without
"tokens"), are expanded to the gold tokens they touch, as spaCy's
`Doc.char_span(..., alignment_mode="expand")` does, and each span whose
boundaries are not on gold token boundaries is noted (`expanded_to_tokens`).
"""

from bisect import bisect_left, bisect_right
from dataclasses import replace
from typing import Any, Iterable, Iterator, List, Optional, Tuple, cast

from ..exceptions import SettingError
from ..notes import Notes, note
from ..settings import NOTE_EXAMPLES, UNITS
from ..spans import Span
from ..registry import formats as _registry
from .base import EMPTY, Document, Format, Placed
from .identity import token_offsets

#: The note of predicted spans expanded to the gold tokens.
EXPANDED = "expanded_to_tokens"


def mix_kind(reader: Format) -> Optional[str]:
    """The kind of a format's documents ("text", "doc", "tokens"), or None:
    it mixes with no other format."""
    return reader.mixes_as


def valid_pairs_text() -> str:
    """The pairs of formats that mix, for messages."""
    kinds = {name: reader.mixes_as for name, reader in _registry.get_all().items()}
    text = ", ".join(sorted(name for name, kind in kinds.items() if kind == "text"))
    tokens = ", ".join(sorted(name for name, kind in kinds.items() if kind == "tokens"))
    return (
        f"spacy and the text formats ({text}) with each other, in char unit, or in token unit when the gold "
        f"has tokens (spacy, or jsonl/prodigy with their tokens); the token formats ({tokens}) with each other, "
        "spacy, jsonl or prodigy, in token unit; mentions predictions with any of these golds"
    )


def _side_unit(reader: Format, kind: str, unit: str, side: str) -> Optional[str]:
    """The unit a side is read in when the mix is scored in `unit`, or None
    when it cannot be: a text format without tokens is read in characters
    (predictions only: they are placed on the gold tokens)."""
    if unit in reader.units:
        return unit
    if unit == "token" and side == "pred" and kind == "text" and "char" in reader.units:
        return "char"
    return None


def mix_units(gold: Format, pred: Format) -> Tuple[str, ...]:
    """The units a mix can be scored in (`open_pairs` takes char when it is
    among them); () when the two formats do not mix."""
    g, p = mix_kind(gold), mix_kind(pred)
    if g is None or p is None:
        return ()
    found = []
    for unit in tuple(pred.units) + tuple(gold.units):
        if unit in found or unit not in UNITS:
            continue
        if "tokens" in (g, p) and unit != "token":
            continue
        if "tokens" in (g, p) and p == "text" and unit not in pred.units:
            continue  # a side in characters only has nothing to place on tokens-only gold
        if _side_unit(gold, g, unit, "gold") and _side_unit(pred, p, unit, "pred"):
            found.append(unit)
    return tuple(found)


def mix_error(gold: Format, pred: Format, unit: Optional[str] = None, setting: Optional[str] = None) -> SettingError:
    """The error of two formats that do not mix (in that unit); setting:
    the format setting that chose them (None: the file extensions)."""
    if unit is not None and mix_units(gold, pred):
        return SettingError(
            f"{gold.name} gold and {pred.name} predictions are scored in {' or '.join(mix_units(gold, pred))} "
            f"unit; 'unit' {unit} does not apply",
            "unit",
        )
    return SettingError(
        f"{gold.name} gold and {pred.name} predictions cannot describe the same documents. Formats that mix: "
        f"{valid_pairs_text()}",
        setting,
    )


def side_documents(docs: Iterable[Document], kind: Optional[str], unit: str) -> Iterator[Document]:
    """A side's documents as a mix compares them: in token unit, a DocBin's
    Docs give their tokens and offsets, and a tokens-only format's documents
    are compared by their tokens (no character offsets)."""
    for doc in docs:
        if unit == "token" and kind == "doc":
            spacy_doc = doc.spacy_doc
            doc = replace(
                doc, tokens=[t.text for t in spacy_doc], offsets=[(t.idx, t.idx + len(t.text)) for t in spacy_doc]
            )
        elif kind == "tokens" and doc.offsets is not None:
            doc = replace(doc, offsets=None)
        yield doc


class MixedFormat(Format):
    """The gold format and the predicted format of a mix, as the pairing
    sees them (its documents are each side's reader's).

    gold, pred (Format): The two formats.
    """

    #: Documents with character offsets on both sides are checked on their
    #: text; their tokens may differ (the predicted spans are aligned).
    aligns_tokens = True
    #: Each side's spans are put in the unit of the mix by `place_on_gold`.
    places_on_gold = True

    def __init__(self, gold: Format, pred: Format) -> None:
        self.gold = gold
        self.pred = pred
        self.name = f"{gold.name} gold with {pred.name} predictions"
        self.sides = (gold.name, pred.name)
        self.units = mix_units(gold, pred)
        self.kinds = (mix_kind(gold), mix_kind(pred))
        self.keyed = gold.keyed and pred.keyed
        # the key's name of a side that names it ('"id"'), the predicted side's first
        named = [f.key_name for f in (pred, gold) if f.key_name != Format.key_name]
        self.key_name = named[0] if named else Format.key_name
        self.unique_keys = gold.unique_keys
        # by key only when both formats key by the same field (a Label Studio
        # task id and a JSONL "id"), else in order (brat file names and JSONL
        # ids need not name the same things; the texts are checked either way)
        self.key_field = gold.key_field if gold.key_field == pred.key_field else None
        self.pairs_by_key = self.key_field is not None
        self.counted_as = "documents"

    def place_on_gold(
        self, gold: Document, pred: Optional[Document], *, unit: str, spans_key: Optional[str] = None, **_: Any
    ) -> Placed:
        """(gold spans, predicted spans, unplaced mentions (none), notes) of
        a pair, in the unit."""
        gold_doc = gold.spacy_doc if self.kinds[0] == "doc" else None
        gold_spans = gold.spans if gold_doc is None else _doc_spans(gold_doc, spans_key, unit)
        if pred is None or gold_spans is None:
            return gold_spans, [], {}, EMPTY
        if self.kinds[1] == "doc":
            pred_doc = pred.spacy_doc
            same = unit == "char" or (
                pred.tokens == gold.tokens if gold.offsets is None else pred.offsets == gold.offsets
            )
            pred_spans = _doc_spans(pred_doc, spans_key, "token" if unit == "token" and same else "char") or []
            chars = unit == "token" and not same
        else:
            pred_spans = list(pred.spans or [])
            chars = unit == "token" and pred.tokens is None
            if _other_tokens(gold, pred, unit):
                pred_spans = _token_chars(
                    pred_spans, cast(List[Tuple[int, int]], pred.offsets)
                )  # other tokens: it has offsets
                chars = True
        notes: Notes = {}
        if chars:
            offsets = gold.offsets if gold.offsets is not None else token_offsets(gold.tokens or [])
            pred_spans, expanded = _expand(pred_spans, offsets)
            if expanded:
                examples = [
                    f"{gold.name}: {_quote(pred.text, s)} ({s.label}) as {_quote(gold.text, t, offsets)}"
                    for s, t in expanded[:NOTE_EXAMPLES]
                ]
                notes[EXPANDED] = note(len(expanded), examples)
        if gold_doc is not None and spans_key is None:
            pred_spans = _off_missing(gold_doc, pred_spans, unit)
        return gold_spans, pred_spans, {}, notes

    def place_scores(
        self,
        gold: Document,
        pred: Document,
        scores: List[Tuple[Span, Any]],
        *,
        unit: str,
        spans_key: Optional[str] = None,
        **_: Any,
    ) -> List[Tuple[Span, Any]]:
        """The (span, score) pairs of a prediction (as its reader listed them)
        on the spans `place_on_gold` scores: in token unit, characters and
        other tokens expanded to the gold tokens, each span with its score;
        on a DocBin gold, none over tokens whose annotation is missing."""
        if self.kinds[1] == "doc":
            return scores
        placed = scores
        if unit == "token" and (pred.tokens is None or _other_tokens(gold, pred, unit)):
            spans = [span for span, _ in scores]
            if pred.tokens is not None:
                spans = _token_chars(spans, cast(List[Tuple[int, int]], pred.offsets))  # other tokens: it has offsets
            offsets = gold.offsets if gold.offsets is not None else token_offsets(gold.tokens or [])
            placed = [(token, score) for (_, token, _), (_, score) in zip(_expand_each(spans, offsets), scores)]
        gold_doc = gold.spacy_doc if self.kinds[0] == "doc" else None
        if gold_doc is not None and spans_key is None:
            kept = set(_off_missing(gold_doc, [span for span, _ in placed], unit))
            placed = [(span, score) for span, score in placed if span in kept]
        return placed


def _other_tokens(gold: Document, pred: Document, unit: str) -> bool:
    """Whether a prediction with tokens of its own (token unit) has other
    tokens than the gold's, both with character offsets (then aligned)."""
    return (
        unit == "token"
        and pred.tokens is not None
        and pred.offsets is not None
        and gold.offsets is not None
        and pred.offsets != gold.offsets
    )


def _token_chars(spans: List[Span], offsets: List[Tuple[int, int]]) -> List[Span]:
    """Token spans as the characters of their tokens."""
    return [Span(offsets[s][0], offsets[e - 1][1], label) for s, e, label in spans]


def _doc_spans(doc: Any, spans_key: Optional[str], unit: str) -> Optional[List[Span]]:
    from .docbin import doc_spans

    return doc_spans(doc, spans_key, unit)


def _expand(spans: List[Span], offsets: List[Tuple[int, int]]) -> Tuple[List[Span], List[Tuple[Span, Span]]]:
    """Character spans as the spans of the tokens they touch; RETURNS those
    spans (sorted, identical ones once) and the (characters, tokens) of each
    span whose boundaries were not token boundaries. A span that touches no
    token (only whitespace) stays past the end of the tokens: it matches
    nothing, and is noted."""
    placed = _expand_each(spans, offsets)
    return sorted({token for _, token, _ in placed}), [(span, token) for span, token, moved in placed if moved]


def _expand_each(spans: List[Span], offsets: List[Tuple[int, int]]) -> List[Tuple[Span, Span, bool]]:
    """(characters, tokens, whether the boundaries moved) of each span, in
    order (`_expand`)."""
    starts = [start for start, _ in offsets]
    ends = [end for _, end in offsets]
    n = len(offsets)
    out = []
    for span in spans:
        start, end, label = span
        first, last = bisect_right(ends, start), bisect_left(starts, end)
        if first < last:
            out.append((span, Span(first, last, label), starts[first] != start or ends[last - 1] != end))
        else:
            out.append((span, Span(n, n + 1, label), True))
    return out


def _quote(text: str, span: Span, offsets: Optional[List[Tuple[int, int]]] = None) -> str:
    if offsets is None:
        return repr(text[span.start : span.end])
    if span.start >= len(offsets):
        return "no token"
    return repr(text[offsets[span.start][0] : offsets[span.end - 1][1]])


def _off_missing(doc: Any, spans: List[Span], unit: str) -> List[Span]:
    """The predicted spans that touch no gold token whose entity annotation
    is missing (spaCy's NER scorer ignores the others)."""
    from spacy.attrs import ENT_IOB

    missing = doc.to_array(ENT_IOB) == 0
    if not spans or not missing.any():
        return spans
    if unit == "char":
        starts = [t.idx for t in doc]
        ends = [t.idx + len(t.text) for t in doc]
        return [s for s in spans if not missing[bisect_right(ends, s.start) : bisect_left(starts, s.end)].any()]
    return [s for s in spans if s.start >= len(doc) or not missing[s.start : s.end].any()]
