"""The annotations of several annotators, read and checked once.

Every annotator's spans are converted once into flat arrays (a `Side` of
the engine, documents numbered over the whole corpus, labels as ids of one
sorted label list): the pairs, the token figures, the consensus and the
disagreements all read these arrays, none reads the user's lists again.
"""

from dataclasses import dataclass, field
from itertools import chain
from operator import itemgetter
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple, Union

import numpy

from ..engine.columns import Side, sorted_unique
from ..exceptions import InputError, SettingError
from ..label_map import LabelMap
from ..spans import Span, all_ints, read_doc_spans, spacy_span_tuples


@dataclass(frozen=True)
class Annotations:
    """The spans of N annotators over the same documents.

    names (Tuple[str, ...]): The annotators, in the order given.
    done (numpy.ndarray): (annotators x documents) bool: who did which document.
    sides (Tuple[Side, ...]): Each annotator's spans, sorted by (document,
        start, end, label), identical spans once; `doc` counts over the
        corpus, `label` indexes `labels`.
    labels (Tuple[str, ...]): Every label any annotator used, sorted.
    unit (str): What the offsets count ("token" or "char").
    lengths (Optional[numpy.ndarray]): Each document's number of units.
    unmapped (Mapping[str, Mapping[str, int]]): With a label map, by
        annotator, the labels it does not name and their spans.
    """

    names: Tuple[str, ...]
    done: numpy.ndarray
    sides: Tuple[Side, ...]
    labels: Tuple[str, ...]
    unit: str
    lengths: Optional[numpy.ndarray] = None
    unmapped: Mapping[str, Mapping[str, int]] = field(default_factory=dict)

    @property
    def n_docs(self) -> int:
        return self.done.shape[1]

    def shared(self, a: int, b: int) -> numpy.ndarray:
        """Bool mask of the documents annotators a and b both did."""
        return self.done[a] & self.done[b]

    def select(self, a: int, docs: numpy.ndarray) -> Side:
        """Annotator a's spans in the documents of the mask `docs`, the
        documents numbered again from 0 in corpus order."""
        side = self.sides[a]
        keep = docs[side.doc]
        number = numpy.cumsum(docs) - 1
        return Side(number[side.doc[keep]], side.start[keep], side.end[keep], side.label[keep])

    def doc_spans(self, a: int, doc: int) -> List[Span]:
        """Annotator a's spans of one document, sorted."""
        side = self.sides[a]
        low, high = numpy.searchsorted(side.doc, [doc, doc + 1]).tolist()
        labels = self.labels
        return [
            Span(start, end, labels[label])
            for start, end, label in zip(
                side.start[low:high].tolist(), side.end[low:high].tolist(), side.label[low:high].tolist()
            )
        ]


def annotator_items(annotations: Any) -> List[Tuple[str, Any]]:
    """(name, documents) pairs of a mapping or of a sequence of pairs; a
    name given twice, a name that is not a non-empty string or fewer than
    two annotators is a SettingError."""
    if isinstance(annotations, Mapping):
        items = list(annotations.items())
    elif isinstance(annotations, (list, tuple)) and all(
        isinstance(item, (list, tuple)) and len(item) == 2 for item in annotations
    ):
        items = [tuple(item) for item in annotations]
    else:
        raise SettingError(
            f"'annotations' must map each annotator's name to one entry per document, got {type(annotations).__name__}",
            "annotations",
        )
    for name, _ in items:
        if not isinstance(name, str) or not name:
            raise SettingError(f"'annotations' names an annotator {name!r}: names are non-empty strings", "annotations")
    names = [name for name, _ in items]
    twice = sorted({name for name in names if names.count(name) > 1})
    if twice:
        raise SettingError(
            f"'annotations' names the annotator {twice[0]!r} {names.count(twice[0])} times: "
            "each annotator is given once",
            "annotations",
        )
    if len(items) < 2:
        found = ", ".join(map(repr, names)) or "none"
        raise SettingError(
            f"'annotations' holds {len(items)} annotator ({found}): agreement needs at least 2", "annotations"
        )
    return items


def read_annotations(
    annotations: Any,
    unit: str,
    *,
    labels: Optional[Iterable[str]] = None,
    lengths: Optional[Sequence[int]] = None,
    label_map: Optional[LabelMap] = None,
    refuse_unlisted: bool = False,
) -> Annotations:
    """Read and check every annotator's documents once.

    annotations (Mapping[str, Sequence]): annotator -> one entry per
        document: a list of spans ((start, end, label) tuples, {"start",
        "end", "label"} dicts or spaCy Spans), or None where that annotator
        did not do the document. Or a sequence of (name, entries) pairs.
    unit (str): The offsets spaCy Spans give ("token" or "char").
    labels (Optional[Iterable[str]]): Keep only spans of these labels.
    lengths (Optional[Sequence[int]]): Each document's number of units; a
        span that ends past its document is an InputError.
    label_map (Optional[LabelMap]): One map for every annotator, applied
        before `labels`; spans it makes identical count once.
    refuse_unlisted (bool): A label the map does not name is an InputError.
    """
    items = annotator_items(annotations)
    entries = []
    for name, docs in items:
        if isinstance(docs, (str, bytes, Mapping)) or not isinstance(docs, Iterable):
            raise InputError(
                f"annotator {name!r} gives a {type(docs).__name__}, not one entry (a span list or None) per document",
                setting="annotations",
            )
        entries.append(list(docs))
    counts = [len(docs) for docs in entries]
    if len(set(counts)) > 1:
        listed = ", ".join(f"{name!r}: {n}" for (name, _), n in zip(items, counts))
        raise InputError(
            f"the annotators list different numbers of documents ({listed}): give every annotator one entry "
            "per document, in the same order, None where they did not do it",
            setting="annotations",
        )
    n_docs = counts[0]
    unmapped: Dict[str, Dict[str, int]] = {}
    if label_map is not None:
        entries = [
            _relabelled(name, docs, unit, label_map, refuse_unlisted, unmapped.setdefault(name, {}))
            for (name, _), docs in zip(items, entries)
        ]
    keep = None if labels is None else frozenset(labels)
    read = [_read_annotator(name, docs, unit, keep) for (name, _), docs in zip(items, entries)]
    names_used = sorted(set(chain.from_iterable(found[4] for found in read)))
    ids = {label: i for i, label in enumerate(names_used)}
    done = numpy.array([found[0] for found in read], dtype=bool).reshape(len(items), n_docs)
    sides = tuple(_sorted_side(found, ids) for found in read)
    checked_lengths = None
    if lengths is not None:
        checked_lengths = check_lengths(lengths, n_docs)
        for (name, _), side in zip(items, sides):
            _check_ends(name, side, checked_lengths, unit, names_used)
    return Annotations(
        tuple(name for name, _ in items),
        done,
        sides,
        tuple(names_used),
        unit,
        checked_lengths,
        {name: found for name, found in unmapped.items() if found},
    )


def _relabelled(
    name: str, docs: List[Any], unit: str, label_map: LabelMap, refuse: bool, unmapped: Dict[str, int]
) -> List[Any]:
    """One annotator's entries with the map applied (identical spans once),
    the spans of labels it does not name counted in `unmapped`."""
    if not label_map.both:
        raise SettingError(
            "agreement compares annotators, not a gold and a predicted side: give one map for all of them "
            "(a dict of labels), not a map of sides",
            "label_map",
        )
    mapping, listed = label_map.side("gold"), label_map.listed("gold")
    out: List[Any] = []
    for doc, entry in enumerate(docs):
        if entry is None:
            out.append(None)
            continue
        spans = read_doc_spans(spacy_span_tuples(entry, unit), f"annotator {name!r}", doc, unit)
        for span in spans:
            if span[2] not in listed:
                if refuse:
                    raise InputError(
                        f"the label map does not name the label {span[2]!r} of annotator {name!r} (document {doc}): "
                        "map it (null drops it), or set 'map_unlisted' to keep",
                        setting="label_map",
                    )
                unmapped[span[2]] = unmapped.get(span[2], 0) + 1
        out.append(sorted({Span(s, e, new) for s, e, label in spans if (new := mapping.get(label, label)) is not None}))
    return out


def check_lengths(lengths: Sequence[int], n_docs: int) -> numpy.ndarray:
    """Each document's number of units as an array, checked."""
    if isinstance(lengths, (str, bytes)) or not hasattr(lengths, "__len__"):
        raise SettingError(
            f"'lengths' must be one number of units per document, got {type(lengths).__name__}", "lengths"
        )
    if len(lengths) != n_docs:
        raise SettingError(
            f"'lengths' gives {len(lengths)} lengths for {n_docs} documents: give one per document", "lengths"
        )
    values = list(lengths)
    if not all_ints(values) or any(value < 0 for value in values):
        bad = next(value for value in values if not all_ints([value]) or value < 0)
        raise SettingError(f"'lengths' holds {bad!r}: lengths are integers >= 0", "lengths")
    return numpy.array(values, dtype=numpy.int64)


def _read_annotator(name: str, docs: List[Any], unit: str, keep: Optional[frozenset]):
    """(done, doc ids, starts, ends, labels) of one annotator's entries."""
    done = [entry is not None for entry in docs]
    spans_of = [
        ()
        if entry is None
        else entry
        if type(entry) is list and (not entry or type(entry[0]) is tuple)  # plain spans: as they are
        else spacy_span_tuples(entry, unit)
        for entry in docs
    ]
    doc_ids: Union[List[int], numpy.ndarray]
    try:
        sizes = [len(spans) for spans in spans_of]
        flat = list(chain.from_iterable(spans_of))
        plain = not (set(map(type, flat)) - {tuple}) and not (set(map(len, flat)) - {3})
    except TypeError:
        plain = False
    if plain:
        starts = list(map(itemgetter(0), flat))
        ends = list(map(itemgetter(1), flat))
        labels = list(map(itemgetter(2), flat))
        plain = all_ints(starts) and all_ints(ends) and set(map(type, labels)) <= {str}
    if plain:
        try:
            start_array = numpy.fromiter(starts, dtype=numpy.int64, count=len(starts))
            end_array = numpy.fromiter(ends, dtype=numpy.int64, count=len(ends))
        except OverflowError:
            plain = False
        else:
            plain = not ((start_array < 0) | (start_array >= end_array)).any()
    if plain:
        doc_ids = numpy.repeat(numpy.arange(len(docs)), sizes)
        if keep is None:
            return done, doc_ids, start_array, end_array, labels
        chosen = numpy.fromiter((label in keep for label in labels), dtype=bool, count=len(labels))
        return (
            done,
            doc_ids[chosen],
            start_array[chosen],
            end_array[chosen],
            [label for label, take in zip(labels, chosen.tolist()) if take],
        )
    else:
        side = f"annotator {name!r}"
        try:
            read = [read_doc_spans(spans, side, doc, unit) if done[doc] else [] for doc, spans in enumerate(spans_of)]
        except ValueError as err:
            raise InputError(str(err), setting="annotations") from None
        doc_ids = [doc for doc, spans in enumerate(read) for _ in spans]
        flat = list(chain.from_iterable(read))
        starts = [s[0] for s in flat]
        ends = [s[1] for s in flat]
        labels = [s[2] for s in flat]
    if keep is not None:
        kept = [i for i, label in enumerate(labels) if label in keep]
        doc_ids, starts, ends, labels = ([column[i] for i in kept] for column in (doc_ids, starts, ends, labels))
    return done, doc_ids, starts, ends, labels


def _sorted_side(found, ids: Dict[str, int]) -> Side:
    _, doc_ids, starts, ends, labels = found
    side = Side(
        numpy.asarray(doc_ids, dtype=numpy.int64),
        numpy.asarray(starts, dtype=numpy.int64),
        numpy.asarray(ends, dtype=numpy.int64),
        numpy.fromiter(map(ids.__getitem__, labels), dtype=numpy.int64, count=len(labels)),
    )
    return sorted_unique(side)


def _check_ends(name: str, side: Side, lengths: numpy.ndarray, unit: str, labels: Sequence[str]) -> None:
    past = side.end > lengths[side.doc]
    if past.any():
        i = int(numpy.flatnonzero(past)[0])
        doc = int(side.doc[i])
        units = "characters" if unit == "char" else "tokens"
        span = (int(side.start[i]), int(side.end[i]), labels[int(side.label[i])])
        raise InputError(
            f"annotator {name!r}, document {doc}: the span {span} ends past the document's {int(lengths[doc])} "
            f"{units} ('lengths'); spans need 0 <= start < end <= length",
            setting="annotations",
        )
