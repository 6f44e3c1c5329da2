"""benchmarks/bench_links.py as a smoke test: at a small size its check
that every neleval measure gives neleval's TP/FP/FN passes. Timings are
printed, never asserted."""

import importlib.util

import pytest

from helpers import ROOT, python

BENCH = ROOT / "benchmarks" / "bench_links.py"


@pytest.mark.slow  # the benchmark in a subprocess
def test_bench_links_smoke():
    proc = python(BENCH, "--docs", "300", "--runs", "1", "--no-targets", timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "Every neleval measure's TP/FP/FN equals neleval's." in proc.stdout
    assert "neleval / evaluate_links" in proc.stdout


def test_the_benchmark_corpus_is_linked_and_deterministic():
    spec = importlib.util.spec_from_file_location("bench_links", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    gold, pred = module.make_docs(200, 0)
    assert (gold, pred) == module.make_docs(200, 0)
    ids = {span["kb_id"] for doc in gold + pred for span in doc}
    assert {"NIL", "NIL0001"} <= ids and len(ids) > 100
