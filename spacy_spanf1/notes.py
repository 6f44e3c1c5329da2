"""Notes: what the readers and the pairing met in the input and handled
without stopping (span texts that disagree with their offsets, offsets
converted from UTF-16 code units, gold documents without a predicted one).
A note counts them and keeps the first few examples, so that nothing is
handled silently and reports stay a readable size on any corpus.
"""
from typing import Any, Dict, List, Mapping

#: kind -> {"count": int, "examples": List[str]}
Notes = Dict[str, Dict[str, Any]]


def note(count: int, examples: List[str]) -> Dict[str, Any]:
    """One note: how many, and the first examples."""
    return {"count": int(count), "examples": list(examples)}


def merge_notes(into: Notes, notes: Mapping[str, Mapping[str, Any]], limit: int) -> None:
    """Add notes to `into`: counts add, examples are kept up to limit."""
    for kind, found in notes.items():
        total = into.setdefault(kind, note(0, []))
        total["count"] += found["count"]
        room = limit - len(total["examples"])
        if room > 0:
            total["examples"].extend(found["examples"][:room])


#: The notes of grounding mentions without offsets (the `mentions` reader)
#: -> the counts of the grounding report.
GROUNDING_NOTES: Dict[str, str] = {
    "grounded_exact": "exact",
    "grounded_normalized": "normalized",
    "grounded_fuzzy": "fuzzy",
    "not_found": "not_found",
    "duplicates": "duplicates",
    "ambiguous": "ambiguous",
    "parse_failures": "parse_failures",
}


def grounding_report(notes: Mapping[str, Mapping[str, Any]]) -> Dict[str, int]:
    """The grounding counts of one side's notes ({} when nothing was
    grounded): mentions, then exact, normalized, fuzzy, not_found and
    duplicates (which partition the mentions), ambiguous, parse_failures."""
    if not any(kind in notes for kind in GROUNDING_NOTES):
        return {}
    counts = {name: int(notes[kind]["count"]) if kind in notes else 0 for kind, name in GROUNDING_NOTES.items()}
    partition = ("exact", "normalized", "fuzzy", "not_found", "duplicates")
    return {"mentions": sum(counts[name] for name in partition), **counts}
