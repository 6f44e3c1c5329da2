"""The Python front doors, the plain functions every front end calls:

- `compare_files` (two files, or one holding both sides) and
  `evaluate_pipeline` (a spaCy pipeline over DocBins): `scores.py`;
- `agreement` (annotators given as span lists) and `agree_files` (as
  files; and their consensus): `agree.py`;
- `sweep_files`, `sweep_pipeline` and `sweep_source` (either, told apart by
  the source): `sweep.py`;
- `prf_from_text` (the `prf` calculator): `prf.py`.

Each takes its settings as the settings objects of `spacy_spanf1.settings`
(`match=MatchSettings(...)`, `read=ReadSettings(...)`,
`analysis=AnalysisSettings(...)`, `agreement=AgreementSettings(...)`,
`run=RunSettings(...)`, `sweep=SweepSettings(...)`) or as their
fields, typed keywords (`schemes="strict"`, `bootstrap=1000`), or both: a
keyword given beside an object is written over the object's field
(`keywords.settings_from`). A keyword a door does not take is a TypeError
naming those it does; a bad value a `SettingError` naming the setting,
the value and what is valid. They print and write nothing.

Errors name settings (`schemes`, `format`, `unit`, `spans_key`, ...), not
command-line flags: `SettingError` for a bad setting, `InputError` for bad
input (`spacy_spanf1.exceptions`). What the corpus checks find suspicious
but not wrong is in the result's `warnings`, each also given as a
UserWarning (not inside `notes.warnings_shown`, where the caller shows
them: the commands print them).
"""

from typing import TYPE_CHECKING

from ..corpus import FULL_COLLECTION, score_pairs
from ..exceptions import InputError, SettingError
from ..lazy import lazy_exports
from ..results import CorpusScores
from .prf import prf_from_stdin, prf_from_text
from .scores import compare_files, evaluate_pipeline

#: The doors imported when first asked for (module __getattr__), so that
#: `compare_files` does not import the agreement and sweep packages:
#: module -> the names it exports.
_LAZY = {
    "agree": ("agree_files", "agreement"),
    "sweep": ("is_pipeline", "sweep_files", "sweep_pipeline", "sweep_source"),
}


if TYPE_CHECKING:  # the lazy names, for type checkers and editors (`as`: re-exported)
    from .agree import agree_files as agree_files, agreement as agreement
    from .sweep import (
        is_pipeline as is_pipeline,
        sweep_files as sweep_files,
        sweep_pipeline as sweep_pipeline,
        sweep_source as sweep_source,
    )


#: What the package imports, and the doors it imports when first asked for.
__all__ = [
    "CorpusScores",
    "FULL_COLLECTION",
    "InputError",
    "SettingError",
    "agree_files",
    "agreement",
    "compare_files",
    "evaluate_pipeline",
    "is_pipeline",
    "prf_from_stdin",
    "prf_from_text",
    "score_pairs",
    "sweep_files",
    "sweep_pipeline",
    "sweep_source",
]

__getattr__ = lazy_exports(__name__, _LAZY, globals())
