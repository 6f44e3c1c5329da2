"""Hugging Face token/tag JSON Lines, as `datasets` writes them
(`Dataset.to_json`): `{"tokens": [...], "ner_tags": [...]}` a line.

Tags are strings, or integer ids named by option `label_names` or by the
ClassLabel names of the tag field in a `dataset_info.json` beside the file
(`{"features": {"ner_tags": {"feature": {"names": [...], "_type":
"ClassLabel"}, "_type": "Sequence"}}}`; `"_type": "List"` in newer
`datasets`). Decoded like CoNLL tags (`tags.spans_from_tags`). The text is
the tokens joined by single spaces.
"""

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator, List, Optional

from ..exceptions import InputError, SettingError
from ..registry import formats
from ..spans import Span, all_ints, is_int
from ..tags import spans_from_tags
from .base import Document, Format, PathLike, read_text
from .conll import check_tag_settings
from .records import SpanFields, check_read, json_lines, no_annotation

INFO_FILE = "dataset_info.json"
_SEQUENCE_TYPES = ("Sequence", "List", "LargeList")


class TagsFormat(Format):
    """Token/tag JSON Lines (unit token).

    tag_field (Optional[str]): The field of the tags (default "ner_tags").
    token_field (Optional[str]): The field of the tokens (default "tokens").
    label_names (Optional[Union[List[str], str]]): Names of integer tag ids,
        a list or a comma-separated string (default: from dataset_info.json).
    tag_mode, tag_scheme (Optional[str]): As for the conll reader (default
        "conll", None).
    """

    name = "tags"
    units = ("token",)
    extensions = ()
    options = ("tag_field", "token_field", "label_names", "tag_mode", "tag_scheme")
    mixes_as = "tokens"

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        opts = check_read(self, side, unit, options)
        mode, scheme = opts.get("tag_mode", "conll"), opts.get("tag_scheme")
        check_tag_settings(mode, scheme)
        tag_field = opts.get("tag_field", "ner_tags")
        names = _label_names(opts.get("label_names"))
        path = Path(path)
        fields = Fields(
            opts.get("token_field", "tokens"), tag_field, names if names is not None else _info_names(path, tag_field)
        )
        return _read(path, side, fields, _namer(path, tag_field, names), mode, scheme)


@dataclass(frozen=True)
class Fields:
    """Where a record keeps its tokens and tags, and the tag names given.

    token_field (str), tag_field (str): The fields.
    label_names (Optional[List[str]]): The names passed as `label_names`,
        else those of dataset_info.json beside the file (string tags must
        be among them); None: neither.
    """

    token_field: str
    tag_field: str
    label_names: Optional[List[str]] = None


def _label_names(value: Any) -> Optional[List[str]]:
    if value is None:
        return None
    if isinstance(value, str):
        value = [name.strip() for name in value.split(",")]
    if not (isinstance(value, (list, tuple)) and value and all(isinstance(n, str) and n for n in value)):
        raise SettingError(
            f"'label_names' must be a non-empty list of tag names (or a comma-separated string), got {value!r}",
            "label_names",
        )
    return list(value)


def _namer(path: Path, tag_field: str, names: Optional[List[str]]) -> Callable[[], List[str]]:
    """A function giving the tag names (read from dataset_info.json the
    first time integer tags need them)."""
    found: List[List[str]] = [] if names is None else [names]

    def get() -> List[str]:
        if not found:
            found.append(_names_from_info(path, tag_field))
        return found[0]

    return get


def _info_names(path: Path, tag_field: str) -> Optional[List[str]]:
    """The ClassLabel names of dataset_info.json beside the file, when it has
    them (string tags must then be among them: a prediction written as "1",
    "2" or LABEL_1 is not a tag of the dataset); None otherwise."""
    if not (path.parent / INFO_FILE).is_file():
        return None
    try:
        return _names_from_info(path, tag_field)
    except InputError:
        return None


def _names_from_info(path: Path, tag_field: str) -> List[str]:
    info_path = path.parent / INFO_FILE
    if not info_path.is_file():
        raise InputError(
            f"the tags in {tag_field!r} are integer ids, and there is no {INFO_FILE} beside the file "
            f"to name them; pass 'label_names' (e.g. O,B-PER,I-PER) or add {INFO_FILE}",
            path,
        )
    try:
        info = json.loads(read_text(info_path))
    except json.JSONDecodeError as err:
        raise InputError(f"invalid JSON ({err.msg}, column {err.colno})", info_path, err.lineno) from None
    feature = (
        info.get("features", {}).get(tag_field)
        if isinstance(info, dict) and isinstance(info.get("features"), dict)
        else None
    )
    if isinstance(feature, list) and len(feature) == 1:  # a plain Python list of one feature
        feature = {"feature": feature[0], "_type": "Sequence"}
    inner = feature.get("feature") if isinstance(feature, dict) and feature.get("_type") in _SEQUENCE_TYPES else None
    names = inner.get("names") if isinstance(inner, dict) and inner.get("_type") == "ClassLabel" else None
    if not (isinstance(names, list) and names and all(isinstance(n, str) for n in names)):
        raise InputError(
            f'has no ClassLabel names for {tag_field!r} (expected "features": {{"{tag_field}": '
            f'{{"feature": {{"names": [...], "_type": "ClassLabel"}}, "_type": "Sequence"}}}}); '
            "pass 'label_names' instead",
            info_path,
        )
    return names


def _read(
    path: Path, side: str, fields: Fields, names: Callable[[], List[str]], mode: str, scheme: Optional[str]
) -> Iterator[Document]:
    token_field, tag_field = fields.token_field, fields.tag_field
    has_tags = SpanFields(path, side, (tag_field,))
    for lineno, record in json_lines(path):
        tokens = record.get(token_field)
        if not (isinstance(tokens, list) and all(isinstance(t, str) for t in tokens)):
            raise InputError(f"{token_field!r} must be a list of strings, got {_cut(tokens)}", path, lineno)
        offsets, pos = [], 0
        for token in tokens:
            offsets.append((pos, pos + len(token)))
            pos += len(token) + 1
        meta = {k: v for k, v in record.items() if k not in (token_field, tag_field)}
        if has_tags.see(record, lineno):
            tags = _tag_strings(record[tag_field], len(tokens), fields, names, path, lineno)
            spans: Optional[List[Span]] = _decode(tags, mode, scheme, path, lineno)
            _check_named(tags, fields, path, lineno)
        else:
            spans = no_annotation(side)
        yield Document(
            f"line {lineno}", spans, " ".join(tokens), tokens, offsets, meta=meta, line=lineno, source=str(path)
        )
    has_tags.finish()


def _tag_strings(
    tags: Any, n_tokens: int, fields: Fields, names: Callable[[], List[str]], path: Path, lineno: int
) -> List[str]:
    tag_field = fields.tag_field
    if not isinstance(tags, list):
        raise InputError(f"{tag_field!r} must be a list of tags, got {_cut(tags)}", path, lineno)
    if len(tags) != n_tokens:
        raise InputError(
            f"{len(tags)} tags in {tag_field!r} but {n_tokens} tokens; there is one tag per token", path, lineno
        )
    if all(isinstance(t, str) for t in tags):
        return tags
    if not all_ints(tags):
        kinds = [_kind(tag) for tag in tags]
        first = kinds[0]
        k = next(k for k, kind in enumerate(kinds) if kind != first or kind == "other")
        if kinds[k] == "other":
            problem = f"holds {tags[k]!r} at token {k}"
        else:
            problem = f"mixes tag kinds: token 0 has {tags[0]!r} and token {k} has {tags[k]!r}"
        raise InputError(
            f"{tag_field!r} {problem}; the tags of a record are all strings or all integer ids",
            path,
            lineno,
        )
    labels = names()
    for k, tag in enumerate(tags):
        if not 0 <= tag < len(labels):
            raise InputError(
                f"tag id {tag} (token {k}) is outside the {len(labels)} label names: valid ids are 0..{len(labels) - 1}",
                path,
                lineno,
            )
    return [labels[tag] for tag in tags]


def _kind(tag: Any) -> str:
    return "id" if is_int(tag) else "string" if isinstance(tag, str) else "other"


def _check_named(tags: List[str], fields: Fields, path: Path, lineno: int) -> None:
    """InputError for a string tag that is not among the label names passed
    (a model's "LABEL_0" would otherwise be decoded as an entity "ABEL_0")."""
    if fields.label_names is None:
        return
    known = set(fields.label_names)
    for k, tag in enumerate(tags):
        if tag not in known:
            shown = ", ".join(fields.label_names[:12]) + (", …" if len(fields.label_names) > 12 else "")
            raise InputError(
                f"tag {tag!r} (token {k}) of {fields.tag_field!r} is not among the label names ({shown}; "
                f"'label_names' or {INFO_FILE})",
                path,
                lineno,
            )


def _decode(tags: List[str], mode: str, scheme: Optional[str], path: Path, lineno: int) -> List[Span]:
    try:
        found = spans_from_tags(tags, mode=mode, scheme=scheme)
    except ValueError:
        for k, tag in enumerate(tags):
            try:
                spans_from_tags([tag], mode=mode, scheme=scheme)
            except ValueError as err:
                raise InputError(f"token {k}: {err}".replace(" at tags[0]", ""), path, lineno) from None
        raise
    return sorted({Span(start, end, label) for start, end, label in found})


def _cut(value: Any, n: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= n else text[: n - 1] + "…"


TAGS = TagsFormat()
formats.register("tags", func=TAGS)
