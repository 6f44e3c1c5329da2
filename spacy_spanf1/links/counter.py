"""The link schemes in the corpus stream: `LinkCounter` takes each scored
pair's linked spans (`DocPair.gold_links` / `pred_links`; a side without
them gives its spans as NIL) and scores them a batch at a time, beside the
span scorer, as the string schemes are counted."""

from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from ..engine.result import SchemeResult
from ..notes import note
from ..settings import NOTE_EXAMPLES
from .evaluate import LinkScorer

__all__ = ["KB_IDS", "NO_KB_IDS", "LinkCounter", "UnscoredIds", "no_kb_id_warnings"]

#: The note of documents that carry no knowledge-base id.
NO_KB_IDS = "no_kb_ids"
#: What a run without link schemes read and did not score: spans' kb ids.
KB_IDS = "kb_ids"


class LinkCounter:
    """The link schemes of a stream of DocPairs."""

    def __init__(self, schemes: Sequence[str], unit: str, per_doc: bool, batch_size: int) -> None:
        self.scorer = LinkScorer(schemes, unit=unit, per_doc=per_doc)
        self.batch_size = batch_size
        self.gold: List[List[Tuple[Any, ...]]] = []
        self.pred: List[List[Tuple[Any, ...]]] = []
        # documents without a kb id, by side: (count, first names)
        self.unlinked: Dict[str, Tuple[int, List[str]]] = {"gold": (0, []), "pred": (0, [])}

    def add(self, pair: Any) -> None:
        for side, spans, links, into in (
            ("gold", pair.gold, pair.gold_links, self.gold),
            ("pred", pair.pred, pair.pred_links, self.pred),
        ):
            if links is None or not any(kb for _, kb in links):
                n, names = self.unlinked[side]
                if len(names) < NOTE_EXAMPLES:
                    names.append(pair.name)
                self.unlinked[side] = (n + 1, names)
            if links is None:
                into.append([(*span, "") for span in spans])
            else:
                into.append([(*span, kb) for span, kb in links])
        if len(self.gold) >= self.batch_size:
            self.flush()

    def flush(self) -> None:
        if self.gold:
            self.scorer.add(self.gold, self.pred)
            self.gold, self.pred = [], []

    def results(self) -> Dict[str, SchemeResult]:
        self.flush()
        return self.scorer.results()

    def notes(self) -> Dict[str, Dict[str, Any]]:
        """side -> {NO_KB_IDS: note}, for the sides with such documents."""
        return {side: {NO_KB_IDS: note(n, names)} for side, (n, names) in self.unlinked.items() if n}


def no_kb_id_warnings(notes: Mapping[str, Any], documents: int) -> List[str]:
    """A warning for each side none of whose `documents` carries a kb id."""
    found = []
    for side, name in (("gold", "gold"), ("pred", "prediction")):
        unlinked: Optional[Dict[str, Any]] = (notes.get(side) or {}).get(NO_KB_IDS)
        if documents and unlinked is not None and unlinked["count"] >= documents:
            found.append(
                f"the {name} carries no knowledge-base id (kb_id): under the link schemes every span of it is NIL"
            )
    return found


class UnscoredIds:
    """The kb ids of a stream scored without link schemes, by side: read,
    not scored (`PairStats.not_scored`), so that none is dropped silently."""

    def __init__(self) -> None:
        self.counts = {"gold": 0, "pred": 0}

    def add(self, pair: Any) -> None:
        for side, links in (("gold", pair.gold_links), ("pred", pair.pred_links)):
            if links is not None:
                self.counts[side] += sum(1 for _, kb in links if kb)

    def count_into(self, stats: Any) -> None:
        for side, n in self.counts.items():
            if n:
                totals = stats.not_scored.setdefault(side, {})
                totals[KB_IDS] = totals.get(KB_IDS, 0) + n
