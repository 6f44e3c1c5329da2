"""What installing the package gives, as the README says.

- the Python the README states is pyproject.toml's `requires-python`;
- with the dev extra installed, a plain spaCy pipeline loads as it does
  without it: nothing on stderr, no module more imported,
  and at most 10 % slower. spaCy imports every `spacy_factories` entry point
  each time it makes a pipeline, so a reference library that registers one
  (Presidio, spacy-llm) is installed apart by `make test`
  (tests/spacy-plugin-references.txt; tests/helpers.py).
"""
import re
import subprocess
import sys
import tomllib
from importlib.metadata import PackageNotFoundError, distribution, packages_distributions

import pytest
from packaging.requirements import Requirement

from helpers import ROOT


def test_the_readme_states_the_python_of_requires_python():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    stated = re.findall(r"Python ≥ (3\.\d+)", readme)
    assert stated, "README.md states no Python version (`Python ≥ 3.X`)"
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    assert set(stated) == {requires.removeprefix(">=")}, f"README.md says Python ≥ {stated}, pyproject.toml {requires}"
    # the dev extra's pins need that Python too: it is the one the tests run on
    assert sys.version_info >= tuple(int(n) for n in requires.removeprefix(">=").split("."))


def normalized(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def runtime_distributions():
    """The distributions `pip install .` installs: this package's
    requirements, theirs, and so on, without any extra."""
    seen, todo = set(), ["spacy-spanf1"]
    while todo:
        name = normalized(todo.pop())
        if name in seen:
            continue
        seen.add(name)
        try:
            requires = distribution(name).requires or []
        except PackageNotFoundError:  # a requirement of another platform or Python
            continue
        for text in requires:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                todo.append(requirement.name)
    return seen


# Loads the pipeline argv[1] and prints the seconds that `import spacy` and
# `spacy.load` took, then the top-level modules imported. With argv[2] (the
# runtime distributions, comma-separated), spaCy sees only their entry
# points: the environment of a plain `pip install .`.
LOAD = """
import re, sys, time
if len(sys.argv) > 2:
    import catalogue  # where spaCy's registries read the entry points
    keep = set(sys.argv[2].split(","))
    catalogue.AVAILABLE_ENTRY_POINTS = {
        group: [ep for ep in eps if ep.dist is None or re.sub(r"[-_.]+", "-", ep.dist.name).lower() in keep]
        for group, eps in catalogue.AVAILABLE_ENTRY_POINTS.items()
    }
start = time.perf_counter()
import spacy
spacy.load(sys.argv[1])
print(time.perf_counter() - start)
print(",".join(sorted({name.split(".")[0] for name in sys.modules})))
"""


def load(*args):
    result = subprocess.run([sys.executable, "-c", LOAD, str(ROOT / "examples" / "ner-model"), *args],
                            capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert result.returncode == 0, result.stderr[-2000:]
    seconds, modules = result.stdout.split("\n")[:2]
    return float(seconds), modules.split(","), result.stderr


@pytest.mark.slow
def test_a_pipeline_loads_as_without_the_dev_extra():
    runtime = runtime_distributions()
    assert {"spacy-spanf1", "spacy", "thinc", "numpy", "tqdm"} <= runtime
    with_extra, without = [], []
    for _ in range(3):  # interleaved, the fastest of each: a busy machine slows both alike
        seconds, modules, stderr = load()
        with_extra.append(seconds)
        assert stderr == "", f"spacy.load prints on stderr: {stderr[-1000:]}"
        seconds, runtime_modules, _ = load(",".join(sorted(runtime)))
        without.append(seconds)
    owners = packages_distributions()
    more = sorted(f"{m} ({', '.join(owners.get(m, ['?']))})" for m in set(modules) - set(runtime_modules))
    assert more == [], f"spacy.load imports modules through the entry points of test-only libraries: {more}"
    assert min(with_extra) <= 1.10 * min(without), f"spacy.load takes {min(with_extra):.2f} s, {min(without):.2f} s with the runtime's entry points only"
