"""The settings that shape the numbers, one frozen object per concern.

- `MatchSettings`: how spans are matched and counted (schemes, unit, spans
  key, labels, thresholds, min_overlap, beta);
- `ReadSettings`: how the input is read (format, the tag columns of one
  CoNLL file, the reader options of the format);
- `AnalysisSettings`: what is computed besides the scores (bootstrap
  intervals, a paired test against a baseline, breakdowns).

Each default is written here once; every front door (the Python
functions, the spaCy scorer, `hf.make_compute_metrics`, the Dask tasks,
the command line, whose options show these defaults) builds or takes these
objects. A setting is checked once, when its object is built: a bad value
raises `SettingError` naming the setting, the value and what is valid.

The names that settings choose from (schemes, units, tests, interval
methods, breakdown attributes) and the checks of single values are in
`values.py` (the only lists of them); every one of their names can be
imported from here too.
"""

import dataclasses
import numbers
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar, Dict, Iterable, Mapping, Optional, Tuple, Type, TypeVar, Union

from . import values
from .exceptions import SettingError
from .label_map import MAP_UNLISTED, LabelMap, check_label_map
from .values import *  # noqa: F403 (every name of values.py is one of this module: __all__)
from .values import (
    ALPHA,
    ATTRIBUTES,
    CONFIDENCE,
    LINK_SCHEMES,
    METHODS,
    O_TOKENS,
    RELATION_SCHEMES,
    SEED,
    STRING_SCHEMES,
    TESTS,
    VIEWS,
    check_beta,
    check_choice,
    check_count,
    check_fraction,
    check_labels,
    check_n_resamples,
    check_name,
    check_open_fraction,
    check_schemes,
    check_seed,
    check_unit,
    comma_list,
)

#: This module's own names, and every name of values.py (its lists and
#: checks are imported from either).
__all__ = [
    "AgreementSettings",
    "AnalysisSettings",
    "MatchSettings",
    "ReadSettings",
    "RunSettings",
    "default_of",
    *values.__all__,
]


# --------------------------------------------------------------------------
# The settings objects
# --------------------------------------------------------------------------


class Settings:
    """What the settings objects share: a frozen dataclass checked once
    when it is built (`_check` normalizes and validates every field)."""

    if TYPE_CHECKING:
        # Every subclass is a dataclass.
        __dataclass_fields__: ClassVar[Dict[str, Any]]

    def __post_init__(self) -> None:
        for name, value in self._check().items():
            object.__setattr__(self, name, value)

    def _check(self) -> Dict[str, Any]:  # pragma: no cover - every subclass has its own
        raise NotImplementedError

    def replace(self: "S", **changes: Any) -> "S":
        """A copy with some settings changed (checked again)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> Dict[str, Any]:
        """The settings as JSON-ready values (tuples as lists)."""
        return {
            f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self) if f.metadata.get("signed", True)
        }


S = TypeVar("S", bound=Settings)


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, LabelMap):
        return value.to_dict()
    return value


#: The settings of MatchSettings that SpanScorer takes besides the schemes.
SCORER_SETTINGS: Tuple[str, ...] = (
    "iou_threshold",
    "overlap_threshold",
    "min_overlap",
    "labels",
    "label_map",
    "map_unlisted",
    "view",
)


@dataclass(frozen=True)
class MatchSettings(Settings):
    """How spans are matched and counted.

    schemes (Tuple[str, ...]): Required, non-empty; the first is primary.
        A string is a comma-separated list.
    unit (Optional[str]): "token" or "char"; None: the input's own (token
        for spaCy documents and plain spans, the format's default for files).
    spans_key (Optional[str]): Score `Doc.spans[key]` instead of `Doc.ents`.
    labels (Optional[Tuple[str, ...]]): Score only these labels; None: all.
    iou_threshold (float): Combined IoU a gold span needs under `iou`, in (0, 1].
    overlap_threshold (float): Coverage both ways under `overlap`, in (0, 1].
    min_overlap (Optional[float]): Share of a gold span a prediction must
        cover to overlap it (SemEval schemes), in (0, 1]; None: any overlap.
    beta (float): Of the F-beta the spaCy scorer adds when it is not 1.
    label_map (Optional[LabelMap]): Labels renamed, merged or dropped
        before matching (a dict: `label_map.LabelMap.from_dict`); None: none.
    map_unlisted (str): "keep" the labels the map does not name (counted
        in a note) or "error".
    view (str): Which mentions count (`VIEWS`): "all"; "disc_docs", the
        documents with a discontinuous gold span; "disc_mentions", the
        discontinuous spans of both sides only.
    symmetric (Tuple[str, ...]): Relation labels whose (head, tail) and
        (tail, head) are one relation, on both sides; () for none. Given
        with a relation scheme only; signed only when one is named.
    relation_labels (Optional[Tuple[str, ...]]): Score only these relation
        labels and average macro F over them (one without support counts F
        0); None: the labels of both sides. As `symmetric`.
    """

    schemes: Tuple[str, ...] = None  # type: ignore[assignment]  # required: None is an error naming it
    unit: Optional[str] = None
    spans_key: Optional[str] = None
    labels: Optional[Tuple[str, ...]] = None
    iou_threshold: float = 0.5
    overlap_threshold: float = 0.5
    min_overlap: Optional[float] = None
    beta: float = 1.0
    label_map: Optional[LabelMap] = None
    map_unlisted: str = MAP_UNLISTED[0]
    view: str = VIEWS[0]
    symmetric: Tuple[str, ...] = field(default=(), metadata={"signed": False})
    relation_labels: Optional[Tuple[str, ...]] = field(default=None, metadata={"signed": False})

    if TYPE_CHECKING:
        # What it is built from: `_check` makes the schemes and labels tuples.
        def __init__(
            self,
            schemes: Union[str, Iterable[str], None] = ...,
            unit: Optional[str] = ...,
            spans_key: Optional[str] = ...,
            labels: Optional[Iterable[str]] = ...,
            iou_threshold: float = ...,
            overlap_threshold: float = ...,
            min_overlap: Optional[float] = ...,
            beta: float = ...,
            label_map: Union[LabelMap, Mapping[str, Any], None] = ...,
            map_unlisted: str = ...,
            view: str = ...,
            symmetric: Union[str, Iterable[str]] = ...,
            relation_labels: Union[str, Iterable[str], None] = ...,
        ) -> None: ...

    def _check(self) -> Dict[str, Any]:
        schemes = check_schemes(self.schemes)
        relations = self._check_relations(schemes)
        return {
            "schemes": schemes,
            "unit": None if self.unit is None else check_unit(self.unit),
            "spans_key": check_name("spans_key", self.spans_key),
            "labels": check_labels(self.labels),
            "iou_threshold": check_fraction("iou_threshold", self.iou_threshold),
            "overlap_threshold": check_fraction("overlap_threshold", self.overlap_threshold),
            "min_overlap": check_fraction("min_overlap", self.min_overlap, optional=True),
            "beta": check_beta(self.beta),
            "label_map": check_label_map(self.label_map),
            "map_unlisted": check_choice("map_unlisted", self.map_unlisted, MAP_UNLISTED),
            "view": check_choice("view", self.view, VIEWS),
            **relations,
        }

    def _check_relations(self, schemes: Tuple[str, ...]) -> Dict[str, Any]:
        """symmetric and relation_labels, checked: label lists (a string is
        a comma-separated one), given only beside a relation scheme."""
        checked: Dict[str, Any] = {}
        for name, value in (("symmetric", self.symmetric), ("relation_labels", self.relation_labels)):
            if isinstance(value, str):
                value = comma_list(value)
            if name == "symmetric" and value is not None and not list(value):
                value = None
            value = check_labels(value, name)
            if value is not None and not any(scheme in RELATION_SCHEMES for scheme in schemes):
                raise SettingError(
                    f"'{name}' ({','.join(value)}) applies to the relation schemes "
                    f"({', '.join(RELATION_SCHEMES)}), and none is among the schemes {','.join(schemes)}",
                    name,
                )
            checked[name] = () if name == "symmetric" and value is None else value
        return checked

    @property
    def primary(self) -> str:
        return self.schemes[0]

    @property
    def span_schemes(self) -> Tuple[str, ...]:
        """The schemes that match spans (all but the string, link and relation schemes)."""
        return tuple(
            name
            for name in self.schemes
            if name not in STRING_SCHEMES and name not in LINK_SCHEMES and name not in RELATION_SCHEMES
        )

    @property
    def string_schemes(self) -> Tuple[str, ...]:
        return tuple(name for name in self.schemes if name in STRING_SCHEMES)

    @property
    def link_schemes(self) -> Tuple[str, ...]:
        """The link schemes (knowledge-base ids, `links`), scored beside the spans."""
        return tuple(name for name in self.schemes if name in LINK_SCHEMES)

    @property
    def relation_schemes(self) -> Tuple[str, ...]:
        """The relation schemes (scored on the documents' relations)."""
        return tuple(name for name in self.schemes if name in RELATION_SCHEMES)

    def relation_settings(self) -> Dict[str, Any]:
        """The settings of the relation schemes (signed when one is named)."""
        return {"symmetric": list(self.symmetric), "relation_labels": _plain(self.relation_labels)}

    def scorer_settings(self) -> Dict[str, Any]:
        """The keywords of `SpanScorer` (and `evaluate_spans`) these give."""
        return {name: getattr(self, name) for name in SCORER_SETTINGS}


@dataclass(frozen=True)
class ReadSettings(Settings):
    """How the input files are read.

    format (Optional[str]): A registered format; None: from the file
        extensions. (Checked against the registry when the files are opened.)
    gold_format, pred_format (Optional[str]): The format of one side, over
        `format` (a spaCy DocBin gold with JSONL predictions); None: `format`,
        else from that file's extension.
    gold_column, pred_column (Optional[int]): conll: the gold and the
        predicted tag columns of one file holding both sides (0-based,
        negative from the end); given together.
    options (Mapping[str, Any]): The format's reader settings (e.g.
        tag_column, tag_mode, tag_scheme, fragments, annotator); None values
        are dropped. Each format checks its own when it reads.
    """

    format: Optional[str] = None
    gold_format: Optional[str] = None
    pred_format: Optional[str] = None
    gold_column: Optional[int] = None
    pred_column: Optional[int] = None
    options: Mapping[str, Any] = field(default_factory=dict)

    def _check(self) -> Dict[str, Any]:
        for name in ("gold_column", "pred_column"):
            value = getattr(self, name)
            if value is not None and (isinstance(value, bool) or not isinstance(value, numbers.Integral)):
                raise SettingError(f"'{name}' must be an integer column, got {value!r}", name)
        if (self.gold_column is None) != (self.pred_column is None):
            missing = "gold_column" if self.gold_column is None else "pred_column"
            raise SettingError(f"'gold_column' and 'pred_column' go together; '{missing}' is not set", missing)
        if self.gold_column is not None and self.options.get("tag_column") is not None:
            raise SettingError(
                "'tag_column' is for two files; with 'gold_column' and 'pred_column' leave it out", "tag_column"
            )
        options = {name: value for name, value in dict(self.options).items() if value is not None}
        return {
            "format": check_name("format", self.format),
            "gold_format": check_name("gold_format", self.gold_format),
            "pred_format": check_name("pred_format", self.pred_format),
            "options": options,
        }

    @property
    def one_file(self) -> bool:
        """Whether one CoNLL file holds both sides (the two columns)."""
        return self.gold_column is not None


@dataclass(frozen=True)
class AnalysisSettings(Settings):
    """What to compute besides the scores.

    bootstrap (Optional[int]): Resamples of the bootstrap intervals; None:
        no intervals.
    confidence (float): Of the intervals, in (0, 1).
    method (str): Of the intervals: "percentile" or "BCa".
    seed (int): Of every draw (intervals and tests).
    resample_by (Optional[str]): A metadata field: documents with the same
        value are resampled (and swapped) together.
    baseline (Any): The baseline system (a predicted file, a pipeline, or a
        CorpusScores scored with per_doc); None: no comparison. Not part of
        the signature (its path is reported with the comparison).
    test (str): "randomization" or "bootstrap".
    alpha (float): Significance level of the test, in (0, 1).
    by (Tuple[str, ...]): Breakdown attributes: span_length, label,
        doc_length, density, or a metadata field. A string is a
        comma-separated list.
    buckets (int): Intervals of a numeric attribute, at least 1.
    """

    bootstrap: Optional[int] = None
    confidence: float = CONFIDENCE
    method: str = METHODS[0]
    seed: int = SEED
    resample_by: Optional[str] = None
    baseline: Any = field(default=None, compare=False, metadata={"signed": False})
    test: str = TESTS[0]
    alpha: float = ALPHA
    by: Tuple[str, ...] = ()
    buckets: int = 4

    def _check(self) -> Dict[str, Any]:
        by = comma_list(self.by) if self.by is not None else ()
        if not isinstance(by, (list, tuple)):
            raise SettingError(f"'by' must be a list of attribute or field names, got {by!r}", "by")
        for name in by:
            if not isinstance(name, str) or not name:
                raise SettingError(f"'by' holds {name!r}: give attribute or field names", "by")
        return {
            "bootstrap": None if self.bootstrap is None else check_n_resamples(self.bootstrap, "bootstrap"),
            "confidence": check_open_fraction("confidence", self.confidence),
            "method": check_choice("method", self.method, METHODS),
            "seed": check_seed(self.seed),
            "resample_by": check_name("resample_by", self.resample_by),
            "test": _check_test(self.test),
            "alpha": check_open_fraction("alpha", self.alpha),
            "by": tuple(dict.fromkeys(by)),
            "buckets": check_count(self.buckets, "buckets"),
        }

    @property
    def active(self) -> bool:
        """Whether anything is computed besides the scores."""
        return self.bootstrap is not None or self.baseline is not None or bool(self.by)

    @property
    def per_doc(self) -> bool:
        """Whether one row of counts per document must be kept."""
        return self.active

    def meta_fields(self) -> Tuple[str, ...]:
        """The metadata fields to read from every document."""
        names = [name for name in self.by if name not in ATTRIBUTES]
        if self.resample_by is not None and (self.bootstrap is not None or self.baseline is not None):
            names.append(self.resample_by)
        return tuple(dict.fromkeys(names))

    def for_baseline(self) -> "AnalysisSettings":
        """The baseline run keeps per-document rows and nothing else."""
        return AnalysisSettings(seed=self.seed)


@dataclass(frozen=True)
class RunSettings(Settings):
    """How a pipeline is run (nothing here changes a number).

    n_process (int): Processes of `nlp.pipe`, at least 1.
    batch_size (int): Batch size of `nlp.pipe`, at least 1.
    shard_docs (Optional[int]): Split DocBins into shards of this many
        documents; None: a shard per file.
    """

    n_process: int = 1
    batch_size: int = 64
    shard_docs: Optional[int] = None

    def _check(self) -> Dict[str, Any]:
        return {
            "n_process": check_count(self.n_process, "n_process"),
            "batch_size": check_count(self.batch_size, "batch_size"),
            "shard_docs": None if self.shard_docs is None else check_count(self.shard_docs, "shard_docs"),
        }


@dataclass(frozen=True)
class AgreementSettings(Settings):
    """How annotators are compared with each other (besides the matching
    settings of `MatchSettings` and the intervals of `AnalysisSettings`).

    o_tokens (str): Token agreement: "include" keeps every position,
        "exclude" drops the positions every annotator left `O`.
    min_votes (Optional[int]): Consensus: a span is kept when at least this
        many of the annotators who did its document have it; None: a strict
        majority of them.
    """

    o_tokens: str = O_TOKENS[0]
    min_votes: Optional[int] = None

    def _check(self) -> Dict[str, Any]:
        return {
            "o_tokens": check_choice("o_tokens", self.o_tokens, O_TOKENS),
            "min_votes": None if self.min_votes is None else check_count(self.min_votes, "min_votes"),
        }


def _check_test(test: Any) -> str:
    if not isinstance(test, str) or test not in TESTS:
        raise SettingError(f"Unknown test {test!r}. Valid tests: {', '.join(TESTS)}", "test")
    return test


def default_of(cls: Type[Settings], name: str) -> Any:
    """The default of a setting, as its class declares it (the command
    line shows it)."""
    found = {f.name: f for f in dataclasses.fields(cls)}[name]
    if found.default is not dataclasses.MISSING:
        return found.default
    if found.default_factory is not dataclasses.MISSING:
        return found.default_factory()
    return None


def field_names(cls: Type[Settings]) -> Tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))
