"""The Python front doors take their settings as the settings objects or
as typed keywords, with the same result; a keyword given beside an object
is written over its field; an unknown keyword is a TypeError naming the
valid ones; each door checks its settings as the command line does (a bad
scheme, a bad format: a SettingError naming the setting and what is
valid). The consensus is scored with the agreement's own thresholds."""

import inspect
import json

import pytest

from helpers import ROOT, invoke
from spacy_spanf1 import (
    AgreementSettings,
    AnalysisSettings,
    MatchSettings,
    ReadSettings,
    RunSettings,
    SettingError,
    SweepSettings,
)
from spacy_spanf1.agreements.result import AgreementResult
from spacy_spanf1.api import (
    agree_files,
    agreement,
    compare_files,
    evaluate_pipeline,
    score_pairs,
    sweep_files,
    sweep_pipeline,
    sweep_source,
)
from spacy_spanf1.corpus import Keep
from spacy_spanf1.formats import Document, pair_documents
from spacy_spanf1.spans import Span
from spacy_spanf1.keywords import UNSET, settings_from
from spacy_spanf1.settings import SCHEMES

EXAMPLES = ROOT / "examples"
GOLD, PRED, SCORED = EXAMPLES / "gold.jsonl", EXAMPLES / "pred.jsonl", EXAMPLES / "scored.jsonl"
MODEL, CORPUS, CONLL = EXAMPLES / "ner-model", EXAMPLES / "corpus.spacy", EXAMPLES / "dev.conll"
#: Two annotators of two documents, as span lists (`agreement`).
SPAN_LISTS = {
    "a": [[(0, 2, "PER"), (4, 6, "LOC")], [(1, 3, "ORG")]],
    "b": [[(0, 2, "PER"), (4, 7, "LOC")], [(1, 3, "ORG")]],
}
#: Each door and the inputs it is called with.
DOORS = [
    (compare_files, (GOLD, PRED)),
    (evaluate_pipeline, (MODEL, CORPUS)),
    (agreement, (SPAN_LISTS,)),
    (agree_files, ([GOLD, PRED],)),
    (sweep_files, (GOLD, SCORED)),
    (sweep_pipeline, (MODEL, CORPUS)),
    (sweep_source, (GOLD, SCORED)),
]


# --------------------------------------------------------------------------
# The settings objects and the keywords give the same result
# --------------------------------------------------------------------------


def test_compare_files_objects_and_keywords():
    by_objects = compare_files(
        GOLD,
        PRED,
        match=MatchSettings(["strict", "iou"], iou_threshold=0.4, labels=["PER", "LOC"]),
        read=ReadSettings(format="jsonl", options={"text_mismatch": "ignore"}),
        analysis=AnalysisSettings(bootstrap=50, seed=3, by=("label",)),
    )
    by_keywords = compare_files(
        GOLD,
        PRED,
        schemes="strict,iou",
        iou_threshold=0.4,
        labels="PER,LOC",
        format="jsonl",
        text_mismatch="ignore",
        bootstrap=50,
        seed=3,
        by="label",
    )
    assert by_objects.to_dict() == by_keywords.to_dict()
    assert by_objects.signature["match"]["iou_threshold"] == 0.4
    assert by_objects.signature["read"]["options"] == {"text_mismatch": "ignore"}
    assert by_objects.intervals and by_objects.breakdowns


def test_compare_files_one_conll_file_objects_and_keywords():
    by_objects = compare_files(CONLL, match=MatchSettings("strict"), read=ReadSettings(gold_column=1, pred_column=2))
    by_keywords = compare_files(CONLL, schemes="strict", gold_column=1, pred_column=2)
    assert by_objects.to_dict() == by_keywords.to_dict()
    assert by_objects.results["strict"].f1 == 0.5  # docs/formats.md's worked example


def test_evaluate_pipeline_objects_and_keywords():
    by_objects = evaluate_pipeline(
        MODEL,
        CORPUS,
        match=MatchSettings(["strict", "partial"]),
        run=RunSettings(batch_size=4),
        analysis=AnalysisSettings(bootstrap=30),
    )
    by_keywords = evaluate_pipeline(MODEL, CORPUS, schemes=["strict", "partial"], batch_size=4, bootstrap=30)
    assert by_objects.to_dict() == by_keywords.to_dict()


def test_agree_files_objects_and_keywords():
    by_objects = agree_files(
        [GOLD, PRED, SCORED],
        match=MatchSettings(["strict", "iou"], iou_threshold=0.3),
        agreement=AgreementSettings(o_tokens="exclude", min_votes=2),
        analysis=AnalysisSettings(bootstrap=30, seed=4),
        read=ReadSettings(format="jsonl"),
        consensus=True,
    )
    by_keywords = agree_files(
        [GOLD, PRED, SCORED],
        "jsonl",
        schemes="strict,iou",
        iou_threshold=0.3,
        o_tokens="exclude",
        min_votes=2,
        bootstrap=30,
        seed=4,
        consensus=True,
    )
    assert by_objects.to_dict() == by_keywords.to_dict()
    assert by_objects.signature["agreement"]["min_votes"] == 2
    assert by_objects.consensus == by_keywords.consensus and by_objects.consensus.spans == by_keywords.consensus.spans


def test_sweep_files_objects_and_keywords():
    by_objects = sweep_files(
        GOLD,
        SCORED,
        match=MatchSettings(["strict", "iou"], overlap_threshold=0.6),
        read=ReadSettings(format="jsonl"),
        sweep=SweepSettings(n_thresholds=5),
        analysis=AnalysisSettings(bootstrap=20),
    )
    by_keywords = sweep_files(
        GOLD, SCORED, schemes=["strict", "iou"], overlap_threshold=0.6, format="jsonl", n_thresholds=5, bootstrap=20
    )
    assert by_objects.to_dict() == by_keywords.to_dict()
    assert by_objects["strict"].thresholds.tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    # the source's dispatch: files
    assert (
        sweep_source(
            GOLD,
            SCORED,
            match=MatchSettings(["strict", "iou"], overlap_threshold=0.6),
            sweep=SweepSettings(n_thresholds=5),
            bootstrap=20,
            format="jsonl",
        ).to_dict()
        == by_keywords.to_dict()
    )


@pytest.mark.slow
def test_sweep_pipeline_objects_and_keywords(spancat_model):
    model, dev = spancat_model
    by_objects = sweep_pipeline(model, dev, match=MatchSettings(["strict"]), sweep=SweepSettings(grid="spacy"))
    by_keywords = sweep_pipeline(model, dev, schemes="strict", grid="spacy")
    assert by_objects.to_dict() == by_keywords.to_dict()
    assert sweep_source(model, dev, schemes="strict", grid="spacy").to_dict() == by_keywords.to_dict()


# --------------------------------------------------------------------------
# An object and a keyword: the keyword wins, the object's other fields stay
# --------------------------------------------------------------------------


def test_agreement_objects_and_keywords():
    by_objects = agreement(
        SPAN_LISTS,
        lengths=[8, 4],
        match=MatchSettings(["strict", "iou"], iou_threshold=0.6),
        agreement=AgreementSettings(o_tokens="exclude"),
        analysis=AnalysisSettings(bootstrap=20, seed=3),
    )
    by_keywords = agreement(
        SPAN_LISTS, lengths=[8, 4], schemes="strict,iou", iou_threshold=0.6, o_tokens="exclude", bootstrap=20, seed=3
    )
    # (as JSON: an interval of two documents can be nan, which equals nothing)
    assert json.dumps(by_objects.to_dict(), sort_keys=True) == json.dumps(by_keywords.to_dict(), sort_keys=True)
    assert by_objects.signature["match"]["iou_threshold"] == 0.6 and by_objects.intervals
    # By hand, b against a: PER and ORG on the same offsets; LOC (4, 7)
    # against (4, 6) has IoU 2 / 3: a match under iou at 0.6, other
    # boundaries under strict.
    assert by_objects.pairwise["iou"][("a", "b")].counts == {"tp": 3, "fp": 0, "fn": 0}
    assert by_objects.pairwise["strict"][("a", "b")].counts["cor"] == 2
    written_over = agreement(SPAN_LISTS, match=MatchSettings(["strict", "iou"], iou_threshold=0.6), iou_threshold=0.7)
    assert written_over.signature["match"]["iou_threshold"] == 0.7  # 2 / 3 < 0.7: LOC no longer matches
    assert written_over.pairwise["iou"][("a", "b")].counts == {"tp": 2, "fp": 1, "fn": 1}


def test_agreement_checks_its_settings_by_name_and_type():
    with pytest.raises(SettingError, match=r"'iou_threshold' must be a number in \(0, 1\], got 'high'") as found:
        agreement(SPAN_LISTS, schemes="strict", iou_threshold="high")
    assert found.value.setting == "iou_threshold"
    with pytest.raises(SettingError, match="Unknown o tokens 'some' in 'o_tokens'. Valid: include, exclude"):
        agreement(SPAN_LISTS, agreement=AgreementSettings(o_tokens="some"))
    with pytest.raises(TypeError, match="'match' must be a MatchSettings \\(or None\\), got str: 'strict'"):
        agreement(SPAN_LISTS, match="strict")
    with pytest.raises(SettingError, match=r"'beta' \(2.0\) does not apply to agreement"):
        agreement(SPAN_LISTS, match=MatchSettings("strict", beta=2.0))


def pairs_of(n):
    golds = [Document(f"doc {i}", [Span(0, 3, "PER"), Span(4, 6, "LOC")], "Ann in Rome") for i in range(n)]
    preds = [Document(f"doc {i}", [Span(0, 3, "PER"), Span(4, 5, "LOC")], "Ann in Rome") for i in range(n)]
    return pair_documents(golds, preds)


def test_score_pairs_objects_and_keywords():
    by_objects = score_pairs(pairs_of(3), MatchSettings("strict"), keep=Keep(errors=True, per_doc=True))
    by_keywords = score_pairs(pairs_of(3), "strict", keep_errors=True, per_doc=True)
    assert by_objects.to_dict() == by_keywords.to_dict()
    # By hand: each document has PER right and LOC on other boundaries.
    assert by_keywords.results["strict"].counts == {"cor": 3, "inc": 3, "par": 0, "mis": 0, "spu": 0}
    assert [e.kind for e in by_keywords.errors] == ["wrong_boundaries"] * 3 and len(
        by_keywords.results["strict"].per_doc
    ) == 3
    # a keyword away from its default is written over keep's field
    assert score_pairs(pairs_of(3), "strict", keep=Keep(errors=True), max_error_docs=1).pairs.keys() == {0}


def test_score_pairs_checks_its_keywords_by_name_and_type():
    with pytest.raises(TypeError) as found:
        score_pairs(pairs_of(1), "strict", keep_eror=True)
    message = str(found.value)
    assert "score_pairs() got an unexpected keyword argument 'keep_eror'. Valid keywords: " in message
    assert "keep_errors" in message.split("Valid keywords: ")[1] and "match" in message
    with pytest.raises(TypeError, match="unexpected keyword argument 'iou_threshold'"):  # a MatchSettings field
        score_pairs(pairs_of(1), "iou", iou_threshold=0.3)
    with pytest.raises(TypeError, match="'match' must be a MatchSettings or the schemes, got int: 3"):
        score_pairs(pairs_of(1), 3)
    with pytest.raises(SettingError, match="'max_error_docs' must be an integer >= 0, got 'five'") as found:
        score_pairs(pairs_of(1), "strict", keep_errors=True, max_error_docs="five")
    assert found.value.setting == "max_error_docs"
    with pytest.raises(SettingError, match="Unknown scheme 'exakt'") as found:
        score_pairs(pairs_of(1), "strict,exakt")
    assert found.value.setting == "schemes"


def test_a_keyword_beside_an_object_is_written_over_its_field():
    match = MatchSettings(["strict"], iou_threshold=0.3)
    both = compare_files(GOLD, PRED, match=match, schemes="iou")
    assert both.to_dict() == compare_files(GOLD, PRED, schemes="iou", iou_threshold=0.3).to_dict()
    assert both.signature["match"]["schemes"] == ["iou"] and both.signature["match"]["iou_threshold"] == 0.3
    assert match.schemes == ("strict",)  # the object is not changed
    read = ReadSettings(format="jsonl", options={"text_mismatch": "ignore"})
    assert compare_files(GOLD, PRED, schemes="strict", read=read, missing_pred="error").signature["read"][
        "options"
    ] == {"text_mismatch": "ignore", "missing_pred": "error"}


def test_settings_from():
    assert settings_from(MatchSettings, None, "match", schemes="strict,iou", unit=UNSET) == MatchSettings(
        ["strict", "iou"]
    )
    given = MatchSettings("strict")
    assert settings_from(MatchSettings, given, "match", unit=UNSET) is given
    assert settings_from(MatchSettings, given, "match", labels="A,B").labels == ("A", "B")
    with pytest.raises(TypeError, match=r"'match' must be a MatchSettings \(or None\), got str"):
        settings_from(MatchSettings, "strict", "match")
    with pytest.raises(TypeError, match="'read' must be a ReadSettings"):
        compare_files(GOLD, PRED, schemes="strict", read={"format": "jsonl"})


# --------------------------------------------------------------------------
# An unknown keyword: a TypeError naming the valid ones
# --------------------------------------------------------------------------


@pytest.mark.parametrize("door, args", DOORS)
def test_an_unknown_keyword_is_a_type_error_naming_the_valid_ones(door, args):
    with pytest.raises(TypeError) as found:
        door(*args, schemes="strict", shemes="iou")
    message = str(found.value)
    assert f"{door.__name__}() got an unexpected keyword argument 'shemes'. Valid keywords: " in message
    assert "schemes" in message.split("Valid keywords: ")[1] and "match" in message
    if door in (compare_files, agree_files, sweep_files, sweep_source):  # these take reader settings too
        assert "text_mismatch (a reader setting)" in message
    with pytest.raises(TypeError, match="unexpected keyword argument 'fmt'"):  # the old alias is gone
        door(*args, schemes="strict", fmt="jsonl")


# --------------------------------------------------------------------------
# Each door checks its settings as the command line does
# --------------------------------------------------------------------------

VALID_SCHEMES = ", ".join(SCHEMES)


@pytest.mark.parametrize("door, args", DOORS)
def test_a_bad_scheme_names_the_setting_and_the_valid_ones(door, args):
    with pytest.raises(SettingError) as found:
        door(*args, schemes="strict,exakt")
    assert found.value.setting == "schemes" and "'exakt'" in str(found.value)
    assert VALID_SCHEMES in str(found.value)
    with pytest.raises(SettingError) as built:  # the object form is checked when it is built, the same way
        MatchSettings("strict,exakt")
    assert str(built.value) == str(found.value)
    with pytest.raises(SettingError, match="'schemes'") as found:
        door(*args)  # none given: required
    assert found.value.setting == "schemes"


@pytest.mark.parametrize(
    "door, args",
    [
        (compare_files, (GOLD, PRED)),
        (agree_files, ([GOLD, PRED],)),
        (sweep_files, (GOLD, SCORED)),
        (sweep_source, (GOLD, SCORED)),
    ],
)
def test_a_bad_format_names_the_setting_and_the_valid_ones(door, args):
    for form in ({"format": "xml"}, {"read": ReadSettings(format="xml")}):
        with pytest.raises(SettingError) as found:
            door(*args, schemes="strict", **form)
        assert found.value.setting == "format"
        assert "Unknown format 'xml'. Valid formats: spacy, jsonl, conll" in str(found.value)


@pytest.mark.parametrize("door, args", [(evaluate_pipeline, (MODEL, CORPUS)), (sweep_pipeline, (MODEL, CORPUS))])
def test_a_bad_unit_names_the_setting_and_the_valid_ones(door, args):
    with pytest.raises(SettingError, match="Unknown unit 'word' in 'unit'. Valid units: token, char") as found:
        door(*args, schemes="strict", unit="word")
    assert found.value.setting == "unit"


def test_a_setting_a_door_does_not_apply_is_refused():
    with pytest.raises(SettingError, match=r"'beta' \(2.0\) does not apply to agree_files") as found:
        agree_files([GOLD, PRED], match=MatchSettings("strict", beta=2.0))
    assert found.value.setting == "beta"
    with pytest.raises(SettingError, match=r"'by' \(\('label',\)\) does not apply to agree_files"):
        agree_files([GOLD, PRED], schemes="strict", analysis=AnalysisSettings(by="label"))
    with pytest.raises(SettingError, match=r"'labels' \(\('PER',\)\) does not apply to a sweep"):
        sweep_files(GOLD, SCORED, match=MatchSettings("strict", labels=["PER"]))
    with pytest.raises(SettingError, match=r"'seed' \(3\) does not apply to a sweep"):
        sweep_files(GOLD, SCORED, schemes="strict", analysis=AnalysisSettings(seed=3))
    with pytest.raises(SettingError, match="the scheme 'strings' compares span texts; agreement compares"):
        agree_files([GOLD, PRED], schemes="strict,strings")
    with pytest.raises(SettingError, match="'pipe' applies to a sweep of a pipeline, not of files"):
        sweep_source(GOLD, SCORED, schemes="strict", pipe="spancat")
    with pytest.raises(SettingError, match="'format' applies to a sweep of files, not of a pipeline"):
        sweep_source(MODEL, CORPUS, schemes="strict", format="jsonl")


# --------------------------------------------------------------------------
# The consensus: the agreement's thresholds and min_votes
# --------------------------------------------------------------------------

TEXT = "aaaa bbbb cccc"


def annotator_files(tmp_path):
    """Three annotators of one document: a and c mark "aaaa bbbb" (0, 9),
    b marks "aaaa" (0, 4) alone."""
    spans = {"a": [(0, 9, "X")], "b": [(0, 4, "X")], "c": [(0, 9, "X")]}
    paths = []
    for name, found in spans.items():
        path = tmp_path / f"{name}.jsonl"
        path.write_text(
            json.dumps({"text": TEXT, "spans": [{"start": s, "end": e, "label": lab} for s, e, lab in found]}) + "\n",
            encoding="utf-8",
        )
        paths.append(path)
    return paths


def test_the_consensus_is_scored_with_the_agreement_s_thresholds(tmp_path):
    paths = annotator_files(tmp_path)
    # The consensus (a strict majority, 2 of 3): (0, 9, X). b's span against
    # it: IoU 4 / 9 = 0.444..., a match at iou_threshold 0.4, not at 0.5.
    loose = agree_files(paths, schemes="iou", iou_threshold=0.4, consensus=True).consensus
    strict = agree_files(paths, schemes="iou", consensus=True).consensus
    assert [[tuple(s) for s in doc] for doc in loose.spans] == [[(0, 9, "X")]]
    assert loose.scores["b"]["iou"]["f"] == 1.0 and strict.scores["b"]["iou"]["f"] == 0.0
    assert loose.scores["a"]["iou"]["f"] == strict.scores["a"]["iou"]["f"] == 1.0
    # every annotator has to agree: no span is kept, b finds nothing to match
    unanimous = agree_files(paths, schemes="iou", min_votes=3, consensus=True).consensus
    assert unanimous.spans == [[]] and unanimous.scores["b"]["iou"]["f"] == 0.0
    # the result reads back with its consensus block (the spans are not in the JSON)
    result = agree_files(paths, schemes="iou", iou_threshold=0.4, consensus=True)
    data = json.loads(json.dumps(result.to_dict()))
    back = AgreementResult.from_dict(data)
    assert back == result and back.to_dict() == data and back.consensus == loose and back.consensus.spans is None


def test_the_agree_command_signs_min_votes_and_writes_the_result_s_to_dict(tmp_path):
    paths = annotator_files(tmp_path)
    out = tmp_path / "agree.json"
    result = invoke(
        [
            "agree",
            *paths,
            "-s",
            "iou",
            "--iou-threshold",
            "0.4",
            "--consensus",
            tmp_path / "c.jsonl",
            "--min-votes",
            "2",
            "-o",
            out,
        ]
    )
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text(encoding="utf-8"))
    assert written["signature"]["agreement"]["min_votes"] == 2
    assert written["consensus"]["b"]["iou"]["f"] == 1.0
    expected = agree_files(paths, schemes="iou", iou_threshold=0.4, min_votes=2, consensus=True).to_dict()
    assert written == json.loads(json.dumps(expected))


# --------------------------------------------------------------------------
# The keywords are declared once (keyword_types) and listed in each door's
# signature, for help() and editors
# --------------------------------------------------------------------------


@pytest.mark.parametrize("door, args", DOORS)
def test_the_signature_lists_each_keyword_a_door_takes(door, args):
    parameters = inspect.signature(door).parameters
    assert parameters["schemes"].kind is inspect.Parameter.KEYWORD_ONLY
    assert parameters["schemes"].default is UNSET and parameters["iou_threshold"].default is UNSET
    # what the door refuses is not listed: a sweep has no beta, agreement no spans_key
    assert ("beta" in parameters) is (door in (compare_files, evaluate_pipeline))
    # spans_key: a match setting of files and pipelines, the DocBin reader's of agreement and sweep files
    assert ("spans_key" in parameters) is (door not in (agreement, sweep_pipeline))
    assert ("text_mismatch" in parameters) is (door in (compare_files, agree_files, sweep_files, sweep_source))


def test_the_reader_keywords_are_the_reader_settings_of_the_registered_formats():
    from typing import get_type_hints

    from spacy_spanf1.formats import PAIRING_OPTIONS, format_names, get_format
    from spacy_spanf1.keyword_types import FileMatchKeywords, ReaderKeywords

    declared = {name for name in format_names() for name in get_format(name).options} | set(PAIRING_OPTIONS)
    # spans_key is a match keyword where a door takes it
    assert set(get_type_hints(ReaderKeywords)) == declared - set(get_type_hints(FileMatchKeywords))


#: A user's script: the calls a type checker passes and, marked, those it
#: refuses (a misspelled keyword, a wrong type, a keyword the door does not take).
TYPED_CALLS = """
from spacy_spanf1 import compare_files, evaluate_spans
from spacy_spanf1.api import agree_files, sweep_files

compare_files("g.jsonl", "p.jsonl", schemes="strict", iou_threshold=0.4, tag_column=3, keep_errors=True)
evaluate_spans([[]], [[]], schemes=["strict"], view="all")
agree_files(["a.jsonl", "b.jsonl"], schemes="strict", o_tokens="exclude", bootstrap=100)
compare_files("g.jsonl", "p.jsonl", schemes="strict", iou_treshold=0.4)  # refused
evaluate_spans([[]], [[]], schemes="strict", iou_threshold="high")  # refused
sweep_files("g.jsonl", "s.jsonl", schemes="strict", beta=2.0)  # refused
agree_files(["a.jsonl", "b.jsonl"], schemes="strict", spans_key="sc")
agree_files(["a.jsonl", "b.jsonl"], schemes="strict", beta=2.0)  # refused
"""


@pytest.mark.slow
def test_a_type_checker_checks_each_keyword_of_the_doors(tmp_path):
    from mypy import api

    script = tmp_path / "script.py"
    script.write_text(TYPED_CALLS, encoding="utf-8")
    out, _, status = api.run([str(script), "--cache-dir", str(tmp_path / "cache"), "--no-error-summary"])
    flagged = sorted({int(line.split(":")[1]) for line in out.splitlines() if ": error:" in line})
    refused = [n for n, line in enumerate(TYPED_CALLS.splitlines(), 1) if line.endswith("# refused")]
    assert status == 1 and flagged == refused, out
