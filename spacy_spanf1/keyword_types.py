"""The typed keywords of the front doors, declared once.

A door takes a settings object (`match=MatchSettings(...)`) or its fields
as keywords. Each settings object's keywords are a TypedDict here, and a
door names the ones it takes as `**keywords: Unpack[...]`: type checkers
and editors check every keyword, `help()` lists each one (`front_door`
writes them into the door's signature), and a door that takes a subset of
a settings object says so by the TypedDict it unpacks. The reader settings
of the registered formats are a TypedDict too (`ReaderKeywords`); a layout
test keeps it equal to what the formats declare.
"""

from typing import Any, Callable, Iterable, Optional, Sequence, TypedDict, Union

__all__ = [
    "AgreementKeywords",
    "AnalysisKeywords",
    "BootstrapKeywords",
    "ExampleMatchKeywords",
    "FileMatchKeywords",
    "FormatKeywords",
    "IntervalKeywords",
    "KeepKeywords",
    "Labels",
    "LabelledMatchKeywords",
    "LabelledOptionKeywords",
    "MatchKeywords",
    "MatchOptionKeywords",
    "ReadKeywords",
    "ReaderKeywords",
    "RunKeywords",
    "SchemeKeywords",
    "Schemes",
    "SpanGroupKeywords",
    "SpanMatchKeywords",
    "SpanOptionKeywords",
    "SweepDoorKeywords",
    "SweepKeywords",
]

#: Scheme names: a list, or a comma-separated string.
Schemes = Union[str, Sequence[str]]
#: Labels: a list, or a comma-separated string; None: every label.
Labels = Optional[Union[str, Iterable[str]]]


class MatchOptionKeywords(TypedDict, total=False):
    """How spans are matched, but for the schemes (MatchSettings): the
    fields every span door takes."""

    unit: Optional[str]
    iou_threshold: float
    overlap_threshold: float
    min_overlap: Optional[float]
    label_map: Any
    map_unlisted: str


class LabelledOptionKeywords(MatchOptionKeywords, total=False):
    """And the labels scored."""

    labels: Labels


class SpanOptionKeywords(LabelledOptionKeywords, total=False):
    """And the view of discontinuous spans (mentions, which take schemes
    of their own besides)."""

    view: str


class SchemeKeywords(TypedDict, total=False):
    """The schemes scored (MatchSettings)."""

    schemes: Schemes


class MatchKeywords(SchemeKeywords, MatchOptionKeywords, total=False):
    """The schemes and how their spans are matched (a sweep)."""


class LabelledMatchKeywords(SchemeKeywords, LabelledOptionKeywords, total=False):
    """And the labels scored (the agreement doors)."""


class SpanMatchKeywords(SchemeKeywords, SpanOptionKeywords, total=False):
    """And the view (span lists, breakdowns)."""


class ExampleMatchKeywords(SpanMatchKeywords, total=False):
    """And the span group of spaCy docs (Examples)."""

    spans_key: Optional[str]


class FileMatchKeywords(ExampleMatchKeywords, total=False):
    """Every match setting (files and pipelines): F-beta and relations too."""

    beta: float
    symmetric: Labels
    relation_labels: Labels


class FormatKeywords(TypedDict, total=False):
    """Which formats the files are in (ReadSettings)."""

    format: Optional[str]
    gold_format: Optional[str]
    pred_format: Optional[str]


class ReadKeywords(FormatKeywords, total=False):
    """And the two tag columns of one CoNLL file holding both sides."""

    gold_column: Optional[int]
    pred_column: Optional[int]


class BootstrapKeywords(TypedDict, total=False):
    """The resamples of a bootstrap interval (AnalysisSettings; a sweep
    takes this alone)."""

    bootstrap: Optional[int]


class IntervalKeywords(BootstrapKeywords, total=False):
    """And the rest of the intervals."""

    confidence: float
    method: str
    seed: int
    resample_by: Optional[str]


class AnalysisKeywords(IntervalKeywords, total=False):
    """Every analysis: intervals, a paired test, breakdowns."""

    baseline: Any
    test: str
    alpha: float
    by: Union[str, Sequence[str]]
    buckets: int


class RunKeywords(TypedDict, total=False):
    """How a pipeline runs (RunSettings)."""

    n_process: int
    batch_size: int
    shard_docs: Optional[int]


class AgreementKeywords(TypedDict, total=False):
    """The token figures and the consensus (AgreementSettings)."""

    o_tokens: str
    min_votes: Optional[int]


class SweepKeywords(TypedDict, total=False):
    """Which thresholds a sweep tries (SweepSettings)."""

    thresholds: Optional[Sequence[float]]
    n_thresholds: Optional[int]
    grid: Optional[str]
    n_trials: int


class KeepKeywords(TypedDict, total=False):
    """What a corpus door keeps besides the counts (`corpus.Keep`, whose
    `taken` reads them): keep_errors (False), max_error_docs (None: every
    document with errors), on_errors (None), per_doc (False)."""

    keep_errors: bool
    max_error_docs: Optional[int]
    on_errors: Optional[Callable[..., None]]
    per_doc: bool


class SpanGroupKeywords(TypedDict, total=False):
    """The span group of DocBins, a reader setting where a door's match
    settings take none (agreement and sweeps of files:
    `front_door(reader_settings=("spans_key",))`)."""

    spans_key: Optional[str]


class SweepDoorKeywords(MatchKeywords, SweepKeywords, BootstrapKeywords, total=False):
    """The keywords of a sweep of scored spans (`sweep`, `sweep_pipeline`)."""


class ReaderKeywords(TypedDict, total=False):
    """The reader settings of the registered formats (and of pairing,
    `missing_pred`), but for `spans_key`, a match keyword where a door
    takes it. A third-party format's own go through
    `ReadSettings(options=...)`, or as keywords no type checker knows."""

    annotator: Optional[str]
    fragment_relation: Optional[str]
    fragments: Optional[str]
    fuzzy: Optional[float]
    ground: Optional[str]
    kb_column: Optional[int]
    kb_from: Optional[str]
    label_names: Any
    missing_pred: Optional[str]
    model_version: Optional[str]
    newlines: Optional[str]
    pred_annotator: Optional[str]
    pred_from: Optional[str]
    tag_column: Optional[int]
    tag_field: Optional[str]
    tag_mode: Optional[str]
    tag_scheme: Optional[str]
    text_field: Optional[str]
    text_mismatch: Optional[str]
    token_field: Optional[str]
