"""`compare --help` names every registered format: the command's list of
formats and the help of --format, --gold-format and --pred-format are made
from the formats registry, so a format registered before the command line
is built (an entry point, or code run first) is listed too."""

import json

from helpers import invoke, python

BLOCK = "  Formats (--format; default: from the extension):"


def listed_formats(help_text):
    """The names at the start of the lines of the help's Formats block."""
    lines = help_text.splitlines()
    block = lines[lines.index(BLOCK) + 1 :]
    block = block[: next(i for i, line in enumerate(block) if not line.strip())]
    return [line.split()[0] for line in block if not line.startswith(" " * 5)]


def test_compare_help_lists_every_registered_format():
    from typer.main import get_command

    from spacy_spanf1 import registry
    from spacy_spanf1.cli import app

    names = list(registry.formats.get_all())
    assert len(names) >= 10 and {"spacy", "jsonl", "brat", "labelstudio", "mentions"} <= set(names)
    result = invoke(["compare", "--help"])
    assert result.exit_code == 0, result.stderr
    assert listed_formats(result.stdout) == names
    params = {param.name: param for param in get_command(app).commands["compare"].params}
    for setting in ("format", "gold_format", "pred_format"):
        assert ", ".join(names) in params[setting].help, setting


def test_a_format_registered_first_is_in_the_help():
    code = (
        "import json\n"
        "from spacy_spanf1 import registry\n"
        "from spacy_spanf1.formats import Format\n"
        "class Tsv(Format):\n"
        "    '''Tab-separated start, end, label (unit char).'''\n"
        "    name = 'tsv'\n"
        "    units = ('char',)\n"
        "    extensions = ('.tsv',)\n"
        "registry.formats.register('tsv', func=Tsv())\n"
        "from typer.testing import CliRunner\n"
        "from spacy_spanf1.cli import app\n"
        "result = CliRunner().invoke(app, ['compare', '--help'], prog_name='spacy-spanf1')\n"
        "print(json.dumps(result.stdout))\n"
    )
    done = python("-c", code)
    assert done.returncode == 0, done.stderr
    text = json.loads(done.stdout.strip().splitlines()[-1])
    assert listed_formats(text)[-1] == "tsv"
    assert "    tsv          Tab-separated start, end, label (unit char)." in text
