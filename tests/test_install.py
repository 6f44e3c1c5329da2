"""What installing the package gives, as the README says.

- the Python the README states is pyproject.toml's `requires-python`, the
  lowest that the pinned reference libraries of the tests take;
- with the dev extra installed, a plain spaCy pipeline loads as it does
  without it: nothing on stderr, no module more imported, and spaCy sees
  the entry points of the runtime's distributions only, so it does the same
  work. spaCy imports every `spacy_factories` entry point each time it
  makes a pipeline, so a reference library that registers one (Presidio,
  spacy-llm) is installed apart by `make test`
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


# Loads the pipeline argv[1] and prints the top-level modules imported, then
# the entry points of spaCy's and thinc's groups as catalogue lists them
# ("group name distribution"). With argv[2] (the runtime distributions,
# comma-separated), spaCy sees only their entry points: the environment of a
# plain `pip install .`.
LOAD = """
import re, sys
import catalogue  # where spaCy's registries read the entry points
if len(sys.argv) > 2:
    keep = set(sys.argv[2].split(","))
    catalogue.AVAILABLE_ENTRY_POINTS = {
        group: [ep for ep in eps if ep.dist is None or re.sub(r"[-_.]+", "-", ep.dist.name).lower() in keep]
        for group, eps in catalogue.AVAILABLE_ENTRY_POINTS.items()
    }
import spacy
spacy.load(sys.argv[1])
print(",".join(sorted({name.split(".")[0] for name in sys.modules})))
groups = {group: eps for group, eps in catalogue.AVAILABLE_ENTRY_POINTS.items() if group.startswith(("spacy_", "thinc_"))}
print(",".join(sorted({f"{group} {ep.name} {ep.dist.name if ep.dist else ''}" for group, eps in groups.items() for ep in eps})))
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
    modules, entry_points = result.stdout.split("\n")[:2]
    return modules.split(","), entry_points.split(","), result.stderr


@pytest.mark.slow
def test_a_pipeline_loads_as_without_the_dev_extra():
    runtime = runtime_distributions()
    assert {"spacy-spanf1", "spacy", "thinc", "numpy", "tqdm"} <= runtime
    modules, entry_points, stderr = load()
    assert stderr == "", f"spacy.load prints on stderr: {stderr[-1000:]}; {HINT}"
    # spaCy and thinc see the entry points of the runtime's distributions only:
    # then spacy.load does the same work as in a plain `pip install .` (timing
    # it here would test the machine's load, not the install)
    assert "spacy_scorers spacy-spanf1.scorer.v1 spacy-spanf1" in entry_points
    others = [entry for entry in entry_points if normalized(entry.split(" ")[-1]) not in runtime]
    assert others == [], f"spaCy sees the entry points of test-only libraries: {others}; {HINT}"
    runtime_modules, runtime_entry_points, _ = load(",".join(sorted(runtime)))
    assert runtime_entry_points == entry_points
    owners = packages_distributions()
    more = sorted(f"{m} ({', '.join(owners.get(m, ['?']))})" for m in set(modules) - set(runtime_modules))
    assert more == [], f"spacy.load imports modules through the entry points of test-only libraries: {more}; {HINT}"
