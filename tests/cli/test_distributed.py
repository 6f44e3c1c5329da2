"""Sharded input and Dask (issue #11): the sharded forms in-process, and on
a LocalCluster the same scores and error records bit for bit, worker
deaths survived exactly, a shard that keeps killing workers reported in
one line. The cluster tests are `slow` (worker processes); each has a
timeout (SIGALRM in-process, subprocess timeouts for the CLI)."""

import json
import os
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest
from spacy.tokens import DocBin

import dask_helpers
from helpers import ROOT, TESTS, cli_env, invoke, python, run
from spacy_spanf1.api import compare_files, evaluate_pipeline
from spacy_spanf1.distributed.shards import is_sharded_compare, plan_pairs, plan_pipeline
from spacy_spanf1.formats import InputError
from spacy_spanf1.report import error_records

SCHEMES = "strict,exact,partial,type,iou,overlap"
N_DOCS = 200
# Dask leaves sockets to the garbage collector and warns of busy ports: not ours. The fixture's
# blank model predicts nothing, so every run of it warns so (the in-process tests expect the
# warning; the runs on a cluster compare their JSON, warnings included, with them).
pytestmark = pytest.mark.filterwarnings(
    "ignore::UserWarning:distributed",
    "ignore:Port:UserWarning",
    "ignore::ResourceWarning",
    "ignore::pytest.PytestUnraisableExceptionWarning",
    "ignore:no predicted span in the whole corpus:UserWarning",
    "ignore:baseline. no predicted span:UserWarning",
)


@contextmanager
def alarm(seconds):
    def fail(*_):
        raise TimeoutError(f"test took longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, fail)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture(autouse=True)
def worker_path(monkeypatch):
    """Worker processes import this worktree's package and the helpers."""
    paths = [str(ROOT), str(TESTS)] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(paths))


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("distributed")
    docs = dask_helpers.make_docs(N_DOCS, skip_every=29, kill=[0, 130])
    DocBin(docs=docs).to_disk(root / "all.spacy")
    (root / "shards").mkdir()
    for k in range(4):
        DocBin(docs=docs[k * 50 : (k + 1) * 50]).to_disk(root / "shards" / f"part{k}.spacy")
    dask_helpers.make_model(root / "model")
    dask_helpers.make_model(root / "die_model", die=True)
    # compare: gold and predicted directories of shards
    import spacy

    nlp = spacy.load(root / "model")
    for side in ("gold", "pred"):
        (root / side).mkdir()
    for k in range(4):
        part = docs[k * 50 : (k + 1) * 50]
        DocBin(docs=part).to_disk(root / "gold" / f"p{k}.spacy")
        DocBin(docs=[nlp(d.text) for d in part]).to_disk(root / "pred" / f"p{k}.spacy")
    (root / "bad").mkdir()
    DocBin(docs=docs[:50]).to_disk(root / "bad" / "a.spacy")
    (root / "bad" / "b.spacy").write_bytes(b"this is not a DocBin")
    return root


def records(scores):
    return error_records(scores.errors, scores.pairs, scores.primary)


def run_cli(args, cwd, env=None):
    """The CLI as a subprocess, with the cluster tests' timeout."""
    return run(args, cwd, env=env, timeout=180)


# --------------------------------------------------------------------------
# No Dask in a plain import; planning
# --------------------------------------------------------------------------


def test_plain_import_leaves_dask_out():
    code = (
        "import sys, spacy_spanf1, spacy_spanf1.api, spacy_spanf1.cli, spacy_spanf1.distributed\n"
        "found = sorted(m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed'))\n"
        "assert spacy_spanf1.__file__.startswith(sys.argv[1]), spacy_spanf1.__file__\n"
        "print(found)\n"
    )
    out = python("-c", code, ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_plan(corpus):
    specs = plan_pipeline([corpus / "all.spacy"], shard_docs=80)
    assert [(s.start, s.count) for s in specs] == [(0, 80), (80, 80), (160, 40)]
    specs = plan_pipeline(str(corpus / "shards" / "part*.spacy"))
    assert [Path(s.gold).name for s in specs] == [f"part{k}.spacy" for k in range(4)]
    assert [s.index for s in specs] == [0, 1, 2, 3]
    pairs = plan_pairs(corpus / "gold", corpus / "pred")
    assert [(Path(s.gold).name, Path(s.pred).name) for s in pairs] == [(f"p{k}.spacy",) * 2 for k in range(4)]


def test_shard_dirs_pair_by_name(corpus, tmp_path):
    for side in ("g", "p"):
        (tmp_path / side).mkdir()
    (tmp_path / "g" / "x.spacy").write_bytes(b"")
    (tmp_path / "g" / "only_gold.spacy").write_bytes(b"")
    (tmp_path / "p" / "x.spacy").write_bytes(b"")
    with pytest.raises(InputError, match="only_gold.spacy"):
        plan_pairs(tmp_path / "g", tmp_path / "p")


def test_brat_directory_is_one_corpus(tmp_path):
    for side in ("g", "p"):
        (tmp_path / side).mkdir()
        (tmp_path / side / "a.txt").write_text("Obama visited Paris.\n")
        (tmp_path / side / "a.ann").write_text("T1\tPER 0 5\tObama\n")
    assert not is_sharded_compare(tmp_path / "g", tmp_path / "p")
    scores = compare_files(tmp_path / "g", tmp_path / "p", schemes="strict")
    assert scores.results["strict"].f1 == 1.0


# --------------------------------------------------------------------------
# Sharded input in-process
# --------------------------------------------------------------------------


#: The warning of a corpus without predicted spans (the fixture's blank model predicts none).
NOTHING_PREDICTED = "no predicted span in the whole corpus"


@pytest.mark.parametrize("spans_key", [None, "sc"])
def test_sharded_in_process_equals_one_file(corpus, spans_key):
    model = str(corpus / "model")
    with pytest.warns(UserWarning, match=NOTHING_PREDICTED):  # the blank model predicts nothing
        one = evaluate_pipeline(model, corpus / "all.spacy", schemes=SCHEMES, spans_key=spans_key, keep_errors=True)
    assert one.documents == N_DOCS and one.skipped > 0
    for data, shard_docs in [
        (corpus / "shards", None),
        (str(corpus / "shards" / "*.spacy"), None),
        ([corpus / "all.spacy"], 37),
    ]:
        with pytest.warns(UserWarning, match=NOTHING_PREDICTED):
            sharded = evaluate_pipeline(
                model, data, schemes=SCHEMES, spans_key=spans_key, keep_errors=True, shard_docs=shard_docs
            )
        assert sharded.to_dict() == one.to_dict(), data
        assert [(r["doc"], r["kind"], r["gold"], r["pred"]) for r in records(sharded)] == [
            (r["doc"], r["kind"], r["gold"], r["pred"]) for r in records(one)
        ]
        if shard_docs is not None:  # one file: the same names too
            assert records(sharded) == records(one)


def test_sharded_cli_in_process(corpus):
    out = {}
    for name, args in [
        ("one", [corpus / "all.spacy"]),
        ("dir", [corpus / "shards"]),
        ("split", [corpus / "all.spacy", "--shard-docs", "64"]),
    ]:
        result = invoke(
            ["evaluate", corpus / "model", *args, "-s", SCHEMES, "-o", corpus / f"cli-{name}.json", "--silent"]
        )
        assert result.exit_code == 0, result.output
        out[name] = json.loads((corpus / f"cli-{name}.json").read_text())
    assert out["one"] == out["dir"] == out["split"]


def test_compare_shard_dirs_in_process(corpus, tmp_path):
    from spacy_spanf1.formats.docbin import read_docbin
    from spacy.vocab import Vocab

    vocab = Vocab()
    for side in ("gold", "pred"):
        docs = [d for k in range(4) for d in read_docbin(corpus / side / f"p{k}.spacy", vocab)]
        DocBin(docs=docs).to_disk(tmp_path / f"{side}.spacy")
    with pytest.warns(UserWarning, match=NOTHING_PREDICTED):
        one = compare_files(tmp_path / "gold.spacy", tmp_path / "pred.spacy", schemes=SCHEMES)
    with pytest.warns(UserWarning, match=NOTHING_PREDICTED):
        sharded = compare_files(corpus / "gold", corpus / "pred", schemes=SCHEMES)
    assert sharded.to_dict() == one.to_dict()


def test_corrupt_shard_in_process(corpus):
    for shard_docs in (None, 20):
        with pytest.raises(InputError) as err:
            evaluate_pipeline(str(corpus / "model"), corpus / "bad", schemes="strict", shard_docs=shard_docs)
        assert "b.spacy" in str(err.value) and "DocBin" in str(err.value)
        assert "\n" not in str(err.value)


# --------------------------------------------------------------------------
# On a LocalCluster
# --------------------------------------------------------------------------


@pytest.fixture(scope="module")
def client(corpus):
    from spacy_spanf1.distributed import open_client

    os.environ["PYTHONPATH"] = os.pathsep.join([str(ROOT), str(TESTS)])
    with alarm(120), open_client(cluster="local:2") as c:
        yield c


@pytest.mark.slow
def test_workers_import_this_worktree(client):
    found = client.run(lambda: __import__("spacy_spanf1").__file__)
    assert len(found) == 2
    assert all(path.startswith(str(ROOT)) for path in found.values()), found


@pytest.mark.slow
@pytest.mark.parametrize("spans_key", [None, "sc"])
def test_cluster_equals_in_process(corpus, client, spans_key):
    model = str(corpus / "model")
    with alarm(120):
        local = evaluate_pipeline(
            model, corpus / "all.spacy", schemes=SCHEMES, spans_key=spans_key, keep_errors=True, shard_docs=30
        )
        remote = evaluate_pipeline(
            model,
            corpus / "all.spacy",
            schemes=SCHEMES,
            spans_key=spans_key,
            keep_errors=True,
            shard_docs=30,
            client=client,
        )
        one = evaluate_pipeline(model, corpus / "all.spacy", schemes=SCHEMES, spans_key=spans_key)
    assert remote.to_dict() == local.to_dict() == one.to_dict()
    assert remote.documents == N_DOCS
    assert records(remote) == records(local) and len(records(remote)) > 0


@pytest.mark.slow
def test_cluster_analysis_equals_in_process(corpus, client, tmp_path):
    """Intervals, a paired test against a baseline pipeline, and breakdowns:
    the same figures on the cluster as in-process on one file."""
    model = str(corpus / "model")
    smaller = str(dask_helpers.make_model(tmp_path / "smaller", n_patterns=60))  # the baseline: fewer patterns
    analysis = dict(bootstrap=200, baseline=smaller, by="span_length,doc_length", test="bootstrap")
    with alarm(150):
        one = evaluate_pipeline(model, corpus / "all.spacy", schemes="strict,iou", **analysis)
        remote = evaluate_pipeline(
            model, corpus / "all.spacy", schemes="strict,iou", shard_docs=30, client=client, **analysis
        )
    assert remote.to_dict() == one.to_dict()
    data = remote.to_dict()
    assert data["schemes"]["strict"]["ci"]["f"]["n_resamples"] == 200
    assert set(data["comparison"]["schemes"]) == {"strict", "iou"}
    assert set(data["breakdown"]["attributes"]) == {"span_length", "doc_length"}
    with alarm(120):
        local_compare = compare_files(corpus / "gold", corpus / "pred", schemes="strict", bootstrap=100, by="label")
        remote_compare = compare_files(
            corpus / "gold", corpus / "pred", schemes="strict", bootstrap=100, by="label", client=client
        )
    assert remote_compare.to_dict() == local_compare.to_dict()


@pytest.mark.slow
def test_cluster_compare_and_corrupt(corpus, client):
    with alarm(120):
        local = compare_files(corpus / "gold", corpus / "pred", schemes=SCHEMES, keep_errors=True)
        remote = compare_files(corpus / "gold", corpus / "pred", schemes=SCHEMES, keep_errors=True, client=client)
        assert remote.to_dict() == local.to_dict()
        assert records(remote) == records(local)
        with pytest.raises(InputError) as err:
            evaluate_pipeline(str(corpus / "model"), corpus / "bad", schemes="strict", client=client)
    assert "b.spacy" in str(err.value) and "DocBin" in str(err.value)


def assert_cluster_writes_what_serial_writes(corpus, common, outputs):
    """Run the command `common` in process and with `--cluster local:2`,
    each writing the `outputs` ((option, file ending) pairs) to files named
    "serial..." and "dist...": every file must be the same bytes."""
    for name, cluster in (("serial", []), ("dist", ["--cluster", "local:2"])):
        done = run_cli([*common, *(a for option, end in outputs for a in (option, name + end)), *cluster], corpus)
        assert done.returncode == 0, done.stderr
    for _, end in outputs:
        assert (corpus / f"dist{end}").read_bytes() == (corpus / f"serial{end}").read_bytes()


@pytest.mark.slow
def test_cli_cluster_output_equals_in_process(corpus):
    common = ["evaluate", corpus / "model", corpus / "all.spacy", "-s", SCHEMES, "--shard-docs", "50", "--silent"]
    assert_cluster_writes_what_serial_writes(corpus, common, [("-o", ".json"), ("--errors", ".jsonl")])
    assert json.loads((corpus / "dist.json").read_text())["documents"] == N_DOCS


@pytest.mark.slow
def test_cli_cluster_errors_and_page_equal_in_process(corpus):
    # on a cluster the errors reach the client with the shards; --html alone
    # keeps each shard's few documents: the files are those of the serial run
    common = ["compare", corpus / "gold", corpus / "pred", "-s", SCHEMES, "--silent", "--html-docs", "5"]
    assert_cluster_writes_what_serial_writes(corpus, common, [("--errors", "-e.jsonl"), ("--html", ".html")])
    alone = run_cli([*common, "--html", "alone.html", "--cluster", "local:2"], corpus)
    assert alone.returncode == 0, alone.stderr
    page = (corpus / "serial.html").read_text(encoding="utf-8")
    assert page.count('<section class="doc"') == 5
    assert (corpus / "alone.html").read_text(encoding="utf-8") == page
    whole = compare_files(corpus / "gold", corpus / "pred", schemes=SCHEMES, keep_errors=True)
    assert len((corpus / "serial-e.jsonl").read_text().splitlines()) == len(whole.errors) > 5


@pytest.mark.slow
def test_worker_death_is_survived_exactly(corpus, tmp_path, monkeypatch):
    from spacy_spanf1.distributed import open_client

    log = tmp_path / "plugin.log"
    (tmp_path / "markers").mkdir()
    monkeypatch.setenv("SPACY_SPANF1_PLUGIN_LOG", str(log))
    monkeypatch.setenv(dask_helpers.DIE_ON, "KILL")
    monkeypatch.setenv(dask_helpers.DIE_DIR, str(tmp_path / "markers"))
    model = str(corpus / "die_model")
    code = TESTS / "dask_helpers.py"
    with alarm(150):
        with open_client(cluster="local:2") as c:
            remote = evaluate_pipeline(
                model, corpus / "all.spacy", schemes=SCHEMES, keep_errors=True, shard_docs=40, client=c, code=code
            )
        assert len(list((tmp_path / "markers").iterdir())) == 2  # two shards killed a worker
        monkeypatch.delenv(dask_helpers.DIE_ON)
        serial = evaluate_pipeline(
            model, corpus / "all.spacy", schemes=SCHEMES, keep_errors=True, shard_docs=40, code=code
        )
    assert remote.documents == N_DOCS
    assert remote.to_dict() == serial.to_dict()
    assert records(remote) == records(serial)
    setups = log.read_text().splitlines()
    assert len(setups) >= 3, setups  # two workers, and at least one restarted one
    assert len({line.split()[0] for line in setups}) == len(setups)  # each in a new process


@pytest.mark.slow
def test_shard_that_always_kills_fails_in_one_line(corpus, tmp_path):
    env = {
        dask_helpers.DIE_ON: "KILL 130",
        dask_helpers.DIE_MODE: "always",
        "DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "1",
    }
    out = run_cli(
        [
            "evaluate",
            corpus / "die_model",
            corpus / "all.spacy",
            "-s",
            "strict",
            "--shard-docs",
            "100",
            "--cluster",
            "local:2",
            "--code",
            TESTS / "dask_helpers.py",
            "-o",
            tmp_path / "x.json",
        ],
        corpus,
        env=env,
    )
    assert out.returncode == 1, (out.stdout, out.stderr)
    failures = [line for line in out.stderr.splitlines() if line.startswith("✘")]
    assert len(failures) == 1, out.stderr
    assert "shard 1 (" in failures[0] and "all.spacy, documents 100-199" in failures[0] and "died" in failures[0]
    assert "Scores" not in out.stdout and not (tmp_path / "x.json").exists()


# --------------------------------------------------------------------------
# An existing cluster (`dask scheduler` / `dask worker`), and Ctrl-C
# --------------------------------------------------------------------------


@contextmanager
def dask_processes(tmp_path):
    """A scheduler and one worker started as the README says, through the
    scheduler file; yields (scheduler file, address)."""
    import time

    import re

    env = cli_env()
    # The workers read the Dask configuration the README gives for them.
    readme = (ROOT / "README.md").read_text(encoding="utf8")
    [config] = re.findall(r"```yaml\n(.*?)```", readme, re.S)
    (tmp_path / "dask").mkdir()
    (tmp_path / "dask" / "spanf1.yaml").write_text(config, encoding="utf8")
    file = tmp_path / "scheduler.json"
    scheduler = subprocess.Popen(
        ["dask", "scheduler", "--scheduler-file", str(file), "--port", "0", "--no-dashboard"],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    worker = None
    try:
        deadline = time.monotonic() + 60
        while not file.exists() and time.monotonic() < deadline:
            time.sleep(0.2)
        assert file.exists(), "the scheduler wrote no scheduler file"
        address = json.loads(file.read_text())["address"]
        worker = subprocess.Popen(
            ["dask", "worker", "--scheduler-file", str(file), "--nworkers", "1", "--nthreads", "1", "--no-dashboard"],
            env=dict(env, DASK_CONFIG=str(tmp_path / "dask")),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        yield file, address
    finally:
        for proc in (worker, scheduler):
            if proc is not None:
                proc.terminate()
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()


@pytest.mark.slow
def test_existing_cluster_by_address_and_scheduler_file(corpus, tmp_path):
    common = ["evaluate", corpus / "model", corpus / "shards", "-s", SCHEMES, "--silent"]
    serial = run_cli([*common, "-o", tmp_path / "serial.json"], corpus)
    assert serial.returncode == 0, serial.stderr
    with dask_processes(tmp_path) as (file, address):
        from distributed import Client

        with Client(scheduler_file=str(file), timeout=60) as client:
            client.wait_for_workers(1, timeout=60)
            found = client.run(lambda: os.environ.get("MALLOC_TRIM_THRESHOLD_", "unset"))
        assert list(found.values()) == ["unset"]  # the README's worker configuration took
        by_file = run_cli([*common, "-o", tmp_path / "file.json", "--scheduler-file", file], corpus)
        assert by_file.returncode == 0, by_file.stderr
        by_address = run_cli([*common, "-o", tmp_path / "address.json", "--scheduler", address], corpus)
        assert by_address.returncode == 0, by_address.stderr
    expected = (tmp_path / "serial.json").read_bytes()
    assert (tmp_path / "file.json").read_bytes() == expected
    assert (tmp_path / "address.json").read_bytes() == expected


@pytest.mark.slow
def test_no_scheduler_at_the_address_is_one_line(corpus, tmp_path):
    out = run_cli(
        [
            "evaluate",
            corpus / "model",
            corpus / "shards",
            "-s",
            "strict",
            "--scheduler",
            "tcp://127.0.0.1:9",
            "-o",
            tmp_path / "x.json",
        ],
        corpus,
        env={"DASK_DISTRIBUTED__COMM__TIMEOUTS__CONNECT": "2s"},
    )
    assert out.returncode == 1, (out.stdout, out.stderr)
    assert out.stderr.strip().splitlines() == [line for line in out.stderr.strip().splitlines() if line.startswith("✘")]
    assert "--scheduler" in out.stderr and "tcp://127.0.0.1:9" in out.stderr and "Traceback" not in out.stderr
    assert not (tmp_path / "x.json").exists()


@pytest.mark.slow
def test_ctrl_c_closes_the_local_cluster(corpus, tmp_path):
    import time

    import psutil

    log = tmp_path / "plugin.log"
    # 200 documents at 0.1 s: 10 s of work on two workers, so that the run
    # does not end before the interrupt is handled on a loaded machine (the
    # entity ruler's 300 patterns go through the component as the pipeline
    # loads: 30 s, hence the deadline)
    env = cli_env(SPACY_SPANF1_PLUGIN_LOG=str(log), **{dask_helpers.SLOW: "0.1"})
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "spacy_spanf1",
            "evaluate",
            str(corpus / "die_model"),
            str(corpus / "all.spacy"),
            "-s",
            "strict",
            "--shard-docs",
            "10",
            "--cluster",
            "local:2",
            "--code",
            str(TESTS / "dask_helpers.py"),
            "-o",
            str(tmp_path / "x.json"),
        ],
        cwd=corpus,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # a shell's background job starts with SIGINT ignored, and so would the
        # command: give it the default disposition, as a terminal's would have
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 150
        while (not log.exists() or len(log.read_text().splitlines()) < 2) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert log.exists() and len(log.read_text().splitlines()) == 2, "the workers did not start"
        time.sleep(1)  # shards running
        children = psutil.Process(proc.pid).children(recursive=True)
        assert len(children) >= 2
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, (stdout, stderr)  # 128 + SIGINT, as a shell reports it
    assert "Traceback" not in stderr, stderr
    assert not (tmp_path / "x.json").exists() and "Scores" not in stdout
    gone, alive = psutil.wait_procs(children, timeout=30)
    assert not alive, f"worker processes left running: {[p.pid for p in alive]}"
