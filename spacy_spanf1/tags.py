"""Tag sequences (BIO/IOB1/IOB2/IOE1/IOE2/IOBES/BILOU) to spans, and
seqeval-compatible scores over them. No spaCy objects are involved.

Two decoding modes, both matching seqeval 1.2.2 on every input, well-formed
or not:

- ``"conll"``: seqeval's lenient default (`get_entities`, conlleval's rules).
  Any tag is accepted; the first character (last with ``suffix=True``) is the
  prefix and the rest, after the first ``-``, is the label.
- ``"strict"``: seqeval's ``mode="strict"`` with a named scheme (its
  ``Entities(sequences, scheme, suffix)``). A tag whose prefix the scheme does
  not allow is an error, and so is an unknown or missing prefix letter.

Every scheme is one table (allowed prefixes; start, inside and end patterns),
shaped like seqeval's ``scheme.py``; one decoder runs all of them. It parses
each distinct tag string once and then decides every position of a corpus at
once, with numpy, from those tables (see "Decoding" below). Spans are
``(start, end, label)`` tuples with ``end`` exclusive (seqeval's
``get_entities`` gives inclusive ends; they are converted here).

One deliberate difference from seqeval: when neither side has any entity,
seqeval's "macro avg" is NaN (numpy's mean of an empty array, with a
RuntimeWarning); here it is 0.0, as for every other empty ratio in this package.
"""
from dataclasses import dataclass, field
from itertools import chain
from types import MappingProxyType
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import numpy

from .metrics import f_score_seqeval, safe_div

__all__ = [
    "TAG_MODES",
    "TAG_SCHEMES",
    "TagReport",
    "TagScheme",
    "TagScore",
    "evaluate_tags",
    "spans_from_tags",
]

TagSpan = Tuple[int, int, str]
_Entities = Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]  # label ids, starts, ends

TAG_MODES: Tuple[str, ...] = ("conll", "strict")

# --------------------------------------------------------------------------
# Scheme tables (strict mode), as in seqeval/scheme.py
# --------------------------------------------------------------------------

PREFIXES = "IOBESUL"  # seqeval's Prefix members, in their order
ANY = PREFIXES  # Prefix.ANY
SAME, DIFF, ANY_LABEL = "same", "diff", "any"  # seqeval's Tag.SAME/DIFF/ANY

Pattern = Tuple[str, str, str]  # (previous prefixes, current prefixes, label rule)


@dataclass(frozen=True)
class TagScheme:
    """A tagging scheme for strict decoding, one table as in seqeval.

    name (str): The scheme's name, e.g. "IOB2".
    allowed_prefixes (str): The prefix letters a tag may carry.
    start_patterns (Tuple[Pattern, ...]): (previous prefixes, current prefixes,
        label rule) triples; a match means the current tag starts a chunk.
    inside_patterns (Tuple[Pattern, ...]): A match means the current tag
        continues the chunk of the previous one.
    end_patterns (Tuple[Pattern, ...]): Checked at the first tag after a
        chunk; a match means the chunk ended properly and becomes a span.
    """

    name: str
    allowed_prefixes: str
    start_patterns: Tuple[Pattern, ...]
    inside_patterns: Tuple[Pattern, ...]
    end_patterns: Tuple[Pattern, ...]


IOB1 = TagScheme(
    "IOB1",
    allowed_prefixes="IOB",
    start_patterns=(
        ("O", "I", ANY_LABEL),
        ("I", "I", DIFF),
        ("B", "I", ANY_LABEL),
        ("I", "B", SAME),
        ("B", "B", SAME),
    ),
    inside_patterns=(("B", "I", SAME), ("I", "I", SAME)),
    end_patterns=(
        ("I", "I", DIFF),
        ("I", "O", ANY_LABEL),
        ("I", "B", ANY_LABEL),
        ("B", "O", ANY_LABEL),
        ("B", "I", DIFF),
        ("B", "B", SAME),
    ),
)
IOB2 = TagScheme(
    "IOB2",
    allowed_prefixes="IOB",
    start_patterns=((ANY, "B", ANY_LABEL),),
    inside_patterns=(("B", "I", SAME), ("I", "I", SAME)),
    end_patterns=(
        ("I", "O", ANY_LABEL),
        ("I", "I", DIFF),
        ("I", "B", ANY_LABEL),
        ("B", "O", ANY_LABEL),
        ("B", "I", DIFF),
        ("B", "B", ANY_LABEL),
    ),
)
IOE1 = TagScheme(
    "IOE1",
    allowed_prefixes="IOE",
    start_patterns=(
        ("O", "I", ANY_LABEL),
        ("I", "I", DIFF),
        ("E", "I", ANY_LABEL),
        ("E", "E", SAME),
    ),
    inside_patterns=(("I", "I", SAME), ("I", "E", SAME)),
    end_patterns=(
        ("I", "I", DIFF),
        ("I", "O", ANY_LABEL),
        ("I", "E", DIFF),
        ("E", "I", SAME),
        ("E", "E", SAME),
    ),
)
IOE2 = TagScheme(
    "IOE2",
    allowed_prefixes="IOE",
    start_patterns=(
        ("O", "I", ANY_LABEL),
        ("O", "E", ANY_LABEL),
        ("E", "I", ANY_LABEL),
        ("E", "E", ANY_LABEL),
        ("I", "I", DIFF),
        ("I", "E", DIFF),
    ),
    inside_patterns=(("I", "E", SAME), ("I", "I", SAME)),
    end_patterns=(("E", ANY, ANY_LABEL),),
)
IOBES = TagScheme(
    "IOBES",
    allowed_prefixes="IOBES",
    start_patterns=((ANY, "B", ANY_LABEL), (ANY, "S", ANY_LABEL)),
    inside_patterns=(
        ("B", "I", SAME),
        ("B", "E", SAME),
        ("I", "I", SAME),
        ("I", "E", SAME),
    ),
    end_patterns=(("S", ANY, ANY_LABEL), ("E", ANY, ANY_LABEL)),
)
BILOU = TagScheme(
    "BILOU",
    allowed_prefixes="BILOU",
    start_patterns=((ANY, "B", ANY_LABEL), (ANY, "U", ANY_LABEL)),
    inside_patterns=(
        ("B", "I", SAME),
        ("B", "L", SAME),
        ("I", "I", SAME),
        ("I", "L", SAME),
    ),
    end_patterns=(("U", ANY, ANY_LABEL), ("L", ANY, ANY_LABEL)),
)

# The only list of scheme names; error messages list them in this order.
TAG_SCHEMES: Mapping[str, TagScheme] = MappingProxyType(
    {s.name: s for s in (IOB1, IOB2, IOE1, IOE2, IOBES, BILOU)}
)

# --------------------------------------------------------------------------
# Rule tables
#
# Whether a chunk starts or ends at a tag depends only on that tag and the
# one before it: their prefixes, and whether their labels are equal. For each
# mode (and scheme) one table maps prev * 16 + cur * 2 + same_label to a set
# of flags; a prefix's index is its position in PREFIXES (strict) or in
# _CONLL_CLASSES (conll).
#
# strict (seqeval's Tokens.entities):
#   _START  a start pattern holds: the tag may open a chunk;
#   _BREAK  no inside pattern holds: the tag does not continue a chunk;
#   _END    an end pattern holds: at a break, the chunk before it is kept.
# conll (seqeval's get_entities):
#   _END    end_of_chunk: the chunk before the tag closes here;
#   _START  start_of_chunk: `begin_offset` moves to the tag.
# --------------------------------------------------------------------------

_START, _END, _BREAK = 1, 2, 4
_RULES_SIZE = len(PREFIXES) * 16


def _compile_patterns(patterns: Iterable[Pattern]) -> numpy.ndarray:
    table = numpy.zeros(_RULES_SIZE, dtype=bool)
    for prevs, curs, rule in patterns:
        for prev in prevs:
            for cur in curs:
                for same in (False, True):
                    if rule == ANY_LABEL or (rule == SAME) == same:
                        table[PREFIXES.index(prev) * 16 + PREFIXES.index(cur) * 2 + same] = True
    return table


def _strict_rules(scheme: TagScheme) -> numpy.ndarray:
    start = _compile_patterns(scheme.start_patterns)
    inside = _compile_patterns(scheme.inside_patterns)
    end = _compile_patterns(scheme.end_patterns)
    return (start * _START | end * _END | ~inside * _BREAK).astype(numpy.uint8)


_CONLL_CLASSES = "BIESO."  # any other prefix character is class 6 ("X")


def _conll_end(prev: str, cur: str, same: bool) -> bool:
    if prev in "ES" or (prev in "BI" and cur in "BSO"):
        return True
    return prev not in "O." and not same


def _conll_start(prev: str, cur: str, same: bool) -> bool:
    if cur in "BS" or (prev in "ESO" and cur in "EI"):
        return True
    return cur not in "O." and not same


def _conll_rules() -> numpy.ndarray:
    table = numpy.zeros(_RULES_SIZE, dtype=numpy.uint8)
    classes = _CONLL_CLASSES + "X"
    for p, prev in enumerate(classes):
        for c, cur in enumerate(classes):
            for same in (False, True):
                table[p * 16 + c * 2 + same] = (
                    _START * _conll_start(prev, cur, same) | _END * _conll_end(prev, cur, same)
                )
    return table


# scheme name (None: conll mode) -> rule table
_RULES: Dict[Optional[str], numpy.ndarray] = {
    None: _conll_rules(),
    **{name: _strict_rules(s) for name, s in TAG_SCHEMES.items()},
}

# --------------------------------------------------------------------------
# Decoding
#
# The decoder parses each distinct tag string once (a dict from tag to id)
# and maps a whole corpus to ids in one pass. Sentences are joined with an
# "O" after each, as seqeval's get_entities joins them and as Tokens.entities
# appends its outside token: positions in the result are positions in that
# joined sequence, so they are unique per corpus. The flags of every
# position come from one lookup in a grid of all pairs of tag ids (or, past
# _GRID_LIMIT ids, from the rule table directly); the chunks then follow from
# the positions of the flags (numpy), for every scheme alike.
# --------------------------------------------------------------------------

_EMPTY = numpy.zeros(0, dtype=numpy.intp)
_TAG_LIMIT = 100_000  # distinct tags before a decoder starts afresh
_GRID_LIMIT = 256  # tag ids up to which the flags of all pairs are kept
_INITIAL = 1  # the tag id of the state before the first tag
_OUTSIDE = ("O",)  # appended to each sentence


class _Decoder:
    """Parsed tags and labels for one (mode, scheme, suffix)."""

    def __init__(self, mode: str, scheme: Optional[str], suffix: bool) -> None:
        self.mode = mode
        self.scheme = scheme
        self.suffix = suffix
        self.rules = _RULES[scheme]
        self.tag_codes: Dict[str, str] = {}  # tag -> chr(tag id)
        self.prefixes: List[int] = []  # per tag id
        self.label_ids: List[int] = []  # per tag id
        self.label_index: Dict[str, int] = {}
        self.labels: List[str] = []  # per label id
        self.add("O", "")  # tag id 0
        # Tag id 1 (_INITIAL), without a tag string: the state before the
        # first tag. seqeval's get_entities starts from prev_tag "O" with
        # prev_type "" (not "_"); Tokens.entities from its outside token,
        # Token("O"), which is tag id 0.
        if mode == "conll":
            self.prefixes.append(_CONLL_CLASSES.index("O"))
            self.label_ids.append(self.label_id(""))
        else:
            self.prefixes.append(self.prefixes[0])
            self.label_ids.append(self.label_ids[0])
        self.arrays()

    def parse(self, tag: Any, where: str) -> Tuple[int, str]:
        """(prefix index, label) of a tag, as seqeval reads it."""
        if not isinstance(tag, str):
            raise TypeError(
                f"Tag {tag!r} at {where} is a {type(tag).__name__}; "
                f"tags must be strings."
            )
        if not tag:
            raise ValueError(
                f"Empty tag '' at {where}: a tag needs a prefix letter "
                f"(seqeval raises IndexError here)."
            )
        if self.mode == "conll":  # seqeval's get_entities
            if self.suffix:
                letter, label = tag[-1], tag[:-1].rsplit("-", maxsplit=1)[0]
            else:
                letter, label = tag[0], tag[1:].split("-", maxsplit=1)[-1]
            cls = _CONLL_CLASSES.find(letter)
            return (cls if cls >= 0 else 6), label or "_"
        # seqeval's Token and Token.is_valid
        letter = tag[-1] if self.suffix else tag[0]
        allowed = TAG_SCHEMES[self.scheme].allowed_prefixes  # type: ignore[index]
        if letter not in allowed:
            raise ValueError(
                f"Invalid tag {tag!r} at {where}: prefix {letter!r} is not "
                f"allowed in scheme {self.scheme}. Allowed prefixes: "
                f"{', '.join(allowed)}"
            )
        label = (tag[:-1] if self.suffix else tag[1:]).strip("-")
        return PREFIXES.index(letter), label or "_"

    def label_id(self, label: str) -> int:
        i = self.label_index.get(label)
        if i is None:
            i = self.label_index[label] = len(self.labels)
            self.labels.append(label)
        return i

    def add(self, tag: Any, where: str) -> None:
        prefix, label = self.parse(tag, where)
        i = len(self.prefixes)
        # Each tag gets one character (skipping the surrogates, which do not
        # encode), so that a corpus maps to ids through one str.join.
        self.tag_codes[tag] = chr(i if i < 0xD800 else i + 0x800)
        self.prefixes.append(prefix)
        self.label_ids.append(self.label_id(label))

    def arrays(self) -> None:
        self.prefix_of = numpy.array(self.prefixes, dtype=numpy.intp)
        self.label_of = numpy.array(self.label_ids, dtype=numpy.intp)
        n = len(self.prefixes)
        if n <= _GRID_LIMIT:  # the flags of (prev, cur) at prev * n + cur
            every = numpy.arange(n)
            self.grid: Optional[numpy.ndarray] = self.flags(numpy.repeat(every, n), numpy.tile(every, n))
        else:
            self.grid = None

    def flags(self, prev: numpy.ndarray, cur: numpy.ndarray) -> numpy.ndarray:
        """The rule flags of each pair of tag ids."""
        prefix, label = self.prefix_of, self.label_of
        return self.rules[prefix[prev] * 16 + prefix[cur] * 2 + (label[prev] == label[cur])]

    def register(self, sentences: Sequence[List[Any]], name: str, nested: bool) -> None:
        """Parse the tags not seen before, in order; raise at a bad one."""
        codes = self.tag_codes
        try:
            for s, sent in enumerate(sentences):
                for i, tag in enumerate(sent):
                    if type(tag) is not str or tag not in codes:
                        self.add(tag, f"{name}[{s}][{i}]" if nested else f"{name}[{i}]")
        finally:
            self.arrays()

    def ids(self, sentences: Sequence[List[Any]], name: str, nested: bool) -> numpy.ndarray:
        """The tag ids of the sentences joined with an "O" (id 0) after each."""
        def joined() -> str:
            # One list, [sentence, ["O"], sentence, ["O"], ...], rather than a
            # tuple per sentence (zip), which would wake the garbage collector.
            parts = [_OUTSIDE] * (2 * len(sentences))
            parts[::2] = sentences
            return "".join(map(self.tag_codes.get, chain.from_iterable(parts)))

        try:
            text = joined()
        except TypeError:  # a tag not seen before (get gave None), or unhashable
            self.register(sentences, name, nested)
            text = joined()
        try:
            return numpy.frombuffer(text.encode("latin-1"), dtype=numpy.uint8).astype(numpy.intp)
        except UnicodeEncodeError:  # more than 256 distinct tags
            ids = numpy.frombuffer(text.encode("utf-32-le"), dtype="<u4").astype(numpy.intp)
            ids -= 0x800 * (ids >= 0xE000)
            return ids

    def decode(self, sentences: Sequence[List[Any]], name: str, nested: bool) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
        """Label ids, starts and ends (exclusive) of the entities, in the
        order seqeval finds them, with positions in the joined sequence."""
        return self.decode_ids(self.ids(sentences, name, nested))

    def decode_ids(self, cur: numpy.ndarray) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
        """`decode` for sentences already mapped to tag ids and joined, an
        "O" (id 0) after each, as `ids` returns them (`hf.py` builds this
        array from class ids without making tag strings)."""
        if len(cur) == 0:
            return _EMPTY, _EMPTY, _EMPTY
        prev = numpy.empty_like(cur)
        prev[0] = _INITIAL
        prev[1:] = cur[:-1]
        if self.grid is not None:
            pair = prev * len(self.prefixes)
            pair += cur
            flags = self.grid[pair]
        else:
            flags = self.flags(prev, cur)
        if self.mode == "conll":
            # get_entities: at each tag, end_of_chunk(prev, tag) closes the
            # chunk (with the previous tag's label), then start_of_chunk(prev,
            # tag) moves `begin_offset` here. A chunk's start is the last move
            # before its end, or 0 if there was none (seqeval's initial value).
            ends = numpy.flatnonzero(flags & _END)
            moves = numpy.flatnonzero(flags & _START)
            starts = numpy.concatenate(([0], moves))[numpy.searchsorted(moves, ends)]
            return self.label_of[prev[ends]], starts, ends
        # Tokens.entities: outside a chunk, a start pattern opens one; it takes
        # in tags while the inside patterns hold; at the first tag that is not
        # inside (a "break"), it is kept if an end pattern holds, and that tag
        # may open the next chunk. So between two breaks, the first tag with a
        # start pattern opens a chunk, which ends at the next break. (The
        # final "O" is a break: no inside pattern ends in "O".)
        breaks = numpy.flatnonzero(flags & _BREAK)
        candidates = numpy.flatnonzero(flags & _START)
        next_break = numpy.searchsorted(breaks, candidates, side="right")
        first = numpy.ones(len(candidates), dtype=bool)
        first[1:] = next_break[1:] != next_break[:-1]
        starts = candidates[first]
        ends = breaks[next_break[first]]
        kept = (flags[ends] & _END).astype(bool)
        starts, ends = starts[kept], ends[kept]
        return self.label_of[cur[starts]], starts, ends


_DECODERS: Dict[Tuple[str, Optional[str], bool], _Decoder] = {}


def _decoder(mode: str, scheme: Optional[str], suffix: bool) -> _Decoder:
    key = (mode, scheme, suffix)
    decoder = _DECODERS.get(key)
    if decoder is None or len(decoder.tag_codes) > _TAG_LIMIT:
        decoder = _DECODERS[key] = _Decoder(mode, scheme, suffix)
    return decoder


# --------------------------------------------------------------------------
# Validation
# --------------------------------------------------------------------------


def check_tag_options(
    mode: Any, scheme: Any, suffix: Any = False, *, names: Tuple[str, str] = ("mode", "scheme")
) -> Optional[str]:
    """The one check of a tag mode and scheme (`spans_from_tags`,
    `evaluate_tags` and the CoNLL reader, which names them tag_mode and
    tag_scheme). Raises ValueError (TypeError for suffix); RETURNS None.

    names (Tuple[str, str]): How messages name the mode and the scheme.
    """
    mode_name, scheme_name = names
    if mode not in TAG_MODES:
        raise ValueError(
            f"Unknown tag mode {mode!r}. Valid modes: {', '.join(TAG_MODES)}"
        )
    if mode == "strict":
        if scheme is None:
            raise ValueError(
                f"{mode_name}='strict' needs a tag scheme, got {scheme_name}=None. "
                f"Valid schemes: {', '.join(TAG_SCHEMES)}"
            )
        if scheme not in TAG_SCHEMES:
            raise ValueError(
                f"Unknown tag scheme {scheme!r}. "
                f"Valid schemes: {', '.join(TAG_SCHEMES)}"
            )
    elif scheme is not None:
        raise ValueError(
            f"{scheme_name}={scheme!r} is only used with {mode_name}='strict', "
            f"not {mode_name}={mode!r}. Pass {scheme_name}=None, or {mode_name}='strict' with one "
            f"of: {', '.join(TAG_SCHEMES)}"
        )
    if not isinstance(suffix, bool):
        raise TypeError(f"suffix must be True or False, got {suffix!r}")
    return None


_check_options = check_tag_options


def _check_sentences(y_true: Any, y_pred: Any) -> None:
    for name, value in (("y_true", y_true), ("y_pred", y_pred)):
        if not isinstance(value, list):
            raise TypeError(
                f"{name} must be a list of sentences (lists of tag strings), "
                f"got {type(value).__name__}."
            )
        if not all(map(list.__instancecheck__, value)):
            s, sent = next((s, x) for s, x in enumerate(value) if not isinstance(x, list))
            raise TypeError(
                f"{name}[{s}] must be a list of tag strings, "
                f"got {type(sent).__name__}."
            )
    if len(y_true) != len(y_pred):
        raise ValueError(
            f"y_true has {len(y_true)} sentences but y_pred has {len(y_pred)}."
        )
    if list(map(len, y_true)) != list(map(len, y_pred)):
        s, t, p = next((s, t, p) for s, (t, p) in enumerate(zip(y_true, y_pred)) if len(t) != len(p))
        raise ValueError(
            f"Sentence {s} has {len(t)} tags in y_true but {len(p)} tags "
            f"in y_pred."
        )


# --------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------


def spans_from_tags(
    tags: List[str],
    *,
    mode: str,
    scheme: Optional[str] = None,
    suffix: bool = False,
) -> List[TagSpan]:
    """Decode one tag sequence into spans, as seqeval 1.2.2 does.

    tags (List[str]): One tag per token, e.g. ["B-PER", "I-PER", "O"].
    mode (str): "conll" (seqeval's lenient `get_entities`, any tag accepted)
        or "strict" (seqeval's `Entities` with the named scheme).
    scheme (Optional[str]): For mode "strict" (required there, and only
        there): one of IOB1, IOB2, IOE1, IOE2, IOBES, BILOU.
    suffix (bool): Whether the prefix comes last, as in "PER-B".
    RETURNS (List[Tuple[int, int, str]]): (start, end, label) spans, end
        exclusive, in the order seqeval yields them. A tag without a label
        ("B") gets the label "_", as in seqeval. In "conll" mode, broken
        sequences decode exactly as seqeval decodes them, odd results
        included; in "strict" mode, a chunk that does not end the way the
        scheme requires is dropped.

    Raises ValueError for an unknown mode or scheme, a missing scheme in
    "strict" mode, an empty tag, or (mode "strict") a tag whose prefix the
    scheme does not allow; TypeError for input that is not a list of str.

    >>> spans_from_tags(["B-PER", "I-PER", "O", "B-LOC"], mode="conll")
    [(0, 2, 'PER'), (3, 4, 'LOC')]
    >>> spans_from_tags(["I-PER", "I-PER", "O"], mode="conll")
    [(0, 2, 'PER')]
    >>> spans_from_tags(["I-PER", "I-PER", "O"], mode="strict", scheme="IOB2")
    []
    >>> spans_from_tags(["S-LOC", "B-PER", "E-PER"], mode="strict", scheme="IOBES")
    [(0, 1, 'LOC'), (1, 3, 'PER')]
    >>> spans_from_tags(["PER-B", "PER-I", "O"], mode="conll", suffix=True)
    [(0, 2, 'PER')]
    """
    _check_options(mode, scheme, suffix)
    if not isinstance(tags, list):
        raise TypeError(
            f"tags must be a list of tag strings, got {type(tags).__name__}."
        )
    decoder = _decoder(mode, scheme, suffix)
    label_ids, starts, ends = decoder.decode((tags,), "tags", nested=False)
    labels = decoder.labels
    return [
        (start, end, labels[i])
        for i, start, end in zip(label_ids.tolist(), starts.tolist(), ends.tolist())
    ]


@dataclass(frozen=True)
class TagScore:
    """Precision, recall, F1 and support of one label or one average.

    precision (float): Correct / predicted; 0.0 when nothing was predicted.
    recall (float): Correct / gold; 0.0 when there is no gold entity.
    f1 (float): 2PR / (P + R); 0.0 when P + R is 0.
    support (int): The number of gold entities.
    """

    precision: float
    recall: float
    f1: float
    support: int

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): seqeval's row: keys "precision",
        "recall", "f1-score" and "support"."""
        return {
            "precision": self.precision,
            "recall": self.recall,
            "f1-score": self.f1,
            "support": self.support,
        }


@dataclass(frozen=True)
class TagReport:
    """The figures of seqeval's `classification_report`.

    micro (TagScore): Counts pooled over all labels.
    macro (TagScore): Unweighted mean over labels found in gold or prediction
        (0.0 when there is none; seqeval gives NaN there).
    weighted (TagScore): Mean weighted by each label's support (0.0 when
        there is no gold entity, as in seqeval).
    per_type (Mapping[str, TagScore]): One score per label, labels sorted.
    """

    micro: TagScore
    macro: TagScore
    weighted: TagScore
    per_type: Mapping[str, TagScore] = field(default_factory=dict)

    def to_dict(self) -> Dict[str, Dict[str, Any]]:
        """RETURNS (Dict[str, Dict[str, Any]]): Same keys, order and numbers
        as seqeval's `classification_report(..., output_dict=True)`: one row
        per label, then "micro avg", "macro avg" and "weighted avg"."""
        report = {label: score.to_dict() for label, score in self.per_type.items()}
        report["micro avg"] = self.micro.to_dict()
        report["macro avg"] = self.macro.to_dict()
        report["weighted avg"] = self.weighted.to_dict()
        return report


def _report(true: _Entities, pred: _Entities, label_names: List[str]) -> TagReport:
    """Scores from the decoded entities of both sides (label ids, starts and
    ends, ends increasing)."""
    # seqeval counts sets of (sentence, label, start, end); the decoders never
    # find one entity twice (ends strictly increase), so the arrays are sets
    # already. Per side, an end position identifies an entity: match them by
    # end, each gold end against the first predicted end not below it.
    true_labels, true_starts, true_ends = true
    pred_labels, pred_starts, pred_ends = pred
    pi = numpy.searchsorted(pred_ends, true_ends)
    ti = numpy.flatnonzero(pi < len(pred_ends))
    pi = pi[ti]
    same = (
        (true_ends[ti] == pred_ends[pi])
        & (true_labels[ti] == pred_labels[pi])
        & (true_starts[ti] == pred_starts[pi])
    )
    n_labels = len(label_names)
    counts_true = numpy.bincount(true_labels, minlength=n_labels).tolist()
    counts_pred = numpy.bincount(pred_labels, minlength=n_labels).tolist()
    counts_tp = numpy.bincount(true_labels[ti[same]], minlength=n_labels).tolist()
    # Labels found on either side, sorted by name as seqeval sorts them.
    found = sorted((label_names[i], i) for i in range(n_labels) if counts_true[i] or counts_pred[i])
    labels = [label for label, _ in found]
    tps = [counts_tp[i] for _, i in found]
    preds = [counts_pred[i] for _, i in found]
    trues = [counts_true[i] for _, i in found]
    ps = [safe_div(tp, n) for tp, n in zip(tps, preds)]
    rs = [safe_div(tp, n) for tp, n in zip(tps, trues)]
    fs = [f_score_seqeval(p, r) for p, r in zip(ps, rs)]
    per_type = {
        label: TagScore(p, r, f, n) for label, p, r, f, n in zip(labels, ps, rs, fs, trues)
    }
    support = sum(trues)
    micro_p, micro_r = safe_div(sum(tps), sum(preds)), safe_div(sum(tps), support)
    micro = TagScore(micro_p, micro_r, f_score_seqeval(micro_p, micro_r), support)
    # Averages go through numpy.average, as in seqeval, so that the
    # (pairwise) summation order, and hence every bit, is the same.
    if labels:
        macro = TagScore(
            float(numpy.average(numpy.array(ps))),
            float(numpy.average(numpy.array(rs))),
            float(numpy.average(numpy.array(fs))),
            support,
        )
    else:
        macro = TagScore(0.0, 0.0, 0.0, 0)
    if support:
        weights = numpy.array(trues, dtype=numpy.int64)
        weighted = TagScore(
            float(numpy.average(numpy.array(ps), weights=weights)),
            float(numpy.average(numpy.array(rs), weights=weights)),
            float(numpy.average(numpy.array(fs), weights=weights)),
            support,
        )
    else:
        weighted = TagScore(0.0, 0.0, 0.0, 0)
    return TagReport(micro, macro, weighted, MappingProxyType(per_type))


def evaluate_tags(
    y_true: List[List[str]],
    y_pred: List[List[str]],
    *,
    mode: str,
    scheme: Optional[str] = None,
    suffix: bool = False,
) -> TagReport:
    """Score predicted tag sequences against gold ones, as seqeval 1.2.2's
    `classification_report(y_true, y_pred, output_dict=True, mode=...,
    scheme=..., suffix=...)` does, to the last bit.

    y_true (List[List[str]]): Gold tags, one list per sentence.
    y_pred (List[List[str]]): Predicted tags, same shape as y_true.
    mode (str): "conll" or "strict" (see `spans_from_tags`).
    scheme (Optional[str]): For mode "strict" (required there, and only
        there): one of IOB1, IOB2, IOE1, IOE2, IOBES, BILOU.
    suffix (bool): Whether the prefix comes last, as in "PER-B".
    RETURNS (TagReport): Micro, macro and weighted averages and per-label
        scores. An entity is (sentence, label, start, end); identical
        entities count once. A ratio with a zero denominator is 0.0.

    In "conll" mode the sentences are decoded as seqeval decodes them: joined
    into one sequence with an "O" after each sentence. Raises ValueError when
    the two sides differ in the number of sentences or in a sentence's length.

    >>> rep = evaluate_tags(
    ...     [["B-PER", "I-PER", "O"], ["B-LOC", "O"]],
    ...     [["B-PER", "I-PER", "O"], ["B-PER", "O"]],
    ...     mode="strict", scheme="IOB2")
    >>> rep.micro.precision, rep.micro.recall
    (0.5, 0.5)
    >>> rep.per_type["PER"].precision, rep.per_type["PER"].support
    (0.5, 1)
    >>> rep.macro.f1, rep.weighted.f1
    (0.3333333333333333, 0.3333333333333333)
    """
    _check_options(mode, scheme, suffix)
    _check_sentences(y_true, y_pred)
    decoder = _decoder(mode, scheme, suffix)
    true = decoder.decode(y_true, "y_true", nested=True)
    pred = decoder.decode(y_pred, "y_pred", nested=True)
    return _report(true, pred, decoder.labels)
