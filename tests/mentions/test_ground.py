"""Grounding mentions (a string and a label, no offsets) in their text, rule
by rule of SPEC.md's "Mentions without offsets": the three methods in their
order (exact, normalized, fuzzy), the three assignments (ordered, first,
all), duplicates, not-found mentions, ambiguity, and what the grounding
does to the span schemes (a duplicate or a not-found mention is SPU).

Every expected offset is counted by hand in the comment above it; offsets
are in code points (Python string indices), so an emoji outside the BMP is
one position. Fuzzy scores come from rapidfuzz itself, the reference SPEC.md
names for them, and are also worked out by hand in the comments.
"""

import math
import unicodedata

import pytest
from rapidfuzz import fuzz

from spacy_spanf1 import SettingError
from spacy_spanf1.mentions import evaluate_mentions, ground_mentions, normalize
from spacy_spanf1.mentions.normalize import normalize_with_offsets


def view(grounded):
    """(spans, method, status, ambiguous) of each grounded mention."""
    return [(m.spans, m.method, m.status, m.ambiguous) for m in grounded]


def spans_of(grounded):
    return [m.spans for m in grounded]


# --------------------------------------------------------------------------
# Repeated strings under each assignment
# --------------------------------------------------------------------------

# "Ann met Bob. Ann met Cy. Ann left."
#  0   4   8  12 13  17  21 24 25  29 33
# "Ann" occurs at (0, 3), (13, 16), (25, 28); the text is 34 characters long.
ANNS = "Ann met Bob. Ann met Cy. Ann left."
FOUR_ANNS = [("Ann", "PER")] * 4
ANNS_GOLD = [(0, 3, "PER"), (13, 16, "PER"), (25, 28, "PER")]


def test_ordered_the_kth_listing_takes_the_kth_occurrence():
    # Listings 1-3 take occurrences 1-3; the 4th has no occurrence left: a
    # duplicate. All four are ambiguous (their string has 3 candidates).
    assert view(ground_mentions(ANNS, FOUR_ANNS, ground="ordered")) == [
        ([(0, 3)], "exact", "grounded", True),
        ([(13, 16)], "exact", "grounded", True),
        ([(25, 28)], "exact", "grounded", True),
        ([], None, "duplicate", True),
    ]


def test_ordered_is_the_default():
    assert view(ground_mentions(ANNS, FOUR_ANNS)) == view(ground_mentions(ANNS, FOUR_ANNS, ground="ordered"))


def test_first_every_string_takes_its_first_occurrence():
    # The first listing takes (0, 3); the three repeats are duplicates.
    assert view(ground_mentions(ANNS, FOUR_ANNS, ground="first")) == [
        ([(0, 3)], "exact", "grounded", True),
        ([], None, "duplicate", True),
        ([], None, "duplicate", True),
        ([], None, "duplicate", True),
    ]


def test_all_every_occurrence_of_a_listed_string():
    # The first listing takes all three occurrences; repeats add nothing
    # (recorded as duplicates).
    assert view(ground_mentions(ANNS, FOUR_ANNS, ground="all")) == [
        ([(0, 3), (13, 16), (25, 28)], "exact", "grounded", True),
        ([], None, "duplicate", True),
        ([], None, "duplicate", True),
        ([], None, "duplicate", True),
    ]


@pytest.mark.parametrize(
    "ground,counts,semeval",
    [
        # 3 grounded + 1 duplicate; gold (0,3) (13,16) (25,28) all found: COR 3,
        # the duplicate is a prediction that matches nothing: SPU 1.
        ("ordered", {"exact": 3, "duplicates": 1}, (3, 0, 0, 0, 1)),
        # 1 grounded (0,3): COR 1, MIS 2 (13,16) (25,28); 3 duplicates: SPU 3.
        ("first", {"exact": 1, "duplicates": 3}, (1, 0, 0, 2, 3)),
        # 1 mention grounded to all three: COR 3; the repeats add nothing.
        ("all", {"exact": 1, "duplicates": 3}, (3, 0, 0, 0, 0)),
    ],
    ids=["ordered", "first", "all"],
)
def test_duplicates_in_the_report_and_the_span_schemes(ground, counts, semeval):
    scores = evaluate_mentions([ANNS_GOLD], [FOUR_ANNS], texts=[ANNS], schemes=["strict"], ground=ground)
    expected = dict.fromkeys(("normalized", "fuzzy", "not_found", "parse_failures"), 0)
    expected.update(counts, mentions=4, ambiguous=4)
    assert scores.grounding == expected
    totals = scores.results["strict"].totals
    assert (totals.cor, totals.inc, totals.par, totals.mis, totals.spu) == semeval


def test_a_not_found_mention_is_spurious_under_every_scheme():
    # "Rome" is not in the text: not found, and one prediction matching
    # nothing: SPU under strict, FP under iou and overlap. "Ann" is found at
    # (0, 3) = the gold span: COR / TP 1.
    scores = evaluate_mentions(
        [[(0, 3, "PER")]],
        [[("Ann", "PER"), ("Rome", "LOC")]],
        texts=["Ann met Bob."],
        schemes=["strict", "iou", "overlap"],
    )
    assert scores.grounding["not_found"] == 1 and scores.grounding["exact"] == 1
    strict = scores.results["strict"].totals
    assert (strict.cor, strict.spu, strict.mis) == (1, 1, 0)
    for name in ("iou", "overlap"):
        totals = scores.results[name].totals
        assert (totals.tp, totals.fp, totals.fn) == (1, 1, 0)


# --------------------------------------------------------------------------
# Labels are not part of the grounding key
# --------------------------------------------------------------------------

# "Paris Hilton left Paris."
#  0     6      13   18   23
# "Paris" occurs at (0, 5) and (18, 23).
HILTON = "Paris Hilton left Paris."
TWO_PARIS = [("Paris", "PER"), ("Paris", "LOC")]


def test_ordered_two_labels_are_two_listings_of_one_string():
    # Paris/PER is the 1st listing of "Paris" -> (0, 5); Paris/LOC the 2nd -> (18, 23).
    grounded = ground_mentions(HILTON, TWO_PARIS, ground="ordered")
    assert [(m.label, m.spans) for m in grounded] == [("PER", [(0, 5)]), ("LOC", [(18, 23)])]


def test_first_two_labels_are_two_listings_of_one_string():
    # Paris/LOC repeats the string "Paris": a duplicate, whatever its label.
    assert view(ground_mentions(HILTON, TWO_PARIS, ground="first")) == [
        ([(0, 5)], "exact", "grounded", True),
        ([], None, "duplicate", True),
    ]


def test_all_two_labels_are_two_listings_of_one_string():
    # Under all, the first listing labels every occurrence PER; Paris/LOC
    # repeats the string and adds nothing (spacy-llm, which calls
    # find_substrings once per label, would label both occurrences twice).
    assert view(ground_mentions(HILTON, TWO_PARIS, ground="all")) == [
        ([(0, 5), (18, 23)], "exact", "grounded", True),
        ([], None, "duplicate", True),
    ]


# --------------------------------------------------------------------------
# Overlapping strings, and non-overlapping occurrences of one string
# --------------------------------------------------------------------------

# "New York is not York."
#  0   4   8  12  16  20
# "New York" at (0, 8); "York" at (4, 8) (inside "New York") and (16, 20).
YORKS = "New York is not York."


def test_overlapping_strings_are_grounded_independently():
    # Each string has its own occurrences: the first "York" is the one inside
    # "New York"; a second listing of "York" takes (16, 20).
    grounded = ground_mentions(YORKS, [("New York", "LOC"), ("York", "LOC"), ("York", "LOC")])
    assert view(grounded) == [
        ([(0, 8)], "exact", "grounded", False),
        ([(4, 8)], "exact", "grounded", True),
        ([(16, 20)], "exact", "grounded", True),
    ]


def test_overlapping_strings_under_all():
    grounded = ground_mentions(YORKS, [("New York", "LOC"), ("York", "LOC")], ground="all")
    assert spans_of(grounded) == [[(0, 8)], [(4, 8), (16, 20)]]


def test_occurrences_of_one_string_do_not_overlap():
    # "banana": "ana" at 1-4; the search goes on from 4 ("na"), so the
    # overlapping "ana" at 3-6 is not an occurrence. One candidate only: a
    # second listing is a duplicate, and neither is ambiguous.
    assert view(ground_mentions("banana", [("ana", "X"), ("ana", "X")])) == [
        ([(1, 4)], "exact", "grounded", False),
        ([], None, "duplicate", False),
    ]


# --------------------------------------------------------------------------
# Normalized: case, whitespace, NFKC
# --------------------------------------------------------------------------

# "Visit NEW YORK or new\n york."
#  0     6   10  14 17  21 23   27
# normalized: "visit new york or new york." with "new york" at normalized
# 6-14 -> original (6, 14), and at 18-26 -> original "new\n york" (18, 27).
VARIANTS = "Visit NEW YORK or new\n york."


def test_case_and_whitespace_variants_are_found_normalized():
    grounded = ground_mentions(VARIANTS, [("New York", "LOC"), ("New York", "LOC")])
    assert view(grounded) == [
        ([(6, 14)], "normalized", "grounded", True),
        ([(18, 27)], "normalized", "grounded", True),
    ]


def test_spellings_with_one_normalized_key_are_listings_of_one_string():
    # "new   YORK" and "New York" both normalize to "new york": one key, so
    # the second spelling is the 2nd listing and takes the 2nd occurrence.
    grounded = ground_mentions(VARIANTS, [("New York", "LOC"), ("new   YORK", "LOC")])
    assert spans_of(grounded) == [[(6, 14)], [(18, 27)]]


def test_an_exact_occurrence_shadows_the_normalized_ones():
    # "Paris and PARIS.": "PARIS" occurs verbatim at (10, 15), so the
    # normalized stage is not tried and "Paris" at (0, 5) is no candidate:
    # one candidate, not ambiguous. "paris" occurs nowhere verbatim: the
    # normalized stage finds both, (0, 5) and (10, 15): ambiguous.
    text = "Paris and PARIS."
    assert view(ground_mentions(text, [("PARIS", "LOC")])) == [([(10, 15)], "exact", "grounded", False)]
    assert view(ground_mentions(text, [("paris", "LOC")])) == [([(0, 5)], "normalized", "grounded", True)]
    assert spans_of(ground_mentions(text, [("paris", "LOC")], ground="all")) == [[(0, 5), (10, 15)]]


def test_whitespace_around_a_mention_is_not_part_of_its_key():
    # " Paris " is not in "Paris is old." verbatim (nothing before "Paris");
    # normalized, the key is "paris" -> (0, 5).
    assert view(ground_mentions("Paris is old.", [(" Paris ", "LOC")])) == [([(0, 5)], "normalized", "grounded", False)]


def test_full_width_letters_nfkc():
    # U+FF34 U+FF4F U+FF4B U+FF59 U+FF4F is full-width "Tokyo": NFKC maps
    # each to its ASCII letter, one character for one, so (0, 5) both ways.
    wide = "\uff34\uff4f\uff4b\uff59\uff4f"
    assert view(ground_mentions(wide + " is big", [("Tokyo", "LOC")])) == [([(0, 5)], "normalized", "grounded", False)]
    assert view(ground_mentions("Tokyo is big", [(wide, "LOC")])) == [([(0, 5)], "normalized", "grounded", False)]


def test_ligatures_nfkc():
    # "A \ufb01ne day": A0 ' '1 fi-ligature2 n3 e4 ' '5. NFKC: "a fine day";
    # "f" and "i" both come from position 2, so "fine" maps back to (2, 5):
    # three code points, the ligature included.
    assert view(ground_mentions("A \ufb01ne day", [("fine", "X")])) == [([(2, 5)], "normalized", "grounded", False)]
    # "The o\ufb03ce." (U+FB03 is "ffi"): T0 h1 e2 ' '3 o4 ffi5 c6 e7 .8, so
    # "office" is (4, 8).
    assert spans_of(ground_mentions("The o\ufb03ce.", [("Office", "X")])) == [[(4, 8)]]
    # And the other way round: the mention has the ligature, the text not.
    assert spans_of(ground_mentions("A fine day", [("\ufb01ne", "X")])) == [[(2, 6)]]


# "🎉 Zoë met Jose\u0301 in 東京."
# U+1F389 is one code point: 🎉0 ' '1 Z2 o3 ë4 ' '5 m6 e7 t8 ' '9 J10 o11 s12
# e13 U+0301 14 ' '15 i16 n17 ' '18 東19 京20 .21
EMOJI = "\U0001f389 Zo\u00eb met Jose\u0301 in \u6771\u4eac."


@pytest.mark.parametrize(
    "mention,expected",
    [
        ("\U0001f389", ([(0, 1)], "exact", "grounded", False)),
        ("Zo\u00eb", ([(2, 5)], "exact", "grounded", False)),
        # the decomposed spelling of the text, verbatim: (10, 15)
        ("Jose\u0301", ([(10, 15)], "exact", "grounded", False)),
        # precomposed é (U+00E9): not verbatim; NFKC composes e + U+0301 in
        # the text, the pair maps back to 13-15: (10, 15)
        ("Jos\u00e9", ([(10, 15)], "normalized", "grounded", False)),
        # upper case and precomposed: casefolded "josé", (10, 15)
        ("JOS\u00c9", ([(10, 15)], "normalized", "grounded", False)),
        ("\u6771\u4eac", ([(19, 21)], "exact", "grounded", False)),
    ],
    ids=["emoji", "precomposed", "decomposed", "composed-vs-decomposed", "upper-composed", "cjk"],
)
def test_emoji_and_combining_characters(mention, expected):
    assert view(ground_mentions(EMOJI, [(mention, "X")])) == [expected]


def test_a_zwj_emoji_sequence_counts_its_code_points():
    # U+1F469 U+200D U+1F469 U+200D U+1F467 is five code points: "Hi " is
    # 0-3, the family 3-8, ' ' 8, "Ann" (9, 12).
    family = "\U0001f469\u200d\U0001f469\u200d\U0001f467"
    assert spans_of(ground_mentions(f"Hi {family} Ann", [("Ann", "PER"), (family, "X")])) == [[(9, 12)], [(3, 8)]]


def test_decomposed_hangul_is_composed_nfkc():
    # The text in NFD: 서 = U+1109 U+1165, 울 = U+110B U+116E U+11AF, five
    # code points (0, 5), none of them a combining mark (combining class 0),
    # yet NFKC composes them. The mention is precomposed (NFC, 2 code points).
    text = unicodedata.normalize("NFD", "\uc11c\uc6b8") + " is Seoul"
    assert len(text) == 5 + len(" is Seoul")
    assert view(ground_mentions(text, [("\uc11c\uc6b8", "LOC")])) == [([(0, 5)], "normalized", "grounded", False)]


@pytest.mark.parametrize(
    "text",
    [
        "Visit NEW YORK or new\n york.",
        "\uff34\uff4f\uff4b\uff59\uff4f \ufb01ne o\ufb03ce",
        "\U0001f389 Zo\u00eb met Jose\u0301",
        unicodedata.normalize("NFD", "\uc11c\uc6b8 \ud55c\uad6d"),
        # U+00B4 (spacing acute) is NFKC " \u0301": a space comes out of a
        # letter, inside a word
        "caf\u00b4e",
        "a\u00a0b\u3000c\u2003d",  # no-break, ideographic and em spaces
        "Stra\u00dfe \u0130stanbul \u2126",  # ß -> ss, İ -> i + U+0307, Ohm -> ω
        "  lead and trail  ",
    ],
    ids=[
        "case-space",
        "wide-ligatures",
        "emoji-combining",
        "hangul-nfd",
        "spacing-acute",
        "spaces",
        "folding",
        "edges",
    ],
)
def test_the_offset_map_normalizes_as_normalize_does(text):
    # The text the normalized stage searches is the one `normalize` makes of
    # the whole text (up to one space at either end), and each of its
    # characters maps back to a non-empty stretch of the original, in order.
    norm, starts, ends = normalize_with_offsets(text)
    assert norm.strip(" ") == normalize(text)
    assert len(norm) == len(starts) == len(ends)
    assert all(0 <= s < e <= len(text) for s, e in zip(starts, ends))
    assert starts == sorted(starts) and ends == sorted(ends)


# --------------------------------------------------------------------------
# The very start and the very end of the text
# --------------------------------------------------------------------------


def test_strings_at_the_start_and_the_end():
    # "Rome loves Rome": R0 o1 m2 e3 ' '4 l5 ... ' '10 R11 o12 m13 e14 (15 long)
    assert spans_of(ground_mentions("Rome loves Rome", [("Rome", "LOC")], ground="all")) == [[(0, 4), (11, 15)]]
    # the whole text as one mention
    assert spans_of(ground_mentions("Rome", [("Rome", "LOC")])) == [[(0, 4)]]


def test_normalized_at_the_start_and_the_end_with_outer_whitespace():
    # "  ROME is old": the two leading spaces become one normalized space, so
    # "rome" is normalized 1-5, originally (2, 6).
    assert view(ground_mentions("  ROME is old", [("rome", "LOC")])) == [([(2, 6)], "normalized", "grounded", False)]
    # "Visit ROME  ": V0 ... ' '5 R6 O7 M8 E9 ' '10 ' '11: (6, 10), the
    # trailing spaces not included.
    assert view(ground_mentions("Visit ROME  ", [("rome", "LOC")])) == [([(6, 10)], "normalized", "grounded", False)]


# --------------------------------------------------------------------------
# Fuzzy
# --------------------------------------------------------------------------

# "I flew to London today."
#  0 2    7  10    17
# "Londan" (6 letters) against the windows of 6 characters: the best is
# "London" (10, 16), longest common subsequence "Londn" (5), so the Indel
# ratio is 2·5 / (6 + 6) = 10/12 = 83.33... %.
LONDON = "I flew to London today."


def test_fuzzy_hit_above_the_threshold():
    found = fuzz.partial_ratio_alignment("Londan", LONDON)
    assert (found.dest_start, found.dest_end) == (10, 16)
    assert found.score == pytest.approx(100 * 10 / 12)
    assert view(ground_mentions(LONDON, [("Londan", "LOC")], fuzzy=0.8)) == [([(10, 16)], "fuzzy", "grounded", False)]


def test_fuzzy_miss_below_the_threshold():
    # 83.33 % < 84 %: not found.
    assert view(ground_mentions(LONDON, [("Londan", "LOC")], fuzzy=0.84)) == [([], None, "not_found", False)]


def test_fuzzy_at_the_threshold_exactly():
    # similarity >= threshold: the score itself (rapidfuzz's, / 100) is a
    # hit; the next float above it is a miss.
    threshold = fuzz.partial_ratio_alignment("Londan", LONDON).score / 100
    assert spans_of(ground_mentions(LONDON, [("Londan", "LOC")], fuzzy=threshold)) == [[(10, 16)]]
    above = math.nextafter(threshold, 2.0)
    assert view(ground_mentions(LONDON, [("Londan", "LOC")], fuzzy=above)) == [([], None, "not_found", False)]


def test_no_fuzzy_stage_without_a_threshold():
    assert view(ground_mentions(LONDON, [("Londan", "LOC")])) == [([], None, "not_found", False)]


def test_fuzzy_comes_after_exact_and_normalized():
    # "london" is found normalized at (10, 16): the fuzzy stage is not tried.
    assert view(ground_mentions(LONDON, [("london", "LOC")], fuzzy=0.5)) == [
        ([(10, 16)], "normalized", "grounded", False)
    ]


def test_a_fuzzy_span_does_not_take_the_whitespace_at_its_edges():
    # "We went to Paris today": W0 ... ' '10 P11 a12 r13 i14 s15 ' '16 t17.
    # "Pariss" against the 6-character windows: " Paris" (10, 16) and
    # "Paris " (11, 17) both share 5 letters, 10/12 = 83.33 %; rapidfuzz picks
    # one of them; either, without its edge space, is "Paris" (11, 16).
    text = "We went to Paris today"
    found = fuzz.partial_ratio_alignment("Pariss", text)
    assert found.score == pytest.approx(100 * 10 / 12)
    assert text[found.dest_start : found.dest_end].strip() == "Paris"
    assert view(ground_mentions(text, [("Pariss", "LOC")], fuzzy=0.8)) == [([(11, 16)], "fuzzy", "grounded", False)]


def test_fuzzy_gives_at_most_one_candidate():
    # "Londan" repeated: one candidate, so the 2nd listing is a duplicate,
    # and a fuzzy mention is never ambiguous.
    text = "London, London."
    assert view(ground_mentions(text, [("Londan", "LOC"), ("Londan", "LOC")], fuzzy=0.8)) == [
        ([(0, 6)], "fuzzy", "grounded", False),
        ([], None, "duplicate", False),
    ]


def test_fuzzy_is_counted_in_the_report():
    # "Londan" fuzzy, "Tokyo" not found (its best window scores far below 0.8).
    scores = evaluate_mentions(
        [[(10, 16, "LOC")]], [[("Londan", "LOC"), ("Tokyo", "LOC")]], texts=[LONDON], schemes=["strict"], fuzzy=0.8
    )
    assert (scores.grounding["fuzzy"], scores.grounding["not_found"]) == (1, 1)
    totals = scores.results["strict"].totals
    assert (totals.cor, totals.spu) == (1, 1)


@pytest.mark.parametrize("bad", [0, 0.0, -0.1, 1.5, "0.8", True])
def test_fuzzy_threshold_must_be_in_0_1(bad):
    with pytest.raises(SettingError, match="'fuzzy' is a similarity threshold in \\(0, 1\\]"):
        ground_mentions(LONDON, [("Londan", "LOC")], fuzzy=bad)


def test_an_unknown_assignment_is_an_error_naming_the_valid_ones():
    with pytest.raises(SettingError, match="Valid: ordered, first, all"):
        ground_mentions(LONDON, [("London", "LOC")], ground="every")


# --------------------------------------------------------------------------
# Ambiguity and the report's partition
# --------------------------------------------------------------------------


def test_ambiguity_and_the_partition_of_the_mentions():
    # Text "Ann saw ann and Bob in Rome." (A0 n1 n2 ' '3 s4 a5 w6 ' '7 a8 n9
    # n10 ...):
    # - "Ann"  exact (0, 3), one verbatim candidate: not ambiguous;
    # - "ANN"  not verbatim; normalized "ann" at (0, 3) and (8, 11): ambiguous,
    #          1st listing of key "ann" -> (0, 3);
    # - "ann"  verbatim at (8, 11) only: exact, not ambiguous;
    # - "Bob"  exact, not ambiguous;
    # - "Rome" exact;
    # - "Rome" 2nd listing, one occurrence: duplicate;
    # - "Oslo" not found.
    # mentions 7 = exact 4 + normalized 1 + fuzzy 0 + not found 1 + duplicates 1; ambiguous 1.
    text = "Ann saw ann and Bob in Rome."
    mentions = [
        ("Ann", "PER"),
        ("ANN", "PER"),
        ("ann", "PER"),
        ("Bob", "PER"),
        ("Rome", "LOC"),
        ("Rome", "LOC"),
        ("Oslo", "LOC"),
    ]
    scores = evaluate_mentions([[]], [mentions], texts=[text], schemes=["strict"])
    assert scores.grounding == {
        "mentions": 7,
        "exact": 4,
        "normalized": 1,
        "fuzzy": 0,
        "not_found": 1,
        "duplicates": 1,
        "ambiguous": 1,
        "parse_failures": 0,
    }
    assert scores.documents[0]["counts"] == scores.grounding
    assert [m.ambiguous for m in scores.documents[0]["mentions"]] == [False, True, False, False, False, False, False]


def test_the_report_sums_over_documents():
    # doc 1: "Ann" x4 in ANNS, ordered: exact 3, duplicate 1, ambiguous 4.
    # doc 2: "Rome" not found in "Ann met Bob.".
    scores = evaluate_mentions(
        [ANNS_GOLD, []], [FOUR_ANNS, [("Rome", "LOC")]], texts=[ANNS, "Ann met Bob."], schemes=["strict"]
    )
    assert scores.grounding == {
        "mentions": 5,
        "exact": 3,
        "normalized": 0,
        "fuzzy": 0,
        "not_found": 1,
        "duplicates": 1,
        "ambiguous": 4,
        "parse_failures": 0,
    }


# --------------------------------------------------------------------------
# evaluate_mentions grounds checked pairs in one loop, without records
# --------------------------------------------------------------------------


def mixed_corpus(n_docs=300, seed=7):
    """Documents with every kind of mention: strings found once or several
    times, listed once or again (under one label or another), case and
    whitespace variants, misspellings (fuzzy), strings not in the text."""
    import random

    rng = random.Random(seed)
    words = ["Ann", "Bob", "Rome", "ann", "New York", "Paris", "Oslo", "Cy"]
    texts, answers = [], []
    for _ in range(n_docs):
        tokens = [rng.choice(words) for _ in range(rng.randint(0, 12))]
        text = " ".join(tokens) + rng.choice(["", ".", "  Rome", " \tann"])
        listed = []
        for _ in range(rng.randint(0, 8)):
            string = rng.choice(words + ["ANN", "new  york", "Pariss", "Lima", "ROME "])
            listed.append((string, rng.choice(["PER", "LOC"])))
        texts.append(text)
        answers.append(listed)
    return texts, answers


@pytest.mark.parametrize("ground", ["ordered", "first", "all"])
@pytest.mark.parametrize("fuzzy", [None, 0.8])
def test_the_bulk_grounding_is_ground_mentions_document_by_document(ground, fuzzy):
    # The reference is the documented path one document at a time:
    # ground_mentions' records, their counts (grounding_row) and their
    # spans in char unit (row_and_spans: a mention without a place past
    # the text); evaluate_mentions must give the same counts, the same
    # records and the same strict scores.
    from spacy_spanf1 import evaluate_spans
    from spacy_spanf1.mentions import GROUNDING_COUNTS
    from spacy_spanf1.mentions.predicted import grounding_row, row_and_spans

    texts, answers = mixed_corpus()
    gold = [[] for _ in texts]
    records = [ground_mentions(text, listed, ground=ground, fuzzy=fuzzy) for text, listed in zip(texts, answers)]
    rows = [grounding_row(grounded, False) for grounded in records]
    spans = [row_and_spans(grounded, len(text), ground != "all", False)[1] for grounded, text in zip(records, texts)]
    assert sum(row["duplicates"] for row in rows) and sum(row["ambiguous"] for row in rows)
    assert sum(row["normalized"] for row in rows) and sum(row["not_found"] for row in rows)
    if fuzzy:
        assert sum(row["fuzzy"] for row in rows)
    scores = evaluate_mentions(gold, answers, texts=texts, schemes=["strict"], ground=ground, fuzzy=fuzzy)
    assert scores.grounding == {name: sum(row[name] for row in rows) for name in GROUNDING_COUNTS}
    assert [doc["counts"] for doc in scores.documents] == rows
    assert [doc["mentions"] for doc in scores.documents] == records
    expected = evaluate_spans(gold, spans, schemes=["strict"], unit="char")["strict"]
    assert scores.results["strict"].totals == expected.totals
    # one answer read on its own (a string) leaves the others to the bulk loop: the same figures
    one_by_one = evaluate_mentions(
        gold, [repr(answers[0])] + answers[1:], texts=texts, schemes=["strict"], ground=ground, fuzzy=fuzzy
    )
    assert one_by_one.grounding == scores.grounding
    assert [doc["counts"] for doc in one_by_one.documents] == rows
    assert one_by_one.results["strict"].totals == expected.totals


def test_the_records_are_made_when_asked_for_and_keep_the_pairs_given():
    # "Ann met Ann." "Ann" at (0, 3) and (8, 11); "Bob" not found.
    texts = ["Ann met Ann.", "Bob"]
    answers = [[("Ann", "PER"), ("Bob", "PER")], [("Bob", "PER")]]
    scores = evaluate_mentions([[], []], answers, texts=texts, schemes=["strict"])
    answers[0].clear()  # the caller's lists are the caller's: the records were made of a copy
    assert len(scores.documents) == 2
    first = scores.documents[0]
    assert view(first["mentions"]) == [([(0, 3)], "exact", "grounded", True), ([], None, "not_found", False)]
    assert first["counts"]["not_found"] == 1 and first["parse_failure"] is None
    assert scores.documents[-2] is first  # made once
    assert scores.documents[1:] == [scores.documents[1]]
    assert view(scores.documents[1]["mentions"]) == [([(0, 3)], "exact", "grounded", False)]
    with pytest.raises(IndexError):
        scores.documents[2]


def test_a_pair_of_three_items_in_one_answer_leaves_the_others_grounded():
    # Answer 0 holds a triple: not a (string, label) pair, so the answer is
    # a parse failure and predicts nothing; answer 1 grounds "Ann" at (0, 3).
    # Gold: "Ann" (0, 3) in each: doc 0 MIS, doc 1 COR.
    scores = evaluate_mentions(
        [[(0, 3, "PER")], [(0, 3, "PER")]],
        [[("Ann", "PER", 0)], [("Ann", "PER")]],
        texts=["Ann met Bo.", "Ann"],
        schemes=["strict"],
    )
    assert scores.results["strict"].counts == {"cor": 1, "inc": 0, "par": 0, "mis": 1, "spu": 0}
    assert scores.grounding == {
        "mentions": 1,
        "exact": 1,
        "normalized": 0,
        "fuzzy": 0,
        "not_found": 0,
        "duplicates": 0,
        "ambiguous": 0,
        "parse_failures": 1,
    }
    assert scores.documents[0]["mentions"] == [] and scores.documents[0]["parse_failure"] is not None
