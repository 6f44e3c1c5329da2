"""Decoding tag sequences into spans, one decoder for every mode and
scheme (the tables of `tags.schemes`). `Decoder` is public: the CoNLL and
Hugging Face readers and `integrations.hf` decode with it."""

from itertools import chain
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy

from .schemes import BREAK, CONLL_CLASSES, END, PREFIXES, RULES, START, TAG_MODES, TAG_SCHEMES

__all__ = ["Decoder", "Entities", "TagSpan", "check_tag_options", "check_sentences", "get_decoder", "spans_from_tags"]

TagSpan = Tuple[int, int, str]
Entities = Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]  # label ids, starts, ends

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


class Decoder:
    """Parsed tags and labels for one (mode, scheme, suffix)."""

    def __init__(self, mode: str, scheme: Optional[str], suffix: bool) -> None:
        self.mode = mode
        self.scheme = scheme
        self.suffix = suffix
        self.rules = RULES[scheme]
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
            self.prefixes.append(CONLL_CLASSES.index("O"))
            self.label_ids.append(self.label_id(""))
        else:
            self.prefixes.append(self.prefixes[0])
            self.label_ids.append(self.label_ids[0])
        self.arrays()

    def parse(self, tag: Any, where: str) -> Tuple[int, str]:
        """(prefix index, label) of a tag, as seqeval reads it."""
        if not isinstance(tag, str):
            raise TypeError(f"Tag {tag!r} at {where} is a {type(tag).__name__}; tags must be strings.")
        if not tag:
            raise ValueError(f"Empty tag '' at {where}: a tag needs a prefix letter (seqeval raises IndexError here).")
        if self.mode == "conll":  # seqeval's get_entities
            if self.suffix:
                letter, label = tag[-1], tag[:-1].rsplit("-", maxsplit=1)[0]
            else:
                letter, label = tag[0], tag[1:].split("-", maxsplit=1)[-1]
            cls = CONLL_CLASSES.find(letter)
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
            parts: List[Any] = [_OUTSIDE] * (2 * len(sentences))
            parts[::2] = sentences
            return "".join(map(self.tag_codes.get, chain.from_iterable(parts)))  # type: ignore[arg-type]  # None raises TypeError: caught below

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

    def decode(
        self, sentences: Sequence[List[Any]], name: str, nested: bool
    ) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
        """Label ids, starts and ends (exclusive) of the entities, in the
        order seqeval finds them, with positions in the joined sequence."""
        return self.decode_ids(self.ids(sentences, name, nested))

    def decode_ids(self, cur: numpy.ndarray) -> Tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
        """`decode` for sentences already mapped to tag ids and joined, an
        "O" (id 0) after each, as `ids` returns them (`integrations/hf.py` builds this
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
            ends = numpy.flatnonzero(flags & END)
            moves = numpy.flatnonzero(flags & START)
            starts = numpy.concatenate(([0], moves))[numpy.searchsorted(moves, ends)]
            return self.label_of[prev[ends]], starts, ends
        # Tokens.entities: outside a chunk, a start pattern opens one; it takes
        # in tags while the inside patterns hold; at the first tag that is not
        # inside (a "break"), it is kept if an end pattern holds, and that tag
        # may open the next chunk. So between two breaks, the first tag with a
        # start pattern opens a chunk, which ends at the next break. (The
        # final "O" is a break: no inside pattern ends in "O".)
        breaks = numpy.flatnonzero(flags & BREAK)
        candidates = numpy.flatnonzero(flags & START)
        next_break = numpy.searchsorted(breaks, candidates, side="right")
        first = numpy.ones(len(candidates), dtype=bool)
        first[1:] = next_break[1:] != next_break[:-1]
        starts = candidates[first]
        ends = breaks[next_break[first]]
        kept = (flags[ends] & END).astype(bool)
        starts, ends = starts[kept], ends[kept]
        return self.label_of[cur[starts]], starts, ends


_DECODERS: Dict[Tuple[str, Optional[str], bool], Decoder] = {}


def get_decoder(mode: str, scheme: Optional[str], suffix: bool) -> Decoder:
    key = (mode, scheme, suffix)
    decoder = _DECODERS.get(key)
    if decoder is None or len(decoder.tag_codes) > _TAG_LIMIT:
        decoder = _DECODERS[key] = Decoder(mode, scheme, suffix)
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
        raise ValueError(f"Unknown tag mode {mode!r}. Valid modes: {', '.join(TAG_MODES)}")
    if mode == "strict":
        if scheme is None:
            raise ValueError(
                f"{mode_name}='strict' needs a tag scheme, got {scheme_name}=None. "
                f"Valid schemes: {', '.join(TAG_SCHEMES)}"
            )
        if scheme not in TAG_SCHEMES:
            raise ValueError(f"Unknown tag scheme {scheme!r}. Valid schemes: {', '.join(TAG_SCHEMES)}")
    elif scheme is not None:
        raise ValueError(
            f"{scheme_name}={scheme!r} is only used with {mode_name}='strict', "
            f"not {mode_name}={mode!r}. Leave {scheme_name} out (None), or pass {mode_name}='strict' "
            f"with one of: {', '.join(TAG_SCHEMES)}"
        )
    if not isinstance(suffix, bool):
        raise TypeError(f"suffix must be True or False, got {suffix!r}")
    return None


def check_sentences(y_true: Any, y_pred: Any) -> None:
    for name, value in (("y_true", y_true), ("y_pred", y_pred)):
        if not isinstance(value, list):
            raise TypeError(f"{name} must be a list of sentences (lists of tag strings), got {type(value).__name__}.")
        if not all(map(list.__instancecheck__, value)):
            s, sent = next((s, x) for s, x in enumerate(value) if not isinstance(x, list))
            raise TypeError(f"{name}[{s}] must be a list of tag strings, got {type(sent).__name__}.")
    if len(y_true) != len(y_pred):
        raise ValueError(f"y_true has {len(y_true)} sentences but y_pred has {len(y_pred)}.")
    if list(map(len, y_true)) != list(map(len, y_pred)):
        s, t, p = next((s, t, p) for s, (t, p) in enumerate(zip(y_true, y_pred)) if len(t) != len(p))
        raise ValueError(f"Sentence {s} has {len(t)} tags in y_true but {len(p)} tags in y_pred.")


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
    check_tag_options(mode, scheme, suffix)
    if not isinstance(tags, list):
        raise TypeError(f"tags must be a list of tag strings, got {type(tags).__name__}.")
    decoder = get_decoder(mode, scheme, suffix)
    label_ids, starts, ends = decoder.decode((tags,), "tags", nested=False)
    labels = decoder.labels
    return [(start, end, labels[i]) for i, start, end in zip(label_ids.tolist(), starts.tolist(), ends.tolist())]
