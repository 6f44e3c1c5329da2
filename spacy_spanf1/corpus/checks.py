"""The checks that need the whole corpus, once it is scored (or its shards
merged): no silent zeros (`check_outcome`), the warnings of what is
suspicious but not wrong (`outcome_warnings`), and what a format adds once
the corpus is whole (`finish`).
"""

from typing import List, Sequence, Tuple

from ..links.counter import no_kb_id_warnings
from ..notes import inside_word_warnings, label_warnings, quoted, spans_counted, unmapped_note
from ..exceptions import InputError
from ..formats import get_format
from ..results.scores import CorpusScores
from ..settings import MatchSettings

__all__ = ["check_outcome", "finish", "outcome_warnings"]


def finish(scores: CorpusScores, match: MatchSettings) -> CorpusScores:
    """The scores with what their format adds once the corpus is whole
    (the Feedback Prize's official score)."""
    signed = (scores.signature.get("read") or {}).get("format")
    if not signed:
        return scores
    official = get_format(signed).official_score(scores, match)
    return scores if official is None else scores.replace(official_score=official)


def check_outcome(scores: CorpusScores, match: MatchSettings) -> CorpusScores:
    """No silent zeros: no document at all, a span group no gold document
    has, a corpus whose every gold document was skipped, a label of
    `labels` found in neither gold nor prediction (each known only once the
    whole corpus is read) are errors. RETURNS the scores with the warnings
    of what is suspicious but not wrong (`label_warnings`)."""
    spans_key = match.spans_key
    if not scores.documents:
        raise InputError(
            f"{scores.sources[0]} holds no document (and {scores.sources[1]} none to pair with it): "
            "there is nothing to score; is this the right file?",
        )
    if spans_key is not None and spans_key not in scores.spans_keys:
        keys = ", ".join(sorted(scores.spans_keys)) or "none"
        raise InputError(
            f"no gold document in {scores.sources[0]} has the span group {spans_key!r}. Span keys found: {keys}",
            setting="spans_key",
        )
    if scores.documents and not scores.scored:
        read = scores.not_scored.get("gold", {})
        groups = _span_groups(scores)
        why = (
            f"none has the span group {spans_key!r}"
            if spans_key is not None
            else f"none has entity annotation, but the gold has span groups {groups}: pass {_spans_key_hint(scores)}"
            if groups
            else 'none has annotation (e.g. no "spans" in a JSONL record, no entity annotation in a Doc)'
            if not read
            else f"none is annotation ({', '.join(f'{what} {n}' for what, n in sorted(read.items()))}; a Prodigy "
            'record is gold only when answered "accept")'
        )
        raise InputError(
            f"every gold document of {scores.sources[0]} ({scores.documents}) was skipped: {why}; "
            "there is nothing to score"
        )
    if match.labels is not None:
        found = set(scores.labels_seen)
        for label in match.labels:
            if label not in found:
                listed = ", ".join(sorted(found)) or "none"
                listed = _listed(sorted(found)) or "none"
                raise InputError(
                    f"the label {quoted(label)} occurs in neither {scores.sources[0]} nor {scores.sources[1]}. "
                    f"Labels found: {listed}",
                    setting="labels",
                )
    return scores.replace(warnings=tuple(scores.warnings) + outcome_warnings(scores, match))


#: The schemes whose per-label counts count spans (`iou` counts groups).
_SPAN_COUNTING = ("strict", "exact", "partial", "type", "overlap")


def _span_groups(scores: CorpusScores) -> str:
    """The gold's span groups with their spans: '"sc" (1,234 spans), ...'."""
    return ", ".join(f"{quoted(key)} ({spans_counted(n)})" for key, n in scores.span_groups.items())


def _spans_key_hint(scores: CorpusScores) -> str:
    """spans_key= the largest span group of the gold."""
    largest = max(scores.span_groups, key=lambda key: (scores.span_groups[key], key))
    return f"spans_key={quoted(largest)}"


def outcome_warnings(scores: CorpusScores, match: MatchSettings) -> Tuple[str, ...]:
    """What is suspicious in scores that are not wrong: a corpus scored on
    its entities whose gold has none but has span groups (a span
    categorizer's corpus scored without `spans_key`); no gold span or no
    predicted span in the whole corpus (a prediction without annotation,
    tags a strict tag mode dropped); predicted labels none of which occurs
    in the gold (another case, another tag set), or a predicted label that
    never occurs in the gold, with the closest gold label (and a gold label
    never predicted whose closest predicted label is such a label: a
    rename; `notes.label_warnings`); a label of `labels` found on one side
    only; in char unit, a side whose spans mostly start or end inside a word
    (token offsets read as characters)."""
    result = scores.results[scores.primary]
    counted = next((scores.results[name] for name in scores.results if name in _SPAN_COUNTING), result)
    gold = sorted(label for label, c in result.per_type.items() if c.possible)
    pred = sorted(label for label, c in result.per_type.items() if c.predicted)
    found: List[str] = []
    if match.spans_key is None and not result.totals.possible and any(scores.span_groups.values()):
        found.append(f"the gold has no entities but span groups {_span_groups(scores)}: pass {_spans_key_hint(scores)}")
    # a view of the discontinuous spans may hold none of a side: said of the view
    where = "in the whole corpus" if match.view == "all" else f"in the view {match.view}"
    if not result.totals.possible and not result.totals.predicted:
        found.append(f"no gold span and no predicted span {where}: every score is 0 by definition")
    elif not result.totals.possible:
        found.append(f"no gold span {where}: recall is 0 by definition and every prediction is spurious")
    elif not result.totals.predicted and match.view != "all":
        found.append(f"no predicted span {where}: precision is 0 by definition")
    elif not result.totals.predicted:
        found.append(
            "no predicted span in the whole corpus: does the prediction hold any (entity annotation, "
            "the span group, tags the tag mode accepts)?"
        )
    if gold and pred and not set(gold) & set(pred):
        hint = " (they differ in case only: labels are compared as written)" if _case_twins(pred, gold) else ""
        found.append(
            f"no predicted label occurs in the gold{hint}: gold labels {_listed(gold)}; predicted labels {_listed(pred)}"
        )
    elif gold and pred:
        found.extend(
            label_warnings(
                {label: c.possible for label, c in counted.per_type.items() if c.possible},
                {label: c.predicted for label, c in counted.per_type.items() if c.predicted},
            )
        )
    for label in match.labels or ():
        other = gold if label in pred and label not in gold else pred if label in gold and label not in pred else None
        if other is not None:
            side, twin = ("prediction", "gold") if other is gold else ("gold", "prediction")
            case = [seen for seen in scores.labels_seen if seen != label and seen.casefold() == label.casefold()]
            hint = f"; the {twin} has {_listed(case)}" if case else ""
            found.append(f"the label {quoted(label)} of 'labels' occurs only in the {side}{hint}")
    found.extend(inside_word_warnings(scores.inside_words))
    note = unmapped_note(scores.unmapped)
    if note is not None:
        found.append(note)
    if match.link_schemes:
        found.extend(no_kb_id_warnings(scores.notes, scores.documents - scores.skipped))
    named = [scores.results[name] for name in match.relation_schemes if name in scores.results]
    if named and all(result.totals.is_empty for result in named):
        found.append(
            "no gold relation and no predicted relation in the whole corpus: every relation score is 0 by "
            "definition (do the files hold relations the reader reads?)"
        )
    return tuple(found)


def _case_twins(labels: Sequence[str], others: Sequence[str]) -> bool:
    folded = {label.casefold() for label in others}
    return any(label.casefold() in folded for label in labels)


def _listed(labels: Sequence[str]) -> str:
    return ", ".join(quoted(label) for label in labels)
