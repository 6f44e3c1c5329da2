"""Reading a generative extractor's raw answer into mentions.

An answer is parsed as (the first that applies):

- JSON: a list of objects with a string (`text`, `span` or `entity`) and a
  label (`label` or `type`); a list of `[string, label]` pairs; an object
  `{label: [strings]}`. The JSON may sit inside a Markdown code fence or
  have prose around it: the first JSON value that parses is taken (JSON
  found in prose is taken over inline markup only when it gives mentions,
  since a marked-up text may hold a "[1, 2]" of its own);
- the text rewritten with inline markup, `<PER>Ann Lee</PER> flew to
  <LOC>New York</LOC>`, or GPT-NER's `@@Ann Lee##` with the label given
  per query: the marked pieces are placed on the source text by aligning
  the rewritten text, markup removed, to it (`Markup.place`).

Anything else is a parse failure (`ParseFailure`, with the reason): the
document predicts nothing and the failure is counted, never fatal. An empty
list or object is a valid answer that predicts nothing. JSON nested deeper
than Python's JSON reader can follow (about a thousand levels; a mention
list has three) is not read, nor any JSON inside it: an answer that is only
that is a parse failure.
"""

import difflib
import json
import re
import reprlib
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy

from ..exceptions import SettingError

#: A mention: its surface string and its label.
Mention = Tuple[str, str]
#: The keys of a mention object's string and label, in the order tried.
STRING_KEYS: Tuple[str, ...] = ("text", "span", "entity")
LABEL_KEYS: Tuple[str, ...] = ("label", "type")
#: How much of a failed answer a report keeps.
ANSWER_EXCERPT = 200

_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\n?(.*?)```", re.S)
_XML = re.compile(r"<([A-Za-z_][\w.-]*)>(.*?)</\1>", re.S)
_GPT_NER = re.compile(r"@@(.*?)##", re.S)
_OPENING = re.compile(r"[\[{]")
_DEEP = "the JSON nests deeper than Python's JSON reader follows"

#: The repr of a value in a failure's reason or an error: a long or deeply
#: nested value is cut short (as "..."), and never recurses far.
_short = reprlib.Repr()
_short.maxlevel, _short.maxstring, _short.maxother = 4, 60, 60
_short.maxlist = _short.maxtuple = _short.maxdict = 6


def short_repr(value: Any) -> str:
    """repr(value), cut short when long or deeply nested (for messages)."""
    return _short.repr(value)


def value_text(value: Any) -> str:
    """The text of an answer given as a Python value: its repr, or a repr
    cut short for a value nested too deeply for repr."""
    try:
        return repr(value)
    except RecursionError:
        return _short.repr(value)


@dataclass
class ParseFailure:
    """An answer that is none of the shapes read; reason says why."""

    reason: str
    answer: str

    @property
    def excerpt(self) -> str:
        return self.answer[:ANSWER_EXCERPT]


@dataclass
class Markup:
    """A rewritten text with inline markup: `plain` is it with the markup
    removed, `pieces` the (start, end, label) of each marked piece in it."""

    plain: str
    pieces: List[Tuple[int, int, str]] = field(default_factory=list)

    def place(self, source: str) -> List[Tuple[Optional[Tuple[int, int]], str, str]]:
        """Each piece as (offsets in source or None, its string, label): the
        plain text is aligned to source character by character; a piece all
        of whose characters fall in unchanged stretches is placed, one on
        text the answer changed gets None (ground it by its string)."""
        matcher = difflib.SequenceMatcher(None, self.plain, source, autojunk=False)
        position = {}
        for a, b, size in matcher.get_matching_blocks():
            for k in range(size):
                position[a + k] = b + k
        placed = []
        for start, end, label in self.pieces:
            string = self.plain[start:end]
            ends = [position[i] for i in range(start, end) if i in position]
            contiguous = len(ends) == end - start and all(ends[k + 1] == ends[k] + 1 for k in range(len(ends) - 1))
            placed.append(((ends[0], ends[-1] + 1) if ends and contiguous else None, string, label))
        return placed


Parsed = Union[List[Mention], Markup, ParseFailure]


def parse_answer(answer: Any, label: Optional[str] = None) -> Parsed:
    """The mentions of a raw answer, its markup, or a ParseFailure.

    label (Optional[str]): The label of a GPT-NER query (`@@…##` marks
        carry none).
    """
    if label is not None and (not isinstance(label, str) or not label):
        raise SettingError(
            f"'label' is {short_repr(label)} ({type(label).__name__}); the label of a GPT-NER "
            "query is a non-empty string, or None",
            "label",
        )
    if not isinstance(answer, str):
        return ParseFailure(f"the answer is a {type(answer).__name__}, not a string", value_text(answer))
    value, found = _whole_json(answer)
    if found is True:
        return _mentions_of(value, answer)
    deep = found is _DEEP
    value, found = _json_in_prose(answer)
    deep = deep or found is _DEEP
    if found is True:
        # A text rewritten with markup may hold a bracketed value of its own
        # ("scored [1, 2]"): JSON in the prose wins over markup only when it
        # gives mentions.
        mentions = _mentions_of(value, answer)
        if (mentions and not isinstance(mentions, ParseFailure)) or not (
            _XML.search(answer) or _GPT_NER.search(answer)
        ):
            return mentions
    if _XML.search(answer):
        return _markup(answer, _XML, lambda m: m.group(1), lambda m: m.group(2))
    if _GPT_NER.search(answer):
        if label is None:
            return ParseFailure('@@…## marks need the label of the query (a record\'s "label")', answer)
        return _markup(answer, _GPT_NER, lambda m: label, lambda m: m.group(1))
    if deep:
        return ParseFailure(_DEEP, answer)
    return ParseFailure("no JSON value and no inline markup", answer)


def _whole_json(answer: str) -> Tuple[Any, Any]:
    """(The answer as JSON, or the first code fence that parses as JSON,
    True); (None, False) when none parses; (None, _DEEP) when none parses
    and the answer or a fence nests too deeply to read."""
    text = answer.strip()
    found: Any = False
    for candidate in [text] + [m.group(1).strip() for m in _FENCE.finditer(answer)]:
        try:
            return json.loads(candidate), True
        except RecursionError:
            found = _DEEP
        except ValueError:
            pass
    return None, found


def _json_in_prose(answer: str) -> Tuple[Any, Any]:
    """(The first JSON list or object in the prose (the first "[" or "{" a
    value parses from), True); (None, False) when there is none; (None,
    _DEEP) when there is none and some bracket nests too deeply to read.
    What follows a bracket that nests too deeply, to where its brackets
    close, is not searched (it would be read again and again, for every
    bracket in it)."""
    decoder = json.JSONDecoder()
    found: Any = False
    match = _OPENING.search(answer)
    while match is not None:
        start = match.start()
        try:
            value, _ = decoder.raw_decode(answer, start)
        except RecursionError:
            found = _DEEP
            match = _OPENING.search(answer, _closing(answer, start))
            continue
        except ValueError:
            match = _OPENING.search(answer, start + 1)
            continue
        if isinstance(value, (list, dict)):
            return value, True
        match = _OPENING.search(answer, start + 1)
    return None, found


def _closing(text: str, start: int) -> int:
    """Where the brackets opened from text[start] (a "[" or "{") are all
    closed again, counting every bracket, those in JSON strings too: the
    end of the text when they never are. Read a window at a time, each
    twice the last, so that the cost is that of the stretch read."""
    depth, window = 0, 4096
    while start < len(text):
        codes = numpy.frombuffer(text[start : start + window].encode("utf-32-le"), dtype=numpy.uint32)
        steps = ((codes == 91) | (codes == 123)).astype(numpy.int64) - ((codes == 93) | (codes == 125))
        levels = depth + numpy.cumsum(steps)
        closed = numpy.flatnonzero(levels <= 0)
        if len(closed):
            return start + int(closed[0]) + 1
        depth = int(levels[-1])
        start += len(codes)
        window *= 2
    return len(text)


def _mentions_of(value: Any, answer: str) -> Union[List[Mention], ParseFailure]:
    if isinstance(value, dict):
        if any(isinstance(value.get(k), str) for k in STRING_KEYS) and any(
            isinstance(value.get(k), str) for k in LABEL_KEYS
        ):
            # not {label: strings}: its "labels" would be "text" and "label"
            return ParseFailure("the JSON is one mention object, not a list of them", answer)
        mentions: List[Mention] = []
        for label, strings in value.items():
            if isinstance(strings, str):
                strings = [strings]
            if not (isinstance(strings, list) and all(isinstance(s, str) for s in strings)):
                return ParseFailure(
                    f"the strings of label {_short.repr(label)} are {_short.repr(strings)}, not a list of strings",
                    answer,
                )
            mentions.extend((s, str(label)) for s in strings)
        return mentions
    if not isinstance(value, list):
        return ParseFailure(f"the JSON is a {type(value).__name__}, not a list or an object of labels", answer)
    mentions = []
    for k, item in enumerate(value):
        mention = _mention(item)
        if mention is None:
            return ParseFailure(
                f"item {k} is {_short.repr(item)}, not a mention (an object with a string and a label, "
                "or a [string, label] pair)",
                answer,
            )
        mentions.append(mention)
    return mentions


def mention_parts(item: Any) -> Optional[Tuple[Any, Any]]:
    """The (string, label) an item of a mentions list gives, unchecked: an
    object's first key of STRING_KEYS and of LABEL_KEYS (None when absent),
    or a pair; None when the item is neither."""
    if isinstance(item, dict):
        return (
            next((item[k] for k in STRING_KEYS if k in item), None),
            next((item[k] for k in LABEL_KEYS if k in item), None),
        )
    if isinstance(item, (list, tuple)) and len(item) == 2:
        return item[0], item[1]
    return None


def _mention(item: Any) -> Optional[Mention]:
    parts = mention_parts(item)
    if parts is None:
        return None
    string, label = parts
    if isinstance(string, str) and isinstance(label, str) and string.strip() and label:
        return string, label
    return None


def _markup(answer: str, pattern: "re.Pattern[str]", label_of, string_of) -> Markup:
    plain: List[str] = []
    pieces = []
    pos = length = 0
    for match in pattern.finditer(answer):
        before = _strip_tags(answer[pos : match.start()])
        plain.append(before)
        length += len(before)
        string = string_of(match)
        pieces.append((length, length + len(string), label_of(match)))
        plain.append(string)
        length += len(string)
        pos = match.end()
    plain.append(_strip_tags(answer[pos:]))
    return Markup("".join(plain), pieces)


def _strip_tags(text: str) -> str:
    """Unpaired tags left between marked pieces are not text."""
    return re.sub(r"</?[A-Za-z_][\w.-]*>", "", text)


def plain_pairs(items: Any) -> Optional[List[Mention]]:
    """A list of (string, label) tuples or lists, each a non-blank str and a
    non-empty str, as a list of tuples, read in one pass; None for anything
    else (read by `mentions_of_record` then, which says what is wrong)."""
    if type(items) is not list:
        return None
    kinds = set(map(type, items))
    if not kinds <= {tuple, list}:
        return None
    try:
        for string, label in items:
            if type(string) is not str or type(label) is not str or not label or not string or string.isspace():
                return None
    except ValueError:  # an item of another length
        return None
    return items if list not in kinds else list(map(tuple, items))


def mentions_of_record(items: Union[Sequence[Any], Dict[str, Any]]) -> Union[List[Mention], ParseFailure]:
    """A record's "mentions" (a list of objects or pairs, or an object of
    labels), as `parse_answer` reads the same JSON."""
    value = dict(items) if isinstance(items, dict) else list(items)
    parsed = _mentions_of(value, "")
    if isinstance(parsed, ParseFailure):
        # the excerpt is made only for a failure (repr costs more than the reading)
        parsed.answer = value_text(items)[:ANSWER_EXCERPT]
    return parsed
