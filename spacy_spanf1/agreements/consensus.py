"""What the annotators agree on and where they differ: the consensus spans
(`consensus`), each annotator scored against them (`Consensus`), and
every span not shared by all who did its document (`disagreements`)."""

from dataclasses import dataclass, field
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

import numpy

from ..engine.scorer import evaluate_spans
from ..exceptions import SettingError
from ..settings import UNITS, AgreementSettings, MatchSettings, check_unit
from ..spans import Span
from .annotations import Annotations, read_annotations


def consensus(
    annotations: Any, *, min_votes: Optional[int] = AgreementSettings.min_votes, unit: str = UNITS[0]
) -> List[Optional[List[Span]]]:
    """The spans enough annotators agree on, per document (strict: same
    start, end and label).

    annotations (Mapping[str, Sequence]): As `agreement` takes them.
    min_votes (Optional[int]): A span is kept when at least this many of
        the annotators who did its document have it; None: a strict
        majority of them (more than half). A span listed twice by one
        annotator is one vote.
    unit (str): The offsets spaCy Spans give.
    RETURNS (List[Optional[List[Span]]]): Per document, the kept spans,
        sorted; None for a document no annotator did.
    """
    settings = AgreementSettings(min_votes=min_votes)
    read = read_annotations(annotations, check_unit(unit))
    check_min_votes(settings.min_votes, len(read.names))
    return consensus_of(read, settings.min_votes)


def consensus_of(read: Annotations, min_votes: Optional[int]) -> List[Optional[List[Span]]]:
    """The consensus of annotations already read."""
    doc, start, end, label, votes = _votes(read)
    voters = read.done.sum(axis=0)
    needed = voters[doc] // 2 + 1 if min_votes is None else numpy.full(len(doc), min_votes)
    kept = votes >= needed
    out: List[Optional[List[Span]]] = [[] if n else None for n in voters.tolist()]
    labels = read.labels
    for d, s, e, lab in zip(doc[kept].tolist(), start[kept].tolist(), end[kept].tolist(), label[kept].tolist()):
        out[d].append(Span(s, e, labels[lab]))
    return out


def _votes(read: Annotations):
    """Every distinct (doc, start, end, label) of any annotator, sorted, with
    how many annotators have it (each annotator's spans are distinct)."""
    columns = [numpy.concatenate([side[i] for side in read.sides]) for i in range(4)]
    doc, start, end, label = columns
    order = numpy.lexsort((label, end, start, doc))
    doc, start, end, label = (column[order] for column in (doc, start, end, label))
    new = (
        numpy.r_[
            True, (doc[1:] != doc[:-1]) | (start[1:] != start[:-1]) | (end[1:] != end[:-1]) | (label[1:] != label[:-1])
        ]
        if len(doc)
        else numpy.zeros(0, dtype=bool)
    )
    first = numpy.flatnonzero(new)
    votes = numpy.diff(numpy.r_[first, len(doc)])
    return doc[first], start[first], end[first], label[first], votes


@dataclass(frozen=True)
class Consensus:
    """The consensus of the annotators, and each scored against it.

    scores (Mapping[str, Mapping[str, Mapping[str, Any]]]): annotator ->
        scheme -> that annotator's spans scored against the consensus as
        gold, over the documents they did (`SchemeResult.summary()`).
    spans (Optional[Sequence[Optional[List[Span]]]]): Per document, the
        consensus spans (None: a document no annotator did); None when
        read back from JSON (`from_dict`).
    """

    scores: Mapping[str, Mapping[str, Mapping[str, Any]]]
    spans: Optional[Sequence[Optional[List[Span]]]] = field(default=None, repr=False, compare=False)

    def to_dict(self) -> Dict[str, Any]:
        """annotator -> scheme -> summary: the "consensus" of the agreement's JSON."""
        return {
            name: {scheme: dict(summary) for scheme, summary in by_scheme.items()}
            for name, by_scheme in self.scores.items()
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Consensus":
        return cls(
            {name: {scheme: dict(summary) for scheme, summary in by_scheme.items()} for name, by_scheme in data.items()}
        )


def scored_consensus(
    annotations: Mapping[str, Sequence[Any]], unit: str, match: MatchSettings, min_votes: Optional[int]
) -> Consensus:
    """The consensus of the annotations (as `consensus` makes it), and each
    annotator scored against it under the match settings (schemes,
    thresholds, labels), over the documents they did."""
    agreed = consensus(annotations, min_votes=min_votes, unit=unit)
    scores = {}
    for name, docs in annotations.items():
        did = [i for i, entry in enumerate(docs) if entry is not None]
        scored = evaluate_spans(
            [agreed[i] or [] for i in did],
            [docs[i] for i in did],
            schemes=list(match.schemes),
            unit=unit,
            **match.scorer_settings(),
        )
        scores[name] = {scheme: r.summary() for scheme, r in scored.items()}
    return Consensus(scores, agreed)


@dataclass(frozen=True)
class Disagreement:
    """A span that some of the annotators of its document have and others
    do not.

    doc (int): The document.
    span (Span): The span.
    have (Tuple[str, ...]): The annotators who have it.
    instead (Dict[str, Tuple[Span, ...]]): Each annotator of the document
        who lacks it -> that annotator's spans overlapping it (empty: none).
    """

    doc: int
    span: Span
    have: Tuple[str, ...]
    instead: Dict[str, Tuple[Span, ...]]

    def to_dict(self) -> Dict[str, Any]:
        return {
            "doc": self.doc,
            "span": {"start": self.span.start, "end": self.span.end, "label": self.span.label},
            "have": list(self.have),
            "instead": {
                name: [{"start": s.start, "end": s.end, "label": s.label} for s in spans]
                for name, spans in self.instead.items()
            },
        }


def disagreements(annotations: Any, *, unit: str = UNITS[0]) -> List[Disagreement]:
    """Every span not shared by all who annotated its document, with who
    has it and what the others have there instead (their overlapping
    spans); by document, then span.

    annotations (Mapping[str, Sequence]): As `agreement` takes them.
    unit (str): The offsets spaCy Spans give.
    """
    return disagreements_of(read_annotations(annotations, check_unit(unit)))


def disagreements_of(read: Annotations) -> List[Disagreement]:
    """The disagreements of annotations already read."""
    doc, start, end, label, votes = _votes(read)
    voters = read.done.sum(axis=0)
    split = numpy.flatnonzero(votes < voters[doc])
    if not len(split):
        return []
    names, labels = read.names, read.labels
    spans_cache: Dict[Tuple[int, int], List[Span]] = {}

    def spans_of(a: int, d: int) -> List[Span]:
        if (a, d) not in spans_cache:
            spans_cache[(a, d)] = read.doc_spans(a, d)
        return spans_cache[(a, d)]

    found = []
    for i in split.tolist():
        d = int(doc[i])
        span = Span(int(start[i]), int(end[i]), labels[int(label[i])])
        have, instead = [], {}
        for a in range(len(names)):
            if not read.done[a, d]:
                continue
            own = spans_of(a, d)
            if span in own:
                have.append(names[a])
            else:
                instead[names[a]] = tuple(s for s in own if s.start < span.end and span.start < s.end)
        found.append(Disagreement(d, span, tuple(have), instead))
    return found


def check_min_votes(min_votes: Optional[int], n_annotators: int) -> None:
    """min_votes above the number of annotators keeps nothing: an error."""
    if min_votes is not None and min_votes > n_annotators:
        raise SettingError(
            f"'min_votes' is {min_votes} but there are {n_annotators} annotators: give at most {n_annotators}",
            "min_votes",
        )
