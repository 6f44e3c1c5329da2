"""`spacy-spanf1 agree --consensus` in token unit: the consensus written as
JSONL with tokens, or as a spaCy DocBin, read back by the package's own
readers; and settings that cannot work fail before anything is printed."""

import json

import pytest
from helpers import assert_clean_failure, invoke, write_jsonl

from spacy_spanf1.api import agree_files, compare_files

TEXTS = ["Ada Lovelace met Charles Babbage in London .", "Rome  is big"]
TOKENS = [TEXTS[0].split(), ["Rome", "is", "big"]]
# ann: doc 0 and 1; ben: a wrong label on London; cy: a short Ada, and not doc 1.
ANNOTATORS = {
    "ann": [[(0, 2, "PER"), (3, 5, "PER"), (6, 7, "LOC")], [(0, 1, "LOC")]],
    "ben": [[(0, 2, "PER"), (3, 5, "PER"), (6, 7, "ORG")], [(0, 1, "LOC")]],
    "cy": [[(0, 1, "PER"), (3, 5, "PER"), (6, 7, "LOC")], None],
}


def write_annotators(tmp_path, annotators=ANNOTATORS):
    return [
        write_jsonl(
            tmp_path / f"{name}.jsonl",
            (
                {
                    "text": text,
                    "tokens": tokens,
                    "id": f"d{i}",
                    "spans": [{"start": s, "end": e, "label": lab} for s, e, lab in spans],
                }
                for i, (text, tokens, spans) in enumerate(zip(TEXTS, TOKENS, docs))
                if spans is not None
            ),
        )
        for name, docs in annotators.items()
    ]


def char_offsets(text, tokens):
    found, pos = [], 0
    for word in tokens:
        start = text.index(word, pos)
        found.append((start, start + len(word)))
        pos = start + len(word)
    return found


def docbin_of(tmp_path, name, docs, spans_key=None):
    """An annotator's documents as a DocBin made with spaCy itself (its
    own tokenizer, the spans placed by their characters)."""
    import spacy
    from spacy.tokens import DocBin

    nlp = spacy.blank("en")
    out = DocBin()
    for text, tokens, spans in zip(TEXTS, TOKENS, docs):
        doc = nlp(text)
        offsets = char_offsets(text, tokens)
        found = [doc.char_span(offsets[s][0], offsets[e - 1][1], label=lab) for s, e, lab in spans]
        if spans_key is None:
            doc.ents = found
        else:
            doc.spans[spans_key] = found
        out.add(doc)
    path = tmp_path / f"{name}.spacy"
    out.to_disk(path)
    return path


def test_token_unit_consensus_as_jsonl_reads_back_with_hand_computed_figures(tmp_path):
    paths = write_annotators(tmp_path)
    consensus = tmp_path / "consensus.jsonl"
    result = invoke(["agree", *paths, "--unit", "token", "-s", "strict", "--consensus", consensus])
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in consensus.read_text().splitlines()]
    # doc 0, 3 voters, 2 needed: Ada Lovelace (ann, ben), Charles Babbage (all), London LOC (ann, cy);
    # doc 1, 2 voters, 2 needed: Rome LOC (ann, ben)
    assert records == [
        {
            "text": TEXTS[0],
            "tokens": TOKENS[0],
            "id": "d0",
            "spans": [
                {"start": 0, "end": 2, "label": "PER"},
                {"start": 3, "end": 5, "label": "PER"},
                {"start": 6, "end": 7, "label": "LOC"},
            ],
        },
        {"text": TEXTS[1], "tokens": TOKENS[1], "id": "d1", "spans": [{"start": 0, "end": 1, "label": "LOC"}]},
    ]
    # ben against it: COR 3, INC 1 (London ORG): P = R = F = 3/4;
    # cy, doc 0 only: COR 2, INC 1 (Ada, boundary): 2/3; ann: 1
    with pytest.warns(UserWarning, match='the predicted label "ORG" \\(1 span\\) never occurs in the gold'):
        ben = compare_files(consensus, paths[1], unit="token", schemes="strict")
    assert ben.results["strict"].f1 == pytest.approx(3 / 4)
    with pytest.warns(UserWarning, match='the label "ORG" of annotator "ben" \\(1 span\\) occurs in no other'):
        read_back = agree_files([consensus, *paths], names="consensus,ann,ben,cy", unit="token", schemes="strict")
    matrix = read_back.matrix("strict")
    assert matrix["consensus"]["ann"] == 1.0
    assert matrix["consensus"]["ben"] == pytest.approx(3 / 4)
    assert matrix["consensus"]["cy"] == pytest.approx(2 / 3)
    assert read_back.shared[("consensus", "cy")] == 1
    assert "ben against the consensus: F (strict) 75.00" in result.stdout
    assert "cy against the consensus: F (strict) 66.67" in result.stdout


def test_token_unit_consensus_as_docbin_in_ents(tmp_path):
    spacy = pytest.importorskip("spacy")
    from spacy.tokens import DocBin

    paths = write_annotators(tmp_path)
    consensus = tmp_path / "consensus.spacy"
    result = invoke(["agree", *paths, "--unit", "token", "-s", "strict", "--consensus", consensus])
    assert result.exit_code == 0, result.output
    assert "spans in doc.ents" in result.stdout
    docs = list(DocBin().from_disk(consensus).get_docs(spacy.vocab.Vocab()))
    assert [doc.text for doc in docs] == TEXTS
    assert [[(e.text, e.label_) for e in doc.ents] for doc in docs] == [
        [("Ada Lovelace", "PER"), ("Charles Babbage", "PER"), ("London", "LOC")],
        [("Rome", "LOC")],
    ]
    assert docs[0].user_data["id"] == "d0"
    ben = docbin_of(tmp_path, "ben", ANNOTATORS["ben"])
    with pytest.warns(UserWarning, match='the predicted label "ORG" \\(1 span\\) never occurs in the gold'):
        scores = compare_files(consensus, ben, unit="token", schemes="strict")
    assert scores.results["strict"].f1 == pytest.approx(3 / 4)


def test_overlapping_consensus_goes_to_a_span_group(tmp_path):
    spacy = pytest.importorskip("spacy")
    from spacy.tokens import DocBin

    nested = [[(0, 2, "PER"), (1, 2, "PER"), (6, 7, "LOC")], [(0, 1, "LOC")]]
    paths = write_annotators(tmp_path, {"ann": nested, "ben": nested})
    for spans_key, key in ((None, "sc"), ("mine", "mine")):
        consensus = tmp_path / f"consensus-{key}.spacy"
        extra = [] if spans_key is None else ["--spans-key", spans_key]
        result = invoke(["agree", *paths, "--unit", "token", "-s", "strict", "--consensus", consensus, *extra])
        assert result.exit_code == 0, result.output
        assert f"spans in doc.spans['{key}']" in result.stdout
        docs = list(DocBin().from_disk(consensus).get_docs(spacy.vocab.Vocab()))
        assert not docs[0].ents
        assert [(s.text, s.label_) for s in docs[0].spans[key]] == [
            ("Ada Lovelace", "PER"),
            ("Lovelace", "PER"),
            ("London", "LOC"),
        ]
        other = docbin_of(tmp_path, f"ann-{key}", [nested[0][:2], nested[1]], spans_key=key)
        scores = compare_files(consensus, other, unit="token", schemes="strict", spans_key=key)
        # London missed: COR 3, MIS 1: P 1, R 3/4, F 6/7
        assert scores.results["strict"].f1 == pytest.approx(6 / 7)


def test_bad_consensus_settings_fail_before_anything_is_printed(tmp_path):
    paths = write_annotators(tmp_path)
    for extra, message in (
        (["--consensus", tmp_path / "c.jsonl", "--min-votes", "4"], "'--min-votes' is 4 but there are 3 annotators"),
        (["--min-votes", "2"], "give '--consensus' too"),
        (["--consensus", tmp_path / "c.jsonl", "--spans-key", "sc"], "ending in .spacy"),
    ):
        result = invoke(["agree", *paths, "--unit", "token", "-s", "strict", *extra])
        assert_clean_failure(result, 2, message)
        assert "Pairwise F" not in result.stdout and result.stdout.strip() == "", result.stdout
