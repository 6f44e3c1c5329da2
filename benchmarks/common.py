"""What the benchmarks share: where the reference libraries installed apart
are (`find_references`), the references written here (the Feedback Prize metric in pandas, IOB2
tags of spans), and a WNUT17 pipeline and corpus for the sharded runs.

The benchmarks import nothing from tests/: the tests keep their own copies
of the references they check the package against. Heavy libraries (pandas,
spaCy) are imported inside the functions that use them.
"""
import sys
from pathlib import Path
from typing import Dict, List, Sequence, Tuple

#: The checkout the benchmarks run in.
ROOT = Path(__file__).resolve().parent.parent

#: Where `make references` installs the reference libraries that register
#: spaCy entry points (presidio-evaluator, spacy-llm:
#: tests/spacy-plugin-references.txt), apart from the environment, so that a
#: plain spaCy pipeline load never imports them.
REFERENCES = ROOT / "build" / "references"


def find_references() -> None:
    """Put REFERENCES on sys.path, appended, so that the environment's own
    packages come first. Only a benchmark that times them calls this: with
    it, every `spacy.load` imports their entry points."""
    if str(REFERENCES) not in sys.path:
        sys.path.append(str(REFERENCES))

#: The overlap threshold of the Feedback Prize.
OVERLAP_THRESHOLD = 0.5

#: The WNUT17 CoNLL files of the sharded benchmark.
WNUT17 = ROOT / "assets" / "wnut17"


def iob2(n: int, spans) -> List[str]:
    """IOB2 tags of n tokens for (start, end, label) token spans, end
    exclusive, that do not overlap."""
    tags = ["O"] * n
    for start, end, label in spans:
        tags[start] = f"B-{label}"
        for i in range(start + 1, end):
            tags[i] = f"I-{label}"
    return tags


def feedback_prize_frames(gold_docs: Sequence[Sequence[tuple]], pred_docs: Sequence[Sequence[tuple]]):
    """(pred_df, gt_df) as the Feedback Prize metric reads them: one row per
    span of (start, end, label) tuples, its token indices as a
    space-separated "predictionstring"; documents are ids 0, 1, ..."""
    import pandas as pd

    def rows(docs) -> List[Tuple[int, str, str]]:
        return [
            (i, label, " ".join(str(t) for t in range(s, e)))
            for i, spans in enumerate(docs)
            for s, e, label in sorted(spans)
        ]

    pred_df = pd.DataFrame(rows(pred_docs), columns=["id", "class", "predictionstring"])
    gt_df = pd.DataFrame(rows(gold_docs), columns=["id", "discourse_type", "predictionstring"])
    return pred_df, gt_df


def feedback_prize(pred_df, gt_df, threshold: float = OVERLAP_THRESHOLD) -> Dict[str, Tuple[int, int, int]]:
    """The Feedback Prize (Kaggle) span-overlap metric in pandas, as the
    competition's reference code computes it: predictions and gold merged on
    document and class, both overlap ratios as set-size ratios of the token
    indices, a pair is a potential TP when both reach the threshold. The
    one-to-one de-duplication is greedy in the package's order (highest gold
    overlap, then highest prediction overlap, then earlier gold, then earlier
    prediction). RETURNS: label -> (tp, fp, fn)."""
    import pandas as pd

    gt_df = gt_df[["id", "discourse_type", "predictionstring"]].reset_index(drop=True).copy()
    pred_df = pred_df[["id", "class", "predictionstring"]].reset_index(drop=True).copy()
    pred_df["pred_id"] = pred_df.index
    gt_df["gt_id"] = gt_df.index
    joined = pred_df.merge(
        gt_df, left_on=["id", "class"], right_on=["id", "discourse_type"],
        how="outer", suffixes=("_pred", "_gt"),
    )
    joined["predictionstring_gt"] = joined["predictionstring_gt"].fillna(" ")
    joined["predictionstring_pred"] = joined["predictionstring_pred"].fillna(" ")

    def calc_overlap(gt_string: str, pred_string: str) -> Tuple[float, float]:
        set_pred = set(pred_string.split(" "))
        set_gt = set(gt_string.split(" "))
        inter = len(set_gt.intersection(set_pred))
        return inter / len(set_gt), inter / len(set_pred)

    overlaps = [
        calc_overlap(g, p) for g, p in zip(joined["predictionstring_gt"], joined["predictionstring_pred"])
    ]
    joined["overlap1"] = [o1 for o1, _ in overlaps]
    joined["overlap2"] = [o2 for _, o2 in overlaps]
    joined["potential_TP"] = (joined["overlap1"] >= threshold) & (joined["overlap2"] >= threshold)
    potential = joined[joined["potential_TP"]].sort_values(
        ["overlap1", "overlap2", "gt_id", "pred_id"], ascending=[False, False, True, True]
    )
    used_gt, used_pred, tp_labels = set(), set(), []
    for gt_id, pred_id, label in zip(potential["gt_id"], potential["pred_id"], potential["discourse_type"]):
        if gt_id in used_gt or pred_id in used_pred:
            continue
        used_gt.add(gt_id)
        used_pred.add(pred_id)
        tp_labels.append(label)
    tp = pd.Series(tp_labels, dtype=object).value_counts()
    n_pred = pred_df["class"].value_counts()
    n_gold = gt_df["discourse_type"].value_counts()
    out = {}
    for label in set(n_pred.index) | set(n_gold.index):
        t = int(tp.get(label, 0))
        out[label] = (t, int(n_pred.get(label, 0)) - t, int(n_gold.get(label, 0)) - t)
    return out


def wnut17_sentences(files: Sequence[str] = ("dev.conll", "test.conll", "train.conll")):
    """(words, token spans) of every WNUT17 sentence of the files, in order,
    as the package's CoNLL reader reads them."""
    from spacy_spanf1.formats import read_conll

    return [(doc.tokens, [(s.start, s.end, s.label) for s in doc.spans])
            for name in files for doc in read_conll(WNUT17 / name)]


def wnut17_docs(n_docs: int):
    """n_docs reference Docs (WNUT17 sentences, repeated as needed) with gold
    ents and a span group "sc" (the ents and each entity's first token)."""
    import spacy
    from spacy.tokens import Doc, Span, SpanGroup

    sentences = wnut17_sentences()
    vocab = spacy.blank("en").vocab
    docs = []
    for i in range(n_docs):
        words, spans = sentences[i % len(sentences)]
        doc = Doc(vocab, words=words)
        ents = [Span(doc, s, e, label=label) for s, e, label in spans]
        doc.ents = ents
        doc.spans["sc"] = SpanGroup(doc, name="sc", spans=ents + [Span(doc, e.start, e.start + 1, label=e.label_) for e in ents])
        docs.append(doc)
    return docs


def wnut17_model(path: Path, n_patterns: int = 300) -> Path:
    """A pipeline saved at path that trains nothing: a randomly initialised
    `ner` (real CPU work per document), then an entity_ruler (ents) and a
    span_ruler ("sc") with n_patterns WNUT17 training entities."""
    import spacy
    from spacy.training import Example

    nlp = spacy.blank("en")
    nlp.add_pipe("ner")
    ruler = nlp.add_pipe("entity_ruler", config={"overwrite_ents": True})
    span_ruler = nlp.add_pipe("span_ruler", config={"spans_key": "sc"})
    # initialised first: the rulers run their patterns through the pipeline
    examples = [Example(nlp.make_doc(d.text), d) for d in wnut17_docs(50)]
    nlp.initialize(lambda: examples)
    found: Dict[str, str] = {}
    for words, spans in wnut17_sentences(("train.conll",)):
        for s, e, label in spans:
            found.setdefault(" ".join(words[s:e]), label)
    patterns = [{"label": label, "pattern": text} for text, label in found.items()][:n_patterns]
    ruler.add_patterns(patterns)
    span_ruler.add_patterns(patterns)
    nlp.to_disk(path)
    return path
