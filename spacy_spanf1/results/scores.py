"""The scores of a corpus as a value: `CorpusScores` (every scheme's
`SchemeResult`, and what is needed to report them).

Frozen. Scores of the same settings add up (`a + b`: the documents of a,
then those of b), so a corpus can be scored in parts (the shards of a Dask
run are merged this way); they pickle, and `CorpusScores.to_dict()` /
`CorpusScores.from_dict()` round-trip the scores. Every JSON a result
writes carries its `signature`: the package version, spaCy's version and
every setting that shapes the numbers.
"""

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Tuple

from ..engine.outcomes import SpanError
from ..engine.result import SchemeResult
from ..notes import grounding_report, merge_inside_words, merge_notes
from ..settings import NOTE_EXAMPLES, SKIPPED_NAMES, UNITS
from ..signature import Signature
from .analysis import ANALYSIS_BLOCKS, AnalysisPart, RecordedAnalysis
from .errors import ErrorCounts

__all__ = ["CorpusScores"]


def _merged_counts(a: Mapping[str, Mapping[str, int]], b: Mapping[str, Mapping[str, int]]) -> Dict[str, Dict[str, int]]:
    """side -> label -> count of both, added."""
    merged: Dict[str, Dict[str, int]] = {side: dict(counts) for side, counts in a.items()}
    for side, counts in b.items():
        totals = merged.setdefault(side, {})
        for label, n in counts.items():
            totals[label] = totals.get(label, 0) + n
    return {side: counts for side, counts in merged.items() if counts}


def _plain_notes(notes: Mapping[str, Mapping[str, Mapping[str, Any]]]) -> Dict[str, Dict[str, Dict[str, Any]]]:
    """Notes as plain dicts and lists (JSON), by side and kind."""
    return {
        side: {kind: {"count": int(n["count"]), "examples": list(n["examples"])} for kind, n in found.items()}
        for side, found in notes.items()
    }


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
    unmapped (Mapping[str, Mapping[str, int]]): With a label map, by side,
        the labels it does not name and their spans (scored as they are).
    relation_errors (Mapping[int, Tuple[DocPair, Tuple[RelationError, ...]]]):
        With every error kept (kept errors, no `max_error_docs`) and a
        relation scheme named: the documents with errors of the first
        relation scheme (by their index among the scored documents, as
        `pairs`), each with its errors (`RelationError.doc` is that index).

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
    unmapped: Mapping[str, Mapping[str, int]] = field(default_factory=dict, repr=False)
    relation_errors: Mapping[int, Tuple[Any, Tuple[Any, ...]]] = field(default_factory=dict, repr=False, compare=False)

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
            differ = sorted(
                k for k in set(self.signature) | set(other.signature) if self.signature.get(k) != other.signature.get(k)
            )
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
            sources=self.sources
            if self.sources == other.sources
            else (f"{self.sources[0]}, {other.sources[0]}", f"{self.sources[1]}, {other.sources[1]}"),
            pairs=pairs,
            labels_seen=tuple(dict.fromkeys(tuple(self.labels_seen) + tuple(other.labels_seen))),
            gold_labels=tuple(sorted(set(self.gold_labels) | set(other.gold_labels))),
            official_score=None,
            not_scored=not_scored,
            spans_keys=tuple(sorted(set(self.spans_keys) | set(other.spans_keys))),
            doc_meta=doc_meta,
            doc_lengths=None
            if self.doc_lengths is None or other.doc_lengths is None
            else list(self.doc_lengths) + list(other.doc_lengths),
            doc_spans=None
            if self.doc_spans is None or other.doc_spans is None
            else (self.doc_spans[0] + other.doc_spans[0], self.doc_spans[1] + other.doc_spans[1]),
            signature=self.signature,
            notes=notes,
            error_counts=None
            if self.error_counts is None or other.error_counts is None
            else self.error_counts + other.error_counts,
            span_groups={
                key: self.span_groups.get(key, 0) + other.span_groups.get(key, 0)
                for key in sorted(set(self.span_groups) | set(other.span_groups))
            },
            inside_words=merge_inside_words(self.inside_words, other.inside_words),
            unmapped=_merged_counts(self.unmapped, other.unmapped),
            relation_errors={
                **self.relation_errors,
                **{
                    key + scored_before: (
                        dataclasses.replace(pair, index=pair.index + self.documents),
                        tuple(error._replace(doc=error.doc + scored_before) for error in errors),
                    )
                    for key, (pair, errors) in other.relation_errors.items()
                },
            },
        )

    def to_dict(self) -> Dict[str, Any]:
        """The JSON the command line writes (--output): every scheme's
        scores (`SchemeResult.to_dict`), the documents, the analysis
        blocks (ci, comparison, breakdown) and the signature."""
        data: Dict[str, Any] = {
            "schemes": {
                name: {**result.summary(), "confusion": result.confusion.to_dict()}
                for name, result in self.results.items()
            },
            "documents": self.documents,
            "skipped": self.skipped,
            "unit": self.unit,
            "labels": sorted(self.labels_seen),
            "label_counts": {name: result.label_counts() for name, result in self.results.items()},
        }
        if self.official_score is not None:
            data["official_score"] = self.official_score
        if self.not_scored:
            data["not_scored"] = {side: dict(counts) for side, counts in self.not_scored.items()}
        if self.notes:
            data["notes"] = _plain_notes(self.notes)
            grounding = grounding_report(self.notes.get("pred", {}))
            if grounding:
                data["grounding"] = grounding
        if any(self.unmapped.values()):
            data["unmapped"] = {side: dict(sorted(labels.items())) for side, labels in self.unmapped.items() if labels}
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
                    {**block, "label_counts": label_counts.get(name), "confusion": _confusion_of(data, name, block)},
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
                unmapped={side: dict(labels) for side, labels in data.get("unmapped", {}).items()},
                signature=Signature.from_dict(signed) if signed else {},
                analysis=RecordedAnalysis(cis, blocks) if cis or blocks else None,
            )
        except (KeyError, TypeError, AttributeError) as err:
            raise ValueError(f"not the JSON of CorpusScores.to_dict ({type(err).__name__}: {err})") from None


def _confusion_of(data: Mapping[str, Any], name: str, block: Mapping[str, Any]) -> Any:
    """A scheme's confusion in the JSON: in its block, or (older JSON) the
    rows of `iou`'s beside the blocks."""
    if "confusion" in block:
        return block["confusion"]
    return data.get("confusion") if name == "iou" else None
