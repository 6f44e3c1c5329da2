"""The stream of a pipeline: a spaCy pipeline loaded (`load_pipeline`), run
over the reference docs of a DocBin, each prediction paired with its
reference as it comes (`pipeline_pairs`), and scored (`score_pipeline`).
"""

from collections import deque
from pathlib import Path
from typing import Any, Iterable, Iterator, Optional, Tuple

from ..exceptions import InputError, PathLike
from ..formats import DocPair, PairStats
from ..results.scores import CorpusScores
from ..settings import UNITS, MatchSettings, RunSettings
from .errors import Keep
from .stream import score_pairs

__all__ = ["import_code", "load_pipeline", "pipeline_input", "pipeline_pairs", "score_pipeline", "unzip"]


def import_code(code: Optional[PathLike]) -> None:
    """Import a Python file of registered functions (custom components), as
    `spacy evaluate --code` does."""
    if code is None:
        return
    from spacy.util import import_file

    path = Path(code)
    if not path.is_file():
        raise InputError("file of code not found", path)
    import_file(f"spacy_spanf1_code_{path.stem}", path)


def load_pipeline(model: Any, code: Optional[PathLike] = None) -> Any:
    """A loaded pipeline (a Language is returned as it is), the `code`
    file imported first; an InputError naming the model when spaCy can't
    load it."""
    import_code(code)
    if not isinstance(model, (str, Path)):
        return model
    import spacy

    try:
        return spacy.load(model)
    except (OSError, ValueError) as err:  # spaCy's own: no such model, an unreadable file, a bad config
        lines = str(err).strip().splitlines()
        reason = lines[0] if lines else type(err).__name__
        raise InputError(f"can't load the pipeline: {reason}", model) from None


def pipeline_input(nlp: Any, reference: Any) -> Any:
    """What the pipeline runs on, as spaCy's Corpus makes it for `spacy
    evaluate`: the reference words when the reference doc was built from
    words alone (unknown spaces), else its text."""
    from spacy.tokens import Doc

    if reference.has_unknown_spaces:
        words = [token.text for token in reference]
        spaces = [bool(token.whitespace_) for token in reference]
        return Doc(nlp.vocab, words=words, spaces=spaces)
    return reference.text


def unzip(stream: Iterator[Tuple[Any, Any]]) -> Tuple[Iterator[Any], Iterator[Any]]:
    """Two iterators over a stream of (gold, pred) pairs, read in step (the
    pairing takes one of each in turn, so each queue holds one item)."""
    gold_q: deque = deque()
    pred_q: deque = deque()

    def side(mine: deque) -> Iterator[Any]:
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


def pipeline_pairs(
    nlp: Any,
    refs: Iterable[Any],
    match: MatchSettings,
    run: RunSettings = RunSettings(),
    *,
    sources: Tuple[str, str],
    start: int = 0,
    gold_source: str = "",
    prefix: str = "",
    progress: bool = False,
) -> Tuple[Iterator[DocPair], PairStats]:
    """The pipeline run over the reference docs, each prediction paired
    with its reference as it comes (streaming: a batch of `nlp.pipe` in
    flight), and the pairing's counts (complete once the pairs are read).

    start (int): The index of the first reference doc (a shard's offset).
    gold_source (str): The file the references came from, for messages.
    prefix (str): Put before document names (a shard's file name).
    progress (bool): A progress bar on stderr, when stderr is a terminal
        (a log file or a pipe gets no bar).
    """
    from tqdm import tqdm

    from ..formats.docbin import DOCBIN, doc_document
    from ..formats.pairing import pair_documents

    unit = match.unit or UNITS[0]
    kept_refs: deque = deque()

    def inputs() -> Iterator[Any]:
        for ref in refs:
            kept_refs.append(ref)
            yield pipeline_input(nlp, ref)

    preds = nlp.pipe(inputs(), n_process=run.n_process, batch_size=run.batch_size)
    bar = tqdm(preds, desc="Running pipeline", unit="doc", disable=None if progress else True, leave=False)

    def sides() -> Iterator[Tuple[Any, Any]]:
        for index, pred in enumerate(bar, start):
            ref = kept_refs.popleft()
            gold_doc = doc_document(index, ref, unit, "gold", gold_source)
            pred_doc = doc_document(index, pred, unit, "pred")
            if prefix:
                gold_doc.name = pred_doc.name = prefix + gold_doc.name
            yield gold_doc, pred_doc

    golds, pred_docs = unzip(sides())
    stats = PairStats()
    pairs = pair_documents(
        golds,
        pred_docs,
        format=DOCBIN,
        sources=sources,
        stats=stats,
        options={"unit": unit, "spans_key": match.spans_key},
    )
    return pairs, stats


def score_pipeline(
    nlp: Any,
    refs: Iterable[Any],
    match: MatchSettings,
    run: RunSettings = RunSettings(),
    keep: Keep = Keep(),
    **stream: Any,
) -> CorpusScores:
    """Run the pipeline over the reference docs and score it (no corpus
    checks). stream: the keywords of `pipeline_pairs` (sources, start,
    gold_source, prefix, progress)."""
    pairs, stats = pipeline_pairs(nlp, refs, match, run, **stream)
    return score_pairs(pairs, match, keep=keep, stats=stats, sources=stream["sources"])
