"""Relations of spaCy docs: the rel_component tutorial's `doc._.rel` dict
(with a threshold) and spacy-llm's REL list over `doc.ents`, scored on
Examples under spaCy's flat keys; bad shapes one clear line each."""

from types import SimpleNamespace

import pytest
from spacy.tokens import Doc, Span
from spacy.training import Example

from spacy_spanf1 import InputError
from spacy_spanf1.integrations.relations import doc_relations, make_relation_scorer_v1, score_relations

WORDS = ["Ada", "Lovelace", "met", "Charles", "Babbage", "in", "London", "."]


pytestmark = pytest.mark.usefixtures("rel_extension")


def make_doc(vocab, ents, rel):
    doc = Doc(vocab, words=WORDS)
    doc.ents = [Span(doc, start, end, label=label) for start, end, label in ents]
    doc._.rel = rel
    return doc


GOLD_ENTS = [(0, 2, "PER"), (3, 5, "PER"), (6, 7, "LOC")]
# the tutorial's gold: every pair of entities, 1.0 for a relation, 0.0 otherwise
GOLD_REL = {(0, 3): {"met": 1.0, "in": 0.0}, (3, 6): {"met": 0.0, "in": 1.0}, (0, 6): {"met": 0.0, "in": 0.0}}


def test_the_tutorials_dict_with_a_threshold(vocab):
    gold = make_doc(vocab, GOLD_ENTS, GOLD_REL)
    # met scored 0.7 (a relation at 0.5, not at 0.8); in (Charles, London) 0.4; in (Ada, London) 0.9 (wrong)
    pred = make_doc(vocab, GOLD_ENTS, {(0, 3): {"met": 0.7, "in": 0.1}, (3, 6): {"in": 0.4}, (0, 6): {"in": 0.9}})
    found = doc_relations(gold)
    ada, charles, london = found.spans
    assert found.relations == [(ada, charles, "met"), (charles, london, "in")]
    assert ada == (0, 12, "PER")  # character offsets
    eg = Example(pred, gold)
    scores = score_relations([eg], schemes=["rel_strict", "rel_exact"])
    # 0.5: met right, in (Ada, London) wrong, in (Charles, London) missed
    assert scores["rel_strict_counts"] == {"tp": 1, "fp": 1, "fn": 1}
    assert scores["rel_micro_f"] == scores["rel_strict_f"] == pytest.approx(0.5)
    assert scores["rel_strict_per_type"]["met"] == {"p": 1.0, "r": 1.0, "f": 1.0}
    # 0.8: only the wrong one is left
    high = score_relations([eg], schemes=["rel_strict"], threshold=0.8)
    assert high["rel_strict_counts"] == {"tp": 0, "fp": 1, "fn": 2}


def test_spacy_llms_relation_list(vocab):
    gold = make_doc(
        vocab, GOLD_ENTS, [{"dep": 0, "dest": 1, "relation": "met"}, {"dep": 1, "dest": 2, "relation": "in"}]
    )
    # objects with dep, dest and relation (spacy-llm's RelationItem); London typed GPE
    pred = make_doc(
        vocab,
        [(0, 2, "PER"), (3, 5, "PER"), (6, 7, "GPE")],
        [SimpleNamespace(dep=0, dest=1, relation="met"), SimpleNamespace(dep=1, dest=2, relation="in")],
    )
    scores = score_relations([Example(pred, gold)], schemes=["rel_strict", "rel_exact"])
    assert scores["rel_strict_counts"] == {"tp": 1, "fp": 1, "fn": 1}  # the in's tail has the wrong type
    assert scores["rel_exact_counts"] == {"tp": 2, "fp": 0, "fn": 0}


def test_the_registered_scorer(vocab):
    gold = make_doc(vocab, GOLD_ENTS, GOLD_REL)
    pred = make_doc(vocab, GOLD_ENTS, {(3, 0): {"met": 0.9}})
    score = make_relation_scorer_v1(schemes=["rel_strict"], symmetric=["met"])
    # met without direction: (Charles, Ada) is (Ada, Charles)
    assert score([Example(pred, gold)], threshold=0.1)["rel_strict_counts"] == {"tp": 1, "fp": 0, "fn": 1}
    empty = make_doc(vocab, GOLD_ENTS, None)
    assert score([Example(empty, empty)])["rel_strict_f"] is None


@pytest.mark.parametrize(
    "rel,message",
    [
        ({(1, 3): {"met": 1.0}}, r"doc\._\.rel names token 1 as a head, where no entity of doc\.ents starts"),
        ({0: {"met": 1.0}}, r"doc\._\.rel has the entry 0: \{'met': 1\.0\}\. doc\._\.rel is either"),
        ([{"dep": 0, "dest": 7, "relation": "met"}], r"relation 0 of doc\._\.rel has dest 7, not an index into"),
        ([("a", "b")], r"relation 0 of doc\._\.rel is \('a', 'b'\)\. doc\._\.rel is either"),
        ("met", r"doc\._\.rel is a str\. doc\._\.rel is either"),
        ([{"dep": 0, "dest": 0, "relation": "met"}], r"joins the span \(0, 12, 'PER'\) to itself"),
        ([{"dep": 0, "dest": 1, "relation": ""}], r"has no label"),
    ],
)
def test_bad_rel_attributes(vocab, rel, message):
    gold = make_doc(vocab, GOLD_ENTS, GOLD_REL)
    pred = make_doc(vocab, GOLD_ENTS, rel)
    with pytest.raises(InputError, match=message) as error:
        score_relations([Example(pred, gold)], schemes=["rel_strict"])
    assert "\n" not in str(error.value)


def test_bad_scorer_settings():
    from thinc.api import ConfigValidationError

    with pytest.raises(ConfigValidationError, match="relation schemes"):
        make_relation_scorer_v1(schemes=["rel_strict", "strict"])
    with pytest.raises(ConfigValidationError, match="threshold"):
        make_relation_scorer_v1(schemes=["rel_strict"], threshold=0)


def test_the_registered_scorer_on_a_relation_component(vocab):
    """A relation component whose factory takes a scorer, configured with
    the registered one as a spaCy config names it: `nlp.evaluate` gives its
    keys, so `spacy train` can weigh them."""
    import spacy
    from spacy.language import Language

    name = "spanf1_test_relations"

    class Relations:
        """Predicts (Ada, Charles) met, and (Charles, London) met where the gold has in."""

        def __init__(self, scorer):
            self.scorer = scorer

        def __call__(self, doc):
            doc._.rel = {(0, 3): {"met": 0.9, "in": 0.1}, (3, 6): {"met": 0.8, "in": 0.2}}
            return doc

        def score(self, examples, **kwargs):
            return self.scorer(examples, **kwargs)

    if name not in Language.factories:
        Language.factory(
            name,
            default_config={"scorer": {"@scorers": "spacy-spanf1.relation_scorer.v1", "schemes": ["rel_strict"]}},
        )(lambda nlp, name, scorer: Relations(scorer))
    nlp = spacy.blank("en")
    nlp.add_pipe(name)
    gold = make_doc(nlp.vocab, GOLD_ENTS, GOLD_REL)
    pred = make_doc(nlp.vocab, GOLD_ENTS, None)
    scores = nlp.evaluate([Example(pred, gold)])
    # predicted: met(Ada, Charles) right, met(Charles, London) wrong; gold in(Charles, London) missed
    assert scores["rel_strict_p"] == 0.5 and scores["rel_strict_r"] == 0.5 and scores["rel_strict_f"] == 0.5
