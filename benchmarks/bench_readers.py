"""The readers of the JSON formats against parsing the same file with srsly.

    python benchmarks/bench_readers.py [--docs 50000] [--repeat 5] [--against TREE]

One seeded corpus (--docs records, about five spans each, every span's
text given) is written once in each format, outside the timed region:
spacy-spanf1's JSONL, doccano, Prodigy and a Label Studio export. Each
round reads every file to the end with its format's reader
(`get_format(name).read(path, side="pred", unit="char")`) and parses it
with srsly (`read_jsonl`, `read_json`: the floor), on the process's CPU
clock, after a read of a file of 20 records (what a first read imports);
the fastest of --repeat rounds counts (timeit's rule) and each reader's
ratio to its floor is printed.

With --against TREE (another checkout, e.g. `git worktree add ../before
<commit>`), each round times TREE's package and this one in turn, each in a
process of its own with its tree on PYTHONPATH (`bench_versions.run`), and AFTER / BEFORE is
printed for each reader: the way to see that a change of the readers did not
make them slower.
"""

import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable, Dict, List, Optional, Tuple

import srsly
import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_versions import run  # noqa: E402
from common import spaced_text  # noqa: E402

FORMATS = ("jsonl", "doccano", "prodigy", "labelstudio")
WORDS = ("Ann", "Lee", "flew", "to", "New", "York", "and", "met", "Acme", "in", "Paris", "on", "Monday")
LABELS = ("PER", "ORG", "LOC", "DATE")


def make_records(n: int, seed: int) -> List[Tuple[str, List[Tuple[int, int, str, str]]]]:
    """Texts of 30 words with up to five one- or two-word spans each."""
    rng = random.Random(seed)
    records = []
    for _ in range(n):
        words = [rng.choice(WORDS) for _ in range(30)]
        text, starts = spaced_text(words)
        spans = []
        for first in sorted(rng.sample(range(0, 30, 3), rng.randint(0, 5))):
            last = min(first + rng.randint(0, 1), 29)
            end = starts[last] + len(words[last])
            spans.append((starts[first], end, rng.choice(LABELS), text[starts[first] : end]))
        records.append((text, spans))
    return records


def file_name(name: str) -> str:
    """The file a format's copy of the corpus is written to."""
    return f"{name}.json" if name == "labelstudio" else f"{name}.jsonl"


def write_files(records: List[Tuple[str, List[Tuple[int, int, str, str]]]], folder: Path) -> None:
    """The records in each format, one file each."""
    lines: Dict[str, List[str]] = {name: [] for name in FORMATS if name != "labelstudio"}
    tasks = []
    for i, (text, spans) in enumerate(records):
        objects = [{"start": s, "end": e, "label": label, "text": quoted} for s, e, label, quoted in spans]
        lines["jsonl"].append(json.dumps({"text": text, "spans": objects}))
        lines["doccano"].append(json.dumps({"text": text, "label": [[s, e, label] for s, e, label, _ in spans]}))
        lines["prodigy"].append(json.dumps({"text": text, "spans": objects, "answer": "accept"}))
        results = [
            {
                "id": f"r{k}",
                "type": "labels",
                "from_name": "label",
                "to_name": "text",
                "value": {"start": s, "end": e, "labels": [label], "text": quoted},
            }
            for k, (s, e, label, quoted) in enumerate(spans)
        ]
        tasks.append({"id": i, "data": {"text": text}, "predictions": [{"id": i, "result": results}]})
    for name, rows in lines.items():
        (folder / file_name(name)).write_text("\n".join(rows) + "\n", encoding="utf-8")
    (folder / file_name("labelstudio")).write_text(json.dumps(tasks), encoding="utf-8")


def _lines(path: Path) -> list:
    return list(srsly.read_jsonl(path))


def time_once(paths: Dict[str, Path]) -> Tuple[Dict[str, float], List[str]]:
    """CPU seconds of one read of each file by its reader, and by srsly;
    and the formats whose reader read other spans than the JSONL reader."""
    from spacy_spanf1.formats import get_format

    figures: Dict[str, float] = {}
    read: Dict[str, list] = {}
    for name in FORMATS:
        path, reader = paths[name], get_format(name)
        list(reader.read(path.parent / "warm" / path.name, side="pred", unit="char"))  # what a first read imports
        parse: Callable[[Path], object] = srsly.read_json if name == "labelstudio" else _lines
        start = time.process_time()
        parse(path)
        figures[f"{name} floor"] = time.process_time() - start
        start = time.process_time()
        docs = list(reader.read(path, side="pred", unit="char"))
        figures[name] = time.process_time() - start
        read[name] = [doc.spans for doc in docs]
    return figures, [name for name in FORMATS if read[name] != read[FORMATS[0]]]


def main(
    docs: int = typer.Option(50_000, "--docs", help="Records a file."),
    repeat: int = typer.Option(5, "--repeat", help="Rounds; the fastest counts."),
    seed: int = typer.Option(0, "--seed"),
    against: Optional[Path] = typer.Option(None, "--against", help="Another checkout to time in turn with this one."),
    folder: Optional[Path] = typer.Option(None, "--folder", hidden=True),
) -> None:
    if folder is not None:  # a child process: one round in this interpreter
        paths = {name: folder / file_name(name) for name in FORMATS}
        import spacy_spanf1

        figures, differ = time_once(paths)
        tree = str(Path(spacy_spanf1.__file__).resolve().parent.parent)
        print(json.dumps({"figures": figures, "differ": differ, "tree": tree}))
        return
    trees = {"after": ROOT} if against is None else {"before": against.resolve(), "after": ROOT}
    fastest: Dict[str, Dict[str, float]] = {tree: {} for tree in trees}
    with tempfile.TemporaryDirectory() as tmp:
        records = make_records(docs, seed)
        write_files(records, Path(tmp))
        (Path(tmp) / "warm").mkdir()
        write_files(records[:20], Path(tmp) / "warm")
        for _ in range(repeat):
            for tree, where in trees.items():
                found = json.loads(run(where, [str(Path(__file__).resolve()), "--folder", tmp]))
                if found["tree"] != str(where):
                    raise SystemExit(f"The round meant for {where} imported the package of {found['tree']}.")
                if found["differ"]:
                    raise SystemExit(
                        f"In {where}, the {', '.join(found['differ'])} reader read other spans than jsonl's."
                    )
                for figure, seconds in found["figures"].items():
                    fastest[tree][figure] = min(seconds, fastest[tree].get(figure, seconds))
    print("Every reader read the same spans.")
    print(f"{docs:,} records a file, fastest of {repeat} rounds, CPU seconds")
    for name in FORMATS:
        row = [f"{name:<12}"]
        for tree in trees:
            seconds, floor = fastest[tree][name], fastest[tree][f"{name} floor"]
            row.append(f"{tree} {seconds:.3f}s ({seconds / floor:.2f}x floor {floor:.3f}s)")
        if against is not None:
            row.append(f"after / before {fastest['after'][name] / fastest['before'][name]:.3f}")
        print("  ".join(row))


if __name__ == "__main__":
    typer.run(main)
