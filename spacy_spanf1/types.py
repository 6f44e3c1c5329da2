"""The records that pass between readers, the engine and the outputs."""
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Tuple, Union

from .spans import Span

PathLike = Union[str, Path]


@dataclass
class Document:
    """One document of one side, as a reader yields it.

    name (str): How messages name it, e.g. "line 3", "sentence 2", "id 'A1'",
        "file 'x.ann'".
    spans (Optional[List[Span]]): Sorted, identical spans once, in the unit
        the reader was asked for; None when the document has no annotation
        (a gold document without annotation is skipped and counted).
    text (str): Its text (made from its tokens when the format has none).
    tokens (Optional[List[str]]): Its tokens, in token unit.
    offsets (Optional[List[Tuple[int, int]]]): Each token's characters in text.
    meta (Dict[str, Any]): Metadata passed through (genre, source, ...).
    line (Optional[int]): The line of its file where it starts.
    key (Optional[str]): What pairs it with the other side's document
        (a file name, an id, `_input_hash`); None: paired by position.
    source (str): The file it came from, for messages.
    """

    name: str
    spans: Optional[List[Span]]
    text: str = ""
    tokens: Optional[List[str]] = None
    offsets: Optional[List[Tuple[int, int]]] = None
    meta: Dict[str, Any] = field(default_factory=dict)
    line: Optional[int] = None
    key: Optional[str] = None
    source: str = ""


class Format:
    """An input format: how to read one path (a file, or a directory for
    brat) into Documents. Registered in `registry.formats` by its name.

    name (str): What `--format` calls it.
    units (Tuple[str, ...]): The units it can be read in; the first is the
        default.
    extensions (Tuple[str, ...]): File extensions that imply it ("" for a
        directory).
    options (Tuple[str, ...]): The reader settings it takes besides unit
        and side, e.g. ("tag_column", "tag_mode", "tag_scheme").
    """

    name: str = ""
    units: Tuple[str, ...] = ("char",)
    extensions: Tuple[str, ...] = ()
    options: Tuple[str, ...] = ()

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        """Yield the documents of path one at a time.

        side (str): "gold" or "pred" (a file holding both sides, such as a
            Label Studio export, yields the side asked for).
        unit (str): One of self.units.
        Raises InputError (file, line or document, problem, what is valid).
        """
        raise NotImplementedError
