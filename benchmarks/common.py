"""What the benchmarks share: where the reference libraries installed apart
are (`find_references`), the clock the timers read (`clock`), a timer of
repeated calls (`timed`), where generated spans go (`spaced_spans`), the
text of generated words (`spaced_text`), and a
WNUT17 pipeline and corpus for the sharded runs.

The benchmarks import nothing from tests/; the references that are not pip
packages (the Feedback Prize metric in pandas) and the IOB2 tags of spans
that seqeval and spaCy read are written once in transcriptions/, which the
tests import too. Heavy libraries (pandas, spaCy) are imported inside the
functions that use them.
"""

import os
import statistics
import sys
import time
from pathlib import Path
from typing import Callable, Dict, List, Sequence, Tuple

import typer

#: The checkout the benchmarks run in.
ROOT = Path(__file__).resolve().parent.parent

#: Where `make references` installs the reference libraries that register
#: spaCy entry points (presidio-evaluator, spacy-llm:
#: tests/spacy-plugin-references.txt), apart from the environment, so that a
#: plain spaCy pipeline load never imports them.
REFERENCES = ROOT / "build" / "references"


def find_references() -> None:
    """Put REFERENCES on sys.path, appended, so that the environment's own
    packages come first. Only a benchmark that times them calls this: with
    it, every `spacy.load` imports their entry points."""
    if str(REFERENCES) not in sys.path:
        sys.path.append(str(REFERENCES))


#: The environment variable that picks the clock of `clock`: "wall"
#: (time.perf_counter, the default) or "cpu" (time.process_time, this
#: process's CPU time, which the machine's other load moves less; a
#: figure of code that waits or runs other processes is then not comparable).
CLOCK_VARIABLE = "SPANF1_BENCH_CLOCK"
CLOCKS: Dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}


def clock() -> Callable[[], float]:
    """The clock the timed regions read, as CLOCK_VARIABLE names it."""
    name = os.environ.get(CLOCK_VARIABLE, "wall")
    if name not in CLOCKS:
        raise SystemExit(f"{CLOCK_VARIABLE}={name!r} is not a clock; valid: {', '.join(CLOCKS)}")
    return CLOCKS[name]


def timed(
    function: Callable[[], object], runs: int, pick: Callable[[Sequence[float]], float] = statistics.median
) -> float:
    """The seconds of `runs` calls of function, each timed on its own (on
    `clock()`): their median, or what `pick` makes of them (min: the
    fastest)."""
    now = clock()
    times = []
    for _ in range(runs):
        start = now()
        function()
        times.append(now() - start)
    return pick(times)


def fastest(runs: int, funcs: Dict[str, Callable[[], object]]) -> Dict[str, float]:
    """The CPU seconds (`time.process_time`) of each function's fastest
    call over `runs` rounds, the functions taking turns within a round (a
    shared machine's load then slows them alike), by name in the order
    given."""
    best = {name: float("inf") for name in funcs}
    for _ in range(runs):
        for name, func in funcs.items():
            start = time.process_time()
            func()
            best[name] = min(best[name], time.process_time() - start)
    return best


def print_fastest(runs: int, tasks: Dict[str, Callable[[], object]]) -> List[float]:
    """`fastest` of the tasks, one line each in milliseconds; RETURNS the
    seconds in the order given."""
    best = fastest(runs, tasks)
    for name, seconds in best.items():
        print(f"{name:40s} {seconds * 1000:9.1f} ms")
    return list(best.values())


#: The options of a benchmark that checks a seeded corpus against a
#: reference and times both: `main(docs: int = DOCS_OPTION, ...)`.
DOCS_OPTION = typer.Option(10000, help="documents")
RUNS_OPTION = typer.Option(5, help="timed runs of each")
SEED_OPTION = typer.Option(0, help="the corpus's seed")
TARGETS_OPTION = typer.Option(True, help="exit with status 1 when a target is not met")


def spaced_text(words: Sequence[str]) -> Tuple[str, List[int]]:
    """The words joined by single spaces, and the character where each
    starts."""
    starts, position = [], 0
    for word in words:
        starts.append(position)
        position += len(word) + 1
    return " ".join(words), starts


def spaced_spans(rng, n_tokens: int):
    """(start, length) of spans of 1-3 tokens laid left to right over a
    document of n_tokens tokens, 1-6 tokens apart (neither side of a
    generated corpus overlaps itself), drawn from rng (a random.Random) as
    they are asked for."""
    k = rng.randint(0, 3)
    while k < n_tokens - 3:
        length = rng.choice((1, 1, 2, 3))
        yield k, length
        k += length + rng.randint(1, 6)


#: The WNUT17 CoNLL files of the sharded benchmark.
WNUT17 = ROOT / "assets" / "wnut17"


def wnut17_sentences(files: Sequence[str] = ("dev.conll", "test.conll", "train.conll")):
    """(words, token spans) of every WNUT17 sentence of the files, in order,
    as the package's CoNLL reader reads them."""
    from spacy_spanf1.formats import read_conll

    return [
        (doc.tokens, [(s.start, s.end, s.label) for s in doc.spans])
        for name in files
        for doc in read_conll(WNUT17 / name)
    ]


def wnut17_docs(n_docs: int):
    """n_docs reference Docs (WNUT17 sentences, repeated as needed) with gold
    ents and a span group "sc" (the ents and each entity's first token)."""
    import spacy
    from spacy.tokens import Doc, Span, SpanGroup

    sentences = wnut17_sentences()
    vocab = spacy.blank("en").vocab
    docs = []
    for i in range(n_docs):
        words, spans = sentences[i % len(sentences)]
        doc = Doc(vocab, words=words)
        ents = [Span(doc, s, e, label=label) for s, e, label in spans]
        doc.ents = ents
        doc.spans["sc"] = SpanGroup(
            doc, name="sc", spans=ents + [Span(doc, e.start, e.start + 1, label=e.label_) for e in ents]
        )
        docs.append(doc)
    return docs


def wnut17_model(path: Path, n_patterns: int = 300) -> Path:
    """A pipeline saved at path that trains nothing: a randomly initialised
    `ner` (real CPU work per document), then an entity_ruler (ents) and a
    span_ruler ("sc") with n_patterns WNUT17 training entities."""
    import spacy
    from spacy.training import Example

    nlp = spacy.blank("en")
    nlp.add_pipe("ner")
    ruler = nlp.add_pipe("entity_ruler", config={"overwrite_ents": True})
    span_ruler = nlp.add_pipe("span_ruler", config={"spans_key": "sc"})
    # initialised first: the rulers run their patterns through the pipeline
    examples = [Example(nlp.make_doc(d.text), d) for d in wnut17_docs(50)]
    nlp.initialize(lambda: examples)
    found: Dict[str, str] = {}
    for words, spans in wnut17_sentences(("train.conll",)):
        for s, e, label in spans:
            found.setdefault(" ".join(words[s:e]), label)
    patterns = [{"label": label, "pattern": text} for text, label in found.items()][:n_patterns]
    ruler.add_patterns(patterns)
    span_ruler.add_patterns(patterns)
    nlp.to_disk(path)
    return path
