"""Errors that are not bad input stay what they are: an ImportError or a
MemoryError raised inside a user's pipeline component is not "bad input"
(from Python it surfaces as itself; the command line shows its traceback
and exits with 70, not with bad input's 1), and a file that is not a
DocBin is still bad input."""

import pytest
import spacy

from helpers import ROOT, assert_clean_failure, docbin, run, write
from spacy_spanf1.api import evaluate_pipeline
from spacy_spanf1.cli.main import UNEXPECTED_ERROR
from spacy_spanf1.exceptions import InputError, SettingError

#: A --code file: a component that raises the exception named by the
#: SPANF1_TEST_RAISE environment variable when the pipeline runs it.
CODE = """
import os
from spacy.language import Language


@Language.component("spanf1_test_raises")
def raises(doc):
    kind = os.environ.get("SPANF1_TEST_RAISE", "ImportError")
    if kind == "ImportError":
        raise ImportError("No module named 'a_module_the_component_needs'")
    raise MemoryError("the component ran out of memory")


@Language.factory("spanf1_test_needs_a_module")
def needs_a_module(nlp, name):
    if os.environ.get("SPANF1_TEST_RAISE") == "ImportError at load":
        raise ImportError("No module named 'a_module_the_factory_needs'")
    return lambda doc: doc
"""


@pytest.fixture(scope="module")
def broken(tmp_path_factory):
    """A saved pipeline whose component raises, its --code file and a gold corpus."""
    where = tmp_path_factory.mktemp("broken")
    code = where / "component.py"
    write(code, CODE)
    spacy.util.import_file("spanf1_test_raising_component", code)
    nlp = spacy.blank("en")
    nlp.add_pipe("spanf1_test_raises")
    nlp.to_disk(where / "model")
    loading = spacy.blank("en")
    loading.add_pipe("spanf1_test_needs_a_module")
    loading.to_disk(where / "needs_a_module")
    gold = nlp.make_doc("Ada Lovelace met Charles Babbage.")
    gold.ents = [gold.char_span(0, 12, "PER")]
    docbin(where / "gold.spacy", [gold])
    return where


def test_import_error_in_a_component_surfaces_as_itself_from_python(broken, monkeypatch):
    monkeypatch.setenv("SPANF1_TEST_RAISE", "ImportError")
    with pytest.raises(ImportError, match="a_module_the_component_needs") as raised:
        evaluate_pipeline(broken / "model", broken / "gold.spacy", code=broken / "component.py", schemes=["strict"])
    assert not isinstance(raised.value, InputError)


def test_import_error_loading_a_component_is_not_bad_input(broken, monkeypatch):
    monkeypatch.setenv("SPANF1_TEST_RAISE", "ImportError at load")
    with pytest.raises(ImportError, match="a_module_the_factory_needs") as raised:
        evaluate_pipeline(
            broken / "needs_a_module", broken / "gold.spacy", code=broken / "component.py", schemes=["strict"]
        )
    assert not isinstance(raised.value, InputError)


def test_memory_error_in_a_component_surfaces_as_itself_from_python(broken, monkeypatch):
    monkeypatch.setenv("SPANF1_TEST_RAISE", "MemoryError")
    with pytest.raises(MemoryError, match="ran out of memory"):
        evaluate_pipeline(broken / "model", broken / "gold.spacy", code=broken / "component.py", schemes=["strict"])


@pytest.mark.parametrize("kind", ["ImportError", "MemoryError"])
def test_a_component_s_exception_on_the_command_line_keeps_its_traceback(broken, kind):
    out = run(
        ["evaluate", broken / "model", broken / "gold.spacy", "-s", "strict", "--code", broken / "component.py"],
        broken,
        env={"SPANF1_TEST_RAISE": kind},
    )
    assert out.returncode == UNEXPECTED_ERROR == 70, (out.stdout, out.stderr)
    assert "Traceback (most recent call last)" in out.stderr
    assert f"\n{kind}: " in out.stderr  # the exception itself, as Python prints it
    assert "component.py" in out.stderr  # where it was raised: the user's own code
    last = out.stderr.strip().splitlines()[-1]
    assert last.startswith(f"✘ Unexpected {kind}") and "report it" in last


def test_not_a_docbin_is_still_bad_input(tmp_path):
    write(tmp_path / "gold.spacy", "just some text\n")
    out = run(["evaluate", "blank:en", tmp_path / "gold.spacy", "-s", "strict"], tmp_path)
    assert_clean_failure(out, 1, "gold.spacy: can't read it as a spaCy DocBin (.spacy)")


def test_a_truncated_docbin_is_bad_input(tmp_path):
    nlp = spacy.blank("en")
    docbin(tmp_path / "whole.spacy", [nlp("a b c " * 40), nlp("d e f")])
    data = (tmp_path / "whole.spacy").read_bytes()
    (tmp_path / "cut.spacy").write_bytes(data[: len(data) // 2])
    with pytest.raises(InputError, match=r"cut\.spacy: can't read it as a spaCy DocBin"):
        evaluate_pipeline(nlp, tmp_path / "cut.spacy", schemes=["strict"])


def test_a_setting_error_is_a_value_error_only():
    assert issubclass(SettingError, ValueError)
    assert not issubclass(SettingError, TypeError)
    with pytest.raises(ValueError):
        evaluate_pipeline(spacy.blank("en"), ROOT / "examples" / "corpus.spacy")  # no schemes


@pytest.mark.slow
def test_import_error_in_a_component_on_a_dask_worker_surfaces_as_itself(broken, monkeypatch):
    from distributed import Client, LocalCluster

    monkeypatch.setenv("SPANF1_TEST_RAISE", "ImportError")
    with LocalCluster(n_workers=1, processes=False, dashboard_address=None) as cluster, Client(cluster) as client:
        with pytest.raises(ImportError, match="a_module_the_component_needs") as raised:
            evaluate_pipeline(
                str(broken / "model"),
                broken / "gold.spacy",
                code=broken / "component.py",
                schemes=["strict"],
                client=client,
            )
    assert not isinstance(raised.value, InputError)
    assert any("failed after 3 tries" in note for note in getattr(raised.value, "__notes__", []))
