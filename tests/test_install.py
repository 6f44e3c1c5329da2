"""What installing the package gives, as the README says.

- the Python the README states is pyproject.toml's `requires-python`, the
  lowest that the pinned reference libraries of the tests take;
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
from packaging.specifiers import SpecifierSet

from helpers import ROOT


def pinned_references():
    """The `name==version` pins of the dev extra and of the references
    that `make test` installs apart."""
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["optional-dependencies"][
        "dev"
    ]
    apart = (ROOT / "tests" / "spacy-plugin-references.txt").read_text(encoding="utf-8").splitlines()
    lines = [line for line in extra + apart if line.strip() and not line.startswith("#")]
    return [Requirement(line) for line in lines if "==" in line]


def lowest_python(specifier):
    """The lowest 3.X that `>=3.X,...` takes."""
    lows = [spec.version for spec in SpecifierSet(specifier) if spec.operator == ">="]
    assert len(lows) == 1, specifier
    return tuple(int(n) for n in lows[0].split(".")[:2])


def test_the_readme_states_the_python_of_requires_python():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    stated = {tuple(int(n) for n in v.split(".")) for v in re.findall(r"Python ≥ (3\.\d+)", readme)}
    assert stated, "README.md states no Python version (`Python ≥ 3.X`)"
    requires = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    assert stated == {lowest_python(requires)}, f"README.md says Python ≥ {stated}, pyproject.toml {requires}"
    # The package claims the Python its tests run on: the lowest that every
    # pinned reference takes (read from what is installed), no older one.
    needs = {}
    for requirement in pinned_references():
        dist = distribution(requirement.name)
        assert dist.version in requirement.specifier, f"{requirement} is installed as {dist.version}"
        if dist.metadata.get("Requires-Python"):
            needs[str(requirement)] = lowest_python(dist.metadata["Requires-Python"])
    assert len(needs) >= 5
    assert lowest_python(requires) == max(needs.values()), f"requires-python is {requires}; the pins need {needs}"
    assert sys.version_info >= lowest_python(requires)


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
# points: the environment of a plain `pip install .`. Both ways time
# catalogue's scan of every installed distribution's entry points (about
# 36 ms for the ~190 distributions of a dev install, a cost of any larger
# environment, not of a plugin); what differs is which entry points spaCy sees.
LOAD = """
import re, sys, time
start = time.process_time()  # CPU time, which other jobs on the machine move less; both ways pay catalogue's scan of the installed entry points
import catalogue  # where spaCy's registries read the entry points
if len(sys.argv) > 2:
    keep = set(sys.argv[2].split(","))
    catalogue.AVAILABLE_ENTRY_POINTS = {
        group: [ep for ep in eps if ep.dist is None or re.sub(r"[-_.]+", "-", ep.dist.name).lower() in keep]
        for group, eps in catalogue.AVAILABLE_ENTRY_POINTS.items()
    }
import spacy
spacy.load(sys.argv[1])
print(time.process_time() - start)
print(",".join(sorted({name.split(".")[0] for name in sys.modules})))
"""


#: What to do when a reference library that registers a spaCy plugin is in
#: the environment itself (an install from before they moved apart).
HINT = (
    "a spaCy plugin of the tests is installed in the environment: `pip uninstall presidio-evaluator "
    "presidio-analyzer presidio-anonymizer spacy-llm`, then `make references` installs them apart"
)


def load(*args):
    result = subprocess.run(
        [sys.executable, "-c", LOAD, str(ROOT / "examples" / "ner-model"), *args],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr[-2000:]
    seconds, modules = result.stdout.split("\n")[:2]
    return float(seconds), modules.split(","), result.stderr


@pytest.mark.slow
def test_a_pipeline_loads_as_without_the_dev_extra():
    runtime = runtime_distributions()
    assert {"spacy-spanf1", "spacy", "thinc", "numpy", "tqdm"} <= runtime
    with_extra, without = [], []
    for _ in range(5):  # interleaved, the fastest of each (CPU time): a busy machine slows both alike
        seconds, modules, stderr = load()
        with_extra.append(seconds)
        assert stderr == "", f"spacy.load prints on stderr: {stderr[-1000:]}; {HINT}"
        seconds, runtime_modules, _ = load(",".join(sorted(runtime)))
        without.append(seconds)
    owners = packages_distributions()
    more = sorted(f"{m} ({', '.join(owners.get(m, ['?']))})" for m in set(modules) - set(runtime_modules))
    assert more == [], f"spacy.load imports modules through the entry points of test-only libraries: {more}; {HINT}"
    assert min(with_extra) <= 1.10 * min(without), (
        f"spacy.load takes {min(with_extra):.2f} s, {min(without):.2f} s with the runtime's entry points only; {HINT}"
    )
