"""Consensus and disagreements on hand-written annotations."""

import pytest

from spacy_spanf1 import SettingError
from spacy_spanf1.agreements import consensus, disagreements
from spacy_spanf1.spans import Span

PER, LOC = (0, 2, "PER"), (3, 4, "LOC")

THREE = {
    "a": [[PER, LOC], [(1, 2, "ORG")], None, []],
    "b": [[PER], [(1, 2, "ORG")], [(0, 1, "X")], [(0, 1, "X")]],
    "c": [[(0, 2, "LOC"), LOC, LOC], [(1, 3, "ORG")], [(0, 1, "X")], None],
}


def spans(*items):
    return [Span(*item) for item in items]


def test_a_strict_majority_of_those_who_did_the_document():
    assert consensus(THREE) == [
        spans(PER, LOC),  # PER: a, b; LOC: a, c (c listed it twice: one vote)
        spans((1, 2, "ORG")),
        spans((0, 1, "X")),  # done by b and c: both
        [],  # done by a and b: one vote of two is no majority
    ]


def test_a_tie_is_no_majority():
    two = {"a": [[PER]], "b": [[(0, 2, "LOC")]]}
    assert consensus(two) == [[]]


def test_min_votes_one_keeps_every_span_and_n_only_the_unanimous():
    assert consensus(THREE, min_votes=1) == [
        spans((0, 2, "LOC"), PER, LOC),  # sorted by (start, end, label)
        spans((1, 2, "ORG"), (1, 3, "ORG")),
        spans((0, 1, "X")),
        spans((0, 1, "X")),
    ]
    assert consensus(THREE, min_votes=3) == [[], [], [], []]
    assert consensus(THREE, min_votes=2) == [spans(PER, LOC), spans((1, 2, "ORG")), spans((0, 1, "X")), []]


def test_a_document_no_one_did_is_none():
    assert consensus({"a": [None, [PER]], "b": [None, [PER]]}) == [None, spans(PER)]


@pytest.mark.parametrize("min_votes", [0, 4, 1.5, True])
def test_bad_min_votes(min_votes):
    with pytest.raises(SettingError, match="'min_votes'"):
        consensus(THREE, min_votes=min_votes)


def test_disagreements_list_exactly_the_spans_not_shared_by_all():
    found = [d.to_dict() for d in disagreements(THREE)]
    assert found == [
        {
            "doc": 0,
            "span": {"start": 0, "end": 2, "label": "LOC"},
            "have": ["c"],
            "instead": {"a": [{"start": 0, "end": 2, "label": "PER"}], "b": [{"start": 0, "end": 2, "label": "PER"}]},
        },
        {
            "doc": 0,
            "span": {"start": 0, "end": 2, "label": "PER"},
            "have": ["a", "b"],
            "instead": {"c": [{"start": 0, "end": 2, "label": "LOC"}]},
        },
        {"doc": 0, "span": {"start": 3, "end": 4, "label": "LOC"}, "have": ["a", "c"], "instead": {"b": []}},
        {
            "doc": 1,
            "span": {"start": 1, "end": 2, "label": "ORG"},
            "have": ["a", "b"],
            "instead": {"c": [{"start": 1, "end": 3, "label": "ORG"}]},
        },
        {
            "doc": 1,
            "span": {"start": 1, "end": 3, "label": "ORG"},
            "have": ["c"],
            "instead": {"a": [{"start": 1, "end": 2, "label": "ORG"}], "b": [{"start": 1, "end": 2, "label": "ORG"}]},
        },
        {"doc": 3, "span": {"start": 0, "end": 1, "label": "X"}, "have": ["b"], "instead": {"a": []}},
    ]


def test_no_disagreement_when_all_agree():
    assert disagreements({"a": [[PER], None], "b": [[PER], [LOC]], "c": [[PER], [LOC]]}) == []
