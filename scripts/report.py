"""Print one table of every matching scheme for every evaluated pipeline.

Reads the JSON written by `python -m spacy_spanf1 evaluate ... --output`
({"schemes": {scheme: {"p", "r", "f", "macro_f", ...}}, ...}). A flat dict
of spaCy score keys (`<prefix>_<scheme>_p`, e.g. `ents_iou_p` or
`spans_sc_iou_p`, as `nlp.evaluate` returns them) is read too, also nested
one level per component as `spacy evaluate --per-component` writes it.
`spacy evaluate` without --per-component keeps only the primary scheme's
keys (NER P/R/F, SPAN P/R/F), so its output is not enough here.

Besides: for each file with document breakdowns (`--by genre ...`), F per
bucket of the primary scheme with its bootstrap interval; with
--comparison, the paired test of a `--baseline` run per scheme, and which
schemes' differences are significant in this run (read off that file, so
it says what this run's models did, not what such models do); with
--mentions, the F of answers without offsets under span and string schemes,
beside the pipeline they were made from (--mentions-beside); with
--agreement, the agreement of the simulated annotators; with --sweep,
the spancat threshold sweep: AP, best thresholds against the trained
default, and each label's own best threshold.
"""

from pathlib import Path
from typing import Any, Dict, List, Optional

import srsly
import typer
from wasabi import msg

from spacy_spanf1 import SCHEMES  # the one list of scheme names
from spacy_spanf1.report import format_delta

FIELDS = ("p", "r", "f", "macro_f")


def read_schemes(path: Path) -> Dict[str, Dict[str, Optional[float]]]:
    """scheme -> {"p", "r", "f", "macro_f"} from either JSON layout."""
    data = srsly.read_json(path)
    if isinstance(data.get("schemes"), dict):
        return {scheme: {field: values.get(field) for field in FIELDS} for scheme, values in data["schemes"].items()}
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


def interval_text(ci: Optional[Dict[str, Any]]) -> str:
    return "-" if not ci else f"[{percent(ci['f']['low'])}, {percent(ci['f']['high'])}]"


def print_breakdowns(name: str, data: Dict[str, Any]) -> None:
    """F per bucket of each document breakdown (primary scheme), with intervals."""
    block = data.get("breakdown") or {}
    primary = next(iter(data.get("schemes", {})), None)
    for attribute, by_scheme in block.get("attributes", {}).items():
        if block.get("kind", {}).get(attribute) != "document" or primary not in by_scheme:
            continue
        rows = [
            (
                b["name"],
                percent(b["p"]),
                percent(b["r"]),
                percent(b["f"]),
                interval_text(b.get("ci")),
                b["n_gold"],
                b["n_pred"],
            )
            for b in by_scheme[primary]
        ]
        ci = data["schemes"][primary].get("ci")
        how = (
            ""
            if not ci
            else (
                f", {ci['f']['confidence'] * 100:g} % intervals, {ci['f']['n_resamples']} resamples"
                + ("" if ci.get("resample_by") is None else f" of {ci['resample_by']} groups")
            )
        )
        msg.table(
            rows,
            header=(attribute, "P", "R", "F", "F interval", "Gold", "Pred"),
            aligns=("l", "r", "r", "r", "r", "r", "r"),
            divider=True,
            title=f"{name}: {primary} by {attribute}{how}",
        )


def print_comparison(path: Path) -> None:
    data = srsly.read_json(path)
    block = data.get("comparison")
    if not block:
        msg.fail("No comparison found (run evaluate with --baseline)", path, exits=1)
    rows = [
        (
            scheme,
            percent(t["f_baseline"]),
            percent(t["f"]),
            format_delta(t["delta"]),
            f"[{format_delta(t['low'])}, {format_delta(t['high'])}]",
            f"{t['p_value']:.4f}",
            "yes" if t["significant"] else "no",
        )
        for scheme, t in block["schemes"].items()
    ]
    msg.table(
        rows,
        header=("Scheme", "F base", "F", "Delta F", "Interval", "p", "Significant"),
        aligns=("l", "r", "r", "r", "r", "r", "l"),
        divider=True,
        title=f"{path.stem}: against {block['baseline']} ({block['method']} test, alpha {block['alpha']:g})",
    )
    print(significance_summary(block))


def significance_summary(block: Dict[str, Any]) -> str:
    """Which differences are significant, read off this comparison's own
    tests and worded as a fact about this run only: models trained with
    another seed, or on another machine, can differ otherwise."""
    tests = block["schemes"]
    # with its delta F, so that a significant loss does not read as a gain
    significant = [f"{scheme} ({format_delta(t['delta'])})" for scheme, t in tests.items() if t["significant"]]
    not_significant = [scheme for scheme, t in tests.items() if not t["significant"]]
    return (
        f"In this run, significant at {block['alpha']:g} (delta F): {', '.join(significant) or 'none'}"
        f"; not significant: {', '.join(not_significant) or 'none'}.\n"
        "This is one training run: models trained with another seed or on another machine "
        "can differ otherwise (docs/project.md)."
    )


def print_mentions(path: Path, beside: Optional[Path]) -> None:
    """F of the LLM answers under each span and string scheme, beside the
    pipeline they were made from, and how the answers' mentions grounded."""
    data = srsly.read_json(path)
    systems = [("LLM answers", data["schemes"])]
    if beside is not None:
        systems.insert(0, ("pipeline", srsly.read_json(beside)["schemes"]))
    names = list(data["schemes"])
    rows = [
        (system, *(percent(schemes[n]["f"]) if n in schemes else "-" for n in names)) for system, schemes in systems
    ]
    msg.table(
        rows,
        header=("System", *names),
        aligns=("l",) + ("r",) * len(names),
        divider=True,
        title="Mentions without offsets: F under span and string schemes (WNUT-17 test)",
    )
    grounding = data.get("grounding") or {}
    if grounding:
        msg.info(
            "Grounding of the answers: " + ", ".join(f"{name.replace('_', ' ')} {n}" for name, n in grounding.items())
        )


def print_agreement(path: Path) -> None:
    """Mean and micro pairwise F per scheme of `spacy-spanf1 agree`, the
    primary scheme's matrix, the documents each pair shares, and the token
    figures with their setting."""
    data = srsly.read_json(path)
    names = data["annotators"]
    intervals = (data.get("intervals") or {}).get("mean_f") or {}
    rows = [
        (
            scheme,
            percent(block["mean_f"]),
            interval_text({"f": intervals[scheme]}) if scheme in intervals else "-",
            percent(block["micro_f"]),
        )
        for scheme, block in data["schemes"].items()
    ]
    msg.table(
        rows,
        header=("Scheme", "Mean pairwise F", "95 % interval", "Micro F"),
        aligns=("l", "r", "r", "r"),
        divider=True,
        title=f"Agreement of {len(names)} simulated annotators ({', '.join(names)})",
    )
    primary = next(iter(data["schemes"]))
    matrix = data["schemes"][primary]["matrix"]
    rows = [(a, *("-" if matrix[a][b] is None else percent(matrix[a][b]) for b in names)) for a in names]
    msg.table(
        rows, header=(f"{primary}: reference \\ scored", *names), aligns=("l",) + ("r",) * len(names), divider=True
    )
    shared = data["shared"]
    msg.info(
        "Documents shared: " + ", ".join(f"{a}-{b} {shared[a][b]}" for i, a in enumerate(names) for b in names[i + 1 :])
    )
    tokens = data["tokens"]
    msg.info(
        f"Tokens (O positions {tokens['o_tokens']}d, {tokens['positions']} positions): Fleiss' kappa "
        f"{tokens['fleiss_kappa']:.4f}, Krippendorff's alpha {tokens['alpha']:.4f}"
    )


def print_sweep(path: Path, default_scores: Optional[Path], default: float = 0.5) -> None:
    """Per scheme AP, the best threshold and its F against F at the trained
    default threshold; per label of the primary scheme, its own best
    threshold and F against its F at the default (from the evaluation run
    at the default, when given)."""
    data = srsly.read_json(path)["sweep"]
    rows = []
    for scheme, block in data.items():
        at_default = block["f"][block["thresholds"].index(default)] if default in block["thresholds"] else None
        rows.append(
            (
                scheme,
                f"{block['ap']:.4f}",
                f"{block['best']['threshold']:.2f}",
                percent(block["best"]["f"]),
                percent(at_default),
            )
        )
    msg.table(
        rows,
        header=("Scheme", "AP", "Best threshold", "F there", f"F at {default}"),
        aligns=("l", "r", "r", "r", "r"),
        divider=True,
        title="spancat: thresholds swept on GUM test (spaCy's grid, one run of the pipeline)",
    )
    primary = next(iter(data))
    per_type = {}
    if default_scores is not None:
        per_type = srsly.read_json(default_scores)["schemes"].get(primary, {}).get("per_type", {})
    rows = [
        (
            label,
            f"{best['threshold']:.2f}",
            percent(best["f"]),
            percent(per_type[label]["f"]) if label in per_type else "-",
        )
        for label, best in data[primary]["per_label_best"].items()
    ]
    msg.table(
        rows,
        header=("Label", "Own best threshold", "F there", f"F at {default}"),
        aligns=("l", "r", "r", "r"),
        divider=True,
        title=f"{primary}: each label's own best threshold",
    )


def report(
    metrics: List[Path] = typer.Argument(..., help="JSON files, one per pipeline", exists=True, dir_okay=False),
    comparison: Optional[Path] = typer.Option(
        None, "--comparison", help="JSON of an evaluate run with --baseline", exists=True, dir_okay=False
    ),
    mentions: Optional[Path] = typer.Option(
        None, "--mentions", help="JSON of compare --format mentions", exists=True, dir_okay=False
    ),
    mentions_beside: Optional[Path] = typer.Option(
        None,
        "--mentions-beside",
        help="JSON of the pipeline the answers come from, same schemes",
        exists=True,
        dir_okay=False,
    ),
    agreement: Optional[Path] = typer.Option(
        None, "--agreement", help="JSON of spacy-spanf1 agree", exists=True, dir_okay=False
    ),
    sweep: Optional[Path] = typer.Option(
        None, "--sweep", help="JSON of spacy-spanf1 sweep of the spancat pipeline", exists=True, dir_okay=False
    ),
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
    for path in metrics:
        name = path.stem[: -len("-spanf1")] if path.stem.endswith("-spanf1") else path.stem
        data = srsly.read_json(path)
        if isinstance(data.get("schemes"), dict):
            print_breakdowns(name, data)
    if comparison is not None:
        print_comparison(comparison)
    if mentions is not None:
        print_mentions(mentions, mentions_beside)
    if agreement is not None:
        print_agreement(agreement)
    if sweep is not None:
        spancat = next((p for p in metrics if p.stem.startswith("spancat")), None)
        print_sweep(sweep, spancat)


if __name__ == "__main__":
    typer.run(report)
