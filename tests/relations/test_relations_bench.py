"""The corpus of benchmarks/bench_relations.py (its check against re_score
runs in tests/benchmarks/test_bench_checks.py)."""

from helpers import ROOT, load_file


def test_the_benchmark_corpus_has_relations_and_is_deterministic():
    module = load_file(ROOT / "benchmarks" / "bench_relations.py")
    gold, pred = module.make_docs(200, 0)
    assert (gold, pred) == module.make_docs(200, 0)
    assert sum(len(d["relations"]) for d in pred) > 300
    # some documents have two spans from one start (the per-document pairing is timed too)
    assert any(len({s[0] for s in d["spans"]}) < len(d["spans"]) for d in gold)
