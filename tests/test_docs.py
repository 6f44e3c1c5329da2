"""Every code block of the README works as pasted.

The README is read block by block, in order:

- `python` blocks run top to bottom in one namespace, in a directory that
  holds the files the README talks about (gold.jsonl and pred.jsonl of the
  `compare` example, a small pipeline at training/ner/model-best and its
  corpus at corpus/wnut17-test.spacy);
- `ini` blocks are spaCy config: merged into a config made by
  `spacy init config` (as a user pastes them over its sections) and
  trained for a few steps;
- `bash` blocks run in that directory, each command in turn; in a block
  with `$ ` prompts, the lines after a command are its expected output;
- a `text` block right after a `bash` block is that block's expected
  output (compared line by line, trailing spaces stripped);
- `json` blocks parse, and a `json` block after `<!-- readme: error-record -->`
  has the keys of a real `--errors` record.

A block is left out only with a reason, written before it in the README as
`<!-- readme: skip REASON -->` (e.g. the Quickstart, which runs the whole
workflow and the whole suite). A block without a language is an error, so
that nothing escapes this test.
"""
import json
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
README = ROOT / "README.md"
FENCE = re.compile(
    r"(?:<!-- readme: (?P<directive>[^>]*?) -->\s*\n)?^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)[ \t]*\n"
    r"(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.S | re.M,
)
LANGUAGES = {"python", "ini", "bash", "text", "json", "toml", "yaml"}


def readme_blocks():
    """(line, language, directive, body) of every fenced block, and the
    indices of the blocks that come right after another (nothing but blank
    lines between them)."""
    text = README.read_text(encoding="utf-8")
    blocks, adjacent, previous_end = [], set(), None
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start("lang")) + 1
        body = textwrap.dedent(match["body"])  # a block inside a list item is indented
        if previous_end is not None and not text[previous_end:match.start()].strip():
            adjacent.add(len(blocks))
        blocks.append((line, match["lang"], (match["directive"] or "").strip(), body))
        previous_end = match.end()
    return blocks, adjacent


BLOCKS, ADJACENT = readme_blocks()


def test_every_block_has_a_known_language_and_skips_say_why():
    assert len(BLOCKS) > 10
    for line, lang, directive, _ in BLOCKS:
        assert lang in LANGUAGES, f"README.md:{line}: a ```{lang} block; use one of {sorted(LANGUAGES)}"
        if directive.startswith("skip"):
            assert len(directive.split(None, 1)) == 2, f"README.md:{line}: a skip needs a reason"


# --------------------------------------------------------------------------
# The files the README's examples use
# --------------------------------------------------------------------------

GOLD = [
    {"text": "Ann Lee flew to New York.", "spans": [
        {"start": 0, "end": 7, "label": "PER"}, {"start": 16, "end": 24, "label": "LOC"}]},
    {"text": "Acme hired Bo Chen in Paris.", "spans": [
        {"start": 0, "end": 4, "label": "ORG"}, {"start": 11, "end": 18, "label": "PER"},
        {"start": 22, "end": 27, "label": "LOC"}]},
]
PRED = [
    {"text": "Ann Lee flew to New York.", "spans": [
        {"start": 0, "end": 3, "label": "PER"}, {"start": 16, "end": 24, "label": "ORG"}]},
    {"text": "Acme hired Bo Chen in Paris.", "spans": [
        {"start": 11, "end": 18, "label": "PER"}, {"start": 22, "end": 27, "label": "LOC"},
        {"start": 19, "end": 21, "label": "LOC"}]},
]


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """The README's files: the compare example, and a small rule-based NER
    pipeline (an entity_ruler named "ner") with a corpus to evaluate it on."""
    import spacy
    from spacy.tokens import DocBin

    root = tmp_path_factory.mktemp("readme")
    # the one-file CoNLL example: token, gold tag, predicted tag
    (root / "dev.conll").write_text(
        "Ann B-PER B-PER\nLee I-PER O\nflew O O\n\nAcme B-ORG B-ORG\nhired O O\n", encoding="utf-8"
    )
    for name, records in (("gold.jsonl", GOLD), ("pred.jsonl", PRED)):
        (root / name).write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    nlp = spacy.blank("en")
    ruler = nlp.add_pipe("entity_ruler", name="ner")
    ruler.add_patterns([
        {"label": "PER", "pattern": "Ann"},
        {"label": "ORG", "pattern": [{"LOWER": "new"}, {"LOWER": "york"}]},
        {"label": "PER", "pattern": [{"LOWER": "bo"}, {"LOWER": "chen"}]},
        {"label": "LOC", "pattern": "Paris"},
    ])
    (root / "training" / "ner").mkdir(parents=True)
    nlp.to_disk(root / "training" / "ner" / "model-best")
    reference = spacy.blank("en")
    docs = []
    for record in GOLD:
        doc = reference(record["text"])
        doc.ents = [doc.char_span(s["start"], s["end"], label=s["label"]) for s in record["spans"]]
        docs.append(doc)
    (root / "corpus").mkdir()
    DocBin(docs=docs).to_disk(root / "corpus" / "wnut17-test.spacy")
    return root


# --------------------------------------------------------------------------
# Python
# --------------------------------------------------------------------------


def test_python_blocks_run_as_pasted(workdir, monkeypatch):
    blocks = [(line, body) for line, lang, directive, body in BLOCKS if lang == "python" and not directive.startswith("skip")]
    assert blocks
    monkeypatch.chdir(workdir)
    namespace = {"__name__": "__readme__"}
    for line, body in blocks:
        try:
            exec(compile(body, f"README.md:{line}", "exec"), namespace)
        except Exception as err:  # name the block that failed
            raise AssertionError(f"the Python block at README.md:{line} fails: {type(err).__name__}: {err}") from err


# --------------------------------------------------------------------------
# spaCy config
# --------------------------------------------------------------------------


SECTION = re.compile(r"^\[([^\]]+)\]\s*$", re.M)


def paste_sections(config_text, block):
    """config_text with the block's sections pasted over its own: a section
    of the block replaces the section of that name; new ones are added."""
    pasted = set(SECTION.findall(block))
    kept, keep = [], True
    for line in config_text.split("\n"):
        header = SECTION.match(line)
        if header:
            keep = header.group(1) not in pasted
        if keep:
            kept.append(line)
    return "\n".join(kept).rstrip() + "\n\n" + block


@pytest.mark.slow
def test_config_blocks_train_in_an_init_config(workdir, tmp_path):
    from spacy.cli.init_config import init_config
    from thinc.api import Config

    blocks = [(line, body) for line, lang, directive, body in BLOCKS if lang == "ini" and not directive.startswith("skip")]
    assert blocks
    text = init_config(lang="en", pipeline=["ner"], optimize="efficiency").to_str()
    for line, body in blocks:
        text = paste_sections(text, body)
    try:
        config = Config().from_str(text, interpolate=False)
    except Exception as err:
        raise AssertionError(f"the README's config blocks do not make a valid config: {err}") from err
    config_path = tmp_path / "config.cfg"
    config.to_disk(config_path)
    train = str(workdir / "corpus" / "wnut17-test.spacy")
    result = subprocess.run(
        [sys.executable, "-m", "spacy", "train", str(config_path), "--output", str(tmp_path / "out"),
         "--paths.train", train, "--paths.dev", train,
         "--training.max_steps", "4", "--training.eval_frequency", "2"],
        capture_output=True, text=True, timeout=600,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "ENTS_IOU_F" in result.stdout  # the README's score weights are the training table's columns
    assert (tmp_path / "out" / "model-best").is_dir()


# --------------------------------------------------------------------------
# Shell
# --------------------------------------------------------------------------


def shell_commands(body):
    """(command, expected output lines or None) of a bash block; a line
    ending in a backslash continues on the next."""
    lines = body.rstrip("\n").split("\n")
    prompted = any(line.startswith("$ ") for line in lines)
    commands, current = [], None
    joined, pending = [], ""
    for line in lines:
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        joined.append(pending + line)
        pending = ""
    for line in joined:
        if prompted:
            if line.startswith("$ "):
                current = [line[2:], []]
                commands.append(current)
            elif current is not None:
                current[1].append(line)
        elif line.strip() and not line.lstrip().startswith("#"):
            commands.append([line, None])
    return [(command, output if prompted else None) for command, output in commands]


def shell_cases():
    cases = []
    for i, (line, lang, directive, body) in enumerate(BLOCKS):
        if lang != "bash" or directive.startswith("skip"):
            continue
        following = BLOCKS[i + 1] if i + 1 in ADJACENT else None
        expected = following[3] if following is not None and following[1] == "text" else None
        cases.append(pytest.param(line, body, expected, id=f"line{line}"))
    return cases


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _lines(text):
    """The lines of an output, trailing spaces and runs of blank lines
    dropped (a table's layout is what is compared, not its spacing)."""
    lines = [line.rstrip() for line in ANSI.sub("", text).strip("\n").split("\n")]
    return [line for i, line in enumerate(lines) if line or (i and lines[i - 1])]


@pytest.mark.parametrize("line,body,expected", shell_cases())
def test_shell_blocks_run(workdir, line, body, expected):
    env = dict(os.environ, NO_COLOR="1", COLUMNS="80")
    outputs = []
    for command, prompted_output in shell_commands(body):
        result = subprocess.run(command, shell=True, cwd=workdir, capture_output=True, text=True,
                                env=env, timeout=600)
        assert result.returncode == 0, f"README.md:{line}: `{command}` exits {result.returncode}: {result.stderr[-1500:]}"
        if prompted_output is not None:
            assert _lines(result.stdout) == _lines("\n".join(prompted_output)), f"README.md:{line}: `{command}`"
        outputs.append(result.stdout)
    if expected is not None:
        got = _lines("".join(outputs))
        want = _lines(expected)
        assert [l for l in got if not l.startswith("✔ Saved")][: len(want)] == want, f"README.md:{line}"


def test_error_record_example_has_the_keys_of_a_real_record(workdir):
    blocks = [body for _, lang, directive, body in BLOCKS if lang == "json" and directive == "error-record"]
    assert blocks, "the README shows an --errors record"
    shown = json.loads(blocks[0])
    result = subprocess.run(
        [sys.executable, "-m", "spacy_spanf1", "compare", "gold.jsonl", "pred.jsonl", "-s", "strict",
         "--errors", "readme-errors.jsonl", "--silent"],
        cwd=workdir, capture_output=True, text=True, timeout=300,
    )
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in (workdir / "readme-errors.jsonl").read_text().splitlines()]
    assert shown in records
    for _, lang, directive, body in BLOCKS:
        if lang == "json":
            json.loads(body)


def test_yaml_blocks_parse():
    """(test_distributed.py starts a `dask worker` with the Dask one.)"""
    import yaml

    blocks = [body for _, lang, _, body in BLOCKS if lang == "yaml"]
    assert blocks
    for body in blocks:
        assert isinstance(yaml.safe_load(body), dict)


def test_toml_blocks_parse():
    import tomllib

    blocks = [body for _, lang, _, body in BLOCKS if lang == "toml"]
    assert blocks
    for body in blocks:
        tomllib.loads(body)
