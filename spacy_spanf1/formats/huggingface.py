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
from pathlib import Path
from typing import Any, Callable, Iterator, List, Optional

from ..registry import formats
from ..spans import Span, all_ints, is_int
from ..tags import spans_from_tags
from .base import Document, Format, PathLike
from .base import InputError, UsageError, read_text
from .conll import check_tag_options
from .records import check_read, json_lines, no_annotation

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

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        opts = check_read(self, side, unit, options)
        mode, scheme = opts.get("tag_mode", "conll"), opts.get("tag_scheme")
        check_tag_options(mode, scheme)
        tag_field = opts.get("tag_field", "ner_tags")
        names = _label_names(opts.get("label_names"))
        path = Path(path)
        return _read(path, side, opts.get("token_field", "tokens"), tag_field, _namer(path, tag_field, names), mode, scheme)


def _label_names(value: Any) -> Optional[List[str]]:
    if value is None:
        return None
    if isinstance(value, str):
        value = [name.strip() for name in value.split(",")]
    if not (isinstance(value, (list, tuple)) and value and all(isinstance(n, str) and n for n in value)):
        raise UsageError(f"label_names must be a non-empty list of tag names (or a comma-separated string), got {value!r}", "label_names")
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


def _names_from_info(path: Path, tag_field: str) -> List[str]:
    info_path = path.parent / INFO_FILE
    if not info_path.is_file():
        raise InputError(
            f"the tags in {tag_field!r} are integer ids, and there is no {INFO_FILE} beside the file "
            f"to name them; pass label_names (e.g. O,B-PER,I-PER) or add {INFO_FILE}",
            path,
        )
    try:
        info = json.loads(read_text(info_path))
    except json.JSONDecodeError as err:
        raise InputError(f"invalid JSON ({err.msg}, column {err.colno})", info_path, err.lineno) from None
    feature = info.get("features", {}).get(tag_field) if isinstance(info, dict) and isinstance(info.get("features"), dict) else None
    if isinstance(feature, list) and len(feature) == 1:  # a plain Python list of one feature
        feature = {"feature": feature[0], "_type": "Sequence"}
    inner = feature.get("feature") if isinstance(feature, dict) and feature.get("_type") in _SEQUENCE_TYPES else None
    names = inner.get("names") if isinstance(inner, dict) and inner.get("_type") == "ClassLabel" else None
    if not (isinstance(names, list) and names and all(isinstance(n, str) for n in names)):
        raise InputError(
            f'has no ClassLabel names for {tag_field!r} (expected "features": {{"{tag_field}": '
            f'{{"feature": {{"names": [...], "_type": "ClassLabel"}}, "_type": "Sequence"}}}}); '
            "pass label_names instead",
            info_path,
        )
    return names


def _read(
    path: Path, side: str, token_field: str, tag_field: str, names: Callable[[], List[str]], mode: str, scheme: Optional[str]
) -> Iterator[Document]:
    for lineno, record in json_lines(path):
        tokens = record.get(token_field)
        if not (isinstance(tokens, list) and all(isinstance(t, str) for t in tokens)):
            raise InputError(f"{token_field!r} must be a list of strings, got {_cut(tokens)}", path, lineno)
        offsets, pos = [], 0
        for token in tokens:
            offsets.append((pos, pos + len(token)))
            pos += len(token) + 1
        meta = {k: v for k, v in record.items() if k not in (token_field, tag_field)}
        if tag_field in record:
            tags = _tag_strings(record[tag_field], len(tokens), tag_field, names, path, lineno)
            spans: Optional[List[Span]] = _decode(tags, mode, scheme, path, lineno)
        else:
            spans = no_annotation(side)
        yield Document(
            f"line {lineno}", spans, " ".join(tokens), tokens, offsets, meta=meta, line=lineno, source=str(path)
        )


def _tag_strings(tags: Any, n_tokens: int, tag_field: str, names: Callable[[], List[str]], path: Path, lineno: int) -> List[str]:
    if not isinstance(tags, list):
        raise InputError(f"{tag_field!r} must be a list of tags, got {_cut(tags)}", path, lineno)
    if len(tags) != n_tokens:
        raise InputError(f"{len(tags)} tags in {tag_field!r} but {n_tokens} tokens; there is one tag per token", path, lineno)
    if all(isinstance(t, str) for t in tags):
        return tags
    if not all_ints(tags):
        bad = next(t for t in tags if not (isinstance(t, str) or is_int(t)))
        raise InputError(f"{tag_field!r} holds {bad!r}; tags are all strings or all integer ids", path, lineno)
    labels = names()
    for k, tag in enumerate(tags):
        if not 0 <= tag < len(labels):
            raise InputError(
                f"tag id {tag} (token {k}) is outside the {len(labels)} label names: valid ids are 0..{len(labels) - 1}",
                path,
                lineno,
            )
    return [labels[tag] for tag in tags]


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
