"""The `spacy-spanf1` command line (also `python -m spacy_spanf1`).

One module per command, each a thin typer function over a plain function
that returns the scores (`evaluate.evaluate_model` over
`api.evaluate_pipeline`, `compare.compare_command` over `api.compare_files`,
`prf`, `agree.agree_command` over `api.agree_files`, `sweep.sweep_command`
over `api.sweep_source`); `options` declares every option once, `output`
prints and writes, `main` holds the app and turns errors into one line: bad
input exits with status 1, a bad setting with status 2 and names its flag;
any other exception keeps its traceback and exits with status 70.
"""

from .agree import agree_cli, agree_command
from .compare import compare_command, compare_cli
from .evaluate import evaluate_cli, evaluate_model
from .main import app
from .prf import prf_cli
from .sweep import sweep_cli, sweep_command

__all__ = [
    "agree_cli",
    "agree_command",
    "app",
    "compare_cli",
    "compare_command",
    "evaluate_cli",
    "evaluate_model",
    "prf_cli",
    "sweep_cli",
    "sweep_command",
]
