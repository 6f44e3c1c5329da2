"""The one loop over documents: every scheme scored in a single pass."""

import warnings
from collections import defaultdict
from functools import partial
from itertools import chain, islice
from itertools import repeat as repeated
from operator import contains, itemgetter

import numpy
from typing import Any, Callable, Dict, Iterable, List, Mapping, Optional, Sequence, Sized, Tuple, Union, cast, Unpack

from .counts import PRFCounts, SemEvalCounts
from .matching import (
    SEMEVAL_RULES,
    combined_iou,
    find_overlaps,
    iou_document,
    overlap_document,
    semeval_counts,
)
from . import fragments as fragment_matching
from .fragment_batch import column_sides, fragment_sides, mixed_side
from .batched import Batch
from .columns import Side, Units, overlapping_docs, sorted_unique
from .confusion import Confusion, overlap_confusion
from .outcomes import (
    ERROR_KINDS,
    PRF_COUNTS,
    SEMEVAL_COUNTS,
    OutcomeBlock,
    SpanOutcome,
    per_doc_rows,
)
from .relabel import Relabel
from .result import SchemeResult
from ..exceptions import SettingError
from ..keyword_types import SpanMatchKeywords
from ..keywords import built, front_door, refuse_set
from ..label_map import LabelMap
from ..notes import unmapped_note
from ..settings import UNITS, MatchSettings
from ..spans import Span, all_ints, read_doc_spans, spacy_span_tuples

Counts = Union[SemEvalCounts, PRFCounts]


#: Documents scored together.
BATCH_SIZE = 4096

#: How `SpanScorer._plain_side` reads (start, end, label) off a span tuple, and off a span dict.
_TUPLE_COLUMNS: Tuple[Any, ...] = (itemgetter(0), itemgetter(1), itemgetter(2))
_DICT_COLUMNS: Tuple[Any, ...] = (itemgetter("start"), itemgetter("end"), itemgetter("label"))


class SpanScorer:
    """Accumulates every requested scheme over documents.

    Documents are buffered and scored a batch at a time on flat arrays
    (`batched.py`); a document in which spans of one side overlap each
    other (a span group, or the same span twice) is scored on its own by
    `matching.py`. Both give the same counts and outcomes.

    schemes (Sequence[str]): The schemes to compute (required).
    iou_threshold (float): Combined IoU a gold span needs for `iou`, in (0, 1].
    overlap_threshold (float): Coverage both ways for `overlap`, in (0, 1].
    min_overlap (Optional[float]): Share of a gold span a prediction must
        cover to count as overlapping it in the SemEval schemes; None: any.
    labels (Optional[Iterable[str]]): Score only spans with these labels.
    per_doc (bool): Keep one row of counts per document and scheme.
    keep_errors (bool): Keep every scheme's errors (`SchemeResult.errors`).
    keep_outcomes (bool): Keep every span's outcome (`SchemeResult.outcomes`,
        for breakdowns); implies keep_errors.
    kept_schemes (Optional[Sequence[str]]): Keep the errors (or outcomes) of
        these schemes only; None: of every scheme.
    batch_size (int): Documents scored together.
    batched (bool): False scores every document on its own with
        `matching.py` (the reference the batched path is tested against).
    view (str): Which mentions count, for corpora with discontinuous spans
        (spans of several fragments): "all"; "disc_docs", the documents
        with a discontinuous gold span; "disc_mentions", the discontinuous
        spans of both sides only. A document with a span of several
        fragments is scored on its own over position sets (`fragments.py`).
    """

    def __init__(
        self,
        schemes: Optional[Sequence[str]] = None,
        *,
        iou_threshold: float = MatchSettings.iou_threshold,
        overlap_threshold: float = MatchSettings.overlap_threshold,
        min_overlap: Optional[float] = MatchSettings.min_overlap,
        labels: Optional[Iterable[str]] = MatchSettings.labels,
        label_map: Union[LabelMap, Mapping[str, Any], None] = MatchSettings.label_map,
        map_unlisted: str = MatchSettings.map_unlisted,
        per_doc: bool = False,
        keep_errors: bool = False,
        keep_outcomes: bool = False,
        kept_schemes: Optional[Sequence[str]] = None,
        batch_size: int = BATCH_SIZE,
        batched: bool = True,
        view: str = MatchSettings.view,
    ) -> None:
        settings = MatchSettings(
            schemes,
            labels=labels,
            iou_threshold=iou_threshold,
            overlap_threshold=overlap_threshold,
            min_overlap=min_overlap,
            label_map=label_map,
            map_unlisted=map_unlisted,
            view=view,
        )
        if settings.link_schemes:
            raise SettingError(
                f"the scheme {settings.link_schemes[0]!r} is a link scheme: it compares knowledge-base ids; score "
                "linked spans with evaluate_links, or files or a pipeline (compare_files, evaluate_pipeline)",
                "schemes",
            )
        self.settings = settings
        self.schemes = settings.schemes
        self.iou_threshold = settings.iou_threshold
        self.overlap_threshold = settings.overlap_threshold
        self.min_overlap = settings.min_overlap
        self.labels = None if settings.labels is None else frozenset(settings.labels)
        self.relabel = (
            None
            if settings.label_map is None
            else Relabel(settings.label_map, refuse_unlisted=settings.map_unlisted == "error")
        )
        self.per_doc = bool(per_doc)
        self.kept = "outcomes" if keep_outcomes else "errors" if keep_errors else None
        self._kept_schemes = (
            frozenset() if self.kept is None else frozenset(self.schemes if kept_schemes is None else kept_schemes)
        )
        self.batch_size = batch_size
        self.batched = batched
        self.view = settings.view
        self.n_docs = 0
        self._semeval = [s for s in self.schemes if s in SEMEVAL_RULES]
        self._semeval_totals = {s: [0, 0, 0, 0, 0] for s in self._semeval}
        self._count_names = {s: SEMEVAL_COUNTS if s in SEMEVAL_RULES else PRF_COUNTS for s in self.schemes}
        self._tallies: Dict[str, Dict[str, List[int]]] = {
            s: defaultdict(partial(_zeros, len(self._count_names[s]))) for s in self.schemes
        }
        self._confusion: Dict[str, Dict[Tuple[str, str], int]] = {s: {} for s in self.schemes}
        self._outcomes: Dict[str, List[Any]] = {s: [] for s in self.schemes}
        self._rows: Dict[str, List[numpy.ndarray]] = {s: [] for s in self.schemes}
        self._label_ids: Dict[str, int] = {}
        self._gold_buffer: List[Sequence[Span]] = []
        self._pred_buffer: List[Sequence[Span]] = []
        self._fragmented_buffer: List[int] = []

    @classmethod
    def from_settings(cls, match: MatchSettings, **keep: Any) -> "SpanScorer":
        """A scorer of these settings; keep: per_doc, keep_errors,
        keep_outcomes, kept_schemes, batch_size, batched. The string schemes
        need the documents' texts, which a scorer of spans does not have:
        SettingError."""
        if match.relation_schemes:
            raise SettingError(
                f"the scheme {match.relation_schemes[0]!r} scores relations between spans: score them with "
                "evaluate_relations, or files that hold relations (compare_files)",
                "schemes",
            )
        if match.string_schemes:
            raise SettingError(
                f"the scheme {match.string_schemes[0]!r} compares the texts of spans: score files or a "
                "pipeline (compare_files, evaluate_pipeline) or mentions (evaluate_mentions), not span lists",
                "schemes",
            )
        return cls(match.schemes, **match.scorer_settings(), **keep)

    @property
    def labels_seen(self) -> List[str]:
        """Every label met so far in gold or prediction, filtered or not."""
        return list(self._label_ids)

    @property
    def _want_units(self) -> bool:
        return self.per_doc or self.kept is not None

    def add(self, gold: Sequence[Span], pred: Sequence[Span], fragmented: bool = False) -> None:
        """Score one document. Both lists hold Span tuples sorted by
        (start, end, label); identical spans in a list count as often as
        they occur. fragmented: some span of either list is a
        `FragmentedSpan` (spans of several fragments are scored only when
        the caller says so: contiguous documents are not searched for them)."""
        if fragmented:
            self._fragmented_buffer.append(len(self._gold_buffer))
        self._gold_buffer.append(gold)
        self._pred_buffer.append(pred)
        if len(self._gold_buffer) >= self.batch_size:
            self.flush()

    def flush(self) -> None:
        """Score the buffered documents."""
        gold_docs, pred_docs = self._gold_buffer, self._pred_buffer
        if not gold_docs:
            return
        self._gold_buffer, self._pred_buffer = [], []
        fragmented, self._fragmented_buffer = self._fragmented_buffer, []
        self._score(
            self._side(gold_docs),
            self._side(pred_docs),
            len(gold_docs),
            lambda doc: (gold_docs[doc], pred_docs[doc]),
            _fragment_masks(gold_docs, pred_docs, fragmented) if fragmented else None,
        )

    def add_many(self, gold_docs: Sequence[Any], pred_docs: Sequence[Any], unit: str = UNITS[0]) -> None:
        """Score documents given as the user gave them: lists of (start, end,
        label) tuples, {"start", "end", "label"} dicts or spaCy Span objects
        (`doc.ents`, a SpanGroup; offsets in `unit`), in any order, with
        identical spans counted once. Bad spans raise a ValueError naming
        the document and span."""
        self.flush()
        offset = self.n_docs
        gold_docs = [spacy_span_tuples(d, unit) for d in gold_docs]
        pred_docs = [spacy_span_tuples(d, unit) for d in pred_docs]
        gold = self._plain_side(gold_docs)
        pred = self._plain_side(pred_docs)
        masks = None
        mixed = None if gold is not None and pred is not None else self._mixed_sides(gold_docs, pred_docs)
        if mixed is not None:
            gold_mixed, pred_mixed = mixed
            gold, pred = gold_mixed.side, pred_mixed.side
            spans_of = lambda doc: (gold_mixed.doc_spans(doc), pred_mixed.doc_spans(doc))  # noqa: E731
            any_mask = gold_mixed.fragmented | pred_mixed.fragmented
            masks = (gold_mixed.fragmented, any_mask) if any_mask.any() else None
        elif gold is None or pred is None:
            gold_docs = [read_doc_spans(d, "gold", offset + i, unit) for i, d in enumerate(gold_docs)]
            pred_docs = [read_doc_spans(d, "pred", offset + i, unit) for i, d in enumerate(pred_docs)]
            gold, pred = self._side(gold_docs), self._side(pred_docs)
            spans_of = lambda doc: (gold_docs[doc], pred_docs[doc])  # noqa: E731
            masks = _fragment_masks(gold_docs, pred_docs, range(len(gold_docs)))
        else:
            spans_of = lambda doc: (  # noqa: E731
                read_doc_spans(gold_docs[doc], "gold", offset + doc, unit),
                read_doc_spans(pred_docs[doc], "pred", offset + doc, unit),
            )
        self._score(gold, pred, len(gold_docs), spans_of, masks, mixed)

    def outcome_parts(self, scheme: str, start: int = 0) -> List[Tuple[int, Any]]:
        """The (document offset, outcomes) parts of `scheme` kept so far,
        from the start-th on (what `SchemeResult.outcome_parts` will hold):
        for a caller that takes each batch's errors as documents stream
        through (call after `flush`)."""
        return self._outcomes[scheme][start:]

    def forget_outcomes(self) -> None:
        """Drop every scheme's kept outcomes: a caller that has taken what
        it needs of each batch keeps them from piling up over a corpus."""
        for parts in self._outcomes.values():
            parts.clear()

    def label_ids(self, labels: Sequence[str]) -> numpy.ndarray:
        """The ids of these labels on a Side's label column; a label not
        seen before gets the next id (new labels in sorted order)."""
        ids = self._label_ids
        for label in sorted(set(labels).difference(ids)):
            ids[label] = len(ids)
        return numpy.array(list(map(ids.__getitem__, labels)), dtype=numpy.int64)

    def add_sides(self, gold: Side, pred: Side, n: int) -> None:
        """Score n documents given as Sides: sorted spans on arrays, labels
        as ids from `label_ids`, identical spans counted as often as they
        occur."""
        self.flush()
        names = list(self._label_ids)

        def spans_of(doc: int) -> Tuple[List[Span], List[Span]]:
            return _side_spans(gold, doc, names), _side_spans(pred, doc, names)

        self._score(gold, pred, n, spans_of)

    def _score(
        self,
        gold: Side,
        pred: Side,
        n: int,
        spans_of: Callable[[int], Tuple[Sequence[Span], Sequence[Span]]],
        fragmented: Optional[Tuple[numpy.ndarray, numpy.ndarray]] = None,
        mixed: Any = None,
    ) -> None:
        """Score n documents: those in which no side overlaps itself as one
        batch, the others one by one (spans_of(doc) -> (gold, pred) lists).
        fragmented: (documents with a gold span of several fragments,
        documents with one on either side), boolean masks; None: none has.
        mixed: both sides as `fragment_batch.mixed_side` read them, if so."""
        offset = self.n_docs
        self.n_docs += n
        if self.view != "all":
            gold, pred, spans_of, fragmented = self._viewed(gold, pred, n, spans_of, fragmented)
        if self.relabel is not None:
            gold, pred, spans_of = self._relabelled(gold, pred, offset, spans_of)
        if self.labels is not None:
            allowed = numpy.array([label in self.labels for label in self._label_ids], dtype=bool)
            gold = _select(gold, allowed[gold.label]) if len(allowed) else gold
            pred = _select(pred, allowed[pred.label]) if len(allowed) else pred
        apart = None  # documents of spans of several fragments, batched on their own
        if self.batched:
            alone = overlapping_docs(gold, n) | overlapping_docs(pred, n)
            if fragmented is not None:
                if self.kept is not None:  # the errors show the fragments
                    alone |= fragmented[1]
                else:
                    apart = fragmented[1]
        else:
            alone = numpy.ones(n, dtype=bool)
        rows = None
        if self.per_doc:
            rows = {s: numpy.zeros((n, len(self._count_names[s])), dtype=numpy.int64) for s in self.schemes}
        if apart is not None:
            columns = mixed if self.view == "all" and self.relabel is None else None
            self._add_fragmented(apart, n, offset, spans_of, rows, columns)
            alone_or_apart = alone | apart
        else:
            alone_or_apart = alone
        if alone.any():
            for doc in numpy.flatnonzero(alone & ~apart if apart is not None else alone).tolist():
                self._add_document(doc, offset, *spans_of(doc), rows)
        if alone_or_apart.any():
            gold = _select(gold, ~alone_or_apart[gold.doc])
            pred = _select(pred, ~alone_or_apart[pred.doc])
        if len(gold.doc) or len(pred.doc):
            self._add_batch(Batch(gold, pred, n, len(self._label_ids)), offset, rows)
        if rows is not None:
            for scheme, table in rows.items():
                self._rows[scheme].append(table)

    def _add_fragmented(self, apart: numpy.ndarray, n: int, offset: int, spans_of, rows, mixed) -> None:
        """Score the documents apart marks, with spans of several fragments,
        over position sets: as one batch (`fragment_batch`) those in which
        no two spans of a side share a position, the others one by one.
        mixed: both sides' columns (`fragment_batch.mixed_side`), which
        give the batch without a list of spans, or None."""
        allowed = None
        if self.labels is not None:
            allowed = numpy.array([label in self.labels for label in self._label_ids], dtype=bool)
        if mixed is not None:
            gold, pred, fragments, alone = column_sides(mixed[0], mixed[1], apart, n, allowed)
            for doc in numpy.flatnonzero(alone).tolist():
                gold_spans, pred_spans = spans_of(doc)
                self._add_document(doc, offset, gold_spans, pred_spans, rows)
        else:
            docs = numpy.flatnonzero(apart).tolist()
            lists = [spans_of(doc) for doc in docs]
            gold, pred, fragments, alone = fragment_sides(docs, lists, n, self.label_ids, allowed)
            for doc, (gold_spans, pred_spans) in zip(docs, lists):
                if alone[doc]:
                    self._add_document(doc, offset, gold_spans, pred_spans, rows)
        if len(gold.doc) or len(pred.doc):
            self._add_batch(Batch(gold, pred, n, len(self._label_ids), fragments), offset, rows)

    def _mixed_sides(self, gold_docs: Sequence[Any], pred_docs: Sequence[Any]):
        """Both sides read by `fragment_batch.mixed_side` (tuples among
        which some spans are dicts), or None."""
        gold = mixed_side(gold_docs, self.label_ids)
        pred = None if gold is None else mixed_side(pred_docs, self.label_ids)
        return None if pred is None else (gold, pred)

    def _viewed(self, gold: Side, pred: Side, n: int, spans_of, fragmented):
        """Both sides, spans_of and the masks as the view sees them: the
        documents it drops keep no span."""
        if fragmented is None:
            fragmented = (numpy.zeros(n, dtype=bool), numpy.zeros(n, dtype=bool))
        keep = fragmented[0] if self.view == "disc_docs" else fragmented[1]
        gold, pred = _select(gold, keep[gold.doc]), _select(pred, keep[pred.doc])
        view = self.view

        def viewed_spans_of(doc: int) -> Tuple[Sequence[Span], Sequence[Span]]:
            if not keep[doc]:  # a document the view drops (scored one by one when not batched)
                return [], []
            gold_spans, pred_spans = spans_of(doc)
            return fragment_matching.view_spans(gold_spans, view), fragment_matching.view_spans(pred_spans, view)

        return gold, pred, viewed_spans_of, (fragmented[0] & keep, fragmented[1] & keep)

    def _relabelled(
        self, gold: Side, pred: Side, offset: int, spans_of: Callable[[int], Tuple[Sequence[Span], Sequence[Span]]]
    ):
        """Both sides and spans_of with the label map applied."""
        relabel = cast(Relabel, self.relabel)
        self.label_ids(relabel.targets())
        ids = self._label_ids
        gold, pred = relabel.side("gold", gold, ids, offset), relabel.side("pred", pred, ids, offset)

        def mapped_spans_of(doc: int) -> Tuple[List[Span], List[Span]]:
            gold_spans, pred_spans = spans_of(doc)
            return relabel.spans("gold", gold_spans, ids), relabel.spans("pred", pred_spans, ids)

        return gold, pred, mapped_spans_of

    @property
    def unmapped(self) -> Dict[str, Dict[str, int]]:
        """side -> label -> spans: the labels the label map does not name
        (kept as they are); empty without a label map."""
        return {} if self.relabel is None else self.relabel.unmapped

    def _plain_side(self, docs: Sequence[Any]) -> Optional[Side]:
        """The spans of plain (start, end, label) tuples or {"start", "end",
        "label"} dicts (other keys ignored, as `read_span` ignores them),
        checked, sorted and with identical spans once, on arrays; None when
        the input is of another form or has a bad span (read span by span
        then, which says what is wrong)."""
        try:
            lengths = [len(d) for d in docs]
            flat = list(chain.from_iterable(docs))
            if flat and type(flat[0]) is dict:
                if set(map(type, flat)) != {dict} or any(map(contains, flat, repeated("fragments"))):
                    return None
                columns = _DICT_COLUMNS
            elif set(map(len, flat)) - {3}:
                return None
            else:
                columns = _TUPLE_COLUMNS
            starts, ends, labels = (list(map(column, flat)) for column in columns)
        except (TypeError, KeyError):
            return None
        if not (all_ints(starts) and all_ints(ends)):
            return None
        try:
            new_labels = set(labels).difference(self._label_ids)
        except TypeError:  # an unhashable label
            return None
        if any(type(label) is not str for label in new_labels):
            return None
        start = numpy.array(starts, dtype=numpy.int64)
        end = numpy.array(ends, dtype=numpy.int64)
        if (start < 0).any() or (start >= end).any():
            return None
        label = self.label_ids(labels)
        doc = numpy.repeat(numpy.arange(len(lengths)), lengths)
        return sorted_unique(Side(doc, start, end, label))

    def _side(self, docs: List[Sequence[Span]]) -> Side:
        """The spans of checked, sorted documents, on arrays."""
        flat = list(chain.from_iterable(docs))
        # the columns in one pass (itemgetter takes a tuple subclass's item the slow way)
        # (a span of several fragments has a fourth field, its fragments: left out)
        starts, ends, labels = tuple(zip(*flat))[:3] if flat else ((), (), ())
        return Side(
            numpy.repeat(numpy.arange(len(docs)), [len(d) for d in docs]),
            numpy.array(starts, dtype=numpy.int64),
            numpy.array(ends, dtype=numpy.int64),
            self.label_ids(labels),
        )

    def _add_batch(self, batch: Batch, offset: int, rows) -> None:
        names = list(self._label_ids)
        for scheme in self.schemes:
            want = self.per_doc or scheme in self._kept_schemes
            if scheme in SEMEVAL_RULES:
                total, table, cells, units = batch.semeval_counts(scheme, self.min_overlap, names, want)
                totals = self._semeval_totals[scheme]
                for i in range(5):
                    totals[i] += total[i]
            elif scheme == "iou":
                table, cells, units = batch.iou(self.iou_threshold, names, want)
            else:
                table, units = batch.overlap(self.overlap_threshold, want)
                cells = {}
            confusion = self._confusion[scheme]
            for key, count in cells.items():
                confusion[key] = confusion.get(key, 0) + count
            tally = self._tallies[scheme]
            for label_id in numpy.flatnonzero(table.any(axis=1)).tolist():
                row = tally[names[label_id]]
                for i, count in enumerate(table[label_id].tolist()):
                    row[i] += count
            if units is not None:
                self._keep_units(scheme, units, batch, offset, rows, names)

    def _keep_units(self, scheme: str, units: Units, batch: Batch, offset: int, rows, names) -> None:
        count_names = self._count_names[scheme]
        if rows is not None:
            rows[scheme] += per_doc_rows(units.doc, units.code, len(rows[scheme]), len(count_names))
        if scheme not in self._kept_schemes:
            return
        gold_rows = _span_rows(batch.gold, units.gold)
        pred_rows = _span_rows(batch.pred, units.pred)
        block = OutcomeBlock(
            count_names, names, units.doc, units.code, units.kind, gold_rows, units.pred_ptr, pred_rows
        )
        if self.kept == "errors":
            block = block.select(block.kind >= 0)
        if len(block):
            self._outcomes[scheme].append((offset, block))

    def _add_document(self, doc: int, offset: int, gold: Sequence[Span], pred: Sequence[Span], rows) -> None:
        if self.labels is not None:
            gold = [s for s in gold if s[2] in self.labels]
            pred = [s for s in pred if s[2] in self.labels]
        if not gold and not pred:
            return
        fragmented = fragment_matching.has_fragments(gold) or fragment_matching.has_fragments(pred)
        if fragmented:  # spans as sets of positions
            pairs = fragment_matching.fragment_overlaps(gold, pred) if gold and pred else []
        else:
            pairs = find_overlaps(gold, pred) if gold and pred else []
        want = self._want_units
        units: Dict[str, List[Any]] = {s: [] for s in self.schemes}
        if self._semeval:
            self._add_semeval(gold, pred, pairs, units if want else None)
        if "iou" in self._tallies:
            iou_document(
                gold,
                pred,
                pairs,
                self.iou_threshold,
                self._tallies["iou"],
                self._confusion["iou"],
                units["iou"],
                fragment_matching.positions_iou if fragmented else combined_iou,
            )
        if "overlap" in self._tallies:
            overlap_document(
                fragment_matching.sized(gold) if fragmented else gold,
                fragment_matching.sized(pred) if fragmented else pred,
                pairs,
                self.overlap_threshold,
                self._tallies["overlap"],
                units["overlap"] if want else None,
            )
        if not want:
            return
        for scheme, found in units.items():
            if rows is not None:
                row = rows[scheme][doc]
                for code, _, _, _ in found:
                    row[code] += 1
            if scheme not in self._kept_schemes:
                continue
            names = self._count_names[scheme]
            kept = [
                SpanOutcome(
                    doc,
                    names[code],
                    None if kind < 0 else ERROR_KINDS[kind],
                    gold[gi] if gi >= 0 else None,
                    tuple(pred[pi] for pi in members),
                )
                for code, kind, gi, members in found
                if kind >= 0 or self.kept == "outcomes"
            ]
            if kept:
                self._outcomes[scheme].append((offset, kept))

    def _add_semeval(self, gold, pred, pairs, units) -> None:
        candidates: Dict[int, List[Tuple[int, int]]] = defaultdict(list)
        label_candidates: Dict[int, List[Tuple[int, int]]] = defaultdict(list)
        for gi, pi, shared in sorted(pairs, key=lambda pair: (pair[1], pair[0])):
            candidates[pi].append((gi, shared))
            if gold[gi][2] == pred[pi][2]:
                label_candidates[pi].append((gi, shared))
        gold_by_label: Dict[str, List[int]] = defaultdict(list)
        pred_by_label: Dict[str, List[int]] = defaultdict(list)
        for gi, g in enumerate(gold):
            gold_by_label[g[2]].append(gi)
        for pi, p in enumerate(pred):
            pred_by_label[p[2]].append(pi)
        all_gold, all_pred = range(len(gold)), range(len(pred))
        labels = set(gold_by_label) | set(pred_by_label)
        paired = {pred[pi][2] for pi in label_candidates}
        # Per label every span has the label, so `strict` and `exact` count
        # alike: the counts of each leftover rule are made once; a label
        # without a same-label pair misses its gold and spends its predictions.
        by_leftover: Dict[str, List[Tuple[str, Tuple[int, ...]]]] = {}
        for scheme in self._semeval:
            rule = SEMEVAL_RULES[scheme]
            counts = semeval_counts(
                gold,
                pred,
                all_gold,
                all_pred,
                candidates,
                rule,
                self.min_overlap,
                units[scheme] if units is not None else None,
                self._confusion[scheme],
            )
            total = self._semeval_totals[scheme]
            for i in range(5):
                total[i] += counts[i]
            tally = self._tallies[scheme]
            per_label = by_leftover.get(rule.leftover)
            if per_label is None:
                per_label = by_leftover[rule.leftover] = [
                    (
                        label,
                        semeval_counts(
                            gold,
                            pred,
                            gold_by_label.get(label, ()),
                            pred_by_label.get(label, ()),
                            label_candidates,
                            rule,
                            self.min_overlap,
                        )
                        if label in paired
                        else (0, 0, 0, len(gold_by_label.get(label, ())), len(pred_by_label.get(label, ()))),
                    )
                    for label in labels
                ]
            for label, label_counts in per_label:
                row = tally[label]
                for i in range(5):
                    row[i] += label_counts[i]

    def results(self) -> Dict[str, SchemeResult]:
        """RETURNS (Dict[str, SchemeResult]): scheme -> result, in the order
        the schemes were given."""
        self.flush()
        out = {}
        for scheme in self.schemes:
            tally = self._tallies[scheme]
            per_label: Dict[str, Counts]
            totals: Counts
            if scheme in SEMEVAL_RULES:
                per_label = {label: SemEvalCounts(*row) for label, row in tally.items()}
                totals = SemEvalCounts(*self._semeval_totals[scheme])
            else:
                per_label = {label: PRFCounts(*row) for label, row in tally.items()}
                totals = sum(per_label.values(), PRFCounts())
            per_doc = None
            if self.per_doc:
                tables = self._rows[scheme]
                per_doc = (
                    numpy.concatenate(tables)
                    if tables
                    else numpy.zeros((0, len(self._count_names[scheme])), dtype=numpy.int64)
                )
            if scheme == "overlap":
                confusion = overlap_confusion(per_label)
            else:
                confusion = Confusion(self._confusion[scheme], per_label)
            out[scheme] = SchemeResult(
                scheme,
                totals,
                per_label,
                confusion,
                tuple(self._outcomes[scheme]),
                per_doc,
                self.kept if scheme in self._kept_schemes else None,
                self.n_docs,
            )
        return out


@front_door(match=MatchSettings)
def evaluate_spans(
    gold_docs: Iterable[Iterable[Any]],
    pred_docs: Iterable[Iterable[Any]],
    *,
    match: Optional[MatchSettings] = None,
    per_doc: bool = False,
    keep_errors: bool = False,
    keep_outcomes: bool = False,
    **keywords: Unpack[SpanMatchKeywords],
) -> Dict[str, SchemeResult]:
    """Score predicted spans against gold spans under the named schemes.

    gold_docs, pred_docs (Iterable): One list of spans per document, in the
        same order; a span is a (start, end, label) tuple with an exclusive
        end (offsets of any integer type), a {"start", "end", "label"} dict,
        or a spaCy Span (a document may be `doc.ents` or a SpanGroup); a
        discontinuous span is a {"fragments": [[start, end], ...], "label"}
        dict (fragments sorted and merged where they touch or overlap).
        Generators are fine: the documents are read once, a batch at a time.
    match (Optional[MatchSettings]): How spans are matched
        (`MatchSettings(["iou"], iou_threshold=0.3)`); or its fields as the
        keywords below, a keyword given beside the object written over its
        field. spans_key and beta do not apply (a SettingError when set);
        an unknown keyword is a TypeError naming the valid ones.
    schemes (Sequence[str]): strict, exact, partial, type, iou, overlap
        (a string: comma-separated). Required: there is no default scheme.
    iou_threshold, overlap_threshold, min_overlap: As MatchSettings has them.
    labels (Iterable[str]): Score only these labels (after the label map).
    label_map (Mapping): Labels renamed, merged or dropped before matching:
        `{"PERSON": "PER", "NORP": None}` for both sides, or
        `{"gold": {...}, "pred": {...}}`; spans the map makes identical
        count once. Labels it does not name are kept, with a UserWarning
        naming them, or an error with map_unlisted="error".
    unit (Optional[str]): "token" or "char": what the offsets count (None:
        token). Plain spans are scored as given; spaCy Spans give their
        token or character offsets.
    per_doc (bool): Keep one row of counts per document (`result.per_doc`).
    keep_errors (bool): Keep the errors of every scheme (`result.errors`).
    keep_outcomes (bool): Keep every span's outcome (`result.outcomes`).
    view (str): "all" mentions; "disc_docs": only the documents with a
        discontinuous gold span; "disc_mentions": only discontinuous spans,
        predicted against gold (the views of the discontinuous-NER
        literature).
    RETURNS (Dict[str, SchemeResult]): scheme -> result.

    A ratio whose denominator is zero is 0.0. A label in `labels` that
    occurs in neither side gives a UserWarning listing the labels found.
    """
    match = built(match)
    refuse_set(match, ("spans_key", "beta"), "evaluate_spans")
    unit = match.unit or UNITS[0]
    scorer = SpanScorer.from_settings(match, per_doc=per_doc, keep_errors=keep_errors, keep_outcomes=keep_outcomes)
    gold_iter, pred_iter = iter(gold_docs), iter(pred_docs)
    while True:
        gold_chunk = list(islice(gold_iter, scorer.batch_size))
        pred_chunk = list(islice(pred_iter, scorer.batch_size))
        if len(gold_chunk) != len(pred_chunk):
            read = scorer.n_docs
            raise ValueError(
                f"Unequal numbers of documents: "
                f"{_n_docs(gold_docs, gold_iter, read + len(gold_chunk))} gold and "
                f"{_n_docs(pred_docs, pred_iter, read + len(pred_chunk))} predicted. "
                "gold_docs and pred_docs must list the same documents in the same order."
            )
        if not gold_chunk:
            break
        scorer.add_many(gold_chunk, pred_chunk, unit)
    # (the warnings name the caller's line: past this function and its front door)
    warn_unseen_labels(scorer, stacklevel=4)
    note = unmapped_note(scorer.unmapped)
    if note is not None:
        warnings.warn(note, UserWarning, stacklevel=3)
    return scorer.results()


def warn_unseen_labels(scorer: "SpanScorer", stacklevel: int = 3) -> None:
    """A UserWarning for each label of the scorer's `labels` filter that
    occurred in neither gold nor prediction (a typo scores zeros);
    stacklevel as `warnings.warn` takes it, counted from here."""
    if scorer.labels is None:
        return
    seen = scorer.labels_seen
    unseen = sorted(scorer.labels.difference(seen))
    if unseen:
        found = ", ".join(sorted(seen)) or "none"
        warnings.warn(
            f"'labels' names {', '.join(map(repr, unseen))}, found in neither gold nor "
            f"prediction; its scores are zeros. Labels found: {found}",
            UserWarning,
            stacklevel=stacklevel,
        )


def _n_docs(docs: Iterable[Any], rest: Iterable[Any], read: int) -> int:
    """How many documents docs holds, `read` of them read from `rest`."""
    if hasattr(docs, "__len__"):
        return len(cast(Sized, docs))
    return read + sum(1 for _ in rest)


def _fragment_masks(
    gold_docs: Sequence[Sequence[Any]], pred_docs: Sequence[Sequence[Any]], candidates: Iterable[int]
) -> Optional[Tuple[numpy.ndarray, numpy.ndarray]]:
    """(documents with a gold span of several fragments, documents with one
    on either side) among the candidate documents; None when none has."""
    n = len(gold_docs)
    gold_mask = numpy.zeros(n, dtype=bool)
    any_mask = numpy.zeros(n, dtype=bool)
    has = fragment_matching.has_fragments
    for doc in candidates:
        if has(gold_docs[doc]):
            gold_mask[doc] = any_mask[doc] = True
        elif has(pred_docs[doc]):
            any_mask[doc] = True
    return (gold_mask, any_mask) if any_mask.any() else None


def _zeros(n: int) -> List[int]:
    """A row of n zero counts (a new label's tally)."""
    return [0] * n


def _select(side: Side, keep: numpy.ndarray) -> Side:
    return Side(*(column[keep] for column in side))


def _span_rows(side: Side, index: numpy.ndarray) -> numpy.ndarray:
    """(start, end, label id) rows of side's spans at index; (0, 0, -1)
    where the index is -1."""
    rows = numpy.zeros((len(index), 3), dtype=numpy.int64)
    rows[:, 2] = -1
    has = index >= 0
    if has.any():
        at = index[has]
        rows[has] = numpy.stack([side.start[at], side.end[at], side.label[at]], axis=1)
    return rows


def _side_spans(side: Side, doc: int, names: List[str]) -> List[Span]:
    """The spans of one document of a Side (sorted by document, so two
    binary searches find them: scoring every document that overlaps itself
    does not read the whole side each time)."""
    low, high = numpy.searchsorted(side.doc, [doc, doc + 1]).tolist()
    rows = slice(low, high)
    return [
        Span(start, end, names[label])
        for start, end, label in zip(side.start[rows].tolist(), side.end[rows].tolist(), side.label[rows].tolist())
    ]
