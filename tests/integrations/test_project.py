"""The project's configs, scripts and workflow: the configs resolve the
package's scorer through its entry point (no --code), `spacy train` and
`spacy evaluate` run with it, and `spacy project run all` completes."""

import shutil
from pathlib import Path

import pytest
import spacy
import srsly
from spacy.tokens import Doc, DocBin
from spacy.training import Example
from spacy.util import load_config, load_model_from_config

import spacy_spanf1.integrations.spacy
from helpers import ROOT, load_file, python
from spacy_spanf1 import evaluate_spans
from spacy_spanf1.report import format_delta

SCHEMES = ["iou", "strict", "exact", "partial", "type", "overlap"]
CONFIGS = {"ner": "ents", "spancat": "spans_sc"}


def load_script(name: str):
    return load_file(ROOT / "scripts" / f"{name}.py")


@pytest.fixture(scope="session")
def wnut17_docs():
    """The first 40 WNUT-17 training sentences that hold an entity."""
    reader = load_script("convert_wnut17")
    nlp = spacy.blank("en")
    docs = []
    for words, tags in reader.read_conll(ROOT / "assets" / "wnut17" / "train.conll"):
        doc = Doc(nlp.vocab, words=words, ents=tags)
        if doc.ents:
            docs.append(doc)
        if len(docs) == 40:
            break
    return docs


@pytest.fixture(scope="session")
def trained_ner(tmp_path_factory, wnut17_docs):
    """A real `spacy train` run of configs/ner.cfg on a tiny slice. Train and
    dev are the same docs so that a few steps give some predictions."""
    tmp_path = tmp_path_factory.mktemp("ner")
    data = tmp_path / "wnut17.spacy"
    DocBin(docs=wnut17_docs).to_disk(data)
    output = tmp_path / "training"
    result = python(
        "-m",
        "spacy",
        "train",
        str(ROOT / "configs" / "ner.cfg"),
        "--output",
        str(output),
        "--paths.train",
        str(data),
        "--paths.dev",
        str(data),
        "--training.max_steps",
        "60",
        "--training.eval_frequency",
        "20",
    )
    return result, output, data


@pytest.mark.parametrize("name", list(CONFIGS))
def test_config_resolves_package_scorer(name):
    assert spacy.registry.scorers.get("spacy-spanf1.scorer.v1") is (
        spacy_spanf1.integrations.spacy.make_spanf1_scorer_v1
    )
    config = load_config(ROOT / "configs" / f"{name}.cfg")
    block = config["components"][name]["scorer"]
    assert block["@scorers"] == "spacy-spanf1.scorer.v1"
    assert block["schemes"] == SCHEMES
    resolved = spacy.registry.resolve({"scorer": block})["scorer"]
    assert callable(resolved)
    assert resolved.__module__ == "spacy_spanf1.integrations.spacy"
    # The assembled pipeline uses it, and selects the best model on IoU F
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    assert nlp.get_pipe(name).scorer.__module__ == "spacy_spanf1.integrations.spacy"
    prefix = CONFIGS[name]
    weights = nlp.config["training"]["score_weights"]
    assert weights[f"{prefix}_iou_f"] == 1.0
    for scheme in SCHEMES[1:]:
        assert weights[f"{prefix}_{scheme}_f"] == 0.0
    for key in ("p", "r", "f"):
        assert weights[f"{prefix}_{key}"] is None


@pytest.mark.parametrize("name", list(CONFIGS))
def test_config_scores_every_scheme(name, wnut17_docs):
    """The component's own score() returns every scheme's keys; a perfect
    prediction scores 1.0 under all of them."""
    config = load_config(ROOT / "configs" / f"{name}.cfg")
    nlp = load_model_from_config(config, auto_fill=True)
    prefix = CONFIGS[name]
    examples = []
    for doc in wnut17_docs[:10]:
        if name == "spancat":
            doc = doc.copy()
            doc.spans["sc"] = list(doc.ents)
        examples.append(Example(doc.copy(), doc))
    scores = nlp.get_pipe(name).score(examples)
    for scheme in SCHEMES:
        for key in ("p", "r", "f", "macro_f"):
            assert scores[f"{prefix}_{scheme}_{key}"] == 1.0
        assert f"{prefix}_{scheme}_per_type" in scores
        assert f"{prefix}_{scheme}_counts" in scores
    assert scores[f"{prefix}_f"] == scores[f"{prefix}_iou_f"]


@pytest.mark.slow  # `spacy debug config` builds each training config in a subprocess (3-4 s each)
@pytest.mark.parametrize("name", list(CONFIGS))
def test_debug_config_passes(name):
    result = python("-m", "spacy", "debug", "config", f"configs/{name}.cfg")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Config is valid" in result.stdout


@pytest.mark.slow
def test_train_shows_and_saves_scheme_scores(trained_ner):
    result, output, _ = trained_ner
    assert result.returncode == 0, result.stdout + result.stderr
    # spaCy upper-cases the score_weights keys and cuts them at 13 characters
    header = next(line for line in result.stdout.splitlines() if line.startswith("E "))
    for column in ("ENTS_IOU_F", "ENTS_STRICT_F", "ENTS_EXACT_F", "ENTS_TYPE_F", "ENTS_PARTI...", "ENTS_OVERL..."):
        assert column in header
    assert "ENTS_F " not in header
    performance = srsly.read_json(output / "model-best" / "meta.json")["performance"]
    for scheme in SCHEMES:
        assert isinstance(performance[f"ents_{scheme}_f"], float)
    assert performance["ents_iou_f"] > 0.0


@pytest.mark.slow
def test_evaluate_reports_primary_scheme(trained_ner, tmp_path):
    result, output, data = trained_ner
    assert result.returncode == 0, result.stdout + result.stderr
    model = output / "model-best"
    metrics = tmp_path / "metrics.json"
    evaluated = python("-m", "spacy", "evaluate", str(model), str(data), "--output", str(metrics))
    assert evaluated.returncode == 0, evaluated.stdout + evaluated.stderr
    written = srsly.read_json(metrics)
    # Same predictions, scored by the package outside spaCy. The WNUT-17
    # docs are built from words alone (has_unknown_spaces), so spaCy's Corpus
    # runs the pipeline on the reference words, not on a re-tokenized text:
    # do the same. Predicted entities are then mapped onto the reference
    # tokens as spacy.scorer.get_ner_prf maps them (here the identity).
    nlp = spacy.load(model)
    references = list(DocBin().from_disk(data).get_docs(nlp.vocab))
    assert all(doc.has_unknown_spaces for doc in references)
    inputs = [
        Doc(
            nlp.vocab,
            words=[token.text for token in doc],
            spaces=[bool(token.whitespace_) for token in doc],
        )
        for doc in references
    ]
    gold, pred = [], []
    for reference, predicted in zip(references, nlp.pipe(inputs)):
        x2y = Example(predicted, reference).alignment.x2y
        gold.append([(e.start, e.end, e.label_) for e in reference.ents])
        spans = []
        for e in predicted.ents:
            indices = x2y[e.start : e.end]
            if len(indices):
                spans.append((int(indices[0]), int(indices[-1]) + 1, e.label_))
        pred.append(spans)
    assert any(pred), "the tiny model predicts no entity: the comparison would be empty"
    config = load_config(ROOT / "configs" / "ner.cfg")["components"]["ner"]["scorer"]
    primary = config["schemes"][0]
    expected = evaluate_spans(gold, pred, schemes=[primary], iou_threshold=config["iou_threshold"])
    # srsly writes JSON floats with 10 significant digits
    assert written["ents_p"] == pytest.approx(expected[primary].precision, abs=1e-9)
    assert written["ents_r"] == pytest.approx(expected[primary].recall, abs=1e-9)
    assert written["ents_f"] == pytest.approx(expected[primary].f1, abs=1e-9)


def shorten(path: Path, n_sentences: int) -> None:
    """Keep the first sentences of a CoNLL (blank-line separated) or JSON
    Lines (one sentence a line) file."""
    text = path.read_text(encoding="utf8")
    if path.suffix == ".conll":
        kept = "\n\n".join(text.split("\n\n")[:n_sentences]) + "\n"
    else:
        kept = "".join(text.splitlines(keepends=True)[:n_sentences])
    path.write_text(kept, encoding="utf8")


@pytest.mark.slow
def test_project_run_all(tmp_path):
    """The whole workflow on a copy of the project, with the corpora cut to
    their first 200 sentences and a few training steps."""
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(ROOT / "project.yml", project)
    for directory in ("configs", "scripts", "assets"):
        shutil.copytree(ROOT / directory, project / directory)
    for path in [*project.glob("assets/*/*.conll"), *project.glob("assets/*/*.jsonl")]:
        shorten(path, 200)
    result = python(
        "-m",
        "spacy",
        "project",
        "run",
        "all",
        str(project),
        "--vars.max_steps=10",
        "--vars.eval_frequency=5",
        cwd=project,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Wrote 200 docs" in result.stdout
    for name in ("ner", "spancat"):
        assert (project / "training" / name / "model-best").is_dir()
        assert (project / "metrics" / f"{name}.json").exists()
        assert (project / "metrics" / f"{name}-spanf1.json").exists()
    table = result.stdout[result.stdout.index("Span scores on the test sets") :]
    rows = [line.split()[:2] for line in table.splitlines()]
    for name in ("ner", "spancat"):
        for scheme in SCHEMES:
            assert [name, scheme] in rows
    # the comparison's verdicts, read off this run's own tests
    tests = srsly.read_json(project / "metrics" / "ner-comparison.json")["comparison"]["schemes"]
    significant = ", ".join(f"{s} ({format_delta(t['delta'])})" for s, t in tests.items() if t["significant"]) or "none"
    assert f"In this run, significant at 0.05 (delta F): {significant};" in result.stdout
    # the LLM answers made from the NER pipeline, beside it, with their grounding
    assert "Mentions without offsets: F under span and string schemes" in result.stdout
    answers = srsly.read_json(project / "metrics" / "llm-answers.json")
    assert list(answers["schemes"]) == ["strict", "partial", "iou", "strings", "strings_normalized"]
    counts = answers["grounding"]
    assert counts["mentions"] == sum(counts[k] for k in ("exact", "normalized", "fuzzy", "not_found", "duplicates"))
    # the simulated annotators' agreement: every pair, over the sentences both did
    agreement = srsly.read_json(project / "metrics" / "agreement.json")
    assert agreement["annotators"] == ["ann", "ben", "cat"]
    assert agreement["shared"]["ann"]["ben"] == 200 and agreement["shared"]["ann"]["cat"] < 200
    assert "Agreement of 3 simulated annotators" in result.stdout
    # the spancat sweep on spaCy's grid, and the config it writes
    swept = srsly.read_json(project / "metrics" / "spancat-sweep.json")["sweep"]
    assert set(swept) == set(SCHEMES) and swept["strict"]["thresholds"] == pytest.approx([k / 10 for k in range(11)])
    assert "spancat: thresholds swept on GUM test" in result.stdout
    assert (project / "metrics" / "spancat-best-threshold.cfg").exists()
    # the confusion matrices under strict and type, and the scores on CoNLL's labels through the map
    assert list(srsly.read_json(project / "metrics" / "spancat-confusion.json")["schemes"]) == ["strict", "type"]
    mapped = srsly.read_json(project / "metrics" / "spancat-conll-labels.json")
    assert set(mapped["schemes"]["strict"]["confusion"]["labels"]) <= {"PER", "ORG", "LOC", "MISC", "O"}
    # the GUM linker, end to end and on the gold mentions, under the link schemes
    for name in ("links-end-to-end", "links-gold-mentions"):
        linked = srsly.read_json(project / "metrics" / f"{name}.json")
        assert {"strong_all_match", "strong_link_match", "nel"} <= set(linked["schemes"])
    # the GUM relations under every relation scheme, beside the span schemes they rest on
    related = srsly.read_json(project / "metrics" / "relations-gum.json")["schemes"]
    assert list(related) == ["strict", "exact", "rel_strict", "rel_exact", "rel_partial", "rel_type", "rel_overlap"]
    assert related["rel_strict"]["counts"]["tp"] <= related["rel_exact"]["counts"]["tp"]
    # the NER pipeline on GUM test through the predictions-side map: GUM's labels only, nothing unmapped
    crossed = srsly.read_json(project / "metrics" / "ner-gum-labels.json")
    gum = {"person", "place", "organization", "event", "object", "substance", "animal", "plant", "abstract", "time"}
    assert set(crossed["schemes"]["type"]["confusion"]["labels"]) <= gum | {"O"} and "unmapped" not in crossed
    assert crossed["documents"] == 200


def test_report_says_what_is_significant_in_this_run():
    """The report's verdict is computed from the comparison file and worded
    as a statement about this run."""
    report = load_script("report")
    tests = {"strict": True, "exact": False, "partial": False, "type": True, "iou": False, "overlap": False}
    deltas = {"strict": 0.0304, "type": -0.0293}
    block = {
        "alpha": 0.05,
        "schemes": {scheme: {"significant": sig, "delta": deltas.get(scheme, 0.001)} for scheme, sig in tests.items()},
    }
    first, second = report.significance_summary(block).split("\n")
    assert first == (
        "In this run, significant at 0.05 (delta F): strict (+3.04), type (-2.93); "
        "not significant: exact, partial, iou, overlap."
    )
    assert "one training run" in second
    block = {"alpha": 0.01, "schemes": {scheme: {"significant": False, "delta": 0.0} for scheme in tests}}
    assert report.significance_summary(block).startswith("In this run, significant at 0.01 (delta F): none;")


def test_pinned_runs_the_module_with_one_thread_and_a_fixed_hash_seed(tmp_path):
    """scripts/pinned.py, which the project's training and evaluation
    commands go through: the child sees the pinned variables (numpy's BLAS
    one thread) and its exit status comes back."""
    (tmp_path / "show_env.py").write_text(
        "import os, sys\n"
        "print(os.environ['OMP_NUM_THREADS'], os.environ['OPENBLAS_NUM_THREADS'], os.environ['MKL_NUM_THREADS'],"
        " os.environ['PYTHONHASHSEED'], sys.argv[1:])\n"
        "try:\n"
        "    from threadpoolctl import threadpool_info\n"
        "    import numpy\n"
        "    print(sorted({pool['num_threads'] for pool in threadpool_info()}))\n"
        "except ImportError:\n"
        "    print([1])\n"
        "sys.exit(3)\n"
    )
    result = python(ROOT / "scripts" / "pinned.py", "show_env", "--flag", "x", cwd=tmp_path)
    assert result.returncode == 3, result.stderr
    assert result.stdout.split("\n")[:2] == ["1 1 1 0 ['--flag', 'x']", "[1]"]


BAD_SCORER_SETTINGS = [
    ('schemes = ["iou", "strict", "fuzzy"]', ["fuzzy", "schemes", "strict, exact, partial, type, iou, overlap"]),
    ("schemes = []", ["schemes", "strict, exact, partial, type, iou, overlap"]),
    (None, ["schemes", "strict, exact, partial, type, iou, overlap"]),
    ("iou_threshold = 1.5", ["iou_threshold", "1.5", "(0, 1]"]),
]


def bad_config(tmp_path: Path, setting) -> Path:
    """configs/ner.cfg with the scorer's schemes line or threshold replaced
    (setting None: schemes left out)."""
    text = (ROOT / "configs" / "ner.cfg").read_text(encoding="utf8")
    if setting is None or setting.startswith("schemes"):
        old = 'schemes = ["iou", "strict", "exact", "partial", "type", "overlap"]\n'
        new = "" if setting is None else setting + "\n"
    else:
        old, new = "iou_threshold = 0.5\n", setting + "\n"
    assert old in text
    path = tmp_path / "bad.cfg"
    path.write_text(text.replace(old, new), encoding="utf8")
    return path


@pytest.mark.slow  # `spacy debug config` in a subprocess (3-4 s each)
@pytest.mark.parametrize(
    "setting,expected", BAD_SCORER_SETTINGS, ids=["unknown_scheme", "no_scheme", "missing_schemes", "iou_threshold"]
)
def test_debug_config_rejects_bad_scorer_settings(tmp_path, setting, expected):
    result = python("-m", "spacy", "debug", "config", str(bad_config(tmp_path, setting)))
    assert result.returncode != 0
    output = result.stdout + result.stderr
    for text in expected:
        assert text in output
    # the scorer raises confection's ConfigValidationError, which spaCy's
    # CLI prints as a message; any other error would come with a traceback
    assert "Traceback" not in output


def test_llm_answers_take_the_three_shapes_and_break_as_said():
    """The worked example's answers: each shape parses back to the mentions
    it was written from, and a cut-off answer is a parse failure."""
    from spacy_spanf1.mentions import ParseFailure, parse_answer

    script = load_script("llm_answers")
    mentions = [("Ann Lee", "person"), ("Oslo", "location"), ("Bo", "person")]
    for shape in script.SHAPES:
        parsed = parse_answer(script.answer(mentions, shape))
        # the object of label -> strings lists each label's strings together
        expected = mentions if shape != "by_label" else [("Ann Lee", "person"), ("Bo", "person"), ("Oslo", "location")]
        assert parsed == expected, shape
        full = script.answer(mentions, shape)
        assert isinstance(parse_answer(full[: len(full) // 2]), ParseFailure), shape
    assert script.paraphrase("Ann Lee") == "Lee, Ann"
    assert script.paraphrase("Oslo") == "Oslos"
