"""The package's structure, read from its source: data flows one way.

- no import cycle between its modules (imports inside functions count);
- no name with a leading underscore imported from another module;
- no function outside the command line takes more than 12 parameters
  (the front doors' keywords that stand for a settings object's fields,
  defaulting to UNSET, are counted apart);
- the defaults of the settings are written once, in `values.py`;
- every command-line option is declared once, in `cli/options.py`;
- `distributed/` never imports the Python front doors (`api`);
- the engine imports nothing above it (settings, keywords, exceptions, spans only);
- the corpus stream takes the string schemes from `mentions.strings`, which
  stands on the engine alone, not the mention scoring;
- one HTML skeleton, in `html/`: the pages share its widgets, not each other;
- readers hand on what they found as typed fields of the Document, not as
  `meta` keys; formats are asked through their declared capabilities
  (`formats.base.Format`), never probed with `getattr`, and no code outside
  `formats/` tells formats apart by their names;
- `import spacy_spanf1` stays light: no spaCy, srsly, scipy or Dask.
- no module is over 450 lines but the scorer's one loop (`engine/scorer.py`):
  a longer one is split by job;
- ruff and mypy, as pyproject.toml configures them, find nothing (`make lint`).
"""

import ast
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "spacy_spanf1"


def modules():
    """module name -> (path, is a package)."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        found[".".join(parts)] = (path, is_package)
    return found


MODULES = modules()


def package_modules(*names):
    """The package's modules of these names (below spacy_spanf1)."""
    return tuple(f"spacy_spanf1.{name}" for name in names)


def layer(prefix):
    """The names of the modules that start with prefix."""
    return [name for name in MODULES if name.startswith(prefix)]


def imports_of(name):
    """(imported module, imported names) of every import in a module,
    inside functions too, relative imports resolved."""
    path, is_package = MODULES[name]
    package = name.split(".") if is_package else name.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - (node.level - 1)]
                target = ".".join(base + (node.module.split(".") if node.module else []))
            else:
                target = node.module or ""
            yield target, [alias.name for alias in node.names]
        elif isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, []


def edges():
    graph = {name: set() for name in MODULES}
    for name in MODULES:
        for target, names in imports_of(name):
            if not target.startswith("spacy_spanf1"):
                continue
            subs = [f"{target}.{n}" for n in names if f"{target}.{n}" in MODULES]
            graph[name].update(subs)
            if len(subs) < len(names) or not names:
                if target in MODULES:
                    graph[name].add(target)
    return graph


def test_the_checks_see_the_package():
    assert {"spacy_spanf1.settings", "spacy_spanf1.corpus", "spacy_spanf1.api", "spacy_spanf1.cli.options"} <= set(
        MODULES
    )
    graph = edges()
    assert "spacy_spanf1.corpus" in graph["spacy_spanf1.api"]
    assert "spacy_spanf1.corpus" in graph["spacy_spanf1.distributed.tasks"]


def test_no_import_cycle():
    graph = edges()
    state = {}
    cycles = []

    def visit(name, path):
        state[name] = "open"
        for target in sorted(graph[name]):
            if state.get(target) == "open":
                cycles.append(path[path.index(target) :] + [target] if target in path else [name, target])
            elif target not in state:
                visit(target, path + [target])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert not cycles, cycles


def test_no_underscore_name_is_imported_across_modules():
    found = []
    for name in MODULES:
        for target, names in imports_of(name):
            if target.startswith("spacy_spanf1"):
                found += [(name, target, n) for n in names if n.startswith("_") and not n.startswith("__")]
            if any(part.startswith("_") and not part.startswith("__") for part in target.split(".")):
                found.append((name, target, "<module>"))
    assert not found


#: Doors that take every matching setting as a keyword of its own, by
#: design: the one-call scorer of span lists, the engine's scorer (which
#: both build), the registered scorer, whose config block validates
#: each setting by its parameter, and the sweep of span lists (the
#: one-call scorer's settings and the thresholds'), and MatchSettings
#: itself (the constructor its type checkers read: one keyword a field).
EVERY_MATCH_SETTING_A_KEYWORD = {
    ("spacy_spanf1.settings", "__init__"),
    ("spacy_spanf1.engine.scorer", "evaluate_spans"),
    ("spacy_spanf1.sweeps.api", "sweep"),
    ("spacy_spanf1.engine.scorer", "__init__"),
    ("spacy_spanf1.integrations.spacy", "make_spanf1_scorer_v1"),
}


#: The front doors outside `api/`: the scorers of span lists, mentions,
#: spaCy Examples and tag sequences, each beside what it scores.
DOORS_BESIDE_THE_API = {
    ("spacy_spanf1.engine.scorer", "evaluate_spans"),
    ("spacy_spanf1.stats.breakdown", "breakdown"),
    ("spacy_spanf1.mentions.score", "evaluate_mentions"),
    ("spacy_spanf1.integrations.examples", "evaluate_examples"),
    ("spacy_spanf1.integrations.hf", "make_compute_metrics"),
    ("spacy_spanf1.sweeps.api", "sweep"),
}


def settings_fields():
    """The field names of every settings class (the keyword form of the
    front doors' settings objects)."""
    import dataclasses

    from spacy_spanf1 import settings
    from spacy_spanf1.sweeps.settings import SweepSettings

    classes = [
        settings.MatchSettings,
        settings.ReadSettings,
        settings.AnalysisSettings,
        settings.RunSettings,
        settings.AgreementSettings,
        SweepSettings,
    ]
    return {f.name for cls in classes for f in dataclasses.fields(cls)}


def test_no_function_outside_the_cli_takes_more_than_12_parameters():
    # The front doors take each settings object or its fields as keywords
    # (`compare_files(g, p, schemes=..., bootstrap=...)`): a keyword that
    # defaults to UNSET and names a field of a settings class is the
    # object's field, not a parameter of its own; they are counted apart,
    # and only the front doors (api/) take them: as UNSET keywords or as
    # `**keywords: Unpack[...]` of keyword_types' TypedDicts.
    fields = settings_fields()
    found, doors = [], []
    for name, (path, _) in MODULES.items():
        if name.startswith("spacy_spanf1.cli"):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                args = node.args
                defaults = dict(zip([a.arg for a in args.args][len(args.args) - len(args.defaults) :], args.defaults))
                defaults.update((a.arg, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None)
                keyword_form = {arg for arg, d in defaults.items() if isinstance(d, ast.Name) and d.id == "UNSET"}
                assert keyword_form <= fields, (name, node.name, sorted(keyword_form - fields))
                # `**keywords: Unpack[...]`: the fields of keyword_types' TypedDicts
                unpacked = args.kwarg is not None and "Unpack[" in ast.unparse(
                    args.kwarg.annotation or ast.Constant("")
                )
                if keyword_form or unpacked:  # a front door, whose unknown keyword is a TypeError naming the valid ones
                    assert name.startswith("spacy_spanf1.api.") or (name, node.name) in DOORS_BESIDE_THE_API, (
                        name,
                        node.name,
                    )
                    assert any(
                        isinstance(d.func if isinstance(d, ast.Call) else d, ast.Name)
                        and (d.func if isinstance(d, ast.Call) else d).id in ("front_door", "annotated_files_door")
                        for d in node.decorator_list
                    ), node.name
                    doors.append(node.name)
                n = (
                    len(args.posonlyargs)
                    + len(args.args)
                    + len(args.kwonlyargs)
                    + (args.vararg is not None)
                    + (args.kwarg is not None and not unpacked)
                ) - len(keyword_form)
                if args.args and args.args[0].arg in ("self", "cls"):
                    n -= 1
                if n > 12 and (name, node.name) not in EVERY_MATCH_SETTING_A_KEYWORD:
                    found.append((name, node.name, n))
    assert not found
    assert {"compare_files", "evaluate_pipeline", "agreement", "agree_files", "sweep_files", "sweep_pipeline"} <= set(
        doors
    )
    assert {door for _, door in DOORS_BESIDE_THE_API} <= set(doors)


@pytest.mark.parametrize("literal", ["12345", "0.95", "10000", "0.05"])
def test_statistics_defaults_are_written_once(literal):
    pattern = re.compile(rf"(?<![\w.]){re.escape(literal)}(?![\w])")
    found = [
        f"{path.relative_to(PACKAGE)}:{i}"
        for path, _ in MODULES.values()
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line.split("#")[0]) and not line.strip().startswith(("#", '"', "'"))
    ]
    assert [f for f in found if not f.startswith("values.py")] == [], found


def test_threshold_defaults_are_written_once():
    pattern = re.compile(r"\w*(threshold|overlap)\w*\s*(:\s*[\w\[\]]+)?\s*=\s*0\.5\b")
    found = [
        f"{path.relative_to(PACKAGE)}:{i}"
        for path, _ in MODULES.values()
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if pattern.search(line)
    ]
    assert len(found) == 2 and all(f.startswith("settings.py:") for f in found), found


def test_every_cli_option_is_declared_once():
    calls = []
    for name, (path, _) in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("Option", "Argument"):
                calls.append(name)
    # options.py builds every option from its declarations; main.py has --version
    assert sorted(set(calls)) == ["spacy_spanf1.cli.main", "spacy_spanf1.cli.options"], calls
    from spacy_spanf1.cli.options import DECLARED, OPTIONS

    flags = [flag for option in DECLARED if not option.argument for flag in option.flags]
    assert len(flags) == len(set(flags))
    assert len(OPTIONS) == len(DECLARED)
    from typer.main import get_command

    from spacy_spanf1.cli import app

    for command in get_command(app).commands.values():
        for param in command.params:
            if param.name in OPTIONS and not OPTIONS[param.name].argument:
                assert list(param.opts) == list(OPTIONS[param.name].flags), param.name


def test_distributed_does_not_import_the_front_doors():
    graph = edges()
    for name in layer("spacy_spanf1.distributed"):
        assert not {
            t for t in graph[name] if t.split(".")[:2] == ["spacy_spanf1", "api"] or t.startswith("spacy_spanf1.cli")
        }, name


#: What the engine stands on: the modules below it (its results are its own, `engine.result`).
#: notes.py stands on the standard library alone: the engine words its warnings with it.
BELOW_THE_ENGINE = package_modules(
    "settings", "keywords", "keyword_types", "values", "label_map", "exceptions", "spans", "notes"
)


def test_the_engine_imports_nothing_above_it():
    graph = edges()
    engine = layer("spacy_spanf1.engine")
    assert (
        "spacy_spanf1.engine.result" in engine and "spacy_spanf1.engine.result" in graph["spacy_spanf1.engine.scorer"]
    )
    found = {
        name: sorted(t for t in graph[name] if not t.startswith("spacy_spanf1.engine") and t not in BELOW_THE_ENGINE)
        for name in engine
    }
    assert {name: targets for name, targets in found.items() if targets} == {}
    for name in BELOW_THE_ENGINE:  # and those import none of the package's layers
        assert graph[name] <= set(BELOW_THE_ENGINE), name


#: What the string schemes (`mentions.strings`, which the corpus stream runs
#: beside the span scorer) may stand on: the engine and what is below it.
BELOW_THE_STRING_SCHEMES = BELOW_THE_ENGINE + package_modules(
    "mentions.strings", "mentions.normalize", "mentions.parse"
)


def test_the_corpus_takes_the_string_schemes_not_the_mention_scoring():
    graph = edges()
    corpus = layer("spacy_spanf1.corpus")
    taken = {t for name in corpus for t in graph[name] if t.startswith("spacy_spanf1.mentions")}
    assert taken == {"spacy_spanf1.mentions.strings"}
    below, todo = set(), ["spacy_spanf1.mentions.strings"]
    while todo:  # everything the string schemes import, all the way down
        name = todo.pop()
        if name not in below:
            below.add(name)
            todo.extend(graph[name])
    assert {n for n in below if not n.startswith("spacy_spanf1.engine") and n not in BELOW_THE_STRING_SCHEMES} == set()
    # and importing them does not import the mention scoring (the package imports it when first asked for)
    code = (
        "import sys, spacy_spanf1.mentions.strings; print(sorted(m for m in sys.modules if m.startswith("
        "('spacy_spanf1.mentions.score', 'spacy_spanf1.mentions.gold', 'spacy_spanf1.mentions.predicted', "
        "'spacy_spanf1.results', 'spacy_spanf1.formats', 'spacy_spanf1.corpus'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


#: The modules that put a page together from the widgets of html/.
PAGES = ("spacy_spanf1.html.compare", "spacy_spanf1.agreements.page", "spacy_spanf1.sweeps.page")


@pytest.mark.parametrize("literal", ["<!DOCTYPE html", "<html", "<head", "<style", "<body"])
def test_one_html_skeleton(literal):
    found = [
        f"{path.relative_to(PACKAGE)}:{i}"
        for path, _ in MODULES.values()
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if literal.lower() in line.lower()
    ]
    assert found and all(f.startswith("html/page.py:") for f in found), found


def test_the_pages_share_the_html_widgets_not_each_other():
    graph = edges()
    assert set(PAGES) <= set(MODULES)
    for page in PAGES:
        assert "spacy_spanf1.html.page" in graph[page], page
        assert not graph[page] & (set(PAGES) - {page}), page  # no page is built from another
    for name in MODULES:
        targets = graph[name]
        if name.startswith("spacy_spanf1.html.") and name not in PAGES:
            assert not targets & set(PAGES), name  # the widgets know no page
        if name.startswith("spacy_spanf1.report"):
            assert not {t for t in targets if t.startswith("spacy_spanf1.html")}, name  # the records hold no HTML
        if name in PAGES[1:]:
            assert not {t for t in targets if t.startswith("spacy_spanf1.report.records")}, name
        for target, names in imports_of(name):  # the CSS is imported from html/ alone
            if target.startswith("spacy_spanf1") and any(n.endswith("CSS") for n in names):
                assert target.startswith("spacy_spanf1.html"), (name, target)


def source_lines():
    """(where, line) of every line of the package's code."""
    for path, _ in MODULES.values():
        for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            yield f"{path.relative_to(PACKAGE)}:{i}", line


#: A reader's data under a private key of `meta`: `meta["_doc"]`,
#: `doc.meta.get("_counts")`, `"_notes" in meta`, `meta.setdefault("_x", ...)`.
PRIVATE_META_KEY = re.compile(
    r"""meta\s*(\[|\.(get|pop|setdefault)\()\s*["']_|["']_\w*["']\s+(not\s+)?in\s+[\w.]*meta\b"""
)
#: `getattr` on a format object (its capabilities are declared on the base class).
GETATTR_ON_FORMAT = re.compile(r"getattr\(\s*(\w*(fmt|format|reader)\w*\s*[,)]|get_format\()")


def test_the_checks_of_readers_find_what_they_look_for():
    assert PRIVATE_META_KEY.search('spacy_doc = doc.meta["_doc"]')
    assert PRIVATE_META_KEY.search("counts = doc.meta.get('_counts')")
    assert PRIVATE_META_KEY.search('if "_doc" in gold.meta:')
    assert not PRIVATE_META_KEY.search('who = doc.meta.get("annotator")')
    assert GETATTR_ON_FORMAT.search('align = getattr(fmt, "align", None)')
    assert GETATTR_ON_FORMAT.search('getattr(get_format(name), "both_sides", False)')
    assert GETATTR_ON_FORMAT.search('getattr(format_obj, "check_sides", None)')
    assert not GETATTR_ON_FORMAT.search("getattr(scores.analysis, self.name, None)")
    found = list(
        format_name_comparisons(
            'if name == "labelstudio" or pairs.fmt.name != "conll": pass\n'
            'NAMING = ("labelstudio", "prodigy")\nif mode == "conll": pass'
        )
    )
    assert sorted(line for line, _ in found) == [1, 1, 2]


def test_readers_hand_on_typed_fields_not_private_meta_keys():
    found = [where for where, line in source_lines() if PRIVATE_META_KEY.search(line)]
    assert found == []


def test_no_getattr_on_a_format():
    found = [where for where, line in source_lines() if GETATTR_ON_FORMAT.search(line)]
    assert found == []


def format_name_comparisons(source):
    """(line, code) of each comparison of a format's name to a string
    literal naming a built-in format (`name == "jsonl"`, `fmt.name !=
    "conll"`, `name in ("labelstudio", ...)`), and of each literal
    collection of two or more format names (`("labelstudio", "prodigy")`)."""
    from spacy_spanf1.formats import BUILTIN, format_names

    names = set(format_names()) | set(BUILTIN)

    def named(node):
        return isinstance(node, ast.Constant) and node.value in names

    def names_a_format(node):
        if isinstance(node, ast.Attribute):
            return node.attr == "name" or any(w in node.attr for w in ("fmt", "format", "reader"))
        if isinstance(node, ast.Name):
            return node.id == "name" or any(w in node.id for w in ("fmt", "format", "reader"))
        return False

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            literal = any(
                named(n) or (isinstance(n, (ast.Tuple, ast.List, ast.Set)) and any(map(named, n.elts)))
                for n in operands
            )
            if literal and any(map(names_a_format, operands)):
                yield node.lineno, ast.unparse(node)
        elif isinstance(node, (ast.Tuple, ast.List, ast.Set)) and sum(map(named, node.elts)) >= 2:
            yield node.lineno, ast.unparse(node)


def test_no_format_name_is_compared_outside_the_formats():
    found = []
    for name, (path, _) in MODULES.items():
        if name.startswith("spacy_spanf1.formats"):
            continue
        found += [(name, line, code) for line, code in format_name_comparisons(path.read_text(encoding="utf-8"))]
    assert found == []


#: The most lines a module of the package holds.
MOST_LINES = 450
#: The modules allowed more: the scorer keeps its one loop over documents whole.
LONGER = ("engine/scorer.py",)


def test_no_module_is_over_450_lines():
    lines = {
        str(path.relative_to(PACKAGE)): len(path.read_text(encoding="utf-8").splitlines())
        for path, _ in MODULES.values()
    }
    assert set(LONGER) <= set(lines) and len(lines) > 50 and sum(lines.values()) > 10000  # the check sees the package
    assert {name: n for name, n in sorted(lines.items()) if n > MOST_LINES and name not in LONGER} == {}


def test_import_is_light():
    code = (
        "import sys, spacy_spanf1; "
        "print(sorted(m for m in ('spacy', 'srsly', 'scipy', 'dask', 'distributed', 'thinc') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


#: Modules that moved before 1.0 and are gone from the top of the package
#: (now `api`, `engine.scorer`, `integrations.spacy`, `integrations.hf`,
#: `engine.counts`, `engine.metrics`).
OLD_MODULES = ("app", "evaluate", "scorer", "hf", "docs", "counts", "metrics")
#: What the checkout holds beside the package that may import it.
IMPORTERS = (
    "tests",
    "benchmarks",
    "scripts",
    "transcriptions",
    "docs",
    "examples",
    "configs",
    "README.md",
    "pyproject.toml",
    "project.yml",
)


def test_old_import_paths_are_gone_and_nothing_imports_them():
    assert [name for name in OLD_MODULES if (PACKAGE / f"{name}.py").exists() or (PACKAGE / name).exists()] == []
    old = {f"spacy_spanf1.{name}" for name in OLD_MODULES}
    found = [
        (name, target)
        for name in MODULES
        for target, names in imports_of(name)
        if target in old or (target == "spacy_spanf1" and old & {f"spacy_spanf1.{n}" for n in names})
    ]
    names = "|".join(OLD_MODULES)
    pattern = re.compile(rf"spacy_spanf1\.({names})\b|from spacy_spanf1 import [^\n]*\b({names})\b")
    root = PACKAGE.parent
    files = [
        path
        for entry in IMPORTERS
        for path in ([root / entry] if (root / entry).is_file() else sorted((root / entry).rglob("*")))
        if path.is_file() and path.suffix in (".py", ".md", ".cfg", ".toml", ".yml", ".txt", ".json", ".jsonl")
    ]
    assert len(files) > 50
    for path in files:
        for i, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
            if pattern.search(line):
                found.append((f"{path.relative_to(root)}:{i}", line.strip()))
    assert found == []


def test_names_are_not_reused_across_modules():
    # a public function or class of one name in two modules did different
    # things (two `score_pairs`, two `check_tag_options`); the typing
    # overloads of one function are one module's one name
    defined = {}
    for name, (path, _) in MODULES.items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
                defined.setdefault(node.name, set()).add(name)
    assert {n: sorted(where) for n, where in defined.items() if len(where) > 1} == {}
    from spacy_spanf1 import SettingError, api, exceptions, formats

    assert [m.__name__ for m in (api, exceptions, formats) if hasattr(m, "UsageError")] == []
    assert not hasattr(SettingError("bad", "unit"), "param")


def test_benchmarks_share_nothing_with_the_tests():
    root = PACKAGE.parent
    tests = {path.stem for path in (root / "tests").glob("*.py")} | {
        path.name for path in (root / "tests").iterdir() if path.is_dir()
    }
    found = []
    for path in sorted((root / "benchmarks").glob("*.py")):
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.Import):
                found += [(path.name, alias.name) for alias in node.names if alias.name.split(".")[0] in tests]
            elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] in tests:
                found.append((path.name, node.module))
        found += [(path.name, line.strip()) for line in text.splitlines() if re.search(r"""["']tests["']""", line)]
    assert len(list((root / "benchmarks").glob("*.py"))) > 5 and "helpers" in tests
    assert found == []


def _function_bodies(paths):
    """{the AST of a function's body, its docstring left out: the places
    (file:function) of the functions of at least four statements with that
    body}."""
    found = {}
    for path in paths:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                body = node.body[1:] if ast.get_docstring(node, clean=False) is not None else node.body
                code = ast.Module(body=body, type_ignores=[])
                if sum(isinstance(n, ast.stmt) for n in ast.walk(code)) >= 4:
                    found.setdefault(ast.dump(code), []).append(f"{path.name}:{node.name}")
    return found


def test_benchmarks_and_tests_keep_no_copies_of_one_function():
    # what both need and is not the package (a reference that is not a pip
    # package) is written once, in transcriptions/, which both import
    root = PACKAGE.parent
    benchmarks = _function_bodies(sorted((root / "benchmarks").glob("*.py")))
    tests = _function_bodies(sorted((root / "tests").rglob("*.py")))
    assert len(benchmarks) > 20 and len(tests) > 100  # the check sees both trees
    assert [(benchmarks[body], tests[body]) for body in sorted(benchmarks.keys() & tests.keys())] == []
    from transcriptions.feedback_prize import feedback_prize  # noqa: F401


def test_public_names_keep_working():
    import spacy_spanf1
    from spacy_spanf1.integrations.hf import make_compute_metrics  # noqa: F401

    for name in spacy_spanf1.__all__:
        assert getattr(spacy_spanf1, name) is not None, name
    import spacy

    assert spacy.registry.scorers.get("spacy-spanf1.scorer.v1").__module__ == "spacy_spanf1.integrations.spacy"


@pytest.mark.parametrize("package", ["spacy_spanf1", "spacy_spanf1.api"])
def test_a_package_lists_the_names_it_exports_lazily_once(package):
    module = importlib.import_module(package)
    lazy = [name for names in module._LAZY.values() for name in names]
    assert sorted(set(lazy) - set(module.__all__)) == []
    assert len(module.__all__) == len(set(module.__all__))
    for name in module.__all__:
        assert getattr(module, name) is not None, name


def test_every_folder_of_the_package_is_a_package():
    # setuptools' find_packages ships only folders with an __init__.py: a
    # folder without one would be missing from a wheel (not from -e installs)
    folders = {path.parent for path in PACKAGE.rglob("*.py") if "__pycache__" not in path.parts}
    assert [str(f.relative_to(PACKAGE)) for f in sorted(folders) if not (f / "__init__.py").exists()] == []
    assert (PACKAGE / "py.typed").exists()


def test_the_settings_name_the_engines_schemes():
    from spacy_spanf1.engine.matching import SEMEVAL_RULES
    from spacy_spanf1.settings import SCHEMES, SEMEVAL_SCHEMES

    assert tuple(SEMEVAL_RULES) == SEMEVAL_SCHEMES and SCHEMES[: len(SEMEVAL_SCHEMES)] == SEMEVAL_SCHEMES


@pytest.mark.slow
@pytest.mark.parametrize(
    "command",
    [["ruff", "check", "spacy_spanf1", "tests", "benchmarks", "scripts", "transcriptions"], ["mypy", "spacy_spanf1"]],
    ids=["ruff", "mypy"],
)
def test_the_linters_find_nothing(command):
    done = subprocess.run(
        [sys.executable, "-m", *command], cwd=PACKAGE.parent, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout + done.stderr
