"""Bad input to agreement: one clear error each, naming what is wrong and
what is valid."""

import pytest

from spacy_spanf1 import InputError, SettingError
from spacy_spanf1 import agreement
from spacy_spanf1.agreements import consensus

SPANS = [[(0, 1, "A")], [(1, 2, "B")]]


BAD_ANNOTATIONS = {
    "one_annotator": ({"a": SPANS}, SettingError, r"holds 1 annotator \('a'\): agreement needs at least 2"),
    "none": ({}, SettingError, r"holds 0 annotator \(none\)"),
    "same_annotator_twice": (
        [("a", SPANS), ("a", SPANS)],
        SettingError,
        "names the annotator 'a' 2 times: each annotator is given once",
    ),
    "nothing_shared": (
        {"a": [[(0, 1, "A")], None], "b": [None, [(1, 2, "B")]]},
        InputError,
        r"annotators 'a' and 'b' have no document in common \('a' did 1, 'b' did 1 of 2\)",
    ),
    "unequal_counts": ({"a": SPANS, "b": SPANS[:1]}, InputError, r"different numbers of documents \('a': 2, 'b': 1\)"),
    "not_a_list": ({"a": SPANS, "b": "text"}, InputError, "annotator 'b' gives a str, not one entry"),
    "bad_span": (
        {"a": SPANS, "b": [[(2, 1, "A")], []]},
        InputError,
        "Span 0 of annotator 'b' document 0 has start=2, end=1",
    ),
    "bad_name": ({"a": SPANS, 3: SPANS}, SettingError, "names an annotator 3: names are non-empty strings"),
    "not_a_mapping": ("a b", SettingError, "'annotations' must map each annotator's name"),
}


@pytest.mark.parametrize("annotations,error,match", BAD_ANNOTATIONS.values(), ids=list(BAD_ANNOTATIONS))
def test_bad_annotations(annotations, error, match):
    with pytest.raises(error, match=match):
        agreement(annotations, schemes=["strict"])


def test_settings_are_checked():
    ok = {"a": SPANS, "b": SPANS}
    with pytest.raises(SettingError, match="No 'schemes' given"):
        agreement(ok)
    with pytest.raises(SettingError, match="Unknown o tokens 'none' in 'o_tokens'. Valid: include, exclude"):
        agreement(ok, schemes=["strict"], o_tokens="none")
    with pytest.raises(TypeError, match="unexpected keyword argument .by."):
        agreement(ok, schemes=["strict"], by="label")
    with pytest.raises(SettingError, match="'strings' compares span texts"):
        agreement(ok, schemes=["strict", "strings"])
    with pytest.raises(SettingError, match="'lengths' gives 1 lengths for 2 documents"):
        agreement(ok, schemes=["strict"], lengths=[3])
    with pytest.raises(
        InputError, match=r"annotator 'a', document 1: the span \(1, 2, 'B'\) ends past the document's 1 tokens"
    ):
        agreement(ok, schemes=["strict"], lengths=[3, 1])
    with pytest.raises(ValueError, match="Resampling needs at least 2 documents"):
        agreement({"a": SPANS[:1], "b": SPANS[:1]}, schemes=["strict"], bootstrap=10)


def test_consensus_takes_the_same_checks():
    with pytest.raises(SettingError, match="agreement needs at least 2"):
        consensus({"a": SPANS})
