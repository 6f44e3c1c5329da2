"""The benchmark (benchmarks/bench.py) as a smoke test: it runs at a small
size and its agreement check passes. Timings are printed, never asserted."""

import pytest

from helpers import ROOT, load_file, python

BENCH = ROOT / "benchmarks" / "bench.py"


def run_bench(*args, timeout=900):
    return python(BENCH, *args, timeout=timeout)


@pytest.fixture(scope="module")
def bench():
    return load_file(BENCH)


@pytest.mark.slow  # the benchmark in a subprocess
def test_bench_smoke(tmp_path):
    out = tmp_path / "bench.json"
    proc = run_bench("--sizes", "500", "--runs", "1", "--stream", "2000", "--json", str(out))
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "Agreement at 500 docs: OK" in proc.stdout
    assert "FAILED" not in proc.stdout
    assert "Median wall time of 1 run(s)" in proc.stdout
    assert "stream of 2,000 docs" in proc.stdout
    assert out.exists()


@pytest.mark.slow  # the benchmark in a subprocess
def test_bench_rejects_unknown_reference():
    proc = run_bench("--sizes", "10", "--runs", "1", "--stream", "0", "--skip", "nope", timeout=300)
    assert proc.returncode == 1
    assert "Unknown reference 'nope'" in proc.stdout


def test_corpus_is_deterministic_and_io_safe(bench):
    a, b = bench.make_corpus(300, seed=3), bench.make_corpus(300, seed=3)
    assert (a.gold, a.pred) == (b.gold, b.pred)
    assert list(bench.stream_docs(300, seed=3)) == list(zip(a.gold, a.pred))
    for n, *sides in zip(a.lengths, a.gold, a.pred):
        for spans in sides:
            assert spans == sorted(spans)
            for (_s1, e1, l1), (s2, _e2, l2) in zip(spans, spans[1:]):
                assert e1 <= s2 and not (e1 == s2 and l1 == l2)
            assert all(0 <= s < e <= n for s, e, _ in spans)


def test_agreement_check_catches_a_difference(bench):
    """The check is not vacuous: one changed count is reported."""
    corpus = bench.make_corpus(200, seed=1)
    evaluate_tags, _ = bench.load_evaluate_tags()
    tasks, _ = bench.build_tasks(corpus, ["seqeval", "presidio", "pandas"], False, evaluate_tags)
    results = {task.key: bench.call(task) for task in tasks}
    checked, problems = bench.check_agreement(results)
    assert problems == []
    assert any("nervaluate" in line for line in checked)
    strict = results["nervaluate"]["overall"]["strict"]
    strict.correct += 1
    _, problems = bench.check_agreement(results)
    assert any(line.startswith("strict: counts") for line in problems)
