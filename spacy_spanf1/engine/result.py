"""The result of one scheme over a corpus (`SchemeResult`), and what it
keeps of its outcomes (outcome parts).

A SchemeResult is frozen; results of the same scheme add up (`a + b`: the
documents of a, then those of b), so a corpus can be scored in parts; they
pickle, and `SchemeResult.to_dict()` / `SchemeResult.from_dict()`
round-trip the counts. The scores of a whole corpus (every scheme, and
what is needed to report them) are `results.CorpusScores`.
"""

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy

from .confusion import Confusion
from .counts import PRFCounts, SemEvalCounts
from .metrics import mean
from .outcomes import ERROR_KINDS, OutcomeBlock, SpanError, SpanOutcome, error_from_outcome, outcome_order
from ..settings import LINK_SCHEMES, RELATION_SCHEMES, SCHEMES, SEMEVAL_SCHEMES, STRING_SCHEMES

__all__ = ["Counts", "SchemeResult", "count_errors", "errors_of", "outcomes_of", "parts_by_doc"]

Counts = Union[SemEvalCounts, PRFCounts]


@dataclass(frozen=True)
class SchemeResult:
    """The score of one scheme over a corpus (or a part of one).

    totals: the pooled counts. per_label: counts of each label's spans
    alone. confusion: the scheme's confusion matrix (`Confusion`: a
    mapping (gold label, predicted label) -> n, "O" for no span, with
    `labels`, `matrix` and `to_frame()`). per_doc: when asked for, one row of
    counts per document (columns in the order of `counts`). Results of the
    same scheme add up (`a + b`: the documents of a, then those of b), so a
    corpus can be scored in parts; they pickle.

    outcome_parts: (document offset, outcomes) pairs, the outcomes as
    OutcomeBlocks or lists of SpanOutcome; kept: what they hold: None,
    "errors" or "outcomes" (every gold span and predicted unit).
    """

    scheme: str
    totals: Counts
    per_label: Dict[str, Counts] = field(default_factory=dict)
    confusion: Confusion = field(default_factory=Confusion)
    outcome_parts: Tuple[Any, ...] = field(default=(), repr=False, compare=False)
    per_doc: Optional[numpy.ndarray] = field(default=None, repr=False, compare=False)
    kept: Optional[str] = field(default=None, compare=False)
    n_docs: int = field(default=0, compare=False)

    def __post_init__(self) -> None:
        if not isinstance(self.confusion, Confusion):  # a plain dict of cells
            object.__setattr__(self, "confusion", Confusion(self.confusion))

    def _check_kept(self, need: str) -> None:
        if self.kept is None or (need == "outcomes" and self.kept != "outcomes"):
            flag = "keep_errors" if need == "errors" else "keep_outcomes"
            raise ValueError(
                f"The {need} of {self.scheme!r} were not kept: score with {flag}=True "
                f"(evaluate_spans, SpanScorer{', compare_files, evaluate_pipeline' if need == 'errors' else ''})."
            )

    @cached_property
    def outcomes(self) -> Tuple[SpanOutcome, ...]:
        """Every gold span and predicted unit with the count it adds to and
        its error kind (None for a match), by document, then position.
        Needs keep_outcomes=True."""
        self._check_kept("outcomes")
        return tuple(outcomes_of(self.outcome_parts))

    @cached_property
    def errors(self) -> Tuple[SpanError, ...]:
        """The errors of the scheme, by document, then position: one per
        INC, PAR, MIS and SPU (SemEval schemes), per FP and FN (`overlap`),
        per FP and per gold span that nothing overlaps (`iou`). Needs
        keep_errors=True."""
        self._check_kept("errors")
        return errors_of(self.outcome_parts)

    @property
    def precision(self) -> float:
        return self.totals.precision

    @property
    def recall(self) -> float:
        return self.totals.recall

    @property
    def f1(self) -> float:
        return self.totals.f1

    @property
    def macro_f1(self) -> float:
        """Mean F1 over the labels present in gold or prediction; of a
        relation scheme, over every label of `per_label` (the relation
        labels named, each with or without support)."""
        if self.scheme in RELATION_SCHEMES:
            return mean(c.f1 for c in self.per_label.values())
        return mean(c.f1 for c in self.per_label.values() if not c.is_empty)

    @property
    def counts(self) -> Dict[str, int]:
        return self.totals.to_dict()

    @property
    def per_type(self) -> Dict[str, Counts]:
        """label -> counts, with .precision, .recall and .f1."""
        return dict(sorted(self.per_label.items()))

    def __add__(self, other: "SchemeResult") -> "SchemeResult":
        if not isinstance(other, SchemeResult) or other.scheme != self.scheme:
            return NotImplemented
        per_label = dict(self.per_label)
        for label, counts in other.per_label.items():
            per_label[label] = per_label[label] + counts if label in per_label else counts
        confusion = self.confusion + other.confusion
        per_doc = None
        if self.per_doc is not None and other.per_doc is not None:
            per_doc = numpy.concatenate([self.per_doc, other.per_doc])
        kept = (
            self.kept
            if self.kept == other.kept
            else ("errors" if {self.kept, other.kept} == {"errors", "outcomes"} else None)
        )
        parts = self.outcome_parts + tuple((offset + self.n_docs, part) for offset, part in other.outcome_parts)
        return SchemeResult(
            self.scheme,
            self.totals + other.totals,
            per_label,
            confusion,
            parts if kept else (),
            per_doc,
            kept,
            self.n_docs + other.n_docs,
        )

    def summary(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): p, r, f, macro_f, counts and per_type
        (label -> {"p", "r", "f"}, as spaCy's scorers write it): the block
        of a scheme in the JSON of `compare` (whose label counts and
        confusion are beside the blocks)."""
        return {
            "p": self.precision,
            "r": self.recall,
            "f": self.f1,
            "macro_f": self.macro_f1,
            "counts": self.counts,
            "per_type": self._per_type_prf(),
        }

    def _per_type_prf(self) -> Dict[str, Dict[str, float]]:
        return {label: {"p": c.precision, "r": c.recall, "f": c.f1} for label, c in self.per_type.items()}

    def flat_keys(self, name: str, macro_f: bool = True) -> Dict[str, Any]:
        """spaCy's flat score keys of this result under `name`: `<name>_p`,
        `_r`, `_f`, `_macro_f` (when macro_f), `_per_type` (label -> {"p",
        "r", "f"}) and `_counts`. All but the counts are None when nothing
        was scored (no gold and no predicted span)."""
        if self.totals.is_empty:
            p = r = f = macro = per_type = None
        else:
            p, r, f, per_type = self.precision, self.recall, self.f1, self._per_type_prf()
            macro = self.macro_f1 if macro_f else None
        out: Dict[str, Any] = {f"{name}_p": p, f"{name}_r": r, f"{name}_f": f}
        if macro_f:
            out[f"{name}_macro_f"] = macro
        out[f"{name}_per_type"] = per_type
        out[f"{name}_counts"] = self.counts
        return out

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): the scheme, its `summary()`, the counts
        of each label ("label_counts") and the confusion matrix
        ("confusion": {"labels", "matrix"}): what `from_dict` needs to
        give this result back (not the per-document rows or outcomes)."""
        return {
            "scheme": self.scheme,
            **self.summary(),
            "label_counts": self.label_counts(),
            "confusion": self.confusion.to_dict(),
        }

    def label_counts(self) -> Dict[str, Dict[str, int]]:
        """label -> the counts of that label's spans alone, in the order
        of `per_label` (the order macro F sums the labels in, so that a
        result read back from them has the same macro F, bit for bit)."""
        return {label: c.to_dict() for label, c in self.per_label.items()}

    def confusion_rows(self) -> List[List[Any]]:
        """The confusion's cells that are not zero as [gold label or "O",
        predicted label or "O", n] rows, sorted."""
        return [[gold, pred, n] for (gold, pred), n in sorted(self.confusion.items())]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], scheme: Optional[str] = None) -> "SchemeResult":
        """The result `to_dict` wrote (no per-document rows or outcomes);
        `scheme` when data does not name it (a block of `summary()` with
        "label_counts" and "confusion" added). "confusion" may be the
        older list of [gold, predicted, n] rows."""
        scheme = data.get("scheme") if scheme is None else scheme
        label_counts = data.get("label_counts")
        confusion = data.get("confusion")
        known = SCHEMES + STRING_SCHEMES + LINK_SCHEMES + RELATION_SCHEMES
        if scheme not in known:
            raise ValueError(f"Unknown scheme {scheme!r}. Valid schemes: {', '.join(known)}")
        kind = SemEvalCounts if scheme in SEMEVAL_SCHEMES else PRFCounts
        try:
            per_label = {label: kind(**counts) for label, counts in (label_counts or {}).items()}
            cells = Confusion.from_dict(confusion)
            totals = kind(**data["counts"])
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"not a result of {scheme!r} as to_dict writes it ({type(err).__name__}: {err})") from None
        return cls(scheme, totals, per_label, cells)


# --------------------------------------------------------------------------
# Outcome parts: what a SchemeResult keeps of its outcomes
# --------------------------------------------------------------------------
# A part is (document offset, outcomes): an OutcomeBlock or a list of
# SpanOutcome whose `doc` counts from the offset.


def outcomes_of(parts: Sequence[Tuple[int, Any]]) -> List[SpanOutcome]:
    """The outcomes of the parts, documents counted from 0, by document,
    then position."""
    found: List[SpanOutcome] = []
    for offset, part in parts:
        if isinstance(part, OutcomeBlock):
            found.extend(part.outcomes(offset))
        else:
            found.extend(o._replace(doc=o.doc + offset) for o in part)
    return sorted(found, key=outcome_order)


def errors_of(parts: Sequence[Tuple[int, Any]]) -> Tuple[SpanError, ...]:
    """The errors among the parts' outcomes, documents counted from 0, by
    document, then position (`outcome_order`, as `outcomes_of`)."""
    found: List[SpanError] = []
    for offset, part in parts:
        if isinstance(part, OutcomeBlock):
            found.extend(part.errors(offset))
        else:
            found.extend(error_from_outcome(o._replace(doc=o.doc + offset)) for o in part if o.kind is not None)
    return tuple(sorted(found, key=outcome_order))


def count_errors(parts: Sequence[Tuple[int, Any]]) -> Tuple[List[int], Dict[int, int]]:
    """The errors among the parts' outcomes: how many of each kind (in the
    order of ERROR_KINDS), and how many each document has (documents
    counted from 0, in order)."""
    kinds = [0] * len(ERROR_KINDS)
    per_doc: Dict[int, int] = {}
    for offset, part in parts:
        if isinstance(part, OutcomeBlock):
            errors = part.kind >= 0
            for kind, n in enumerate(numpy.bincount(part.kind[errors], minlength=len(ERROR_KINDS)).tolist()):
                kinds[kind] += n
            docs, counts = numpy.unique(part.doc[errors] + offset, return_counts=True)
            for doc, n in zip(docs.tolist(), counts.tolist()):
                per_doc[doc] = per_doc.get(doc, 0) + n
        else:
            for outcome in part:
                if outcome.kind is not None:
                    kinds[ERROR_KINDS.index(outcome.kind)] += 1
                    doc = outcome.doc + offset
                    per_doc[doc] = per_doc.get(doc, 0) + 1
    return kinds, dict(sorted(per_doc.items()))


def parts_by_doc(parts: Sequence[Tuple[int, Any]], docs: Iterable[int]) -> Dict[int, List[Tuple[int, Any]]]:
    """The parts cut down to each of these documents (counted from 0): doc
    -> the parts holding only its outcomes."""
    wanted = sorted(set(docs))
    found: Dict[int, List[Tuple[int, Any]]] = {doc: [] for doc in wanted}
    if not wanted:
        return found
    for offset, part in parts:
        if isinstance(part, OutcomeBlock):
            at = part.doc + offset
            mine = part.select(numpy.isin(at, wanted))
            at = mine.doc + offset
            for doc in numpy.unique(at).tolist():
                found[doc].append((offset, mine.select(at == doc)))
        else:
            for doc in {o.doc + offset for o in part}.intersection(found):
                found[doc].append((offset, [o for o in part if o.doc + offset == doc]))
    return found
