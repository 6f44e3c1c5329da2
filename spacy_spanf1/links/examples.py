"""The linked spans of spaCy docs: each span of `Doc.ents` (or of the span
group `spans_key`) with its `kb_id_`, read as `integrations.spacy` reads
the spans (predictions mapped onto the reference tokens; under `Doc.ents`
a prediction over a reference token with missing annotation is ignored).
"""

from typing import Any, Dict, List, Optional, Sequence, Tuple

from ..settings import UNITS
from ..spans import Span

__all__ = ["LinkPair", "doc_has_kb_ids", "example_links", "link_keys", "link_results", "placed_links"]

#: (gold, predicted) (span, kb id) pairs of an example.
LinkPair = Tuple[List[Tuple[Span, str]], List[Tuple[Span, str]]]


def doc_has_kb_ids(doc: Any, spans_key: Optional[str] = None) -> bool:
    """Whether some span of the doc (its entities, or its span group
    `spans_key`) has a knowledge-base id."""
    if spans_key is None:
        from spacy.attrs import ENT_KB_ID

        return len(doc) > 0 and bool(doc.to_array([ENT_KB_ID]).any())
    return spans_key in doc.spans and any(span.kb_id for span in doc.spans[spans_key])


def example_links(example: Any, spans_key: Optional[str] = None, unit: str = UNITS[0]) -> Optional[LinkPair]:
    """(gold, predicted) linked spans of a spaCy Example, each sorted, in
    the unit; None when the reference doc is skipped (no entity annotation,
    or no span group `spans_key`), as `integrations.spacy.example_spans`."""
    x, y = example.predicted, example.reference
    if spans_key is None:
        if len(y) and not any(token.ent_iob for token in y):
            return None
        gold_spans, pred_spans = list(y.ents), list(x.ents)
        missing = [token.ent_iob == 0 for token in y]
    else:
        if spans_key not in y.spans:
            return None
        gold_spans = list(y.spans[spans_key])
        pred_spans = list(x.spans[spans_key]) if spans_key in x.spans else []
        missing = [False] * len(y)
    gold = [(_span(span, unit), span.kb_id_) for span in gold_spans]
    if unit == "char":
        pred = [(_span(span, unit), span.kb_id_) for span in pred_spans]
        if any(missing):
            pred = [
                (span, kb)
                for span, kb in pred
                if not any(
                    m for token, m in zip(y, missing) if token.idx < span.end and token.idx + len(token) > span.start
                )
            ]
    else:
        same = len(x) == len(y) and all(a.idx == b.idx and a.text == b.text for a, b in zip(x, y))
        pred = []
        for span in pred_spans:
            if same:
                start, end = span.start, span.end
            else:
                indices = example.alignment.x2y[span.start : span.end]
                if not len(indices):
                    continue
                start, end = int(indices[0]), int(indices[-1]) + 1
            if not any(missing[start:end]):
                pred.append((Span(start, end, span.label_), span.kb_id_))
    return sorted(set(gold)), sorted(set(pred))


def _span(span: Any, unit: str) -> Span:
    if unit == "char":
        return Span(span.start_char, span.end_char, span.label_)
    return Span(span.start, span.end, span.label_)


def link_results(
    examples: Sequence[Any], schemes: Sequence[str], spans_key: Optional[str], unit: str, per_doc: bool = False
) -> Dict[str, Any]:
    """scheme -> SchemeResult of the link schemes over spaCy Examples: `nel`
    as `Scorer.score_links` reads them (the entities by character offsets,
    no document skipped), the others from `example_links` (skipped as the
    span scorer skips)."""
    from .evaluate import evaluate_links

    results: Dict[str, Any] = {}
    if "nel" in schemes:
        gold = [list(eg.reference.ents) for eg in examples]
        pred = [list(eg.predicted.ents) for eg in examples]
        results.update(evaluate_links(gold, pred, schemes=["nel"], unit="char", per_doc=per_doc))
    others = [name for name in schemes if name != "nel"]
    if others:
        pairs = [found for found in (example_links(eg, spans_key, unit) for eg in examples) if found is not None]
        gold_docs = [[(*span, kb) for span, kb in found[0]] for found in pairs]
        pred_docs = [[(*span, kb) for span, kb in found[1]] for found in pairs]
        results.update(evaluate_links(gold_docs, pred_docs, schemes=others, unit=unit, per_doc=per_doc))
    return {name: results[name] for name in schemes}


def link_keys(results: Dict[str, Any]) -> Dict[str, Any]:
    """spaCy's flat keys of the link schemes: `nel_<scheme>_p/_r/_f`,
    `_per_type` and `_counts` of each, and under `nel` spaCy's own keys
    (`nel_micro_p`, ..., `nel_f_per_type`). P/R/F are None when nothing
    was scored."""
    from .nel import nel_scores

    out: Dict[str, Any] = {}
    for scheme, result in results.items():
        if scheme == "nel":
            out.update(nel_scores(result))
        out.update(result.flat_keys(f"nel_{scheme}", macro_f=False))
    return out


def placed_links(
    format: Any, gold: Any, pred: Any, options: Dict[str, Any]
) -> Tuple[Optional[List[Tuple[Span, str]]], Optional[List[Tuple[Span, str]]]]:
    """(gold, predicted) linked spans of a pair whose predicted spans a
    format places on the gold text (two formats mixed), placed as its
    spans are: a gold DocBin's entities (or span group) with their
    `kb_id_`; the predictions' (span, kb id) pairs by `place_scores`. A
    side without kb ids gives None (a predicted DocBin's ids are not
    placed: NIL)."""
    from spacy.training import Example

    unit, spans_key = options.get("unit") or UNITS[0], options.get("spans_key")
    gold_links = gold.links
    if gold_links is None and gold.spacy_doc is not None and doc_has_kb_ids(gold.spacy_doc, spans_key):
        found = example_links(Example(gold.spacy_doc, gold.spacy_doc), spans_key, unit)
        gold_links = None if found is None else found[0]
    pred_links = None
    if pred is not None and pred.links is not None:
        pred_links = format.place_scores(gold, pred, pred.links, **options)
    return gold_links, pred_links
