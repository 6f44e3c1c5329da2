"""The plain functions every front end calls: `compare_files` (two files,
or one CoNLL file with two tag columns) and `evaluate_pipeline` (a spaCy
pipeline over a DocBin). They read their input as streams, score it with
`score_pairs` and return a `CorpusScores`; they print and write nothing.

Errors name settings (`schemes`, `format`, `unit`, `spans_key`, ...), not
command-line flags: `UsageError` for a bad setting, `InputError` for bad
input (both from `spacy_spanf1.formats`).
"""
from collections import deque
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from .errors import check_fraction, check_schemes
from .evaluate import SchemeResult, SpanScorer
from .formats import DocPair, InputError, PairStats, UsageError, check_file, open_pairs
from .matching import SpanError
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
) -> CorpusScores:
    """Score a stream of paired documents, a batch at a time, holding no
    more than a batch of them (and, with keep_errors, the documents that
    have errors of the primary scheme). A distributed run calls it per
    shard and adds the results (`SchemeResult + SchemeResult`).

    stats (Optional[PairStats]): The pairing's counts, read once the stream
        is done (documents, skipped); None: every pair is a document.
    gold_labels (bool): Collect the labels of the gold spans (`gold_labels`).
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
    )
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

    for pair in pairs:
        scorer.add(pair.gold, pair.pred)
        if gold_labels:
            found_gold.update(span.label for span in pair.gold)
        if keep_errors:
            batch[n] = pair
            if len(batch) >= batch_size:
                scorer.flush()
                keep()
        n += 1
    scorer.flush()
    if keep_errors:
        keep()
    results = scorer.results()
    documents, skipped, names = (n, 0, []) if stats is None else (stats.documents, stats.skipped, list(stats.skipped_names))
    return CorpusScores(
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
    )


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
    schemes: Any,
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
    from .distributed import is_sharded_compare

    if client is not None or is_sharded_compare(gold_path, pred_path):
        return _compare_sharded(
            gold_path, pred_path, client, progress, scheme_list, label_list, fmt=fmt, spans_key=spans_key,
            unit=unit, gold_column=gold_column, pred_column=pred_column, iou_threshold=iou_threshold,
            overlap_threshold=overlap_threshold, min_overlap=min_overlap, keep_errors=keep_errors,
            options=dict(options, tag_column=tag_column, tag_mode=tag_mode, tag_scheme=tag_scheme),
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
    )
    _check_outcome(scores, pairs.stats, spans_key)
    check_labels(scores, label_list)
    if official:
        per_type = scores.results["overlap"].per_type
        f1s = [per_type[c].f1 for c in scores.gold_labels if c in per_type]
        scores.official_score = sum(f1s) / len(f1s) if f1s else 0.0
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
    schemes: Any,
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
    shard_docs: Optional[int] = None,
    client: Any = None,
    code: Optional[PathLike] = None,
) -> CorpusScores:
    """Run a pipeline over the texts of a DocBin and score its spans
    against the DocBin's own, streaming (the DocBin is read as spaCy reads
    it; the pipeline's docs are scored as they come).

    model (str or Language): A package name or path, or a loaded pipeline.
    progress (bool): Show a progress bar on stderr.
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
    if unit not in ("token", "char"):
        raise UsageError(f"Unknown unit {unit!r}. Valid units: token, char", "unit")
    if n_process < 1:
        raise UsageError(f"'n_process' must be at least 1, got {n_process}", "n_process")
    from .distributed import is_sharded_pipeline

    if client is not None or is_sharded_pipeline(data_path, shard_docs):
        from .distributed.run import run_pipeline

        return run_pipeline(
            model, data_path, client=client, shard_docs=shard_docs, code=code, progress=progress,
            schemes=scheme_list, labels=label_list, spans_key=spans_key, unit=unit, iou_threshold=iou_threshold,
            overlap_threshold=overlap_threshold, min_overlap=min_overlap, keep_errors=keep_errors,
            n_process=n_process, batch_size=batch_size,
        )
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
        stats=stats, unit=unit, sources=sources,
    )
    _check_outcome(scores, stats, spans_key)
    check_labels(scores, label_list)
    return scores


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
