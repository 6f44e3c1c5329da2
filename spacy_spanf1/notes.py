"""Notes: what the readers and the pairing met in the input and handled
without stopping (span texts that disagree with their offsets, offsets
converted from UTF-16 code units, gold documents without a predicted one).
A note counts them and keeps the first few examples, so that nothing is
handled silently and reports stay a readable size on any corpus.

Warnings: what the whole-corpus checks find suspicious but not wrong
(labels found on one side only, token offsets read as characters), kept by
a result and given by the Python front doors as UserWarnings.
"""

import contextlib
import contextvars
import difflib
import warnings
from typing import Any, Dict, Iterable, Iterator, List, Mapping, Optional, Sequence, Tuple

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
    "text_mismatch": (
        "warn",
        "span(s) quote a text that is not the text at their offsets",
        "scored at their offsets (--text-mismatch error stops instead)",
    ),
    "utf16_offsets": (
        "info",
        "document(s) count offsets in UTF-16 code units (as browser front ends do)",
        "converted to characters",
    ),
    "newline_offsets": ("info", "document(s) count a \\r\\n line break as one character", "converted to characters"),
    "utf16_newline_offsets": (
        "info",
        "document(s) count UTF-16 code units and \\r\\n as one character",
        "converted to characters",
    ),
    "duplicate_rows": (
        "warn",
        "row(s) repeat a span of their document",
        "counted once (identical spans count once; the Feedback Prize notebook would count each copy as a false positive)",
    ),
    "not_found": (
        "warn",
        "mention(s) are not in the text (hallucinated or paraphrased)",
        "scored as predictions that match nothing",
    ),
    "duplicates": (
        "warn",
        "mention(s) repeat a string more often than the text holds it",
        "scored as predictions that match nothing (under --ground all, they add nothing)",
    ),
    "parse_failures": ("warn", "answer(s) do not parse", "their documents predict nothing"),
    "missing_documents": (
        "warn",
        "gold document(s) have no predicted document",
        "scored as predicting nothing (--missing-pred error stops instead)",
    ),
    "no_kb_ids": (
        "info",
        "document(s) carry no knowledge-base id",
        "their spans are NIL under the link schemes",
    ),
    "dropped_relations": (
        "warn",
        "relation(s) have an argument that is not among the spans scored once aligned or placed",
        "not scored",
    ),
    "expanded_to_tokens": (
        "info",
        "predicted span(s) in another format do not start and end on gold token boundaries",
        'expanded to the gold tokens they touch, as Doc.char_span(alignment_mode="expand")',
    ),
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


# --------------------------------------------------------------------------
# Warnings: what the whole-corpus checks find suspicious but not wrong. A
# result keeps them (`.warnings`, "warnings" in its JSON), the commands
# print them, and the Python front doors give each as a UserWarning.
# --------------------------------------------------------------------------

#: At most this many labels of one side get a warning each; the others are
#: counted in one more.
LABELS_LISTED = 5

_SHOWN = contextvars.ContextVar("spacy_spanf1_warnings_shown", default=False)


@contextlib.contextmanager
def warnings_shown() -> Iterator[None]:
    """Inside it the front doors give no UserWarning: the caller shows the
    result's warnings itself (the commands print them)."""
    token = _SHOWN.set(True)
    try:
        yield
    finally:
        _SHOWN.reset(token)


def warn_each(found: Sequence[str], stacklevel: int = 3) -> None:
    """Each warning of a result as a UserWarning (unless `warnings_shown`)."""
    if _SHOWN.get():
        return
    for text in found:
        warnings.warn(text, UserWarning, stacklevel=stacklevel)


def quoted(value: str) -> str:
    """Data (a label) in a message, in double quotes (a setting's name is in
    single quotes, which the command line turns into its flag)."""
    return '"' + value.replace('"', '\\"') + '"'


def closest_label(label: str, others: Iterable[str]) -> Optional[str]:
    """The label of `others` most like `label`: equal to it but for case;
    else one that begins with it or that it begins with (PER, PERSON), else
    one that holds it or that it holds (both of 2 characters or more; of
    several, the nearest in length); else the closest by difflib's ratio
    (0.6 or more, case aside). None when none is close."""
    folded = label.casefold()
    by_folded: Dict[str, str] = {}
    for other in sorted(others):
        by_folded.setdefault(other.casefold(), other)
    if folded in by_folded:
        return by_folded[folded]
    for test in (
        lambda o: o.startswith(folded) or folded.startswith(o),
        lambda o: o in folded or folded in o,
    ):
        found = [o for o in by_folded if min(len(o), len(folded)) >= 2 and test(o)]
        if found:
            return by_folded[min(found, key=lambda o: (abs(len(o) - len(folded)), o))]
    close = difflib.get_close_matches(folded, list(by_folded), n=1, cutoff=0.6)
    return by_folded[close[0]] if close else None


def spans_counted(n: int) -> str:
    """ "1 span", "1,234 spans"."""
    return f"{n} span" if n == 1 else f"{n:,} spans"


#: How messages name the sides.
SIDE_NAMES = {"gold": "gold", "pred": "predicted"}


def unmapped_note(unmapped: Mapping[str, Mapping[str, int]]) -> Optional[str]:
    """One line naming, by side, the labels a label map does not name and
    their spans (scored as they are); None when there are none."""
    parts = [
        f"the {SIDE_NAMES[side]} labels "
        + ", ".join(f"{quoted(label)} ({spans_counted(n)})" for label, n in sorted(labels.items()))
        for side, labels in unmapped.items()
        if labels
    ]
    if not parts:
        return None
    return "the label map does not name " + "; ".join(parts) + ": scored as they are"


def one_sided_labels(
    counts: Mapping[str, int], others: Iterable[str], *, lone: str, closest: str, rest: str
) -> List[str]:
    """A warning for each label of `counts` (label -> its spans) that
    `others` lacks, the labels with most spans first, at most LABELS_LISTED
    (the others counted in one more warning): `lone` words the label and
    its spans ("the predicted label {label} ({spans}) never occurs in the
    gold"), `closest` the closest label of the others ("closest gold label
    {label}"), `rest` the labels left over ("{n} more predicted labels
    ({spans}) never occur in the gold")."""
    others = set(others)
    alone = sorted((label for label in counts if label not in others), key=lambda label: (-counts[label], label))
    found = []
    for label in alone[:LABELS_LISTED]:
        text = lone.format(label=quoted(label), spans=spans_counted(counts[label]))
        near = closest_label(label, others)
        if near is not None:
            text += "; " + closest.format(label=quoted(near))
        found.append(text)
    left = alone[LABELS_LISTED:]
    if left:
        shown = ", ".join(quoted(label) for label in left[:LABELS_LISTED]) + (
            ", …" if len(left) > LABELS_LISTED else ""
        )
        found.append(rest.format(n=len(left), spans=spans_counted(sum(counts[label] for label in left))) + f": {shown}")
    return found


def label_warnings(gold: Mapping[str, int], pred: Mapping[str, int]) -> List[str]:
    """What the labels of gold and prediction (label -> its spans) say of
    each other: a predicted label that never occurs in the gold (another
    tag set, a rename, a typo), with the closest gold label; a gold label
    never predicted only when its closest predicted label is itself one
    that never occurs in the gold and not already paired with it (a likely
    rename: a gold label the system simply never predicts is low recall,
    not suspicious)."""
    found = one_sided_labels(
        pred,
        gold,
        lone="the predicted label {label} ({spans}) never occurs in the gold",
        closest="closest gold label {label}",
        rest="{n} more predicted labels ({spans}) never occur in the gold",
    )
    pred_only = {label for label in pred if label not in gold}
    paired = {(closest_label(label, gold), label) for label in pred_only}
    renamed = 0
    for label in sorted((label for label in gold if label not in pred), key=lambda label: (-gold[label], label)):
        near = closest_label(label, pred)
        if near in pred_only and (label, near) not in paired and renamed < LABELS_LISTED:
            renamed += 1
            found.append(
                f"the gold label {quoted(label)} ({spans_counted(gold[label])}) is never predicted; closest "
                f"predicted label {quoted(near)}, which never occurs in the gold"
            )
    return found


#: Spans cut inside words: a side is suspicious from this many spans on,
#: when at least this share of them start or end inside a word.
INSIDE_WORD_SPANS = 20
INSIDE_WORD_SHARE = 0.5
#: Examples kept of spans cut inside words, by side.
INSIDE_WORD_EXAMPLES = 3
#: The spans of a side looked at (of one file, or of each shard).
INSIDE_WORD_CHECKED = 10_000


def _word_char(char: str) -> bool:
    """A letter or digit of a script written with spaces between words
    (below U+0E00, and Latin and Greek extended): Thai, Lao, Myanmar,
    Khmer, Chinese, Japanese and Korean spans may end inside a run of
    letters."""
    return char.isalnum() and (char < "\u0e00" or "\u1e00" <= char < "\u2000")


def cuts_word(text: str, start: int, end: int) -> bool:
    """Whether the characters [start, end) of text start or end inside a
    word (a word character on both sides of the start, or of the end)."""
    n = len(text)
    if not 0 <= start < end <= n:
        return False
    return (0 < start and _word_char(text[start - 1]) and _word_char(text[start])) or (
        end < n and _word_char(text[end - 1]) and _word_char(text[end])
    )


class InsideWords:
    """Counts, by side, the character spans that start or end inside a
    word, as the corpus streams (`add`), with the first few examples: a
    file of token offsets read as characters cuts most of its spans so.
    The first INSIDE_WORD_CHECKED spans of a side are looked at (such a
    file is wrong throughout), so that a large corpus pays nothing more;
    every span added is counted (once both sides are `full` the caller may
    stop adding).

    counts: side -> [spans, spans looked at, those inside a word, examples]."""

    def __init__(self) -> None:
        self.counts: Dict[str, list] = {}

    def add(self, side: str, name: str, text: str, spans: Sequence[Any]) -> None:
        if not spans:
            return
        entry = self.counts.get(side)
        if entry is None:
            entry = self.counts[side] = [0, 0, 0, []]
        entry[0] += len(spans)
        room = INSIDE_WORD_CHECKED - entry[1]
        if room <= 0:
            return
        looked = spans[:room]
        entry[1] += len(looked)
        for span in looked:
            start, end = span[0], span[1]
            if cuts_word(text, start, end):
                entry[2] += 1
                if len(entry[3]) < INSIDE_WORD_EXAMPLES:
                    entry[3].append(f"({start}, {end}) = {quoted(text[start:end])} in {name}")

    def full(self, *sides: str) -> bool:
        """Whether each of the sides has had spans it did not look at (the
        caller may stop adding: the counts say that some were not)."""
        return all(side in self.counts and self.counts[side][0] > self.counts[side][1] for side in sides)

    def as_dict(self) -> Dict[str, Dict[str, Any]]:
        """side -> {"spans", "checked", "inside", "examples", "capped"}: what
        `add` counted; capped: some spans were not looked at."""
        return {
            side: {"spans": n, "checked": checked, "inside": inside, "examples": list(examples), "capped": checked < n}
            for side, (n, checked, inside, examples) in self.counts.items()
        }


def merge_inside_words(
    a: Mapping[str, Mapping[str, Any]], b: Mapping[str, Mapping[str, Any]]
) -> Dict[str, Dict[str, Any]]:
    """The counts of `InsideWords.as_dict` of two parts of a corpus, added."""
    out = {side: dict(found, examples=list(found["examples"])) for side, found in a.items()}
    for side, found in b.items():
        total = out.setdefault(side, {"spans": 0, "checked": 0, "inside": 0, "examples": [], "capped": False})
        for key in ("spans", "checked", "inside"):
            total[key] += found[key]
        total["capped"] = total["capped"] or found["capped"]
        total["examples"] = (total["examples"] + list(found["examples"]))[:INSIDE_WORD_EXAMPLES]
    return out


def inside_word_warnings(counts: Mapping[str, Mapping[str, Any]]) -> List[str]:
    """A warning for each side whose character spans mostly start or end
    inside a word (INSIDE_WORD_SPANS spans or more, INSIDE_WORD_SHARE of
    them or more): token offsets read as characters, most likely."""
    found = []
    for side in ("gold", "pred"):
        seen = counts.get(side)
        if not seen or seen["checked"] < INSIDE_WORD_SPANS or seen["inside"] < INSIDE_WORD_SHARE * seen["checked"]:
            continue
        what = "gold" if side == "gold" else "predicted"
        looked = f" looked at (the first {INSIDE_WORD_CHECKED:,} of each file)" if seen.get("capped") else ""
        examples = "; ".join(seen["examples"])
        found.append(
            f"{seen['inside']:,} of {seen['checked']:,} {what} spans{looked} start or end inside a word "
            f'(e.g. {examples}): are these token offsets? pass unit="token"'
        )
    return found
