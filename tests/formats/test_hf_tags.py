"""The tags reader (`spacy_spanf1.formats.tags`): a file written by hand in
Hugging Face's token/tag JSON Lines, read as the same data written as JSONL (and CoNLL) would be, and each
problem named with its file in a one-line error."""

import json

import pytest

import spacy_spanf1.formats.huggingface  # noqa: F401  (registers "tags")
from helpers import counts, invoke, one_line, read, write, write_jsonl
from spacy_spanf1.formats import InputError, SettingError, read_conll, read_jsonl
from spacy_spanf1.spans import Span


WORDS = ["Ada", "Lovelace", "met", "Charles", "Babbage", "in", "London", "."]


STR_TAGS = ["B-PER", "I-PER", "O", "B-PER", "I-PER", "O", "B-LOC", "O"]


NAMES = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]


ID_TAGS = [1, 2, 0, 1, 2, 0, 3, 0]


TOKEN_GOLD = [Span(0, 2, "PER"), Span(3, 5, "PER"), Span(6, 7, "LOC")]


def test_tags_strings_like_conll_and_jsonl(tmp_path):
    path = write_jsonl(tmp_path / "t.jsonl", [{"id": "0", "tokens": WORDS, "ner_tags": STR_TAGS, "genre": "bio"}])
    doc = read("tags", path)[0]
    assert doc.spans == TOKEN_GOLD
    assert doc.text == "Ada Lovelace met Charles Babbage in London ." and doc.offsets[1] == (4, 12)
    assert doc.meta == {"id": "0", "genre": "bio"}
    conll = write(tmp_path / "t.conll", "".join(f"{w}\t{t}\n" for w, t in zip(WORDS, STR_TAGS)))
    assert list(read_conll(conll))[0].spans == doc.spans
    assert list(read_conll(conll))[0].text == doc.text
    spans = [{"start": s, "end": e, "label": lab} for s, e, lab in TOKEN_GOLD]
    jl = list(
        read_jsonl(
            write_jsonl(tmp_path / "j.jsonl", [{"text": doc.text, "tokens": WORDS, "spans": spans}]), unit="token"
        )
    )
    assert jl[0].spans == doc.spans
    pred = [Span(0, 1, "PER"), Span(3, 5, "ORG"), Span(6, 7, "LOC")]
    pred_tags = ["B-PER", "O", "O", "B-ORG", "I-ORG", "O", "B-LOC", "O"]
    p = read("tags", write_jsonl(tmp_path / "p.jsonl", [{"tokens": WORDS, "ner_tags": pred_tags}]), side="pred")[0]
    assert p.spans == pred
    assert counts([doc.spans], [p.spans], "token") == counts([jl[0].spans], [pred], "token")


@pytest.mark.parametrize(
    "names", [NAMES, ",".join(NAMES), " O, B-PER,I-PER , B-LOC,I-LOC"], ids=["list", "string", "spaces"]
)
def test_tags_ids_with_label_names(tmp_path, names):
    path = write_jsonl(tmp_path / "t.jsonl", [{"tokens": WORDS, "ner_tags": ID_TAGS}])
    assert read("tags", path, label_names=names)[0].spans == TOKEN_GOLD


@pytest.mark.parametrize("container", ["Sequence", "List"])
def test_tags_ids_with_dataset_info(tmp_path, container):
    path = write_jsonl(tmp_path / "t.jsonl", [{"tokens": WORDS, "tags": ID_TAGS}])
    feature = {"feature": {"names": NAMES, "_type": "ClassLabel"}, "_type": container}
    if container == "Sequence":
        feature.update(length=-1, id=None)
        feature["feature"].update(num_classes=5, names_file=None, id=None)
    info = {
        "description": "",
        "features": {"tokens": {"feature": {"dtype": "string", "_type": "Value"}, "_type": container}, "tags": feature},
    }
    write(tmp_path / "dataset_info.json", json.dumps(info))
    assert read("tags", path, tag_field="tags")[0].spans == TOKEN_GOLD
    with pytest.raises(InputError, match="has no ClassLabel names for 'ner_tags'"):
        read("tags", write_jsonl(tmp_path / "u.jsonl", [{"tokens": WORDS, "ner_tags": ID_TAGS}]))


def test_tags_ids_without_names(tmp_path):
    path = write_jsonl(tmp_path / "t.jsonl", [{"tokens": WORDS, "ner_tags": ID_TAGS}])
    with pytest.raises(InputError) as err:
        read("tags", path)
    assert "pass 'label_names'" in one_line(err) and "dataset_info.json" in one_line(err)


def test_tags_count_differs(tmp_path):
    path = write_jsonl(
        tmp_path / "t.jsonl", [{"tokens": WORDS, "ner_tags": STR_TAGS}, {"tokens": WORDS, "ner_tags": STR_TAGS[:-1]}]
    )
    with pytest.raises(InputError) as err:
        read("tags", path)
    assert f"{path}:2: 7 tags in 'ner_tags' but 8 tokens" in one_line(err)


def test_tags_id_out_of_range(tmp_path):
    path = write_jsonl(tmp_path / "t.jsonl", [{"tokens": WORDS, "ner_tags": [1, 2, 0, 1, 2, 0, 5, 0]}])
    with pytest.raises(InputError) as err:
        read("tags", path, label_names=NAMES)
    assert f"{path}:1: tag id 5 (token 6)" in one_line(err) and "valid ids are 0..4" in one_line(err)


def test_tags_mode_and_scheme(tmp_path):
    path = write_jsonl(tmp_path / "t.jsonl", [{"tokens": ["a", "b"], "ner_tags": ["I-PER", "I-PER"]}])
    assert read("tags", path)[0].spans == [Span(0, 2, "PER")]
    assert read("tags", path, tag_mode="strict", tag_scheme="IOB2")[0].spans == []
    with pytest.raises(SettingError, match="tag_mode=.strict. needs a tag scheme"):
        read("tags", path, tag_mode="strict")


@pytest.mark.parametrize(
    "record,problem",
    [
        ({"tokens": "Ada", "ner_tags": ["O"]}, "'tokens' must be a list of strings"),
        ({"tokens": ["Ada"], "ner_tags": [1.0]}, "all strings or all integer ids"),
        ({"tokens": ["Ada"], "ner_tags": [""]}, "token 0:"),
    ],
    ids=["tokens", "float", "empty-tag"],
)
def test_tags_errors(tmp_path, record, problem):
    path = write_jsonl(tmp_path / "t.jsonl", [record])
    with pytest.raises(InputError) as err:
        read("tags", path, label_names=NAMES)
    assert problem in one_line(err) and f"{path}:1:" in one_line(err)


def test_tags_missing_tag_field(tmp_path):
    path = write_jsonl(tmp_path / "t.jsonl", [{"tokens": WORDS}, {"tokens": WORDS, "ner_tags": STR_TAGS}])
    assert read("tags", path)[0].spans is None
    assert read("tags", path, side="pred")[0].spans == []


def test_tags_prediction_without_any_tag_field_is_an_error(tmp_path):
    path = write_jsonl(tmp_path / "t.jsonl", [{"tokens": WORDS}, {"tokens": WORDS}])
    with pytest.raises(InputError, match='no record has "ner_tags", so the file predicts nothing'):
        read("tags", path, side="pred")


def test_tags_misspelled_tag_field_is_an_error(tmp_path):
    path = write_jsonl(tmp_path / "t.jsonl", [{"tokens": WORDS, "ner_tag": STR_TAGS}])
    with pytest.raises(InputError, match='"ner_tag": a misspelling of "ner_tags"'):
        read("tags", path)


def test_tags_outside_label_names_are_an_error(tmp_path):
    # A model without id2label writes LABEL_0, LABEL_1...: seqeval would read "LABEL_0" as an
    # entity of type "ABEL_0"; with the names given, such a tag is an error naming it.
    tags = ["LABEL_1", "LABEL_2", "LABEL_0", "LABEL_0"] + ["LABEL_0"] * (len(WORDS) - 4)
    path = write_jsonl(tmp_path / "t.jsonl", [{"tokens": WORDS, "ner_tags": tags}])
    with pytest.raises(InputError) as err:
        read("tags", path, label_names=NAMES)
    assert "tag 'LABEL_1' (token 0)" in one_line(err) and f"{path}:1:" in one_line(err)


@pytest.mark.parametrize("tags", [[0, "O"], ["O", 0]], ids=["id-then-string", "string-then-id"])
def test_tags_mixing_ids_and_strings_is_an_error(tmp_path, tags):
    record = {"tokens": WORDS[:2], "ner_tags": tags}
    path = write_jsonl(tmp_path / "t.jsonl", [{"tokens": WORDS[:2], "ner_tags": [0, 0]}, record])
    with pytest.raises(InputError) as err:
        read("tags", path, label_names=NAMES)
    assert f"{path}:2:" in one_line(err) and "mixes tag kinds" in one_line(err) and "token 1" in one_line(err)


def test_tags_mixed_through_the_command_line_is_one_line(tmp_path):
    gold = write_jsonl(tmp_path / "g.jsonl", [{"tokens": WORDS[:2], "ner_tags": [0, "O"]}])
    result = invoke(
        ["compare", str(gold), str(gold), "--format", "tags", "--label-names", ",".join(NAMES), "--schemes", "strict"]
    )
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "mixes tag kinds" in result.output and len(result.output.strip().splitlines()) == 1


# --------------------------------------------------------------------------
# Through the command line: integer tags with label names
# --------------------------------------------------------------------------


def test_compare_reads_hugging_face_tag_files_with_label_names(tmp_path):
    names = "O,B-PER,I-PER,B-LOC,I-LOC"
    gold = {"id": "0", "tokens": ["Ada", "Lovelace", "visited", "London", "."], "ner_tags": [1, 2, 0, 3, 0]}
    pred = {"id": "0", "tokens": ["Ada", "Lovelace", "visited", "London", "."], "ner_tags": [1, 0, 0, 3, 0]}
    files = [write_jsonl(tmp_path / "gold.jsonl", [gold]), write_jsonl(tmp_path / "pred.jsonl", [pred])]
    out = tmp_path / "scores.json"
    result = invoke(["compare", *files, "--format", "tags", "--label-names", names, "-s", "strict,partial", "-o", out])
    assert result.exit_code == 0, result.stderr
    data = json.loads(out.read_text())
    # "Ada" for "Ada Lovelace": INC under strict, PAR under partial; London right
    assert data["schemes"]["strict"]["counts"] == {"cor": 1, "inc": 1, "par": 0, "mis": 0, "spu": 0}
    assert data["schemes"]["partial"]["counts"] == {"cor": 1, "inc": 0, "par": 1, "mis": 0, "spu": 0}
    no_names = invoke(["compare", *files, "--format", "tags", "-s", "strict"])
    assert no_names.exit_code == 1 and "label_names" in no_names.stderr.replace("--label-names", "label_names")
