"""Plain helpers shared by the test modules; the fixtures are in conftest.py.
The benchmarks share nothing with them (they have benchmarks/common.py);
the references that are not pip packages, which both run, are written once
in transcriptions/ at the top of the checkout.

pyproject.toml's pytest `pythonpath` puts `tests/` on sys.path, so every
module, in any subdirectory, imports these as `from helpers import ...`.
Heavy or optional libraries (pandas, Presidio, typer's CliRunner, pytest
itself) are imported inside the functions that use them, so that importing
this module costs nothing a caller does not use.
"""

import html
import json
import os
import random
import re
import shlex
import shutil
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import SimpleNamespace
from typing import Dict, List, Tuple

import numpy

from spacy_spanf1 import SCHEMES
from spacy_spanf1.spans import Span

#: The checkout under test, and its tests/ folder.
ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent

#: Where `make test` installs the reference libraries that register spaCy
#: entry points (Presidio, spacy-llm: tests/spacy-plugin-references.txt), apart
#: from the environment, so that a plain spaCy pipeline load never imports them.
#: The tests find them here (the benchmarks: benchmarks/common.py);
#: appended, so that the environment's own packages come first.
REFERENCES = ROOT / "build" / "references"
if str(REFERENCES) not in sys.path:
    sys.path.append(str(REFERENCES))


# --------------------------------------------------------------------------
# Files
# --------------------------------------------------------------------------


def write(path, text):
    """Write text as UTF-8, line endings as given (brat offsets count a
    "\\r\\n" as written), and return the path."""
    path.write_text(text, encoding="utf-8", newline="")
    return path


def jsonl(*records) -> str:
    """The records as JSON Lines text, one record a line."""
    return "".join(json.dumps(r) + "\n" for r in records)


def write_jsonl(path, records):
    """Write the records (an iterable of dicts) as a JSON Lines file; return the path."""
    return write(path, jsonl(*records))


def docbin(path, docs):
    """Save the Docs as a spaCy DocBin; return the path."""
    from spacy.tokens import DocBin

    DocBin(docs=docs).to_disk(path)
    return path


def char_offsets(words) -> List[Tuple[int, int]]:
    """(start, end) of each word in " ".join(words)."""
    offsets, pos = [], 0
    for word in words:
        offsets.append((pos, pos + len(word)))
        pos += len(word) + 1
    return offsets


# --------------------------------------------------------------------------
# The readers (spacy_spanf1.formats)
# --------------------------------------------------------------------------

#: One sentence, written by each reader's tests in its tool's own layout,
#: and its gold and predicted spans in characters.
TEXT = "Ada Lovelace met Charles Babbage in London."
# Ada Lovelace 0-12, Charles Babbage 17-32, London 36-42
GOLD = [Span(0, 12, "PER"), Span(17, 32, "PER"), Span(36, 42, "LOC")]
PRED = [Span(0, 3, "PER"), Span(17, 32, "ORG"), Span(36, 42, "LOC")]


def read(name, path, side="gold", unit=None, **options):
    """Every document the registered format `name` reads from path."""
    from spacy_spanf1 import registry

    fmt = registry.formats.get(name)
    return list(fmt.read(path, side=side, unit=unit or fmt.units[0], **options))


def as_jsonl(tmp_path, name, text, spans):
    """The documents read back from a JSONL file of one record (text, spans)."""
    from spacy_spanf1.formats import read_jsonl

    spans = [{"start": s, "end": e, "label": lab} for s, e, lab in spans]
    return list(read_jsonl(write_jsonl(tmp_path / name, [{"text": text, "spans": spans}])))


def counts(gold, pred, unit="char"):
    """{scheme: totals} under strict and iou."""
    from spacy_spanf1.engine.scorer import evaluate_spans

    res = evaluate_spans(gold, pred, schemes=["strict", "iou"], unit=unit)
    return {scheme: result.totals for scheme, result in res.items()}


def figures(data):
    """A scores JSON (`CorpusScores.to_dict()` or a --output file) without
    its signature: for comparing the figures of runs whose reading
    settings differ by design (one CoNLL file with two columns and two
    files)."""
    data = dict(data)
    del data["signature"]
    return data


def one_line(err):
    """The message of a pytest.raises ExceptionInfo, checked to be one line."""
    msg = str(err.value)
    assert "\n" not in msg
    return msg


def read_error(name, path, **options) -> str:
    """The message of the InputError that reading `path` with the reader
    `name` raises (`read`'s keywords), checked to be one line."""
    import pytest

    from spacy_spanf1.formats import InputError

    with pytest.raises(InputError) as err:
        read(name, path, **options)
    return one_line(err)


def load_corpus(gold, pred, fmt=None, **options):
    """The paired stream, read whole (for tests only)."""
    from spacy_spanf1.formats import open_pairs
    from spacy_spanf1.settings import ReadSettings

    pairs = open_pairs(gold, pred, read=ReadSettings(format=fmt), **options)
    read_pairs = list(pairs)
    return SimpleNamespace(
        pairs=read_pairs, n_docs=pairs.stats.documents, skipped=pairs.stats.skipped_names, unit=pairs.unit
    )


# --------------------------------------------------------------------------
# The command line
# --------------------------------------------------------------------------

#: Threads that run CLI subprocesses at once (each mostly waits on imports).
WORKERS = 6


def cli_env(**changes) -> Dict[str, str]:
    """The environment of a CLI subprocess: this checkout's package (and the
    tests' helpers, for Dask workers) first on PYTHONPATH, plain log output,
    UTF-8; `changes` set variables, or remove them where the value is None."""
    paths = [str(ROOT), str(TESTS)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    env = dict(os.environ, WASABI_LOG_FRIENDLY="1", PYTHONIOENCODING="utf-8", PYTHONPATH=os.pathsep.join(paths))
    env.update(changes)
    return {key: value for key, value in env.items() if value is not None}


def run(args, cwd, stdin=None, *, console_script=False, env=None, timeout=300):
    """Run the CLI as a subprocess: python -m spacy_spanf1 (or the installed
    console script) with `args` (str() of each), in cwd. env: changes to
    cli_env()."""
    if console_script:
        exe = shutil.which("spacy-spanf1")
        assert exe, "the spacy-spanf1 console script is not installed (pip install -e .)"
        cmd = [exe]
    else:
        cmd = [sys.executable, "-m", "spacy_spanf1"]
    return subprocess.run(
        [*cmd, *map(str, args)],
        cwd=cwd,
        input=stdin,
        capture_output=True,
        text=True,
        env=cli_env(**(env or {})),
        timeout=timeout,
    )


def run_many(jobs, cwd=None):
    """{name: (args, kwargs of run)} -> {name: CompletedProcess}, run
    concurrently; a job's kwargs may give its own cwd."""
    with ThreadPoolExecutor(WORKERS) as pool:
        futures = {
            name: pool.submit(run, args, kwargs.get("cwd", cwd), **{k: v for k, v in kwargs.items() if k != "cwd"})
            for name, (args, kwargs) in jobs.items()
        }
        return {name: future.result() for name, future in futures.items()}


def python(*args, cwd=ROOT, timeout=300) -> subprocess.CompletedProcess:
    """Run this interpreter with args (e.g. "-m", "spacy", ...) and capture its output."""
    return subprocess.run([sys.executable, *map(str, args)], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def load_file(path):
    """A script or benchmark (a .py file outside the package) imported as a
    module named after its file."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(Path(path).stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def project_step(name):
    """A step of project.yml, in the `all` workflow, and its commands split
    as a shell splits them, its `${vars.NAME}` filled in: (step, commands)."""
    import srsly

    project = srsly.read_yaml(ROOT / "project.yml")
    [step] = [c for c in project["commands"] if c["name"] == name]
    assert name in project["workflows"]["all"]
    filled = (re.sub(r"\$\{vars\.(\w+)\}", lambda m: str(project["vars"][m.group(1)]), line) for line in step["script"])
    return step, [shlex.split(line) for line in filled]


def gum_project(root, n_sentences):
    """A project folder in root with the project's configs and scripts, an
    empty metrics/, and GUM test's first n_sentences converted by the
    project's own script to corpus/gum-test.spacy."""
    shutil.copytree(ROOT / "configs", root / "configs")
    shutil.copytree(ROOT / "scripts", root / "scripts")
    (root / "metrics").mkdir()
    lines = (ROOT / "assets" / "gum" / "gum_test.jsonl").read_text(encoding="utf8").splitlines(keepends=True)
    (root / "gum_test.jsonl").write_text("".join(lines[:n_sentences]), encoding="utf8")
    converted = python("scripts/convert_gum.py", "gum_test.jsonl", "corpus/gum-test.spacy", cwd=root)
    assert converted.returncode == 0, converted.stderr


def run_step(step, commands, cwd):
    """Run a step's commands (each a `python ...` line) in cwd, each to a
    clean exit, and check that it wrote every output it lists."""
    for command in commands:
        assert command[0] == "python"
        done = python(*command[1:], cwd=cwd)
        assert done.returncode == 0, (command, done.stdout, done.stderr)
    for output in step["outputs"]:
        assert (cwd / output).exists(), output


#: `compare` of gold.jsonl and pred.jsonl in the working directory under strict and iou.
COMPARE_JSONL = ("compare", "gold.jsonl", "pred.jsonl", "-s", "strict,iou")


def invoke(args, stdin=None):
    """Run the CLI in-process (typer's CliRunner), in the current directory."""
    from typer.testing import CliRunner

    from spacy_spanf1.cli import app

    return CliRunner().invoke(app, [str(a) for a in args], input=stdin, prog_name="spacy-spanf1")


def assert_clean_failure(result, status, message):
    """Exit status, no traceback, and the message: for status 1, stderr is one
    line, the "✘" line holding it; otherwise a usage error whose text holds
    it. result is a CompletedProcess or a CliRunner Result."""
    code = getattr(result, "returncode", getattr(result, "exit_code", None))
    assert code == status, (result.stdout, result.stderr)
    assert "Traceback" not in result.stderr + result.stdout
    exception = getattr(result, "exception", None)
    assert exception is None or isinstance(exception, SystemExit), repr(exception)
    if status == 1:
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("✘"), result.stderr
        assert message in lines[0], result.stderr
    else:
        assert "Usage:" in result.stderr
        assert message in " ".join(result.stderr.split()), result.stderr


# --------------------------------------------------------------------------
# Statistics (spacy_spanf1.stats): a corpus, and what scipy is given
# --------------------------------------------------------------------------

#: The count family of each scheme, as spacy_spanf1.engine.metrics.prf_of_counts takes it.
FAMILY = {s: "semeval" if s in ("strict", "exact", "partial", "type") else "prf" for s in SCHEMES}


def error_corpus(seed, n_docs, labels="AB", correct=0.6):
    """Gold spans and a system's predictions with every kind of error."""
    rng = random.Random(seed)
    gold, pred = [], []
    for _ in range(n_docs):
        g, p, pos = [], [], 0
        for _ in range(rng.randint(0, 5)):
            start = pos + rng.randint(0, 3)
            end = start + rng.randint(1, 3)
            label = rng.choice(labels)
            pos = end + 1
            g.append((start, end, label))
            r = rng.random()
            if r < correct:
                p.append((start, end, label))
            elif r < correct + 0.15:
                p.append((start, end + 1, label))
            elif r < correct + 0.25:
                p.append((start, end, "C"))
        if rng.random() < 0.3:
            p.append((pos + 1, pos + 2, "A"))
        gold.append(g)
        pred.append(sorted(set(p)))
    return gold, pred


def group_rows_first_seen(rows, groups):
    """The test's own grouping: one summed row per group, in order of first
    occurrence."""
    order, sums = [], {}
    for row, key in zip(rows.tolist(), groups):
        if key not in sums:
            order.append(key)
            sums[key] = [0] * len(row)
        sums[key] = [a + b for a, b in zip(sums[key], row)]
    return numpy.array([sums[key] for key in order], dtype=numpy.int64)


# --------------------------------------------------------------------------
# Headless Chromium
# --------------------------------------------------------------------------

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")


def find_browser():
    """$CHROMIUM, or the first Chromium-like browser on PATH, or None."""
    candidates = [os.environ.get("CHROMIUM")] + [shutil.which(name) for name in BROWSERS]
    return next((c for c in candidates if c), None)


def measure_in_chromium(page, script, workdir):
    """Lay out the HTML page, with `script` injected at the end of its body,
    in headless Chromium; return the JSON the script leaves in
    <pre id="measured">. A missing browser fails the test."""
    import pytest

    browser = find_browser()
    if browser is None:
        pytest.fail(
            "headless Chromium not found: `make test` installs it (apt-get install -y chromium), or set CHROMIUM"
        )
    measure = workdir / "measure.html"
    measure.write_text(page.replace("</body>", script + "</body>"), encoding="utf-8")
    out = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--window-size=1280,2000",
            f"--user-data-dir={workdir / 'profile'}",
            "--dump-dom",
            measure.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    match = re.search(r'<pre id="measured">(.*?)</pre>', out.stdout, re.S)
    assert match, out.stderr[-2000:]
    return json.loads(html.unescape(match.group(1)))


# --------------------------------------------------------------------------
# References: Presidio's SpanEvaluator (iou); the Feedback Prize metric
# (overlap) is in transcriptions/, shared with the benchmarks
# --------------------------------------------------------------------------
#
# SpanEvaluator reads a DataFrame with one row per token (sentence_id, token,
# start_indices, annotation, prediction) holding IO tags: a label or "O".
# IO tags cannot separate two touching spans of one label, and spans may not
# overlap, so `presidio_iou` refuses such input rather than feed Presidio
# something other than what the engine scores.


def _io_tags(spans, n_tokens, side, doc):
    tags = ["O"] * n_tokens
    for start, end, label in spans:
        assert 0 <= start < end <= n_tokens, (side, doc, (start, end, label))
        for i in range(start, end):
            assert tags[i] == "O", f"overlapping {side} spans in doc {doc}"
            tags[i] = label
    for a in spans:
        for b in spans:
            assert not (a[1] == b[0] and a[2] == b[2]), f"touching same-label {side} spans in doc {doc}"
    return tags


def presidio_iou(gold_docs, pred_docs, tokens, threshold):
    """Score with Presidio's SpanEvaluator on token IoU, no skip words.

    tokens: one list of token strings per document.
    RETURNS: ({label: (true_positives, num_predicted, num_annotated)},
              the confusion Counter {(annotation, prediction): n},
              Presidio's EvaluationResult itself).
    """
    # Imported here, not at collection, so that test sessions which never
    # call Presidio do not pay for its slow import; a missing Presidio still
    # fails every test that uses it.
    import pandas as pd
    from presidio_evaluator.evaluation import SpanEvaluator

    rows = []
    for doc, (gold, pred, words) in enumerate(zip(gold_docs, pred_docs, tokens)):
        gold_tags = _io_tags(gold, len(words), "gold", doc)
        pred_tags = _io_tags(pred, len(words), "pred", doc)
        offset = 0
        for word, g, p in zip(words, gold_tags, pred_tags):
            rows.append((doc, word, offset, g, p))
            offset += len(word) + 1
    df = pd.DataFrame(rows, columns=["sentence_id", "token", "start_indices", "annotation", "prediction"])
    evaluator = SpanEvaluator(iou_threshold=threshold, char_based=False, skip_words=[])
    result = evaluator.calculate_score_on_df(df, level="entity")
    per_type = {label: (m.true_positives, m.num_predicted, m.num_annotated) for label, m in result.per_type.items()}
    return per_type, Counter(result.results), result


# --------------------------------------------------------------------------
# Random corpora
# --------------------------------------------------------------------------


def one_of(rng, *choices):
    """One of the (weight, value) `choices`' values, drawn by weight: the
    random corpora list what a system (or an annotator) may make of a span,
    each version with its odds."""
    weights, values = zip(*choices)
    return rng.choices(values, weights)[0]


# --------------------------------------------------------------------------
# Annotators (tests/agreements)
# --------------------------------------------------------------------------


def random_annotations(n_annotators=3, n_docs=40, seed=0, labels=("PER", "LOC", "ORG"), nested=True, missing=0.2):
    """Seeded annotations of the same documents by several annotators:
    (annotations, lengths). Each annotator copies a document's base spans
    with changes (a boundary moved, another label, a span dropped or added;
    with `nested`, a span inside another or crossing it) and skips a share
    `missing` of the documents (None), every document being done by at
    least two annotators."""
    rng = random.Random(seed)
    names = [f"ann{i}" for i in range(n_annotators)]
    lengths = [rng.randint(3, 25) for _ in range(n_docs)]
    out = {name: [] for name in names}
    for n in lengths:
        base = []
        position = 0
        while position < n - 1:
            position += rng.randint(0, 4)
            end = min(n, position + rng.randint(1, 3))
            if position < end:
                base.append((position, end, rng.choice(labels)))
            position = end + 1
        doers = set(rng.sample(names, 2)) | {name for name in names if rng.random() > missing}
        for name in names:
            if name not in doers:
                out[name].append(None)
                continue
            spans = []
            for start, end, label in base:
                spans += one_of(
                    rng,
                    (7, [(start, end, label)]),
                    (1, [(start, end, rng.choice(labels))]),  # another label
                    (1, [(start, min(n, end + 1), label)]),  # the end moved
                    (1, []),  # left out
                )
            if nested and rng.random() < 0.4:
                start = rng.randrange(n)
                spans.append((start, min(n, start + rng.randint(1, 6)), rng.choice(labels)))
            if nested and spans and rng.random() < 0.3:
                spans.append(spans[0])  # listed twice: one span
            rng.shuffle(spans)
            out[name].append(spans)
    return out, lengths


def position_labels(spans, n):
    """Each position's label (or "O") by the agreement rule, written plainly:
    of the spans covering it, the one that starts first, then the longest,
    then the label first in sorted order."""
    labels = []
    for i in range(n):
        covering = [s for s in spans if s[0] <= i < s[1]]
        if not covering:
            labels.append("O")
        else:
            labels.append(min(covering, key=lambda s: (s[0], -s[1], s[2]))[2])
    return labels


# --------------------------------------------------------------------------
# A small scored corpus (the sweep command and its page)
# --------------------------------------------------------------------------

SWEEP_GOLD = [
    {
        "text": "Anna lives in Oslo",
        "spans": [{"start": 0, "end": 4, "label": "PER"}, {"start": 14, "end": 18, "label": "LOC"}],
    },
    {
        "text": "Bruno met Chen",
        "spans": [{"start": 0, "end": 5, "label": "PER"}, {"start": 10, "end": 14, "label": "PER"}],
    },
]
SWEEP_SCORED = [
    [(0, 4, "PER", 0.9), (14, 18, "PER", 0.6)],
    [(0, 5, "PER", 0.8), (6, 9, "LOC", 0.2)],
]
#: The keys of a scheme's sweep in the JSON (`SweepResult.to_dict()`).
SWEEP_SCHEME_KEYS = {
    "scheme",
    "thresholds",
    "p",
    "r",
    "f",
    "ap",
    "best",
    "per_label",
    "per_label_best",
    "calibration",
}
