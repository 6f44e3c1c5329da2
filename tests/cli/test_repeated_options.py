"""An option that takes one value, given twice, is a usage error (status 2)
naming it, as a repeated --schemes is: click would keep the last value and
drop the others without a word (`--by label --by genre` broke down by genre
alone)."""

import json

import pytest
import typer.main
from helpers import assert_clean_failure, invoke

from spacy_spanf1.cli import app

COMMANDS = typer.main.get_command(app).commands


def single_valued(command):
    """The options of a command that take one value (not lists, not switches)."""
    return [
        param
        for param in command.params
        if param.param_type_name == "option" and not (param.multiple or param.is_flag or param.count or param.is_eager)
    ]


CASES = [(name, param.opts[0]) for name, command in sorted(COMMANDS.items()) for param in single_valued(command)]


def test_every_command_with_options_is_covered():
    # prf takes no option; every other command takes --by or --unit at least
    assert {name for name, _ in CASES} == set(COMMANDS) - {"prf"}
    assert ("compare", "--by") in CASES and ("agree", "--names") in CASES and ("sweep", "--pipe") in CASES


@pytest.mark.parametrize("name,option", CASES, ids=[f"{name}{option}" for name, option in CASES])
def test_a_repeated_option_is_refused(name, option):
    result = invoke([name, option, "1", option, "2"])
    assert_clean_failure(
        result, 2, f"Invalid value for '{option}': '{option}' is given 2 times ({option} 1 {option} 2); give it once"
    )


def write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_repeated_by_names_both_values_and_the_comma_separated_form(tmp_path):
    gold = write(tmp_path / "g.jsonl", [{"text": "Ann met Bob", "spans": [{"start": 0, "end": 3, "label": "PER"}]}])
    result = invoke(["compare", gold, gold, "-s", "strict", "--by", "label", "--by=span_length"])
    assert_clean_failure(
        result,
        2,
        "'--by' is given 2 times (--by label --by span_length); give it once, comma-separated: --by label,span_length",
    )
    short = invoke(["compare", gold, gold, "-s", "strict", "-u", "char", "-utoken"])
    assert_clean_failure(short, 2, "'--unit' is given 2 times (--unit char --unit token); give it once")
    assert "comma-separated" not in short.stderr
    # A switch given twice says the same thing twice: taken; one --by is taken.
    once = invoke(["compare", gold, gold, "-s", "strict", "--by", "label,span_length", "--silent", "--silent"])
    assert once.exit_code == 0 and once.stdout == "", once.output
