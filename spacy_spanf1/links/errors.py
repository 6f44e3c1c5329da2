"""The errors of a link scheme, one record each, naming the gold and the
predicted kb ids: `link_errors` under `strong_all_match` (a span's
offsets and id) or `strong_typed_all_match` (offsets, type and id).

At one place (offsets, and type under the typed measure) a gold and a
predicted span whose ids differ are one `wrong_id` record (an FP and an FN
of the measure); a gold span with no prediction of its id left at its
place is `missed` (an FN), a prediction with no gold span of its id left
is `spurious` (an FP). NIL ids are one id, `NIL`, as the measures read
them. So the records count the measure's FPs and FNs: FP = spurious +
wrong_id, FN = missed + wrong_id.
"""

from collections import defaultdict
from typing import Any, Dict, Iterable, List, Tuple

from ..exceptions import SettingError
from ..settings import UNITS, check_unit
from .spans import read_link_docs

__all__ = ["ERROR_SCHEMES", "link_errors"]

#: The link schemes `link_errors` gives the records of.
ERROR_SCHEMES: Tuple[str, ...] = ("strong_all_match", "strong_typed_all_match")


def link_errors(
    gold_docs: Iterable[Iterable[Any]],
    pred_docs: Iterable[Iterable[Any]],
    *,
    scheme: str = ERROR_SCHEMES[0],
    unit: str = UNITS[0],
) -> List[Dict[str, Any]]:
    """The error records of a link scheme over documents of linked spans
    (as `evaluate_links` takes them), in document order, then by place.

    RETURNS (List[Dict[str, Any]]): {"doc", "kind" (wrong_id, missed,
        spurious), "start", "end", "label", "gold_kb_id", "pred_kb_id"}
        (None on the side without a span); under strong_all_match a
        wrong_id record gives the gold span's label, and "pred_label".
    """
    if scheme not in ERROR_SCHEMES:
        raise SettingError(f"link_errors gives the records of {', '.join(ERROR_SCHEMES)}, not {scheme!r}", "scheme")
    check_unit(unit)
    gold_docs, pred_docs = list(gold_docs), list(pred_docs)
    if len(gold_docs) != len(pred_docs):
        raise ValueError(f"Unequal numbers of documents: {len(gold_docs)} gold and {len(pred_docs)} predicted.")
    table = read_link_docs(gold_docs, pred_docs, unit)
    typed = scheme == "strong_typed_all_match"
    ids = ["NIL" if nil else kb for kb, nil in zip(table.kb_ids, table.nil.tolist())]
    places: Dict[Tuple[int, ...], Tuple[List[Tuple[str, str]], List[Tuple[str, str]]]] = defaultdict(lambda: ([], []))
    for n, side in enumerate((table.gold, table.pred)):
        for doc, start, end, label, kb in zip(*(column.tolist() for column in side)):
            place: Tuple[int, ...] = (doc, start, end, label) if typed else (doc, start, end)
            listed = places[place][n]
            if all(ids[kb] != seen for _, seen in listed):  # a key of the measure counts once
                listed.append((table.labels[label], ids[kb]))
    records = []
    for place in sorted(places):
        gold, pred = places[place]
        gold_ids = {kb for _, kb in gold}
        pred_ids = {kb for _, kb in pred}
        left_gold = [(label, kb) for label, kb in gold if kb not in pred_ids]
        left_pred = [(label, kb) for label, kb in pred if kb not in gold_ids]
        doc, start, end = place[:3]
        for (g_label, g_kb), (p_label, p_kb) in zip(left_gold, left_pred):
            records.append(_record(doc, start, end, "wrong_id", g_label, g_kb, p_kb, p_label))
        for g_label, g_kb in left_gold[len(left_pred) :]:
            records.append(_record(doc, start, end, "missed", g_label, g_kb, None, None))
        for p_label, p_kb in left_pred[len(left_gold) :]:
            records.append(_record(doc, start, end, "spurious", p_label, None, p_kb, p_label))
    return records


def _record(doc, start, end, kind, label, gold_kb, pred_kb, pred_label) -> Dict[str, Any]:
    return {
        "doc": doc,
        "kind": kind,
        "start": start,
        "end": end,
        "label": label,
        "pred_label": pred_label,
        "gold_kb_id": gold_kb,
        "pred_kb_id": pred_kb,
    }
