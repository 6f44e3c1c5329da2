"""A sweep of a spaCy span categorizer over a DocBin, and the pipeline's
config with the best threshold set.

`sweep_pipeline` sets the component's threshold to 0 and `max_positive`
to None (on `pipe.cfg`, as spaCy's `find-threshold` sets a component's
threshold), so that every suggested span is kept with its score, runs the
pipeline once over the corpus, and sweeps the spans: one run gives what
`find-threshold` gets from one run per threshold.

Spans are read as the registered scorer reads `Doc.spans[key]`: a
reference doc without the key is skipped; predicted spans are mapped onto
the reference tokens with `Example.get_aligned_spans_x2y` (allow_overlap),
each with its own score; a span predicted twice counts once, with its
highest score.

Scores: spancat keeps a span when its float32 score is >= the threshold.
`find-threshold` sets the threshold as a numpy float64 (a point of
`numpy.linspace`), and NumPy (2 and later) then compares in float64; the
sweep compares the float32 scores, widened exactly to float64, with float64
thresholds, so both keep the same spans at every grid point.
"""

from pathlib import Path, PurePath
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy

from ..corpus import load_pipeline, pipeline_input
from ..exceptions import InputError, PathLike
from ..formats.docbin import read_docbin
from ..settings import UNITS, AnalysisSettings, MatchSettings
from .files import sweep_settled
from .results import SweepResult
from .settings import PIPE, SweepSettings

#: The component's config keys a sweep overrides: keep every suggested span.
OPEN = {"threshold": 0.0, "max_positive": None}


def sweep_spancat(
    model: Any,
    corpus_path: PathLike,
    match: MatchSettings,
    thresholds: SweepSettings,
    analysis: AnalysisSettings,
    *,
    pipe: str = PIPE,
    batch_size: Optional[int] = None,
) -> SweepResult:
    """Run a span categorizer once over a DocBin with every suggested span
    kept, and sweep its scores against the DocBin's spans (the front door,
    with its keywords: `api.sweep_pipeline`).

    model (str, Path or Language): A package name or path, or a loaded
        pipeline (its component's cfg is changed: threshold 0,
        max_positive None).
    corpus_path (PathLike): A .spacy DocBin holding the reference spans in
        `Doc.spans[key]`, key the component's spans key.
    match (MatchSettings): schemes, unit (None: token), iou_threshold,
        overlap_threshold, min_overlap, label_map, map_unlisted (as `sweep`
        takes them).
    thresholds (SweepSettings), analysis (AnalysisSettings): Which
        thresholds; the bootstrap of `sweep`.
    pipe (str): The component's name; it has `cfg["threshold"]` and a
        spans key (spancat).
    batch_size (Optional[int]): Of `nlp.pipe`; None: the pipeline's own.
    RETURNS (SweepResult): As `sweep`; the signature also names the
        component and its spans key ("pipeline").
    """
    unit = match.unit or UNITS[0]
    nlp = load_pipeline(model)
    component = _component(nlp, pipe, model)
    key = component.key
    for name, value in OPEN.items():
        component.cfg[name] = value
    references = read_references(corpus_path, nlp.vocab)
    gold, pred = read_predictions(nlp, references, key, unit, batch_size, pipe)
    if not gold:
        raise InputError(
            f"none of the {len(references)} reference docs has the span group {key!r} that the "
            f"component {pipe!r} writes: nothing to sweep",
            corpus_path,
        )
    result = sweep_settled(gold, pred, unit, match, thresholds, analysis)
    return result.replace(
        signature=result.signature.replace(
            pipeline={
                "pipe": pipe,
                "spans_key": key,
                "n_docs": len(gold),
                "skipped": len(references) - len(gold),
            }
        )
    )


def read_references(corpus_path: PathLike, vocab: Any) -> List[Any]:
    """The docs of a DocBin, with srsly's msgpack decoders looked up once.

    srsly looks its decoders up on every unpack, and the lookup scans the
    environment's entry points; a DocBin unpacks each doc's span groups on
    their own, so that reading a corpus of a few hundred sentences spent
    most of its time scanning entry points. While the docs are read the
    decoders are what the first lookup found (nothing registers one in the
    meantime), and the lookup is srsly's own again after.
    """
    import srsly

    decoders = getattr(getattr(srsly, "msgpack", None), "msgpack_decoders", None)
    if decoders is None or "get_all" in vars(decoders):
        return list(read_docbin(corpus_path, vocab))
    found = decoders.get_all()
    decoders.get_all = lambda: dict(found)
    try:
        return list(read_docbin(corpus_path, vocab))
    finally:
        del decoders.get_all


def _component(nlp: Any, pipe: str, model: Any) -> Any:
    """The component to sweep; an InputError when the pipeline has none of
    that name or it keeps no scored span group."""
    where = str(model) if isinstance(model, (str, PurePath)) else None
    if pipe not in nlp.component_names:
        raise InputError(
            f"the pipeline has no component {pipe!r}; its components: {', '.join(nlp.component_names)}", where
        )
    component = nlp.get_pipe(pipe)
    cfg = getattr(component, "cfg", None)
    if not isinstance(cfg, dict) or "threshold" not in cfg or not hasattr(component, "key"):
        raise InputError(
            f"the component {pipe!r} has no threshold in its cfg and no spans key: a sweep needs a span "
            "categorizer (spancat) that writes scored spans to Doc.spans",
            where,
        )
    return component


def read_predictions(
    nlp: Any, references: Sequence[Any], key: str, unit: str, batch_size: Optional[int] = None, pipe: str = PIPE
) -> Tuple[List[List[tuple]], List[List[tuple]]]:
    """The pipeline over the references' texts (as spaCy's Corpus makes
    them) once: per reference doc with the span group `key`, its spans
    (start, end, label) and the predicted spans with their scores (start,
    end, label, score), in the unit's offsets."""
    component = nlp.get_pipe(pipe)
    capture = _captures(component)
    if capture:
        component.set_annotations = _keep_scores(component)
    try:
        inputs = (pipeline_input(nlp, ref) for ref in references)
        docs = nlp.pipe(inputs, batch_size=batch_size) if batch_size else nlp.pipe(inputs)
        gold_docs: List[List[tuple]] = []
        pred_docs: List[List[tuple]] = []
        for ref, doc in zip(references, docs):
            if key in ref.spans:
                _add_document(ref, doc, key, unit, component if capture else None, gold_docs, pred_docs)
    finally:
        if capture:
            del component.set_annotations  # the class's own again
    return gold_docs, pred_docs


def _captures(component: Any) -> bool:
    """Whether the component is spaCy's multi-label span categorizer, whose
    span group at threshold 0 (max_positive None) holds every suggested
    span with every label: its scores are then read as arrays, without the
    Span objects of that group."""
    from spacy.pipeline.spancat import SpanCategorizer

    return (
        type(component) is SpanCategorizer
        and not component.add_negative_label
        and component.cfg.get("max_positive") is None
    )


def _keep_scores(component: Any) -> Any:
    """A set_annotations that keeps each doc's suggested spans and their
    scores (doc.user_data[SCORED]) instead of writing the span group."""

    def keep(docs: Any, indices_scores: Any) -> None:
        indices, scores = indices_scores
        ops = component.model.ops
        lengths = ops.to_numpy(indices.lengths)
        all_scores = ops.to_numpy(scores)
        offset = 0
        for i, doc in enumerate(docs):
            n = int(lengths[i])
            doc.user_data[SCORED] = (ops.to_numpy(indices[i].dataXd), all_scores[offset : offset + n])
            offset += n

    return keep


#: Where a captured doc keeps its suggested spans and their scores.
SCORED = "spacy_spanf1.scored_spans"


def _add_document(
    ref: Any, doc: Any, key: str, unit: str, component: Any, gold_docs: List[List[tuple]], pred_docs: List[List[tuple]]
) -> None:
    """One reference doc's gold spans and the predictions of its run doc:
    its span group, or with `component` the suggested spans it kept."""
    from spacy.tokens import Span

    from ..integrations.spacy import same_tokens

    if component is None:
        group = doc.spans[key] if key in doc.spans else []
        _add_group(ref, doc, key, unit, group, _scores(group), gold_docs, pred_docs)
        return
    starts, ends, names, scores = _kept_scores(doc, component)
    if unit == "token" and same_tokens(doc, ref):  # no Span objects needed
        gold_docs.append([(s.start, s.end, s.label_) for s in ref.spans[key]])
        pred_docs.append(list(zip(starts, ends, names, scores)))
        return
    group = [Span(doc, s, e, label=label) for s, e, label in zip(starts, ends, names)]
    _add_group(ref, doc, key, unit, group, scores, gold_docs, pred_docs)


def _kept_scores(doc: Any, component: Any) -> Tuple[List[int], List[int], List[str], List[float]]:
    """The starts, ends, labels and scores of every suggested span with
    every label, as `_keep_scores` kept them on the doc."""
    labels = list(component.labels)
    indices, scores = doc.user_data.pop(SCORED, (numpy.zeros((0, 2), dtype=int), numpy.zeros((0, len(labels)))))
    n_labels = len(labels)
    starts = numpy.repeat(indices[:, 0], n_labels).tolist()
    ends = numpy.repeat(indices[:, 1], n_labels).tolist()
    return starts, ends, labels * len(indices), scores.reshape(-1).tolist()


def _add_group(
    ref: Any,
    doc: Any,
    key: str,
    unit: str,
    group: Any,
    scores: List[float],
    gold_docs: List[List[tuple]],
    pred_docs: List[List[tuple]],
) -> None:
    """The gold spans and the scored spans of a group, in the unit's
    offsets, aligned to the reference tokens as the scorer aligns them."""
    from spacy.training import Example

    from ..integrations.spacy import same_tokens

    if unit == "char":
        gold_docs.append([(s.start_char, s.end_char, s.label_) for s in ref.spans[key]])
        pred_docs.append([(s.start_char, s.end_char, s.label_, score) for s, score in zip(group, scores)])
        return
    gold_docs.append([(s.start, s.end, s.label_) for s in ref.spans[key]])
    if same_tokens(doc, ref):
        pred_docs.append([(s.start, s.end, s.label_, score) for s, score in zip(group, scores)])
        return
    example = Example(doc, ref)
    aligned = []
    for span, score in zip(group, scores):
        for a in example.get_aligned_spans_x2y([span], allow_overlap=True):
            aligned.append((a.start, a.end, a.label_, score))
    pred_docs.append(aligned)


def _scores(group: Any) -> List[float]:
    """The scores of a predicted span group (attrs["scores"]), as Python
    floats; an empty group has none."""
    if not len(group):
        return []
    scores = group.attrs.get("scores")
    if scores is None or len(scores) != len(group):
        raise InputError(
            f"the component's span group {group.name!r} holds {len(group)} spans but "
            f"{'no' if scores is None else len(scores)} scores in attrs['scores']"
        )
    return [float(s) for s in scores]


def write_config(
    model: Any, output: PathLike, best: Union[SweepResult, float], *, pipe: str = PIPE, scheme: Optional[str] = None
) -> Dict[str, Any]:
    """Write the pipeline's config with a threshold set on the component
    (`components.<pipe>.threshold`).

    model (str, Path or Language): The pipeline whose config is written
        (a directory's config.cfg is read without loading the pipeline).
    output (PathLike): The .cfg file to write.
    best (SweepResult or float): A sweep (its best threshold under
        `scheme`, by default the primary, first scheme), or a threshold.
    RETURNS (Config): The config written.

    A pipeline made from the config (`spacy train`, `load_model_from_config`)
    gets the threshold. A saved pipeline keeps its component's own cfg file,
    which `spacy.load` reads after the config: to change a saved pipeline,
    set `nlp.get_pipe(pipe).cfg["threshold"]` and save it again.
    """
    threshold = best_of(best, scheme)
    config = _config(model)
    components = config.get("components", {})
    if pipe not in components:
        raise InputError(
            f"the pipeline's config has no component {pipe!r}; its components: {', '.join(components)}",
            str(model) if isinstance(model, (str, PurePath)) else None,
        )
    components[pipe]["threshold"] = threshold
    config.to_disk(Path(output))
    return config


def best_of(best: Union[SweepResult, float], scheme: Optional[str] = None) -> float:
    """The threshold to write: a number as it is, or a sweep's best under
    the scheme (default: its primary); an InputError when there is none."""
    if not isinstance(best, SweepResult):
        return float(best)
    scheme = best.primary if scheme is None else scheme
    found = best[scheme].best
    if found is None:
        raise InputError(f"the sweep has no best threshold under {scheme!r}: F is 0 at every threshold")
    return float(found.threshold)


def _config(model: Any) -> Any:
    """The config of a pipeline: config.cfg of a directory, else the
    loaded pipeline's."""
    if isinstance(model, (str, PurePath)) and (Path(model) / "config.cfg").is_file():
        from spacy.util import load_config

        return load_config(Path(model) / "config.cfg", interpolate=False)
    return load_pipeline(model).config.copy()
