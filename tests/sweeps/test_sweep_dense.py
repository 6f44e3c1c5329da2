"""Dense distinct scores (every prediction a threshold of its own, ties
broken by one ulp), spancat-like predictions (every suggested span with
every label), and the sweep's fallbacks (iou on clusters, keys by rank)
giving the same figures as its fast paths."""

import warnings

import numpy
import pytest

from spacy_spanf1.settings import SCHEMES
from spacy_spanf1.sweeps import iou as iou_module
from spacy_spanf1.sweeps import keys as keys_module
from spacy_spanf1.sweeps import sweep

from sweeps.test_sweep_curves import check_curves

LABELS = ("A", "B", "C")


def one_ulp_apart(rng, n):
    """n distinct scores in [0, 1], most of them one or a few ulps from
    another: each of a few round values, nudged up k ulps for its k-th use."""
    out, used = [], {}
    for _ in range(n):
        base = float(rng.choice([0.0, 0.25, 0.5, 0.75, 0.9]))
        k = used.get(base, 0)
        used[base] = k + 1
        score = base
        for _ in range(k):
            score = float(numpy.nextafter(score, 2.0))
        out.append(score)
    return out


def flat_corpus(rng, n_docs):
    """Neither side overlaps itself: gold spans 3 apart, predictions on them
    (exact, shifted by one, another label, two halves) and a spurious one."""
    gold, pred = [], []
    for _ in range(n_docs):
        starts = numpy.sort(rng.choice(6, size=3, replace=False)) * 3
        g = [(int(s), int(s) + 2, LABELS[int(rng.integers(2))]) for s in starts]
        p = []
        for s, e, label in g:
            kind = int(rng.integers(5))
            if kind == 0:
                p.append((s, e, label))
            elif kind == 1:
                p.append((s, e + 1, label))
            elif kind == 2:
                p.append((s, e, LABELS[int(rng.integers(3))]))
            elif kind == 3:
                p += [(s, s + 1, label), (s + 1, e, label)]
        p.append((20, 21, LABELS[int(rng.integers(3))]))
        gold.append(g)
        pred.append(p)
    return gold, pred


def with_scores(pred, scores):
    it = iter(scores)
    return [[span + (next(it),) for span in doc] for doc in pred]


def test_dense_distinct_scores_one_ulp_apart_flat():
    rng = numpy.random.default_rng(3)
    gold, pred = flat_corpus(rng, 30)
    scores = one_ulp_apart(rng, sum(map(len, pred)))
    assert len(set(scores)) == len(scores)
    assert sum(numpy.nextafter(a, 2.0) == b for a, b in zip(sorted(scores), sorted(scores)[1:])) > len(scores) // 2
    result = check_curves(gold, with_scores(pred, scores))
    for scheme in SCHEMES:  # every score a threshold: one ulp apart still two thresholds
        assert result[scheme].thresholds.tolist() == sorted(scores)


def test_dense_distinct_scores_one_ulp_apart_nested():
    """The same, with nested predictions and nested gold spans."""
    rng = numpy.random.default_rng(4)
    gold, pred = flat_corpus(rng, 25)
    gold = [doc + [(doc[0][0], doc[0][1] + 1, "A")] for doc in gold]
    pred = [doc + [(doc[0][0], doc[0][1] + 2, "A")] for doc in pred]
    scores = one_ulp_apart(rng, sum(map(len, pred)))
    check_curves(gold, with_scores(pred, scores))


def spancat_like(rng, n_docs, n_tokens=7, longest=3):
    """Every n-gram of each doc with every label, each with its own score."""
    gold, pred = [], []
    for _ in range(n_docs):
        starts = sorted(rng.choice(n_tokens - 1, size=2, replace=False).tolist())
        gold.append([(s, s + int(rng.integers(1, 3)), LABELS[int(rng.integers(2))]) for s in starts])
        pred.append(
            [
                (s, s + n, label, float(rng.random()))
                for s in range(n_tokens)
                for n in range(1, longest + 1)
                if s + n <= n_tokens
                for label in LABELS
            ]
        )
    return gold, pred


def test_spancat_like_predictions_on_spacys_grid():
    rng = numpy.random.default_rng(5)
    gold, pred = spancat_like(rng, 6)
    check_curves(gold, pred, grid={"grid": "spacy"})


def test_spancat_like_predictions_at_every_score_under_iou():
    rng = numpy.random.default_rng(6)
    gold, pred = spancat_like(rng, 3, n_tokens=5)
    check_curves(gold, pred, schemes=["iou"])
    check_curves(gold, pred, schemes=["iou"], iou_threshold=0.3)


def swept(gold, pred, **settings):
    """sweep, with the warning of a label never gold ("C" here) caught."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        return sweep(gold, pred, schemes=SCHEMES, **settings)


def figures(result):
    out = {}
    for scheme in SCHEMES:
        curve = result[scheme]
        out[scheme] = (
            curve.thresholds.tolist(),
            curve.precision.tolist(),
            curve.recall.tolist(),
            curve.f1.tolist(),
            curve.ap,
            curve.best,
            curve.calibration,
            {label: (c.precision.tolist(), c.recall.tolist(), c.f1.tolist()) for label, c in curve.per_label.items()},
            curve.per_label_best,
        )
    return out


@pytest.mark.parametrize("grid", [{}, {"grid": "spacy"}])
def test_iou_on_clusters_gives_the_figures_of_iou_on_arrays(monkeypatch, grid):
    """When iou's groups would expand to too many positions they are scored
    on clusters by the engine: the same figures, bit for bit."""
    rng = numpy.random.default_rng(8)
    gold, pred = spancat_like(rng, 8)
    fast = figures(swept(gold, pred, **grid))
    monkeypatch.setattr(iou_module, "POSITIONS", 0)
    monkeypatch.setattr(iou_module, "POSITIONS_PER_PAIR", 0)
    assert figures(swept(gold, pred, **grid)) == fast


def test_keys_by_rank_give_the_figures_of_packed_keys(monkeypatch):
    """Offsets too large to pack (or any, with the limit at 0) are keyed by
    rank: the same figures; offsets shifted by 2**40 score as the originals."""
    rng = numpy.random.default_rng(9)
    gold, pred = flat_corpus(rng, 20)
    pred = with_scores(pred, one_ulp_apart(rng, sum(map(len, pred))))
    gold += [[(0, 2, "A"), (0, 3, "B")]]
    pred += [[(0, 3, "A", 0.5), (1, 2, "B", 0.25), (0, 1, "B", 0.75)]]
    packed = figures(swept(gold, pred))
    far = 2**40
    shifted = swept(
        [[(s + far, e + far, label) for s, e, label in doc] for doc in gold],
        [[(s + far, e + far, label, score) for s, e, label, score in doc] for doc in pred],
    )
    assert figures(shifted) == packed
    monkeypatch.setattr(keys_module, "_LIMIT", 0)
    assert figures(swept(gold, pred)) == packed
