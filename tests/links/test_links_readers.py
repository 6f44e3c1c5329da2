"""Linked spans read from files, scored through `compare_files`: JSONL
"kb_id", brat normalization lines, spaCy DocBins (`Span.kb_id_`) and the
AIDA CoNLL-YAGO TSV layout. The neleval measures equal neleval 3.1.1 on
the spans the files were written from (run in the test); `nel` over
DocBins equals spaCy's `Scorer.score_links` on the same docs; the AIDA
figures are counted by hand. Bad input is one clear error each."""

import json
import warnings

import pytest

from spacy_spanf1 import compare_files
from spacy_spanf1.exceptions import InputError
from spacy_spanf1.formats import get_format
from spacy_spanf1.values import LINK_SCHEMES

from test_links_neleval import make_corpus

TEXT = "x " * 20
#: neleval's ten measures (the names are checked against neleval's own group in test_links_neleval.py)
MEASURES = tuple(name for name in LINK_SCHEMES if name not in ("weak_all_match", "nel"))


def fields(span):
    if isinstance(span, dict):
        return span["start"], span["end"], span["label"], span.get("kb_id")
    return (*span, None) if len(span) == 3 else tuple(span)


def scored(gold_path, pred_path, schemes, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # label warnings of random corpora
        return compare_files(gold_path, pred_path, schemes=["strict", *schemes], **options)


def assert_equals_neleval(neleval, scores, gold, pred):
    theirs = neleval.counts(gold, pred)
    for name in MEASURES:
        c = scores.results[name].totals
        assert (c.tp, c.fp, c.fn) == theirs[name], name


# ---------------------------------------------------------------- JSONL


def write_jsonl(path, docs, with_ids=True):
    with open(path, "w", encoding="utf8") as f:
        for spans in docs:
            items = []
            for span in spans:
                start, end, label, kb = fields(span)
                item = {"start": start, "end": end, "label": label}
                if with_ids and kb is not None:
                    item["kb_id"] = kb
                items.append(item)
            f.write(json.dumps({"text": TEXT, "spans": items}) + "\n")


def test_jsonl_without_kb_ids_is_nil_for_all_and_says_so(neleval, tmp_path):
    gold, pred = make_corpus(4, 20)
    write_jsonl(tmp_path / "g.jsonl", gold)
    write_jsonl(tmp_path / "p.jsonl", pred, with_ids=False)
    with pytest.warns(UserWarning, match="the prediction carries no knowledge-base id"):
        scores = compare_files(tmp_path / "g.jsonl", tmp_path / "p.jsonl", schemes="strict,strong_all_match")
    # neleval on the same predictions written without ids: every one NIL
    unlinked = [[fields(span)[:3] for span in doc] for doc in pred]
    theirs = neleval.counts(gold, unlinked, measures=["strong_all_match"])
    c = scores.results["strong_all_match"].totals
    assert (c.tp, c.fp, c.fn) == theirs["strong_all_match"]
    assert scores.notes["pred"]["no_kb_ids"]["count"] == 20
    assert not any("gold carries no" in w for w in scores.warnings)


def test_a_jsonl_kb_id_that_is_not_a_string_is_one_clear_error(tmp_path):
    (tmp_path / "g.jsonl").write_text(
        json.dumps({"text": "ab cd", "spans": [{"start": 0, "end": 2, "label": "X", "kb_id": 42}]}) + "\n"
    )
    with pytest.raises(InputError) as err:
        list(get_format("jsonl").read(tmp_path / "g.jsonl", side="gold", unit="char"))
    assert str(err.value).count("\n") == 0
    assert "g.jsonl:1:" in str(err.value) and "span 0 has a kb_id of type int (42)" in str(err.value)
    assert "a kb_id is a string" in str(err.value)


def test_the_cli_names_a_bad_kb_id_in_one_line(tmp_path):
    from helpers import assert_clean_failure, invoke

    bad = {"text": "ab cd", "spans": [{"start": 0, "end": 2, "label": "X", "kb_id": ["Q1"]}]}
    (tmp_path / "g.jsonl").write_text(json.dumps(bad) + "\n")
    (tmp_path / "p.jsonl").write_text(json.dumps({"text": "ab cd", "spans": []}) + "\n")
    result = invoke(["compare", tmp_path / "g.jsonl", tmp_path / "p.jsonl", "-s", "strict,strong_all_match"])
    assert_clean_failure(result, 1, "span 0 has a kb_id of type list")


# ---------------------------------------------------------------- brat


def write_brat(folder, docs):
    folder.mkdir()
    for i, spans in enumerate(docs):
        (folder / f"d{i:03}.txt").write_text(TEXT)
        lines, n = [], 0
        for t, span in enumerate(spans, 1):
            start, end, label, kb = fields(span)
            lines.append(f"T{t}\t{label} {start} {end}\t{TEXT[start:end]}")
            if kb:  # brat writes no normalization for a span without an id
                n += 1
                lines.append(f"N{n}\tReference T{t} {kb}\t{TEXT[start:end]}")
        (folder / f"d{i:03}.ann").write_text("".join(line + "\n" for line in lines))


#: The layouts a random corpus is written in: (writer, gold path, predictions path).
WRITTEN = {"jsonl": (write_jsonl, "g.jsonl", "p.jsonl"), "brat": (write_brat, "gold", "pred")}


@pytest.mark.parametrize(
    "layout, seed, n_docs", [*(("jsonl", seed, 40) for seed in range(3)), *(("brat", seed, 30) for seed in range(2))]
)
def test_jsonl_kb_ids_and_brat_normalizations_score_as_neleval(neleval, tmp_path, layout, seed, n_docs):
    write, gold_name, pred_name = WRITTEN[layout]
    gold, pred = make_corpus(seed, n_docs)
    write(tmp_path / gold_name, gold)
    write(tmp_path / pred_name, pred)
    scores = scored(tmp_path / gold_name, tmp_path / pred_name, MEASURES)
    assert_equals_neleval(neleval, scores, gold, pred)
    assert "normalizations" not in scores.not_scored.get("gold", {})  # brat: every normalization read


def test_brat_reads_a_normalization_as_brat_writes_it_and_counts_a_second_one(tmp_path):
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "a.txt").write_text("Douglas Adams lived in London.\n")
    (folder / "a.ann").write_text(
        "T1\tPerson 0 13\tDouglas Adams\n"
        "T2\tLocation 23 29\tLondon\n"
        "N1\tReference T1 Wikidata:Q42\tDouglas Adams\n"
        "N2\tReference T1 Wikipedia:8091\tDouglas Adams\n"
        "#1\tAnnotatorNotes T2\tthe city\n"
    )
    (doc,) = get_format("brat").read(folder, side="gold", unit="char")
    assert [(span[:2], kb) for span, kb in doc.links] == [((0, 13), "Wikidata:Q42"), ((23, 29), "")]
    assert dict(doc.counts) == {"normalizations": 1, "notes": 1}


@pytest.mark.parametrize(
    "line, message",
    [
        ("N1\tReference T9 Wikidata:Q42\tx", "names T9, which is not an entity of the file"),
        ("N1\tReference T1\tx", "malformed normalization"),
    ],
)
def test_a_bad_brat_normalization_is_one_clear_error(tmp_path, line, message):
    folder = tmp_path / "b"
    folder.mkdir()
    (folder / "a.txt").write_text("Douglas Adams\n")
    (folder / "a.ann").write_text(f"T1\tPerson 0 13\tDouglas Adams\n{line}\n")
    with pytest.raises(InputError, match=message) as err:
        list(get_format("brat").read(folder, side="gold", unit="char"))
    assert "a.ann:2:" in str(err.value) and "\n" not in str(err.value)


# ---------------------------------------------------------------- AIDA

AIDA_GOLD = """\
-DOCSTART- (1 EU)
EU\tB\tEU\t--NME--
rejects
German\tB\tGerman\tGermany\thttp://en.wikipedia.org/wiki/Germany\t11867\t/m/0345h
call
to
boycott
British\tB\tBritish\tUnited_Kingdom\thttp://en.wikipedia.org/wiki/United_Kingdom\t31717\t/m/07ssc
lamb
.

Peter\tB\tPeter Blackburn\t--NME--
Blackburn\tI\tPeter Blackburn\t--NME--

-DOCSTART- (2 Rugby)
New\tB\tNew York\tNew_York_City\thttp://en.wikipedia.org/wiki/New_York_City\t645042\t/m/02_286
York\tI\tNew York\tNew_York_City\thttp://en.wikipedia.org/wiki/New_York_City\t645042\t/m/02_286
won
"""

# The linker's output in the same layout: the gold's lines but for EU
# linked (gold NIL), British linked wrong and Peter Blackburn found as
# "Peter" alone (NIL); German and New York right.
AIDA_PRED = (
    AIDA_GOLD.replace(
        "EU\tB\tEU\t--NME--", "EU\tB\tEU\tEuropean_Union\thttp://en.wikipedia.org/wiki/European_Union\t9317\t/m/02jxk"
    )
    .replace(
        "British\tB\tBritish\tUnited_Kingdom\thttp://en.wikipedia.org/wiki/United_Kingdom\t31717\t/m/07ssc",
        "British\tB\tBritish\tBritish_people\thttp://en.wikipedia.org/wiki/British_people\t19097669\t/m/02w7gg",
    )
    .replace(
        "Peter\tB\tPeter Blackburn\t--NME--\nBlackburn\tI\tPeter Blackburn\t--NME--",
        "Peter\tB\tPeter\t--NME--\nBlackburn",
    )
)


def test_the_aida_reader_reads_the_layout_as_the_dataset_writes_it(tmp_path):
    (tmp_path / "g.tsv").write_text(AIDA_GOLD)
    docs = list(get_format("aida").read(tmp_path / "g.tsv", side="gold", unit="token"))
    assert [doc.key for doc in docs] == ["1 EU", "2 Rugby"]
    assert docs[0].tokens[:3] == ["EU", "rejects", "German"]
    assert [(span.start, span.end, kb) for span, kb in docs[0].links] == [
        (0, 1, ""),
        (2, 3, "Germany"),
        (6, 7, "United_Kingdom"),
        (9, 11, ""),
    ]
    by_url = list(get_format("aida").read(tmp_path / "g.tsv", side="gold", unit="token", kb_column="wikipedia"))
    assert by_url[1].links[0][1] == "http://en.wikipedia.org/wiki/New_York_City"


def test_aida_files_score_as_counted_by_hand(tmp_path):
    (tmp_path / "g.tsv").write_text(AIDA_GOLD)
    (tmp_path / "p.tsv").write_text(AIDA_PRED)
    scores = scored(tmp_path / "g.tsv", tmp_path / "p.tsv", MEASURES + ("nel",), format="aida")
    counts = {name: scores.results[name].counts for name in scores.results}
    # gold: EU NIL, German Germany, British UK, Peter Blackburn NIL, New York NYC
    # pred: EU EU, German Germany, British British_people, Peter NIL, New York NYC
    # mentions: EU, German, British, New York match (4); Peter vs Peter Blackburn do not
    assert counts["strong_mention_match"] == {"tp": 4, "fp": 1, "fn": 1}
    # linked on both sides: German, New York right; EU, British (pred) and British (gold) wrong
    assert counts["strong_link_match"] == {"tp": 2, "fp": 2, "fn": 1}
    # NIL on both sides: EU is NIL only in gold, Peter's spans differ
    assert counts["strong_nil_match"] == {"tp": 0, "fp": 1, "fn": 2}
    assert counts["strong_all_match"] == {"tp": 2, "fp": 3, "fn": 3}
    # entity_match: per document the set of linked ids; doc 1 gold {Germany, UK}, pred {EU, Germany, British_people}
    assert counts["entity_match"] == {"tp": 2, "fp": 2, "fn": 1}
    # nel (spaCy): judged at gold boundaries: EU (gold "" vs EU: FP+FN, "" is no negative label),
    # German TP, British FP+FN, New York TP
    assert counts["nel"] == {"tp": 2, "fp": 2, "fn": 2}


@pytest.mark.parametrize(
    "lines, lineno, message",
    [
        (
            ["Peter\tI\tPeter Blackburn\t--NME--"],
            3,
            "the mention column changes inside a mention: .Peter Blackburn. after .EU.",
        ),
        (["rejects", "Blackburn\tI\tPeter Blackburn\t--NME--"], 4, "tagged I with no B before it"),
        (["Peter\tB\tPeter Blackburn\t--NME--", "Blackburn\tI\tBlackburn\t--NME--"], 4, "the mention column changes"),
        (
            ["New\tB\tNew York\tNew_York_City\tu", "York\tI\tNew York\tYork\tv"],
            4,
            "the entity column changes inside a mention: 'York' after 'New_York_City'",
        ),
        (["Peter\tX\tPeter\t--NME--"], 3, "expected TOKEN<TAB>B|I"),
    ],
)
def test_a_broken_aida_mention_run_is_one_clear_error(tmp_path, lines, lineno, message):
    (tmp_path / "g.tsv").write_text("-DOCSTART- (1 EU)\nEU\tB\tEU\t--NME--\n" + "\n".join(lines) + "\n")
    with pytest.raises(InputError, match=message) as err:
        list(get_format("aida").read(tmp_path / "g.tsv", side="gold", unit="token"))
    assert f"g.tsv:{lineno}:" in str(err.value) and "\n" not in str(err.value)


def test_a_blank_line_ends_an_aida_mention(tmp_path):
    (tmp_path / "g.tsv").write_text("-DOCSTART- (1 EU)\nPeter\tB\tPeter B\t--NME--\n\nB\tI\tPeter B\t--NME--\n")
    with pytest.raises(InputError, match="tagged I with no B before it in its sentence"):
        list(get_format("aida").read(tmp_path / "g.tsv", side="gold", unit="token"))


# ---------------------------------------------------------------- DocBins


def linked_docbins(tmp_path):
    """Two DocBins of the same texts, entities with kb ids (written as
    spaCy writes them), and the Examples spaCy's scorer would see."""
    import spacy
    from spacy.tokens import DocBin, Span
    from spacy.training import Example

    nlp = spacy.blank("en")
    gold_ents = [
        [(0, 2, "PERSON", "Q42"), (5, 6, "GPE", "Q84")],
        [(0, 2, "PERSON", "NIL"), (3, 4, "PERSON", "")],
        [(1, 2, "ORG", "Q95")],
    ]
    pred_ents = [
        [(0, 2, "PERSON", "Q42"), (5, 6, "GPE", "Q90")],
        [(0, 2, "PERSON", ""), (3, 4, "PERSON", "Q1")],
        [(0, 2, "ORG", "Q95")],
    ]
    texts = ["Douglas Adams lived in central London .", "Ford Prefect met Arthur .", "At Google it rains ."]
    examples = []
    for name, ents_of in (("gold", gold_ents), ("pred", pred_ents)):
        db = DocBin(store_user_data=True)
        for text, ents in zip(texts, ents_of):
            doc = nlp.make_doc(text)
            doc.ents = [Span(doc, s, e, label=label, kb_id=kb) for s, e, label, kb in ents]
            db.add(doc)
        db.to_disk(tmp_path / f"{name}.spacy")
    gold_docs = list(DocBin().from_disk(tmp_path / "gold.spacy").get_docs(nlp.vocab))
    pred_docs = list(DocBin().from_disk(tmp_path / "pred.spacy").get_docs(nlp.vocab))
    examples = [Example(p, g) for p, g in zip(pred_docs, gold_docs)]
    return examples, gold_ents, pred_ents


def test_docbin_kb_ids_score_as_neleval_and_nel_as_spacy(neleval, tmp_path):
    from spacy.scorer import Scorer

    examples, gold, pred = linked_docbins(tmp_path)
    scores = scored(tmp_path / "gold.spacy", tmp_path / "pred.spacy", MEASURES + ("nel",))
    assert_equals_neleval(neleval, scores, gold, pred)
    theirs = Scorer.score_links(examples, negative_labels=["NIL"])
    from spacy_spanf1.links import nel_scores

    assert nel_scores(scores.results["nel"]) == theirs


def test_docbin_kb_ids_in_char_unit_score_the_same(neleval, tmp_path):
    examples, gold, pred = linked_docbins(tmp_path)
    token = scored(tmp_path / "gold.spacy", tmp_path / "pred.spacy", MEASURES)
    char = scored(tmp_path / "gold.spacy", tmp_path / "pred.spacy", MEASURES, unit="char")
    for name in MEASURES:
        assert token.results[name].counts == char.results[name].counts, name


def test_kb_ids_scored_without_a_link_scheme_are_counted_as_read_not_scored(tmp_path):
    gold, pred = make_corpus(6, 10)
    write_jsonl(tmp_path / "g.jsonl", gold)
    write_jsonl(tmp_path / "p.jsonl", pred, with_ids=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        scores = compare_files(tmp_path / "g.jsonl", tmp_path / "p.jsonl", schemes="strict")
    written = sum(1 for doc in gold for span in doc if fields(span)[3])  # the non-empty ids written
    assert scores.not_scored == {"gold": {"kb_ids": written}}


def test_a_docbin_gold_with_jsonl_predictions_places_the_ids_as_the_spans(neleval, tmp_path):
    examples, gold, pred = linked_docbins(tmp_path)
    # the predictions written as JSONL, character offsets, as a linker's output
    with open(tmp_path / "pred.jsonl", "w", encoding="utf8") as f:
        for eg, ents in zip(examples, pred):
            doc = eg.reference
            spans = [
                {"start": doc[s].idx, "end": doc[e - 1].idx + len(doc[e - 1]), "label": label, "kb_id": kb}
                for s, e, label, kb in ents
            ]
            f.write(json.dumps({"text": doc.text, "spans": spans}) + "\n")
    scores = scored(tmp_path / "gold.spacy", tmp_path / "pred.jsonl", MEASURES, pred_format="jsonl", unit="token")
    assert_equals_neleval(neleval, scores, gold, pred)
    # in char unit (the mix's default) the same counts
    chars = scored(tmp_path / "gold.spacy", tmp_path / "pred.jsonl", MEASURES, pred_format="jsonl")
    assert chars.unit == "char"
    for name in MEASURES:
        assert chars.results[name].counts == scores.results[name].counts, name
