"""Helpers of tests/cli/test_distributed.py:
corpora made from the WNUT17 CoNLL files, pipelines saved to disk, and a
component that kills its worker process (for the fault tests).

This file is also given as `--code` / `code=`: workers import it (by
path) before loading a pipeline that uses `spanf1_test_die`.
"""

import hashlib
import os
import time
from pathlib import Path
from typing import List, Optional, Tuple

from spacy.language import Language

ASSETS = Path(__file__).resolve().parent.parent / "assets" / "wnut17"
#: Env: documents whose text starts with this kill the worker that runs them.
DIE_ON = "SPANF1_TEST_DIE_ON"
#: Env: "once" (default): once per document text, marker files in
#: SPANF1_TEST_DIE_DIR; "always": every time.
DIE_MODE = "SPANF1_TEST_DIE_MODE"
DIE_DIR = "SPANF1_TEST_DIE_DIR"
#: Env: seconds to sleep on every document (a run long enough to interrupt).
SLOW = "SPANF1_TEST_SLOW"


def _die(doc):
    if os.environ.get(SLOW):
        time.sleep(float(os.environ[SLOW]))
    trigger = os.environ.get(DIE_ON)
    if trigger and doc.text.startswith(trigger):
        if os.environ.get(DIE_MODE, "once") == "always":
            os._exit(1)
        marker = Path(os.environ[DIE_DIR]) / hashlib.sha1(doc.text.encode("utf8")).hexdigest()
        try:
            fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return doc
        os.close(fd)
        os._exit(1)
    return doc


if not Language.has_factory("spanf1_test_die"):
    Language.component("spanf1_test_die", func=_die)


def read_conll(path: Path) -> List[Tuple[List[str], List[str]]]:
    sentences, words, tags = [], [], []
    for line in Path(path).read_text(encoding="utf8").splitlines():
        if not line.strip():
            if words:
                sentences.append((words, tags))
            words, tags = [], []
            continue
        word, tag = line.split("\t")[:2]
        words.append(word)
        tags.append(tag)
    if words:
        sentences.append((words, tags))
    return sentences


def _entities(words, tags):
    spans, start, label = [], None, None
    for i, tag in enumerate(tags + ["O"]):
        if start is not None and not tag.startswith("I-"):
            spans.append((start, i, label))
            start = None
        if tag.startswith("B-"):
            start, label = i, tag[2:]
    return spans


def make_docs(
    n_docs: int, files=("dev.conll", "test.conll", "train.conll"), skip_every: int = 0, kill: Optional[List[int]] = None
):
    """n_docs reference Docs (WNUT17 sentences, repeated as needed) with
    gold ents and a span group "sc" (the ents and each entity's first
    token); every skip_every-th doc without annotation; the docs at the
    indices of `kill` start with the text "KILL <i>"."""
    import spacy
    from spacy.tokens import Doc, Span, SpanGroup

    sentences = [s for f in files for s in read_conll(ASSETS / f)]
    vocab = spacy.blank("en").vocab
    docs = []
    kill = set(kill or ())
    for i in range(n_docs):
        words, tags = sentences[i % len(sentences)]
        if i in kill:
            words, tags = ["KILL", str(i)] + words, ["O", "O"] + tags
        doc = Doc(vocab, words=words)
        if not (skip_every and i % skip_every == skip_every - 1):
            ents = [Span(doc, s, e, label=label) for s, e, label in _entities(words, tags)]
            doc.ents = ents
            doc.spans["sc"] = SpanGroup(
                doc, name="sc", spans=ents + [Span(doc, e.start, e.start + 1, label=e.label_) for e in ents]
            )
        docs.append(doc)
    return docs


def patterns(n: int = 300):
    """Entity-ruler patterns from the WNUT17 training entities."""
    found = {}
    for words, tags in read_conll(ASSETS / "train.conll"):
        for s, e, label in _entities(words, tags):
            found.setdefault(" ".join(words[s:e]), label)
            if len(found) >= n:
                break
    return [{"label": label, "pattern": text} for text, label in found.items()][:n]


def make_model(path: Path, *, die: bool = False, ner: bool = False, n_patterns: int = 300) -> Path:
    """A pipeline saved at path: entity_ruler (ents), span_ruler ("sc"),
    optionally the killing component first, optionally a randomly
    initialised `ner` before the ruler (real CPU work per doc; its
    predictions are overwritten by the ruler only where it matches)."""
    import spacy
    from spacy.training import Example

    nlp = spacy.blank("en")
    if die:
        nlp.add_pipe("spanf1_test_die")
    if ner:
        nlp.add_pipe("ner")
    ruler = nlp.add_pipe("entity_ruler", config={"overwrite_ents": True})
    spans = nlp.add_pipe("span_ruler", config={"spans_key": "sc"})
    if ner:  # initialised first: the rulers run their patterns through the pipeline
        docs = make_docs(50)
        examples = [Example(nlp.make_doc(d.text), d) for d in docs]
        nlp.initialize(lambda: examples)
    pats = patterns(n_patterns)
    ruler.add_patterns(pats)
    spans.add_patterns(pats)
    nlp.to_disk(path)
    return path
