"""The stream of files: two files (or one holding both sides) read by their
format, paired and scored (`score_files`).
"""

import dataclasses
from typing import Iterable, Iterator, Optional

from ..exceptions import PathLike, SettingError
from ..formats import DocPair, Pairs, format_names, get_format, infer_format, open_pairs
from ..formats.base import formats_taking
from ..results.scores import CorpusScores
from ..signature import make_signature
from ..settings import MatchSettings, ReadSettings
from .errors import Keep
from .stream import score_pairs

__all__ = ["open_files", "score_files"]


def open_files(
    gold_path: PathLike, pred_path: Optional[PathLike], match: MatchSettings, read: ReadSettings, columns: bool = True
) -> Pairs:
    """The paired documents of two files (or of one file holding both
    sides) as the settings read them (nothing is read yet); SettingError
    where the settings do not fit the files' format. columns: whether a
    CoNLL file's two tag columns may stand for the two sides (not in a
    sweep: tags have no scores)."""
    if not read.one_file and (
        pred_path is None
        and not get_format(
            infer_format(gold_path, read.gold_format or read.format, "gold_format" if read.gold_format else "format")
        ).both_sides
    ):
        both = ", ".join(name for name in format_names() if get_format(name).both_sides)
        raise SettingError(
            "no predicted file: give 'pred_path', or, for a CoNLL file with both tag columns, "
            "'gold_column' and 'pred_column'"
            if columns
            else f"no predicted file: give 'pred_path', or one file in a format that holds both sides ({both})",
            "pred_path",
        )
    pairs = open_pairs(gold_path, pred_path, read=read, unit=match.unit, spans_key=match.spans_key)
    if read.one_file and "tag_column" not in pairs.format.options:  # the two columns are each side's tag_column
        users = ", ".join(formats_taking("tag_column"))
        raise SettingError(
            f"'gold_column' and 'pred_column' apply to {users} input, not {pairs.format.name}", "gold_column"
        )
    return pairs


def score_files(
    gold_path: PathLike,
    pred_path: Optional[PathLike],
    match: MatchSettings,
    read: ReadSettings,
    keep: Keep = Keep(),
    rename: str = "",
) -> CorpusScores:
    """Read and score two files of the same documents (no corpus checks:
    see `check_outcome`; a shard of a larger corpus is scored so).

    rename (str): Put before every document's name (a shard's file name).
    """
    pairs = open_files(gold_path, pred_path, match, read)
    reader = pairs.format
    keep = dataclasses.replace(keep, gold_labels=keep.gold_labels or reader.keeps_gold_labels(match))
    stream: Iterable[DocPair] = pairs if not rename else _renamed(pairs, rename)
    signature = make_signature(match, unit=pairs.unit, read=read, fmt=reader.name, formats=pairs.sides)
    scores = score_pairs(
        stream, match, keep=keep, stats=pairs.stats, unit=pairs.unit, sources=pairs.sources, signature=signature
    )
    if rename and scores.notes:  # a shard's notes name its file
        scores = scores.replace(
            notes={
                side: {
                    kind: {"count": n["count"], "examples": [rename + e for e in n["examples"]]}
                    for kind, n in found.items()
                }
                for side, found in scores.notes.items()
            }
        )
    return scores


def _renamed(pairs: Iterable[DocPair], prefix: str) -> Iterator[DocPair]:
    for pair in pairs:
        pair.name = prefix + pair.name
        yield pair
