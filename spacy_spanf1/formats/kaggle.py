"""`kaggle`: Feedback Prize CSV with the columns `id`, `class` (or the
training file's `discourse_type`) and `predictionstring` (the word indices
of one span). A document is an id (its `key`: gold and prediction are
paired by id, in the gold file's order); rows may come in any order, so a
file is read whole before its documents are yielded. Unit: `token` (word
indices). Documents have no text: reports show the word indices.
"""

import csv
import io
from typing import Any, Dict, Iterator, List, Optional, Sequence, Tuple

from ..registry import formats
from ..spans import Span
from ..notes import note
from ..settings import NOTE_EXAMPLES
from .base import Document, Format, InputError, PathLike, read_text

KAGGLE_CLASS_COLUMNS: Tuple[str, ...] = ("class", "discourse_type")


def read_kaggle(path: PathLike) -> Dict[str, Document]:
    """Documents of a Feedback Prize CSV (id, class, predictionstring), by
    id in order of first appearance. Each row is one span: the word indices
    of its predictionstring must form one contiguous run."""
    text = read_text(path)
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader)
    except StopIteration:
        raise InputError("empty file; expected a header line id,class,predictionstring", path) from None
    except csv.Error as err:
        raise InputError(f"not a readable CSV file ({err})", path, 1) from None
    names = [name.strip().lower() for name in header]
    id_col = _column(names, ("id",), path)
    class_col = _column(names, KAGGLE_CLASS_COLUMNS, path)
    ps_col = _column(names, ("predictionstring",), path)
    docs: Dict[str, Document] = {}
    spans: Dict[str, set] = {}
    duplicates: Dict[str, List[str]] = {}
    while True:
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as err:
            raise InputError(f"malformed CSV row ({err})", path, reader.line_num) from None
        lineno = reader.line_num
        if not row or (len(row) == 1 and not row[0].strip()):
            continue
        if len(row) != len(names):
            raise InputError(
                f"the row has {len(row)} fields, the header has {len(names)} ({', '.join(header)})",
                path,
                lineno,
            )
        doc_id = row[id_col].strip()
        label = row[class_col].strip()
        if not doc_id:
            raise InputError("empty id", path, lineno)
        if not label:
            raise InputError(f"empty {names[class_col]}", path, lineno)
        span = Span(*_word_run(row[ps_col], path, lineno), label)
        if doc_id not in docs:
            docs[doc_id] = Document(f"id {doc_id!r}", [], line=lineno, key=doc_id, source=str(path))
            spans[doc_id] = set()
        if span in spans[doc_id]:
            duplicates.setdefault(doc_id, []).append(
                f"id {doc_id!r}, line {lineno}: {label} {row[ps_col].strip()[:30]}"
            )
        spans[doc_id].add(span)
    for doc_id, doc in docs.items():
        doc.spans = sorted(spans[doc_id])
        if doc_id in duplicates:
            # Identical spans count once (spaCy's set semantics); the
            # competition's notebook would count the copy as a false positive.
            doc.notes = {"duplicate_rows": note(len(duplicates[doc_id]), duplicates[doc_id][:NOTE_EXAMPLES])}
    return docs


def _column(names: List[str], wanted: Sequence[str], path: PathLike) -> int:
    for name in wanted:
        if name in names:
            return names.index(name)
    raise InputError(
        f"the header has no column {' or '.join(repr(w) for w in wanted)} "
        f"(found: {', '.join(names)}); expected id,class,predictionstring",
        path,
        1,
    )


def _word_run(value: str, path: PathLike, lineno: int) -> Tuple[int, int]:
    parts = value.split()
    if not parts:
        raise InputError("empty predictionstring", path, lineno)
    try:
        indices = sorted({int(part) for part in parts})
    except ValueError:
        bad = next(p for p in parts if not p.lstrip("-").isdigit())
        raise InputError(f"predictionstring holds {bad!r}, not a word index", path, lineno) from None
    if indices[0] < 0:
        raise InputError(f"predictionstring holds the negative word index {indices[0]}", path, lineno)
    if indices[-1] - indices[0] + 1 != len(indices):
        present = set(indices)
        gaps = [i for i in range(indices[0], indices[-1]) if i not in present]
        raise InputError(
            f"predictionstring {_abbrev(value)!r} is not one contiguous run of word indices "
            f"(missing {gaps[0]}); each row must be one span",
            path,
            lineno,
        )
    return indices[0], indices[-1] + 1


def _abbrev(value: str, n: int = 40) -> str:
    value = " ".join(value.split())
    return value if len(value) <= n else value[: n - 1] + "…"


class KaggleFormat(Format):
    """Feedback Prize CSV: id, class, predictionstring of word indices (unit
    token); ids in any order; the overlap scheme also prints the official
    score, the mean F1 of the gold classes."""

    name = "kaggle"
    units = ("token",)
    extensions = (".csv",)
    options = ()
    keyed = True
    key_field = "id"

    def read(self, path: PathLike, *, side: str, unit: str, **options: Any) -> Iterator[Document]:
        yield from read_kaggle(path).values()

    def keeps_gold_labels(self, match: Any) -> bool:
        return "overlap" in match.schemes

    def official_score(self, scores: Any, match: Any) -> Optional[float]:
        """The competition's score: under the overlap scheme, the mean F1
        of the classes found in the gold file."""
        if "overlap" not in match.schemes:
            return None
        per_type = scores.results["overlap"].per_type
        f1s = [per_type[c].f1 for c in scores.gold_labels if c in per_type]
        return sum(f1s) / len(f1s) if f1s else 0.0


KAGGLE = KaggleFormat()
formats.register("kaggle", func=KAGGLE)
