"""`Signature`: what two runs must share for their numbers to be
comparable (as sacrebleu signs its scores), one type for `compare`,
`evaluate`, `agree` and `sweep`, built in one place (`make_signature`).

A Signature reads as the mapping its JSON is (`signature["read"]["format"]`,
`dict(signature)`), and equals a mapping with the same JSON. Its blocks are
copies: changing what a lookup returns changes nothing in the signature;
`replace` makes a new one.
"""

import dataclasses
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Dict, Iterator, Mapping, Optional, Tuple

from .about import __version__
from .settings import TEST_RESAMPLES

__all__ = ["Signature", "make_signature", "read_block", "signature_text"]


@cache
def spacy_version() -> Optional[str]:
    """spaCy's installed version, read without importing spaCy; None when
    it is not installed."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("spacy")
    except PackageNotFoundError:
        return None


#: The blocks every signature has, in the order its JSON writes them.
BLOCKS = ("version", "spacy", "match", "read", "analysis")
#: The blocks of one command, written after those when the command has them.
COMMAND_BLOCKS = ("agreement", "sweep", "pipeline")


def _plain(value: Any) -> Any:
    """A JSON-ready copy: mappings as dicts, tuples and lists as lists."""
    if isinstance(value, Mapping):
        return {key: _plain(v) for key, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


@dataclass(frozen=True, eq=False)
class Signature(Mapping):
    """The signature of a run.

    match (Mapping[str, Any]): Every field of `MatchSettings`, with the
        unit the input was read in.
    read (Optional[Mapping[str, Any]]): How files were read (`read_block`);
        None for spans given in Python or a pipeline's predictions.
    analysis (Optional[Mapping[str, Any]]): The analysis settings, with
        the resamples of the test; None without an analysis.
    agreement, sweep, pipeline (Optional[Mapping[str, Any]]): The settings
        of `agree`, of `sweep`, and the pipeline a sweep ran; None (and not
        in the JSON) for other commands.
    version (str): This package's version; spacy (Optional[str]): spaCy's.
    """

    match: Mapping[str, Any]
    read: Optional[Mapping[str, Any]] = None
    analysis: Optional[Mapping[str, Any]] = None
    agreement: Optional[Mapping[str, Any]] = None
    sweep: Optional[Mapping[str, Any]] = None
    pipeline: Optional[Mapping[str, Any]] = None
    version: str = __version__
    spacy: Optional[str] = field(default_factory=spacy_version)

    def __post_init__(self) -> None:
        for name in ("match", "read", "analysis") + COMMAND_BLOCKS:
            value = getattr(self, name)
            if value is not None:
                object.__setattr__(self, name, _plain(value))

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): version, spacy, match, read, analysis,
        then agreement, sweep and pipeline when the command has them (a
        copy)."""
        data = {name: _plain(getattr(self, name)) for name in BLOCKS}
        data.update({name: _plain(getattr(self, name)) for name in COMMAND_BLOCKS if getattr(self, name) is not None})
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Signature":
        """The signature `to_dict` wrote; a ValueError naming what is not
        one (a block it does not know, no match block)."""
        if isinstance(data, Signature):
            return data
        if not isinstance(data, Mapping) or "match" not in data:
            raise ValueError(f"not a signature as to_dict writes it: {data!r:.80}")
        unknown = sorted(set(data) - set(BLOCKS) - set(COMMAND_BLOCKS))
        if unknown:
            raise ValueError(
                f"not a signature as to_dict writes it: unknown block {', '.join(map(repr, unknown))}; "
                f"blocks: {', '.join(BLOCKS + COMMAND_BLOCKS)}"
            )
        return cls(**{name: data[name] for name in data})

    def replace(self, **blocks: Any) -> "Signature":
        """A copy with some blocks changed."""
        return dataclasses.replace(self, **blocks)

    def __getitem__(self, block: str) -> Any:
        if block not in BLOCKS and not (block in COMMAND_BLOCKS and getattr(self, block) is not None):
            raise KeyError(block)
        return _plain(getattr(self, block))

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())

    def __len__(self) -> int:
        return len(BLOCKS) + sum(getattr(self, name) is not None for name in COMMAND_BLOCKS)

    def __eq__(self, other: Any) -> bool:
        if not isinstance(other, Mapping):
            return NotImplemented
        return self.to_dict() == (other.to_dict() if isinstance(other, Signature) else dict(other))

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Signature({signature_text(self)})"


def read_block(read: Any, fmt: Optional[str] = None, formats: Optional[Tuple[str, str]] = None) -> Dict[str, Any]:
    """The `read` block of a signature: `ReadSettings.to_dict()` with the
    format the files were read as (`fmt`, over the one asked for), or, when
    the gold and the predicted side were read in two formats (`formats`),
    format None and gold_format and pred_format."""
    signed = read.to_dict()
    signed["format"] = fmt if fmt is not None else signed["format"]
    gold_format, pred_format = signed.pop("gold_format", None), signed.pop("pred_format", None)
    if formats is not None and formats[0] != formats[1]:
        return {
            "format": None,
            "gold_format": formats[0],
            "pred_format": formats[1],
            **{k: v for k, v in signed.items() if k != "format"},
        }
    if fmt is None and gold_format is not None and gold_format == pred_format:
        signed["format"] = gold_format
    return signed


def make_signature(
    match: Any,
    *,
    unit: Optional[str] = None,
    read: Any = None,
    fmt: Optional[str] = None,
    analysis: Any = None,
    formats: Optional[Tuple[str, str]] = None,
    agreement: Optional[Mapping[str, Any]] = None,
    sweep: Optional[Mapping[str, Any]] = None,
    pipeline: Optional[Mapping[str, Any]] = None,
) -> Signature:
    """The signature of a run: every Signature is made here.

    match (MatchSettings): The matching settings; `unit` (the unit the
        input was read in) replaces its unit when given.
    read (Optional[ReadSettings]): The reading settings of file input;
        `fmt` the format the files were read as; `formats` the gold and the
        predicted format when they differ (`read_block`).
    analysis (Optional[AnalysisSettings]): The analysis settings of a
        front door (all of them, as given: `bootstrap` None means no
        intervals); None for scores of `score_pairs` alone.
    agreement, sweep, pipeline (Optional[Mapping[str, Any]]): The
        command's own block, if it has one.
    RETURNS (Signature): version, spacy, match, read, analysis (and the
        command's block).
    """
    signed_match = match.to_dict()
    if match.relation_schemes:  # signed with them only: the signatures of other runs stay as they were
        signed_match.update(match.relation_settings())
    if unit is not None:
        signed_match["unit"] = unit
    signed_analysis = None
    if analysis is not None:
        signed_analysis = analysis.to_dict()
        signed_analysis["test_resamples"] = TEST_RESAMPLES[analysis.test]
    return Signature(
        match=signed_match,
        read=None if read is None else read_block(read, fmt, formats),
        analysis=signed_analysis,
        agreement=agreement,
        sweep=sweep,
        pipeline=pipeline,
    )


def signature_text(signature: Mapping[str, Any]) -> str:
    """A signature on one line, `key:value|...` (sacrebleu's form)."""
    parts = []
    for block in ("match", "read", "analysis"):
        for name, value in (signature.get(block) or {}).items():
            if value is None or value == {} or value == []:
                continue
            if isinstance(value, list):
                value = ",".join(map(str, value))
            elif isinstance(value, dict):
                value = ",".join(f"{k}={v}" for k, v in sorted(value.items()))
            parts.append(f"{name}:{value}")
    parts.append(f"version:{signature.get('version')}")
    parts.append(f"spacy:{signature.get('spacy')}")
    return "|".join(parts)
