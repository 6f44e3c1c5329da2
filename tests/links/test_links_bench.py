"""The corpus of benchmarks/bench_links.py (its check against neleval runs
in tests/benchmarks/test_bench_checks.py)."""

from helpers import ROOT, load_file


def test_the_benchmark_corpus_is_linked_and_deterministic():
    module = load_file(ROOT / "benchmarks" / "bench_links.py")
    gold, pred = module.make_docs(200, 0)
    assert (gold, pred) == module.make_docs(200, 0)
    ids = {span["kb_id"] for doc in gold + pred for span in doc}
    assert {"NIL", "NIL0001"} <= ids and len(ids) > 100
