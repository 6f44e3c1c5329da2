"""Input formats of `spacy-spanf1 compare` / `compare_files`: a registry
of readers, and the pairing of gold and predicted documents.

Each format is a `base.Format` object registered in `registry.formats`
under its name (`spacy`, `jsonl`, `conll`, `kaggle`, ...; another package
adds one under the entry point group `spacy_spanf1_formats`). Its reader
yields `base.Document`s one at a time; `pairing.pair_documents` pairs the
two sides, checks that they describe the same documents and applies the
skip rules, for every format alike. Every problem with the input raises
`InputError` (file, line, problem); a bad setting raises `SettingError`
naming the setting (both in `spacy_spanf1.exceptions`).
"""

import importlib
from pathlib import Path
from typing import Any, Dict, Iterator, Optional, Tuple

from ..registry import formats as _registry
from .base import Document, Format, Marks, PathLike, option_error
from ..exceptions import InputError, SettingError
from ..settings import UNITS, ReadSettings
from .base import check_file, read_lines, read_text
from .base import check_options as check_reader_options
from .identity import token_offsets
from .pairing import PAIRING_OPTIONS, DocPair, PairStats, pair_documents
from .mixed import MixedFormat, mix_error, side_documents

#: The built-in reader modules, imported (and so registered) on import of
#: this package, in the order `--format`'s help lists them. Adding a format
#: is one line here. A module missing from the package is an ImportError.
BUILTIN: Tuple[str, ...] = (
    "docbin",
    "jsonl",
    "conll",
    "kaggle",
    "brat",
    "labelstudio",
    "doccano",
    "prodigy",
    "huggingface",
    "mentions",
    "aida",
    "inline",
)

for _module in BUILTIN:
    importlib.import_module(f"{__name__}.{_module}")

from .conll import check_tag_settings, read_conll  # noqa: E402
from .docbin import read_docbin  # noqa: E402
from .jsonl import read_jsonl  # noqa: E402
from .kaggle import read_kaggle  # noqa: E402


def format_names() -> Tuple[str, ...]:
    """Every registered format (built-in first, then entry points and
    formats registered at run time)."""
    return tuple(_registry.get_all())


def get_format(name: str, setting: str = "format") -> Format:
    """The registered format of that name. Raises SettingError (naming the
    setting: "format", "gold_format", "pred_format") listing the
    registered ones."""
    if name not in _registry:
        raise SettingError(f"Unknown format {name!r}. Valid formats: {', '.join(format_names())}", setting)
    return _registry.get(name)


def extension_map() -> Dict[str, str]:
    """File extension -> format name, from the formats' `.extensions`
    ("" is a directory); the first format to claim an extension has it."""
    found: Dict[str, str] = {}
    for name, reader in _registry.get_all().items():
        for ext in reader.extensions:
            found.setdefault(ext.lower(), name)
    return found


def infer_format(path: PathLike, format: Optional[str] = None, setting: str = "format") -> str:
    """The format named (which must be registered), or the one the path's
    extension implies (a directory: the format whose extensions hold "").
    setting: what errors name ("gold_format" for the gold path, ...)."""
    if format is not None:
        get_format(format, setting)
        return format
    extensions = extension_map()
    path = Path(path)
    suffix = path.suffix.lower()
    if suffix in extensions and suffix:
        return extensions[suffix]
    if path.is_dir() and "" in extensions:
        return extensions[""]
    known = ", ".join(f"{ext or '(directory)'} ({name})" for ext, name in extensions.items())
    raise SettingError(
        f"Can't tell the format of '{path}' from its extension {suffix or '(none)'!r}. "
        f"Pass '{setting}' ({', '.join(format_names())}); known extensions: {known}",
        setting,
    )


def _same_file(a: PathLike, b: PathLike) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


def check_pairing_options(format: Format, unit: Optional[str], options: Dict[str, Any]) -> Tuple[str, Dict[str, Any]]:
    """The unit to read in (the format's default when None) and the options
    that are set (None values dropped), pairing's settings among them
    (`base.check_options`, the one check). Raises SettingError, naming the
    setting, for a unit or an option the format does not take."""
    return check_reader_options(format, unit, options, also=PAIRING_OPTIONS)


class Pairs:
    """The paired documents of a gold and a predicted source, as a stream:
    iterate once; the counts (`stats`) are complete once the stream is.

    format (Format): The format read (a `mixed.MixedFormat` for two).
    unit (str), sources (Tuple[str, str]), options (Dict).
    sides (Optional[Tuple[str, str]]): The gold and the predicted format,
        when they differ (a mix, or mentions placed on a gold of its own).
    """

    def __init__(
        self,
        gold_docs,
        pred_docs,
        *,
        format: Format,
        unit: str,
        sources: Tuple[str, str],
        options: Dict[str, Any],
        sides: Optional[Tuple[str, str]] = None,
    ):
        self.format = format
        self.sides = sides
        self.unit = unit
        self.sources = sources
        self.options = options
        self.stats = PairStats()
        self._pairs = pair_documents(
            gold_docs,
            pred_docs,
            format=format,
            sources=sources,
            stats=self.stats,
            options=dict(options, unit=unit),
        )

    def __iter__(self) -> Iterator[DocPair]:
        return self._pairs


def open_pairs(
    gold_path: PathLike,
    pred_path: Optional[PathLike] = None,
    *,
    read: Optional[ReadSettings] = None,
    unit: Optional[str] = None,
    **options: Any,
) -> Pairs:
    """Read a gold and a predicted source of the same documents as a stream
    of DocPairs. pred_path None: both sides come from gold_path (a format
    that holds both, read with side "gold" and side "pred", e.g. a CoNLL
    file with two tag columns).

    read (Optional[ReadSettings]): How the files are read (None: the
        defaults): format (a registered format of both sides; None: from
        the extensions), gold_format and pred_format (the format of one
        side, over format;
        two formats that can describe the same documents mix, a spaCy
        DocBin gold with JSONL predictions: `formats.mixed`), gold_column
        and pred_column (each side's tag_column of one file), and reader
        options (written over those given here).
    unit (Optional[str]): "token" or "char", among the format's units;
        None: its default.
    options: The format's reader settings (None: unset); in a mix, each
        goes to the side whose format takes it.
    Raises SettingError for settings that do not fit the format; InputError
    (on reading) for bad input.
    """
    read = ReadSettings() if read is None else read
    format, gold_format, pred_format = read.format, read.gold_format, read.pred_format
    options = {**options, **read.options}
    gold_options = pred_options = None
    if read.one_file:  # the two columns are each side's tag_column
        gold_options, pred_options = {"tag_column": read.gold_column}, {"tag_column": read.pred_column}
    gold_named = gold_format if gold_format is not None else format
    # one file holding both sides (pred_path None) is in the gold's format
    pred_named = pred_format if pred_format is not None else format if pred_path is not None else gold_named
    pred_setting = "pred_format" if pred_format is not None else "format"
    gold_setting = "gold_format" if gold_format is not None else "format"
    if pred_named is not None and get_format(pred_named, pred_setting).predictions_only:
        return _open_predictions(gold_path, pred_path, get_format(pred_named), unit, options, gold_format=gold_format)
    same = pred_path is None
    pred_path = gold_path if pred_path is None else pred_path
    gold_name = infer_format(gold_path, gold_named, gold_setting)
    pred_name = infer_format(pred_path, pred_named, pred_setting)
    if gold_name != pred_name:
        if same:
            raise SettingError(
                f"one file '{gold_path}' holds both sides in one format; {gold_name} gold and {pred_name} "
                "predictions need two files",
                "pred_format",
            )
        setting = pred_format and "pred_format" or gold_format and "gold_format" or format and "format" or None
        return _open_mixed(gold_path, pred_path, get_format(gold_name), get_format(pred_name), unit, options, setting)
    reader = get_format(gold_name)
    side_options = {**(gold_options or {}), **(pred_options or {})}
    unit, options = check_pairing_options(reader, unit, {**options, **side_options})
    pairing = {k: options.pop(k) for k in PAIRING_OPTIONS if k in options}
    shared = {k: v for k, v in options.items() if k not in side_options}
    gold_opts = {**shared, **{k: v for k, v in (gold_options or {}).items() if v is not None}}
    pred_opts = {**shared, **{k: v for k, v in (pred_options or {}).items() if v is not None}}
    reader.check_sides(gold_opts, pred_opts, same or _same_file(gold_path, pred_path))
    return _read_pairs((reader, reader), (gold_path, pred_path), unit, (gold_opts, pred_opts), {**shared, **pairing})


def _open_mixed(
    gold_path: PathLike,
    pred_path: PathLike,
    gold_reader: Format,
    pred_reader: Format,
    unit: Optional[str],
    options: Dict[str, Any],
    setting: Optional[str] = None,
) -> Pairs:
    """The pairs of a gold file in one format and a predicted file in
    another (`formats.mixed`): each reader takes its own options, and the
    unit is one both sides can be read in (char by default, token when a
    side has tokens only)."""
    mix = MixedFormat(gold_reader, pred_reader)
    if not mix.units:
        if setting is None:  # both from the extensions: one may mislead
            error = mix_error(gold_reader, pred_reader)
            raise SettingError(
                f"'{gold_path}' looks like {gold_reader.name} and '{pred_path}' like {pred_reader.name} (set 'format', "
                f"or 'gold_format' and 'pred_format', if an extension misleads); {error.message}",
                "format",
            )
        raise mix_error(gold_reader, pred_reader, setting=setting)
    if unit is not None and unit not in UNITS:
        raise SettingError(f"Unknown unit {unit!r}. Valid units: {', '.join(UNITS)}", "unit")
    if unit is not None and unit not in mix.units:
        raise mix_error(gold_reader, pred_reader, unit)
    unit = unit or ("char" if "char" in mix.units else mix.units[0])
    gold_takes, pred_takes = tuple(gold_reader.options), tuple(pred_reader.options)
    set_options = {name: value for name, value in options.items() if value is not None}
    for name in set_options:
        if name not in gold_takes + pred_takes + PAIRING_OPTIONS:
            raise option_error(name, f"{gold_reader.name} gold or {pred_reader.name} predictions")
    pairing = {k: set_options.pop(k) for k in PAIRING_OPTIONS if k in set_options}
    gold_opts = {k: v for k, v in set_options.items() if k in gold_takes}
    pred_opts = {k: v for k, v in set_options.items() if k in pred_takes}
    gold_kind, pred_kind = mix.kinds
    pred_unit = unit if unit in pred_reader.units else "char"
    if unit == "token" and pred_reader.name == "jsonl":
        pred_opts["chars_without_tokens"] = True  # records without "tokens" are placed on the gold tokens
    gold_docs = side_documents(gold_reader.read(gold_path, side="gold", unit=unit, **gold_opts), gold_kind, unit)
    pred_docs = side_documents(pred_reader.read(pred_path, side="pred", unit=pred_unit, **pred_opts), pred_kind, unit)
    return Pairs(
        gold_docs,
        pred_docs,
        format=mix,
        unit=unit,
        sources=(str(gold_path), str(pred_path)),
        options={**pairing, "spans_key": set_options.get("spans_key")},
        sides=mix.sides,
    )


def _open_predictions(
    gold_path: PathLike,
    pred_path: Optional[PathLike],
    reader: Format,
    unit: Optional[str],
    options: Dict[str, Any],
    gold_format: Optional[str] = None,
) -> Pairs:
    """The pairs of a gold file in its own format (by its extension) and a
    file of a format that holds predictions only (`mentions`)."""
    if pred_path is None:
        raise SettingError(
            f"{reader.name} input holds predictions only: give the gold file and the predicted file", "pred_path"
        )
    gold_reader = get_format(infer_format(gold_path, gold_format, "gold_format"))
    if gold_reader.predictions_only:
        raise SettingError(
            f"the gold of {reader.name} input is read from a file with its spans (jsonl, spacy, conll, brat, ...), "
            f"not {gold_reader.name}",
            "format",
        )
    spans_key = options.pop("spans_key", None)
    if unit is None:  # the gold format's first unit it shares: char for files of offsets, token for CoNLL
        unit = next(u for u in gold_reader.units if u in reader.units)
    unit, pred_options = check_pairing_options(reader, unit, options)
    unit, gold_options = check_pairing_options(gold_reader, unit, {"spans_key": spans_key})
    pairing = {k: pred_options.pop(k) for k in PAIRING_OPTIONS if k in pred_options}
    return _read_pairs(
        (gold_reader, reader),
        (gold_path, pred_path),
        unit,
        (gold_options, pred_options),
        {**pred_options, **pairing, **gold_options, "unit": unit},
        sides=(gold_reader.name, reader.name),
    )


def _read_pairs(
    readers: Tuple[Format, Format],
    paths: Tuple[PathLike, PathLike],
    unit: str,
    side_options: Tuple[Dict[str, Any], Dict[str, Any]],
    options: Dict[str, Any],
    sides: Optional[Tuple[str, str]] = None,
) -> Pairs:
    """The Pairs of the gold side read by the first reader and the
    predicted side by the second (the format the pairs are of), each with
    its own options; `options` are the pairs' own."""
    gold_docs = readers[0].read(paths[0], side="gold", unit=unit, **side_options[0])
    pred_docs = readers[1].read(paths[1], side="pred", unit=unit, **side_options[1])
    sources = (str(paths[0]), str(paths[1]))
    return Pairs(gold_docs, pred_docs, format=readers[1], unit=unit, sources=sources, options=options, sides=sides)


__all__ = [
    "BUILTIN",
    "DocPair",
    "Document",
    "Format",
    "InputError",
    "Marks",
    "PairStats",
    "Pairs",
    "SettingError",
    "check_file",
    "check_pairing_options",
    "check_tag_settings",
    "extension_map",
    "format_names",
    "get_format",
    "infer_format",
    "open_pairs",
    "pair_documents",
    "read_conll",
    "read_docbin",
    "read_jsonl",
    "read_kaggle",
    "read_lines",
    "read_text",
    "token_offsets",
]
