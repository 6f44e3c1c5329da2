"""Results as values: `SchemeResult` (one scheme over a corpus) and
`CorpusScores` (every scheme, and what is needed to report them).

Both are frozen. Results of the same settings add up (`a + b`: the
documents of a, then those of b), so a corpus can be scored in parts (the
shards of a Dask run are merged this way); both pickle, and
`CorpusScores.to_dict()` / `CorpusScores.from_dict()` round-trip the scores.
Every JSON a result writes carries its `signature`: the package version,
spaCy's version and every setting that shapes the numbers.
"""
import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy

from ..engine.counts import PRFCounts, SemEvalCounts
from ..engine.metrics import mean
from ..engine.outcomes import ERROR_KINDS, OutcomeBlock, SpanError, SpanOutcome, error_from_outcome, outcome_order
from ..notes import grounding_report, merge_inside_words, merge_notes
from ..settings import NOTE_EXAMPLES, SCHEMES, SEMEVAL_SCHEMES, STRING_SCHEMES, SKIPPED_NAMES, UNITS
from ..signature import Signature, make_signature, signature_text, spacy_version  # noqa: F401 (report pages import signature_text from here)

__all__ = ["CorpusScores", "ErrorCounts", "SchemeResult", "Signature", "make_signature"]

Counts = Union[SemEvalCounts, PRFCounts]


@dataclass(frozen=True)
class SchemeResult:
    """The score of one scheme over a corpus (or a part of one).

    totals: the pooled counts. per_label: counts of each label's spans
    alone. confusion: only for `iou`. per_doc: when asked for, one row of
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
    confusion: Dict[Tuple[str, str], int] = field(default_factory=dict)
    outcome_parts: Tuple[Any, ...] = field(default=(), repr=False, compare=False)
    per_doc: Optional[numpy.ndarray] = field(default=None, repr=False, compare=False)
    kept: Optional[str] = field(default=None, compare=False)
    n_docs: int = field(default=0, compare=False)

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
        """Mean F1 over the labels present in gold or prediction."""
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
        confusion = dict(self.confusion)
        for key, n in other.confusion.items():
            confusion[key] = confusion.get(key, 0) + n
        per_doc = None
        if self.per_doc is not None and other.per_doc is not None:
            per_doc = numpy.concatenate([self.per_doc, other.per_doc])
        kept = self.kept if self.kept == other.kept else (
            "errors" if {self.kept, other.kept} == {"errors", "outcomes"} else None
        )
        parts = self.outcome_parts + tuple(
            (offset + self.n_docs, part) for offset, part in other.outcome_parts
        )
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
            "per_type": {
                label: {"p": c.precision, "r": c.recall, "f": c.f1}
                for label, c in self.per_type.items()
            },
        }

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): the scheme, its `summary()`, the counts
        of each label ("label_counts") and, for `iou`, the confusion rows
        ("confusion"): what `from_dict` needs to give this result back
        (not the per-document rows or outcomes)."""
        data = {"scheme": self.scheme, **self.summary(), "label_counts": self.label_counts()}
        if self.scheme == "iou":
            data["confusion"] = self.confusion_rows()
        return data

    def label_counts(self) -> Dict[str, Dict[str, int]]:
        """label -> the counts of that label's spans alone, in the order
        of `per_label` (the order macro F sums the labels in, so that a
        result read back from them has the same macro F, bit for bit)."""
        return {label: c.to_dict() for label, c in self.per_label.items()}

    def confusion_rows(self) -> List[List[Any]]:
        """`iou`'s confusion as [gold label or "O", predicted label or "O", n] rows."""
        return [[gold, pred, n] for (gold, pred), n in sorted(self.confusion.items())]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], scheme: Optional[str] = None) -> "SchemeResult":
        """The result `to_dict` wrote (no per-document rows or outcomes);
        `scheme` when data does not name it (a block of `summary()` with
        "label_counts" and "confusion" added)."""
        scheme = data.get("scheme") if scheme is None else scheme
        label_counts = data.get("label_counts")
        confusion = data.get("confusion", ())
        if scheme not in SCHEMES and scheme not in STRING_SCHEMES:
            raise ValueError(f"Unknown scheme {scheme!r}. Valid schemes: {', '.join(SCHEMES + STRING_SCHEMES)}")
        kind = SemEvalCounts if scheme in SEMEVAL_SCHEMES else PRFCounts
        try:
            per_label = {label: kind(**counts) for label, counts in (label_counts or {}).items()}
            rows = {(gold, pred): int(n) for gold, pred, n in confusion}
            totals = kind(**data["counts"])
        except (KeyError, TypeError, ValueError) as err:
            raise ValueError(f"not a result of {scheme!r} as to_dict writes it ({type(err).__name__}: {err})") from None
        return cls(scheme, totals, per_label, rows)


def _plain_notes(notes: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> Dict[str, Dict[str, Dict[str, Any]]]:
    """Notes as plain dicts and lists (JSON), by side and kind."""
    return {
        side: {kind: {"count": int(n["count"]), "examples": list(n["examples"])} for kind, n in found.items()}
        for side, found in notes.items()
    }
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


@dataclass(frozen=True)
class ErrorCounts:
    """The primary scheme's errors over a whole corpus, counted as it is
    scored: what a report summarizes when it keeps only some documents.

    kinds (Tuple[int, ...]): Errors of each kind, in the order of ERROR_KINDS.
    documents (int): Documents with at least one error.
    """

    kinds: Tuple[int, ...] = (0,) * len(ERROR_KINDS)
    documents: int = 0

    @property
    def total(self) -> int:
        return sum(self.kinds)

    def by_kind(self) -> Dict[str, int]:
        """kind -> errors, every kind of ERROR_KINDS."""
        return dict(zip(ERROR_KINDS, self.kinds))

    def __add__(self, other: "ErrorCounts") -> "ErrorCounts":
        if not isinstance(other, ErrorCounts):
            return NotImplemented
        return ErrorCounts(tuple(a + b for a, b in zip(self.kinds, other.kinds)), self.documents + other.documents)


@dataclass(frozen=True)
class RecordedAnalysis:
    """The analysis blocks of a result read back from JSON (`from_dict`):
    written again as they were read."""

    cis: Mapping[str, Any] = field(default_factory=dict)
    blocks: Mapping[str, Any] = field(default_factory=dict)

    def add_to(self, data: Dict[str, Any], scores: "CorpusScores") -> None:
        for scheme, block in self.cis.items():
            data["schemes"][scheme]["ci"] = block
        data.update(self.blocks)


#: The JSON keys of analysis blocks at the top level.
ANALYSIS_BLOCKS = ("comparison", "breakdown")


class AnalysisPart:
    """A part of the attached analysis, read through (empty when there is
    no analysis): `scores.intervals` is `scores.analysis.intervals`."""

    def __init__(self, doc: str) -> None:
        self.__doc__ = doc

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, scores: Any, owner: Optional[type] = None) -> Any:
        if scores is None:
            return self
        return getattr(scores.analysis, self.name, None) or {}


@dataclass(frozen=True)
class CorpusScores:
    """The scores of a corpus and what is needed to report them.

    results (Dict[str, SchemeResult]): scheme -> result, primary first.
    documents (int): Gold documents read, skipped ones included.
    skipped (int): Gold documents skipped for want of annotation.
    skipped_names (Tuple[str, ...]): The names of the first few skipped ones.
    unit (str): "token" or "char".
    sources (Tuple[str, str]): What the gold and the predicted side came from.
    pairs (Mapping[int, DocPair]): With kept errors, the documents that have
        errors (by their index among the scored documents), and only those;
        with a limit on them (`max_error_docs`), those with the most errors.
    labels_seen (Tuple[str, ...]): Every label met in gold or prediction.
    gold_labels (Tuple[str, ...]): The gold labels, when the format asked
        for them (Feedback Prize's official score).
    official_score (Optional[float]): A format's own score (Feedback Prize
        input with the overlap scheme: the mean F1 of the gold classes).
    not_scored (Mapping[str, Mapping[str, int]]): By side, what the readers
        read but did not score (relations, cancelled annotations, ...).
    spans_keys (Tuple[str, ...]): The span groups the gold documents have.
    doc_meta (Mapping[str, List[Any]]): Metadata field -> one value per
        scored document (only the fields an analysis asked for).
    doc_lengths (Optional[List[int]]): Tokens (token unit) or characters
        (char unit) of each scored document, for doc_length and density.
    doc_spans (Optional[Tuple[List, List]]): The gold and the predicted span
        lists of every scored document, kept for breakdowns only.
    signature (Mapping[str, Any]): `make_signature` of the run (a
        `Signature`; an empty mapping for scores built without one).
    analysis (Any): The intervals, comparison and breakdowns
        (`stats.apply.AnalysisResult`), attached by `with_analysis`.
    notes (Mapping[str, Mapping[str, Mapping]]): By side, what the readers
        and the pairing noted: kind -> {"count", "examples"} (span texts
        that disagree with their offsets: "text_mismatch"; documents whose
        offsets were converted: "utf16_offsets", "newline_offsets"; gold
        documents without a predicted one: "missing_documents").
    warnings (Tuple[str, ...]): What the whole-corpus checks found
        suspicious but not wrong (`corpus.check_outcome`), e.g. no
        predicted label occurring in the gold.
    error_counts (Optional[ErrorCounts]): With kept or streamed errors, the
        primary scheme's errors of the whole corpus by kind, and the number
        of documents that have them (whatever `pairs` keeps).
    span_groups (Mapping[str, int]): The spans of each span group of the
        gold documents (readers that count them: DocBins).
    inside_words (Mapping[str, Mapping[str, Any]]): In char unit, by side,
        the spans read, how many of them were looked at, how many of those
        start or end inside a word and the first examples
        (`notes.InsideWords`), for the warnings.

    Equality compares the scores, the counts of documents, the unit and
    the signature: not where the documents came from (a sharded run equals
    the run of one file) nor what is kept for reports; `to_dict` writes
    what equality compares. Every field but `results` is given by name.
    """

    results: Dict[str, SchemeResult]
    _: dataclasses.KW_ONLY  # every other field is given by name
    documents: int = 0
    skipped: int = 0
    skipped_names: Tuple[str, ...] = field(default=(), compare=False)
    unit: str = UNITS[0]
    sources: Tuple[str, str] = field(default=("gold", "predicted"), compare=False)
    pairs: Mapping[int, Any] = field(default_factory=dict, repr=False, compare=False)
    labels_seen: Tuple[str, ...] = field(default=(), compare=False)
    gold_labels: Tuple[str, ...] = field(default=(), repr=False, compare=False)
    official_score: Optional[float] = None
    not_scored: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    spans_keys: Tuple[str, ...] = field(default=(), repr=False, compare=False)
    doc_meta: Mapping[str, List[Any]] = field(default_factory=dict, repr=False, compare=False)
    doc_lengths: Optional[List[int]] = field(default=None, repr=False, compare=False)
    doc_spans: Optional[Tuple[List[Any], List[Any]]] = field(default=None, repr=False, compare=False)
    signature: Mapping[str, Any] = field(default_factory=dict, repr=False)
    analysis: Any = field(default=None, repr=False, compare=False)
    notes: Mapping[str, Mapping[str, Mapping[str, Any]]] = field(default_factory=dict, repr=False)
    warnings: Tuple[str, ...] = field(default=(), repr=False, compare=False)
    error_counts: Optional[ErrorCounts] = field(default=None, repr=False, compare=False)
    span_groups: Mapping[str, int] = field(default_factory=dict, repr=False, compare=False)
    inside_words: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, repr=False, compare=False)

    @property
    def scored(self) -> int:
        return self.documents - self.skipped

    @property
    def primary(self) -> str:
        return next(iter(self.results))

    @property
    def errors(self) -> Tuple[SpanError, ...]:
        """The primary scheme's errors; `SpanError.doc` is a key of `pairs`
        (with `max_error_docs`, the errors of the documents kept). Needs
        keep_errors=True: as `SchemeResult.errors`, errors that were not
        kept are a ValueError, never an empty tuple that reads as "no
        errors"."""
        return self.results[self.primary].errors

    intervals = AnalysisPart("scheme -> SchemeInterval (`bootstrap_ci`).")
    comparison = AnalysisPart("scheme -> PairedTest of the baseline against this run.")
    breakdowns = AnalysisPart("attribute -> scheme -> buckets (`stats.breakdown`).")
    breakdown_intervals = AnalysisPart("document attribute -> scheme -> bootstrap_ci of each bucket.")
    baseline_results = AnalysisPart("scheme -> the baseline's SchemeResult.")

    @property
    def baseline_source(self) -> Optional[str]:
        return getattr(self.analysis, "baseline_source", None)

    @property
    def analysis_settings(self) -> Any:
        """The AnalysisSettings of the attached analysis, or None."""
        return getattr(self.analysis, "settings", None)

    def replace(self, **changes: Any) -> "CorpusScores":
        """A copy with some fields changed."""
        return dataclasses.replace(self, **changes)

    def with_analysis(self, analysis: Any) -> "CorpusScores":
        """These scores with an analysis attached (a new value)."""
        return dataclasses.replace(self, analysis=analysis)

    def __add__(self, other: "CorpusScores") -> "CorpusScores":
        """The scores of self's documents followed by other's (the shards of
        one plan, in order). Counts add; per-document indices (`DocPair.index`,
        errors' `doc`, the keys of `pairs`) of other are shifted past
        self's documents. The kept documents (`pairs`) and errors of both
        are kept: a limit on how many (`max_error_docs`) is the caller's to
        apply to the sum; the error counts add. Both must have the same
        signature and no analysis (analyse the sum)."""
        if not isinstance(other, CorpusScores):
            return NotImplemented
        if list(self.results) != list(other.results):
            raise ValueError(f"can't add scores of the schemes {list(other.results)} to {list(self.results)}")
        if dict(self.signature) != dict(other.signature):
            differ = sorted(k for k in set(self.signature) | set(other.signature)
                            if self.signature.get(k) != other.signature.get(k))
            raise ValueError(f"can't add scores with different signatures (they differ in {', '.join(differ)})")
        if self.analysis is not None or other.analysis is not None:
            raise ValueError("can't add analysed scores: add the scores, then analyse the sum")
        results = {name: self.results[name] + other.results[name] for name in self.results}
        scored_before = self.results[self.primary].n_docs
        pairs = dict(self.pairs)
        for key, pair in other.pairs.items():
            pairs[key + scored_before] = dataclasses.replace(pair, index=pair.index + self.documents)
        not_scored: Dict[str, Dict[str, int]] = {side: dict(counts) for side, counts in self.not_scored.items()}
        for side, counts in other.not_scored.items():
            totals = not_scored.setdefault(side, {})
            for what, n in counts.items():
                totals[what] = totals.get(what, 0) + n
        doc_meta = {name: list(values) + list(other.doc_meta.get(name, ())) for name, values in self.doc_meta.items()}
        notes: Dict[str, Dict[str, Any]] = {}
        for part in (self.notes, other.notes):
            for side, found in part.items():
                merge_notes(notes.setdefault(side, {}), found, NOTE_EXAMPLES)
        return CorpusScores(
            results,
            documents=self.documents + other.documents,
            skipped=self.skipped + other.skipped,
            skipped_names=(tuple(self.skipped_names) + tuple(other.skipped_names))[:SKIPPED_NAMES],
            unit=self.unit,
            sources=self.sources if self.sources == other.sources else
            (f"{self.sources[0]}, {other.sources[0]}", f"{self.sources[1]}, {other.sources[1]}"),
            pairs=pairs,
            labels_seen=tuple(dict.fromkeys(tuple(self.labels_seen) + tuple(other.labels_seen))),
            gold_labels=tuple(sorted(set(self.gold_labels) | set(other.gold_labels))),
            official_score=None,
            not_scored=not_scored,
            spans_keys=tuple(sorted(set(self.spans_keys) | set(other.spans_keys))),
            doc_meta=doc_meta,
            doc_lengths=None if self.doc_lengths is None or other.doc_lengths is None
            else list(self.doc_lengths) + list(other.doc_lengths),
            doc_spans=None if self.doc_spans is None or other.doc_spans is None
            else (self.doc_spans[0] + other.doc_spans[0], self.doc_spans[1] + other.doc_spans[1]),
            signature=self.signature,
            notes=notes,
            error_counts=None if self.error_counts is None or other.error_counts is None
            else self.error_counts + other.error_counts,
            span_groups={key: self.span_groups.get(key, 0) + other.span_groups.get(key, 0)
                         for key in sorted(set(self.span_groups) | set(other.span_groups))},
            inside_words=merge_inside_words(self.inside_words, other.inside_words),
        )

    def to_dict(self) -> Dict[str, Any]:
        """The JSON the command line writes (--output): every scheme's
        scores (`SchemeResult.to_dict`), the documents, the analysis
        blocks (ci, comparison, breakdown) and the signature."""
        data: Dict[str, Any] = {
            "schemes": {name: result.summary() for name, result in self.results.items()},
            "documents": self.documents,
            "skipped": self.skipped,
            "unit": self.unit,
            "labels": sorted(self.labels_seen),
            "label_counts": {name: result.label_counts() for name, result in self.results.items()},
        }
        if "iou" in self.results:
            data["confusion"] = self.results["iou"].confusion_rows()
        if self.official_score is not None:
            data["official_score"] = self.official_score
        if self.not_scored:
            data["not_scored"] = {side: dict(counts) for side, counts in self.not_scored.items()}
        if self.notes:
            data["notes"] = _plain_notes(self.notes)
            grounding = grounding_report(self.notes.get("pred", {}))
            if grounding:
                data["grounding"] = grounding
        if self.warnings:
            data["warnings"] = list(self.warnings)
        if self.analysis is not None:
            self.analysis.add_to(data, self)
        data["signature"] = dict(self.signature)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "CorpusScores":
        """The scores `to_dict` wrote (e.g. read back from `--output`):
        equal to the scores written, and writing them again gives the
        same JSON. What is kept only for reports (errors, documents,
        per-document rows) is not in the JSON."""
        try:
            schemes = data["schemes"]
            label_counts = data.get("label_counts", {})
            results = {
                name: SchemeResult.from_dict(
                    {**block, "label_counts": label_counts.get(name), "confusion": data.get("confusion", ()) if name == "iou" else ()},
                    name,
                )
                for name, block in schemes.items()
            }
            cis = {name: block["ci"] for name, block in schemes.items() if "ci" in block}
            blocks = {name: data[name] for name in ANALYSIS_BLOCKS if name in data}
            signed = data.get("signature") or {}
            return cls(
                results,
                documents=int(data["documents"]),
                skipped=int(data["skipped"]),
                unit=data.get("unit", UNITS[0]),
                labels_seen=tuple(data.get("labels", ())),
                official_score=data.get("official_score"),
                not_scored={side: dict(counts) for side, counts in data.get("not_scored", {}).items()},
                notes=_plain_notes(data.get("notes", {})),
                warnings=tuple(data.get("warnings", ())),
                signature=Signature.from_dict(signed) if signed else {},
                analysis=RecordedAnalysis(cis, blocks) if cis or blocks else None,
            )
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"not the JSON of CorpusScores.to_dict ({type(err).__name__}: {err})") from None
