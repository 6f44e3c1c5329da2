"""Errors that stream: the --errors file written a batch at a time, and the
--html page keeping only the documents it shows.

The streamed file must be the bytes the whole-corpus path writes
(`write_errors` of `error_records` over `compare_files(..., keep_errors=True)`),
and the page the one rendered from every error; what is kept of the
documents must not grow with the corpus (a property of the kept documents,
never a measurement of memory).
"""

import json
import random
from collections import Counter

import pytest
import srsly
from hypothesis import given, settings
from hypothesis import strategies as st

from helpers import COMPARE_JSONL, char_offsets, invoke, one_of, write_jsonl
from spacy_spanf1 import SCHEMES, Span
from spacy_spanf1.api import compare_files, evaluate_pipeline
from spacy_spanf1.cli.compare import compare_command
from spacy_spanf1.cli.evaluate import evaluate_model
from spacy_spanf1.corpus import ErrorStream, Keep, score_pairs
from spacy_spanf1.engine.scorer import BATCH_SIZE, SpanScorer
from spacy_spanf1.formats import DocPair, open_pairs
from spacy_spanf1.html.compare import render_html
from spacy_spanf1.report import RECORD_KEYS, SPAN_KEYS, ErrorFile, error_lines, error_records, json_string, write_errors

# Words that a JSON encoder must escape, or not: quotes, backslashes, a
# slash, DEL, tabs, accents, CJK, an emoji (a surrogate pair in \u escapes).
WORDS = ["alpha", "beta", 'qu"ote', "back\\slash", "a/b", "del\x7f", "tab\tx", "Zürich", "東京", "emoji😀", "<&>"]
LABELS = ["PER", "ORG", "LOC"]


def make_records(n, seed=0, skip_every=0, nested_every=0):
    """n gold and predicted JSONL records of a few words, with errors of
    every kind; every skip_every-th gold record has no annotation, every
    nested_every-th has overlapping gold spans (scored on its own)."""
    rng = random.Random(seed)
    gold_records, pred_records = [], []
    for i in range(n):
        words = [rng.choice(WORDS) for _ in range(rng.randint(3, 12))]
        offsets = char_offsets(words)
        text = " ".join(words)
        gold, pred = [], []
        k = 0
        while k < len(words):
            length = rng.choice((1, 1, 2))
            if k + length > len(words):
                break
            span = {"start": offsets[k][0], "end": offsets[k + length - 1][1], "label": rng.choice(LABELS)}
            gold.append(span)
            pred += one_of(
                rng,
                (50, [span]),
                (15, [dict(span, label=rng.choice(LABELS))]),
                (15, [dict(span, end=offsets[k][1] - 1)]),  # ends inside its first word
                (20, []),
            )
            k += length + rng.randint(0, 2)
        if rng.random() < 0.3:
            k = rng.randrange(len(words))
            pred.append({"start": offsets[k][0], "end": offsets[k][1], "label": rng.choice(LABELS)})
        if nested_every and i % nested_every == 1 and gold:
            gold.append({"start": 0, "end": len(text), "label": "LOC"})
        gold_record = {"text": text, "spans": sorted(gold, key=lambda s: (s["start"], s["end"], s["label"]))}
        if skip_every and i % skip_every == skip_every - 1:
            del gold_record["spans"]
        gold_records.append(gold_record)
        pred_records.append({"text": text, "spans": sorted(pred, key=lambda s: (s["start"], s["end"], s["label"]))})
    return gold_records, pred_records


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """300 documents, some skipped, some with overlapping gold spans."""
    root = tmp_path_factory.mktemp("small")
    gold, pred = make_records(300, seed=1, skip_every=17, nested_every=13)
    write_jsonl(root / "gold.jsonl", gold)
    write_jsonl(root / "pred.jsonl", pred)
    return root


@pytest.fixture(scope="module")
def large(tmp_path_factory):
    """More documents than a batch, so that the command streams several."""
    root = tmp_path_factory.mktemp("large")
    gold, pred = make_records(BATCH_SIZE * 2 + 100, seed=2, skip_every=101, nested_every=57)
    write_jsonl(root / "gold.jsonl", gold)
    write_jsonl(root / "pred.jsonl", pred)
    return root


def whole_file(root, scores, name="whole.jsonl"):
    """The bytes of the non-streaming path: every error kept, then written."""
    write_errors(root / name, error_records(scores.errors, scores.pairs, scores.primary))
    return (root / name).read_bytes()


def whole_page(scores, max_docs):
    """The page rendered from every error and every document with errors."""
    records = error_records(scores.errors, scores.pairs, scores.primary)
    return render_html(
        scores.to_dict(),
        list(scores.pairs.values()),
        records,
        sources=scores.sources,
        unit=scores.unit,
        max_docs=max_docs,
    )


def assert_streams_the_whole(root, whole, command, *sources, html_docs):
    """Run a command (compare's or evaluate's) on sources under strict with
    --errors and --html into root: the file is the bytes of the whole
    result's errors. Returns the page."""
    command(
        *sources,
        schemes="strict",
        errors_path=root / "e.jsonl",
        html_path=root / "r.html",
        html_docs=html_docs,
        silent=True,
    )
    assert (root / "e.jsonl").read_bytes() == whole_file(root, whole)
    return (root / "r.html").read_text(encoding="utf-8")


def shown_docs(page):
    return [int(part.split('"', 1)[0]) for part in page.split('<section class="doc" id="doc-')[1:]]


# --------------------------------------------------------------------------
# The streamed file is the whole-corpus file
# --------------------------------------------------------------------------


@pytest.mark.parametrize("primary", ["strict", "iou", "overlap"])
@pytest.mark.parametrize("batch_size", [1, 7, BATCH_SIZE])
def test_streamed_errors_are_the_whole_corpus_records(small, tmp_path, primary, batch_size):
    schemes = [primary] + [s for s in SCHEMES if s != primary]
    whole = compare_files(small / "gold.jsonl", small / "pred.jsonl", schemes=schemes, keep_errors=True)
    assert len(whole.errors) > 100 and whole.skipped > 0
    with ErrorFile(tmp_path / "streamed.jsonl") as sink:
        streamed = score_pairs(
            open_pairs(small / "gold.jsonl", small / "pred.jsonl"),
            schemes,
            batch_size=batch_size,
            keep_errors=True,
            max_error_docs=5,
            on_errors=sink,
        )
        sink.commit()
    assert (tmp_path / "streamed.jsonl").read_bytes() == whole_file(tmp_path, whole)
    assert sink.written == len(whole.errors)
    assert streamed.results == whole.results  # the counts (the batch size may reorder the labels of a sum)


def token_pairs(n, seed=3):
    """Documents in token unit (offsets into the text), spans of 1-3 tokens."""
    rng = random.Random(seed)
    pairs = []
    for i in range(n):
        words = [rng.choice(WORDS) for _ in range(8)]
        gold = sorted({Span(k, k + rng.randint(1, 3), rng.choice(LABELS)) for k in range(0, 6, 3)})
        pred = sorted(
            {
                Span(s.start, s.end - (rng.random() < 0.3), rng.choice(LABELS))
                for s in gold
                if s.end - s.start > 1 or rng.random() < 0.7
            }
            | {Span(6, 8, "PER")}
        )
        pairs.append(DocPair(i, f'doc "{i}"', gold, pred, " ".join(words), char_offsets(words)))
    return pairs


def test_error_lines_are_the_json_of_the_records(small):
    char = compare_files(small / "gold.jsonl", small / "pred.jsonl", schemes="overlap,strict", keep_errors=True)
    token = score_pairs(token_pairs(50), "overlap,strict", keep_errors=True)
    for scores in (char, token):
        records = error_records(scores.errors, scores.pairs, scores.primary)
        assert len(records) > 50
        assert error_lines(scores.errors, scores.pairs, scores.primary) == [srsly.json_dumps(r) for r in records]
    assert {pair.offsets is None for pair in char.pairs.values()} == {True}
    assert {pair.offsets is None for pair in token.pairs.values()} == {False}


def test_json_string_encodes_as_srsly():
    for code in range(128):
        assert json_string(chr(code)) == srsly.json_dumps(chr(code)), code
    for text in ["", "plain", 'a "quoted" back\\slash/and/slashes\n\t', "Zürich 東京 😀", "del\x7fx", "\u2028\x00"]:
        assert json_string(text) == srsly.json_dumps(text)


#: Characters of texts, names, labels and schemes: some a JSON encoder must
#: escape (quotes, backslashes, controls, DEL, non-ASCII, a pair of
#: surrogates in \u escapes), some it must not (a slash, <&>).
TRICKY = 'ab "\\/\x7f\t\n\x00\x1f\u00e9\u6771\U0001f600\u2028<&>'


@st.composite
def tricky_pairs(draw):
    """1-4 documents in char unit, gold and predicted spans anywhere in the text."""
    label = st.text(TRICKY, min_size=1, max_size=3)

    def spans(text):
        found = set()
        for start in draw(st.lists(st.integers(0, len(text) - 1), max_size=4)):
            found.add(Span(start, draw(st.integers(start + 1, len(text))), draw(label)))
        return sorted(found)

    pairs = []
    for i in range(draw(st.integers(1, 4))):
        text = draw(st.text(TRICKY, min_size=1, max_size=12))
        pairs.append(DocPair(i, draw(st.text(TRICKY, max_size=6)), spans(text), spans(text), text))
    return pairs


@settings(max_examples=80, deadline=None)
@given(pairs=tricky_pairs(), scheme=st.sampled_from(["strict", "overlap", "iou"]), name=st.text(TRICKY, max_size=5))
def test_every_error_line_is_the_json_of_its_record(pairs, scheme, name):
    # The fast writer against the one definition of a record (its keys, in
    # order, and its values): the same bytes as srsly.json_dumps of the dict,
    # whatever the text, labels, document names and the scheme's name.
    scores = score_pairs(pairs, scheme, keep_errors=True)
    records = error_records(scores.errors, scores.pairs, name)
    lines = error_lines(scores.errors, scores.pairs, name)
    assert lines == [srsly.json_dumps(record) for record in records]
    for record, line in zip(records, lines):
        assert tuple(record) == RECORD_KEYS
        assert all(tuple(span) == SPAN_KEYS for span in [record["gold"] or dict.fromkeys(SPAN_KEYS), *record["pred"]])
        parsed = json.loads(line)  # ujson writes 10 digits of a float: the scores are compared as written
        assert {k: v for k, v in parsed.items() if "iou" not in k and "coverage" not in k} == {
            k: v for k, v in record.items() if "iou" not in k and "coverage" not in k
        }
        pair = pairs[record["doc"]]
        assert all(
            span["text"] == pair.text[span["start"] : span["end"]] for span in [*record["pred"], record["gold"]] if span
        )


def test_compare_streams_the_same_file_and_page(large, monkeypatch):
    monkeypatch.chdir(large)
    result = invoke([*COMPARE_JSONL, "--errors", "out/e.jsonl", "--html", "out/r.html", "--html-docs", "7"])
    assert result.exit_code == 0, result.stderr
    whole = compare_files("gold.jsonl", "pred.jsonl", schemes="strict,iou", keep_errors=True)
    assert whole.scored > 2 * BATCH_SIZE
    assert (large / "out/e.jsonl").read_bytes() == whole_file(large, whole)
    assert f"Saved {len(whole.errors)} error records" in result.stdout
    assert not (large / "out/e.jsonl.partial").exists()
    page = (large / "out/r.html").read_text(encoding="utf-8")
    assert page == whole_page(whole, 7)


# --------------------------------------------------------------------------
# The page: at most html_docs documents, those with the most errors; the
# summaries count every error
# --------------------------------------------------------------------------


def test_the_page_shows_the_documents_with_most_errors(large, monkeypatch):
    monkeypatch.chdir(large)
    result = invoke(["compare", "gold.jsonl", "pred.jsonl", "-s", "strict", "--html", "r5.html", "--html-docs", "5"])
    assert result.exit_code == 0, result.stderr
    whole = compare_files("gold.jsonl", "pred.jsonl", schemes="strict", keep_errors=True)
    per_doc = Counter(whole.pairs[e.doc].index for e in whole.errors)
    expected = sorted(per_doc, key=lambda index: (-per_doc[index], index))[:5]
    page = (large / "r5.html").read_text(encoding="utf-8")
    assert shown_docs(page) == expected
    # the fifth place is a tie, broken by document order: not vacuous
    last = per_doc[expected[-1]]
    assert sum(n == last for n in per_doc.values()) > sum(per_doc[i] == last for i in expected)
    kinds = Counter(e.kind for e in whole.errors)
    for kind in ("missed", "spurious", "wrong_type", "wrong_boundaries", "low_overlap"):
        assert f'<tr><td class="kind">{kind}</td><td>{kinds.get(kind, 0)}</td></tr>' in page
    assert f"<tr><td>all</td><td>{len(whole.errors)}</td></tr>" in page
    assert f"<h2>Documents with errors ({len(per_doc)})</h2>" in page
    assert f"{len(per_doc) - 5} more left out" in page


def test_ties_go_to_the_earlier_document(tmp_path):
    # documents 0-5 have 1, 2, 2, 1, 2, 0 errors (missed gold spans); two are kept
    misses = [1, 2, 2, 1, 2, 0]
    pairs = [doc_pair(i, n) for i, n in enumerate(misses)]
    scores = score_pairs(pairs, "strict", keep_errors=True, max_error_docs=2, batch_size=2)
    assert list(scores.pairs) == [1, 2]
    assert scores.error_counts.documents == 5 and scores.error_counts.total == sum(misses)
    assert {e.doc for e in scores.errors} == {1, 2} and len(scores.errors) == 4


def doc_pair(index, misses, found=1):
    """A document whose gold spans are found `found` times and missed
    `misses` times (one missed error each)."""
    gold = [Span(2 * i, 2 * i + 1, "X") for i in range(misses + found)]
    return DocPair(index, f"doc {index}", gold, gold[misses:], "x " * (2 * len(gold) + 1))


# --------------------------------------------------------------------------
# Bounded: what is kept does not grow with the corpus
# --------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(
    misses=st.lists(st.integers(0, 4), min_size=1, max_size=60),
    k=st.integers(0, 6),
    batch_size=st.integers(1, 9),
)
def test_at_most_k_documents_are_kept(misses, k, batch_size):
    pairs = [doc_pair(i, n) for i, n in enumerate(misses)]
    whole = score_pairs(pairs, ["strict", "iou"], keep_errors=True)
    seen = []
    bounded = score_pairs(
        pairs,
        ["strict", "iou"],
        keep_errors=True,
        max_error_docs=k,
        batch_size=batch_size,
        on_errors=lambda errors, docs, scheme: seen.extend(errors),
    )
    with_errors = [i for i, n in enumerate(misses) if n]
    expected = sorted(with_errors, key=lambda i: (-misses[i], i))[:k]
    assert len(bounded.pairs) <= k
    assert sorted(bounded.pairs) == sorted(expected)
    assert bounded.errors == tuple(e for e in whole.errors if e.doc in bounded.pairs)
    assert tuple(seen) == whole.errors  # every error streamed, in order
    assert bounded.error_counts == whole.error_counts
    assert whole.error_counts.documents == len(with_errors) == len(whole.pairs)
    # only the primary scheme's errors of the kept documents stay
    assert bounded.results["iou"].kept is None and bounded.results["iou"].outcome_parts == ()


@settings(max_examples=40, deadline=None)
@given(misses=st.lists(st.integers(0, 4), min_size=1, max_size=80), k=st.integers(0, 5), batch_size=st.integers(1, 9))
def test_the_stream_never_holds_more_than_k_documents(misses, k, batch_size):
    scorer = SpanScorer(["strict"], keep_errors=True, batch_size=batch_size)
    stream = ErrorStream("strict", Keep(errors=True, max_error_docs=k))
    batch = {}
    for i, n in enumerate(misses):
        pair = doc_pair(i, n)
        batch[i] = pair
        scorer.add(pair.gold, pair.pred)
        if len(batch) == batch_size:
            stream.add(scorer.outcome_parts("strict"), batch)
            scorer.forget_outcomes()
            batch = {}
            assert len(stream.pairs) <= k and len(stream.parts) <= k and len(stream.heap) <= k
    scorer.flush()
    stream.add(scorer.outcome_parts("strict"), batch)
    assert len(stream.pairs) <= k and set(stream.parts) == set(stream.pairs)


def test_the_scorer_forgets_each_batchs_outcomes(monkeypatch):
    # bounded, the scorer holds the outcomes of one batch at a time, of any scheme
    import spacy_spanf1.corpus.stream as corpus

    held = []

    class Watched(SpanScorer):
        def outcome_parts(self, scheme, start=0):
            held.append(sum(len(part) for parts in self._outcomes.values() for _, part in parts))
            return super().outcome_parts(scheme, start)

    monkeypatch.setattr(corpus, "SpanScorer", Watched)
    pairs = [doc_pair(i, i % 3) for i in range(100)]
    score_pairs(pairs, ["strict", "iou"], keep_errors=True, max_error_docs=2, batch_size=10)
    bounded = max(held)
    held.clear()
    score_pairs(pairs, ["strict", "iou"], keep_errors=True, batch_size=10)
    assert bounded <= 2 * 10 * 2 < max(held)  # two schemes, at most 2 errors a document, 10 documents


def test_keep_errors_alone_keeps_everything(small):
    # the Python API: keep_errors=True without a limit holds every error and document
    scores = compare_files(small / "gold.jsonl", small / "pred.jsonl", schemes="strict", keep_errors=True)
    per_doc = Counter(e.doc for e in scores.errors)
    assert set(scores.pairs) == set(per_doc) and len(per_doc) > 200
    assert scores.error_counts.total == len(scores.errors) and scores.error_counts.documents == len(per_doc)
    bounded = compare_files(
        small / "gold.jsonl", small / "pred.jsonl", schemes="strict", keep_errors=True, max_error_docs=3
    )
    assert len(bounded.pairs) == 3 and bounded.error_counts == scores.error_counts


def test_max_error_docs_is_checked(small):
    from spacy_spanf1.exceptions import SettingError

    with pytest.raises(SettingError, match="max_error_docs"):
        compare_files(small / "gold.jsonl", small / "pred.jsonl", schemes="strict", keep_errors=True, max_error_docs=-1)


# --------------------------------------------------------------------------
# A failed run writes no file; evaluate and sharded input stream too
# --------------------------------------------------------------------------


def test_a_failed_run_leaves_the_older_file(large, tmp_path, monkeypatch):
    # the bad record comes after a batch of errors was written
    monkeypatch.chdir(tmp_path)
    lines = (large / "pred.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    bad = BATCH_SIZE + 10
    lines[bad] = json.dumps({"text": "another text", "spans": []}) + "\n"
    (tmp_path / "gold.jsonl").write_bytes((large / "gold.jsonl").read_bytes())
    (tmp_path / "bad.jsonl").write_text("".join(lines), encoding="utf-8")
    (tmp_path / "e.jsonl").write_text("older\n", encoding="utf-8")
    result = invoke(["compare", "gold.jsonl", "bad.jsonl", "-s", "strict", "--errors", "e.jsonl"])
    assert result.exit_code == 1 and f"bad.jsonl:{bad + 1}:" in result.stderr, result.stderr
    assert (tmp_path / "e.jsonl").read_text(encoding="utf-8") == "older\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.jsonl", "e.jsonl", "gold.jsonl"]


def test_sharded_compare_streams_after_the_merge(small, tmp_path):
    gold = (small / "gold.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    pred = (small / "pred.jsonl").read_text(encoding="utf-8").splitlines(keepends=True)
    for side, lines in (("gold", gold), ("pred", pred)):
        (tmp_path / side).mkdir()
        for k in range(3):
            (tmp_path / side / f"part-{k}.jsonl").write_text("".join(lines[k * 100 : (k + 1) * 100]), encoding="utf-8")
    whole = compare_files(tmp_path / "gold", tmp_path / "pred", schemes="strict", keep_errors=True)
    page = assert_streams_the_whole(tmp_path, whole, compare_command, tmp_path / "gold", tmp_path / "pred", html_docs=4)
    assert page == whole_page(whole, 4)
    # --html alone: each shard keeps its own few documents, the merge the most of those
    compare_command(
        tmp_path / "gold", tmp_path / "pred", schemes="strict", html_path=tmp_path / "r2.html", html_docs=4, silent=True
    )
    assert (tmp_path / "r2.html").read_text(encoding="utf-8") == whole_page(whole, 4)
    bounded = compare_files(tmp_path / "gold", tmp_path / "pred", schemes="strict", keep_errors=True, max_error_docs=4)
    assert len(bounded.pairs) == 4 and bounded.error_counts == whole.error_counts


def test_evaluate_streams_the_same_file_and_page(tmp_path):
    import spacy
    from spacy.tokens import DocBin
    from spacy.tokens import Span as SpacySpan

    nlp = spacy.blank("en")
    nlp.add_pipe("entity_ruler").add_patterns(
        [{"label": "PER", "pattern": "Ann"}, {"label": "LOC", "pattern": "Rome"}, {"label": "ORG", "pattern": "Lee"}]
    )
    nlp.to_disk(tmp_path / "model")
    docs = []
    for i in range(40):
        doc = nlp.make_doc(["Ann Lee met Bob in Rome .", "Bob saw Ann .", "Lee and Bob left Rome ."][i % 3])
        doc.ents = [SpacySpan(doc, 0, 1, label="PER")] + (
            [SpacySpan(doc, len(doc) - 2, len(doc) - 1, label="GPE")] if i % 2 else []
        )
        docs.append(doc)
    DocBin(docs=docs).to_disk(tmp_path / "dev.spacy")
    # the ruler's LOC and ORG are labels the gold (PER, GPE) has not
    with pytest.warns(UserWarning, match="never occurs in the gold"):
        whole = evaluate_pipeline(str(tmp_path / "model"), tmp_path / "dev.spacy", schemes="strict", keep_errors=True)
    assert whole.error_counts.documents > 3
    page = assert_streams_the_whole(
        tmp_path, whole, evaluate_model, str(tmp_path / "model"), tmp_path / "dev.spacy", html_docs=3
    )
    assert page == whole_page(whole, 3) and len(shown_docs(page)) == 3
