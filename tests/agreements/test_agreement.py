"""Agreement figures against their references, run here on generated
annotations (missing documents, nested and crossing spans, spans listed
twice): Cohen's kappa = scikit-learn's, Fleiss' kappa = statsmodels', alpha
= the krippendorff package's; pairwise F = evaluate_spans of the pair."""

import json
from itertools import permutations

import numpy
import pytest
from helpers import position_labels, random_annotations

from spacy_spanf1 import SCHEMES, evaluate_spans
from spacy_spanf1 import agreement
from spacy_spanf1.stats import bootstrap_ci

O_TOKENS = ("include", "exclude")


def reference_rows(annotations, lengths, o_tokens):
    """(annotators x positions) labels of every document, None where an
    annotator did not do it, without the positions every annotator who did
    them left O when o_tokens is "exclude"."""
    names = list(annotations)
    columns = []
    for doc, n in enumerate(lengths):
        per = [None if annotations[a][doc] is None else position_labels(annotations[a][doc], n) for a in names]
        for i in range(n):
            column = [None if labels is None else labels[i] for labels in per]
            given = [value for value in column if value is not None]
            if not given or (o_tokens == "exclude" and all(value == "O" for value in given)):
                continue
            columns.append(column)
    return columns


@pytest.mark.parametrize("o_tokens", O_TOKENS)
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_cohen_kappa_is_scikit_learns(o_tokens, seed):
    from sklearn.metrics import cohen_kappa_score

    annotations, lengths = random_annotations(2, 60, seed=seed)
    result = agreement(annotations, schemes=["strict"], lengths=lengths, o_tokens=o_tokens)
    columns = [c for c in reference_rows(annotations, lengths, o_tokens) if None not in c]
    a, b = zip(*columns)
    assert result.cohen_kappa == pytest.approx(cohen_kappa_score(a, b), abs=1e-12)
    assert result.tokens.o_tokens == o_tokens


@pytest.mark.parametrize("o_tokens", O_TOKENS)
@pytest.mark.parametrize("n_annotators", [3, 4])
def test_fleiss_kappa_is_statsmodels(o_tokens, n_annotators):
    from statsmodels.stats.inter_rater import aggregate_raters, fleiss_kappa

    annotations, lengths = random_annotations(n_annotators, 80, seed=n_annotators)
    result = agreement(annotations, schemes=["strict"], lengths=lengths, o_tokens=o_tokens)
    columns = [c for c in reference_rows(annotations, lengths, o_tokens) if None not in c]
    assert result.tokens.fleiss_positions == len(columns) > 0
    table, _ = aggregate_raters(numpy.array(columns, dtype=object))
    assert result.fleiss_kappa == pytest.approx(fleiss_kappa(table, method="fleiss"), abs=1e-12)
    assert result.cohen_kappa is None


@pytest.mark.parametrize("o_tokens", O_TOKENS)
@pytest.mark.parametrize("n_annotators", [2, 3, 5])
def test_alpha_is_krippendorffs_with_missing_documents(o_tokens, n_annotators):
    import krippendorff

    annotations, lengths = random_annotations(n_annotators, 60, seed=10 + n_annotators, missing=0.4)
    # every document has two annotators or more: with two, none is missing
    assert any(entry is None for docs in annotations.values() for entry in docs) == (n_annotators > 2)
    result = agreement(annotations, schemes=["strict"], lengths=lengths, o_tokens=o_tokens)
    columns = reference_rows(annotations, lengths, o_tokens)
    codes = {label: i for i, label in enumerate(sorted({v for c in columns for v in c if v is not None}))}
    data = numpy.array([[numpy.nan if v is None else codes[v] for v in c] for c in columns], dtype=float).T
    expected = krippendorff.alpha(reliability_data=data, level_of_measurement="nominal")
    assert result.alpha == pytest.approx(expected, abs=1e-12)


def test_excluding_o_changes_the_figures():
    annotations, lengths = random_annotations(3, 40, seed=4)
    include = agreement(annotations, schemes=["strict"], lengths=lengths)
    exclude = agreement(annotations, schemes=["strict"], lengths=lengths, o_tokens="exclude")
    assert exclude.tokens.positions < include.tokens.positions
    assert exclude.alpha != pytest.approx(include.alpha)
    assert include.signature["agreement"]["o_tokens"] == "include"
    assert exclude.signature["agreement"]["o_tokens"] == "exclude"


def test_o_tokens_exclude_needs_no_lengths_include_does():
    annotations, lengths = random_annotations(3, 30, seed=5)
    with_lengths = agreement(annotations, schemes=["strict"], lengths=lengths, o_tokens="exclude")
    without = agreement(annotations, schemes=["strict"], o_tokens="exclude")
    assert without.alpha == with_lengths.alpha and without.fleiss_kappa == with_lengths.fleiss_kappa
    assert agreement(annotations, schemes=["strict"]).tokens is None


@pytest.mark.parametrize(
    "spans,expected",
    [
        ([(0, 5, "A"), (1, 3, "B")], "AAAAA"),  # nested: the longest covering span
        ([(1, 3, "B"), (1, 5, "A")], "OAAAA"),  # nested, same start: the longest
        ([(0, 3, "A"), (2, 5, "B")], "AAABB"),  # crossing: the one that starts first
        ([(1, 4, "B"), (1, 4, "A")], "OAAAO"),  # same offsets: the first label
        ([(3, 4, "B"), (0, 2, "A")], "AAOBO"),
    ],
    ids=["nested", "nested_same_start", "crossing", "tie", "apart"],
)
def test_positions_take_the_label_of_the_first_then_longest_span(spans, expected):
    # two annotators, the second leaving everything O: Cohen's kappa is 0
    # unless the labelling is wrong; read the labels back from the counts
    from spacy_spanf1.agreements.annotations import read_annotations
    from spacy_spanf1.agreements.tokens import label_positions

    read = read_annotations({"a": [spans], "b": [[]]}, "token")
    positions = label_positions(read, numpy.array([5]))
    names = ("O",) + read.labels
    assert "".join(names[c] for c in positions.codes[0]) == expected
    assert "".join(position_labels(spans, 5)) == expected


@pytest.mark.parametrize("seed", [0, 3])
def test_pairwise_f_is_evaluate_spans_of_the_pair(seed):
    annotations, _ = random_annotations(3, 50, seed=seed)
    result = agreement(annotations, schemes=list(SCHEMES))
    for a, b in permutations(annotations, 2):
        shared = [i for i, (x, y) in enumerate(zip(annotations[a], annotations[b])) if x is not None and y is not None]
        assert result.shared[(a, b)] == len(shared)
        expected = evaluate_spans(
            [annotations[a][i] for i in shared], [annotations[b][i] for i in shared], schemes=list(SCHEMES)
        )
        for scheme in SCHEMES:
            got = result.pairwise[scheme][(a, b)]
            assert got == expected[scheme], (scheme, a, b)  # totals, per label, iou's confusion
            assert got.f1 == expected[scheme].f1


def test_strict_and_exact_are_symmetric_and_the_others_need_not_be():
    annotations, _ = random_annotations(3, 80, seed=7)
    result = agreement(annotations, schemes=list(SCHEMES))
    for scheme in ("strict", "exact"):
        for a, b in permutations(annotations, 2):
            ab, ba = result.pairwise[scheme][(a, b)], result.pairwise[scheme][(b, a)]
            assert ab.f1 == pytest.approx(ba.f1)
            assert ab.precision == pytest.approx(ba.recall)
    asymmetric = [
        scheme
        for scheme in ("partial", "type", "iou", "overlap")
        if any(
            result.pairwise[scheme][(a, b)].f1 != pytest.approx(result.pairwise[scheme][(b, a)].f1)
            for a, b in permutations(annotations, 2)
        )
    ]
    assert asymmetric  # the generated spans overlap enough to show it


def test_mean_micro_and_pooled_figures_are_of_the_pairs():
    annotations, _ = random_annotations(4, 40, seed=8)
    schemes = ["strict", "partial", "iou"]
    result = agreement(annotations, schemes=schemes)
    for scheme in schemes:
        pairs = result.pairwise[scheme]
        assert len(pairs) == 12
        assert result.mean_f[scheme] == pytest.approx(numpy.mean([r.f1 for r in pairs.values()]))
        summed = sum((r.totals for r in pairs.values()), type(next(iter(pairs.values())).totals)())
        assert result.micro[scheme].totals == summed
        assert result.micro_f[scheme] == summed.f1
        for label in ("PER", "LOC", "ORG"):
            label_sum = sum((r.per_label[label] for r in pairs.values() if label in r.per_label), type(summed)())
            assert result.micro[scheme].per_label[label] == label_sum
            present = [
                r.per_label[label].f1
                for r in pairs.values()
                if label in r.per_label and not r.per_label[label].is_empty
            ]
            assert result.mean_label_f[scheme][label] == pytest.approx(numpy.mean(present))
        for name in annotations:
            pooled = sum((r.totals for (ref, scored), r in pairs.items() if scored == name), type(summed)())
            assert result.versus_others[scheme][name].totals == pooled


def test_intervals_of_a_pair_that_shares_every_document_are_bootstrap_ci():
    annotations, lengths = random_annotations(2, 40, seed=9, missing=0.0)
    schemes = ["strict", "overlap"]
    result = agreement(annotations, schemes=schemes, lengths=lengths, bootstrap=200, seed=3)
    scored = evaluate_spans(annotations["ann0"], annotations["ann1"], schemes=schemes, per_doc=True)
    expected = bootstrap_ci(scored, n_resamples=200, seed=3)
    for scheme in schemes:
        assert result.intervals.pairwise[scheme][("ann0", "ann1")] == expected[scheme].f
    alpha = result.intervals.alpha
    assert alpha.low <= result.alpha <= alpha.high and alpha.n_resamples == 200
    assert result.signature["analysis"]["bootstrap"] == 200


def test_intervals_with_missing_documents_and_bca():
    pytest.importorskip("scipy")
    annotations, lengths = random_annotations(3, 40, seed=11, missing=0.3)
    result = agreement(annotations, schemes=["strict"], lengths=lengths, bootstrap=100, method="BCa")
    for pair, interval in result.intervals.pairwise["strict"].items():
        assert interval.estimate == result.pairwise["strict"][pair].f1 and interval.method == "BCa"
    mean = result.intervals.mean_f["strict"]
    assert mean.estimate == pytest.approx(result.mean_f["strict"]) and mean.low <= mean.high


def test_to_dict_is_json_with_a_signature():
    annotations, lengths = random_annotations(3, 20, seed=12)
    result = agreement(annotations, schemes="strict,iou", lengths=lengths, bootstrap=20, iou_threshold=0.6)
    data = json.loads(json.dumps(result.to_dict()))
    assert data["annotators"] == ["ann0", "ann1", "ann2"]
    assert data["schemes"]["strict"]["matrix"]["ann0"]["ann1"] == result.pairwise["strict"][("ann0", "ann1")].f1
    assert data["shared"]["ann0"]["ann2"] == result.shared[("ann0", "ann2")]
    assert data["signature"]["match"]["schemes"] == ["strict", "iou"]
    assert data["signature"]["match"]["iou_threshold"] == 0.6
    assert data["tokens"]["alpha"] == result.alpha
    assert len(data["intervals"]["pairwise"]["iou"]) == 6


def test_spacy_spans_and_dicts_read_as_tuples(vocab):
    from spacy.tokens import Doc

    doc_a = Doc(vocab, words=["Ann", "met", "Bob", "in", "Rome"], ents=["B-PER", "O", "B-PER", "O", "B-LOC"])
    doc_b = Doc(vocab, words=["Ann", "met", "Bob", "in", "Rome"], ents=["B-PER", "O", "O", "O", "B-ORG"])
    # a alone uses LOC, b alone ORG: each run warns of both
    lone = "occurs in no other annotator's spans"
    with pytest.warns(UserWarning, match=lone):
        from_docs = agreement({"a": [doc_a.ents], "b": [doc_b.ents]}, schemes=["strict"], lengths=[5])
    assert from_docs.warnings == (
        'the label "LOC" of annotator "a" (1 span) occurs in no other annotator\'s spans',
        'the label "ORG" of annotator "b" (1 span) occurs in no other annotator\'s spans',
    )
    dicts = {
        "a": [
            [
                {"start": 0, "end": 1, "label": "PER"},
                {"start": 2, "end": 3, "label": "PER"},
                {"start": 4, "end": 5, "label": "LOC"},
            ]
        ],
        "b": [[(0, 1, "PER"), (4, 5, "ORG")]],
    }
    with pytest.warns(UserWarning, match=lone):
        from_dicts = agreement(dicts, schemes=["strict"], lengths=[5])
    assert from_docs.to_dict()["schemes"] == from_dicts.to_dict()["schemes"]
    assert from_docs.cohen_kappa == from_dicts.cohen_kappa
    with pytest.warns(UserWarning, match=lone):
        chars = agreement(
            {"a": [doc_a.ents], "b": [doc_b.ents]}, schemes=["strict"], unit="char", lengths=[len(doc_a.text)]
        )
    assert chars.pairwise["strict"][("a", "b")].f1 == from_docs.pairwise["strict"][("a", "b")].f1


def test_the_package_does_not_hide_the_function():
    import spacy_spanf1
    import spacy_spanf1.agreements  # noqa: F401  importing the package leaves the exported names alone

    assert callable(spacy_spanf1.agreement) and callable(spacy_spanf1.consensus)
    from spacy_spanf1 import agreement

    assert agreement.__module__ == "spacy_spanf1.api.agree"


@pytest.mark.parametrize("nested, seed", [(True, 4), (False, 5), (False, 6)])
def test_pairs_read_from_the_other_side_are_evaluate_spans_with_their_rows(nested, seed):
    """(b, a) is (a, b) with MIS and SPU swapped only where the matching is
    one-to-one: on corpora holding both kinds of documents, every ordered
    pair, every scheme, per label and per document, is evaluate_spans's."""
    from spacy_spanf1.agreements.annotations import read_annotations
    from spacy_spanf1.agreements.pairwise import one_to_one_docs

    annotations, lengths = random_annotations(3, 120, seed=seed, nested=nested)
    for doc, spans in enumerate(annotations["ann1"]):  # one span over two of the others': chained matching
        if doc % 5 == 0 and spans is not None and len(spans) >= 2:
            first, second = sorted(spans)[:2]
            annotations["ann1"][doc] = [(first[0], second[1], first[2])] + sorted(spans)[2:]
    read = read_annotations(annotations, "token")
    docs = read.shared(0, 1)
    mirrored = one_to_one_docs(read.select(0, docs), read.select(1, docs), int(docs.sum()))
    assert mirrored.any() and not mirrored.all()  # both paths are taken
    result = agreement(annotations, schemes=list(SCHEMES), lengths=lengths, bootstrap=20)
    for a, b in permutations(annotations, 2):
        shared = [i for i, (x, y) in enumerate(zip(annotations[a], annotations[b])) if x is not None and y is not None]
        expected = evaluate_spans(
            [annotations[a][i] for i in shared],
            [annotations[b][i] for i in shared],
            schemes=list(SCHEMES),
            per_doc=True,
        )
        for scheme in SCHEMES:
            got = result.pairwise[scheme][(a, b)]
            assert got == expected[scheme], (scheme, a, b)
            assert got.per_label == expected[scheme].per_label
            assert numpy.array_equal(got.per_doc, expected[scheme].per_doc), (scheme, a, b)
            assert got.n_docs == expected[scheme].n_docs


def test_min_overlap_is_matched_both_ways():
    """min_overlap measures the share of the gold span: not symmetric, so
    nothing is read from the other side."""
    annotations, _ = random_annotations(3, 60, seed=8, nested=False)
    result = agreement(annotations, schemes=["strict", "partial"], min_overlap=0.6)
    for a, b in permutations(annotations, 2):
        shared = [i for i, (x, y) in enumerate(zip(annotations[a], annotations[b])) if x is not None and y is not None]
        expected = evaluate_spans(
            [annotations[a][i] for i in shared],
            [annotations[b][i] for i in shared],
            schemes=["strict", "partial"],
            min_overlap=0.6,
        )
        for scheme in ("strict", "partial"):
            assert result.pairwise[scheme][(a, b)] == expected[scheme], (scheme, a, b)
