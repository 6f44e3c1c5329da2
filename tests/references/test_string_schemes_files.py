"""The string schemes on files: `compare` puts an LLM's answers (mentions
without offsets) and a system with spans in one table. `strings` on files
is checked against unitxt's `NER` metric run in the test, on the (string,
label) lists the files hold; `strings_normalized` and the span schemes by
hand."""

import json
import random

import pytest

from helpers import assert_clean_failure, invoke, write_jsonl
from spacy_spanf1 import SettingError, compare_files, evaluate_spans
from test_mentions_references import LABELS, POOL, unitxt_ner


def _files(tmp_path, seed, n_docs=120):
    """A gold JSONL (spans), a predicted JSONL (spans) and an answers file
    (mentions) of the same documents, and the (string, label) lists."""
    rng = random.Random(seed)
    gold, pred, answers, gold_strings, pred_strings, mentions = [], [], [], [], [], []
    for k in range(n_docs):
        words = [rng.choice(POOL) for _ in range(rng.randint(1, 7))]
        text = " ".join(words)
        starts = [sum(len(w) + 1 for w in words[:i]) for i in range(len(words))]
        spans = [(starts[i], starts[i] + len(w), rng.choice(LABELS)) for i, w in enumerate(words) if rng.random() < 0.7]
        predicted = [s if rng.random() < 0.7 else (s[0], s[1], rng.choice(LABELS)) for s in spans if rng.random() < 0.8]
        listed = [(text[s:e], label) for s, e, label in predicted]
        listed += [(rng.choice(POOL + ["Oslo"]), rng.choice(LABELS)) for _ in range(rng.choice([0, 0, 1]))]
        gold.append({"text": text, "spans": [{"start": s, "end": e, "label": label} for s, e, label in spans]})
        pred.append({"text": text, "spans": [{"start": s, "end": e, "label": label} for s, e, label in predicted]})
        answers.append(
            {"id": str(k), "text": text, "output": json.dumps([{"text": s, "label": label} for s, label in listed])}
        )
        gold_strings.append([(text[s:e], label) for s, e, label in spans])
        pred_strings.append([(text[s:e], label) for s, e, label in predicted])
        mentions.append(listed)
    paths = (
        write_jsonl(tmp_path / "gold.jsonl", gold),
        write_jsonl(tmp_path / "pred.jsonl", pred),
        write_jsonl(tmp_path / "answers.jsonl", answers),
    )
    return paths, gold_strings, pred_strings, mentions


@pytest.mark.parametrize("seed", [0, 1])
def test_strings_on_files_is_unitxt_ner(tmp_path, seed):
    (gold, pred, answers), gold_strings, pred_strings, mentions = _files(tmp_path, seed)
    for path, fmt, listed in ((pred, None, pred_strings), (answers, "mentions", mentions)):
        scores = compare_files(gold, path, format=fmt, schemes=["strict", "strings", "strings_normalized"])
        theirs = unitxt_ner(gold_strings, listed)
        ours = scores.results["strings"]
        assert ours.precision == theirs["precision_micro"] and ours.recall == theirs["recall_micro"]
        assert ours.f1 == pytest.approx(theirs["f1_micro"], rel=1e-12, abs=1e-15)


def test_a_span_system_and_an_llm_in_one_table(tmp_path):
    gold = write_jsonl(
        tmp_path / "gold.jsonl",
        [
            {
                "text": "Ann Lee met the Acme staff.",
                "spans": [{"start": 0, "end": 7, "label": "PER"}, {"start": 12, "end": 20, "label": "ORG"}],
            }
        ],
    )
    pred = write_jsonl(
        tmp_path / "pred.jsonl",
        [
            {
                "text": "Ann Lee met the Acme staff.",
                "spans": [{"start": 0, "end": 3, "label": "PER"}, {"start": 16, "end": 20, "label": "ORG"}],
            }
        ],
    )
    answers = write_jsonl(
        tmp_path / "answers.jsonl",
        [{"text": "Ann Lee met the Acme staff.", "mentions": [["ann lee", "PER"], ["Acme", "ORG"]]}],
    )
    spans = compare_files(gold, pred, schemes=["strict", "strings", "strings_normalized"])
    llm = compare_files(gold, answers, format="mentions", schemes=["strict", "strings", "strings_normalized"])
    # By hand. Gold strings: ("Ann Lee", PER), ("the Acme", ORG).
    # Spans: "Ann" PER and "Acme" ORG: strict INC 2; strings TP 0; normalized: "ann" vs "ann lee" no,
    # "acme" vs "acme" (the article removed) yes: TP 1, FP 1, FN 1.
    assert spans.results["strict"].counts == {"cor": 0, "inc": 2, "par": 0, "mis": 0, "spu": 0}
    assert spans.results["strings"].counts == {"tp": 0, "fp": 2, "fn": 2}
    assert spans.results["strings_normalized"].counts == {"tp": 1, "fp": 1, "fn": 1}
    # The LLM: "ann lee" grounded by normalization to 0-7 (COR), "Acme" exact 16-20 (INC: other
    # boundaries); strings TP 0 ("ann lee" is not "Ann Lee"); normalized: both match.
    assert llm.results["strict"].counts == {"cor": 1, "inc": 1, "par": 0, "mis": 0, "spu": 0}
    assert llm.results["strings"].counts == {"tp": 0, "fp": 2, "fn": 2}
    assert llm.results["strings_normalized"].counts == {"tp": 2, "fp": 0, "fn": 0}
    result = invoke(
        ["compare", gold, answers, "--format", "mentions", "--schemes", "strict,strings,strings_normalized"]
    )
    assert result.exit_code == 0
    assert any(line.startswith("strings_normalized   100.00   100.00   100.00") for line in result.stdout.splitlines())


def test_string_schemes_take_intervals_and_tests(tmp_path):
    (gold, pred, answers), *_ = _files(tmp_path, 3, n_docs=40)
    scores = compare_files(
        gold, answers, format="mentions", schemes=["strict", "strings"], bootstrap=100, baseline=None
    )
    assert scores.intervals["strings"].f.estimate == scores.results["strings"].f1
    compared = compare_files(gold, pred, schemes=["strict", "strings"], baseline=gold, test="bootstrap")
    assert compared.comparison["strings"].delta == pytest.approx(scores_f(compared, "strings") - 1.0)


def scores_f(scores, scheme):
    return scores.results[scheme].f1


def test_string_schemes_are_not_primary_and_need_texts(tmp_path):
    with pytest.raises(SettingError, match="the first \\(primary\\) scheme is a span scheme"):
        compare_files(tmp_path / "g.jsonl", tmp_path / "p.jsonl", schemes=["strings", "strict"])
    with pytest.raises(SettingError, match="compares the texts of spans"):
        evaluate_spans([[(0, 1, "A")]], [[(0, 1, "A")]], schemes=["strict", "strings"])
    result = invoke(["compare", "g.jsonl", "p.jsonl", "--schemes", "strings"])
    assert_clean_failure(result, 2, "the first (primary) scheme is a span scheme")
