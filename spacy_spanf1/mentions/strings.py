"""The string schemes, which compare (string, label) pairs and need no
grounding (what `score.evaluate_mentions` and `corpus.score_pairs` run):

- `strings`: per document, the multiset of (mention string, label) pairs
  against the multiset of (gold span text, label); TP is the size of the
  multiset intersection, summed over documents (unitxt's `NER` metric);
- `strings_normalized`: the same with sets, after the SQuAD answer
  normalization (`normalize.squad_normalize`): UniversalNER's evaluation.

It stands on the engine's counts and results alone, so that the corpus
stream can run it beside the span scorer.
"""

from collections import Counter
from typing import Dict, Iterable, List, Optional, Sequence, Tuple

from ..engine.counts import PRFCounts
from ..engine.result import Counts, SchemeResult
from ..settings import STRING_SCHEMES
from .normalize import squad_normalize
from .parse import Mention


def string_counts(gold: Sequence[Mention], pred: Sequence[Mention], normalized: bool) -> Dict[str, PRFCounts]:
    """label -> counts of one document under `strings` (multisets) or
    `strings_normalized` (sets of normalized strings)."""
    if normalized:
        gold_bag = Counter(set((squad_normalize(s), label) for s, label in gold))
        pred_bag = Counter(set((squad_normalize(s), label) for s, label in pred))
    else:
        gold_bag, pred_bag = Counter(gold), Counter(pred)
    common = gold_bag & pred_bag
    counts: Dict[str, List[int]] = {}
    for bag, column in ((common, 0), (pred_bag, 1), (gold_bag, 2)):
        for (_, label), n in bag.items():
            counts.setdefault(label, [0, 0, 0])[column] += n
    return {label: PRFCounts(tp, predicted - tp, possible - tp) for label, (tp, predicted, possible) in counts.items()}


def string_results(
    gold_docs: Iterable[Sequence[Mention]], pred_docs: Iterable[Sequence[Mention]], schemes: Sequence[str]
) -> Dict[str, SchemeResult]:
    """The string schemes among `schemes` over documents of (string, label) pairs."""
    wanted = [name for name in schemes if name in STRING_SCHEMES]
    per_label: Dict[str, Dict[str, PRFCounts]] = {name: {} for name in wanted}
    n_docs = 0
    for gold, pred in zip(gold_docs, pred_docs):
        n_docs += 1
        for name in wanted:
            for label, counts in string_counts(gold, pred, name == "strings_normalized").items():
                found = per_label[name]
                found[label] = found[label] + counts if label in found else counts
    return {
        name: SchemeResult(
            name, sum(per_label[name].values(), PRFCounts()), dict(sorted(per_label[name].items())), n_docs=n_docs
        )
        for name in wanted
    }


class StringCounter:
    """The string schemes over a stream of documents, one at a time (what
    `corpus.score_pairs` runs beside the span scorer).

    schemes (Sequence[str]): Of STRING_SCHEMES.
    labels (Optional[Sequence[str]]): Count only these labels; None: all.
    per_doc (bool): Keep one row (tp, fp, fn) per document and scheme.
    """

    def __init__(self, schemes: Sequence[str], labels: Optional[Sequence[str]] = None, per_doc: bool = False) -> None:
        self.schemes = tuple(schemes)
        self.labels = None if labels is None else frozenset(labels)
        self.per_doc = per_doc
        self.per_label: Dict[str, Dict[str, PRFCounts]] = {name: {} for name in self.schemes}
        self.rows: Dict[str, List[Tuple[int, int, int]]] = {name: [] for name in self.schemes}
        self.n_docs = 0

    def add(self, gold: Sequence[Mention], pred: Sequence[Mention]) -> None:
        if self.labels is not None:
            gold = [m for m in gold if m[1] in self.labels]
            pred = [m for m in pred if m[1] in self.labels]
        self.n_docs += 1
        for name in self.schemes:
            found = self.per_label[name]
            doc = string_counts(gold, pred, name == "strings_normalized")
            for label, counts in doc.items():
                found[label] = found[label] + counts if label in found else counts
            if self.per_doc:
                total = sum(doc.values(), PRFCounts())
                self.rows[name].append((total.tp, total.fp, total.fn))

    def results(self) -> Dict[str, SchemeResult]:
        import numpy

        out = {}
        for name in self.schemes:
            per_label: Dict[str, Counts] = dict(sorted(self.per_label[name].items()))
            rows = numpy.array(self.rows[name], dtype=numpy.int64).reshape(-1, 3) if self.per_doc else None
            out[name] = SchemeResult(
                name, sum(per_label.values(), PRFCounts()), per_label, per_doc=rows, n_docs=self.n_docs
            )
        return out


__all__ = ["StringCounter", "string_counts", "string_results"]
