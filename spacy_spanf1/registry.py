"""The package's registries, made with catalogue as spaCy makes its own.

`formats`: the input formats of `compare` (and of `compare_files`). An
entry is a `formats.base.Format`; another package adds one under the entry point
group `spacy_spanf1_formats`, with no change to this one:

    [project.entry-points.spacy_spanf1_formats]
    myformat = "my_package.formats:MY_FORMAT"
"""

import importlib
from typing import Any, Dict

import catalogue


class FormatRegistry(catalogue.Registry):
    """The formats, the built-in ones registered when the registry is
    first read (`spacy_spanf1.formats` registers them as it is imported),
    so that `registry.formats.get("doccano")` finds them without that
    import first."""

    def _with_builtins(self) -> None:
        importlib.import_module("spacy_spanf1.formats")

    def __contains__(self, name: str) -> bool:
        self._with_builtins()
        return super().__contains__(name)

    def get(self, name: str) -> Any:
        self._with_builtins()
        return super().get(name)

    def get_all(self) -> Dict[str, Any]:
        self._with_builtins()
        return super().get_all()


formats = FormatRegistry(("spacy_spanf1", "formats"), entry_points=True)
