"""What the command line prints names its flags ('--labels'), not the
library's settings ('labels'): the errors did, and the warnings and notes
printed beside the scores now do too."""

import json

from helpers import invoke


def test_a_warning_names_the_flag(tmp_path):
    gold = tmp_path / "g.jsonl"
    pred = tmp_path / "p.jsonl"
    gold.write_text(
        json.dumps(
            {
                "text": "Ann in Rome",
                "spans": [{"start": 0, "end": 3, "label": "PER"}, {"start": 7, "end": 11, "label": "LOC"}],
            }
        )
        + "\n"
    )
    pred.write_text(json.dumps({"text": "Ann in Rome", "spans": [{"start": 0, "end": 3, "label": "PER"}]}) + "\n")
    result = invoke(["compare", gold, pred, "--schemes", "strict", "--labels", "PER,LOC"])
    assert result.exit_code == 0, result.output
    line = next(line for line in result.stdout.splitlines() if "occurs only in the gold" in line)
    assert line == "⚠ the label \"LOC\" of '--labels' occurs only in the gold"
