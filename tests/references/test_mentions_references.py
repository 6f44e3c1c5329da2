"""Differential tests of the mentions (SPEC.md, "Mentions without offsets")
against the references it names, each run here:

- grounding under `all` (and `first`) against spacy-llm's `find_substrings`,
  which its span tasks call once per label (`single_match=True` takes each
  string's first occurrence, as `first` does);
- the `strings` scheme against unitxt's `NER` metric (micro and per-label
  P/R/F1) on (string, label) lists with repeats;
- `strings_normalized` on hand-computed cases of UniversalNER's rule (the
  SQuAD answer normalization, then sets), and the normalization itself
  against unitxt's copy of the SQuAD one;
- the span schemes on grounded mentions against `evaluate_spans` on the
  same spans, when every mention is found exactly once.

The corpora are generated from a seed; each test says what it draws.
"""

import random
import string

import pytest
from spacy.tokens import Doc, Span
from spacy_llm.tasks.util.parsing import find_substrings
from unitxt.metrics import NER, normalize_answer

from helpers import char_offsets, error_corpus, one_of
from spacy_spanf1 import SCHEMES, evaluate_spans
from spacy_spanf1.mentions import evaluate_mentions, ground_mentions, squad_normalize

LABELS = ["PER", "LOC", "ORG"]


# --------------------------------------------------------------------------
# Grounding under `all` vs spacy-llm's find_substrings
# --------------------------------------------------------------------------

# No two words equal up to case; "Ann" is inside "Anna" and "Annex", "York"
# inside "New York", "an" inside "and" and "Hilton": substrings of words and
# overlapping strings are frequent.
WORDS = [
    "Ann",
    "Anna",
    "Annex",
    "Lee",
    "New",
    "York",
    "Paris",
    "Hilton",
    "met",
    "in",
    "and",
    "the",
    "of",
    "Bank",
    "river",
    "an",
    "Lea",
]
ABSENT = ["Oslo", "Rome", "Ann York", "Paris Lee Lee", "Yorkshire"]


def _words_text(rng, words, n):
    return " ".join(rng.choice(words) for _ in range(n))


def _ngrams_of(rng, text, k):
    """k strings of the text: word n-grams (1-3 words) and pieces of words."""
    tokens = text.split(" ")
    found = []
    for _ in range(k):
        if rng.random() < 0.2:
            word = rng.choice(tokens)
            a = rng.randrange(len(word))
            found.append(word[a : rng.randint(a + 1, len(word))])
        else:
            a = rng.randrange(len(tokens))
            found.append(" ".join(tokens[a : a + rng.randint(1, 3)]))
    return found


def _verbatim_corpus(seed, n_docs=300):
    """(text, mentions): mentions are strings of the text (verbatim) or
    strings found in it under no method, with repeats; a string always has
    the same label (spacy-llm's calls are one per label)."""
    rng = random.Random(seed)
    corpus = []
    for _ in range(n_docs):
        text = _words_text(rng, WORDS, rng.randint(3, 25))
        strings = _ngrams_of(rng, text, rng.randint(0, 8)) + rng.sample(ABSENT, rng.randint(0, 2))
        strings += [rng.choice(strings) for _ in range(rng.randint(0, 3))] if strings else []
        rng.shuffle(strings)
        label_of = {s: rng.choice(LABELS) for s in strings}
        corpus.append((text, [(s, label_of[s]) for s in strings]))
    return corpus


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_all_is_find_substrings_case_sensitive(seed):
    compared = 0
    for text, mentions in _verbatim_corpus(seed):
        grounded = ground_mentions(text, mentions, ground="all")
        ours = [span for m in grounded for span in m.spans]
        strings = [s for s, _ in mentions]
        # every occurrence of every listed string, strings in order of first listing
        assert ours == find_substrings(text, strings, case_sensitive=True)
        # label by label, as spacy-llm's span parser calls it
        for label in LABELS:
            theirs = find_substrings(text, [s for s, lab in mentions if lab == label], case_sensitive=True)
            assert sorted(span for m in grounded if m.label == label for span in m.spans) == sorted(theirs)
        compared += len(ours)
    assert compared > 1000  # the corpus finds plenty


@pytest.mark.parametrize("seed", [0, 1])
def test_first_is_find_substrings_single_match(seed):
    for text, mentions in _verbatim_corpus(seed):
        ours = [span for m in ground_mentions(text, mentions, ground="first") for span in m.spans]
        assert ours == find_substrings(text, [s for s, _ in mentions], case_sensitive=True, single_match=True)


def _recased(rng, s):
    return rng.choice([s, s.lower(), s.upper(), s.title(), s.swapcase()])


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_all_is_find_substrings_case_insensitive_where_exact_finds_nothing(seed):
    # Texts and mentions in random casings (ASCII, single spaces). Ours is
    # case-insensitive only where the string does not occur verbatim; there
    # it must give what find_substrings(case_sensitive=False) gives. Where it
    # occurs verbatim, ours is the case-sensitive search.
    rng = random.Random(seed)
    insensitive = sensitive = 0
    for _ in range(300):
        text = " ".join(_recased(rng, rng.choice(WORDS)) for _ in range(rng.randint(3, 25)))
        strings = [_recased(rng, s) for s in _ngrams_of(rng, text, rng.randint(1, 8))]
        for s in strings:
            (grounded,) = ground_mentions(text, [(s, "X")], ground="all")
            verbatim = s in text
            assert grounded.spans == find_substrings(text, [s], case_sensitive=verbatim)
            assert grounded.method == ("exact" if verbatim else "normalized")
            insensitive += not verbatim
            sensitive += verbatim
    assert insensitive > 300 and sensitive > 300  # both paths are compared, often


@pytest.mark.parametrize(
    "text,string,ours,theirs",
    [
        # A verbatim occurrence shadows the other casings: ours takes (0, 5)
        # only; spacy-llm lowercases both sides and takes both.
        ("Paris and PARIS.", "Paris", [(0, 5)], [(0, 5), (10, 15)]),
        # Runs of whitespace: ours collapses them ("New  York" is 0-9).
        ("New  York", "new york", [(0, 9)], []),
        # NFKC: the ligature U+FB01 is "fi" (A0 ' '1 fi2 n3 e4).
        ("A \ufb01ne day", "fine", [(2, 5)], []),
        # str.lower() makes two characters of "İ" (U+0130): spacy-llm's
        # offsets, taken in the lowercased text, are one too far (and end
        # past the text); ours map back: "Paris" is 13-18.
        ("\u0130stanbul and Paris", "paris", [(13, 18)], [(14, 19)]),
    ],
    ids=["verbatim-shadows", "whitespace", "nfkc", "lower-changes-length"],
)
def test_where_case_insensitive_grounding_differs_from_find_substrings(text, string, ours, theirs):
    assert ground_mentions(text, [(string, "X")], ground="all")[0].spans == ours
    assert find_substrings(text, [string], case_sensitive=False) == theirs


# --------------------------------------------------------------------------
# `strings` vs unitxt's NER metric
# --------------------------------------------------------------------------


def unitxt_ner(gold_docs, pred_docs):
    """unitxt's NER metric on per-document lists of (string, label) tuples:
    one reference per prediction, no task data."""
    return NER().compute(
        references=[[list(gold)] for gold in gold_docs],
        predictions=[list(pred) for pred in pred_docs],
        task_data=[{} for _ in gold_docs],
    )


# Short strings from a small pool, so that repeats (in gold, in predictions
# and across them) are frequent.
POOL = ["Ann", "Bob", "Paris", "New York", "IBM", "Lee", "Acme"]


def _strings_corpus(seed, n_docs=200):
    """(texts, gold spans, gold (string, label) lists, predicted lists)."""
    rng = random.Random(seed)
    texts, gold_spans, gold_strings, predicted = [], [], [], []
    for _ in range(n_docs):
        words = [rng.choice(POOL) for _ in range(rng.randint(0, 8))]
        labels = [rng.choice(LABELS) for _ in words]
        offsets = char_offsets(words)
        keep = [k for k in range(len(words)) if rng.random() < 0.8]
        spans = [(offsets[k][0], offsets[k][1], labels[k]) for k in keep]
        pairs = [(words[k], labels[k]) for k in keep]
        pred = []
        for s, label in pairs:  # kept, relabelled, listed twice or missed
            pred += one_of(rng, (55, [(s, label)]), (15, [(s, rng.choice(LABELS))]), (10, [(s, label)] * 2), (20, []))
        pred += [(rng.choice(POOL + ["Oslo"]), rng.choice(LABELS + ["MISC"])) for _ in range(rng.choice([0, 0, 1, 2]))]
        rng.shuffle(pred)
        texts.append(" ".join(words))
        gold_spans.append(spans)
        gold_strings.append(pairs)
        predicted.append(pred)
    return texts, gold_spans, gold_strings, predicted


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_strings_is_unitxt_ner(seed):
    texts, gold_spans, gold_strings, predicted = _strings_corpus(seed)
    ours = evaluate_mentions(gold_spans, predicted, texts=texts, schemes=["strings"]).results["strings"]
    theirs = unitxt_ner(gold_strings, predicted)
    # P and R are the same two divisions; F1 differs in the order of its
    # operations (ours is spaCy's 2·(P·R/(P+R)), unitxt's 2·P·R/(P+R)), so it
    # may differ in the last bit.
    assert ours.precision == theirs["precision_micro"]
    assert ours.recall == theirs["recall_micro"]
    assert ours.f1 == pytest.approx(theirs["f1_micro"], rel=1e-12, abs=1e-15)
    gold_labels = {label for doc in gold_strings for _, label in doc}
    assert {key[3:] for key in theirs if key.startswith("f1_") and key not in ("f1_micro", "f1_macro")} == gold_labels
    # unitxt reports F1 by label (its per-label P and R feed its macro averages only)
    for label in gold_labels:
        assert ours.per_label[label].f1 == pytest.approx(theirs[f"f1_{label}"], rel=1e-12, abs=1e-15)
    # unitxt reports a label only when the gold has it; a label that only
    # predictions have (MISC here) counts in the micro figures and is F1 0 in ours
    for label in set(ours.per_label) - gold_labels:
        assert ours.per_label[label].tp == 0 and ours.per_label[label].f1 == 0.0


def test_repeats_are_a_multiset_in_both():
    # "Paris Paris" with both gold LOC; predicted "Paris"/LOC three times:
    # TP = min(2, 3) = 2, P = 2/3, R = 2/2 (a set would give TP 1, P = R = 1).
    gold, pred = [[("Paris", "LOC"), ("Paris", "LOC")]], [[("Paris", "LOC")] * 3]
    theirs = unitxt_ner(gold, pred)
    assert (theirs["precision_micro"], theirs["recall_micro"]) == (2 / 3, 1.0)
    ours = evaluate_mentions([[(0, 5, "LOC"), (6, 11, "LOC")]], pred, texts=["Paris Paris"], schemes=["strings"])
    totals = ours.results["strings"].totals
    assert (totals.tp, totals.fp, totals.fn) == (2, 1, 0)
    assert (ours.results["strings"].precision, ours.results["strings"].recall) == (2 / 3, 1.0)


def test_strings_needs_no_grounding():
    # strings compares strings, whether or not they are in the text: gold
    # "Ann"/PER (0, 3); predicted "Ann"/PER (matches) and "Oslo"/LOC (in no
    # text, one FP): TP 1, FP 1, FN 0, as unitxt counts it.
    scores = evaluate_mentions(
        [[(0, 3, "PER")]], [[("Ann", "PER"), ("Oslo", "LOC")]], texts=["Ann met Bob."], schemes=["strings"]
    )
    totals = scores.results["strings"].totals
    assert (totals.tp, totals.fp, totals.fn) == (1, 1, 0)
    theirs = unitxt_ner([[("Ann", "PER")]], [[("Ann", "PER"), ("Oslo", "LOC")]])
    assert theirs["precision_micro"] == 0.5 and theirs["recall_micro"] == 1.0


# --------------------------------------------------------------------------
# `strings_normalized`: UniversalNER's rule, by hand
# --------------------------------------------------------------------------

# doc 1: "The Beatles played in the U.S. and in Paris, Paris."
#         T0 ... s10 ' '11 ... U26 .27 S28 .29 ... P38-s42 ,43 ' '44 P45-s49 .50
# doc 2: "An apple a day."   "An apple" is 0-8
# doc 3: "Theater by Ann–Lee" (U+2013, not in string.punctuation):
#         "Theater" 0-7, "Ann–Lee" 11-18
NORMALIZED_TEXTS = ["The Beatles played in the U.S. and in Paris, Paris.", "An apple a day.", "Theater by Ann\u2013Lee"]
NORMALIZED_GOLD = [
    [(0, 11, "ORG"), (26, 30, "LOC"), (38, 43, "LOC"), (45, 50, "LOC")],
    [(0, 8, "FOOD")],
    [(0, 7, "ORG"), (11, 18, "PER")],
]
NORMALIZED_PRED = [
    [("beatles", "ORG"), ("US", "LOC"), ("paris", "LOC"), ("PARIS", "LOC"), ("Beatles", "PER")],
    [("apple", "FOOD"), ("the apple!", "FOOD")],
    [("theater", "ORG"), ("Ann-Lee", "PER")],
]


def test_strings_normalized_by_hand():
    # doc 1 gold, normalized: "the beatles" -> "beatles", "u.s." -> "us",
    #   "paris" twice -> one: {beatles/ORG, us/LOC, paris/LOC} (3)
    #   pred: {beatles/ORG, us/LOC, paris/LOC, beatles/PER} (4); TP 3
    # doc 2 gold {apple/FOOD}; pred "apple", "the apple!" -> "apple": {apple/FOOD}; TP 1
    # doc 3 gold {theater/ORG, ann–lee/PER} ("theater" keeps its "the": articles
    #   are whole words; the en dash stays); pred {theater/ORG, annlee/PER}; TP 1
    # TP 5, predicted 4 + 1 + 2 = 7, gold 3 + 1 + 2 = 6: P = 5/7, R = 5/6.
    # By label: ORG tp 2 (doc 1, doc 3), LOC tp 2, FOOD tp 1, PER tp 0 with
    # 2 predicted (Beatles, annlee) and 1 gold (ann–lee).
    result = evaluate_mentions(
        NORMALIZED_GOLD, NORMALIZED_PRED, texts=NORMALIZED_TEXTS, schemes=["strings_normalized"]
    ).results["strings_normalized"]
    assert (result.totals.tp, result.totals.fp, result.totals.fn) == (5, 2, 1)
    assert (result.precision, result.recall) == (5 / 7, 5 / 6)
    assert {label: (c.tp, c.fp, c.fn) for label, c in result.per_label.items()} == {
        "FOOD": (1, 0, 0),
        "LOC": (2, 0, 0),
        "ORG": (2, 0, 0),
        "PER": (0, 2, 1),
    }


def test_strings_is_strict_on_the_same_cases():
    # Unnormalized, doc 1 matches nothing ("The Beatles" vs "beatles", ...),
    # doc 2 nothing ("An apple" vs "apple"), doc 3 nothing ("Theater" vs
    # "theater"): TP 0 of 5 + 2 + 2 = 9 predicted (repeats count) and 7 gold.
    result = evaluate_mentions(NORMALIZED_GOLD, NORMALIZED_PRED, texts=NORMALIZED_TEXTS, schemes=["strings"]).results[
        "strings"
    ]
    assert (result.totals.tp, result.totals.fp, result.totals.fn) == (0, 9, 7)


@pytest.mark.parametrize(
    "raw,normalized",
    [
        ("The Beatles", "beatles"),
        ("U.S.", "us"),
        ("  New \n York  ", "new york"),
        ("An apple a day", "apple day"),
        ("Theater", "theater"),
        ("the", ""),
        ("Ann\u2013Lee", "ann\u2013lee"),
        ("O'Neil & Sons, Inc.", "oneil sons inc"),
    ],
)
def test_the_squad_normalization_by_hand(raw, normalized):
    assert squad_normalize(raw) == normalized


def test_the_squad_normalization_is_unitxts():
    # unitxt ships the SQuAD script's normalize_answer: same on random strings
    # of letters, articles, punctuation and whitespace
    rng = random.Random(5)
    pieces = [
        "The",
        "the",
        "a",
        "A",
        "an",
        "An",
        "apple",
        "Theater",
        "U.S.",
        "x",
        "'",
        "-",
        ",",
        "!",
        " ",
        "  ",
        "\n",
        "\t",
        "\u2013",
        "\u00e9",
        "\u0130",
    ] + list(string.punctuation)
    for _ in range(2000):
        raw = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert squad_normalize(raw) == normalize_answer(raw)


# --------------------------------------------------------------------------
# Span schemes on grounded mentions vs evaluate_spans on the same spans
# --------------------------------------------------------------------------


def _found_once_corpus(seed, n_docs=150):
    """(words per doc, gold token spans, predicted token spans): helpers'
    error corpus over documents of distinct five-letter words, so that every
    span's text occurs exactly once in its document's text; predictions that
    repeat another's text (same span, another label) are dropped, so that
    no mention is a duplicate."""
    rng = random.Random(seed)
    gold_docs, pred_docs = error_corpus(seed, n_docs, labels="ABC")
    vocab = sorted({"".join(rng.choice(string.ascii_lowercase) for _ in range(5)) for _ in range(400)})
    corpus = []
    for gold, pred in zip(gold_docs, pred_docs):
        n = max([e for _, e, _ in gold + pred] + [1]) + rng.randint(0, 2)
        words = rng.sample(vocab, n)
        seen, kept = set(), []
        for s, e, label in pred:
            if (s, e) not in seen:
                seen.add((s, e))
                kept.append((s, e, label))
        corpus.append((words, gold, kept))
    return corpus


def _char_spans(words, spans):
    offsets = char_offsets(words)
    return [(offsets[s][0], offsets[e - 1][1], label) for s, e, label in spans]


@pytest.mark.parametrize("ground", ["ordered", "first", "all"])
def test_span_schemes_on_mentions_found_once_are_evaluate_spans_char(ground):
    corpus = _found_once_corpus(3)
    texts = [" ".join(words) for words, _, _ in corpus]
    gold = [_char_spans(words, g) for words, g, _ in corpus]
    pred = [_char_spans(words, p) for words, _, p in corpus]
    mentions = [[(text[s:e], label) for s, e, label in spans] for text, spans in zip(texts, pred)]
    for text, doc_mentions in zip(texts, mentions):
        assert all(text.count(s) == 1 for s, _ in doc_mentions)
    scores = evaluate_mentions(gold, mentions, texts=texts, schemes=list(SCHEMES), ground=ground)
    assert scores.grounding["exact"] == scores.grounding["mentions"] == sum(map(len, pred)) > 200
    assert scores.grounding["ambiguous"] == scores.grounding["duplicates"] == 0
    expected = evaluate_spans(gold, pred, schemes=list(SCHEMES), unit="char")
    for name in SCHEMES:
        assert scores.results[name] == expected[name], name


def test_span_schemes_on_mentions_found_once_are_evaluate_spans_token(vocab):
    # The same in token unit: gold Docs (their entities), the grounded
    # characters expanded to the Docs' tokens.
    corpus = _found_once_corpus(4)
    docs, mentions = [], []
    for words, gold, pred in corpus:
        doc = Doc(vocab, words=words, spaces=[True] * (len(words) - 1) + [False])
        doc.ents = [Span(doc, s, e, label=label) for s, e, label in sorted(gold)]
        docs.append(doc)
        mentions.append([(doc[s:e].text, label) for s, e, label in pred])
    scores = evaluate_mentions(docs, mentions, texts=[doc.text for doc in docs], schemes=list(SCHEMES), unit="token")
    assert scores.grounding["exact"] == scores.grounding["mentions"] > 200
    expected = evaluate_spans([g for _, g, _ in corpus], [p for _, _, p in corpus], schemes=list(SCHEMES), unit="token")
    for name in SCHEMES:
        assert scores.results[name] == expected[name], name
