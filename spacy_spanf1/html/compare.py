"""The page of `compare --html` and `evaluate --html`: the scores of
every scheme, a per-label chart and the confusion matrix of each scheme
(the primary's first), the intervals, the
test against a baseline and the breakdowns when computed, the error counts
by kind, and each document with errors, gold and predicted spans side by
side (the error records of `report.records`)."""

from collections import Counter
from typing import Any, Dict, List, Mapping, Optional, Sequence

from ..engine.outcomes import ERROR_KINDS
from ..formats import DocPair
from ..notes import note_lines
from ..report.text import format_counts, format_delta, format_pct
from ..results.errors import ErrorCounts
from ..settings import HTML_DOCS, UNITS
from .confusion import CSS as CONFUSION_CSS, confusion_html
from .page import escape, render_page, signature_block, sources_text
from .spans import label_colors, render_spans
from .tables import TABLE_END, bar_cell, ci_cells, pct_width, table_start, whisker


def render_html(
    scores: Mapping[str, Any],
    pairs: Sequence[DocPair],
    records: Sequence[Mapping[str, Any]],
    *,
    sources: Sequence[str] = (),
    unit: str = UNITS[0],
    max_docs: int = HTML_DOCS,
    counts: Optional[ErrorCounts] = None,
) -> str:
    """One self-contained HTML page: the scores of every scheme, a per-label
    chart of the primary (first) scheme, the error counts by kind, and each
    document with errors, gold and predicted spans side by side.

    scores (Mapping[str, Any]): The command line's JSON: {"schemes": {name:
        SchemeResult.to_dict()}, "documents": n, "skipped": n}.
    pairs (Sequence[DocPair]): The documents of the records.
    records (Sequence[Mapping]): From `error_records`.
    max_docs (int): Show at most this many documents with errors, those
        with the most errors first (ties: the earlier first); the page says
        how many were left out.
    counts (Optional[ErrorCounts]): The errors of the whole corpus, when
        the records are those of some documents only (`max_error_docs`):
        the error counts and the number of documents with errors are these;
        None: counted from the records.
    """
    esc = escape
    schemes = scores["schemes"]
    primary = next(iter(schemes)) if schemes else None
    labels = {s.label for p in pairs for s in p.gold + p.pred}
    colors = label_colors(labels)
    out = ['<p class="meta">']
    if sources:
        names = ("Gold", "Predicted") if len(sources) == 2 else [f"Source {i + 1}" for i in range(len(sources))]
        out.append(sources_text(sources, names))
        out.append("<br>")
    out.append(
        f"{scores['documents']} documents, {scores['skipped']} skipped (no gold annotation); "
        f"offsets in {esc(unit)} unit; errors of the {esc(str(primary))} scheme.</p>"
    )
    if scores.get("signature"):
        out.append(signature_block(scores["signature"]))
    # What the readers noted and the corpus checks warned of, as the command prints it.
    said = note_lines(scores.get("notes", {}), list(sources), scores.get("baseline")) if len(sources) == 2 else []
    said += [("warn", warning) for warning in scores.get("warnings", ())]
    if said:
        out.append(
            '<ul class="notes">'
            + "".join(f'<li class="{icon}">{"⚠" if icon == "warn" else "ℹ"} {esc(line)}</li>' for icon, line in said)
            + "</ul>"
        )
    # Scores of every scheme (with their intervals when computed).
    with_ci = any("ci" in result for result in schemes.values())
    ci_head = ["<th>F [low, high]</th>", '<th class="text">interval</th>'] if with_ci else []
    out.append(
        "<h2>Scores</h2>"
        + table_start(
            "summary",
            [
                "<th></th>",
                "<th>P</th>",
                "<th>R</th>",
                "<th>F</th>",
                *ci_head,
                "<th>macro F</th>",
                '<th class="text">counts</th>',
            ],
        )
    )
    for name, result in schemes.items():
        ci = ci_cells(result.get("ci")) if with_ci else ""
        out.append(
            f"<tr><td>{esc(name)}</td><td>{format_pct(result['p'])}</td><td>{format_pct(result['r'])}</td>"
            f"<td>{format_pct(result['f'])}</td>{ci}<td>{format_pct(result['macro_f'])}</td>"
            f'<td class="text">{esc(format_counts(result["counts"]))}</td></tr>'
        )
    out.append(TABLE_END)
    if with_ci:
        ci = next(result["ci"] for result in schemes.values() if "ci" in result)
        f = ci["f"]
        unit = "documents" if ci.get("resample_by") is None else f"groups of documents by {esc(str(ci['resample_by']))}"
        out.append(
            f'<p class="note">{f["confidence"] * 100:g} % {esc(f["method"])} bootstrap intervals of F, '
            f"{f['n_resamples']} resamples of {ci['n_units']} {unit}, seed {f['seed']}; the bar spans 0–100 %, "
            "the tick is the score. The per-label chart has no intervals (per-document counts are kept per "
            "scheme, not per label).</p>"
        )
    if scores.get("comparison"):
        out.extend(_comparison_html(scores["comparison"]))
    # Per-label chart of the primary scheme.
    if primary is not None:
        per_type = schemes[primary]["per_type"]
        out.append(
            f"<h2>F per label ({esc(primary)})</h2>"
            + table_start(
                "chart", ["<th>label</th>", '<th class="bar"></th>', "<th>P</th>", "<th>R</th>", "<th>F</th>"]
            )
        )
        for label, prf in per_type.items():
            out.append(
                f"<tr><td>{esc(label)}</td>{bar_cell(prf['f'])}"
                f"<td>{format_pct(prf['p'])}</td><td>{format_pct(prf['r'])}</td><td>{format_pct(prf['f'])}</td></tr>"
            )
        out.append(TABLE_END)
    by_doc: Dict[int, List[Mapping[str, Any]]] = {}
    for record in records:
        by_doc.setdefault(record["doc"], []).append(record)
    # The page stays a readable size on any corpus: the documents with the
    # most errors first (ties: in document order), at most max_docs of them.
    shown = sorted(by_doc, key=lambda index: (-len(by_doc[index]), index))[:max_docs]
    # One matrix per scheme, the primary's first; only the primary's cells
    # link to documents, as the error records are the primary scheme's.
    ordered = [primary] + [name for name in schemes if name != primary] if primary is not None else list(schemes)
    for name in ordered:
        if schemes[name].get("confusion"):
            out.extend(confusion_html(schemes[name]["confusion"], name, by_doc, shown, linked=name == primary))
    if scores.get("breakdown") and primary is not None:
        out.extend(_breakdown_html(scores["breakdown"], primary))
    # Errors by kind, over the whole corpus.
    if counts is None:
        counts = ErrorCounts(
            tuple(Counter(r["kind"] for r in records).get(kind, 0) for kind in ERROR_KINDS), len(by_doc)
        )
    out.append("<h2>Errors</h2>" + table_start("kinds", ["<th>kind</th>", "<th>n</th>"]))
    for kind, n in counts.by_kind().items():
        out.append(f'<tr><td class="kind">{kind}</td><td>{n}</td></tr>')
    out.append(f"<tr><td>all</td><td>{counts.total}</td></tr>{TABLE_END}")
    # Documents with errors.
    pair_by_index = {pair.index: pair for pair in pairs}
    out.append(f"<h2>Documents with errors ({counts.documents})</h2>")
    left_out = counts.documents - len(shown)
    out.append(
        f'<p class="meta">Shown: {len(shown)}, the documents with the most errors first'
        + (f"; {left_out} more left out (the --errors file lists every error)" if left_out else "")
        + ".</p>"
    )
    for index in shown:
        pair = pair_by_index[index]
        out.append(f'<section class="doc" id="doc-{index}" data-doc="{index}">')
        out.append(f"<h3>Document {index} · {esc(pair.name)}</h3>")
        out.append('<div class="sides">')
        gold, pred = pair.shown_spans("gold"), pair.shown_spans("pred")
        out.append(f'<div class="panel gold"><h4>Gold</h4>{render_spans(pair, gold, colors)}</div>')
        out.append(f'<div class="panel pred"><h4>Predicted</h4>{render_spans(pair, pred, colors)}</div>')
        out.append("</div>")
        out.append(
            table_start(
                "errors",
                ["<th>kind</th>", '<th class="text">gold</th>', '<th class="text">predicted</th>', "<th>IoU</th>"],
            )
        )
        for record in by_doc[index]:
            gold = record["gold"]
            gold_text = "" if gold is None else _span_text(gold)
            pred_text = "; ".join(_span_text(p) for p in record["pred"])
            out.append(
                f'<tr><td class="kind">{record["kind"]}</td><td class="text">{gold_text}</td>'
                f'<td class="text">{pred_text}</td><td>{record["iou"]:.2f}</td></tr>'
            )
        out.append(f"{TABLE_END}</section>")
    return render_page("spacy-spanf1 report", out, css=CONFUSION_CSS)


def _comparison_html(comparison: Mapping[str, Any]) -> List[str]:
    """The paired test of the baseline against this run, one row per scheme."""
    esc = escape
    alpha = comparison["alpha"]
    rounds = (
        "every assignment"
        if any(t.get("exact") for t in comparison["schemes"].values())
        else f"{comparison['n_resamples']} rounds"
    )
    out = [
        "<h2>Against the baseline</h2>",
        f'<p class="meta">Baseline: <code>{esc(str(comparison["baseline"]))}</code> · {esc(comparison["method"])} '
        f"test, {rounds}, seed {comparison['seed']}, {comparison['n_units']} {esc(comparison['unit'])}s; "
        f"delta = F − F(baseline); the interval is at {(1 - alpha) * 100:g} %.</p>",
        table_start(
            "comparison",
            [
                "<th></th>",
                "<th>F baseline</th>",
                "<th>F</th>",
                "<th>delta F</th>",
                "<th>interval</th>",
                "<th>p</th>",
                f"<th>p &lt; {alpha:g}</th>",
            ],
        ),
    ]
    for name, t in comparison["schemes"].items():
        sig = t["significant"]
        out.append(
            f'<tr data-scheme="{esc(name)}"><td>{esc(name)}</td><td>{format_pct(t["f_baseline"])}</td>'
            f"<td>{format_pct(t['f'])}</td><td>{format_delta(t['delta'])}</td>"
            f'<td class="ci-text">[{format_delta(t["low"])}, {format_delta(t["high"])}]</td><td>{t["p_value"]:.4f}</td>'
            f'<td class="{"sig" if sig else ""}">{"yes" if sig else "no"}</td></tr>'
        )
    out.append(TABLE_END)
    return out


def _breakdown_html(block: Mapping[str, Any], primary: str) -> List[str]:
    """One chart per breakdown attribute, the primary scheme's F per bucket
    (with the bucket's interval as a whisker when it was computed)."""
    esc = escape
    out: List[str] = []
    for name, by_scheme in block["attributes"].items():
        buckets = by_scheme.get(primary, [])
        kind = block.get("kind", {}).get(name, "document")
        what = (
            "gold spans and predicted units by their own value"
            if kind == "span"
            else "documents partitioned by their value"
        )
        out.append(f"<h2>F by {esc(name)} ({esc(primary)})</h2>")
        out.append(
            f'<p class="note">{what}; numeric values cut into at most {block["buckets"]} buckets from the gold values.</p>'
        )
        out.append(
            table_start(
                "chart breakdown",
                [
                    "<th>bucket</th>",
                    '<th class="bar"></th>',
                    "<th>P</th>",
                    "<th>R</th>",
                    "<th>F</th>",
                    "<th>F [low, high]</th>",
                    "<th>gold</th>",
                    "<th>pred</th>",
                ],
                attributes=f' data-attribute="{esc(name)}"',
            )
        )
        for bucket in buckets:
            ci = bucket.get("ci")
            drawn = ci_text = ""
            if ci:
                drawn = whisker(ci["f"]["low"], ci["f"]["high"])
                ci_text = f"[{format_pct(ci['f']['low'])}, {format_pct(ci['f']['high'])}]"
            out.append(
                f'<tr><td>{esc(str(bucket["name"]))}</td><td class="bar"><div class="track">'
                f'<div class="bd-fill" style="width: {pct_width(bucket["f"]):.2f}%"></div>{drawn}</div></td>'
                f"<td>{format_pct(bucket['p'])}</td><td>{format_pct(bucket['r'])}</td><td>{format_pct(bucket['f'])}</td>"
                f'<td class="ci-text">{ci_text}</td><td>{bucket["n_gold"]}</td><td>{bucket["n_pred"]}</td></tr>'
            )
        out.append(TABLE_END)
    return out


def _span_text(span: Mapping[str, Any]) -> str:
    """A span of an error record: its text and label, and its
    knowledge-base id when the record has one (a run with link schemes)."""
    text = f"{escape(span['text'])} <b>{escape(span['label'])}</b>"
    if "kb_id" in span:
        kb = escape(span["kb_id"])
        text += f' <span class="kb" title="knowledge-base id: {kb}">{kb}</span>'
    return text
