"""The benchmarks that hold their figures to a reference library's, as
smoke tests: at a small size each runs to a clean exit and prints that its
check passed. Timings are printed, never asserted."""

import pytest

from helpers import ROOT, python

#: benchmark -> what it prints when its check passes.
CHECKS = {
    "bench_links.py": ("Every neleval measure's TP/FP/FN equals neleval's.", "neleval / evaluate_links"),
    "bench_relations.py": ("rel_strict and rel_exact equal re_score (strict, boundaries), label by label.",),
}


@pytest.mark.slow  # the benchmark in a subprocess
@pytest.mark.parametrize("name", sorted(CHECKS))
def test_the_benchmark_s_check_passes_at_a_small_size(name):
    proc = python(ROOT / "benchmarks" / name, "--docs", "300", "--runs", "1", "--no-targets", timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    for line in CHECKS[name]:
        assert line in proc.stdout


@pytest.mark.slow  # the benchmark in a subprocess, twice over one tree
def test_the_readers_benchmark_checks_every_reader_reads_the_same_spans():
    proc = python(ROOT / "benchmarks" / "bench_readers.py", "--docs", "300", "--repeat", "1", "--against", ROOT)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "Every reader read the same spans." in proc.stdout
    assert proc.stdout.count("after / before") == 4
