"""The Feedback Prize (Kaggle) span-overlap metric in pandas, the reference of
the `overlap` scheme (docs/definitions.md § overlap): tests/references
checks the engine against it, benchmarks/bench.py times it."""

from typing import Dict, List, Sequence, Tuple

#: The overlap threshold of the Feedback Prize.
OVERLAP_THRESHOLD = 0.5


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
        gt_df,
        left_on=["id", "class"],
        right_on=["id", "discourse_type"],
        how="outer",
        suffixes=("_pred", "_gt"),
    )
    joined["predictionstring_gt"] = joined["predictionstring_gt"].fillna(" ")
    joined["predictionstring_pred"] = joined["predictionstring_pred"].fillna(" ")

    def calc_overlap(gt_string: str, pred_string: str) -> Tuple[float, float]:
        set_pred = set(pred_string.split(" "))
        set_gt = set(gt_string.split(" "))
        inter = len(set_gt.intersection(set_pred))
        return inter / len(set_gt), inter / len(set_pred)

    overlaps = [calc_overlap(g, p) for g, p in zip(joined["predictionstring_gt"], joined["predictionstring_pred"])]
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
