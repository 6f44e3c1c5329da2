"""`spacy-spanf1 agree`: one file given twice is refused, and the positions
of the kappas and alpha are named as what they are (characters in char
unit, tokens in token unit) on the terminal, in the JSON and on the page."""

import json

import pytest
from helpers import assert_clean_failure, invoke

#: "Ann met Bob." (12 characters, 3 tokens) and "Hi there" (8 characters, 2 tokens).
A = [
    {"text": "Ann met Bob.", "tokens": ["Ann", "met", "Bob."], "spans": [{"start": 0, "end": 3, "label": "PER"}]},
    {"text": "Hi there", "tokens": ["Hi", "there"], "spans": []},
]
B = [
    {"text": "Ann met Bob.", "tokens": ["Ann", "met", "Bob."], "spans": [{"start": 0, "end": 3, "label": "PER"}]},
    {"text": "Hi there", "tokens": ["Hi", "there"], "spans": []},
]


def write(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
    return path


def test_one_file_given_twice_is_an_error_naming_it(tmp_path, monkeypatch):
    # It was scored as two annotators agreeing perfectly, or refused as "1 annotator".
    monkeypatch.chdir(tmp_path)
    write(tmp_path / "a.jsonl", A)
    write(tmp_path / "b.jsonl", B)
    for args in (["a.jsonl", "a.jsonl"], ["a.jsonl", "b.jsonl", str(tmp_path / "a.jsonl")]):
        result = invoke(["agree", *args, "--schemes", "strict"])
        assert_clean_failure(result, 2, "gives the file 'a.jsonl' twice")
        assert "give each annotator's file once" in result.stderr


@pytest.mark.parametrize("unit,position,positions", [("char", "character", 20), ("token", "token", 5)])
def test_positions_are_named_by_their_unit(tmp_path, unit, position, positions):
    # 20 characters or 5 tokens over the two documents, O positions included.
    a = write(tmp_path / "a.jsonl", A)
    b = write(tmp_path / "b.jsonl", B)
    out, page = tmp_path / "out.json", tmp_path / "page.html"
    result = invoke(["agree", a, b, "--schemes", "strict", "--unit", unit, "--output", out, "--html", page])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.stdout.splitlines() if "kappa" in line)
    assert line.startswith(f"ℹ {position}s (O positions included, {positions} positions): ")
    tokens = json.loads(out.read_text())["tokens"]
    assert tokens["unit"] == unit and tokens["positions"] == positions
    html = page.read_text()
    assert f"<h2>{position.capitalize()} agreement</h2>" in html and f"Each position is a {position}." in html
    other = {"character": "Token", "token": "Character"}[position]
    assert f"<h2>{other} agreement</h2>" not in html
