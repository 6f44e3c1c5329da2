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

from dataclasses import dataclass
from types import MappingProxyType
from typing import Dict, Iterable, Mapping, Optional, Tuple

import numpy

__all__ = ["TAG_MODES", "TAG_SCHEMES", "TagScheme"]

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


def _patterns(table: str) -> Tuple[Pattern, ...]:
    """The patterns of a table written as seqeval's scheme.py lists them, a
    pattern a word of three characters: the previous tag's prefix, the
    current tag's ("*": any prefix) and the label rule ("*": any label,
    "=": the same label, "!": a different one)."""
    prefix = {"*": ANY}
    rule = {"*": ANY_LABEL, "=": SAME, "!": DIFF}
    return tuple(
        (prefix.get(prev, prev), prefix.get(cur, cur), rule[label]) for prev, cur, label in map(tuple, table.split())
    )


def _scheme(name: str, prefixes: str, start: str, inside: str, end: str) -> TagScheme:
    return TagScheme(name, prefixes, _patterns(start), _patterns(inside), _patterns(end))


# seqeval's tables (seqeval/scheme.py, in its order): allowed prefixes, then
# the start, inside and end patterns.
IOB1 = _scheme("IOB1", "IOB", start="OI* II! BI* IB= BB=", inside="BI= II=", end="II! IO* IB* BO* BI! BB=")
IOB2 = _scheme("IOB2", "IOB", start="*B*", inside="BI= II=", end="IO* II! IB* BO* BI! BB*")
IOE1 = _scheme("IOE1", "IOE", start="OI* II! EI* EE=", inside="II= IE=", end="II! IO* IE! EI= EE=")
IOE2 = _scheme("IOE2", "IOE", start="OI* OE* EI* EE* II! IE!", inside="IE= II=", end="E**")
IOBES = _scheme("IOBES", "IOBES", start="*B* *S*", inside="BI= BE= II= IE=", end="S** E**")
BILOU = _scheme("BILOU", "BILOU", start="*B* *U*", inside="BI= BL= II= IL=", end="U** L**")

# The only list of scheme names; error messages list them in this order.
TAG_SCHEMES: Mapping[str, TagScheme] = MappingProxyType({s.name: s for s in (IOB1, IOB2, IOE1, IOE2, IOBES, BILOU)})

# --------------------------------------------------------------------------
# Rule tables
#
# Whether a chunk starts or ends at a tag depends only on that tag and the
# one before it: their prefixes, and whether their labels are equal. For each
# mode (and scheme) one table maps prev * 16 + cur * 2 + same_label to a set
# of flags; a prefix's index is its position in PREFIXES (strict) or in
# CONLL_CLASSES (conll).
#
# strict (seqeval's Tokens.entities):
#   START  a start pattern holds: the tag may open a chunk;
#   BREAK  no inside pattern holds: the tag does not continue a chunk;
#   END    an end pattern holds: at a break, the chunk before it is kept.
# conll (seqeval's get_entities):
#   END    end_of_chunk: the chunk before the tag closes here;
#   START  start_of_chunk: `begin_offset` moves to the tag.
# --------------------------------------------------------------------------

START, END, BREAK = 1, 2, 4
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
    return (start * START | end * END | ~inside * BREAK).astype(numpy.uint8)


CONLL_CLASSES = "BIESO."  # any other prefix character is class 6 ("X")


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
    classes = CONLL_CLASSES + "X"
    for p, prev in enumerate(classes):
        for c, cur in enumerate(classes):
            for same in (False, True):
                table[p * 16 + c * 2 + same] = START * _conll_start(prev, cur, same) | END * _conll_end(prev, cur, same)
    return table


# scheme name (None: conll mode) -> rule table
RULES: Dict[Optional[str], numpy.ndarray] = {
    None: _conll_rules(),
    **{name: _strict_rules(s) for name, s in TAG_SCHEMES.items()},
}
