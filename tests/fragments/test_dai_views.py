"""Under `strict`, the three views equal Dai et al.'s evaluation (a
transcription in transcriptions/dai2020.py) on generated files of their
inline format."""

import random

import pytest

from helpers import one_of
from spacy_spanf1 import evaluate_spans
from transcriptions.dai2020 import (
    compute_on_corpus,
    compute_on_disc_mentions,
    compute_on_sentences_with_disc,
    inline_fragments,
    read_inline,
    write_inline,
)

LABELS = ("ADR", "Drug")


def _mention(pieces, label):
    """A mention string of inclusive fragments, written as the script
    writes one (sorted, touching fragments joined)."""
    return ",".join(f"{a},{b}" for a, b in pieces) + " " + label


def _random_mention(rng, n_tokens):
    k = rng.choice((1, 1, 2, 2, 3))
    points = sorted(rng.sample(range(n_tokens), 2 * k))
    pieces = [(points[i], points[i + 1]) for i in range(0, 2 * k, 2)]
    joined = [pieces[0]]
    for a, b in pieces[1:]:  # fragments that touch are one
        if a <= joined[-1][1] + 1:
            joined[-1] = (joined[-1][0], b)
        else:
            joined.append((a, b))
    return joined, rng.choice(LABELS)


def _predicted(rng, gold, n_tokens):
    """A system's mentions: gold kept, dropped, relabelled, merged into
    their outer bounds, a fragment moved; spurious mentions added."""
    out = []
    for pieces, label in gold:
        (first, _), (a, b) = pieces[0], pieces[-1]
        grown = pieces[:-1] + [(a, b + 1)] if b + 1 < n_tokens else None  # the last fragment ends a token later
        out += one_of(
            rng,
            (45, [(pieces, label)]),
            (10, [(pieces, "Drug" if label == "ADR" else "ADR")]),
            (15, [([(first, b)], label)]),
            (20, [(grown, label)] if grown else []),
            (10, []),
        )
    for _ in range(rng.randint(0, 1)):
        out.append(_random_mention(rng, n_tokens))
    return out


def _corpus(seed, n_sentences=400):
    rng = random.Random(seed)
    sentences, gold_lines, pred_lines = [], [], []
    for _ in range(n_sentences):
        n_tokens = rng.randint(8, 20)
        sentences.append(" ".join(f"w{k}" for k in range(n_tokens)))
        gold = [_random_mention(rng, n_tokens) for _ in range(rng.randint(0, 3))]
        pred = _predicted(rng, gold, n_tokens)
        # a mention once per sentence (the package counts identical spans once)
        gold_lines.append(list(dict.fromkeys(_mention(p, lab) for p, lab in gold)))
        pred_lines.append(list(dict.fromkeys(_mention(p, lab) for p, lab in pred)))
    return write_inline(sentences, gold_lines), write_inline(sentences, pred_lines)


def _spans(mentions):
    spans = []
    for mention in mentions:
        fragments, label = inline_fragments(mention)
        spans.append({"fragments": fragments, "label": label})
    return spans


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_strict_views_equal_dai_et_al(seed):
    gold_text, pred_text = _corpus(seed)
    _, gold_corpus = read_inline(gold_text)
    _, pred_corpus = read_inline(pred_text)
    gold = [_spans(s) for s in gold_corpus]
    pred = [_spans(s) for s in pred_corpus]
    expected = {
        "all": compute_on_corpus(gold_corpus, pred_corpus),
        "disc_docs": compute_on_sentences_with_disc(gold_corpus, pred_corpus),
        "disc_mentions": compute_on_disc_mentions(gold_corpus, pred_corpus),
    }
    prefixes = {"all": "micro-", "disc_docs": "sentences_with_disc-micro-", "disc_mentions": "disc-mention-micro-"}
    found_disc = 0
    for view, metrics in expected.items():
        result = evaluate_spans(gold, pred, schemes=["strict"], view=view)["strict"]
        prefix = prefixes[view]
        assert result.precision == pytest.approx(metrics[prefix + "precision"], abs=1e-12), view
        assert result.recall == pytest.approx(metrics[prefix + "recall"], abs=1e-12), view
        assert result.f1 == pytest.approx(metrics[prefix + "f1"], abs=1e-12), view
        found_disc += view != "all" and 0 < metrics[prefix + "f1"] < 1
    assert found_disc == 2  # the views are not trivial on these files
    # the views differ from one another on these files
    assert len({expected[v][prefixes[v] + "f1"] for v in expected}) == 3


def test_the_macro_average_of_the_corpus_view():
    gold_text, pred_text = _corpus(4)
    _, gold_corpus = read_inline(gold_text)
    _, pred_corpus = read_inline(pred_text)
    result = evaluate_spans([_spans(s) for s in gold_corpus], [_spans(s) for s in pred_corpus], schemes=["strict"])
    assert result["strict"].macro_f1 == pytest.approx(compute_on_corpus(gold_corpus, pred_corpus)["macro-f1"])
