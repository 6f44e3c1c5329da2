"""Benchmark: spacy-spanf1 against the tools it replaces, on one synthetic corpus.

    python benchmarks/bench.py                       # 10,000 and 100,000 docs, 5 runs
    python benchmarks/bench.py --sizes 500 --runs 1 --stream 2000   # smoke test

What it does, per corpus size:

1. Generates the corpus deterministically (seeded): 20-40 tokens a document,
   about 4.6 gold spans over 6 labels, and predictions derived from the gold
   spans with a realistic error mix (exact, shifted boundaries, wrong label,
   split, merged, missed, spurious). Spans never overlap within a document
   and no two spans of one label touch (Presidio's IO tags could not tell
   them apart).
2. Converts it once, outside any timed region, to each tool's input: spaCy
   Docs (words "w123", BIO ents), nervaluate dicts (inclusive ends), seqeval
   IOB2 tag lists, Presidio's token DataFrame, the Feedback Prize frames,
   and flat (doc, start, end, label) tuples.
3. Checks that the figures agree (strict F1 = spaCy's ents_f; SemEval counts
   = nervaluate's; iou counts = Presidio's; overlap counts = the Feedback
   Prize metric; evaluate_tags = seqeval's report) and stops before any
   timing if they do not. This round is also the warm-up.
4. Times every reference and spacy-spanf1 in turn (A B C ... A B C ...),
   `--runs` times each, and keeps the medians.

Then it prints one table of medians, the ratio of each spacy-spanf1 timing to
its reference against the targets, the growth from the smallest to the
largest size, and peak memory: for `--stream N`, a generator of N documents
(and of N/10) is scored in a fresh subprocess and its peak RSS is reported
beyond the interpreter + spaCy + spacy-spanf1 baseline.

With SPANF1_BENCH_CLOCK=cpu in the environment the timed regions read
time.process_time (this process's CPU time) instead of the wall clock.

The reference libraries come from the dev extra (`pip install -e ".[dev]"`).
"""

import cProfile
import gc
import io
import json
import os
import platform
import pstats
import random
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from dataclasses import dataclass
from importlib import metadata
from itertools import tee
from pathlib import Path
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence, Tuple

import typer
from wasabi import Printer

msg = Printer(line_max=100)
msg.show_color = msg.show_color and sys.stdout.isatty()  # plain text in logs

from spacy_spanf1 import SCHEMES  # noqa: E402 (the one list of scheme names)

# The path of the reference libraries installed apart (benchmarks/common.py);
# the Feedback Prize metric in pandas and the tag conversion (transcriptions/,
# at the top of the checkout, shared with the tests).
for folder in (Path(__file__).resolve().parent, Path(__file__).resolve().parent.parent):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))
from common import clock, find_references  # noqa: E402
from transcriptions.feedback_prize import OVERLAP_THRESHOLD, feedback_prize, feedback_prize_frames  # noqa: E402
from transcriptions.tags import iob2  # noqa: E402

find_references()

SEMEVAL = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
LABELS = ("PER", "ORG", "LOC", "DATE", "PRODUCT", "EVENT")
LABEL_WEIGHTS = (0.30, 0.24, 0.20, 0.13, 0.08, 0.05)
SPAN_LENGTHS = (1, 1, 1, 2, 2, 2, 2, 3, 3, 4)
GAPS = (0, 1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8, 11)  # tokens before each gold span
IOU_THRESHOLD = 0.5
TOLERANCE = 1e-12  # for float figures computed by two different programs
STREAM_LIMIT_MB = 300.0

# Names accepted by --skip, and what each one covers.
REFERENCES = {
    "spacy": "spaCy get_ner_prf (fresh and cached) and Scorer.score_spans",
    "nervaluate": "nervaluate 1.2.1 Evaluator",
    "seqeval": "seqeval 1.2.2 classification_report (default and strict modes)",
    "presidio": "presidio-evaluator 0.3.2 SpanEvaluator",
    "pandas": "the Feedback Prize pandas overlap metric",
    "set": "plain set intersection (strict only)",
}

Span = Tuple[int, int, str]


# --------------------------------------------------------------------------
# The corpus
# --------------------------------------------------------------------------


def _fits(span: Span, accepted: List[Span], n_tokens: int) -> bool:
    """Whether a span lies in the document, overlaps no accepted span and
    touches no accepted span of its own label."""
    start, end, label = span
    if start < 0 or end > n_tokens or start >= end:
        return False
    for s, e, lab in accepted:
        if start < e and s < end:
            return False
        if lab == label and (e == start or end == s):
            return False
    return True


def _other_label(rng: random.Random, label: str) -> str:
    return rng.choice([lab for lab in LABELS if lab != label])


def make_doc(rng: random.Random, tally: Dict[str, int]) -> Tuple[int, List[Span], List[Span]]:
    """(n_tokens, gold, pred) of one document, spans sorted; `tally` counts
    what was done to each gold span."""
    n = rng.randint(20, 40)
    gold: List[Span] = []
    pos = rng.choice(GAPS)
    while True:
        length = rng.choice(SPAN_LENGTHS)
        if pos + length > n:
            break
        label = rng.choices(LABELS, LABEL_WEIGHTS)[0]
        if gold and gold[-1][1] == pos and gold[-1][2] == label:
            label = _other_label(rng, label)
        gold.append((pos, pos + length, label))
        pos += length + rng.choice(GAPS)
    candidates: List[Span] = []
    i = 0
    while i < len(gold):
        s, e, label = gold[i]
        r = rng.random()
        if r < 0.75:
            kind = "exact"
            candidates.append((s, e, label))
        elif r < 0.83:
            kind = "boundary"
            ds, de = rng.choice(((-1, 0), (1, 0), (0, -1), (0, 1), (-1, 1), (1, 1), (-1, -1)))
            if e - s == 1 and s + ds >= e + de:
                ds, de = 0, 1
            candidates.append((s + ds, e + de, label))
        elif r < 0.89:
            kind = "label"
            candidates.append((s, e, _other_label(rng, label)))
        elif r < 0.92 and e - s >= 2:
            kind = "split"
            cut = rng.randint(s + 1, e - 1)
            candidates.append((s, cut, label))
            candidates.append((cut, e, _other_label(rng, label)))
        elif r < 0.95 and i + 1 < len(gold) and gold[i + 1][0] - e <= 2:
            kind = "merged"
            candidates.append((s, gold[i + 1][1], label))
            i += 1
        elif r < 0.95:  # no room to split or merge: one token too many
            kind = "boundary"
            candidates.append((s, e + 1, label))
        else:
            kind = "missed"
        tally[kind] = tally.get(kind, 0) + 1
        i += 1
    r = rng.random()
    for _ in range(0 if r < 0.5 else 1 if r < 0.9 else 2):
        start = rng.randrange(n)
        candidates.append((start, start + rng.choice((1, 1, 2)), rng.choices(LABELS, LABEL_WEIGHTS)[0]))
        tally["spurious"] = tally.get("spurious", 0) + 1
    pred: List[Span] = []
    for span in candidates:  # most important first; clashing ones are dropped
        if _fits(span, pred, n):
            pred.append(span)
        else:
            tally["dropped"] = tally.get("dropped", 0) + 1
    return n, sorted(gold), sorted(pred)


@dataclass
class Corpus:
    lengths: List[int]
    gold: List[List[Span]]
    pred: List[List[Span]]
    tally: Dict[str, int]

    @property
    def stats(self) -> Dict[str, int]:
        return {
            "docs": len(self.lengths),
            "tokens": sum(self.lengths),
            "gold_spans": sum(len(d) for d in self.gold),
            "pred_spans": sum(len(d) for d in self.pred),
        }


def make_corpus(n_docs: int, seed: int) -> Corpus:
    rng = random.Random(seed)
    tally: Dict[str, int] = {}
    lengths, gold, pred = [], [], []
    for _ in range(n_docs):
        n, g, p = make_doc(rng, tally)
        lengths.append(n)
        gold.append(g)
        pred.append(p)
    return Corpus(lengths, gold, pred, tally)


def stream_docs(n_docs: int, seed: int) -> Iterator[Tuple[List[Span], List[Span]]]:
    """The same documents as make_corpus, one (gold, pred) pair at a time."""
    rng = random.Random(seed)
    tally: Dict[str, int] = {}
    for _ in range(n_docs):
        _, g, p = make_doc(rng, tally)
        yield g, p


# --------------------------------------------------------------------------
# Conversions (never timed)
# --------------------------------------------------------------------------


def words_of(doc: int, n: int) -> List[str]:
    return [f"w{(doc * 7919 + i * 104729) % 10000}" for i in range(n)]


def io_tags(spans: Sequence[Span], n: int) -> List[str]:
    tags = ["O"] * n
    for start, end, label in spans:
        for i in range(start, end):
            tags[i] = label
    return tags


def to_spacy(corpus: Corpus) -> List[Tuple[Any, Any]]:
    """(predicted Doc, reference Doc) pairs sharing one tokenization."""
    from spacy.tokens import Doc
    from spacy.vocab import Vocab

    vocab = Vocab()
    pairs = []
    for i, (n, gold, pred) in enumerate(zip(corpus.lengths, corpus.gold, corpus.pred)):
        words = words_of(i, n)
        reference = Doc(vocab, words=words, ents=iob2(n, gold))
        predicted = Doc(vocab, words=words, ents=iob2(n, pred))
        pairs.append((predicted, reference))
    return pairs


def to_nervaluate(docs: List[List[Span]]) -> List[List[Dict[str, Any]]]:
    return [[{"label": lab, "start": s, "end": e - 1} for s, e, lab in doc] for doc in docs]


def to_presidio_frame(corpus: Corpus):
    import pandas as pd

    rows = []
    for i, (n, gold, pred) in enumerate(zip(corpus.lengths, corpus.gold, corpus.pred)):
        offset = 0
        for word, g, p in zip(words_of(i, n), io_tags(gold, n), io_tags(pred, n)):
            rows.append((i, word, offset, g, p))
            offset += len(word) + 1
    return pd.DataFrame(rows, columns=["sentence_id", "token", "start_indices", "annotation", "prediction"])


def to_feedback_frames(corpus: Corpus):
    """(pred_df, gt_df) as the Feedback Prize metric reads them."""
    return feedback_prize_frames(corpus.gold, corpus.pred)


def to_flat(docs: List[List[Span]]) -> List[Tuple[int, int, int, str]]:
    return [(i, s, e, lab) for i, doc in enumerate(docs) for s, e, lab in doc]


# --------------------------------------------------------------------------
# References written here
# --------------------------------------------------------------------------


def set_strict(gold_flat, pred_flat) -> Dict[str, float]:
    """Strict P/R/F by plain set intersection over (doc, start, end, label)."""
    gold, pred = set(gold_flat), set(pred_flat)
    tp = len(gold & pred)
    p = tp / len(pred) if pred else 0.0
    r = tp / len(gold) if gold else 0.0
    return {"tp": tp, "p": p, "r": r, "f": 2 * p * r / (p + r) if p + r else 0.0}


# --------------------------------------------------------------------------
# What is timed
# --------------------------------------------------------------------------


@dataclass
class Task:
    key: str
    title: str
    run: Callable[[Any], Any]
    setup: Optional[Callable[[], Any]] = None  # builds the argument, untimed
    ours: bool = False


ROW_ORDER = [
    "get_ner_prf_fresh",
    "get_ner_prf_cached",
    "score_spans_fresh",
    "nervaluate",
    "seqeval_default",
    "seqeval_strict",
    "presidio",
    "pandas_overlap",
    "set_strict",
    "scorer_fresh",
    "scorer_cached",
    "evaluate_spans",
    "tags_conll",
    "tags_strict",
]

# How the target lines name each timed row.
TARGET_LABELS = {
    "scorer_fresh": "scorer (6 schemes, fresh Examples)",
    "get_ner_prf_fresh": "get_ner_prf (fresh Examples)",
    "scorer_cached": "scorer (6 schemes, cached Examples)",
    "get_ner_prf_cached": "get_ner_prf (alignment cached)",
    "evaluate_spans": "evaluate_spans (6 schemes)",
    "nervaluate": "nervaluate (4)",
    "presidio": "presidio-evaluator (iou)",
    "pandas_overlap": "Feedback Prize pandas (overlap)",
    "tags_conll": "evaluate_tags (conll)",
    "seqeval_default": "seqeval classification_report (default)",
    "tags_strict": "evaluate_tags (strict IOB2)",
    "seqeval_strict": "seqeval classification_report (strict IOB2)",
}
# (id, ours, reference, kind, bound, label of ours, label of the reference)
TARGETS = [
    (tid, ours, ref, kind, bound, TARGET_LABELS[ours], TARGET_LABELS[ref])
    for tid, ours, ref, kind, bound in [
        ("1a", "scorer_fresh", "get_ner_prf_fresh", "at_most", 0.5),
        ("1b", "scorer_cached", "get_ner_prf_cached", "at_most", 1.0),
        ("2a", "evaluate_spans", "nervaluate", "faster", 20.0),
        ("2b", "evaluate_spans", "presidio", "faster", 1000.0),
        ("2c", "evaluate_spans", "pandas_overlap", "faster", 20.0),
        ("3a", "tags_conll", "seqeval_default", "faster", 20.0),
        ("3b", "tags_strict", "seqeval_strict", "faster", 20.0),
    ]
]
# Shown for information; no target.
CONTEXT = [
    ("scorer_fresh", "score_spans_fresh", "scorer (6 schemes, fresh)", "Scorer.score_spans (fresh)"),
    ("evaluate_spans", "set_strict", "evaluate_spans (6 schemes)", "set intersection (strict only)"),
]
SCALED = ["scorer_fresh", "scorer_cached", "evaluate_spans", "tags_conll", "tags_strict"]


def load_evaluate_tags() -> Tuple[Optional[Callable], str]:
    """evaluate_tags, or None and the reason it is left out (printed)."""
    try:
        from spacy_spanf1.tags import evaluate_tags
    except Exception as err:  # a file being written may not import yet
        return None, f"importing spacy_spanf1.tags failed: {err!r}"
    return evaluate_tags, ""


def build_tasks(
    corpus: Corpus, skip: Sequence[str], with_presidio: bool, evaluate_tags
) -> Tuple[List[Task], Dict[str, Any]]:
    """The timed tasks of one corpus size and the inputs they close over."""
    from spacy.scorer import Scorer, get_ner_prf
    from spacy.training import Example

    from spacy_spanf1 import evaluate_spans
    from spacy_spanf1.integrations.spacy import make_spanf1_scorer_v1

    tasks: List[Task] = []
    pairs = to_spacy(corpus)
    gold, pred = corpus.gold, corpus.pred

    def fresh_examples():
        return [Example(p, r) for p, r in pairs]

    cached = fresh_examples()
    scorer = make_spanf1_scorer_v1(schemes=list(SCHEMES))
    inputs: Dict[str, Any] = {"cached": cached, "fresh": fresh_examples}

    if "spacy" not in skip:
        tasks += [
            Task("get_ner_prf_fresh", "spaCy get_ner_prf, fresh Examples", get_ner_prf, fresh_examples),
            Task("get_ner_prf_cached", "spaCy get_ner_prf, alignment cached", lambda _: get_ner_prf(cached)),
            Task(
                "score_spans_fresh",
                'spaCy Scorer.score_spans(egs, "ents"), fresh',
                lambda egs: Scorer.score_spans(egs, "ents"),
                fresh_examples,
            ),
        ]
    if "nervaluate" not in skip:
        from nervaluate import Evaluator

        true_dicts, pred_dicts = to_nervaluate(gold), to_nervaluate(pred)
        tasks.append(
            Task(
                "nervaluate",
                "nervaluate Evaluator(...).evaluate() (4 strategies)",
                lambda _: Evaluator(true_dicts, pred_dicts, tags=list(LABELS), loader="dict").evaluate(),
            )
        )
    y_true = [iob2(n, d) for d, n in zip(gold, corpus.lengths)]
    y_pred = [iob2(n, d) for d, n in zip(pred, corpus.lengths)]
    if "seqeval" not in skip:
        from seqeval.metrics import classification_report
        from seqeval.scheme import IOB2

        tasks += [
            Task(
                "seqeval_default",
                "seqeval classification_report (default mode)",
                lambda _: classification_report(y_true, y_pred, output_dict=True),
            ),
            Task(
                "seqeval_strict",
                "seqeval classification_report (strict, IOB2)",
                lambda _: classification_report(y_true, y_pred, output_dict=True, mode="strict", scheme=IOB2),
            ),
        ]
    if with_presidio:
        from presidio_evaluator.evaluation import SpanEvaluator

        frame = to_presidio_frame(corpus)
        tasks.append(
            Task(
                "presidio",
                "presidio-evaluator SpanEvaluator (token IoU)",
                lambda _: SpanEvaluator(
                    iou_threshold=IOU_THRESHOLD, char_based=False, skip_words=[]
                ).calculate_score_on_df(frame, level="entity"),
            )
        )
    if "pandas" not in skip:
        pred_df, gt_df = to_feedback_frames(corpus)
        tasks.append(
            Task("pandas_overlap", "Feedback Prize pandas metric (overlap)", lambda _: feedback_prize(pred_df, gt_df))
        )
    if "set" not in skip:
        gold_flat, pred_flat = to_flat(gold), to_flat(pred)
        tasks.append(
            Task(
                "set_strict", "set intersection of (doc, start, end, label)", lambda _: set_strict(gold_flat, pred_flat)
            )
        )
    tasks += [
        Task("scorer_fresh", "scorer, 6 schemes, fresh Examples", scorer, fresh_examples, ours=True),
        Task("scorer_cached", "scorer, 6 schemes, cached Examples", lambda _: scorer(cached), ours=True),
        Task(
            "evaluate_spans",
            "evaluate_spans, 6 schemes, span lists",
            lambda _: evaluate_spans(
                gold, pred, schemes=list(SCHEMES), iou_threshold=IOU_THRESHOLD, overlap_threshold=OVERLAP_THRESHOLD
            ),
            ours=True,
        ),
    ]
    if evaluate_tags is not None:
        tasks += [
            Task(
                "tags_conll",
                'evaluate_tags(mode="conll")',
                lambda _: evaluate_tags(y_true, y_pred, mode="conll"),
                ours=True,
            ),
            Task(
                "tags_strict",
                'evaluate_tags(mode="strict", scheme="IOB2")',
                lambda _: evaluate_tags(y_true, y_pred, mode="strict", scheme="IOB2"),
                ours=True,
            ),
        ]
    order = {key: i for i, key in enumerate(ROW_ORDER)}
    tasks.sort(key=lambda t: order[t.key])
    return tasks, inputs


def call(task: Task) -> Any:
    return task.run(task.setup() if task.setup else None)


# --------------------------------------------------------------------------
# Agreement
# --------------------------------------------------------------------------


def _close(a: float, b: float) -> bool:
    return a is not None and b is not None and abs(a - b) <= TOLERANCE


def check_agreement(results: Dict[str, Any]) -> Tuple[List[str], List[str]]:
    """(what was checked, what disagrees), from the warm-up results."""
    checked: List[str] = []
    problems: List[str] = []
    spans = results["evaluate_spans"]
    ours = results["scorer_fresh"]
    cached = results["scorer_cached"]

    # The two entry points of the engine agree with each other.
    if ours != cached:
        problems.append("scorer: fresh and cached Examples give different scores")
    strict = spans["strict"]
    if not _close(strict.f1, ours["ents_f"]) or ours["ents_strict_counts"] != strict.counts:
        problems.append(
            f"strict: evaluate_spans F1 {strict.f1!r} / counts {strict.counts} differ from the "
            f"scorer's ents_f {ours['ents_f']!r} / {ours['ents_strict_counts']}"
        )
    for scheme in SCHEMES:
        if ours[f"ents_{scheme}_counts"] != spans[scheme].counts:
            problems.append(
                f"{scheme}: the scorer's counts {ours[f'ents_{scheme}_counts']} "
                f"differ from evaluate_spans' {spans[scheme].counts}"
            )

    bit_equal = True
    for key in ("get_ner_prf_fresh", "get_ner_prf_cached", "score_spans_fresh"):
        if key not in results:
            continue
        ref = results[key]
        for name in ("ents_p", "ents_r", "ents_f"):
            if not _close(ours[name], ref[name]):
                problems.append(f"strict: scorer {name} {ours[name]!r} != spaCy {key} {ref[name]!r}")
            bit_equal = bit_equal and ours[name] == ref[name]
        if set(ours["ents_per_type"]) != set(ref["ents_per_type"]):
            problems.append(
                f"strict: labels {sorted(ours['ents_per_type'])} != spaCy {key} {sorted(ref['ents_per_type'])}"
            )
        else:
            for label, prf in ref["ents_per_type"].items():
                mine = ours["ents_per_type"][label]
                if not all(_close(mine[k], prf[k]) for k in ("p", "r", "f")):
                    problems.append(f"strict {label}: scorer {mine} != spaCy {key} {prf}")
    if "get_ner_prf_fresh" in results:
        checked.append(
            "strict P/R/F = spaCy get_ner_prf and Scorer.score_spans"
            + (" (bit-equal)" if bit_equal else f" (within {TOLERANCE:g})")
        )

    if "set_strict" in results:
        ref = results["set_strict"]
        if strict.counts["cor"] != ref["tp"] or not _close(strict.f1, ref["f"]):
            problems.append(
                f"strict: COR {strict.counts['cor']} / F1 {strict.f1!r} != set "
                f"intersection TP {ref['tp']} / F1 {ref['f']!r}"
            )
        checked.append("strict COR = set intersection")

    if "nervaluate" in results:
        ref = results["nervaluate"]
        for scheme, name in SEMEVAL.items():
            r = ref["overall"][name]
            theirs = {"cor": r.correct, "inc": r.incorrect, "par": r.partial, "mis": r.missed, "spu": r.spurious}
            if spans[scheme].counts != theirs:
                problems.append(f"{scheme}: counts {spans[scheme].counts} != nervaluate {name} {theirs}")
            for label, res in ref["entities"].items():
                r = res[name]
                theirs = (r.correct, r.incorrect, r.partial, r.missed, r.spurious)
                c = spans[scheme].per_type.get(label)
                mine = (c.cor, c.inc, c.par, c.mis, c.spu) if c is not None else None
                if mine != theirs:
                    problems.append(f"{scheme} {label}: counts {mine} != nervaluate {name} {theirs}")
        checked.append("SemEval counts (overall and per label) = nervaluate")

    if "presidio" in results:
        ref = {
            label: (m.true_positives, m.num_predicted, m.num_annotated)
            for label, m in results["presidio"].per_type.items()
        }
        mine = {label: (c.tp, c.tp + c.fp, c.tp + c.fn) for label, c in spans["iou"].per_type.items()}
        if mine != ref:
            problems.append(f"iou: per-label (TP, predicted, annotated) {mine} != presidio {ref}")
        checked.append("iou per-label TP/predicted/annotated = presidio")

    if "pandas_overlap" in results:
        ref = results["pandas_overlap"]
        mine = {label: (c.tp, c.fp, c.fn) for label, c in spans["overlap"].per_type.items()}
        if mine != ref:
            problems.append(f"overlap: per-label (TP, FP, FN) {mine} != Feedback Prize {ref}")
        checked.append("overlap per-label TP/FP/FN = Feedback Prize pandas")

    for ours_key, ref_key, mode in (
        ("tags_conll", "seqeval_default", "conll"),
        ("tags_strict", "seqeval_strict", "strict IOB2"),
    ):
        if ours_key in results and ref_key in results:
            problems += _compare_reports(results[ours_key].to_dict(), results[ref_key], mode)
            checked.append(f"evaluate_tags {mode} = seqeval report")
    return checked, problems


def _compare_reports(mine: Dict[str, Dict[str, Any]], ref: Dict[str, Dict[str, Any]], mode: str) -> List[str]:
    if list(mine) != list(ref):
        return [f"tags {mode}: report rows {list(mine)} != seqeval {list(ref)}"]
    problems = []
    for row, theirs in ref.items():
        m = mine[row]
        same = (
            set(m) == set(theirs)
            and m["support"] == theirs["support"]
            and all(_close(m[k], float(theirs[k])) for k in ("precision", "recall", "f1-score"))
        )
        if not same:
            problems.append(f"tags {mode} {row}: {m} != seqeval {dict(theirs)}")
    return problems


# --------------------------------------------------------------------------
# Memory
# --------------------------------------------------------------------------


def rss_mb() -> float:
    """Peak resident set size of this process so far, in MB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 2**20 if sys.platform == "darwin" else peak / 1024


def _proc_status_mb(field: str) -> Optional[float]:
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith(field + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def reset_peak_rss() -> Tuple[float, str]:
    """(current RSS in MB, how the peak will be read). On Linux the
    high-water mark VmHWM is reset to the current RSS (/proc/self/clear_refs),
    so the import's own transient peak does not hide what comes after. Not
    ru_maxrss: Linux carries it over from the parent process across exec."""
    current = _proc_status_mb("VmRSS")
    if current is not None:
        try:
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")
            return current, "VmHWM"
        except OSError:
            return current, "VmHWM (not reset: includes the import's peak)"
    return rss_mb(), "ru_maxrss"


def stream_child(n_docs: int, seed: int) -> None:
    """Run in a fresh interpreter: score a generator of n_docs documents and
    print, as JSON, the peak RSS beyond the baseline (the interpreter with
    spaCy and spacy-spanf1 imported)."""
    import spacy  # noqa: F401
    import spacy_spanf1.integrations.spacy  # noqa: F401
    from spacy_spanf1 import evaluate_spans

    gc.collect()
    baseline, how = reset_peak_rss()
    gold, pred = tee(stream_docs(n_docs, seed))  # tee holds at most one pair
    start = time.perf_counter()
    result = evaluate_spans(
        (g for g, _ in gold),
        (p for _, p in pred),
        schemes=list(SCHEMES),
        iou_threshold=IOU_THRESHOLD,
        overlap_threshold=OVERLAP_THRESHOLD,
    )
    seconds = time.perf_counter() - start
    peak = _proc_status_mb("VmHWM") if how.startswith("VmHWM") else rss_mb()
    print(
        json.dumps(
            {
                "docs": n_docs,
                "baseline_mb": baseline,
                "peak_mb": peak,
                "beyond_baseline_mb": peak - baseline,
                "measured_with": how,
                "seconds": seconds,
                "engine": engine_revision(),
                "strict_counts": result["strict"].counts,
            }
        )
    )


def run_stream(n_docs: int, seed: int) -> Dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--stream-child", str(n_docs), "--seed", str(seed)],
        capture_output=True,
        text=True,
    )
    if proc.returncode != 0:
        msg.fail(f"Streaming {n_docs:,} documents failed", proc.stderr[-3000:], exits=1)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def traced_peak_mb(fn: Callable[[], Any]) -> float:
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


# --------------------------------------------------------------------------
# Reporting
# --------------------------------------------------------------------------


def status(ok: bool, text: str) -> None:
    """One unwrapped line, so that logs can be grepped."""
    print(("\u2714 met: " if ok else "\u2718 NOT met: ") + text)


def fmt_s(seconds: Optional[float]) -> str:
    if seconds is None:
        return "-"
    return f"{seconds:.3g}" if seconds >= 0.001 else f"{seconds:.2g}"


def fmt_x(ratio: float) -> str:
    return f"{ratio:,.0f}" if ratio >= 100 else f"{ratio:.1f}" if ratio >= 1 else f"{ratio:.2f}"


def target_line(target, medians: Dict[str, float], times: Dict[str, List[float]]) -> Optional[Dict[str, Any]]:
    """The ratio of the medians against its target, and, as a measure of
    noise, the median and range of the ratios of the runs taken in the same
    round (run i of ours against run i of the reference)."""
    tid, ours, ref, kind, bound, ours_label, ref_label = target
    if ours not in medians or ref not in medians:
        return None
    a, b = medians[ours], medians[ref]
    if kind == "at_most":
        value, paired = a / b, [x / y for x, y in zip(times[ours], times[ref])]
        met = value <= bound
        text = f"{tid}. {ours_label} vs {ref_label}: {fmt_x(value)}× its time (target ≤ {bound:g}×)"
    else:
        value, paired = b / a, [y / x for x, y in zip(times[ours], times[ref])]
        met = value >= bound
        text = f"{tid}. {ours_label} vs {ref_label}: {fmt_x(value)}× faster (target ≥ {bound:g}×)"
    if len(paired) > 1:
        text += (
            f" [run by run: median {fmt_x(statistics.median(paired))}×, "
            f"range {fmt_x(min(paired))}–{fmt_x(max(paired))}×]"
        )
    return {
        "id": tid,
        "ours": ours,
        "reference": ref,
        "kind": kind,
        "target": bound,
        "value": value,
        "paired": paired,
        "met": met,
        "text": text,
    }


def context_line(ours: str, ref: str, ours_label: str, ref_label: str, medians) -> Optional[str]:
    if ours not in medians or ref not in medians:
        return None
    a, b = medians[ours], medians[ref]
    if a <= b:
        return f"{ours_label} vs {ref_label}: {fmt_x(b / a)}× faster (no target)"
    return f"{ours_label} vs {ref_label}: {fmt_x(a / b)}× slower (no target)"


def profile_engine(tasks: List[Task], top: int) -> None:
    for task in tasks:
        if task.key not in ("evaluate_spans", "scorer_fresh"):
            continue
        arg = task.setup() if task.setup else None
        profiler = cProfile.Profile()
        profiler.enable()
        task.run(arg)
        profiler.disable()
        out = io.StringIO()
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(top)
        msg.divider(f"cProfile: {task.title} (top {top} by own time)")
        lines = out.getvalue().splitlines()
        start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
        print("\n".join(line for line in lines[start:] if line.strip()))


def engine_revision() -> str:
    """The commit of the package's repository, and whether the package's
    files differ from it (read-only git commands)."""
    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(
            ["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True, text=True, timeout=30
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "-C", str(root), "status", "--porcelain", "--", "spacy_spanf1"],
            capture_output=True,
            text=True,
            timeout=30,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown (no git)"
    if not head:
        return "unknown (not a git checkout)"
    return f"commit {head}" + (" + uncommitted changes in spacy_spanf1/" if dirty else "")


def load_text() -> str:
    """The load average against the cores: a busy machine makes noisy timings."""
    try:
        load = os.getloadavg()[0]
    except OSError:
        return ""
    cores = os.cpu_count() or 1
    text = f"Load average {load:.1f} on {cores} cores"
    return text + (" (busy: expect noisy timings)." if load > 0.75 * cores else ".")


def version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "not installed"


# --------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------


def main(
    sizes: str = typer.Option("10000,100000", "--sizes", help="Corpus sizes in documents, comma-separated"),
    runs: int = typer.Option(5, "--runs", min=1, help="Timed runs of each task, after one warm-up"),
    skip: str = typer.Option("", "--skip", help=f"References to leave out, comma-separated: {', '.join(REFERENCES)}"),
    presidio_all_sizes: bool = typer.Option(
        False, "--presidio-all-sizes", help="Run presidio-evaluator at every size, not only the smallest (slow)"
    ),
    stream: int = typer.Option(
        1_000_000, "--stream", min=0, help="Documents in the streaming memory test (0: skip); N/10 is run too"
    ),
    seed: int = typer.Option(0, "--seed", help="Corpus seed"),
    json_path: Optional[Path] = typer.Option(None, "--json", help="Also write every figure to this JSON file"),
    profile: bool = typer.Option(False, "--profile", help="cProfile evaluate_spans and the scorer at the first size"),
    stream_child_docs: int = typer.Option(0, "--stream-child", hidden=True),
) -> None:
    """Time spacy-spanf1 against spaCy, nervaluate, seqeval, presidio-evaluator
    and the Feedback Prize metric on one synthetic corpus, after checking that
    they all agree."""
    if stream_child_docs:
        stream_child(stream_child_docs, seed)
        return
    try:
        size_list = sorted({int(s) for s in sizes.split(",") if s.strip()})
    except ValueError:
        msg.fail(f"--sizes takes comma-separated integers, got {sizes!r}", exits=1)
    if not size_list or size_list[0] < 1:
        msg.fail(f"--sizes needs at least one positive size, got {sizes!r}", exits=1)
    skipped = [s.strip() for s in skip.split(",") if s.strip()]
    unknown = [s for s in skipped if s not in REFERENCES]
    if unknown:
        msg.fail(f"Unknown reference {unknown[0]!r} in --skip. Valid names: {', '.join(REFERENCES)}", exits=1)
    presidio_sizes = [] if "presidio" in skipped else (size_list if presidio_all_sizes else size_list[:1])
    evaluate_tags, tags_reason = load_evaluate_tags()

    msg.divider("spacy-spanf1 benchmark")
    versions = {
        d: version(d)
        for d in ("spacy", "spacy-spanf1", "nervaluate", "seqeval", "presidio-evaluator", "pandas", "numpy")
    }
    print(
        f"Python {platform.python_version()} on {platform.machine()}, {platform.system()}; "
        + ", ".join(f"{k} {v}" for k, v in versions.items())
    )
    print(f"spacy-spanf1 engine: {engine_revision()}. {load_text()}")
    print(
        f"Sizes: {', '.join(f'{n:,}' for n in size_list)} documents; {runs} timed run(s) of each task "
        f"after one warm-up, taken in turn (A B C ... A B C ...); medians reported; GC enabled; seed {seed}."
    )
    for name in skipped:
        print(f"Skipped (--skip): {REFERENCES[name]}.")
    if "presidio" not in skipped and not presidio_all_sizes and len(size_list) > 1:
        print(
            f"presidio-evaluator runs only at the smallest size ({size_list[0]:,} documents); "
            "pass --presidio-all-sizes to run it at every size (minutes at 100,000)."
        )
    if evaluate_tags is None:
        msg.warn(f"evaluate_tags left out: {tags_reason}")

    report: Dict[str, Any] = {
        "command": sys.argv,
        "versions": versions,
        "python": platform.python_version(),
        "seed": seed,
        "clock": os.environ.get("SPANF1_BENCH_CLOCK", "wall"),
        "engine": engine_revision(),
        "runs": runs,
        "skipped": skipped,
        "presidio_sizes": presidio_sizes,
        "sizes": {},
    }
    medians: Dict[int, Dict[str, float]] = {}
    titles: Dict[str, str] = {}
    profiled = False
    for n_docs in size_list:
        msg.divider(f"{n_docs:,} documents")
        t0 = time.perf_counter()
        corpus = make_corpus(n_docs, seed)
        tasks, inputs = build_tasks(corpus, skipped, n_docs in presidio_sizes, evaluate_tags)
        stats = corpus.stats
        print(
            f"Corpus: {stats['docs']:,} docs, {stats['tokens']:,} tokens, {stats['gold_spans']:,} gold and "
            f"{stats['pred_spans']:,} predicted spans, {len(LABELS)} labels. Gold spans: "
            + ", ".join(f"{k} {v:,}" for k, v in sorted(corpus.tally.items()) if k not in ("spurious", "dropped"))
            + f"; {corpus.tally.get('spurious', 0):,} spurious tried, "
            f"{corpus.tally.get('dropped', 0):,} clashing predictions dropped "
            f"(built and converted in {time.perf_counter() - t0:.1f} s)."
        )

        # Warm-up round, whose results are checked before anything is timed.
        results = {task.key: call(task) for task in tasks}
        checked, problems = check_agreement(results)
        strict = results["evaluate_spans"]["strict"].counts
        if problems:
            print(f"\u2718 Agreement at {n_docs:,} docs FAILED ({len(problems)} problem(s)); no timing is reported.")
            for line in problems[:40]:
                print(f"  - {line}")
            sys.exit(1)
        if n_docs not in presidio_sizes:
            checked.append("iou not checked at this size (presidio not run)")
        print(f"\u2714 Agreement at {n_docs:,} docs: OK — " + "; ".join(checked))
        print(
            "  strict counts: "
            + ", ".join(f"{k.upper()} {v:,}" for k, v in strict.items())
            + "; iou "
            + ", ".join(f"{k.upper()} {v:,}" for k, v in results["evaluate_spans"]["iou"].counts.items())
        )
        del results

        times: Dict[str, List[float]] = {task.key: [] for task in tasks}
        now = clock()  # wall time unless the environment asks for CPU time
        for run in range(runs):
            for task in tasks:
                arg = task.setup() if task.setup else None
                gc.collect()
                start = now()
                task.run(arg)
                times[task.key].append(now() - start)
                del arg
            print(f"  run {run + 1}/{runs} done ({time.perf_counter() - t0:.0f} s since corpus)", flush=True)
        print(f"  {load_text()}")
        medians[n_docs] = {key: statistics.median(ts) for key, ts in times.items()}
        titles.update({task.key: task.title for task in tasks})
        evaluate_spans_task = next(t for t in tasks if t.key == "evaluate_spans")
        traced = traced_peak_mb(lambda: call(evaluate_spans_task))  # noqa: B023 (called at once)
        report["sizes"][str(n_docs)] = {
            "corpus": stats,
            "tally": corpus.tally,
            "agreement": checked,
            "times": times,
            "medians": medians[n_docs],
            "evaluate_spans_traced_peak_mb": traced,
        }
        if profile and not profiled:
            profile_engine(tasks, 15)
            profiled = True
        del tasks, inputs, corpus
        gc.collect()

    # The table of medians.
    msg.divider("Results")
    keys = [k for k in ROW_ORDER if any(k in m for m in medians.values())]
    header = ["timed", ""] + [f"{n:,} docs (s)" for n in size_list]
    if len(size_list) > 1:
        header.append(f"growth ×{size_list[-1] // size_list[0]}")
    rows = []
    for key in keys:
        group = "spacy-spanf1" if key in SCALED else "reference"
        row = [titles[key], group] + [fmt_s(medians[n].get(key)) for n in size_list]
        if len(size_list) > 1:
            a, b = medians[size_list[0]].get(key), medians[size_list[-1]].get(key)
            row.append(f"×{b / a:.1f}" if a and b else "-")
        rows.append(row)
    msg.table(
        rows,
        header=header,
        divider=True,
        aligns=["l", "l"] + ["r"] * (len(header) - 2),
        max_col=60,
        title=f"Median wall time of {runs} run(s)",
    )

    all_targets: List[Dict[str, Any]] = []
    for n_docs in size_list:
        print(f"Ratios at {n_docs:,} documents (medians of the same invocation):")
        for target in TARGETS:
            line = target_line(target, medians[n_docs], report["sizes"][str(n_docs)]["times"])
            if line is None:
                tid, _, ref = target[0], target[1], target[2]
                why = "presidio runs only at the smallest size" if ref == "presidio" else f"{ref} or ours not run"
                print(f"  - {tid}. {target[5]} vs {target[6]}: not measured ({why})")
                continue
            line["docs"] = n_docs
            all_targets.append(line)
            status(line["met"], line["text"])
        for ours, ref, ours_label, ref_label in CONTEXT:
            text = context_line(ours, ref, ours_label, ref_label, medians[n_docs])
            if text:
                print(f"  · {text}")

    if len(size_list) > 1:
        small, large = size_list[0], size_list[-1]
        bound = 1.1 * large / small
        # Linear references should grow by large/small; if they did not, the
        # machine ran at another speed at one size (other load) and every
        # growth figure is off by about that factor.
        ref_growth = [
            medians[large][k] / medians[small][k]
            for k in medians[large]
            if k in medians[small] and k not in SCALED and k != "set_strict"
        ]
        drift = statistics.median(ref_growth) / (large / small) if ref_growth else 1.0
        report["reference_growth"] = ref_growth
        print(f"4. Scaling from {small:,} to {large:,} documents (target ≤ ×{bound:.3g}):")
        if ref_growth:
            print(
                f"  (the references grew ×{min(ref_growth):.1f}–×{max(ref_growth):.1f}, median "
                f"×{statistics.median(ref_growth):.1f}, over the same sizes"
                + (
                    ": the machine's speed changed between sizes, so the figures below are off by "
                    f"about ×{drift:.2f}; the figure in parentheses divides it out)"
                    if abs(drift - 1) > 0.15
                    else ")"
                )
            )
        for key in SCALED:
            if key in medians[small] and key in medians[large]:
                growth = medians[large][key] / medians[small][key]
                text = f"4. {titles[key]}: ×{growth:.2f} (target ≤ ×{bound:.3g})"
                if abs(drift - 1) > 0.15:
                    text += f" (×{growth / drift:.2f} at the references' pace)"
                line = {
                    "id": "4",
                    "ours": key,
                    "kind": "growth",
                    "target": bound,
                    "value": growth,
                    "drift_corrected": growth / drift,
                    "met": growth <= bound,
                    "docs": large,
                    "text": text,
                }
                all_targets.append(line)
                status(line["met"], line["text"])

    # Memory.
    report["bench_peak_rss_mb"] = rss_mb()
    print(
        f"Peak RSS of this benchmark process: {report['bench_peak_rss_mb']:,.0f} MB (all tools' inputs held). "
        + "evaluate_spans traced peak on in-memory lists: "
        + ", ".join(f"{int(n):,} docs {v['evaluate_spans_traced_peak_mb']:,.1f} MB" for n, v in report["sizes"].items())
    )
    if stream:
        streams = [run_stream(n, seed) for n in sorted({max(1, stream // 10), stream})]
        report["stream"] = streams
        for s in streams:
            print(
                f"  stream of {s['docs']:,} docs (generator → evaluate_spans, 6 schemes, fresh process): "
                f"peak RSS {s['peak_mb']:,.0f} MB, {s['beyond_baseline_mb']:,.1f} MB beyond the baseline "
                f"of interpreter + spaCy + spacy-spanf1 ({s['baseline_mb']:,.0f} MB; {s['measured_with']}); "
                f"{s['seconds']:.1f} s including generating the documents"
                + (f" [engine changed since the start: {s['engine']}]" if s["engine"] != report["engine"] else "")
            )
        last = streams[-1]
        line = {
            "id": "4m",
            "ours": "evaluate_spans (stream)",
            "kind": "memory",
            "target": STREAM_LIMIT_MB,
            "value": last["beyond_baseline_mb"],
            "met": last["beyond_baseline_mb"] < STREAM_LIMIT_MB,
            "docs": last["docs"],
            "text": f"4. memory, generator of {last['docs']:,} docs: {last['beyond_baseline_mb']:,.1f} MB beyond "
            f"the baseline (target < {STREAM_LIMIT_MB:g} MB)"
            + (
                f"; {streams[0]['beyond_baseline_mb']:,.1f} MB at {streams[0]['docs']:,} docs"
                if len(streams) > 1
                else ""
            ),
        }
        all_targets.append(line)
        status(line["met"], line["text"])

    met = sum(t["met"] for t in all_targets)
    print(f"Targets met: {met} of {len(all_targets)} checked.")
    report["targets"] = all_targets
    if json_path is not None:
        json_path.write_text(json.dumps(report, indent=2, default=str))
        msg.good("Figures written", str(json_path))


if __name__ == "__main__":
    typer.run(main)
