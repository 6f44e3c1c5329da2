"""Warnings where the data looks off, in Python (the result's `warnings`,
and a UserWarning each) and on the command line (a ⚠ line each, the
"warnings" of the --output JSON, no UserWarning: an in-process run that
gave one would fail here, pytest turning warnings into errors):

- a label found on one side only, with the closest label of the other side
  (compare, agree, sweep);
- character spans that mostly start or end inside a word: token offsets;
- a span categorizer's corpus scored on its entities (no spans_key).

Clean data gives none.
"""

import json
import warnings
from pathlib import Path

import pytest
import spacy
from spacy.tokens import DocBin
from spacy.tokens import Span as SpacySpan

from helpers import assert_clean_failure, invoke, run, write_jsonl
from spacy_spanf1 import compare_files, evaluate_pipeline
from spacy_spanf1 import agreement
from spacy_spanf1.api import agree_files
from spacy_spanf1.exceptions import InputError
from spacy_spanf1.sweeps import sweep
from spacy_spanf1.api import sweep_files

TEXT = "Maria Schmidt lives in Berlin"
PER, LOC = (0, 13), (23, 29)  # "Maria Schmidt", "Berlin"


def records(labels, spans=(PER, LOC), score=None):
    """One record of TEXT per entry of labels (the labels of its spans)."""
    out = []
    for i, doc_labels in enumerate(labels):
        found = [{"start": s, "end": e, "label": label} for (s, e), label in zip(spans, doc_labels)]
        if score is not None:
            for span in found:
                span["score"] = score(i, span)
        out.append({"text": TEXT, "spans": found})
    return out


def gold_file(tmp_path, n=10):
    return write_jsonl(tmp_path / "gold.jsonl", records([("PER", "LOC")] * n))


def cli(args, tmp_path):
    """The command in-process, with --output: (stdout, the JSON written)."""
    out = tmp_path / "out.json"
    result = invoke([*args, "--output", out])
    assert result.exit_code == 0, result.output
    assert "UserWarning" not in result.output
    return result.stdout, json.loads(out.read_text(encoding="utf-8"))


def warned_lines(stdout):
    return [line[2:] for line in stdout.splitlines() if line.startswith("⚠ ")]


# --------------------------------------------------------------------------
# Labels on one side only
# --------------------------------------------------------------------------

PERSON = 'the predicted label "PERSON" (3 spans) never occurs in the gold; closest gold label "PER"'


def test_a_predicted_label_the_gold_lacks_is_named_with_its_spans_and_the_closest_gold_label(tmp_path):
    gold = gold_file(tmp_path)
    pred = write_jsonl(tmp_path / "pred.jsonl", records([("PERSON", "LOC")] * 3 + [("PER", "LOC")] * 7))
    with pytest.warns(UserWarning) as caught:
        scores = compare_files(gold, pred, schemes="strict")
    assert [str(w.message) for w in caught] == [PERSON] and scores.warnings == (PERSON,)
    # 7 PER and 10 LOC right, the 3 PERSON spans of the wrong type: P = R = 17/20
    assert scores.results["strict"].counts == {"cor": 17, "inc": 3, "par": 0, "mis": 0, "spu": 0}
    assert scores.results["strict"].f1 == pytest.approx(17 / 20)
    stdout, data = cli(["compare", gold, pred, "-s", "strict"], tmp_path)
    assert warned_lines(stdout) == [PERSON] and data["warnings"] == [PERSON]


def test_a_label_that_differs_in_case_has_the_gold_label_as_closest(tmp_path):
    gold = gold_file(tmp_path)
    pred = write_jsonl(tmp_path / "pred.jsonl", records([("per", "LOC")] * 2 + [("PER", "LOC")] * 8))
    expected = 'the predicted label "per" (2 spans) never occurs in the gold; closest gold label "PER"'
    with pytest.warns(UserWarning, match="never occurs in the gold"):
        assert compare_files(gold, pred, schemes="strict").warnings == (expected,)


def test_a_gold_label_never_predicted_is_named_only_when_its_closest_predicted_label_is_a_rename(tmp_path):
    # MISC, never predicted, is low recall: no warning
    gold = write_jsonl(tmp_path / "gold.jsonl", records([("PER", "LOC", "MISC")] * 4, spans=(PER, LOC, (14, 19))))
    pred = write_jsonl(tmp_path / "pred.jsonl", records([("PER", "LOC")] * 4))
    assert compare_files(gold, pred, schemes="strict").warnings == ()
    # PERSON's closest gold label is PER (the nearest in length of the two it begins or is begun by);
    # PERSON_TITLE, never predicted, has PERSON as its closest predicted label, which the gold lacks
    spans = (PER, LOC, (14, 19))
    gold = write_jsonl(tmp_path / "gold.jsonl", records([("PER", "LOC", "PERSON_TITLE")] * 2, spans=spans))
    pred = write_jsonl(tmp_path / "pred.jsonl", records([("PERSON", "LOC", "PERSON")] * 2, spans=spans))
    with pytest.warns(UserWarning, match="never"):
        scores = compare_files(gold, pred, schemes="strict")
    assert scores.warnings == (
        'the predicted label "PERSON" (4 spans) never occurs in the gold; closest gold label "PER"',
        'the gold label "PERSON_TITLE" (2 spans) is never predicted; closest predicted label "PERSON", which '
        "never occurs in the gold",
    )


def test_many_one_sided_labels_are_five_warnings_and_the_count_of_the_others(tmp_path):
    gold = gold_file(tmp_path, n=7)
    labels = [("PER", f"X{i}") for i in range(1, 8)]  # X1 ... X7, one span each, no gold label like them
    pred = write_jsonl(tmp_path / "pred.jsonl", records(labels))
    with pytest.warns(UserWarning, match="never occur"):
        scores = compare_files(gold, pred, schemes="strict")
    assert scores.warnings == tuple(
        f'the predicted label "X{i}" (1 span) never occurs in the gold' for i in range(1, 6)
    ) + ('2 more predicted labels (2 spans) never occur in the gold: "X6", "X7"',)


# --------------------------------------------------------------------------
# Token offsets read as characters
# --------------------------------------------------------------------------

# The token offsets of "Maria Schmidt" (0, 2) and "Berlin" (4, 5) read as characters: "Ma" and "a"
TOKEN_SPANS = ((0, 2), (4, 5))
TOKENS_WARNING = (
    '20 of 20 predicted spans start or end inside a word (e.g. (0, 2) = "Ma" in line 1; '
    '(4, 5) = "a" in line 1; (0, 2) = "Ma" in line 2): are these token offsets? pass {unit}'
)


def test_token_offsets_in_a_character_file_are_named(tmp_path):
    gold = gold_file(tmp_path)
    pred = write_jsonl(tmp_path / "pred.jsonl", records([("PER", "LOC")] * 10, spans=TOKEN_SPANS))
    with pytest.warns(UserWarning, match="are these token offsets"):
        scores = compare_files(gold, pred, schemes="strict")
    assert scores.warnings == (TOKENS_WARNING.format(unit='unit="token"'),)
    assert scores.results["strict"].counts["cor"] == 0
    stdout, data = cli(["compare", gold, pred, "-s", "strict"], tmp_path)
    assert warned_lines(stdout) == [TOKENS_WARNING.format(unit='--unit="token"')]
    assert data["warnings"] == [TOKENS_WARNING.format(unit='unit="token"')]


def test_few_spans_inside_words_are_no_warning(tmp_path):
    # 19 spans (9 documents of 2, one of 1): below the 20 a side needs
    gold = gold_file(tmp_path)
    pred = write_jsonl(tmp_path / "pred.jsonl", records([("PER", "LOC")] * 9 + [("PER",)], spans=TOKEN_SPANS))
    assert compare_files(gold, pred, schemes="strict").warnings == ()
    # 20 spans, 9 inside a word (4 documents of 2, one of 1): under half
    cut = records([("PER", "LOC")] * 4, spans=TOKEN_SPANS) + records([("PER", "LOC")], spans=((0, 2), LOC))
    pred = write_jsonl(tmp_path / "pred.jsonl", cut + records([("PER", "LOC")] * 5))
    assert compare_files(gold, pred, schemes="strict").warnings == ()
    # 10 inside a word of 20: half, a warning
    cut = records([("PER", "LOC")] * 5, spans=TOKEN_SPANS)
    pred = write_jsonl(tmp_path / "pred.jsonl", cut + records([("PER", "LOC")] * 5))
    with pytest.warns(UserWarning, match="10 of 20 predicted spans start or end inside a word"):
        compare_files(gold, pred, schemes="strict")


def test_only_the_first_spans_of_a_large_corpus_are_looked_at(tmp_path, monkeypatch):
    from spacy_spanf1 import notes

    monkeypatch.setattr(notes, "INSIDE_WORD_CHECKED", 24)  # of the 40 predicted spans
    gold = gold_file(tmp_path, n=20)
    pred = write_jsonl(tmp_path / "pred.jsonl", records([("PER", "LOC")] * 20, spans=TOKEN_SPANS))
    with pytest.warns(UserWarning, match="are these token offsets"):
        (warning,) = compare_files(gold, pred, schemes="strict").warnings
    assert warning.startswith(
        '24 of 24 predicted spans looked at (the first 24 of each file) start or end inside a word (e.g. (0, 2) = "Ma"'
    )


def test_the_spans_inside_words_of_shards_add_up(tmp_path):
    # two shards of 5 documents: 10 predicted spans each, too few alone; 20 together
    for side in ("g", "p"):
        (tmp_path / side).mkdir()
    for name in ("a.jsonl", "b.jsonl"):
        write_jsonl(tmp_path / "g" / name, records([("PER", "LOC")] * 5))
        write_jsonl(tmp_path / "p" / name, records([("PER", "LOC")] * 5, spans=TOKEN_SPANS))
    with pytest.warns(UserWarning, match="are these token offsets"):
        scores = compare_files(tmp_path / "g", tmp_path / "p", schemes="strict")
    (warning,) = scores.warnings
    assert warning.startswith('20 of 20 predicted spans start or end inside a word (e.g. (0, 2) = "Ma" in a.jsonl')


# --------------------------------------------------------------------------
# A span categorizer's corpus scored on its entities
# --------------------------------------------------------------------------


def spancat_docbin(path, nlp, with_ents):
    """3 docs of TEXT with the span group "sc" (Maria Schmidt PER, Berlin
    LOC); with_ents: their entity annotation set, to none."""
    docs = []
    for _ in range(3):
        doc = nlp(TEXT)
        doc.spans["sc"] = [SpacySpan(doc, 0, 2, "PER"), SpacySpan(doc, 4, 5, "LOC")]
        if with_ents:
            doc.ents = []
        docs.append(doc)
    DocBin(docs=docs, store_user_data=True).to_disk(path)
    return path


SPANS_KEY = 'the gold has no entities but span groups "sc" (6 spans): pass {key}'


def test_span_groups_of_a_gold_without_entities_are_named(tmp_path):
    nlp = spacy.blank("en")
    gold = spancat_docbin(tmp_path / "gold.spacy", nlp, with_ents=True)
    with pytest.warns(UserWarning, match="span groups"), pytest.warns(UserWarning, match="no gold span"):
        scores = compare_files(gold, gold, schemes="strict")
    assert scores.warnings[0] == SPANS_KEY.format(key='spans_key="sc"')
    assert compare_files(gold, gold, schemes="strict", spans_key="sc").results["strict"].f1 == 1.0
    stdout, data = cli(["compare", gold, gold, "-s", "strict"], tmp_path)
    assert warned_lines(stdout)[0] == SPANS_KEY.format(key='--spans-key="sc"')
    assert data["warnings"][0] == SPANS_KEY.format(key='spans_key="sc"')
    # without entity annotation every gold document is skipped: the error names the span groups
    bare = spancat_docbin(tmp_path / "bare.spacy", nlp, with_ents=False)
    with pytest.raises(
        InputError,
        match='none has entity annotation, but the gold has span groups "sc" '
        r'\(6 spans\): pass spans_key="sc"',
    ):
        compare_files(bare, bare, schemes="strict")
    assert_clean_failure(invoke(["compare", bare, bare, "-s", "strict"]), 1, 'pass --spans-key="sc"')


def test_evaluate_names_the_span_groups_of_a_spancat_corpus(tmp_path):
    nlp = spacy.blank("en")
    nlp.to_disk(tmp_path / "model")
    data = spancat_docbin(tmp_path / "dev.spacy", nlp, with_ents=True)
    with pytest.warns(UserWarning, match="span groups"), pytest.warns(UserWarning, match="no gold span"):
        scores = evaluate_pipeline(str(tmp_path / "model"), data, schemes="strict")
    assert scores.warnings[0] == SPANS_KEY.format(key='spans_key="sc"')
    stdout, written = cli(["evaluate", tmp_path / "model", data, "-s", "strict"], tmp_path)
    assert warned_lines(stdout)[0] == SPANS_KEY.format(key='--spans-key="sc"')
    assert written["warnings"][0] == SPANS_KEY.format(key='spans_key="sc"')


# --------------------------------------------------------------------------
# agree and sweep
# --------------------------------------------------------------------------

LOWER = (
    'the label "per" of annotator "c" (4 spans) occurs in no other annotator\'s spans; closest label of the '
    'others "PER"'
)


def annotator_files(tmp_path, labels):
    paths = []
    for name, label in labels.items():
        paths.append(
            write_jsonl(
                tmp_path / f"{name}.jsonl",
                [
                    {"text": f"Maria lives here {i}", "spans": [{"start": 0, "end": 5, "label": label}]}
                    for i in range(4)
                ],
            )
        )
    return paths


def test_an_annotator_with_lower_case_labels_is_named(tmp_path):
    paths = annotator_files(tmp_path, {"a": "PER", "b": "PER", "c": "per"})
    with pytest.warns(UserWarning) as caught:
        result = agree_files(paths, schemes="strict")
    assert [str(w.message) for w in caught] == [LOWER] and result.warnings == (LOWER,)
    # a and b agree on every span (F 1 both ways), c with neither (F 0): the mean of 6 ordered pairs is 2/6
    assert result.mean_f["strict"] == pytest.approx(2 / 6)
    stdout, data = cli(["agree", *paths, "-s", "strict"], tmp_path)
    assert warned_lines(stdout) == [LOWER] and data["warnings"] == [LOWER]


def test_two_annotators_each_the_others_closest_are_named_once():
    with pytest.warns(UserWarning) as caught:
        result = agreement({"a": [[(0, 1, "PER")]], "b": [[(0, 1, "per")]]}, schemes=["strict"])
    assert (
        [str(w.message) for w in caught]
        == list(result.warnings)
        == [
            'the label "PER" of annotator "a" (1 span) occurs in no other annotator\'s spans; closest label of the '
            'others "per"'
        ]
    )


SWEPT = 'the predicted label "PERSON" (5 spans) never occurs in the gold; closest gold label "PER"'


def test_a_sweep_names_a_predicted_label_the_gold_lacks(tmp_path):
    gold = gold_file(tmp_path, n=5)
    pred = write_jsonl(
        tmp_path / "scored.jsonl",
        records([("PERSON", "LOC")] * 5, score=lambda i, span: 0.9 if span["label"] == "PERSON" else 0.4 + i / 10),
    )
    with pytest.warns(UserWarning) as caught:
        result = sweep_files(gold, pred, schemes=["strict"])
    assert [str(w.message) for w in caught] == [SWEPT] and result.warnings == (SWEPT,)
    stdout, data = cli(["sweep", gold, pred, "-s", "strict"], tmp_path)
    assert warned_lines(stdout) == [SWEPT] and data["warnings"] == [SWEPT]
    with pytest.warns(UserWarning, match="never occurs in the gold"):
        assert sweep([[(0, 1, "A")]], [[(0, 1, "B", 0.5)]], schemes=["strict"]).warnings == (
            'the predicted label "B" (1 span) never occurs in the gold',
        )


def test_the_command_line_prints_a_warning_once_and_gives_no_python_warning(tmp_path):
    gold = gold_file(tmp_path)
    pred = write_jsonl(tmp_path / "pred.jsonl", records([("PERSON", "LOC")] * 3 + [("PER", "LOC")] * 7))
    done = run(["compare", gold, pred, "-s", "strict"], tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(PERSON) == 1 and "UserWarning" not in done.stderr and PERSON not in done.stderr


# --------------------------------------------------------------------------
# Clean data
# --------------------------------------------------------------------------


EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def test_clean_data_gives_no_warning(tmp_path):
    gold, pred, scored = EXAMPLES / "gold.jsonl", EXAMPLES / "pred.jsonl", EXAMPLES / "scored.jsonl"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert compare_files(gold, pred, schemes="strict,partial").warnings == ()
        assert agree_files([gold, pred], schemes="strict").warnings == ()
        assert sweep_files(gold, scored, schemes=["strict"]).warnings == ()
    for args in (
        ["compare", gold, pred, "-s", "strict"],
        ["agree", gold, pred, "-s", "strict"],
        ["sweep", gold, scored, "-s", "strict"],
    ):
        stdout, data = cli(args, tmp_path)
        assert warned_lines(stdout) == [] and "warnings" not in data
