"""Relations of .spacy DocBins: `doc._.rel` as spaCy serializes it (in the
docs' user_data), in the rel_component tutorial's dict and spacy-llm's
REL list, read by `compare` and `compare_files`, mapped onto the scored
spans when the two files tokenize differently; a relation whose argument
the alignment leaves out is counted and shown; a shape neither tool writes
is one clear error naming the file and the doc."""

import json
import warnings

import pytest
from spacy.tokens import Doc, DocBin
from spacy.tokens import Span as SpacySpan

from helpers import assert_clean_failure, invoke, write_jsonl
from spacy_spanf1 import InputError, compare_files


pytestmark = pytest.mark.usefixtures("rel_extension")


GOLD_WORDS = ["Ada", "Lovelace", "met", "Charles", "Babbage", "in", "London"]
GOLD_SPACES = [True, True, True, True, True, True, False]
# The same text, "Lovelace" tokenized as "Love" + "lace".
PRED_WORDS = ["Ada", "Love", "lace", "met", "Charles", "Babbage", "in", "London"]
PRED_SPACES = [True, False, True, True, True, True, True, False]


def make_doc(vocab, words, spaces, ents, rel, iob=None):
    doc = Doc(vocab, words=words, spaces=spaces, ents=iob)
    if iob is None:
        doc.ents = [SpacySpan(doc, start, end, label=label) for start, end, label in ents]
    doc._.rel = rel
    return doc


def save(path, docs):
    # as spaCy's corpora are written with relations: user_data stored
    DocBin(store_user_data=True, docs=docs).to_disk(path)
    return path


def gold_doc(vocab):
    # the tutorial's gold: Ada, Charles, London; met(Ada, Charles), in(Charles, London)
    ents = [(0, 2, "PER"), (3, 5, "PER"), (6, 7, "LOC")]
    rel = {(0, 3): {"met": 1.0, "in": 0.0}, (3, 6): {"met": 0.0, "in": 1.0}, (0, 6): {"met": 0.0, "in": 0.0}}
    return make_doc(vocab, GOLD_WORDS, GOLD_SPACES, ents, rel)


def pred_doc(vocab, rel=None, charles="LOC"):
    # Ada Love lace (PER), Charles Babbage typed LOC, London (LOC); spacy-llm's list over doc.ents
    ents = [(0, 3, "PER"), (4, 6, charles), (7, 8, "LOC")]
    rel = (
        rel if rel is not None else [{"dep": 0, "dest": 1, "relation": "met"}, {"dep": 1, "dest": 2, "relation": "in"}]
    )
    return make_doc(vocab, PRED_WORDS, PRED_SPACES, ents, rel)


def files(tmp_path, vocab, pred=None):
    gold = save(tmp_path / "gold.spacy", [gold_doc(vocab)])
    return gold, save(tmp_path / "pred.spacy", [pred if pred is not None else pred_doc(vocab)])


def test_compare_files_reads_both_shapes_across_tokenizations(tmp_path, vocab):
    gold, pred = files(tmp_path, vocab)
    for unit in ("token", "char"):
        scores = compare_files(gold, pred, schemes="strict,rel_strict,rel_exact", unit=unit)
        # The prediction's arguments align to the gold's three entities;
        # Charles Babbage is typed LOC, an INC pair under strict: both
        # relations run through it, so rel_strict: TP 0, FP 2, FN 2; under
        # exact its boundaries match: both relations right, TP 2.
        assert scores.results["rel_strict"].counts == {"tp": 0, "fp": 2, "fn": 2}, unit
        assert scores.results["rel_exact"].counts == {"tp": 2, "fp": 0, "fn": 0}, unit
        assert scores.results["strict"].counts["cor"] == 2 and scores.results["strict"].counts["inc"] == 1
        assert "dropped_relations" not in scores.notes.get("pred", {})


def test_the_tutorials_threshold(tmp_path, vocab):
    # The tutorial's dict on the predicted side: met scored 0.7 (a relation
    # from 0.5 on), in(Charles, London) 0.4 (none), in(Ada, London) 0.6
    # (a wrong one). Prediction tokens (4 = Charles, 7 = London).
    rel = {(0, 4): {"met": 0.7, "in": 0.1}, (4, 7): {"in": 0.4}, (0, 7): {"in": 0.6}}
    ents = [(0, 3, "PER"), (4, 6, "PER"), (7, 8, "LOC")]
    gold, pred = files(tmp_path, vocab, make_doc(vocab, PRED_WORDS, PRED_SPACES, ents, rel))
    scores = compare_files(gold, pred, schemes="strict,rel_strict")
    # met right (TP 1), in(Ada, London) spurious (FP 1), in(Charles, London) missed (FN 1)
    assert scores.results["rel_strict"].counts == {"tp": 1, "fp": 1, "fn": 1}
    assert scores.results["rel_strict"].per_type["met"].f1 == 1.0


def test_compare_on_the_command_line(tmp_path, vocab):
    gold, pred = files(tmp_path, vocab)
    out = tmp_path / "out.json"
    result = invoke(["compare", gold, pred, "-s", "strict,rel_strict,rel_exact", "-o", out, "--silent"])
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text(encoding="utf8"))
    assert data["schemes"]["rel_strict"]["counts"] == {"tp": 0, "fp": 2, "fn": 2}
    assert data["schemes"]["rel_exact"]["counts"] == {"tp": 2, "fp": 0, "fn": 0}
    assert data["schemes"]["rel_exact"]["f"] == 1.0


def test_a_relation_whose_argument_the_alignment_drops_is_counted(tmp_path, vocab):
    # The gold leaves London's annotation missing (no IOB): spaCy's scorers,
    # and so the spans read, leave out the prediction over it, and with it
    # the prediction's in(Charles, London), which is counted and shown.
    iob = ["B-PER", "I-PER", "O", "B-PER", "I-PER", "O", ""]
    gold_rel = {(0, 3): {"met": 1.0}}
    gold = save(tmp_path / "gold.spacy", [make_doc(vocab, GOLD_WORDS, GOLD_SPACES, None, gold_rel, iob)])
    pred = save(tmp_path / "pred.spacy", [pred_doc(vocab, charles="PER")])
    scores = compare_files(gold, pred, schemes="exact,rel_exact")
    # met(Ada, Charles) is right: TP 1; the dropped relation is not scored
    assert scores.results["rel_exact"].counts == {"tp": 1, "fp": 0, "fn": 0}
    dropped = scores.notes["pred"]["dropped_relations"]
    assert dropped["count"] == 1 and dropped["examples"][0].startswith("doc 0: in ")
    out = tmp_path / "out.json"
    result = invoke(["compare", gold, pred, "-s", "exact,rel_exact", "-o", out])
    assert result.exit_code == 0, result.output
    assert "1 relation(s) have an argument that is not among the spans scored" in result.stdout


def test_a_rel_of_neither_shape_is_one_clear_error(tmp_path, vocab):
    gold, pred = files(tmp_path, vocab, pred_doc(vocab, rel="works_for"))
    with pytest.raises(InputError) as err:
        compare_files(gold, pred, schemes="strict,rel_strict")
    assert str(err.value).startswith(f"{pred}: doc 0: doc._.rel is a str")
    assert "rel_component tutorial's dict" in str(err.value)
    result = invoke(["compare", gold, pred, "-s", "strict,rel_strict"])
    assert_clean_failure(result, 1, "doc 0: doc._.rel is a str")


def test_relation_schemes_over_files_without_relations_warn(tmp_path, vocab):
    plain = [make_doc(vocab, GOLD_WORDS, GOLD_SPACES, [(0, 2, "PER")], None)]
    gold = save(tmp_path / "gold.spacy", plain)
    pred = save(tmp_path / "pred.spacy", plain)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores = compare_files(gold, pred, schemes="strict,rel_strict")
    said = "no gold relation and no predicted relation in the whole corpus"
    assert any(said in str(w.message) for w in caught)
    assert any(said in text for text in scores.warnings)
    # with relations on a side, no such warning
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        compare_files(*files(tmp_path, vocab), schemes="strict,rel_strict")
    assert not any(said in str(w.message) for w in caught)


def test_a_docbin_gold_with_jsonl_predictions(tmp_path, vocab):
    # A mix: the gold a DocBin (the tutorial's dict), the prediction JSONL
    # with character offsets, "Ada Lovelac" cut a character short.
    gold = save(tmp_path / "gold.spacy", [gold_doc(vocab)])
    text = "Ada Lovelace met Charles Babbage in London"
    spans = [
        {"start": 0, "end": 11, "label": "PER"},
        {"start": 17, "end": 32, "label": "PER"},
        {"start": 36, "end": 42, "label": "LOC"},
    ]
    rels = [{"head": 0, "tail": 1, "label": "met"}, {"head": 1, "tail": 2, "label": "in"}]
    pred = write_jsonl(tmp_path / "pred.jsonl", [{"text": text, "spans": spans, "relations": rels}])
    # In characters (0, 11) is not Ada Lovelace (0, 12) under strict: met
    # (through it) is spurious and missed, in(Charles, London) right.
    chars = compare_files(gold, pred, schemes="strict,rel_strict", unit="char")
    assert chars.results["rel_strict"].counts == {"tp": 1, "fp": 1, "fn": 1}
    # In gold tokens the cut span is expanded to Ada Lovelace, and so is
    # met's head: both relations right.
    tokens = compare_files(gold, pred, schemes="strict,rel_strict", unit="token")
    assert tokens.results["rel_strict"].counts == {"tp": 2, "fp": 0, "fn": 0}
    assert "dropped_relations" not in tokens.notes.get("pred", {})


def test_evaluate_pipeline_scores_the_relations_a_component_sets(tmp_path):
    # A relation component (as the rel_component tutorial's) sets doc.ents and doc._.rel
    # on the pipeline's docs; evaluate_pipeline reads them as it reads a DocBin's.
    import spacy
    from spacy.language import Language

    from spacy_spanf1 import evaluate_pipeline

    ents = [(0, 2, "PER"), (3, 5, "PER"), (6, 7, "LOC")]

    @Language.component("spanf1_pipeline_relations")
    def relations(doc):
        doc.ents = [SpacySpan(doc, start, end, label=label) for start, end, label in ents]
        # (head start token, tail start token): {label: score}; 0.4 is under the 0.5 threshold
        doc._.rel = {(0, 3): {"met": 0.9, "in": 0.1}, (3, 6): {"in": 0.4}}
        return doc

    nlp = spacy.blank("en")
    nlp.add_pipe("spanf1_pipeline_relations")
    gold = make_doc(nlp.vocab, GOLD_WORDS, GOLD_SPACES, ents, {(0, 3): {"met": 1.0}, (3, 6): {"in": 1.0}})
    docbin = DocBin(store_user_data=True, docs=[gold])
    docbin.to_disk(tmp_path / "gold.spacy")
    scores = evaluate_pipeline(nlp, tmp_path / "gold.spacy", schemes="strict,rel_strict")
    # met(Ada Lovelace, Charles Babbage) found; in(Charles Babbage, London) scored 0.4: missed
    assert (scores.results["rel_strict"].totals.tp, scores.results["rel_strict"].totals.fp) == (1, 0)
    assert scores.results["rel_strict"].totals.fn == 1
    assert scores.results["strict"].totals.cor == 3
