"""benchmarks/bench_relations.py as a smoke test: at a small size its check
that rel_strict and rel_exact give re_score's TP/FP/FN passes. Timings
are printed, never asserted."""

import importlib.util

import pytest

from helpers import ROOT, python

BENCH = ROOT / "benchmarks" / "bench_relations.py"


@pytest.mark.slow  # the benchmark in a subprocess
def test_bench_relations_smoke():
    proc = python(BENCH, "--docs", "300", "--runs", "1", "--no-targets", timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "rel_strict and rel_exact equal re_score (strict, boundaries), label by label." in proc.stdout


def test_the_benchmark_corpus_has_relations_and_is_deterministic():
    spec = importlib.util.spec_from_file_location("bench_relations", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    gold, pred = module.make_docs(200, 0)
    assert (gold, pred) == module.make_docs(200, 0)
    assert sum(len(d["relations"]) for d in pred) > 300
    # some documents have two spans from one start (the per-document pairing is timed too)
    assert any(len({s[0] for s in d["spans"]}) < len(d["spans"]) for d in gold)
