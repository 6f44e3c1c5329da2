"""Taillé et al.'s relation scorer, the reference of `rel_strict` and
`rel_exact`: `re_score` of their `sincere` code (github.com/btaille/sincere,
code/utils/evaluation.py, Apache-2.0; "Let's Stop Incorrect Comparisons in
End-to-end Relation Extraction", EMNLP 2020), transcribed as it computes:
per sentence and relation type, sets of (head, head type, tail, tail type)
in "strict" mode and of (head, tail) in "boundaries" mode; TP, FP and FN
per type; micro over the types, macro the mean of the types' F1 (in
percent). The one change: the relation types are given as a list, where
`re_score` reads them from its dataset's vocabulary (`vocab.relations`,
"None" left out), and its logging is left out."""

from typing import Any, Dict, List, Sequence

import numpy as np


def re_score(
    pred_relations: Sequence[Sequence[Dict[str, Any]]],
    gt_relations: Sequence[Sequence[Dict[str, Any]]],
    relation_types: Sequence[str],
    mode: str = "strict",
) -> Dict[str, Dict[str, Any]]:
    """Evaluate RE predictions.

    pred_relations, gt_relations: one list of relations per sentence,
        rel = {"head": (start, end), "tail": (start, end), "head_type":
        ent_type, "tail_type": ent_type, "type": rel_type}.
    relation_types: the relation types ("None" is left out).
    mode: "strict" or "boundaries".
    RETURNS: rel_type -> {"tp", "fp", "fn", "p", "r", "f1"}, and "ALL" with
        the micro scores and "Macro_f1", "Macro_p", "Macro_r" (percent).
    """
    assert mode in ["strict", "boundaries"]

    types: List[str] = [v for v in relation_types if not v == "None"]
    scores: Dict[str, Dict[str, Any]] = {rel: {"tp": 0, "fp": 0, "fn": 0} for rel in types + ["ALL"]}

    # Count TP, FP and FN per type
    for pred_sent, gt_sent in zip(pred_relations, gt_relations):
        for rel_type in types:
            # strict mode takes argument types into account
            if mode == "strict":
                pred_rels = {
                    (rel["head"], rel["head_type"], rel["tail"], rel["tail_type"])
                    for rel in pred_sent
                    if rel["type"] == rel_type
                }
                gt_rels = {
                    (rel["head"], rel["head_type"], rel["tail"], rel["tail_type"])
                    for rel in gt_sent
                    if rel["type"] == rel_type
                }
            # boundaries mode only takes argument spans into account
            else:
                pred_rels = {(rel["head"], rel["tail"]) for rel in pred_sent if rel["type"] == rel_type}
                gt_rels = {(rel["head"], rel["tail"]) for rel in gt_sent if rel["type"] == rel_type}

            scores[rel_type]["tp"] += len(pred_rels & gt_rels)
            scores[rel_type]["fp"] += len(pred_rels - gt_rels)
            scores[rel_type]["fn"] += len(gt_rels - pred_rels)

    # Compute per entity Precision / Recall / F1
    for rel_type in scores.keys():
        if scores[rel_type]["tp"]:
            scores[rel_type]["p"] = 100 * scores[rel_type]["tp"] / (scores[rel_type]["fp"] + scores[rel_type]["tp"])
            scores[rel_type]["r"] = 100 * scores[rel_type]["tp"] / (scores[rel_type]["fn"] + scores[rel_type]["tp"])
        else:
            scores[rel_type]["p"], scores[rel_type]["r"] = 0, 0

        if not scores[rel_type]["p"] + scores[rel_type]["r"] == 0:
            scores[rel_type]["f1"] = (
                2 * scores[rel_type]["p"] * scores[rel_type]["r"] / (scores[rel_type]["p"] + scores[rel_type]["r"])
            )
        else:
            scores[rel_type]["f1"] = 0

    # Compute micro F1 Scores
    tp = sum([scores[rel_type]["tp"] for rel_type in types])
    fp = sum([scores[rel_type]["fp"] for rel_type in types])
    fn = sum([scores[rel_type]["fn"] for rel_type in types])

    if tp:
        precision = 100 * tp / (tp + fp)
        recall = 100 * tp / (tp + fn)
        f1 = 2 * precision * recall / (precision + recall)
    else:
        precision, recall, f1 = 0, 0, 0

    scores["ALL"]["p"] = precision
    scores["ALL"]["r"] = recall
    scores["ALL"]["f1"] = f1
    scores["ALL"]["tp"] = tp
    scores["ALL"]["fp"] = fp
    scores["ALL"]["fn"] = fn

    # Compute Macro F1 Scores
    scores["ALL"]["Macro_f1"] = np.mean([scores[ent_type]["f1"] for ent_type in types])
    scores["ALL"]["Macro_p"] = np.mean([scores[ent_type]["p"] for ent_type in types])
    scores["ALL"]["Macro_r"] = np.mean([scores[ent_type]["r"] for ent_type in types])
    return scores


def sincere_relations(doc: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The relations of a {"spans", "relations"} document (relations
    (head index, tail index, label) into its spans) as `re_score` reads
    them."""
    spans = doc["spans"]
    return [
        {
            "head": (spans[h][0], spans[h][1]),
            "tail": (spans[t][0], spans[t][1]),
            "head_type": spans[h][2],
            "tail_type": spans[t][2],
            "type": label,
        }
        for h, t, label in doc["relations"]
    ]
