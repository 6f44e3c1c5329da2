"""Notes: what the readers and the pairing met in the input and handled
without stopping (span texts that disagree with their offsets, offsets
converted from UTF-16 code units, gold documents without a predicted one).
A note counts them and keeps the first few examples, so that nothing is
handled silently and reports stay a readable size on any corpus.
"""
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

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


#: How a summary words each note: kind -> (icon: "warn" or "info", what
#: was found, counted, what was done with it).
NOTE_TEXTS: Dict[str, Tuple[str, str, str]] = {
    "text_mismatch": ("warn", "span(s) quote a text that is not the text at their offsets",
                      "scored at their offsets (--text-mismatch error stops instead)"),
    "utf16_offsets": ("info", "document(s) count offsets in UTF-16 code units (as browser front ends do)",
                      "converted to characters"),
    "newline_offsets": ("info", "document(s) count a \\r\\n line break as one character",
                        "converted to characters"),
    "utf16_newline_offsets": ("info", "document(s) count UTF-16 code units and \\r\\n as one character",
                              "converted to characters"),
    "duplicate_rows": ("warn", "row(s) repeat a span of their document",
                       "counted once (identical spans count once; the Feedback Prize notebook would count each copy as a false positive)"),
    "not_found": ("warn", "mention(s) are not in the text (hallucinated or paraphrased)",
                  "scored as predictions that match nothing"),
    "duplicates": ("warn", "mention(s) repeat a string more often than the text holds it",
                   "scored as predictions that match nothing (under --ground all, they add nothing)"),
    "parse_failures": ("warn", "answer(s) do not parse", "their documents predict nothing"),
    "missing_documents": ("warn", "gold document(s) have no predicted document",
                          "scored as predicting nothing (--missing-pred error stops instead)"),
    "expanded_to_tokens": ("info", "predicted span(s) in another format do not start and end on gold token boundaries",
                           'expanded to the gold tokens they touch, as Doc.char_span(alignment_mode="expand")'),
}



def note_lines(
    notes: Mapping[str, Mapping[str, Mapping[str, Any]]], sources: Sequence[str], baseline: Optional[str] = None
) -> List[Tuple[str, str]]:
    """(icon, line) of each note, by side ("gold", "pred", "baseline"), with
    its first examples; the grounding counts are left to the grounding
    report (`grounding_report`)."""
    lines = []
    for side, found in notes.items():
        where = {"gold": sources[0], "pred": sources[1]}.get(side, baseline or side) if len(sources) == 2 else side
        side_name = {"gold": "gold", "pred": "predicted"}.get(side, side)
        for kind, n in found.items():
            if kind.startswith("grounded_") or kind == "ambiguous":
                continue
            icon, what, done = NOTE_TEXTS.get(kind, ("info", kind.replace("_", " "), ""))
            examples = "; ".join(n["examples"]) + ("; …" if n["count"] > len(n["examples"]) else "")
            lines.append((icon, f"{n['count']} {what} ({side_name}, {where}): {done}. {examples}".replace(": .", ":")))
    return lines
