"""Gold and predictions in two formats (`gold_format`, `pred_format`,
`formats.mixed`; docs/formats.md, "Gold and predictions in two formats"):
a DocBin gold scores a JSONL prediction as the same gold written as JSONL
does, in char and in token unit; CoNLL, brat and Label Studio golds take
JSONL predictions; texts and tokens are checked across the formats; each
side's options go to its reader; formats that do not mix are one error."""

import json

import pytest
from spacy.tokens import Doc

from helpers import assert_clean_failure, docbin, invoke, jsonl, write
from spacy_spanf1.api import compare_files
from spacy_spanf1.formats import InputError, SettingError

#: Two documents, tokenized as spaCy's English tokenizer does.
WORDS = [["Ann", "Lee", "flew", "to", "New", "York", "."], ["Acme", "hired", "Bo", "Chen", "."]]
SPACES = [[True, True, True, True, True, False, False], [True, True, True, False, False]]
TEXTS = ["Ann Lee flew to New York.", "Acme hired Bo Chen."]
#: Gold: (token start, token end, char start, char end, label).
GOLD = [[(0, 2, 0, 7, "PER"), (4, 6, 16, 24, "LOC")], [(0, 1, 0, 4, "ORG"), (2, 4, 11, 18, "PER")]]
#: Predictions in characters: "Ann Lee" right, "ew York" (17-24) off by a
#: character, "Acme" right, "Bo" (11-13) half of "Bo Chen".
PRED_CHARS = [[(0, 7, "PER"), (17, 24, "LOC")], [(0, 4, "ORG"), (11, 13, "PER")]]
#: The same predictions on the tokens ("ew York" taken as "New York").
PRED_TOKENS = [[(0, 2, "PER"), (4, 6, "LOC")], [(0, 1, "ORG"), (2, 3, "PER")]]


def _offsets(words, spaces):
    out, pos = [], 0
    for word, space in zip(words, spaces):
        out.append({"text": word, "start": pos, "end": pos + len(word)})
        pos += len(word) + space
    return out


def _gold_docs(vocab):
    docs = []
    for words, spaces, spans in zip(WORDS, SPACES, GOLD):
        doc = Doc(vocab, words=words, spaces=spaces)
        doc.ents = [doc.char_span(cs, ce, label=label) for _, _, cs, ce, label in spans]
        docs.append(doc)
    return docs


def _jsonl_gold(path, unit):
    records = []
    for text, words, spaces, spans in zip(TEXTS, WORDS, SPACES, GOLD):
        if unit == "char":
            records.append(
                {"text": text, "spans": [{"start": cs, "end": ce, "label": label} for _, _, cs, ce, label in spans]}
            )
        else:
            records.append(
                {
                    "text": text,
                    "tokens": _offsets(words, spaces),
                    "spans": [{"start": ts, "end": te, "label": label} for ts, te, _, _, label in spans],
                }
            )
    return write(path, jsonl(*records))


def _jsonl_pred(path, unit, ids=None):
    records = []
    for text, words, spaces, spans_c, spans_t in zip(TEXTS, WORDS, SPACES, PRED_CHARS, PRED_TOKENS):
        spans = spans_c if unit == "char" else spans_t
        record = {"text": text, "spans": [{"start": s, "end": e, "label": label} for s, e, label in spans]}
        if unit == "token":
            record["tokens"] = _offsets(words, spaces)
        records.append(record)
    if ids is not None:
        records = [{"id": doc_id, **r} for doc_id, r in zip(ids, records)]
    return write(path, jsonl(*records))


def _counts(scores, scheme="strict"):
    c = scores.results[scheme].counts
    return {k: c[k] for k in ("cor", "inc", "par", "mis", "spu")}


#: By hand, char unit: strict: "Ann Lee", "Acme" correct; "ew York" and
#: "Bo" overlap their gold span with its label: incorrect (SemEval strict).
#: partial: those two are partial.
CHAR_STRICT = {"cor": 2, "inc": 2, "par": 0, "mis": 0, "spu": 0}
CHAR_PARTIAL = {"cor": 2, "inc": 0, "par": 2, "mis": 0, "spu": 0}
#: token unit: "ew York" is the tokens "New York", correct; "Bo" is one
#: token of "Bo Chen": incorrect (strict), partial.
TOKEN_STRICT = {"cor": 3, "inc": 1, "par": 0, "mis": 0, "spu": 0}
TOKEN_PARTIAL = {"cor": 3, "inc": 0, "par": 1, "mis": 0, "spu": 0}


def test_docbin_gold_with_jsonl_predictions_in_char_unit(tmp_path, vocab):
    """gold.spacy + pred.jsonl, told apart by their extensions, score as the
    same gold written as JSONL does; char unit (JSONL's) by default."""
    spacy_gold = docbin(tmp_path / "gold.spacy", _gold_docs(vocab))
    json_gold = _jsonl_gold(tmp_path / "gold.jsonl", "char")
    pred = _jsonl_pred(tmp_path / "pred.jsonl", "char")
    mixed = compare_files(spacy_gold, pred, schemes="strict,partial")
    same = compare_files(json_gold, pred, schemes="strict,partial")
    assert mixed.unit == same.unit == "char"
    assert _counts(mixed) == _counts(same) == CHAR_STRICT
    assert _counts(mixed, "partial") == _counts(same, "partial") == CHAR_PARTIAL
    assert mixed.signature["read"]["format"] is None
    assert (mixed.signature["read"]["gold_format"], mixed.signature["read"]["pred_format"]) == ("spacy", "jsonl")
    assert "gold_format" not in same.signature["read"] and same.signature["read"]["format"] == "jsonl"


def test_docbin_gold_with_jsonl_predictions_in_token_unit(tmp_path, vocab):
    """Token unit: predictions with the gold's tokens score as the same gold
    and predictions both written as JSONL with tokens."""
    spacy_gold = docbin(tmp_path / "gold.spacy", _gold_docs(vocab))
    json_gold = _jsonl_gold(tmp_path / "gold.jsonl", "token")
    pred = _jsonl_pred(tmp_path / "pred.jsonl", "token")
    mixed = compare_files(spacy_gold, pred, schemes="strict,partial", unit="token")
    same = compare_files(json_gold, pred, schemes="strict,partial", unit="token")
    assert _counts(mixed) == _counts(same) == TOKEN_STRICT
    assert _counts(mixed, "partial") == _counts(same, "partial") == TOKEN_PARTIAL
    assert not mixed.notes


def test_character_predictions_are_expanded_to_the_gold_tokens_and_noted(tmp_path, vocab):
    """JSONL records without "tokens", scored in token unit on a DocBin gold:
    their characters are expanded to the gold tokens they touch
    (Doc.char_span(alignment_mode="expand")); "ew York" is one such span."""
    spacy_gold = docbin(tmp_path / "gold.spacy", _gold_docs(vocab))
    pred = _jsonl_pred(tmp_path / "pred.jsonl", "char")
    scores = compare_files(
        spacy_gold, pred, schemes="strict,partial", gold_format="spacy", pred_format="jsonl", unit="token"
    )
    assert _counts(scores) == TOKEN_STRICT
    docs = _gold_docs(vocab)
    assert docs[0].char_span(17, 24, alignment_mode="expand").text == "New York"  # what spaCy does
    expanded = scores.notes["pred"]["expanded_to_tokens"]
    assert expanded["count"] == 1 and expanded["examples"] == ["doc 0: 'ew York' (LOC) as 'New York'"]


def test_other_tokens_are_aligned_as_spacy_aligns_docbins(tmp_path, vocab):
    """Predictions on other tokens ("Chen." one token) score as spaCy's
    alignment scores a DocBin of those tokens against the gold DocBin."""
    spacy_gold = docbin(tmp_path / "gold.spacy", _gold_docs(vocab))
    words = [WORDS[0], ["Acme", "hired", "Bo", "Chen."]]
    spaces = [SPACES[0], [True, True, True, False]]
    spans = [[(0, 2, "PER"), (4, 6, "LOC")], [(0, 1, "ORG"), (2, 4, "PER")]]  # "Bo Chen." in doc 1
    records, pred_docs = [], []
    for text, w, sp, found in zip(TEXTS, words, spaces, spans):
        records.append(
            {
                "text": text,
                "tokens": _offsets(w, sp),
                "spans": [{"start": s, "end": e, "label": label} for s, e, label in found],
            }
        )
        doc = Doc(vocab, words=w, spaces=sp)
        doc.ents = [doc[s:e].char_span(0, len(doc[s:e].text), label=label) for s, e, label in found]
        pred_docs.append(doc)
    pred = write(tmp_path / "pred.jsonl", jsonl(*records))
    reference = compare_files(spacy_gold, docbin(tmp_path / "pred.spacy", pred_docs), schemes="strict,partial")
    mixed = compare_files(spacy_gold, pred, schemes="strict,partial", unit="token")
    # by hand: doc 0 both right; "Acme" right, "Bo Chen." is the gold tokens "Bo Chen ." (2-5): incorrect
    assert _counts(mixed) == _counts(reference) == {"cor": 3, "inc": 1, "par": 0, "mis": 0, "spu": 0}
    assert _counts(mixed, "partial") == _counts(reference, "partial")


def test_text_mismatch_across_formats_is_named(tmp_path, vocab):
    spacy_gold = docbin(tmp_path / "gold.spacy", _gold_docs(vocab))
    pred = write(
        tmp_path / "pred.jsonl", jsonl({"text": TEXTS[0], "spans": []}, {"text": "Acme hired Bo Chan.", "spans": []})
    )
    with pytest.raises(
        InputError, match=r"pred\.jsonl:2: the text of record 2 differs from doc 1 of .*gold\.spacy at character 16"
    ):
        compare_files(spacy_gold, pred, schemes="strict")


def test_jsonl_gold_with_docbin_predictions(tmp_path, vocab):
    """The other way round: a JSONL gold and a DocBin of predictions."""
    json_gold = _jsonl_gold(tmp_path / "gold.jsonl", "char")
    pred_docs = []
    for words, spaces, spans in zip(WORDS, SPACES, PRED_TOKENS):
        doc = Doc(vocab, words=words, spaces=spaces, ents=None)
        doc.ents = [doc[s:e].char_span(0, len(doc[s:e].text), label=label) for s, e, label in spans]
        pred_docs.append(doc)
    pred = docbin(tmp_path / "pred.spacy", pred_docs)
    # char unit: the DocBin's entities in characters: "New York" and "Bo" now
    scores = compare_files(json_gold, pred, schemes="strict")
    assert _counts(scores) == {"cor": 3, "inc": 1, "par": 0, "mis": 0, "spu": 0}


def _conll(path):
    lines = []
    for words, spans in zip(WORDS, GOLD):
        tags = ["O"] * len(words)
        for ts, te, _, _, label in spans:
            tags[ts] = f"B-{label}"
            for k in range(ts + 1, te):
                tags[k] = f"I-{label}"
        lines += [f"{w} {t}" for w, t in zip(words, tags)] + [""]
    return write(path, "\n".join(lines) + "\n")


def test_conll_gold_with_jsonl_predictions_in_token_unit(tmp_path):
    gold = _conll(tmp_path / "gold.conll")
    pred = _jsonl_pred(tmp_path / "pred.jsonl", "token")
    scores = compare_files(gold, pred, schemes="strict,partial")
    assert scores.unit == "token"
    assert _counts(scores) == TOKEN_STRICT and _counts(scores, "partial") == TOKEN_PARTIAL


def test_conll_gold_with_jsonl_tokens_that_differ_is_named(tmp_path):
    gold = _conll(tmp_path / "gold.conll")
    records = [json.loads(line) for line in _jsonl_pred(tmp_path / "p.jsonl", "token").read_text().splitlines()]
    records[1]["tokens"] = _offsets(["Acme", "hired", "Bo", "Chen."], [True, True, True, False])
    pred = write(tmp_path / "pred.jsonl", jsonl(*records))
    with pytest.raises(
        InputError,
        match=r"pred\.jsonl:2: line 2 differs from .*gold\.conll \(sentence starting at line 9\) at token 3: gold has 'Chen', predicted has 'Chen\.'",
    ):
        compare_files(gold, pred, schemes="strict")


def test_conll_gold_with_character_predictions_is_an_error_naming_the_unit(tmp_path):
    gold = _conll(tmp_path / "gold.conll")
    pred = _jsonl_pred(tmp_path / "pred.jsonl", "char")
    with pytest.raises(
        SettingError, match=r"conll gold and jsonl predictions are scored in token unit; 'unit' char does not apply"
    ) as info:
        compare_files(gold, pred, schemes="strict", unit="char")
    assert info.value.setting == "unit"


def test_brat_gold_with_jsonl_predictions(tmp_path):
    """brat pairs by file name, JSONL by "id": not the same keys, so in order
    (brat's files by name), the texts checked."""
    gold = tmp_path / "gold"
    gold.mkdir()
    for name, text, spans in zip(("a", "b"), TEXTS, GOLD):
        write(gold / f"{name}.txt", text)
        write(
            gold / f"{name}.ann",
            "".join(f"T{k}\t{label} {cs} {ce}\t{text[cs:ce]}\n" for k, (_, _, cs, ce, label) in enumerate(spans, 1)),
        )
    pred = _jsonl_pred(tmp_path / "pred.jsonl", "char", ids=[10, 11])
    scores = compare_files(gold, pred, schemes="strict,partial")
    assert _counts(scores) == CHAR_STRICT and _counts(scores, "partial") == CHAR_PARTIAL


def test_labelstudio_gold_with_jsonl_predictions_pairs_by_task_id(tmp_path):
    tasks = [
        {
            "id": task_id,
            "data": {"text": text},
            "annotations": [
                {
                    "completed_by": 1,
                    "result": [
                        {"type": "labels", "value": {"start": cs, "end": ce, "text": text[cs:ce], "labels": [label]}}
                        for _, _, cs, ce, label in spans
                    ],
                }
            ],
        }
        for task_id, text, spans in zip((7, 8), TEXTS, GOLD)
    ]
    gold = write(tmp_path / "gold.json", json.dumps(tasks))
    pred_lines = _jsonl_pred(tmp_path / "p.jsonl", "char", ids=[7, 8]).read_text().splitlines()
    pred = write(tmp_path / "pred.jsonl", "\n".join(reversed(pred_lines)) + "\n")  # task 8 first
    scores = compare_files(gold, pred, schemes="strict", gold_format="labelstudio")
    assert _counts(scores) == CHAR_STRICT


def test_jsonl_gold_with_mentions_predictions_named_by_pred_format(tmp_path):
    gold = _jsonl_gold(tmp_path / "gold.jsonl", "char")
    pred = write(
        tmp_path / "answers.jsonl",
        jsonl(
            {"text": TEXTS[0], "mentions": [["Ann Lee", "PER"], ["New York", "LOC"]]},
            {"text": TEXTS[1], "mentions": [["Acme", "ORG"]]},
        ),
    )
    scores = compare_files(gold, pred, schemes="strict", pred_format="mentions")
    # by hand: three mentions found at their gold spans; "Bo Chen" missed
    assert _counts(scores) == {"cor": 3, "inc": 0, "par": 0, "mis": 1, "spu": 0}
    signed = scores.signature["read"]
    assert (signed["format"], signed["gold_format"], signed["pred_format"]) == (None, "jsonl", "mentions")


def test_each_side_takes_its_own_options(tmp_path, vocab):
    spacy_gold = docbin(tmp_path / "gold.spacy", _gold_docs(vocab))
    pred = _jsonl_pred(tmp_path / "pred.jsonl", "char")
    # text_mismatch is the JSONL side's
    assert _counts(compare_files(spacy_gold, pred, schemes="strict", text_mismatch="error")) == CHAR_STRICT
    with pytest.raises(
        SettingError, match=r"'tag_mode' applies to conll, tags input, not spacy gold or jsonl predictions"
    ):
        compare_files(spacy_gold, pred, schemes="strict", tag_mode="strict")
    brat = tmp_path / "brat"
    brat.mkdir()
    with pytest.raises(SettingError, match=r"'spans_key' applies to spacy input, not brat gold or jsonl predictions"):
        compare_files(brat, pred, schemes="strict", spans_key="sc")


def test_formats_that_do_not_mix_are_one_error_listing_the_valid_pairs(tmp_path):
    gold = write(tmp_path / "gold.csv", "id,class,predictionstring\nA,X,0 1\n")
    pred = _jsonl_pred(tmp_path / "pred.jsonl", "char")
    with pytest.raises(
        SettingError,
        match=r"kaggle gold and jsonl predictions cannot describe the same documents\. "
        r"Formats that mix: spacy and the text formats \(brat, doccano, jsonl, labelstudio, prodigy\)",
    ):
        compare_files(gold, pred, schemes="strict")


def test_cli_gold_and_pred_format_flags(tmp_path, vocab, monkeypatch):
    spacy_gold = docbin(tmp_path / "gold.bin", _gold_docs(vocab))  # an extension that says nothing
    pred = _jsonl_pred(tmp_path / "pred.txt", "char")  # .txt would be read as CoNLL
    out = tmp_path / "out.json"
    result = invoke(
        [
            "compare",
            spacy_gold,
            pred,
            "-s",
            "strict",
            "--gold-format",
            "spacy",
            "--pred-format",
            "jsonl",
            "--output",
            out,
            "--silent",
        ]
    )
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())
    assert data["schemes"]["strict"]["counts"]["cor"] == 2
    assert data["signature"]["read"]["gold_format"] == "spacy" and data["signature"]["read"]["pred_format"] == "jsonl"
    bad = invoke(["compare", spacy_gold, pred, "-s", "strict", "--gold-format", "xml"])
    assert_clean_failure(bad, 2, "Invalid value for '--gold-format': Unknown format 'xml'. Valid formats: spacy, jsonl")
    kaggle = invoke(["compare", spacy_gold, pred, "-s", "strict", "--gold-format", "spacy", "--pred-format", "kaggle"])
    assert_clean_failure(
        kaggle,
        2,
        "Invalid value for '--pred-format': spacy gold and kaggle predictions cannot describe the same documents",
    )


def test_sweep_of_scored_character_predictions_on_docbin_tokens(tmp_path, vocab):
    """A sweep reads the scores where the spans are placed: "ew York" (score
    0.9) is the tokens "New York" in token unit, "Bo" (0.4) stays "Bo"."""
    from spacy_spanf1.api import sweep_files

    spacy_gold = docbin(tmp_path / "gold.spacy", _gold_docs(vocab))
    scores = [[0.8, 0.9], [0.7, 0.4]]
    records = [
        {
            "text": text,
            "spans": [
                {"start": s, "end": e, "label": label, "score": score} for (s, e, label), score in zip(spans, found)
            ],
        }
        for text, spans, found in zip(TEXTS, PRED_CHARS, scores)
    ]
    pred = write(tmp_path / "scored.jsonl", jsonl(*records))
    result = sweep_files(spacy_gold, pred, schemes="strict", unit="token", thresholds=[0.5])
    assert result.signature["read"]["gold_format"] == "spacy" and result.signature["read"]["pred_format"] == "jsonl"
    # at 0.5: "Ann Lee", "New York", "Acme" kept and right; "Bo" dropped: P 1, R 3/4
    strict = result.schemes["strict"]
    at = list(strict.thresholds).index(0.5)
    assert (strict.precision[at], strict.recall[at]) == (1.0, 3 / 4)


def _pred_conll(path):
    tags = [["B-PER", "I-PER", "O", "O", "B-LOC", "I-LOC", "O"], ["B-ORG", "O", "B-PER", "O", "O"]]  # PRED_TOKENS
    return write(
        path, "".join("\n".join(f"{w} {t}" for w, t in zip(words, found)) + "\n\n" for words, found in zip(WORDS, tags))
    )


def _pred_docbin(path, vocab):
    docs = []
    for words, spaces, spans in zip(WORDS, SPACES, PRED_TOKENS):
        doc = Doc(vocab, words=words, spaces=spaces)
        doc.ents = [doc[s:e].char_span(0, len(doc[s:e].text), label=label) for s, e, label in spans]
        docs.append(doc)
    return docbin(path, docs)


@pytest.mark.parametrize(
    "gold_kind,pred_kind", [("jsonl", "conll"), ("spacy", "conll"), ("conll", "spacy"), ("jsonl", "spacy")]
)
def test_token_mixes_score_the_predicted_tokens(tmp_path, vocab, gold_kind, pred_kind):
    """PRED_TOKENS in each format against GOLD in another, compared by their
    tokens: strict as counted by hand above (TOKEN_STRICT)."""
    gold = {
        "jsonl": lambda: _jsonl_gold(tmp_path / "g.jsonl", "token"),
        "spacy": lambda: docbin(tmp_path / "g.spacy", _gold_docs(vocab)),
        "conll": lambda: _conll(tmp_path / "g.conll"),
    }[gold_kind]()
    pred = {
        "conll": lambda: _pred_conll(tmp_path / "p.conll"),
        "spacy": lambda: _pred_docbin(tmp_path / "p.spacy", vocab),
    }[pred_kind]()
    scores = compare_files(gold, pred, schemes="strict", unit="token")
    assert _counts(scores) == TOKEN_STRICT


def test_prodigy_gold_and_jsonl_ids_are_not_one_key_so_they_pair_in_order(tmp_path):
    gold = write(
        tmp_path / "gold.jsonl",
        jsonl(
            *[
                {
                    "text": text,
                    "_input_hash": k,
                    "answer": "accept",
                    "spans": [{"start": cs, "end": ce, "label": label} for _, _, cs, ce, label in spans],
                }
                for k, (text, spans) in enumerate(zip(TEXTS, GOLD))
            ]
        ),
    )
    pred = _jsonl_pred(tmp_path / "pred.jsonl", "char", ids=["x", "y"])
    assert _counts(compare_files(gold, pred, schemes="strict", gold_format="prodigy")) == CHAR_STRICT


@pytest.mark.parametrize("unit", ["char", "token"])
def test_predictions_over_missing_gold_annotation_are_ignored_as_spacy_does(tmp_path, vocab, unit):
    """A DocBin gold whose "York" and "." have no entity annotation (ent_iob
    0): the prediction over "New York" is ignored, as for two DocBins."""
    docs = _gold_docs(vocab)
    doc = Doc(vocab, words=WORDS[0], spaces=SPACES[0], ents=["B-PER", "I-PER", "O", "O", "O", None, None])
    docs[0] = doc
    spacy_gold = docbin(tmp_path / "gold.spacy", docs)
    pred = _jsonl_pred(tmp_path / "pred.jsonl", unit)
    reference = compare_files(spacy_gold, _pred_docbin(tmp_path / "pred.spacy", vocab), schemes="strict", unit=unit)
    scores = compare_files(spacy_gold, pred, schemes="strict", unit=unit)
    # by hand: gold Ann Lee, Acme, Bo Chen; "New York" ignored; Bo is one
    # token of Bo Chen (token unit) or its first two characters (char unit)
    assert _counts(scores) == _counts(reference) == {"cor": 2, "inc": 1, "par": 0, "mis": 0, "spu": 0}


def test_one_export_holding_both_sides_named_by_gold_format():
    """A Label Studio export (both sides in one file) named by gold_format
    alone: the predicted side is the same file, in the same format."""
    from pathlib import Path

    export = Path(__file__).parents[2] / "examples" / "labelstudio.json"
    named = compare_files(export, schemes="strict", gold_format="labelstudio")
    assert _counts(named) == _counts(compare_files(export, schemes="strict", format="labelstudio"))
