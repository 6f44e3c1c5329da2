"""agree_files: every layout of the same annotations (one JSONL, doccano or
brat input per annotator; one Label Studio export with three annotators;
Prodigy sessions; one JSONL naming annotators) gives the figures of the
annotations written as JSONL files, which give those of `agreement`."""

import json

import pytest
from helpers import random_annotations, write_jsonl

from spacy_spanf1 import InputError, SettingError
from spacy_spanf1 import agreement
from spacy_spanf1.api import agree_files

SCHEMES = ["strict", "partial", "iou"]
NAMES = ["ann0", "ann1", "ann2"]


@pytest.fixture(scope="module")
def corpus():
    """(texts, annotator -> per document char spans or None)."""
    tokens, _ = random_annotations(3, 15, seed=21, nested=False, missing=0.3)
    texts, spans = [], {name: [] for name in NAMES}
    lengths = [max([s[1] for docs in tokens.values() if docs[i] for s in docs[i]] + [1]) + 2 for i in range(15)]
    for doc, n in enumerate(lengths):
        words = [f"d{doc}w{i}" for i in range(n)]
        starts = [sum(len(w) + 1 for w in words[:i]) for i in range(n)]
        texts.append(" ".join(words))
        for name in NAMES:
            entry = tokens[name][doc]
            spans[name].append(
                None
                if entry is None
                else sorted({(starts[s], starts[e - 1] + len(words[e - 1]), label) for s, e, label in entry})
            )
    return texts, spans


def figures(result):
    data = result.to_dict()
    return data["schemes"], data["tokens"], data["shared"]


def jsonl_files(tmp_path, corpus):
    texts, spans = corpus
    return [
        write_jsonl(
            tmp_path / f"{name}.jsonl",
            [
                {"text": text, "spans": [{"start": s, "end": e, "label": lab} for s, e, lab in entry]}
                for text, entry in zip(texts, spans[name])
                if entry is not None
            ],
        )
        for name in NAMES
    ]


def test_jsonl_files_give_the_figures_of_agreement(tmp_path, corpus):
    texts, spans = corpus
    expected = agreement(spans, schemes=SCHEMES, unit="char", lengths=[len(t) for t in texts])
    result = agree_files(jsonl_files(tmp_path, corpus), schemes=SCHEMES)
    assert result.annotators == tuple(NAMES)  # from the file names
    assert figures(result) == figures(expected)
    assert result.signature["read"]["format"] == "jsonl"


def test_doccano_files(tmp_path, corpus):
    texts, spans = corpus
    paths = [
        write_jsonl(
            tmp_path / f"{name}.jsonl",
            [
                {"text": text, "label": [[s, e, lab] for s, e, lab in entry]}
                for text, entry in zip(texts, spans[name])
                if entry is not None
            ],
        )
        for name in NAMES
    ]
    result = agree_files(paths, format="doccano", schemes=SCHEMES)
    assert figures(result) == figures(agree_files(jsonl_files(tmp_path, corpus), schemes=SCHEMES))


def test_brat_directories(tmp_path, corpus):
    texts, spans = corpus
    paths = []
    for name in NAMES:
        folder = tmp_path / "brat" / name
        folder.mkdir(parents=True)
        for doc, (text, entry) in enumerate(zip(texts, spans[name])):
            if entry is None:
                continue
            (folder / f"doc{doc}.txt").write_text(text, encoding="utf-8")
            lines = [f"T{i}\t{lab} {s} {e}\t{text[s:e]}" for i, (s, e, lab) in enumerate(entry, 1)]
            (folder / f"doc{doc}.ann").write_text("".join(line + "\n" for line in lines), encoding="utf-8")
        paths.append(folder)
    result = agree_files(paths, schemes=SCHEMES)
    assert result.annotators == tuple(NAMES)
    assert figures(result) == figures(agree_files(jsonl_files(tmp_path, corpus), schemes=SCHEMES))


def test_one_label_studio_export_with_three_annotators(tmp_path, corpus):
    texts, spans = corpus
    tasks = []
    for doc, text in enumerate(texts):
        annotations = []
        for number, name in enumerate(NAMES, 1):
            entry = spans[name][doc]
            if entry is None:
                if doc % 2:  # a cancelled annotation is no annotation
                    annotations.append({"completed_by": number, "was_cancelled": True, "result": []})
                continue
            annotations.append(
                {
                    "completed_by": number,
                    "result": [
                        {"type": "labels", "value": {"start": s, "end": e, "text": text[s:e], "labels": [lab]}}
                        for s, e, lab in entry
                    ],
                }
            )
        tasks.append({"id": 100 + doc, "data": {"text": text}, "annotations": annotations})
    path = tmp_path / "export.json"
    path.write_text(json.dumps(tasks), encoding="utf-8")
    result = agree_files([path], format="labelstudio", names="ann0,ann1,ann2", schemes=SCHEMES)
    assert figures(result) == figures(agree_files(jsonl_files(tmp_path, corpus), schemes=SCHEMES))
    cancelled = sum(1 for task in tasks for a in task["annotations"] if a.get("was_cancelled"))
    assert cancelled and result.notes["cancelled_annotations"] == cancelled
    assert agree_files(path, format="labelstudio", schemes=SCHEMES).annotators == ("1", "2", "3")


def test_prodigy_sessions(tmp_path, corpus):
    texts, spans = corpus
    records = []
    for doc, text in enumerate(texts):
        for name in NAMES:
            entry = spans[name][doc]
            answer = "accept" if entry is not None else "reject"  # only accept counts
            records.append(
                {
                    "text": text,
                    "_input_hash": doc,
                    "_session_id": f"ner-{name}",
                    "answer": answer,
                    "spans": [{"start": s, "end": e, "label": lab} for s, e, lab in entry or []],
                }
            )
    path = write_jsonl(tmp_path / "sessions.jsonl", records)
    result = agree_files(path, format="prodigy", names=NAMES, schemes=SCHEMES)
    assert figures(result) == figures(agree_files(jsonl_files(tmp_path, corpus), schemes=SCHEMES))


def test_one_jsonl_naming_annotators(tmp_path, corpus):
    texts, spans = corpus
    records = [
        {"text": text, "annotator": name, "spans": [{"start": s, "end": e, "label": lab} for s, e, lab in entry]}
        for name in NAMES
        for text, entry in zip(texts, spans[name])
        if entry is not None
    ]
    result = agree_files(write_jsonl(tmp_path / "all.jsonl", records), schemes=SCHEMES)
    assert result.annotators == tuple(NAMES)
    assert figures(result) == figures(agree_files(jsonl_files(tmp_path, corpus), schemes=SCHEMES))


def test_bad_files(tmp_path, corpus):
    paths = jsonl_files(tmp_path, corpus)
    with pytest.raises(SettingError, match="'names' gives 2 names for 3 annotators"):
        agree_files(paths, names="a,b", schemes=SCHEMES)
    with pytest.raises(SettingError, match="'names' gives the name 'a' twice"):
        agree_files(paths, names="a,a,b", schemes=SCHEMES)
    with pytest.raises(InputError, match='has no "annotator"'):
        agree_files(paths[0], schemes=SCHEMES)
    one = write_jsonl(tmp_path / "one.jsonl", [{"text": "a b", "annotator": "x", "spans": []}])
    with pytest.raises(SettingError, match="agreement needs at least 2"):
        agree_files(one, schemes=SCHEMES)
    with pytest.raises(SettingError, match="one conll input names no annotators"):
        agree_files(tmp_path / "x.conll", schemes=SCHEMES)


def test_a_text_given_twice_is_two_documents(tmp_path):
    from spacy_spanf1 import agree_files

    thanks = {"text": "Thanks!", "spans": [{"start": 0, "end": 6, "label": "X"}]}
    a = [thanks, {"text": "Bye.", "spans": []}, {"text": "Thanks!", "spans": []}]
    b = [thanks, {"text": "Bye.", "spans": []}, thanks]
    paths = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]
    for path, records in zip(paths, (a, b)):
        write_jsonl(path, records)
    result = agree_files(paths, schemes=["strict"])
    # By hand, b against a as gold: the first "Thanks!" matches (TP 1), the second is only b's (FP 1).
    counts = result.pairwise["strict"][("a", "b")].counts
    assert (counts["cor"], counts["spu"], counts["mis"]) == (1, 1, 0)
    assert result.shared[("a", "b")] == 3


def test_resample_by_resamples_the_groups_as_bootstrap_ci_does(tmp_path):
    """Two annotators sharing every document, grouped by a "doc" field:
    the pair's interval is bootstrap_ci's with those groups."""
    from helpers import random_annotations

    from spacy_spanf1 import bootstrap_ci, evaluate_spans

    annotations, lengths = random_annotations(2, 30, seed=12, missing=0.0, nested=False)
    groups = [f"g{doc // 4}" for doc in range(30)]  # documents 0-3, 4-7, ...: 8 groups
    paths = [
        write_jsonl(
            tmp_path / f"{name}.jsonl",
            [
                {
                    "text": " ".join(f"t{doc}.{i}" for i in range(n)),
                    "tokens": [f"t{doc}.{i}" for i in range(n)],
                    "doc": group,
                    "spans": [{"start": s, "end": e, "label": lab} for s, e, lab in spans],
                }
                for doc, (spans, n, group) in enumerate(zip(docs, lengths, groups))
            ],
        )
        for name, docs in annotations.items()
    ]
    result = agree_files(paths, unit="token", schemes="strict,overlap", bootstrap=200, seed=3, resample_by="doc")
    scored = evaluate_spans(annotations["ann0"], annotations["ann1"], schemes=["strict", "overlap"], per_doc=True)
    expected = bootstrap_ci(scored, n_resamples=200, seed=3, groups=groups)
    by_document = bootstrap_ci(scored, n_resamples=200, seed=3)
    for scheme in ("strict", "overlap"):
        got = result.intervals.pairwise[scheme][("ann0", "ann1")]
        assert got == expected[scheme].f
        assert got.unit == "group"
        assert got != by_document[scheme].f  # grouping changed the draws' units
    assert result.signature["analysis"]["resample_by"] == "doc"
    with pytest.raises(InputError, match="no metadata field 'genre'"):
        agree_files(paths, unit="token", schemes="strict", bootstrap=20, resample_by="genre")
    with pytest.raises(SettingError, match="give 'groups'"):
        agreement(annotations, schemes="strict", bootstrap=20, resample_by="doc")


def test_docbins_one_per_annotator(tmp_path):
    """spaCy DocBins, one per annotator, give the figures of the same spans as JSONL."""
    import spacy
    from spacy.tokens import DocBin

    from spacy_spanf1 import agree_files

    nlp = spacy.blank("en")
    texts = ["Ann Lee flew to New York .", "Bo met Cy ."]
    spans = {
        "a": [[(0, 2, "PER"), (4, 6, "LOC")], [(0, 1, "PER")]],
        "b": [[(0, 2, "PER"), (5, 6, "LOC")], [(0, 1, "PER"), (2, 3, "PER")]],
    }
    paths, jsonl = [], []
    for name, docs in spans.items():
        bin_ = DocBin()
        records = []
        for text, doc_spans in zip(texts, docs):
            doc = nlp(text)
            doc.ents = [spacy.tokens.Span(doc, s, e, label=label) for s, e, label in doc_spans]
            bin_.add(doc)
            records.append(
                {
                    "text": text,
                    "tokens": [t.text for t in doc],
                    "spans": [{"start": s, "end": e, "label": label} for s, e, label in doc_spans],
                }
            )
        path = tmp_path / f"{name}.spacy"
        bin_.to_disk(path)
        paths.append(path)
        jsonl.append(write_jsonl(tmp_path / f"{name}.jsonl", records))
    from_bins = agree_files(paths, schemes=["strict", "partial"])
    from_lines = agree_files(jsonl, schemes=["strict", "partial"], unit="token")
    for scheme in ("strict", "partial"):
        assert from_bins.pairwise[scheme][("a", "b")].counts == from_lines.pairwise[scheme][("a", "b")].counts
    # By hand, b against a under strict: PER right twice, LOC on other boundaries (INC), one PER spurious
    assert from_bins.pairwise["strict"][("a", "b")].counts == {"cor": 2, "inc": 1, "par": 0, "mis": 0, "spu": 1}
