"""stdout closed by its reader before the command prints (`| head -1`,
`| true`) ends every command quietly with status 0, as `compare | head -1`
does; --help and --version too. click exited 1 without a word."""

import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest
import typer.main
from helpers import ROOT, WORKERS, cli_env

from spacy_spanf1.cli import app

EXAMPLES = ROOT / "examples"
PRF = "3 0 1 PER 4 6 LOC 8 8 ORG 2 0 1 PER 4 6 LOC\n"

#: A run of each command of the app that prints to stdout.
RUNS = {
    "agree": ["agree", EXAMPLES / "gold.jsonl", EXAMPLES / "pred.jsonl", "-s", "strict"],
    "compare": ["compare", EXAMPLES / "gold.jsonl", EXAMPLES / "pred.jsonl", "-s", "strict,partial", "--by", "label"],
    "evaluate": ["evaluate", EXAMPLES / "ner-model", EXAMPLES / "corpus.spacy", "-s", "strict"],
    "prf": ["prf"],
    "sweep": ["sweep", EXAMPLES / "gold.jsonl", EXAMPLES / "scored.jsonl", "-s", "strict"],
}
EXTRA = {
    "--version": ["--version"],
    "--help": ["--help"],
    **{f"{name} --help": [name, "--help"] for name in RUNS},
    "failing": ["compare", EXAMPLES / "missing.jsonl", EXAMPLES / "pred.jsonl", "-s", "strict"],
}


def run_with_stdout_closed(args):
    """(status, stderr) of the command whose stdout has no reader at all:
    its read end is closed before the command starts."""
    read_end, write_end = os.pipe()
    os.close(read_end)
    try:
        process = subprocess.run(
            [sys.executable, "-m", "spacy_spanf1", *map(str, args)],
            stdout=write_end,
            stderr=subprocess.PIPE,
            input=PRF if args == ["prf"] else "",
            text=True,
            env=cli_env(),
            timeout=300,
            cwd=ROOT,
        )
    finally:
        os.close(write_end)
    return process.returncode, process.stderr


@pytest.fixture(scope="module")
def closed_runs():
    jobs = {**RUNS, **EXTRA}
    with ThreadPoolExecutor(WORKERS) as pool:
        return dict(zip(jobs, pool.map(run_with_stdout_closed, jobs.values())))


def test_every_command_of_the_app_is_run():
    assert set(typer.main.get_command(app).commands) == set(RUNS)


@pytest.mark.parametrize("name", [*RUNS, *[name for name in EXTRA if name != "failing"]])
def test_a_closed_stdout_exits_0_quietly(closed_runs, name):
    status, stderr = closed_runs[name]
    # stderr may hold a progress bar (evaluate) and the warnings of imports, never an error
    assert status == 0, stderr
    assert not any(word in stderr for word in ("Traceback", "BrokenPipe", "Broken pipe", "✘", "Error")), stderr


def test_a_failing_command_keeps_its_status_and_message(closed_runs):
    status, stderr = closed_runs["failing"]
    assert status == 1 and stderr.startswith("✘") and "missing.jsonl" in stderr and "Traceback" not in stderr
