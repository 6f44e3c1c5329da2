"""`AgreementResult`: every agreement figure of a set of annotators, as a
frozen value that writes itself as JSON (with its signature) and reads
itself back (`from_dict`)."""

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Dict, Mapping, Optional, Tuple

from ..engine.metrics import mean
from ..results import SchemeResult
from ..signature import Signature
from .consensus import Consensus
from .intervals import AgreementIntervals
from .tokens import TokenAgreement

Pair = Tuple[str, str]


@dataclass(frozen=True)
class AgreementResult:
    """The agreement of N annotators.

    annotators (Tuple[str, ...]): In the order given.
    n_docs (int): Documents in the corpus (done by anyone or no one).
    pairwise (Mapping[str, Mapping[Pair, SchemeResult]]): scheme -> (a, b)
        -> b scored against a as if a were gold, over the documents both
        did; every ordered pair.
    shared (Mapping[Pair, int]): (a, b) -> the documents a and b both did.
    tokens (Optional[TokenAgreement]): Kappas and alpha; None when they
        cannot be computed (no document lengths with o_tokens "include").
    intervals (Optional[AgreementIntervals]): When bootstrap was asked for.
    signature (Mapping[str, Any]): What shaped the numbers (a `Signature`).
    notes (Mapping[str, int]): What reading files met (cancelled annotations).
    files (Any): The `AnnotatorFiles` read, when the input was files (their
        texts and keys, for writing the consensus).
    warnings (Tuple[str, ...]): What looks off but is not wrong: a label
        one annotator alone uses (`measure.annotator_label_warnings`).
    consensus (Optional[Consensus]): When it was asked for (`agree_files`
        with consensus=True): its spans and each annotator against it.
    """

    annotators: Tuple[str, ...]
    n_docs: int
    pairwise: Mapping[str, Mapping[Pair, SchemeResult]]
    shared: Mapping[Pair, int]
    tokens: Optional[TokenAgreement] = None
    intervals: Optional[AgreementIntervals] = None
    signature: Mapping[str, Any] = field(default_factory=dict)
    notes: Mapping[str, int] = field(default_factory=dict)
    files: Any = field(default=None, repr=False, compare=False)
    warnings: Tuple[str, ...] = field(default=(), repr=False, compare=False)
    consensus: Optional[Consensus] = field(default=None, repr=False, compare=False)

    def replace(self, **changes: Any) -> "AgreementResult":
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    @property
    def schemes(self) -> Tuple[str, ...]:
        return tuple(self.pairwise)

    @cached_property
    def mean_f(self) -> Dict[str, float]:
        """scheme -> the mean of F over the ordered pairs."""
        return {scheme: mean(r.f1 for r in pairs.values()) for scheme, pairs in self.pairwise.items()}

    @cached_property
    def micro(self) -> Dict[str, SchemeResult]:
        """scheme -> the counts of every ordered pair summed (per label too)."""
        return {scheme: _summed(pairs.values()) for scheme, pairs in self.pairwise.items()}

    @property
    def micro_f(self) -> Dict[str, float]:
        """scheme -> F of the counts summed over the ordered pairs."""
        return {scheme: result.f1 for scheme, result in self.micro.items()}

    @cached_property
    def mean_label_f(self) -> Dict[str, Dict[str, float]]:
        """scheme -> label -> the mean of the label's F over the ordered
        pairs in which either annotator used it."""
        out: Dict[str, Dict[str, float]] = {}
        for scheme, pairs in self.pairwise.items():
            by_label: Dict[str, list] = {}
            for result in pairs.values():
                for label, counts in result.per_label.items():
                    if not counts.is_empty:
                        by_label.setdefault(label, []).append(counts.f1)
            out[scheme] = {label: mean(values) for label, values in sorted(by_label.items())}
        return out

    @cached_property
    def versus_others(self) -> Dict[str, Dict[str, SchemeResult]]:
        """scheme -> annotator -> that annotator scored against each of the
        others as gold, the counts pooled."""
        return {
            scheme: {
                name: _summed(result for (ref, scored), result in pairs.items() if scored == name)
                for name in self.annotators
            }
            for scheme, pairs in self.pairwise.items()
        }

    @property
    def cohen_kappa(self) -> Optional[float]:
        return None if self.tokens is None else self.tokens.cohen_kappa

    @property
    def fleiss_kappa(self) -> Optional[float]:
        return None if self.tokens is None else self.tokens.fleiss_kappa

    @property
    def alpha(self) -> Optional[float]:
        return None if self.tokens is None else self.tokens.alpha

    def matrix(self, scheme: str) -> Dict[str, Dict[str, Optional[float]]]:
        """a -> b -> F(a, b) of one scheme (None on the diagonal)."""
        pairs = self.pairwise[scheme]
        return {a: {b: None if a == b else pairs[(a, b)].f1 for b in self.annotators} for a in self.annotators}

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): the JSON the command line writes
        (--output): annotators, n_docs, shared (a -> b -> documents), per
        scheme the F matrix, mean and micro F, every pair's result (with
        its label counts: `SchemeResult.to_dict`), the micro result and
        each annotator against the others; tokens, intervals, notes,
        "warnings" (when there are any), signature, and "consensus" (each
        annotator against it, when it was asked for)."""
        schemes = {}
        for scheme, pairs in self.pairwise.items():
            schemes[scheme] = {
                "matrix": self.matrix(scheme),
                "mean_f": self.mean_f[scheme],
                "micro_f": self.micro_f[scheme],
                "mean_label_f": self.mean_label_f[scheme],
                "micro": self.micro[scheme].summary(),
                "versus_others": {name: r.summary() for name, r in self.versus_others[scheme].items()},
                "pairs": [{"reference": a, "scored": b, **r.to_dict()} for (a, b), r in pairs.items()],
            }
        data: Dict[str, Any] = {
            "annotators": list(self.annotators),
            "n_docs": self.n_docs,
            "shared": {a: {b: n for (x, b), n in self.shared.items() if x == a} for a in self.annotators},
            "schemes": schemes,
            "tokens": None if self.tokens is None else self.tokens.to_dict(),
            "intervals": None if self.intervals is None else self.intervals.to_dict(),
            "notes": dict(self.notes),
        }
        if self.warnings:
            data["warnings"] = list(self.warnings)
        data["signature"] = dict(self.signature)
        if self.consensus is not None:
            data["consensus"] = self.consensus.to_dict()
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "AgreementResult":
        """The result `to_dict` wrote (e.g. read back from --output): equal
        to the result written (not the files read: `files` is None)."""
        try:
            pairwise = {
                scheme: {
                    (row["reference"], row["scored"]): SchemeResult.from_dict(row, scheme) for row in block["pairs"]
                }
                for scheme, block in data["schemes"].items()
            }
            shared = {(a, b): int(n) for a, row in data["shared"].items() for b, n in row.items()}
            signed = data.get("signature") or {}
            return cls(
                tuple(data["annotators"]),
                int(data["n_docs"]),
                pairwise,
                shared,
                None if data["tokens"] is None else TokenAgreement.from_dict(data["tokens"]),
                None if data["intervals"] is None else AgreementIntervals.from_dict(data["intervals"]),
                Signature.from_dict(signed) if signed else {},
                dict(data.get("notes", {})),
                warnings=tuple(data.get("warnings", ())),
                consensus=None if data.get("consensus") is None else Consensus.from_dict(data["consensus"]),
            )
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"not the JSON of AgreementResult.to_dict ({type(err).__name__}: {err})") from None


def _summed(results) -> SchemeResult:
    found = [SchemeResult(r.scheme, r.totals, r.per_label, r.confusion, n_docs=r.n_docs) for r in results]
    total = found[0]
    for result in found[1:]:
        total = total + result
    return total
