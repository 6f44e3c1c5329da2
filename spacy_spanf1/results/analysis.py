"""The analysis attached to scores, as `CorpusScores` reads it: its parts
read through (`AnalysisPart`), and the blocks of a result read back from
JSON (`RecordedAnalysis`)."""

from dataclasses import dataclass, field
from typing import Any, Dict, Mapping, Optional

__all__ = ["ANALYSIS_BLOCKS", "AnalysisPart", "RecordedAnalysis"]


@dataclass(frozen=True)
class RecordedAnalysis:
    """The analysis blocks of a result read back from JSON (`from_dict`):
    written again as they were read."""

    cis: Mapping[str, Any] = field(default_factory=dict)
    blocks: Mapping[str, Any] = field(default_factory=dict)

    def add_to(self, data: Dict[str, Any], scores: Any) -> None:
        for scheme, block in self.cis.items():
            data["schemes"][scheme]["ci"] = block
        data.update(self.blocks)


#: The JSON keys of analysis blocks at the top level.
ANALYSIS_BLOCKS = ("comparison", "breakdown")


class AnalysisPart:
    """A part of the attached analysis, read through (empty when there is
    no analysis): `scores.intervals` is `scores.analysis.intervals`."""

    def __init__(self, doc: str) -> None:
        self.__doc__ = doc

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, scores: Any, owner: Optional[type] = None) -> Any:
        if scores is None:
            return self
        return getattr(scores.analysis, self.name, None) or {}
