"""The link error records of the --errors file: the errors of a link
scheme (`links.link_errors`: strong_all_match or strong_typed_all_match)
over a batch of documents, one record each, laid out as the span records
are: {"doc", "name", "scheme", "kind" (wrong_id, missed, spurious),
"gold": a span (`SPAN_KEYS` and "kb_id") or None, "pred": a list of at
most one span}. NIL ids are written "NIL", as the measures read them.
"""

from typing import Any, Dict, List, Mapping, Optional, Sequence

import srsly

from ..formats import DocPair
from ..links.errors import ERROR_SCHEMES, link_errors
from ..spans import Span
from .records import KB_KEY

__all__ = ["link_error_lines", "link_error_records", "link_error_scheme"]


def link_error_scheme(schemes: Sequence[str]) -> Optional[str]:
    """The link scheme whose errors the --errors file writes: the first of
    `links.ERROR_SCHEMES` among the schemes named; None when none is."""
    return next((name for name in schemes if name in ERROR_SCHEMES), None)


def _linked(pair: DocPair, side: str) -> List[Any]:
    links = pair.gold_links if side == "gold" else pair.pred_links
    if links is None:
        return [(*span, "") for span in (pair.gold if side == "gold" else pair.pred)]
    return [(*span, kb) for span, kb in links]


def _span(pair: DocPair, start: int, end: int, label: str, kb: str) -> Dict[str, Any]:
    unplaced = pair.pred_unplaced
    if unplaced and start in unplaced:
        return {"start": None, "end": None, "label": label, "text": unplaced[start][0], KB_KEY: kb}
    return {"start": start, "end": end, "label": label, "text": pair.span_text(Span(start, end, label)), KB_KEY: kb}


def link_error_records(pairs: Mapping[int, DocPair], scheme: str) -> List[Dict[str, Any]]:
    """The link error records of the documents (in their order), of the
    link scheme (one of `links.ERROR_SCHEMES`)."""
    docs = [pairs[n] for n in sorted(pairs)]
    if not docs:
        return []
    gold = [_linked(pair, "gold") for pair in docs]
    pred = [_linked(pair, "pred") for pair in docs]
    records = []
    for error in link_errors(gold, pred, scheme=scheme):
        pair = docs[error["doc"]]
        start, end = error["start"], error["end"]
        has_gold = error["gold_kb_id"] is not None
        has_pred = error["pred_kb_id"] is not None
        records.append(
            {
                "doc": pair.index,
                "name": pair.name,
                "scheme": scheme,
                "kind": error["kind"],
                "gold": _span(pair, start, end, error["label"], error["gold_kb_id"]) if has_gold else None,
                "pred": [_span(pair, start, end, error["pred_label"], error["pred_kb_id"])] if has_pred else [],
            }
        )
    return records


def link_error_lines(pairs: Mapping[int, DocPair], scheme: str) -> List[str]:
    """The JSON lines of `link_error_records` (without their newlines)."""
    return [srsly.json_dumps(record) for record in link_error_records(pairs, scheme)]
