"""Grounding mentions (a string and a label, no offsets) in their text.

The candidates of a mention are the occurrences of its string found by the
first method, in this order, that finds any:

1. `exact`: the string as a substring (non-overlapping, left to right);
2. `normalized`: after Unicode NFKC, case folding and collapsing runs of
   whitespace on both sides, offsets mapped back to the original text;
3. `fuzzy` (only with a threshold in (0, 1]): the best local alignment of
   the string in the text with similarity >= threshold (rapidfuzz's
   partial-ratio alignment, score / 100), at most one per mention; the
   whitespace at the edges of the aligned window is not part of the span.

Assignment (`ground=`): `ordered` (the default: the k-th listing of a
string takes its k-th candidate; a listing past the last is a duplicate),
`first` (every string takes its first candidate; repeats are duplicates),
`all` (the first listing of a string takes every candidate, as spacy-llm's
`find_substrings` labels every occurrence; repeats add nothing and are
counted as duplicates). The grounding key of a mention is its string as its
method compares it; the label is not part of it. A mention with no
candidate is not found; one with more than one candidate is ambiguous.
"""

from functools import cache
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Sequence, Tuple

from ..exceptions import InputError, SettingError
from ..settings import GROUNDINGS, check_choice
from .normalize import check_mention_text, normalize, normalize_with_offsets
from .parse import short_repr

#: The methods, in the order they are tried.
METHODS: Tuple[str, ...] = ("exact", "normalized", "fuzzy")
STATUSES: Tuple[str, ...] = ("grounded", "not_found", "duplicate")
#: The counts of a grounding report, in the order reports list them: the
#: first six partition the mentions (a duplicate counts under no method).
GROUNDING_COUNTS: Tuple[str, ...] = (
    "mentions",
    "exact",
    "normalized",
    "fuzzy",
    "not_found",
    "duplicates",
    "ambiguous",
    "parse_failures",
)


class GroundedMention(NamedTuple):
    """One mention, grounded (a named tuple: grounding makes a million of
    them in a second).

    string (str), label (str): The mention as listed.
    spans (List[Tuple[int, int]]): The character offsets it was grounded
        to: one, several under `all`, none when not found or a duplicate.
    method (Optional[str]): "exact", "normalized", "fuzzy", or None (not
        found, or a duplicate).
    status (str): "grounded", "not_found" or "duplicate".
    ambiguous (bool): Its string has more than one candidate occurrence.
    """

    string: str
    label: str
    spans: List[Tuple[int, int]] = []
    method: Optional[str] = None
    status: str = "grounded"
    ambiguous: bool = False


#: Makes a GroundedMention from a tuple of its six fields without the
#: keyword handling of its constructor.
_record = tuple.__new__


def check_fuzzy(fuzzy: Optional[float]) -> Optional[float]:
    """None, or a threshold in (0, 1]; SettingError naming 'fuzzy'."""
    if fuzzy is None:
        return None
    if isinstance(fuzzy, bool) or not isinstance(fuzzy, (int, float)) or not 0 < fuzzy <= 1:
        raise SettingError(f"'fuzzy' is a similarity threshold in (0, 1], got {fuzzy!r}", "fuzzy")
    return float(fuzzy)


def mention_problem(string: Any, label: Any) -> Optional[str]:
    """What is wrong with a mention's string and label, as text that follows
    "mention 3 " in a message (what it has, and what is valid); None when
    both are fine. The one mention check of `ground_mentions` and the
    `mentions` reader."""
    if not isinstance(string, str) or not string.strip():
        return f"has the string {short_repr(string)}; a mention's string is a non-blank string"
    if label is None:
        return f"({string!r}) has no label; labels are non-empty strings"
    if not isinstance(label, str) or not label:
        return f"({string!r}) has the label {short_repr(label)}; labels are non-empty strings"
    return None


def check_mentions(mentions: Any, where: str = "") -> List[Tuple[str, str]]:
    """The (string, label) pairs of a document, checked: InputError naming
    the first bad one (its index; `where` the document, for a message that
    starts "document 3, mention 1 ..."). A string or label of a subclass of
    str (numpy's) becomes a str."""
    if isinstance(mentions, (str, bytes, dict)) or not hasattr(mentions, "__iter__"):
        raise InputError(f"{where}the mentions are {short_repr(mentions)}, not a list of (string, label) pairs")
    items = mentions if type(mentions) is list else list(mentions)
    if set(map(type, items)) <= {tuple, list}:  # the common case, checked in one pass
        try:
            for string, label in items:
                if type(string) is not str or type(label) is not str or not label or not string or string.isspace():
                    break
            else:
                return items
        except ValueError:  # an item of another length: said below
            pass
    out = []
    for k, item in enumerate(items):
        if isinstance(item, (str, bytes, dict)) or not hasattr(item, "__len__") or len(item) != 2:
            raise InputError(f"{where}mention {k} is {short_repr(item)}, not a (string, label) pair")
        string, label = item
        problem = mention_problem(string, label)
        if problem is not None:
            raise InputError(f"{where}mention {k} {problem}")
        out.append((str(string), str(label)))
    return out


class Text:
    """A document's text with what grounding needs of it, made once: its
    normalized form and the map back to the original characters."""

    __slots__ = ("text", "_normalized")

    def __init__(self, text: str) -> None:
        self.text = text
        self._normalized: Optional[Tuple[str, List[int], List[int]]] = None

    @property
    def normalized(self) -> Tuple[str, List[int], List[int]]:
        """(normalized text, start in the original of each of its
        characters, end in the original of each)."""
        if self._normalized is None:
            self._normalized = normalize_with_offsets(self.text)
        return self._normalized

    def exact(self, string: str) -> List[Tuple[int, int]]:
        return occurrences(self.text, string)

    def normalized_occurrences(self, key: str) -> List[Tuple[int, int]]:
        """The occurrences of a normalized (non-empty) string in the
        normalized text, as offsets into the original."""
        if self._normalized is None:
            self._normalized = normalize_with_offsets(self.text)
        norm, starts, ends = self._normalized
        found = occurrences_from(norm.find, key, norm.find(key))
        if type(starts) is range:  # every offset kept (`_normalize_ascii`)
            return found
        return [(starts[s], ends[e - 1]) for s, e in found]

    def fuzzy(self, string: str, threshold: float) -> List[Tuple[int, int]]:
        found = _aligner()(string, self.text, score_cutoff=threshold * 100)
        if found is None or found.score < threshold * 100:
            return []
        # rapidfuzz aligns windows as long as the string, so a window may
        # take the space next to a word ("Paris " for "Pariss"): a span
        # never starts or ends with whitespace.
        start, end = found.dest_start, found.dest_end
        while start < end and self.text[start].isspace():
            start += 1
        while end > start and self.text[end - 1].isspace():
            end -= 1
        return [(start, end)] if end > start else []


@cache
def _aligner() -> Any:
    """rapidfuzz's partial-ratio alignment, imported once, when first needed
    (the extra `llm` installs it)."""
    try:
        from rapidfuzz.fuzz import partial_ratio_alignment
    except ImportError:  # pragma: no cover - the extra is installed in the tests
        raise SettingError("'fuzzy' grounding needs rapidfuzz: pip install 'spacy-spanf1[llm]'", "fuzzy") from None
    return partial_ratio_alignment


def occurrences(text: str, string: str) -> List[Tuple[int, int]]:
    """Non-overlapping occurrences of string in text, left to right."""
    if not string:
        return []
    return occurrences_from(text.find, string, text.find(string))


def occurrences_from(find: Any, string: str, start: int) -> List[Tuple[int, int]]:
    """The non-overlapping occurrences of a non-empty string from the one at
    start on (none when start is -1), left to right; find: the text's
    `str.find`."""
    found = []
    n = len(string)
    while start >= 0:
        end = start + n
        found.append((start, end))
        start = find(string, end)
    return found


def ground_mentions(
    text: str,
    mentions: Sequence[Tuple[str, str]],
    *,
    ground: str = GROUNDINGS[0],
    fuzzy: Optional[float] = None,
) -> List[GroundedMention]:
    """Ground each mention in text (one record per mention, in order).

    mentions (Sequence[Tuple[str, str]]): (string, label) pairs: non-blank
        strings, non-empty labels (str, or a subclass such as numpy's str_);
        InputError (a ValueError) naming the first bad one.
    ground (str): "ordered", "first" or "all".
    fuzzy (Optional[float]): The similarity threshold of fuzzy grounding,
        in (0, 1]; None: no fuzzy stage.
    """
    if ground not in GROUNDINGS:  # the checks, each called only when it has something to say
        check_choice("ground", ground, GROUNDINGS)
    threshold = None if fuzzy is None else check_fuzzy(fuzzy)
    if type(text) is not str:
        check_mention_text(text, "the text")
    return ground_in(Text(text), check_mentions(mentions), ground, threshold)


def ground_in(
    doc: Text, mentions: Sequence[Tuple[str, str]], ground: str, threshold: Optional[float]
) -> List[GroundedMention]:
    """`ground_mentions` on a prepared Text (settings already checked).

    A string's exact occurrences are found once per document, whatever the
    number of its listings; the normalized and fuzzy stages run only for
    strings exact search does not find. The common mention (its string
    found once, as it is, listed once) costs two finds, a dictionary entry
    and its record."""
    find = doc.text.find
    every, ordered = ground == "all", ground == "ordered"
    record, grounded_mention = _record, GroundedMention
    # a string found as it is: its candidates; how often it was listed, for
    # a string listed more than once
    exact: Dict[str, List[Tuple[int, int]]] = {}
    repeats: Dict[str, int] = {}
    other: Dict[Tuple[str, str], List[Tuple[int, int]]] = {}
    listed: Dict[Tuple[str, str], int] = {}
    out: List[GroundedMention] = []
    append = out.append
    for string, label in mentions:
        if string in exact:  # listed again
            candidates = exact[string]
            k = repeats.get(string, 1)
            repeats[string] = k + 1
            how = "exact"
        else:
            start = find(string)
            if start >= 0 and string:
                end = start + len(string)
                following = find(string, end)
                if following < 0:  # the common case: one occurrence
                    # the record's list is the string's candidates: a later
                    # listing only reads that it holds one
                    candidates = exact[string] = [(start, end)]
                    append(record(grounded_mention, (string, label, candidates, "exact", "grounded", False)))
                    continue
                candidates = exact[string] = [(start, end), *occurrences_from(find, string, following)]
                k, how = 0, "exact"
            else:
                key, candidates = mention_candidates(doc, string, threshold, other)
                if not candidates:
                    append(record(grounded_mention, (string, label, [], None, "not_found", False)))
                    continue
                k = listed.get(key, 0)
                listed[key] = k + 1
                how = key[0]
        # listing k of its grounding key (from 0)
        places = assigned(candidates, k, every, ordered)
        if places is None:
            append(record(grounded_mention, (string, label, [], None, "duplicate", len(candidates) > 1)))
        else:
            append(record(grounded_mention, (string, label, places, how, "grounded", len(candidates) > 1)))
    return out


def assigned(candidates: List[Tuple[int, int]], k: int, every: bool, ordered: bool) -> Optional[List[Tuple[int, int]]]:
    """The assignment rule (`ground=`), of both grounding loops: the
    occurrences that listing k (from 0) of a grounding key takes of its
    candidates. The first listing takes every candidate under `all`, the
    first otherwise; a later one its k-th under `ordered`. None: a
    duplicate (under `first` and `all`, every later listing; under
    `ordered`, one past the candidates)."""
    if k == 0:
        return list(candidates) if every else [candidates[0]]
    if ordered and k < len(candidates):
        return [candidates[k]]
    return None


def mention_candidates(
    doc: Text, string: str, threshold: Optional[float], cache: Dict[Tuple[str, str], List[Tuple[int, int]]]
) -> Tuple[Tuple[str, str], List[Tuple[int, int]]]:
    """(grounding key, candidate occurrences) of a string exact search did
    not find: by normalized search, else fuzzy alignment (with a threshold);
    the key of a string found by neither is its exact key."""
    norm = normalize(string)
    if norm:
        key = ("normalized", norm)
        found = cache.get(key)
        if found is None:
            found = cache[key] = doc.normalized_occurrences(norm)
        if found:
            return key, found
    if threshold is not None and string.strip():
        key = ("fuzzy", string)
        found = cache.get(key)
        if found is None:
            found = cache[key] = doc.fuzzy(string, threshold)
        if found:
            return key, found
    return ("exact", string), []


#: The kinds of mention a document's notes give examples of, other than
#: grounded_exact (the mentions none of these but ambiguous), in the order
#: of the notes.
NOTED_KINDS = ("grounded_normalized", "grounded_fuzzy", "not_found", "duplicates", "ambiguous")


def ground_noted(
    text: str, pairs: Sequence[Tuple[str, str]], ground: str, threshold: Optional[float], unplaced: Dict[int, Any]
) -> Tuple[List[Tuple[int, int, str]], Dict[str, List[int]]]:
    """The spans of `row_and_spans(ground_in(...))` of one document's
    checked pairs in char unit, without a record a mention (the mentions
    reader's documents, and `predicted.spans_in_bulk`, which grounds a corpus),
    and the positions in `pairs` of the mentions of each kind of
    `NOTED_KINDS`, in order (its grounding row: `noted_row`); `unplaced`
    filled. A mention of none of the first four kinds is exact: the common
    one (its string found once, as it is, listed once) costs two finds, a
    dictionary entry and its span."""
    ordered, every = ground == "ordered", ground == "all"
    find = text.find
    spans: List[Tuple[int, int, str]] = []
    append = spans.append
    kinds: Dict[str, List[int]] = {}
    # a string found as it is -> None (one occurrence) or its candidates
    exact: Dict[str, Optional[List[Tuple[int, int]]]] = {}
    repeats: Dict[str, int] = {}  # how often a string of several occurrences was listed
    without_place: List[Tuple[str, str, str]] = []  # (string, label, status), in order
    doc: Optional[Text] = None
    for position, (string, label) in enumerate(pairs):
        if string in exact:  # listed again
            candidates = exact[string]
            if candidates is not None:
                kinds.setdefault("ambiguous", []).append(position)
                k = repeats.get(string, 1)
                repeats[string] = k + 1
                places = assigned(candidates, k, every, ordered)
                if places is not None:
                    for start, end in places:
                        append((start, end, label))
                    continue
            kinds.setdefault("duplicates", []).append(position)
            if not every:
                without_place.append((string, label, "duplicate"))
            continue
        start = find(string)
        if start >= 0:
            end = start + len(string)
            following = find(string, end)
            if following < 0:  # the common case: one occurrence
                exact[string] = None
                append((start, end, label))
                continue
            candidates = exact[string] = [(start, end), *occurrences_from(find, string, following)]
            kinds.setdefault("ambiguous", []).append(position)
            for start, end in assigned(candidates, 0, every, ordered) or ():
                append((start, end, label))
            continue
        if doc is None:
            doc = Text(text)
            other: Dict[Any, Any] = {}
            listed: Dict[Any, Any] = {}
        key, candidates = mention_candidates(doc, string, threshold, other)
        if not candidates:
            kinds.setdefault("not_found", []).append(position)
            without_place.append((string, label, "not_found"))
            continue
        k = listed.get(key, 0)
        listed[key] = k + 1
        if len(candidates) > 1:
            kinds.setdefault("ambiguous", []).append(position)
        places = assigned(candidates, k, every, ordered)
        if places is not None:
            for start, end in places:
                append((start, end, label))
        else:
            kinds.setdefault("duplicates", []).append(position)
            if not every:
                without_place.append((string, label, "duplicate"))
            continue
        kinds.setdefault("grounded_normalized" if key[0] == "normalized" else "grounded_fuzzy", []).append(position)
    end = len(text)
    for string, label, status in without_place:
        end += 1
        append((end, end + 1, label))
        unplaced[end] = (string, status)
        end += 1
    return spans, kinds


def noted_row(n: int, counts: Mapping[str, int]) -> Dict[str, int]:
    """The grounding row of n checked pairs grounded by `ground_noted`, from
    the number of mentions of each kind it found (kind -> count; a kind of
    none may be left out): a mention of none of the first four kinds is
    exact."""
    if not counts:  # the common document: every mention exact
        return {
            "mentions": n,
            "exact": n,
            "normalized": 0,
            "fuzzy": 0,
            "not_found": 0,
            "duplicates": 0,
            "ambiguous": 0,
            "parse_failures": 0,
        }
    counts = {kind: counts.get(kind, 0) for kind in NOTED_KINDS}
    return {
        "mentions": n,
        "exact": n - sum(counts.values()) + counts["ambiguous"],
        "normalized": counts["grounded_normalized"],
        "fuzzy": counts["grounded_fuzzy"],
        "not_found": counts["not_found"],
        "duplicates": counts["duplicates"],
        "ambiguous": counts["ambiguous"],
        "parse_failures": 0,
    }
