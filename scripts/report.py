"""Print one table of every matching scheme for every evaluated pipeline.

Reads the JSON written by `python -m spacy_spanf1 evaluate ... --output`
({"schemes": {scheme: {"p", "r", "f", "macro_f", ...}}, ...}). A flat dict
of spaCy score keys (`<prefix>_<scheme>_p`, e.g. `ents_iou_p` or
`spans_sc_iou_p`, as `nlp.evaluate` returns them) is read too, also nested
one level per component as `spacy evaluate --per-component` writes it.
`spacy evaluate` without --per-component keeps only the primary scheme's
keys (NER P/R/F, SPAN P/R/F), so its output is not enough here.
"""
from pathlib import Path
from typing import Any, Dict, List, Optional

import srsly
import typer
from wasabi import msg

from spacy_spanf1.errors import SCHEMES  # the one list of scheme names
FIELDS = ("p", "r", "f", "macro_f")


def read_schemes(path: Path) -> Dict[str, Dict[str, Optional[float]]]:
    """scheme -> {"p", "r", "f", "macro_f"} from either JSON layout."""
    data = srsly.read_json(path)
    if isinstance(data.get("schemes"), dict):
        return {
            scheme: {field: values.get(field) for field in FIELDS}
            for scheme, values in data["schemes"].items()
        }
    flat: Dict[str, Any] = {}
    for key, value in data.items():
        is_component = isinstance(value, dict) and not key.endswith(("_per_type", "_counts"))
        flat.update(value if is_component else {key: value})
    found: Dict[str, Dict[str, Optional[float]]] = {}
    for scheme in SCHEMES:
        stems = [key[: -len("_f")] for key in flat if key.endswith(f"_{scheme}_f")]
        if stems:
            found[scheme] = {field: flat.get(f"{stems[0]}_{field}") for field in FIELDS}
    return found


def percent(value: Optional[float]) -> str:
    return "-" if value is None else f"{value * 100:.2f}"


def report(
    metrics: List[Path] = typer.Argument(..., help="JSON files, one per pipeline", exists=True, dir_okay=False),
) -> None:
    rows = []
    for path in metrics:
        name = path.stem[: -len("-spanf1")] if path.stem.endswith("-spanf1") else path.stem
        schemes = read_schemes(path)
        if not schemes:
            msg.fail("No scheme scores found", path, exits=1)
        for scheme, values in schemes.items():
            rows.append((name, scheme, *(percent(values[field]) for field in FIELDS)))
    msg.table(
        rows,
        header=("Pipeline", "Scheme", "P", "R", "F", "Macro F"),
        aligns=("l", "l", "r", "r", "r", "r"),
        divider=True,
        title="Span scores on the test sets, every scheme",
    )


if __name__ == "__main__":
    typer.run(report)
