"""The plain functions every front end calls: `compare_files` (two files,
or one CoNLL file with two tag columns) and `evaluate_pipeline` (a spaCy
pipeline over a DocBin). They read their input as streams, score it with
`score_pairs` and return a `CorpusScores`; they print and write nothing.

Errors name settings (`schemes`, `format`, `unit`, `spans_key`, ...), not
command-line flags: `UsageError` for a bad setting, `InputError` for bad
input (both from `spacy_spanf1.formats`).
"""
import gc
from collections import deque
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from .analysis import AnalysisSettings, analysis_dict, analyze, check_analysis, keep_document
from .errors import check_fraction, check_schemes
from .evaluate import SchemeResult, SpanScorer
from .formats import DocPair, InputError, PairStats, UsageError, check_file, open_pairs
from .formats.base import gc_paused
from .outcomes import SpanError
from .types import PathLike

__all__ = [
    "CorpusScores",
    "InputError",
    "UsageError",
    "compare_files",
    "evaluate_pipeline",
    "prf_from_text",
    "score_pairs",
]

Labels = Union[None, str, Sequence[str]]


@dataclass
class CorpusScores:
    """The scores of a corpus and what is needed to report them.

    results (Dict[str, SchemeResult]): scheme -> result, primary first.
    documents (int): Gold documents read, skipped ones included.
    skipped (int): Gold documents skipped for want of annotation.
    skipped_names (List[str]): The names of the first few skipped ones.
    unit (str): "token" or "char".
    sources (Tuple[str, str]): What the gold and the predicted side came from.
    errors (List[SpanError]): With keep_errors, the primary scheme's errors;
        `SpanError.doc` is a key of `pairs`.
    pairs (Dict[int, DocPair]): With keep_errors, the documents that have
        errors (by their index among the scored documents), and only those.
    labels_seen (List[str]): Every label met in gold or prediction.
    official_score (Optional[float]): Feedback Prize input with the overlap
        scheme: the mean F1 of the gold classes.
    not_scored (Dict[str, Dict[str, int]]): By side, what the readers read
        but did not score (relations, cancelled annotations, ...).
    doc_meta (Dict[str, List[Any]]): Metadata field -> one value per scored
        document (only the fields an analysis asked for).
    doc_lengths (Optional[List[int]]): Tokens (token unit) or characters
        (char unit) of each scored document, for doc_length and density.
    doc_spans (Optional[Tuple[List, List]]): The gold and the predicted span
        lists of every scored document, kept for breakdowns only.
    intervals (Dict[str, SchemeInterval]): scheme -> bootstrap_ci.
    comparison (Dict[str, PairedTest]): scheme -> paired_test(baseline, this).
    breakdowns (Dict[str, Dict[str, List[Bucket]]]): attribute -> scheme ->
        buckets (stats.breakdown).
    breakdown_intervals (Dict[str, Dict[str, List[Optional[SchemeInterval]]]]):
        document attributes: bootstrap_ci of each bucket (None under 2 units).
    baseline_source (Optional[str]): What the baseline's predictions came from.
    baseline_results (Dict[str, SchemeResult]): The baseline's scores.
    analysis (Optional[AnalysisSettings]): The settings of the above.
    """

    results: Dict[str, SchemeResult]
    documents: int = 0
    skipped: int = 0
    skipped_names: List[str] = field(default_factory=list)
    unit: str = "token"
    sources: Tuple[str, str] = ("gold", "predicted")
    errors: List[SpanError] = field(default_factory=list)
    pairs: Dict[int, DocPair] = field(default_factory=dict)
    labels_seen: List[str] = field(default_factory=list)
    official_score: Optional[float] = None
    gold_labels: List[str] = field(default_factory=list, repr=False)
    not_scored: Dict[str, Dict[str, int]] = field(default_factory=dict)
    doc_meta: Dict[str, List[Any]] = field(default_factory=dict, repr=False)
    doc_lengths: Optional[List[int]] = field(default=None, repr=False)
    doc_spans: Optional[Tuple[List[Any], List[Any]]] = field(default=None, repr=False)
    intervals: Dict[str, Any] = field(default_factory=dict, repr=False)
    comparison: Dict[str, Any] = field(default_factory=dict, repr=False)
    breakdowns: Dict[str, Dict[str, List[Any]]] = field(default_factory=dict, repr=False)
    breakdown_intervals: Dict[str, Dict[str, List[Any]]] = field(default_factory=dict, repr=False)
    baseline_source: Optional[str] = None
    baseline_results: Dict[str, SchemeResult] = field(default_factory=dict, repr=False)
    analysis: Optional[AnalysisSettings] = field(default=None, repr=False)

    @property
    def scored(self) -> int:
        return self.documents - self.skipped

    @property
    def primary(self) -> str:
        return next(iter(self.results))

    def to_dict(self) -> Dict[str, Any]:
        """The JSON the command line writes (--output)."""
        data: Dict[str, Any] = {
            "schemes": {name: result.to_dict() for name, result in self.results.items()},
            "documents": self.documents,
            "skipped": self.skipped,
        }
        if self.official_score is not None:
            data["official_score"] = self.official_score
        if self.not_scored:
            data["not_scored"] = self.not_scored
        analysis_dict(self, data)
        return data


def check_settings(
    schemes: Any,
    labels: Labels = None,
    iou_threshold: float = 0.5,
    overlap_threshold: float = 0.5,
    min_overlap: Optional[float] = None,
) -> Tuple[Tuple[str, ...], Optional[List[str]]]:
    """The schemes and labels as lists, every setting checked; UsageError
    naming the setting otherwise. Strings are comma-separated lists."""
    try:
        scheme_list = check_schemes(schemes, setting="schemes")
    except (TypeError, ValueError) as err:
        raise UsageError(str(err), "schemes") from None
    for name, value, optional in (
        ("iou_threshold", iou_threshold, False),
        ("overlap_threshold", overlap_threshold, False),
        ("min_overlap", min_overlap, True),
    ):
        try:
            check_fraction(name, value, optional=optional)
        except ValueError as err:
            raise UsageError(str(err), name) from None
    if isinstance(labels, str):
        labels = [item.strip() for item in labels.split(",") if item.strip()]
    label_list = None if labels is None else list(labels)
    if label_list is not None and not label_list:
        raise UsageError("'labels' is empty; leave it out to score every label", "labels")
    return scheme_list, label_list


#: score_pairs: a full garbage collection every this many batches.
FULL_COLLECTION = 8


def score_pairs(
    pairs: Iterable[DocPair],
    schemes: Sequence[str],
    *,
    labels: Optional[Sequence[str]] = None,
    iou_threshold: float = 0.5,
    overlap_threshold: float = 0.5,
    min_overlap: Optional[float] = None,
    keep_errors: bool = False,
    stats: Optional[PairStats] = None,
    unit: str = "token",
    sources: Tuple[str, str] = ("gold", "predicted"),
    gold_labels: bool = False,
    batch_size: int = 4096,
    per_doc: bool = False,
    meta_fields: Sequence[str] = (),
    doc_lengths: bool = False,
    keep_spans: bool = False,
    by_fields: Sequence[str] = (),
) -> CorpusScores:
    """Score a stream of paired documents, a batch at a time, holding no
    more than a batch of them (and, with keep_errors, the documents that
    have errors of the primary scheme). A distributed run calls it per
    shard and adds the results (`SchemeResult + SchemeResult`).

    stats (Optional[PairStats]): The pairing's counts, read once the stream
        is done (documents, skipped); None: every pair is a document.
    gold_labels (bool): Collect the labels of the gold spans (`gold_labels`).
    per_doc (bool): Keep one row of counts per document (intervals, tests).
    meta_fields (Sequence[str]): Keep these metadata fields of every
        document (`doc_meta`); a document lacking one is an InputError
        (setting "by" for a field of `by_fields`, else "resample_by").
    doc_lengths (bool): Keep each document's length (`doc_lengths`).
    keep_spans (bool): Keep every document's span lists (`doc_spans`), for
        breakdowns: memory grows with the spans.
    RETURNS (CorpusScores): No label check: see `check_labels`.
    """
    schemes = check_schemes(schemes, setting="schemes")
    primary = schemes[0]
    scorer = SpanScorer(
        schemes,
        iou_threshold=iou_threshold,
        overlap_threshold=overlap_threshold,
        min_overlap=min_overlap,
        labels=labels,
        keep_errors=keep_errors,
        batch_size=batch_size,
        per_doc=per_doc,
    )
    kept_state: Dict[str, Any] = {"doc_meta": {name: [] for name in meta_fields}, "doc_lengths": [], "gold": [], "pred": []}
    keep_settings = {"meta_fields": list(meta_fields), "doc_lengths": doc_lengths, "keep_spans": keep_spans,
                     "by_fields": list(by_fields)}
    batch: Dict[int, DocPair] = {}
    kept: Dict[int, DocPair] = {}
    parts = 0
    found_gold = set()
    n = 0

    def keep() -> None:
        nonlocal parts
        docs, parts = scorer.kept_docs(primary, parts)
        for doc in docs:
            kept[doc] = batch[doc]
        batch.clear()

    keeps_documents = bool(meta_fields) or doc_lengths or keep_spans
    # The cyclic garbage collector is paused while the stream is read and
    # collects the young objects once per batch, right after the batch is
    # scored, when its documents are gone, and everything every
    # FULL_COLLECTION batches (no reference cycle a reader or a pipeline
    # makes outlives them): left to itself it walks every document in
    # flight again every few hundred allocations (a third of the time of a
    # JSONL compare).
    with gc_paused():
        for pair in pairs:
            if keeps_documents:
                keep_document(kept_state, pair, keep_settings, unit)
            scorer.add(pair.gold, pair.pred)
            if gold_labels:
                found_gold.update(span.label for span in pair.gold)
            if keep_errors:
                batch[n] = pair
                if len(batch) >= batch_size:
                    scorer.flush()
                    keep()
            n += 1
            if n % batch_size == 0:  # the scorer has just scored a batch
                gc.collect(2 if n % (batch_size * FULL_COLLECTION) == 0 else 1)
    scorer.flush()
    if keep_errors:
        keep()
    results = scorer.results()
    documents, skipped, names = (n, 0, []) if stats is None else (stats.documents, stats.skipped, list(stats.skipped_names))
    scores = CorpusScores(
        results,
        documents,
        skipped,
        names,
        unit,
        sources,
        list(results[primary].errors) if keep_errors else [],
        kept,
        scorer.labels_seen,
        gold_labels=sorted(found_gold),
        not_scored={} if stats is None else stats.not_scored,
        doc_meta=kept_state["doc_meta"],
        doc_lengths=kept_state["doc_lengths"] if doc_lengths else None,
        doc_spans=(kept_state["gold"], kept_state["pred"]) if keep_spans else None,
    )
    return scores


def check_labels(scores: CorpusScores, labels: Optional[Sequence[str]]) -> None:
    """InputError (setting "labels") for a label of `labels` found in neither
    gold nor prediction (known only once the stream is read)."""
    if labels is None:
        return
    found = set(scores.labels_seen)
    for label in labels:
        if label not in found:
            listed = ", ".join(sorted(found)) or "none"
            raise InputError(
                f"the label {label!r} occurs in neither {scores.sources[0]} nor {scores.sources[1]}. "
                f"Labels found: {listed}",
                setting="labels",
            )


def _check_outcome(scores: CorpusScores, stats: PairStats, spans_key: Optional[str]) -> None:
    """No silent zeros: a span group no gold document has, a corpus whose
    every gold document was skipped."""
    if spans_key is not None and spans_key not in stats.spans_keys:
        keys = ", ".join(sorted(stats.spans_keys)) or "none"
        raise InputError(
            f"no gold document in {scores.sources[0]} has the span group {spans_key!r}. "
            f"Span keys found: {keys}",
            setting="spans_key",
        )
    if scores.documents and not scores.scored:
        why = (
            f"none has the span group {spans_key!r}" if spans_key is not None
            else "none has annotation (e.g. no \"spans\" in a JSONL record, no entity annotation in a Doc)"
        )
        raise InputError(
            f"every gold document of {scores.sources[0]} ({scores.documents}) was skipped: {why}; "
            "there is nothing to score"
        )


def compare_files(
    gold_path: PathLike,
    pred_path: Optional[PathLike] = None,
    *,
    schemes: Any = None,
    fmt: Optional[str] = None,
    spans_key: Optional[str] = None,
    unit: Optional[str] = None,
    labels: Labels = None,
    tag_column: Optional[int] = None,
    tag_mode: Optional[str] = None,
    tag_scheme: Optional[str] = None,
    gold_column: Optional[int] = None,
    pred_column: Optional[int] = None,
    iou_threshold: float = 0.5,
    overlap_threshold: float = 0.5,
    min_overlap: Optional[float] = None,
    keep_errors: bool = False,
    per_doc: bool = False,
    bootstrap: Optional[int] = None,
    confidence: float = 0.95,
    seed: int = 12345,
    resample_by: Optional[str] = None,
    baseline: Any = None,
    test: str = "randomization",
    alpha: float = 0.05,
    by: Union[None, str, Sequence[str]] = None,
    buckets: int = 4,
    progress: bool = False,
    client: Any = None,
    **options: Any,
) -> CorpusScores:
    """Score a file of predicted spans against a gold file of the same
    documents, reading both as streams.

    pred_path (Optional[PathLike]): None: gold_path holds both sides (a
        CoNLL file with gold_column and pred_column, or a format that holds
        both, such as a Label Studio export).
    schemes (str or Sequence[str]): The schemes, the first is primary.
    fmt (Optional[str]): A registered format (`formats.format_names()`);
        None: from the file extensions.
    spans_key (Optional[str]): spacy: score `Doc.spans[key]`, not ents.
    unit (Optional[str]): "token" or "char", among the format's units.
    labels: Score only these labels (each must occur in gold or prediction).
    tag_column, tag_mode, tag_scheme: conll (0-based column, negative from
        the end; default -1).
    gold_column, pred_column (Optional[int]): conll: the gold and the
        predicted tag columns of one file (0-based, negative from the end).
    keep_errors (bool): Keep the primary scheme's errors and the documents
        that have them (for error records and the HTML report).
    per_doc (bool): Keep one row of counts per document (result.per_doc).
    bootstrap, confidence, seed, resample_by, baseline, test, alpha, by,
        buckets: the analysis (`analysis.check_analysis`): bootstrap
        intervals of every scheme (`intervals`), a paired test of the
        baseline (a predicted file of the same documents, or a CorpusScores
        of the same gold scored with per_doc) against this run
        (`comparison`), breakdowns by span_length, label, doc_length,
        density or a metadata field (`breakdowns`).
    options: Further reader settings of the format.
    progress (bool): Sharded input: a progress bar over shards on stderr.
    client (Optional[distributed.Client]): Score on this Dask cluster, a
        task per shard (see `distributed.open_client`); None: in-process.
        Two directories of shards (files paired by name; a brat corpus
        directory is one corpus) are sharded input with or without one.
    RETURNS (CorpusScores): Also `official_score` for kaggle input scored
        with the overlap scheme.
    """
    scheme_list, label_list = check_settings(schemes, labels, iou_threshold, overlap_threshold, min_overlap)
    analysis = check_analysis(bootstrap, confidence, seed, resample_by, baseline, test, alpha, by, buckets)
    if analysis.baseline is not None and pred_path is None and not isinstance(analysis.baseline, CorpusScores):
        raise UsageError("'baseline' needs a predicted file 'pred_path' (two files of the same documents)", "baseline")
    from .distributed import is_sharded_compare

    if client is not None or is_sharded_compare(gold_path, pred_path):
        scores = _compare_sharded(
            gold_path, pred_path, client, progress, scheme_list, label_list, fmt=fmt, spans_key=spans_key,
            unit=unit, gold_column=gold_column, pred_column=pred_column, iou_threshold=iou_threshold,
            overlap_threshold=overlap_threshold, min_overlap=min_overlap, keep_errors=keep_errors,
            options=dict(options, tag_column=tag_column, tag_mode=tag_mode, tag_scheme=tag_scheme),
            keep=_keep(analysis, per_doc),
        )
        return _analyze_compare(
            scores, analysis, gold_path, scheme_list, label_list, iou_threshold, overlap_threshold, min_overlap,
            fmt=fmt, spans_key=spans_key, unit=unit, tag_column=tag_column, tag_mode=tag_mode,
            tag_scheme=tag_scheme, client=client, **options,
        )
    gold_options = pred_options = None
    if gold_column is not None or pred_column is not None:
        if gold_column is None or pred_column is None:
            missing = "gold_column" if gold_column is None else "pred_column"
            raise UsageError(f"'gold_column' and 'pred_column' go together; '{missing}' is not set", missing)
        if tag_column is not None:
            raise UsageError("'tag_column' is for two files; with 'gold_column' and 'pred_column' leave it out", "tag_column")
        gold_options, pred_options = {"tag_column": gold_column}, {"tag_column": pred_column}
    elif pred_path is None:
        from .formats import get_format, infer_format

        if not getattr(get_format(infer_format(gold_path, fmt)), "both_sides", False):
            raise UsageError(
                "no predicted file: give 'pred_path', or, for a CoNLL file with both tag columns, "
                "'gold_column' and 'pred_column'",
                "pred_path",
            )
    pairs = open_pairs(
        gold_path, pred_path, fmt, unit=unit, gold_options=gold_options, pred_options=pred_options,
        spans_key=spans_key, tag_column=tag_column, tag_mode=tag_mode, tag_scheme=tag_scheme, **options,
    )
    if gold_options is not None and pairs.fmt.name != "conll":
        raise UsageError(f"'gold_column' and 'pred_column' apply to conll input, not {pairs.fmt.name}", "gold_column")
    official = pairs.fmt.name == "kaggle" and "overlap" in scheme_list
    scores = score_pairs(
        pairs,
        scheme_list,
        labels=label_list,
        iou_threshold=iou_threshold,
        overlap_threshold=overlap_threshold,
        min_overlap=min_overlap,
        keep_errors=keep_errors,
        stats=pairs.stats,
        unit=pairs.unit,
        sources=pairs.sources,
        gold_labels=official,
        **_keep(analysis, per_doc),
    )
    _check_outcome(scores, pairs.stats, spans_key)
    check_labels(scores, label_list)
    if official:
        per_type = scores.results["overlap"].per_type
        f1s = [per_type[c].f1 for c in scores.gold_labels if c in per_type]
        scores.official_score = sum(f1s) / len(f1s) if f1s else 0.0
    return _analyze_compare(
        scores, analysis, gold_path, scheme_list, label_list, iou_threshold, overlap_threshold, min_overlap,
        fmt=fmt, spans_key=spans_key, unit=unit, tag_column=tag_column, tag_mode=tag_mode, tag_scheme=tag_scheme,
        **options,
    )


def _analyze_compare(scores, analysis, gold_path, schemes, labels, iou_threshold, overlap_threshold, min_overlap,
                     client=None, **settings) -> CorpusScores:
    """The intervals, test and breakdowns of a compare run (in-process or
    sharded: both keep the same per-document table); a baseline file is
    scored the same way, keeping its per-document rows."""
    if analysis.active:
        base = analysis.baseline
        if base is not None and not isinstance(base, CorpusScores):
            base = compare_files(
                gold_path, base, schemes=schemes, labels=labels, iou_threshold=iou_threshold,
                overlap_threshold=overlap_threshold, min_overlap=min_overlap, per_doc=True, client=client,
                **settings,
            )
        analyze(scores, analysis, base, _score_settings(labels, iou_threshold, overlap_threshold, min_overlap))
    return scores


def _pipeline_input(nlp, reference):
    """What the pipeline runs on, as spaCy's Corpus makes it for `spacy
    evaluate`: the reference words when the reference doc was built from
    words alone (unknown spaces), else its text."""
    from spacy.tokens import Doc

    if reference.has_unknown_spaces:
        words = [token.text for token in reference]
        spaces = [bool(token.whitespace_) for token in reference]
        return Doc(nlp.vocab, words=words, spaces=spaces)
    return reference.text


def evaluate_pipeline(
    model: Union[str, Any],
    data_path: PathLike,
    *,
    schemes: Any = None,
    spans_key: Optional[str] = None,
    unit: str = "token",
    labels: Labels = None,
    iou_threshold: float = 0.5,
    overlap_threshold: float = 0.5,
    min_overlap: Optional[float] = None,
    keep_errors: bool = False,
    n_process: int = 1,
    batch_size: int = 64,
    progress: bool = False,
    per_doc: bool = False,
    bootstrap: Optional[int] = None,
    confidence: float = 0.95,
    seed: int = 12345,
    resample_by: Optional[str] = None,
    baseline: Any = None,
    test: str = "randomization",
    alpha: float = 0.05,
    by: Union[None, str, Sequence[str]] = None,
    buckets: int = 4,
    shard_docs: Optional[int] = None,
    client: Any = None,
    code: Optional[PathLike] = None,
) -> CorpusScores:
    """Run a pipeline over the texts of a DocBin and score its spans
    against the DocBin's own, streaming (the DocBin is read as spaCy reads
    it; the pipeline's docs are scored as they come).

    model (str or Language): A package name or path, or a loaded pipeline.
    progress (bool): Show a progress bar on stderr.
    per_doc, bootstrap, confidence, seed, resample_by, test, alpha, by,
        buckets: as compare_files.
    baseline (Any): A second pipeline (name, path or Language) run over the
        same DocBin, or a CorpusScores of the same gold scored with
        per_doc: tested against this one (`comparison`).
    data_path: Also several .spacy files, directories or globs of them
        (a list): each file is a shard, scored in turn and merged.
    shard_docs (Optional[int]): Split files into shards of this many docs.
    client (Optional[distributed.Client]): Run on this Dask cluster, a task
        per shard, the pipeline loaded once per worker from `model` (a
        path every worker can read); None: in-process.
    code (Optional[PathLike]): A Python file to import first (custom
        components), in-process and on every worker.
    RETURNS (CorpusScores)
    """
    import spacy
    from tqdm import tqdm

    from .formats.docbin import DOCBIN, doc_document, read_docbin
    from .formats.pairing import pair_documents

    scheme_list, label_list = check_settings(schemes, labels, iou_threshold, overlap_threshold, min_overlap)
    analysis = check_analysis(bootstrap, confidence, seed, resample_by, baseline, test, alpha, by, buckets)
    if unit not in ("token", "char"):
        raise UsageError(f"Unknown unit {unit!r}. Valid units: token, char", "unit")
    if n_process < 1:
        raise UsageError(f"'n_process' must be at least 1, got {n_process}", "n_process")
    from .distributed import is_sharded_pipeline

    settings = dict(spans_key=spans_key, unit=unit, labels=label_list, iou_threshold=iou_threshold,
                    overlap_threshold=overlap_threshold, min_overlap=min_overlap, n_process=n_process,
                    batch_size=batch_size)
    if client is not None or is_sharded_pipeline(data_path, shard_docs):
        from .distributed.run import run_pipeline

        scores = run_pipeline(
            model, data_path, client=client, shard_docs=shard_docs, code=code, progress=progress,
            schemes=scheme_list, keep_errors=keep_errors, keep=_keep(analysis, per_doc), **settings,
        )
        return _analyze_pipeline(scores, analysis, data_path, scheme_list, progress=progress, client=client,
                                 shard_docs=shard_docs, code=code, **settings)
    if not isinstance(data_path, (str, PurePath)):
        data_path = list(data_path)[0]
    if code is not None:
        from .distributed.tasks import import_code

        import_code(code)
    check_file(data_path)
    if isinstance(model, str):
        try:
            nlp = spacy.load(model)
        except Exception as err:  # spaCy raises OSError, ValueError, config errors...
            lines = str(err).strip().splitlines()
            reason = lines[0] if lines else type(err).__name__
            raise InputError(f"can't load the pipeline: {reason}", model) from None
        name = model
    else:
        nlp, name = model, "pipeline"
    refs = read_docbin(data_path, nlp.vocab)
    kept_refs: deque = deque()

    def inputs():
        for ref in refs:
            kept_refs.append(ref)
            yield _pipeline_input(nlp, ref)

    preds = nlp.pipe(inputs(), n_process=n_process, batch_size=batch_size)
    bar = tqdm(preds, desc="Running pipeline", unit="doc", disable=not progress, leave=False)

    def sides():
        for index, pred in enumerate(bar):
            ref = kept_refs.popleft()
            yield doc_document(index, ref, unit, "gold"), doc_document(index, pred, unit, "pred")

    golds, preds_docs = _unzip(sides())
    sources = (str(data_path), f"pipeline {name}")
    stats = PairStats()
    pairs = pair_documents(golds, preds_docs, fmt=DOCBIN, sources=sources, stats=stats,
                           options={"unit": unit, "spans_key": spans_key})
    scores = score_pairs(
        pairs, scheme_list, labels=label_list, iou_threshold=iou_threshold,
        overlap_threshold=overlap_threshold, min_overlap=min_overlap, keep_errors=keep_errors,
        stats=stats, unit=unit, sources=sources, **_keep(analysis, per_doc),
    )
    _check_outcome(scores, stats, spans_key)
    check_labels(scores, label_list)
    return _analyze_pipeline(scores, analysis, data_path, scheme_list, progress=progress, **settings)


def _analyze_pipeline(scores, analysis, data_path, schemes, **settings) -> CorpusScores:
    """The intervals, test and breakdowns of an evaluate run (in-process or
    sharded); a baseline pipeline runs over the same data the same way."""
    if analysis.active:
        base = analysis.baseline
        if base is not None and not isinstance(base, CorpusScores):
            base = evaluate_pipeline(base, data_path, schemes=schemes, per_doc=True, **settings)
        analyze(scores, analysis, base, _score_settings(
            settings["labels"], settings["iou_threshold"], settings["overlap_threshold"], settings["min_overlap"]
        ))
    return scores


def _keep(analysis: AnalysisSettings, per_doc: bool) -> Dict[str, Any]:
    """score_pairs' settings that keep what the analysis needs."""
    keep = analysis.keep()
    keep["per_doc"] = keep["per_doc"] or per_doc
    return keep


def _score_settings(labels, iou_threshold, overlap_threshold, min_overlap) -> Dict[str, Any]:
    """The scoring settings a breakdown re-applies."""
    return {"labels": labels, "iou_threshold": iou_threshold, "overlap_threshold": overlap_threshold,
            "min_overlap": min_overlap}


def _compare_sharded(gold_path, pred_path, client, progress, schemes, labels, *, gold_column, pred_column, **settings):
    """compare_files over two directories of shards, or on a client."""
    from .distributed.run import run_compare

    if gold_column is not None or pred_column is not None or pred_path is None:
        raise UsageError(
            "sharded or distributed scoring takes a gold and a predicted path, not one file with "
            "'gold_column' and 'pred_column'",
            "pred_path",
        )
    return run_compare(gold_path, pred_path, client=client, progress=progress, schemes=schemes, labels=labels, **settings)


def _unzip(stream):
    """Two iterators over a stream of (gold, pred) pairs, read in step (the
    pairing takes one of each in turn, so each queue holds one item)."""
    gold_q: deque = deque()
    pred_q: deque = deque()

    def side(mine):
        while True:
            if not mine:
                try:
                    gold, pred = next(stream)
                except StopIteration:
                    return
                gold_q.append(gold)
                pred_q.append(pred)
            yield mine.popleft()

    return side(gold_q), side(pred_q)


def prf_from_text(text: str, source: str = "stdin") -> Tuple[float, float, float]:
    """Exact-match precision, recall and F1 of the plain format: P, then P
    spans `start end type`, then G, then G spans; ends inclusive; any
    whitespace between items (one line or many).

    RETURNS (Tuple[float, float, float]): P, R, F1, each rounded to 4
        decimals; 0.0 where a denominator is zero. Identical spans count once.
    """
    from .evaluate import evaluate_spans
    from .spans import Span

    items = [(lineno, tok) for lineno, line in enumerate(text.split("\n"), 1) for tok in line.split()]
    if not items:
        raise InputError(
            "no input: expected P, then P lines 'start end type', then G, then G lines", source
        )
    pos = 0

    def take(what: str) -> Tuple[int, str]:
        nonlocal pos
        if pos >= len(items):
            last = items[-1][0]
            raise InputError(f"input ends where {what} was expected", source, last)
        item = items[pos]
        pos += 1
        return item

    def take_int(what: str) -> Tuple[int, int]:
        lineno, tok = take(what)
        try:
            value = int(tok)
        except ValueError:
            raise InputError(f"{what} must be an integer, got {tok!r}", source, lineno) from None
        if value < 0:
            raise InputError(f"{what} must not be negative, got {value}", source, lineno)
        return lineno, value

    def take_spans(side: str) -> List[Span]:
        _, count = take_int(f"the number of {side} spans")
        spans = []
        for i in range(count):
            where = f"{side} span {i + 1} of {count}"
            lineno, start = take_int(f"the start of {where}")
            _, end = take_int(f"the end of {where}")
            _, label = take(f"the type of {where}")
            if end < start:
                raise InputError(f"{where} ends ({end}) before it starts ({start})", source, lineno)
            spans.append(Span(start, end + 1, label))
        return spans

    pred = take_spans("predicted")
    gold = take_spans("gold")
    if pos < len(items):
        lineno, tok = items[pos]
        raise InputError(f"unexpected input {tok!r} after the last gold span", source, lineno)
    result = evaluate_spans([gold], [pred], schemes=["strict"])["strict"]
    return round(result.precision, 4), round(result.recall, 4), round(result.f1, 4)


def prf_from_stdin() -> Tuple[float, float, float]:
    """`prf_from_text` of standard input (UTF-8)."""
    import sys

    data = sys.stdin.buffer.read()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise InputError(f"not UTF-8 text (byte {data[err.start]:#04x})", "stdin") from None
    return prf_from_text(text)
