"""Every code block of README.md and of every page in docs/ works as pasted.

Each page is read block by block, in order:

- `python` blocks run top to bottom in one namespace per page; a block
  marked `script` (one a page shows as a file to run, e.g. one that
  starts worker processes and so needs `if __name__ == "__main__":`) runs
  alone, saved as a file and run with `python FILE`;
- in a `python` block, a comment after a `print(...)` on the same line is
  what that line prints, compared exactly (trailing spaces stripped), every
  time the line runs; `...` in it stands for any text (`# 0.333...`,
  `# {'cor': 1, ...}`). A comment that describes the output rather than
  shows it goes on the line above the `print`;
- `ini` blocks are spaCy config: a page's blocks are merged into a config
  made by `spacy init config` (as a user pastes them over its sections)
  and trained for a few steps on examples/corpus.spacy;
- `bash` blocks run each command in turn; they hold no `$ ` prompts (a
  block pastes as it is; its output goes in a `text` block after it);
- a `text` block right after a `bash` block is that block's expected
  output (compared line by line, trailing spaces stripped);
- `json`, `yaml` and `toml` blocks parse;
- a directive before a block, `<!-- docs: ... -->` (on README.md
  `<!-- readme: ... -->`), says more: `skip REASON` leaves the block out
  and must give a reason (e.g. the Quickstart, which runs the whole
  workflow and the whole suite); `script` marks a `python` block that runs
  as a file (above); `error-record` marks a `json` block that
  must be a record of a real `--errors` run; `file PATH` marks a block that
  shows a file the repository ships, and must equal it.

Where the blocks run: a temporary directory holding a copy of what the
repository ships for them (examples/, and benchmarks/ and tests/ for the
benchmark's quick run). So the paths the pages show (`examples/gold.jsonl`) resolve
exactly as they do for a user at the repository root of a fresh clone;
nothing is there that the repository does not ship (examples/ must be what
examples/make_examples.py writes, checked below); and whatever the blocks
write lands in the temporary directory, never in the repository. The
blocks write into `examples/out/` (which .gitignore covers), never into
the repository root, where a user pastes them: a block that leaves a new
file or folder in the root fails.

Besides: a block without a language is an error, so that nothing escapes
this test; every page has at least one block that is checked, or NOT_RUN
says why not; links between the pages resolve, anchors included.
"""

import ast
import filecmp
import io
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
PAGES = ["README.md"] + sorted(f"docs/{path.name}" for path in (ROOT / "docs").glob("*.md"))
# Pages that have no block to check, and why.
NOT_RUN = {
    "docs/index.md": "a list of the pages, no code",
    "docs/project.md": "its commands train three pipelines for minutes (tests/test_project.py runs the "
    "workflow's smoke run); its text blocks are the measured output of dated runs",
}
# What the repository ships for the blocks; copied into their working directory.
SHIPPED = ("examples", "benchmarks")

DIRECTIVE = r"<!-- (?:readme|docs): (?P<directive>[^>]*?) -->"
FENCE = re.compile(
    rf"(?:{DIRECTIVE}\s*\n)?^(?P<indent>[ \t]*)```(?P<lang>[\w-]*)[ \t]*\n"
    r"(?P<body>.*?)^(?P=indent)```[ \t]*$",
    re.S | re.M,
)
ANY_DIRECTIVE = re.compile(r"<!-- (?:readme|docs):")
LANGUAGES = {"python", "ini", "bash", "text", "json", "toml", "yaml"}
CHECKED = {"python", "ini", "bash", "json", "toml", "yaml"}


class Block:
    def __init__(self, page, line, lang, directive, body, after_block):
        self.page, self.line, self.lang, self.body = page, line, lang, body
        self.directive = directive
        self.after_block = after_block  # nothing but blank lines since the previous block

    @property
    def where(self):
        return f"{self.page}:{self.line}"

    @property
    def skipped(self):
        return self.directive.split(None, 1)[:1] == ["skip"]

    @property
    def script(self):
        return self.directive == "script"

    @property
    def file(self):
        """The shipped file the block shows (`file PATH`), or None."""
        words = self.directive.split(None, 1)
        return words[1] if words[:1] == ["file"] and len(words) == 2 else None


def read_blocks(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    blocks, previous_end = [], None
    for match in FENCE.finditer(text):
        line = text.count("\n", 0, match.start("lang")) + 1
        body = textwrap.dedent(match["body"])  # a block inside a list item is indented
        after_block = previous_end is not None and not text[previous_end : match.start()].strip()
        blocks.append(Block(page, line, match["lang"], (match["directive"] or "").strip(), body, after_block))
        previous_end = match.end()
    return text, blocks


TEXTS, BLOCKS = {}, {}
for _page in PAGES:
    TEXTS[_page], BLOCKS[_page] = read_blocks(_page)
ALL_BLOCKS = [block for page in PAGES for block in BLOCKS[page]]


def blocks_of(lang, run_only=True):
    return [b for b in ALL_BLOCKS if b.lang == lang and not (run_only and b.skipped)]


def pages_with(lang):
    return [page for page in PAGES if any(b.lang == lang and not b.skipped for b in BLOCKS[page])]


def test_every_block_has_a_known_language_and_directives_are_known():
    assert len(ALL_BLOCKS) > 10
    for block in ALL_BLOCKS:
        assert block.lang in LANGUAGES, f"{block.where}: a ```{block.lang} block; use one of {sorted(LANGUAGES)}"
        words = block.directive.split(None, 1)
        if words:
            assert words[0] in {"skip", "error-record", "file", "script"}, (
                f"{block.where}: unknown directive {block.directive!r}"
            )
            assert words[0] != "script" or block.lang == "python", f"{block.where}: `script` marks a python block"
            if words[0] in {"skip", "file"}:
                assert len(words) == 2, (
                    f"{block.where}: `{words[0]}` needs a {'reason' if words[0] == 'skip' else 'path'}"
                )
    for page in PAGES:  # a directive that is not right before a block would be lost silently
        used = sum(1 for b in BLOCKS[page] if b.directive)
        assert len(ANY_DIRECTIVE.findall(TEXTS[page])) == used, f"{page}: a directive that is not right before a block"


def test_every_page_has_a_checked_block():
    for page in PAGES:
        checked = [b for b in BLOCKS[page] if (b.lang in CHECKED or b.file) and not b.skipped]
        if page in NOT_RUN:
            assert not checked, f"{page} has blocks checked now: drop it from NOT_RUN"
        else:
            assert checked, f"{page} has no block that this test checks; give it one, or say why in NOT_RUN"
    assert set(NOT_RUN) <= set(PAGES)


# --------------------------------------------------------------------------
# Where the blocks run: what the repository ships, copied
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A directory laid out as the repository root for the paths the pages
    use, holding copies of what the repository ships (nothing made here)."""
    root = tmp_path_factory.mktemp("docs")
    for name in SHIPPED:
        shutil.copytree(ROOT / name, root / name, ignore=shutil.ignore_patterns("__pycache__", OUT))
    # the reference libraries installed apart (benchmarks/common.py find_references),
    # which the benchmarks' blocks import
    references = ROOT / "build" / "references"
    if references.is_dir():
        (root / "build").mkdir()
        (root / "build" / "references").symlink_to(references, target_is_directory=True)
    return root


#: Where the blocks write, inside examples/ (.gitignore covers it).
OUT = "out"


def test_git_ignores_what_the_blocks_write():
    ignored = (ROOT / ".gitignore").read_text(encoding="utf-8").split("\n")
    assert f"examples/{OUT}/" in ignored


@pytest.fixture
def root_stays_clean(workdir):
    """The blocks a test runs leave no new file or folder in the root."""
    before = set(os.listdir(workdir))
    yield
    new = sorted(set(os.listdir(workdir)) - before)
    assert not new, f"the blocks left {new} in the repository root: write into examples/{OUT}/"


def environment():
    """The environment of the blocks' commands: this worktree's package
    first, this interpreter's `python`, plain output of a fixed width."""
    path = os.pathsep.join([str(Path(sys.executable).parent), os.environ.get("PATH", "")])
    pythonpath = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return dict(os.environ, PATH=path, PYTHONPATH=pythonpath, NO_COLOR="1", COLUMNS="80")


def run_python(*args, cwd=None, timeout=300):
    """Run this interpreter with args in the blocks' environment, its output captured."""
    return subprocess.run(
        [sys.executable, *args], cwd=cwd, capture_output=True, text=True, env=environment(), timeout=timeout
    )


# --------------------------------------------------------------------------
# The examples/ files are what examples/make_examples.py writes
# --------------------------------------------------------------------------


def test_examples_are_what_make_examples_writes(tmp_path):
    out = tmp_path / "examples"
    result = run_python(str(ROOT / "examples" / "make_examples.py"), str(out))
    assert result.returncode == 0, result.stderr[-2000:]

    def files(folder):
        return {str(p.relative_to(folder)) for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts}

    shipped = {f for f in files(ROOT / "examples") - {"make_examples.py"} if Path(f).parts[0] != OUT}
    written = files(out)
    assert shipped == written, (
        f"examples/ and make_examples.py differ: only shipped {sorted(shipped - written)}, only written {sorted(written - shipped)}"
    )

    def same(name):
        if name.endswith("meta.json"):  # the spaCy version that wrote it may be another patch release
            shipped_meta, written_meta = (
                json.loads((folder / name).read_text()) for folder in (ROOT / "examples", out)
            )
            for meta in (shipped_meta, written_meta):
                meta.pop("spacy_version", None), meta.pop("spacy_git_version", None)
            return shipped_meta == written_meta
        return filecmp.cmp(ROOT / "examples" / name, out / name, shallow=False)

    differ = [name for name in sorted(written) if not same(name)]
    assert not differ, (
        f"{differ} differ from what examples/make_examples.py writes: run `python examples/make_examples.py`"
    )


# --------------------------------------------------------------------------
# Python
# --------------------------------------------------------------------------


def printed_value_comments(block):
    """{line: (first line of the print call, the comment)}: the comment
    after a `print(...)` call that ends on that line of the block."""
    comments = {}
    for token in tokenize.generate_tokens(io.StringIO(block.body).readline):
        if token.type == tokenize.COMMENT and token.line[: token.start[1]].strip():
            comments[token.start[0]] = token.string[1:].strip()
    found = {}
    for node in ast.walk(ast.parse(block.body)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "print":
            if node.end_lineno in comments:
                found[node.end_lineno] = (node.lineno, comments[node.end_lineno])
    return found


def shows(comment, printed):
    """Whether a printed-value comment shows the printed text: equal, `...`
    standing for any text."""
    pattern = ".*".join(re.escape(part) for part in comment.split("..."))
    return re.fullmatch(pattern, printed.rstrip(), re.S) is not None


def check_printed_values(block, printed):
    """printed: (line of the block, text) of every print call the block
    made; each must show what its line's comment says."""
    expected = printed_value_comments(block)
    for end, (start, comment) in expected.items():
        where = f"{block.page}:{block.line + end}"
        texts = [text for line, text in printed if start <= line <= end]
        assert texts, f"{where}: the print never ran; its comment says it prints {comment!r}"
        for text in texts:
            assert shows(comment, text), f"{where}: prints {text.rstrip()!r}, the comment says {comment!r}"


def recording_print(filename, printed):
    """A print that also records (line, text) of the calls made from code
    compiled as `filename`."""
    real = print

    def record(*args, **kwargs):
        caller = sys._getframe(1)
        if caller.f_code.co_filename == filename and kwargs.get("file") is None:
            out = io.StringIO()
            real(*args, **dict(kwargs, file=out))
            printed.append((caller.f_lineno, out.getvalue()))
        real(*args, **kwargs)

    return record


def run_python_block(block, namespace):
    """Run a block in the namespace; check its printed-value comments."""
    printed = []
    namespace["print"] = recording_print(block.where, printed)
    try:
        exec(compile(block.body, block.where, "exec"), namespace)
    except Exception as err:  # name the block that failed
        raise AssertionError(f"the Python block at {block.where} fails: {type(err).__name__}: {err}") from err
    finally:
        del namespace["print"]
    check_printed_values(block, printed)


@pytest.mark.parametrize("page", pages_with("python"))
def test_python_blocks_run_as_pasted(page, workdir, monkeypatch, root_stays_clean):
    monkeypatch.chdir(workdir)
    namespace = {"__name__": "__docs__"}
    for block in BLOCKS[page]:
        if block.lang == "python" and not block.skipped and not block.script:
            run_python_block(block, namespace)


# Runs the script argv[1] as `python SCRIPT` would (as __main__), recording
# its prints in the JSON file argv[2].
SCRIPT_RUNNER = """
import builtins, json, runpy, sys
sys.path.insert(0, {tests!r})
from test_docs import recording_print
script, record = sys.argv[1], sys.argv[2]
sys.argv = [script]
printed = []
builtins.print = recording_print(script, printed)
try:
    runpy.run_path(script, run_name="__main__")
finally:
    with open(record, "w") as f:
        json.dump(printed, f)
"""


@pytest.mark.parametrize("block", [pytest.param(b, id=b.where) for b in blocks_of("python") if b.script])
def test_script_blocks_run_as_a_file(block, workdir, tmp_path, root_stays_clean):
    script, record = tmp_path / "script.py", tmp_path / "printed.json"
    script.write_text(block.body, encoding="utf-8")
    runner = SCRIPT_RUNNER.format(tests=str(ROOT / "tests"))
    result = run_python("-c", runner, str(script), str(record), cwd=workdir, timeout=600)
    assert result.returncode == 0, f"{block.where} as a script exits {result.returncode}: {result.stderr[-2000:]}"
    check_printed_values(block, [tuple(item) for item in json.loads(record.read_text())])


def test_printed_value_comments_are_checked():
    """The rule itself, on a block made here."""
    block = Block("made.md", 0, "python", "", "x = 1 / 3\nprint(x, 2)   # 0.333... 2\nprint(\n  x)  # 0.5\n", False)
    assert printed_value_comments(block) == {2: (2, "0.333... 2"), 4: (3, "0.5")}
    with pytest.raises(AssertionError, match=r"made.md:4: prints '0.3333333333333333', the comment says '0.5'"):
        run_python_block(block, {})
    assert shows("{'cor': 1, ...} (2, 5)", "{'cor': 1, 'inc': 2} (2, 5)\n")
    assert not shows("0.0 0.75", "0.0 0.7\n") and not shows("0.5", "0.5 0.5\n")


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
@pytest.mark.parametrize("page", pages_with("ini"))
def test_config_blocks_train_in_an_init_config(page, workdir, tmp_path):
    from spacy.cli.init_config import init_config
    from thinc.api import Config

    text = init_config(lang="en", pipeline=["ner"], optimize="efficiency").to_str()
    for block in BLOCKS[page]:
        if block.lang == "ini" and not block.skipped:
            text = paste_sections(text, block.body)
    try:
        config = Config().from_str(text, interpolate=False)
    except Exception as err:
        raise AssertionError(f"the config blocks of {page} do not make a valid config: {err}") from err
    config_path = tmp_path / "config.cfg"
    config.to_disk(config_path)
    corpus = "examples/corpus.spacy"
    result = run_python(
        "-m",
        "spacy",
        "train",
        str(config_path),
        "--output",
        str(tmp_path / "out"),
        "--paths.train",
        corpus,
        "--paths.dev",
        corpus,
        "--training.max_steps",
        "4",
        "--training.eval_frequency",
        "2",
        cwd=workdir,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert (tmp_path / "out" / "model-best").is_dir()
    # the score weights a page sets are the training table's columns (spaCy cuts long names)
    weights = config.get("training", {}).get("score_weights", {})
    for key, weight in weights.items():
        if weight is not None:
            assert key.upper()[:10] in result.stdout, f"{page}: {key} is not a column of spacy train's table"


# --------------------------------------------------------------------------
# Shell
# --------------------------------------------------------------------------


def shell_commands(body):
    """The commands of a bash block; a line ending in a backslash continues
    on the next."""
    commands, pending = [], ""
    for line in body.rstrip("\n").split("\n"):
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        line, pending = pending + line, ""
        if line.strip() and not line.lstrip().startswith("#"):
            commands.append(line)
    return commands


def test_shell_blocks_have_no_prompts():
    for block in blocks_of("bash", run_only=False):
        prompted = [line for line in block.body.split("\n") if line.startswith("$ ")]
        assert not prompted, (
            f"{block.where}: {prompted[0]!r}: a `$ ` prompt does not paste; put the output in a ```text block after the block"
        )


def shell_cases():
    cases = []
    for page in PAGES:
        blocks = BLOCKS[page]
        for i, block in enumerate(blocks):
            if block.lang != "bash" or block.skipped:
                continue
            following = blocks[i + 1] if i + 1 < len(blocks) and blocks[i + 1].after_block else None
            expected = following.body if following is not None and following.lang == "text" else None
            cases.append(pytest.param(block, expected, id=block.where))
    return cases


ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _lines(text):
    """The lines of an output, trailing spaces and runs of blank lines
    dropped (a table's layout is what is compared, not its spacing)."""
    lines = [line.rstrip() for line in ANSI.sub("", text).strip("\n").split("\n")]
    return [line for i, line in enumerate(lines) if line or (i and lines[i - 1])]


@pytest.mark.parametrize("block,expected", shell_cases())
def test_shell_blocks_run(workdir, block, expected, root_stays_clean):
    env = environment()
    outputs = []
    for command in shell_commands(block.body):
        result = subprocess.run(command, shell=True, cwd=workdir, capture_output=True, text=True, env=env, timeout=600)
        assert result.returncode == 0, f"{block.where}: `{command}` exits {result.returncode}: {result.stderr[-1500:]}"
        outputs.append(result.stdout)
    if expected is not None:
        got = _lines("".join(outputs))
        want = _lines(expected)
        assert [printed for printed in got if not printed.startswith("✔ Saved")][: len(want)] == want, block.where


# --------------------------------------------------------------------------
# JSON, YAML, TOML, and the files that blocks show
# --------------------------------------------------------------------------


def test_json_blocks_parse():
    for block in blocks_of("json", run_only=False):
        try:
            json.loads(block.body)
        except ValueError as err:
            raise AssertionError(f"{block.where}: {err}") from err


def test_error_record_example_has_the_keys_of_a_real_record(workdir, tmp_path):
    blocks = [b for b in ALL_BLOCKS if b.lang == "json" and b.directive == "error-record"]
    assert blocks, "the docs show an --errors record"
    errors = tmp_path / "errors.jsonl"
    result = run_python(
        "-m",
        "spacy_spanf1",
        "compare",
        "examples/gold.jsonl",
        "examples/pred.jsonl",
        "-s",
        "strict",
        "--errors",
        str(errors),
        "--silent",
        cwd=workdir,
    )
    assert result.returncode == 0, result.stderr
    records = [json.loads(line) for line in errors.read_text().splitlines()]
    for block in blocks:
        assert json.loads(block.body) in records, f"{block.where} is not a record of the --errors run"


@pytest.mark.parametrize("block", [pytest.param(b, id=b.where) for b in ALL_BLOCKS if b.file])
def test_blocks_that_show_a_file_equal_it(block):
    path = ROOT / block.file
    assert path.is_file(), f"{block.where}: the repository ships no {block.file}"
    shown, shipped = block.body, path.read_text(encoding="utf-8")
    if block.lang == "json":
        assert json.loads(shown) == json.loads(shipped), f"{block.where}: not what {block.file} holds"
    else:
        assert _lines(shown) == _lines(shipped), f"{block.where}: not what {block.file} holds"


def test_yaml_blocks_parse_and_the_dask_configuration_is_the_same_everywhere():
    """tests/test_distributed.py starts a `dask worker` with the README's
    Dask configuration; docs/clusters.md shows the same file."""
    import yaml

    blocks = blocks_of("yaml", run_only=False)
    assert blocks
    for block in blocks:
        assert isinstance(yaml.safe_load(block.body), dict), block.where
    readme = [b.body for b in blocks if b.page == "README.md"]
    clusters = [b.body for b in blocks if b.page == "docs/clusters.md"]
    assert len(readme) == 1 and readme == clusters


def test_toml_blocks_parse():
    import tomllib

    blocks = blocks_of("toml", run_only=False)
    assert blocks
    for block in blocks:
        tomllib.loads(block.body)


# --------------------------------------------------------------------------
# Links between the pages
# --------------------------------------------------------------------------


LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$", re.M)


def without_blocks(text):
    return FENCE.sub("", text)


def anchors(page_text):
    """GitHub's anchors of a page's headings."""
    seen, found = {}, set()
    for heading in HEADING.findall(without_blocks(page_text)):
        slug = re.sub(r"[^\w\- ]", "", heading.replace("`", "").strip().lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        found.add(slug if n == 0 else f"{slug}-{n}")
    return found


@pytest.mark.parametrize("page", PAGES)
def test_links_resolve(page):
    for target in LINK.findall(without_blocks(TEXTS[page])):
        if re.match(r"[a-z]+:", target):
            continue  # a web address
        path, _, anchor = target.partition("#")
        resolved = ((ROOT / page).parent / path).resolve() if path else (ROOT / page).resolve()
        assert resolved.exists(), f"{page}: the link {target} leads nowhere"
        assert ROOT.resolve() in resolved.parents or resolved == ROOT.resolve(), (
            f"{page}: {target} leaves the repository"
        )
        if anchor:
            assert resolved.suffix == ".md", f"{page}: {target}: an anchor into a file that is not a page"
            assert anchor in anchors(resolved.read_text(encoding="utf-8")), f"{page}: {target}: no such heading"
