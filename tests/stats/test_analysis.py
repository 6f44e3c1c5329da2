"""Intervals, paired tests and breakdowns through compare_files,
evaluate_pipeline and the command line (issue #9 items 5, 7, 8).

The reference values are those of spacy_spanf1.stats (tested against scipy
in test_bootstrap.py, test_paired.py and test_breakdown.py) run on the same
spans scored with evaluate_spans(per_doc=True)."""

import json
import random

import pytest
import spacy
from spacy.tokens import DocBin
from spacy.tokens import Span as SpacySpan

from helpers import COMPARE_JSONL, assert_clean_failure, invoke, measure_in_chromium, run, write_jsonl
from spacy_spanf1 import evaluate_spans
from spacy_spanf1.api import InputError, SettingError, compare_files, evaluate_pipeline
from spacy_spanf1.spans import Span
from spacy_spanf1.stats import bootstrap_ci, breakdown, paired_test

SCHEMES = ["strict", "partial", "iou"]
WORDS = ["Ann", "Lee", "met", "Bo", "Chen", "in", "New", "York", "at", "Acme", "Corp", "today"]
LABELS = ["PER", "LOC", "ORG"]


def make_corpus(n=16, seed=3):
    """Gold, two systems' predictions (JSONL records) and their spans, in
    characters. Every record has "genre" and "doc" (4 source documents)."""
    rng = random.Random(seed)
    gold, pred, pred_b = [], [], []
    for i in range(n):
        words = [rng.choice(WORDS) for _ in range(rng.randint(6, 14))]
        text = " ".join(words)
        starts, pos = [], 0
        for w in words:
            starts.append(pos)
            pos += len(w) + 1

        def span(k, length, label, words=words, starts=starts):
            k = min(k, len(words) - length)
            return {"start": starts[k], "end": starts[k + length - 1] + len(words[k + length - 1]), "label": label}

        g = [span(0, rng.randint(1, 2), rng.choice(LABELS)), span(4, rng.randint(1, 3), rng.choice(LABELS))]
        if i % 3 == 0:
            g.append(span(len(words) - 1, 1, "ORG"))
        p = [dict(s) for s in g if rng.random() < 0.7]
        for s in p:
            if rng.random() < 0.3:
                s["label"] = rng.choice(LABELS)
        if rng.random() < 0.5:
            p.append(span(2, 1, rng.choice(LABELS)))
        b = [dict(s) for s in g if rng.random() < 0.5]
        genre = ["news", "blog", "wiki"][i % 3]
        gold.append({"text": text, "spans": g, "genre": genre, "doc": f"d{i // 4}"})
        pred.append({"text": text, "spans": p})
        pred_b.append({"text": text, "spans": b})
    return gold, pred, pred_b


def spans_of(records):
    return [sorted(Span(s["start"], s["end"], s["label"]) for s in r["spans"]) for r in records]


@pytest.fixture()
def corpus(tmp_path):
    gold, pred, pred_b = make_corpus()
    for name, records in (("gold", gold), ("pred", pred), ("pred_b", pred_b)):
        write_jsonl(tmp_path / f"{name}.jsonl", records)
    return tmp_path, gold, pred, pred_b


def reference(gold, pred):
    return evaluate_spans(spans_of(gold), spans_of(pred), schemes=SCHEMES, per_doc=True)


# --------------------------------------------------------------------------
# Python: the same numbers as the stats functions
# --------------------------------------------------------------------------


def test_intervals_equal_bootstrap_ci(corpus):
    path, gold, pred, _ = corpus
    scores = compare_files(
        path / "gold.jsonl", path / "pred.jsonl", schemes=SCHEMES, bootstrap=300, confidence=0.9, seed=7
    )
    expected = bootstrap_ci(reference(gold, pred), n_resamples=300, confidence=0.9, seed=7)
    assert list(scores.intervals) == SCHEMES
    for scheme in SCHEMES:
        assert scores.intervals[scheme] == expected[scheme]
        block = scores.to_dict()["schemes"][scheme]["ci"]
        assert block["f"] == expected[scheme].f.to_dict()
        assert block["f"]["method"] == "percentile" and block["f"]["n_resamples"] == 300
        assert block["f"]["seed"] == 7 and block["f"]["confidence"] == 0.9 and block["f"]["unit"] == "document"
    assert scores.intervals["strict"].f.low < scores.intervals["strict"].f.high


def test_intervals_resampled_by_a_field_equal_grouped_bootstrap_ci(corpus):
    path, gold, pred, _ = corpus
    scores = compare_files(path / "gold.jsonl", path / "pred.jsonl", schemes=SCHEMES, bootstrap=200, resample_by="doc")
    groups = [r["doc"] for r in gold]
    expected = bootstrap_ci(reference(gold, pred), n_resamples=200, groups=groups)
    ungrouped = bootstrap_ci(reference(gold, pred), n_resamples=200)
    for scheme in SCHEMES:
        assert scores.intervals[scheme] == expected[scheme]
        assert scores.intervals[scheme].n_units == 4
    assert scores.intervals["strict"] != ungrouped["strict"]
    ci = scores.to_dict()["schemes"]["strict"]["ci"]
    assert ci["resample_by"] == "doc" and ci["f"]["unit"] == "group"


@pytest.mark.parametrize("test", ["randomization", "bootstrap"])
def test_baseline_comparison_equals_paired_test(corpus, test):
    path, gold, pred, pred_b = corpus
    scores = compare_files(
        path / "gold.jsonl",
        path / "pred.jsonl",
        schemes=SCHEMES,
        baseline=path / "pred_b.jsonl",
        test=test,
        alpha=0.1,
        seed=5,
    )
    expected = paired_test(reference(gold, pred_b), reference(gold, pred), method=test, alpha=0.1, seed=5)
    assert scores.comparison == expected
    block = scores.to_dict()["comparison"]
    assert block["baseline"] == str(path / "pred_b.jsonl")
    assert (block["method"], block["alpha"], block["seed"]) == (test, 0.1, 5)
    assert block["n_resamples"] == {"randomization": 10000, "bootstrap": 1000}[test]
    for scheme in SCHEMES:
        row = block["schemes"][scheme]
        e = expected[scheme]
        assert (row["delta"], row["low"], row["high"], row["p_value"], row["significant"]) == (
            e.delta,
            e.low,
            e.high,
            e.p_value,
            e.significant,
        )
        assert (row["delta_p"], row["delta_r"]) == (e.delta_p, e.delta_r)
        assert row["f"] - row["f_baseline"] == pytest.approx(e.delta)


def test_baseline_scores_of_other_gold_are_an_input_error(corpus, tmp_path):
    path, gold, pred, pred_b = corpus
    other = tmp_path / "other"
    other.mkdir()
    shifted = [dict(r, spans=r["spans"][:1]) for r in gold]
    write_jsonl(other / "gold.jsonl", shifted)
    write_jsonl(other / "pred.jsonl", pred)
    base = compare_files(other / "gold.jsonl", other / "pred.jsonl", schemes=SCHEMES, per_doc=True)
    with pytest.raises(InputError, match="Different gold"):
        compare_files(path / "gold.jsonl", path / "pred.jsonl", schemes=SCHEMES, baseline=base)


def test_breakdown_by_field_and_span_length_equal_stats_breakdown(corpus):
    path, gold, pred, _ = corpus
    scores = compare_files(
        path / "gold.jsonl", path / "pred.jsonl", schemes=SCHEMES, by="genre,span_length,doc_length", buckets=3
    )
    g, p = spans_of(gold), spans_of(pred)
    assert scores.breakdowns["genre"] == breakdown(g, p, schemes=SCHEMES, by=[r["genre"] for r in gold], unit="char")
    assert [b.name for b in scores.breakdowns["genre"]["strict"]] == ["blog", "news", "wiki"]
    assert scores.breakdowns["span_length"] == breakdown(
        g, p, schemes=SCHEMES, by="span_length", buckets=3, unit="char"
    )
    assert scores.breakdowns["doc_length"] == breakdown(
        g, p, schemes=SCHEMES, by="doc_length", buckets=3, unit="char", doc_lengths=[len(r["text"]) for r in gold]
    )
    block = scores.to_dict()["breakdown"]
    assert block["buckets"] == 3 and block["by"] == ["genre", "span_length", "doc_length"]
    assert block["attributes"]["genre"]["iou"] == [b.to_dict() for b in scores.breakdowns["genre"]["iou"]]
    assert sum(b["n_gold"] for b in block["attributes"]["span_length"]["strict"]) == sum(map(len, g))


def test_bucket_intervals_of_document_breakdowns(corpus):
    path, gold, pred, _ = corpus
    scores = compare_files(
        path / "gold.jsonl", path / "pred.jsonl", schemes=SCHEMES, by="genre", bootstrap=100, resample_by="doc"
    )
    news = [i for i, r in enumerate(gold) if r["genre"] == "news"]
    bucket = {b.name: b for b in scores.breakdowns["genre"]["strict"]}["news"]
    expected = bootstrap_ci(bucket.result, n_resamples=100, groups=[gold[i]["doc"] for i in news])
    names = [b.name for b in scores.breakdowns["genre"]["strict"]]
    assert scores.breakdown_intervals["genre"]["strict"][names.index("news")] == expected
    row = scores.to_dict()["breakdown"]["attributes"]["genre"]["strict"][names.index("news")]
    assert row["ci"]["f"] == expected.f.to_dict()


def test_a_field_some_documents_lack_names_field_and_document(corpus):
    path, gold, pred, _ = corpus
    gold[5] = {k: v for k, v in gold[5].items() if k != "doc"}
    write_jsonl(path / "gold.jsonl", gold)
    with pytest.raises(InputError) as err:
        compare_files(path / "gold.jsonl", path / "pred.jsonl", schemes=SCHEMES, bootstrap=10, resample_by="doc")
    message = str(err.value)
    assert "'doc'" in message and "document 5 (line 6)" in message and "genre" in message
    assert err.value.setting == "resample_by"


def test_bad_settings_are_usage_errors(corpus):
    path = corpus[0]
    for kwargs, setting in [
        ({"bootstrap": 0}, "bootstrap"),
        ({"confidence": 1.5}, "confidence"),
        ({"test": "bogus"}, "test"),
        ({"alpha": 0.0}, "alpha"),
        ({"buckets": 0}, "buckets"),
        ({"seed": -1}, "seed"),
    ]:
        with pytest.raises(SettingError) as err:
            compare_files(path / "gold.jsonl", path / "pred.jsonl", schemes=SCHEMES, **kwargs)
        assert err.value.setting == setting


def test_plain_run_keeps_nothing_extra(corpus):
    path = corpus[0]
    scores = compare_files(path / "gold.jsonl", path / "pred.jsonl", schemes=SCHEMES)
    assert scores.results["strict"].per_doc is None and scores.doc_spans is None
    assert not scores.doc_meta and scores.doc_lengths is None
    data = scores.to_dict()
    assert "comparison" not in data and "breakdown" not in data and "ci" not in data["schemes"]["strict"]


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def test_cli_prints_intervals_comparison_and_breakdowns(corpus):
    path, gold, pred, pred_b = corpus
    result = run(
        [
            "compare",
            "gold.jsonl",
            "pred.jsonl",
            "-s",
            ",".join(SCHEMES),
            "--bootstrap",
            "500",
            "--baseline",
            "pred_b.jsonl",
            "--by",
            "genre,span_length",
            "--resample-by",
            "doc",
            "-o",
            "out.json",
            "--html",
            "page.html",
            "--html-docs",
            "3",
        ],
        cwd=path,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    expected = bootstrap_ci(reference(gold, pred), n_resamples=500, groups=[r["doc"] for r in gold])
    f = expected["strict"].f
    assert "F [low, high]" in out and "95 % bootstrap intervals (500 resamples of groups" in out
    assert f"{f.estimate * 100:.2f} [{f.low * 100:.2f}, {f.high * 100:.2f}]" in out
    test = paired_test(reference(gold, pred_b), reference(gold, pred), groups=[r["doc"] for r in gold])
    assert "Against the baseline (randomization test" in out
    line = next(
        printed
        for printed in out.splitlines()
        if printed.startswith("strict ") and f"{test['strict'].delta * 100:+.2f}" in printed
    )
    assert f"{test['strict'].p_value:.4f}" in line
    assert "strict by genre (documents)" in out and "strict by span_length (spans)" in out
    data = json.loads((path / "out.json").read_text())
    assert data["schemes"]["iou"]["ci"]["f"]["n_resamples"] == 500
    assert data["comparison"]["schemes"]["strict"]["p_value"] == pytest.approx(test["strict"].p_value, rel=1e-8)
    assert set(data["breakdown"]["attributes"]) == {"genre", "span_length"}
    page = (path / "page.html").read_text()
    assert "Shown: 3," in page and "Against the baseline" in page and "F by genre (strict)" in page


def test_cli_marks_a_significant_difference(tmp_path, monkeypatch):
    gold, pred, _ = make_corpus(n=24)
    write_jsonl(tmp_path / "gold.jsonl", gold)
    write_jsonl(tmp_path / "pred.jsonl", [dict(r, spans=g["spans"]) for r, g in zip(pred, gold)])
    write_jsonl(tmp_path / "pred_b.jsonl", [dict(r, spans=[]) for r in pred])
    monkeypatch.chdir(tmp_path)
    result = invoke(["compare", "gold.jsonl", "pred.jsonl", "-s", "strict", "--baseline", "pred_b.jsonl"])
    assert result.exit_code == 0, result.output
    row = next(
        printed for printed in result.stdout.splitlines() if printed.startswith("strict ") and "+100.00" in printed
    )
    # no random swap reaches delta 100 (it needs every document of B on A's side):
    # p = 2 * (0 + 1) / (10000 + 1), two-sided
    assert row.split()[-1] == "*" and f"{2 / 10001:.4f}" in row


BAD = [
    (["--bootstrap", "0"], 2, "'--bootstrap' must be a positive integer (at least 1), got 0"),
    (["--bootstrap", "10", "--confidence", "1.5"], 2, "'--confidence' must be in (0, 1)"),
    (
        ["--baseline", "pred_b.jsonl", "--test", "bogus"],
        2,
        "Unknown test 'bogus'. Valid tests: randomization, bootstrap",
    ),
    (["--baseline", "pred_b.jsonl", "--alpha", "2"], 2, "'--alpha' must be in (0, 1)"),
    (["--by", "genre", "--buckets", "0"], 2, "'--buckets' must be an integer >= 1"),
    (
        ["--by", "nosuch"],
        1,
        "--by: document 0 (line 1) has no metadata field 'nosuch' (or one of span_length, label, doc_length, density). Its fields: doc, genre",
    ),
    (
        ["--bootstrap", "10", "--resample-by", "doc"],
        1,
        "--resample-by: document 5 (line 6) has no metadata field 'doc'. Its fields: genre",
    ),
    (["--baseline", "other.jsonl"], 1, "other.jsonl"),
]


@pytest.mark.parametrize("args,status,message", BAD, ids=[b[0][-2] + "=" + b[0][-1] for b in BAD])
def test_cli_bad_values_one_line(corpus, args, status, message, monkeypatch):
    path, gold, pred, _ = corpus
    gold[5] = {k: v for k, v in gold[5].items() if k != "doc"}
    write_jsonl(path / "gold.jsonl", gold)
    write_jsonl(path / "other.jsonl", [dict(r, text=r["text"] + " more") for r in pred])
    monkeypatch.chdir(path)
    result = invoke(["compare", "gold.jsonl", "pred.jsonl", "-s", "strict", *args])
    assert_clean_failure(result, status, message)


def test_cli_bad_values_as_subprocesses(corpus):
    path = corpus[0]
    result = run(["compare", "gold.jsonl", "pred.jsonl", "-s", "strict", "--bootstrap", "0"], cwd=path)
    assert_clean_failure(result, 2, "'--bootstrap' must be a positive integer")
    result = run(["compare", "gold.jsonl", "pred.jsonl", "-s", "strict", "--by", "nosuch"], cwd=path)
    assert_clean_failure(result, 1, "no metadata field 'nosuch'")


# --------------------------------------------------------------------------
# evaluate: two tiny pipelines on a DocBin with a genre per document
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def pipelines(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("pipelines")
    nlp = spacy.blank("en")
    texts = [
        "Ann Lee lives in Paris",
        "Bo Chen works at Acme",
        "Paris and Rome are cities",
        "Acme hired Ann",
        "Rome is old",
        "Bo visited Paris and Rome",
    ] * 3
    ents = {"Ann": "PER", "Lee": "PER", "Bo": "PER", "Chen": "PER", "Paris": "LOC", "Rome": "LOC", "Acme": "ORG"}
    docs = []
    for i, text in enumerate(texts):
        doc = nlp(text)
        doc.ents = [SpacySpan(doc, k, k + 1, label=ents[t.text]) for k, t in enumerate(doc) if t.text in ents]
        doc.user_data["genre"] = ["news", "fiction"][i % 2]
        doc.user_data["story"] = f"s{i // 3}"
        docs.append(doc)
    DocBin(docs=docs, store_user_data=True).to_disk(tmp / "data.spacy")
    paths = {}
    for name, words in (("a", ["Paris", "Ann", "Bo"]), ("b", ["Paris", "Rome", "Ann", "Bo", "Acme", "Chen"])):
        model = spacy.blank("en")
        ruler = model.add_pipe("entity_ruler")
        ruler.add_patterns([{"label": ents[w], "pattern": w} for w in words])
        model.to_disk(tmp / name)
        paths[name] = str(tmp / name)
    gold = [[(e.start, e.end, e.label_) for e in d.ents] for d in docs]

    def predicted(words):
        return [[(e.start, e.end, e.label_) for e in d.ents if e.text in words] for d in docs]

    return (
        tmp,
        paths,
        gold,
        predicted(["Paris", "Ann", "Bo"]),
        predicted(["Paris", "Rome", "Ann", "Bo", "Acme", "Chen"]),
        docs,
    )


def test_evaluate_with_baseline_and_by_genre(pipelines):
    tmp, paths, gold, pred_a, pred_b, docs = pipelines
    scores = evaluate_pipeline(
        paths["b"],
        tmp / "data.spacy",
        schemes=SCHEMES,
        baseline=paths["a"],
        by="genre",
        bootstrap=200,
        resample_by="story",
    )
    groups = [d.user_data["story"] for d in docs]
    ref_a = evaluate_spans(gold, pred_a, schemes=SCHEMES, per_doc=True)
    ref_b = evaluate_spans(gold, pred_b, schemes=SCHEMES, per_doc=True)
    assert scores.comparison == paired_test(ref_a, ref_b, groups=groups)
    assert scores.comparison["strict"].delta > 0
    assert scores.intervals == bootstrap_ci(ref_b, n_resamples=200, groups=groups)
    assert scores.breakdowns["genre"] == breakdown(
        gold, pred_b, schemes=SCHEMES, by=[d.user_data["genre"] for d in docs]
    )
    assert scores.to_dict()["comparison"]["baseline"] == f"pipeline {paths['a']}"


@pytest.mark.slow  # two pipelines run in a CLI subprocess (about 4 s)
def test_evaluate_cli_with_baseline(pipelines):
    tmp, paths, gold, pred_a, pred_b, docs = pipelines
    result = run(
        [
            "evaluate",
            paths["b"],
            "data.spacy",
            "-s",
            "strict,iou",
            "--baseline",
            paths["a"],
            "--by",
            "genre,label",
            "--test",
            "bootstrap",
            "-o",
            "cmp.json",
        ],
        cwd=tmp,
    )
    assert result.returncode == 0, result.stderr
    assert "Against the baseline (bootstrap test, 1000 rounds" in result.stdout
    assert "strict by genre (documents)" in result.stdout and "strict by label (spans)" in result.stdout
    data = json.loads((tmp / "cmp.json").read_text())
    expected = paired_test(
        evaluate_spans(gold, pred_a, schemes=["strict", "iou"], per_doc=True),
        evaluate_spans(gold, pred_b, schemes=["strict", "iou"], per_doc=True),
        method="bootstrap",
    )
    # srsly writes floats with 9 significant digits
    assert data["comparison"]["schemes"]["iou"]["p_value"] == pytest.approx(expected["iou"].p_value, rel=1e-8)
    assert [b["name"] for b in data["breakdown"]["attributes"]["genre"]["strict"]] == ["fiction", "news"]


# --------------------------------------------------------------------------
# The HTML page in headless Chromium
# --------------------------------------------------------------------------

MEASURE = """
<script>
const tables = [...document.querySelectorAll("table.breakdown")].map(t => ({
  attribute: t.dataset.attribute,
  rows: t.querySelectorAll("tbody tr").length,
  bars: [...t.querySelectorAll(".bd-fill")].map(b => b.getBoundingClientRect().width),
  tracks: [...t.querySelectorAll(".track")].map(b => b.getBoundingClientRect().width),
  whiskers: [...t.querySelectorAll(".whisker")].map(b => b.getBoundingClientRect().width),
  f: [...t.querySelectorAll("tbody tr")].map(r => parseFloat(r.children[4].textContent)),
}));
const comparison = [...document.querySelectorAll("table.comparison tbody tr")].map(r => ({
  scheme: r.dataset.scheme, width: r.getBoundingClientRect().width, cells: r.children.length,
}));
const ci = [...document.querySelectorAll(".summary .ci-bar .range")].map(b => b.getBoundingClientRect().width);
const pre = document.createElement("pre");
pre.id = "measured";
pre.textContent = JSON.stringify({tables, comparison, ci});
document.body.appendChild(pre);
</script>
"""


@pytest.mark.slow  # starts a browser
def test_html_breakdowns_and_comparison_in_headless_chromium(corpus, monkeypatch):
    path = corpus[0]
    monkeypatch.chdir(path)
    result = invoke(
        [
            *COMPARE_JSONL,
            "--baseline",
            "pred_b.jsonl",
            "--by",
            "genre,span_length",
            "--bootstrap",
            "200",
            "--html",
            "page.html",
        ]
    )
    assert result.exit_code == 0, result.output
    measured = measure_in_chromium((path / "page.html").read_text(encoding="utf-8"), MEASURE, path)
    data = compare_files(
        path / "gold.jsonl", path / "pred.jsonl", schemes="strict,iou", by="genre,span_length"
    ).to_dict()["breakdown"]["attributes"]
    tables = {t["attribute"]: t for t in measured["tables"]}
    assert set(tables) == {"genre", "span_length"}
    for name, table in tables.items():
        buckets = data[name]["strict"]
        assert table["rows"] == len(table["bars"]) == len(buckets) >= 2  # one bar per bucket
        for width, track, bucket in zip(table["bars"], table["tracks"], buckets):
            assert track > 200
            assert width == pytest.approx(track * bucket["f"], abs=1.5)  # bar length is F
            assert (width > 0) == (bucket["f"] > 0)
    assert len(tables["genre"]["whiskers"]) == 3 and all(w > 0 for w in tables["genre"]["whiskers"])
    assert [r["scheme"] for r in measured["comparison"]] == ["strict", "iou"]
    assert all(r["width"] > 300 and r["cells"] == 7 for r in measured["comparison"])
    assert len(measured["ci"]) == 2 and all(w > 0 for w in measured["ci"])
