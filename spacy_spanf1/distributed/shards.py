"""Planning shards and merging their results (no Dask here).

A shard is (file, first document, number of documents), or a pair of
files (gold, predicted) for `compare`. The plan fixes the shards and their
order; `run.merged` adds the shard results in that order
(`CorpusScores.__add__`), whatever order they were computed in, so a sharded run (in-process or on a cluster) gives the
same scores, error records and document indices as any other run of the
same plan.
"""

import glob
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Union

from ..exceptions import InputError, PathLike, SettingError

Inputs = Union[PathLike, Sequence[PathLike]]
_MAGIC = ("*", "?", "[")


@dataclass(frozen=True)
class ShardSpec:
    """One unit of work: what a task receives (with the settings).

    index (int): Its place in the plan (the merge order).
    gold (str): The .spacy file (evaluate) or the gold file (compare).
    pred (Optional[str]): compare: the predicted file.
    start (int): The first document of the file in the shard.
    count (Optional[int]): Its number of documents; None: to the end.
    prefix (str): Put before document names (the file name, when the
        plan has several files), so that names stay unique.
    """

    index: int
    gold: str
    pred: Optional[str] = None
    start: int = 0
    count: Optional[int] = None
    prefix: str = ""

    def describe(self) -> str:
        where = self.gold if self.pred is None else f"{self.gold} vs {self.pred}"
        if self.count is not None:
            where += f", documents {self.start}-{self.start + self.count - 1}"
        return f"shard {self.index} ({where})"


@dataclass
class ShardResult:
    """What a task returns: the shard's CorpusScores (checks not applied:
    they need the merged scores)."""

    index: int
    scores: Any


@dataclass
class ShardFailure:
    """A shard whose input is bad (returned, not raised: bad input is not
    worth a retry). Turned back into an InputError on the client."""

    index: int
    message: str
    path: Optional[str] = None
    line: Optional[int] = None
    setting: Optional[str] = None

    def error(self) -> InputError:
        return InputError(self.message, self.path, self.line, setting=self.setting)


def _as_list(inputs: Inputs) -> List[PathLike]:
    if isinstance(inputs, (str, Path)):
        return [inputs]
    return list(inputs)


def _is_glob(path: PathLike) -> bool:
    return any(c in str(path) for c in _MAGIC) and not Path(path).exists()


def is_sharded_pipeline(inputs: Inputs, shard_docs: Optional[int] = None) -> bool:
    """Whether evaluate's input is more than one plain file (or is split)."""
    items = _as_list(inputs)
    if shard_docs is not None or len(items) != 1:
        return True
    return _is_glob(items[0]) or Path(items[0]).is_dir()


def expand_docbins(inputs: Inputs) -> List[Path]:
    """The .spacy files of the inputs: files as given, a directory's
    *.spacy files sorted by name, a glob's matches sorted."""
    files: List[Path] = []
    items = _as_list(inputs)
    if not items:
        raise SettingError("no input: give one or more .spacy files, directories or globs", "data_path")
    for item in items:
        path = Path(item)
        if _is_glob(item):
            found = sorted(Path(p) for p in glob.glob(str(item)) if Path(p).is_file())
            if not found:
                raise InputError("no file matches this pattern", item)
            files.extend(found)
        elif path.is_dir():
            found = sorted(p for p in path.glob("*.spacy") if p.is_file())
            if not found:
                raise InputError("no .spacy files in this directory", path)
            files.extend(found)
        else:
            files.append(path)
    return files


def count_docs(path: PathLike) -> int:
    """The number of documents of a .spacy file."""
    from ..formats.docbin import load_docbin

    return len(load_docbin(path))


def plan_pipeline(inputs: Inputs, shard_docs: Optional[int] = None) -> List[ShardSpec]:
    """The shards of evaluate's input: one per file, or with shard_docs
    files split into shards of that many documents (then each file is
    read once here, to count its documents)."""
    files = expand_docbins(inputs)
    several = len(files) > 1
    specs: List[ShardSpec] = []
    for path in files:
        prefix = f"{path.name} " if several else ""
        if shard_docs is None:
            specs.append(ShardSpec(len(specs), str(path), prefix=prefix))
            continue
        n = count_docs(path)
        for start in range(0, n, shard_docs):
            specs.append(ShardSpec(len(specs), str(path), start=start, count=min(shard_docs, n - start), prefix=prefix))
    return specs


def _is_corpus_dir(path: Path) -> bool:
    """A directory read as one corpus (brat: it holds .ann files)."""
    return path.is_dir() and any(p.suffix.lower() == ".ann" for p in path.iterdir())


def is_sharded_compare(gold: PathLike, pred: Optional[PathLike]) -> bool:
    """Whether compare's input is two directories of shards."""
    if pred is None:
        return False
    g, p = Path(gold), Path(pred)
    return g.is_dir() and p.is_dir() and not _is_corpus_dir(g) and not _is_corpus_dir(p)


def _shard_entries(path: Path, fmt: Optional[str]) -> Dict[str, Path]:
    from ..formats import extension_map
    from ..formats.huggingface import INFO_FILE

    extensions = {ext: name for ext, name in extension_map().items() if ext}
    found = {}
    kinds: Dict[str, str] = {}
    for entry in sorted(path.iterdir()):
        if entry.name.startswith(".") or entry.name == INFO_FILE:
            continue  # hidden files; the tag names of Hugging Face shards
        if entry.is_dir():
            if _is_corpus_dir(entry):
                found[entry.name] = entry
                kinds.setdefault("brat", entry.name)
        elif fmt is not None or entry.suffix.lower() in extensions:
            found[entry.name] = entry
            if fmt is None:
                kinds.setdefault(extensions[entry.suffix.lower()], entry.name)
    if not found:
        raise InputError("no input files in this directory of shards", path)
    if len(kinds) > 1:
        listed = "; ".join(f"{name}: {kind}" for kind, name in kinds.items())
        raise InputError(
            f"the shards are files of several formats ({listed}); a directory of shards holds one "
            "format (move the other files out, or pass 'format')",
            path,
        )
    return found


def plan_pairs(gold: PathLike, pred: Optional[PathLike], fmt: Optional[str] = None) -> List[ShardSpec]:
    """The shards of compare's input: two directories of shards paired by
    file name (a name on one side only is an error naming it), or one
    shard of the two paths as given."""
    if pred is None or not is_sharded_compare(gold, pred):
        return [ShardSpec(0, str(gold), None if pred is None else str(pred))]
    gold_dir, pred_dir = Path(gold), Path(pred)
    gold_files, pred_files = _shard_entries(gold_dir, fmt), _shard_entries(pred_dir, fmt)
    for name in gold_files:
        if name not in pred_files:
            raise InputError(
                f"the shard {name!r} is in {gold_dir} but not here; shards are paired by file name", pred_dir
            )
    for name in pred_files:
        if name not in gold_files:
            raise InputError(
                f"the shard {name!r} is in {pred_dir} but not here; shards are paired by file name", gold_dir
            )
    several = len(gold_files) > 1
    return [
        ShardSpec(i, str(gold_files[name]), str(pred_files[name]), prefix=f"{name} " if several else "")
        for i, name in enumerate(sorted(gold_files))
    ]


def check_counts(specs: Sequence[ShardSpec], results: Dict[int, ShardResult]) -> None:
    """Every planned shard once, each of known size with that many documents."""
    missing = [spec for spec in specs if spec.index not in results]
    if missing:
        raise InputError(f"{missing[0].describe()} returned no result ({len(missing)} shard(s) missing); no scores")
    for spec in specs:
        got = results[spec.index].scores.documents
        if spec.count is not None and got != spec.count:
            raise InputError(f"{spec.describe()} scored {got} documents, {spec.count} planned; no scores")
