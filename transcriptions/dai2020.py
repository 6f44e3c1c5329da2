"""The evaluation of Dai et al. (ACL 2020, "An Effective Transition-based
Model for Discontinuous NER"; their `evaluate.py`), the reference of the
`strict` scheme on spans of several fragments and of the three views
(docs/discontinuous.md): tests/fragments checks the engine against it.

Their files are of the inline format: per sentence, a sentence line, a
mention line `0,1,4,5 ADR|7,7 ADR` (inclusive token index pairs of each
fragment, a label) and a blank line. A mention is its string: two are the
same when their strings are. A mention read from its string has its
indices sorted and fragments that touch merged into one; it is
discontinuous when more than one fragment remains.
"""

from typing import Dict, List, Sequence, Tuple

#: The mention strings of each sentence of a file, as its lines give them.
Corpus = List[List[str]]


def read_inline(text: str) -> Tuple[List[str], Corpus]:
    """(sentences, mention strings per sentence) of a file of the inline
    format: groups of a sentence line, a mention line and a blank line."""
    lines = text.split("\n")
    sentences, mentions = [], []
    at = 0
    while at < len(lines) and lines[at].strip():
        sentences.append(lines[at].strip())
        line = lines[at + 1].strip()
        mentions.append(line.split("|") if line else [])
        assert not lines[at + 2].strip()
        at += 3
    return sentences, mentions


def mention_pieces(mention: str) -> Tuple[List[Tuple[int, int]], str]:
    """(inclusive fragments, label) of a mention string: the indices sorted,
    fragments that touch (one ends right before the next starts) joined."""
    indices, label = mention.split()
    points = sorted(int(i) for i in indices.split(","))
    pieces: List[Tuple[int, int]] = []
    for k in range(0, len(points), 2):
        start, end = points[k], points[k + 1]
        if pieces and start <= pieces[-1][1] + 1:
            pieces[-1] = (pieces[-1][0], end)
        else:
            pieces.append((start, end))
    return pieces, label


def mention_string(mention: str) -> str:
    """A mention string as the script writes a mention it has read."""
    pieces, label = mention_pieces(mention)
    return ",".join(f"{start},{end}" for start, end in pieces) + " " + label


def is_discontinuous(mention: str) -> bool:
    return len(mention_pieces(mention)[0]) > 1


def prf(tp: float, fp: float, fn: float) -> Tuple[float, float, float]:
    """Precision, recall, F1; 0 where a denominator is zero."""
    precision = tp / (tp + fp) if tp + fp > 0 else 0
    recall = tp / (tp + fn) if tp + fn > 0 else 0
    f1 = 2.0 * precision * recall / (precision + recall) if precision + recall > 0 else 0
    return precision, recall, f1


def corpus_counts(gold_corpus: Corpus, pred_corpus: Corpus) -> Dict[str, List[int]]:
    """label -> [tp, fp, fn] as `compute_on_corpus` counts them: a gold
    mention is found when its string is among the sentence's predicted
    strings, a prediction is wrong when its string is not among the gold
    ones; the label is the last word of the string."""
    assert len(gold_corpus) == len(pred_corpus)
    counts: Dict[str, List[int]] = {}
    for gold_sentence, pred_sentence in zip(gold_corpus, pred_corpus):
        for gold in gold_sentence:
            row = counts.setdefault(gold.split()[-1], [0, 0, 0])
            row[0 if gold in pred_sentence else 2] += 1
        for pred in pred_sentence:
            if pred not in gold_sentence:
                counts.setdefault(pred.split()[-1], [0, 0, 0])[1] += 1
    return counts


def compute_on_corpus(gold_corpus: Corpus, pred_corpus: Corpus) -> Dict[str, float]:
    """Micro precision, recall and F1 (and the per-label macro means) over
    every mention of every sentence."""
    counts = corpus_counts(gold_corpus, pred_corpus)
    per_label = [prf(*row) for row in counts.values()]
    metrics: Dict[str, float] = {}
    for k, name in enumerate(("precision", "recall", "f1")):
        metrics[f"macro-{name}"] = sum(p[k] for p in per_label) / len(per_label) if per_label else 0.0
    total = [sum(row[k] for row in counts.values()) for k in range(3)]
    for name, value in zip(("precision", "recall", "f1"), prf(*total)):
        metrics[f"micro-{name}"] = value
    return metrics


def compute_on_sentences_with_disc(gold_corpus: Corpus, pred_corpus: Corpus) -> Dict[str, float]:
    """`compute_on_corpus` over the sentences whose gold mentions include a
    discontinuous one."""
    keep = [k for k, sentence in enumerate(gold_corpus) if any(is_discontinuous(m) for m in sentence)]
    metrics = compute_on_corpus([gold_corpus[k] for k in keep], [pred_corpus[k] for k in keep])
    return {f"sentences_with_disc-{name}": value for name, value in metrics.items()}


def compute_on_disc_mentions(gold_corpus: Corpus, pred_corpus: Corpus) -> Dict[str, float]:
    """Micro precision, recall and F1 of the discontinuous predictions
    against the discontinuous gold mentions (each written as the script
    writes it, looked up among the other side's strings)."""
    assert len(gold_corpus) == len(pred_corpus)
    tp = fp = fn = 0.0
    for gold_sentence, pred_sentence in zip(gold_corpus, pred_corpus):
        for pred in (m for m in pred_sentence if is_discontinuous(m)):
            if mention_string(pred) in gold_sentence:
                tp += 1
            else:
                fp += 1
        for gold in (m for m in gold_sentence if is_discontinuous(m)):
            if mention_string(gold) not in pred_sentence:
                fn += 1
    precision, recall, f1 = prf(tp, fp, fn)
    return {
        "disc-mention-micro-precision": precision,
        "disc-mention-micro-recall": recall,
        "disc-mention-micro-f1": f1,
    }


def inline_fragments(mention: str) -> Tuple[List[List[int]], str]:
    """A mention string's fragments with exclusive ends ([start, end) token
    offsets, as the package reads them) and its label."""
    pieces, label = mention_pieces(mention)
    return [[start, end + 1] for start, end in pieces], label


def write_inline(sentences: Sequence[str], mentions: Corpus) -> str:
    """A file of the inline format."""
    return "".join(f"{sentence}\n{'|'.join(found)}\n\n" for sentence, found in zip(sentences, mentions))
