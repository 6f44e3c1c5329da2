"""Error reports: one JSON line per error, and a self-contained HTML page.

The errors are those of one scheme (the primary one on the command line),
with the kinds the scheme gives them (`outcomes.py`): missed, spurious,
wrong_type, wrong_boundaries, low_overlap.
"""
import colorsys
import html
import zlib
from collections import Counter
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence

import srsly

from .formats import DocPair
from .engine.outcomes import ERROR_KINDS, SpanError
from .spans import Span
from .results import signature_text
from .settings import UNITS


#: The most documents an HTML page shows (`--html-docs`).
HTML_DOCS = 200


def _span_record(pair: DocPair, span: Span) -> Dict[str, Any]:
    return {"start": span.start, "end": span.end, "label": span.label, "text": pair.span_text(span)}


def error_records(
    errors: Iterable[SpanError], pairs: Sequence[DocPair], scheme: str = ""
) -> List[Dict[str, Any]]:
    """One dict per error, in document order.

    errors (Iterable[SpanError]): From a SpanScorer fed `pairs` in order.
    pairs (Sequence[DocPair]): The scored documents (SpanError.doc indexes them).
    scheme (str): The scheme the errors are of.
    RETURNS (List[Dict[str, Any]]): Keys "doc" (index in the corpus, skipped
        documents included), "name", "scheme", "kind", "count", "gold" (span
        with its text, or None), "pred" (list of spans with their text),
        "iou", "gold_coverage" and "pred_coverage".
    """
    records = []
    for error in errors:
        pair = pairs[error.doc]
        records.append(
            {
                "doc": pair.index,
                "name": pair.name,
                "scheme": scheme,
                "kind": error.kind,
                "count": error.count,
                "gold": None if error.gold is None else _span_record(pair, error.gold),
                "pred": [_span_record(pair, p) for p in error.pred],
                "iou": error.iou,
                "gold_coverage": error.gold_coverage,
                "pred_coverage": error.pred_coverage,
            }
        )

    def position(record):
        first = record["gold"] or record["pred"][0]
        return (record["doc"], first["start"], first["end"], ERROR_KINDS.index(record["kind"]))

    return sorted(records, key=position)


def write_errors(path: Path, records: Iterable[Dict[str, Any]]) -> None:
    """Write the error records as JSON lines."""
    srsly.write_jsonl(path, records)


# --------------------------------------------------------------------------
# HTML
# --------------------------------------------------------------------------

CSS = """
body { font-family: -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; color: #222;
       margin: 2rem auto; max-width: 1400px; padding: 0 1rem; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2rem; } h3 { font-size: 1.05rem; }
table { border-collapse: collapse; margin: 0.5rem 0; }
th, td { padding: 0.25rem 0.7rem; text-align: right; border-bottom: 1px solid #e4e4e4; }
th:first-child, td:first-child, .text { text-align: left; }
.meta { color: #555; }
.chart td.bar { width: 420px; text-align: left; }
.chart .bar-fill { background: #5b7fa8; height: 0.9rem; border-radius: 2px; }
.doc { border-top: 2px solid #ddd; margin-top: 1.5rem; padding-top: 0.5rem; }
.sides { display: grid; grid-template-columns: 1fr 1fr; gap: 2rem; }
.panel h4 { margin: 0.3rem 0; color: #555; font-weight: normal; text-transform: uppercase;
            font-size: 0.8rem; letter-spacing: 0.05em; }
.spans { font-size: 15px; line-height: 2.6; white-space: pre-wrap; }
.spans .mark { padding: 0.25em 0; }
.spans .mark.first { border-top-left-radius: 4px; border-bottom-left-radius: 4px; padding-left: 0.2em; margin-left: 2px; }
.spans .mark.last { border-top-right-radius: 4px; border-bottom-right-radius: 4px; padding-right: 0.2em; margin-right: 2px; }
.spans .label { font-size: 0.65em; font-weight: bold; text-transform: uppercase; border-radius: 3px;
                padding: 0.1em 0.3em; margin: 0 1px 0 2px; vertical-align: 0.15em; }
.spans .label::after { content: attr(data-label); }
.errors td { font-size: 0.9rem; }
.kind { font-family: monospace; }
.ci-bar { position: relative; width: 160px; height: 0.9rem; background: #eef1f5; border-radius: 2px; }
.ci-bar .range { position: absolute; top: 0.3rem; height: 0.3rem; background: #5b7fa8; border-radius: 2px; }
.ci-bar .tick { position: absolute; top: 0; width: 2px; height: 0.9rem; margin-left: -1px; background: #222; }
td.ci-text { font-variant-numeric: tabular-nums; white-space: nowrap; }
.breakdown td.bar { width: 360px; text-align: left; }
.breakdown .track { position: relative; height: 0.9rem; }
.breakdown .bd-fill { background: #7a9c6b; height: 0.9rem; border-radius: 2px; }
.breakdown .whisker { position: absolute; top: 0.35rem; height: 0.2rem; background: #222; }
.comparison td.sig { font-weight: bold; color: #1d6b2a; }
.note { color: #555; font-size: 0.9rem; }
"""


def format_pct(value: Optional[float]) -> str:
    """A ratio as a percentage with 2 decimals; "" for None."""
    return "" if value is None else f"{value * 100:.2f}"


def format_delta(value: float) -> str:
    """A difference of ratios in percentage points, signed: "+12.50"."""
    return f"{value * 100:+.2f}"


def format_counts(counts: Mapping[str, int]) -> str:
    """Counts as "COR 2  INC 1 ..." (the names upper-cased)."""
    return "  ".join(f"{name.upper()} {n}" for name, n in counts.items())


def _char_spans(pair: DocPair, spans: Sequence[Span]) -> List[Span]:
    """The spans in character offsets of pair.text."""
    if pair.offsets is None:
        return list(spans)
    n = len(pair.offsets)
    return [
        Span(pair.offsets[s.start][0], pair.offsets[s.end - 1][1], s.label)
        for s in spans
        if 0 <= s.start < s.end <= n
    ]


def render_spans(pair: DocPair, spans: Sequence[Span], colors: Mapping[str, str]) -> str:
    """The document's text as written, each span a mark of its label's
    colour with its label in front. Spans that overlap (span groups) stack:
    the innermost colours the text, the others underline it. Labels are CSS
    content (`data-label`), so the page's text is the document's text."""
    esc = html.escape
    text = pair.text
    char_spans = sorted(set(_char_spans(pair, spans)), key=lambda s: (s.start, -s.end, s.label))
    cuts = sorted({0, len(text)} | {b for s in char_spans for b in (s.start, s.end)})
    out = ['<div class="spans">']
    for a, b in zip(cuts, cuts[1:]):
        active = [s for s in char_spans if s.start <= a and s.end >= b]
        piece = esc(text[a:b])
        if not active:
            out.append(piece)
            continue
        for s in active:
            if s.start == a:
                out.append(
                    f'<span class="label" data-label="{esc(s.label)}" '
                    f'style="background: {colors.get(s.label, "#ddd")}"></span>'
                )
        inner = min(active, key=lambda s: (s.end - s.start, s.label))
        others = [s for s in active if s is not inner]
        shadows = ", ".join(
            f"0 {3 * (i + 1)}px 0 0 {colors.get(s.label, '#ddd')}" for i, s in enumerate(others)
        )
        classes = ["mark"]
        if inner.start == a:
            classes.append("first")
        if inner.end == b:
            classes.append("last")
        style = f"background: {colors.get(inner.label, '#ddd')}" + (f"; box-shadow: {shadows}" if shadows else "")
        out.append(f'<span class="{" ".join(classes)}" data-spans="{len(active)}" style="{style}">{piece}</span>')
    out.append("</div>")
    return "".join(out)


def label_color(label: str) -> str:
    """A label's colour: the same in every report (from a hash of its name)."""
    hue = zlib.crc32(label.encode("utf-8")) % 360
    red, green, blue = colorsys.hls_to_rgb(hue / 360, 0.78, 0.65)
    return "#{:02x}{:02x}{:02x}".format(round(red * 255), round(green * 255), round(blue * 255))


def label_colors(labels: Iterable[str]) -> Dict[str, str]:
    """A colour for each label (label_color), in sorted order of the labels."""
    return {label: label_color(label) for label in sorted(set(labels))}


def render_html(
    scores: Mapping[str, Any],
    pairs: Sequence[DocPair],
    records: Sequence[Mapping[str, Any]],
    *,
    sources: Sequence[str] = (),
    unit: str = UNITS[0],
    max_docs: int = HTML_DOCS,
) -> str:
    """One self-contained HTML page: the scores of every scheme, a per-label
    chart of the primary (first) scheme, the error counts by kind, and each
    document with errors, gold and predicted spans side by side.

    scores (Mapping[str, Any]): The command line's JSON: {"schemes": {name:
        SchemeResult.to_dict()}, "documents": n, "skipped": n}.
    pairs (Sequence[DocPair]): The scored documents.
    records (Sequence[Mapping]): From `error_records`.
    max_docs (int): Show at most this many documents with errors, those
        with the most errors first; the page says how many were left out.
    """
    esc = html.escape
    schemes = scores["schemes"]
    primary = next(iter(schemes)) if schemes else None
    labels = {s.label for p in pairs for s in p.gold + p.pred}
    colors = label_colors(labels)
    out = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<title>spacy-spanf1 report</title>",
        f"<style>{CSS}</style></head><body>",
        "<h1>spacy-spanf1 report</h1>",
        '<p class="meta">',
    ]
    if sources:
        names = ("Gold", "Predicted") if len(sources) == 2 else [f"Source {i + 1}" for i in range(len(sources))]
        out.append(" · ".join(f"{name}: <code>{esc(str(src))}</code>" for name, src in zip(names, sources)))
        out.append("<br>")
    out.append(
        f"{scores['documents']} documents, {scores['skipped']} skipped (no gold annotation); "
        f"offsets in {esc(unit)} unit; errors of the {esc(str(primary))} scheme.</p>"
    )
    if scores.get("signature"):
        out.append(f'<p class="meta signature">Signature: <code>{esc(signature_text(scores["signature"]))}</code></p>')
    # Scores of every scheme (with their intervals when computed).
    with_ci = any("ci" in result for result in schemes.values())
    ci_head = "<th>F [low, high]</th><th class=\"text\">interval</th>" if with_ci else ""
    out.append('<h2>Scores</h2><table class="summary"><thead><tr><th></th><th>P</th><th>R</th>'
               f"<th>F</th>{ci_head}<th>macro F</th><th class=\"text\">counts</th></tr></thead><tbody>")
    for name, result in schemes.items():
        ci_cells = _ci_cells(result.get("ci")) if with_ci else ""
        out.append(
            f"<tr><td>{esc(name)}</td><td>{format_pct(result['p'])}</td><td>{format_pct(result['r'])}</td>"
            f"<td>{format_pct(result['f'])}</td>{ci_cells}<td>{format_pct(result['macro_f'])}</td>"
            f'<td class="text">{esc(format_counts(result["counts"]))}</td></tr>'
        )
    out.append("</tbody></table>")
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
        out.append(f'<h2>F per label ({esc(primary)})</h2><table class="chart"><thead><tr><th>label</th>'
                   '<th class="bar"></th><th>P</th><th>R</th><th>F</th></tr></thead><tbody>')
        for label, prf in per_type.items():
            width = max(0.0, min(100.0, prf["f"] * 100))
            out.append(
                f'<tr><td>{esc(label)}</td><td class="bar"><div class="bar-fill" style="width: {width:.2f}%">'
                f"</div></td><td>{format_pct(prf['p'])}</td><td>{format_pct(prf['r'])}</td><td>{format_pct(prf['f'])}</td></tr>"
            )
        out.append("</tbody></table>")
    if scores.get("breakdown") and primary is not None:
        out.extend(_breakdown_html(scores["breakdown"], primary))
    # Errors by kind.
    kinds = Counter(r["kind"] for r in records)
    out.append('<h2>Errors</h2><table class="kinds"><thead><tr><th>kind</th><th>n</th></tr></thead><tbody>')
    for kind in ERROR_KINDS:
        out.append(f'<tr><td class="kind">{kind}</td><td>{kinds.get(kind, 0)}</td></tr>')
    out.append(f"<tr><td>all</td><td>{len(records)}</td></tr></tbody></table>")
    # Documents with errors.
    by_doc: Dict[int, List[Mapping[str, Any]]] = {}
    for record in records:
        by_doc.setdefault(record["doc"], []).append(record)
    pair_by_index = {pair.index: pair for pair in pairs}
    # The page stays a readable size on any corpus: the documents with the
    # most errors first (ties: in document order), at most max_docs of them.
    shown = sorted(by_doc, key=lambda index: (-len(by_doc[index]), index))[:max_docs]
    out.append(f"<h2>Documents with errors ({len(by_doc)})</h2>")
    left_out = len(by_doc) - len(shown)
    out.append(
        f'<p class="meta">Shown: {len(shown)}, the documents with the most errors first'
        + (f"; {left_out} more left out (the --errors file lists every error)" if left_out else "")
        + ".</p>"
    )
    for index in shown:
        doc_records = by_doc[index]
        pair = pair_by_index[index]
        out.append(f'<section class="doc" id="doc-{index}" data-doc="{index}">')
        out.append(f"<h3>Document {index} · {esc(pair.name)}</h3>")
        out.append('<div class="sides">')
        out.append(f'<div class="panel gold"><h4>Gold</h4>{render_spans(pair, pair.gold, colors)}</div>')
        out.append(f'<div class="panel pred"><h4>Predicted</h4>{render_spans(pair, pair.pred, colors)}</div>')
        out.append("</div>")
        out.append('<table class="errors"><thead><tr><th>kind</th><th class="text">gold</th><th class="text">predicted</th>'
                   "<th>IoU</th></tr></thead><tbody>")
        for record in doc_records:
            gold = record["gold"]
            gold_text = "" if gold is None else f"{esc(gold['text'])} <b>{esc(gold['label'])}</b>"
            pred_text = "; ".join(f"{esc(p['text'])} <b>{esc(p['label'])}</b>" for p in record["pred"])
            out.append(
                f'<tr><td class="kind">{record["kind"]}</td><td class="text">{gold_text}</td>'
                f'<td class="text">{pred_text}</td><td>{record["iou"]:.2f}</td></tr>'
            )
        out.append("</tbody></table></section>")
    out.append("</body></html>")
    return "\n".join(out)


def _pct_width(value: float) -> float:
    return max(0.0, min(100.0, value * 100))


def _ci_cells(ci: Optional[Mapping[str, Any]]) -> str:
    """Two cells: "F [low, high]" as text and as a bar on 0-100 %."""
    if not ci:
        return "<td></td><td></td>"
    f = ci["f"]
    low, high = _pct_width(f["low"]), _pct_width(f["high"])
    return (
        f'<td class="ci-text">{format_pct(f["estimate"])} [{format_pct(f["low"])}, {format_pct(f["high"])}]</td>'
        f'<td class="text"><div class="ci-bar"><div class="range" style="left: {low:.2f}%; width: {high - low:.2f}%">'
        f'</div><div class="tick" style="left: {_pct_width(f["estimate"]):.2f}%"></div></div></td>'
    )


def _comparison_html(comparison: Mapping[str, Any]) -> List[str]:
    """The paired test of the baseline against this run, one row per scheme."""
    esc = html.escape
    alpha = comparison["alpha"]
    rounds = "every assignment" if any(t.get("exact") for t in comparison["schemes"].values()) else f"{comparison['n_resamples']} rounds"
    out = [
        "<h2>Against the baseline</h2>",
        f'<p class="meta">Baseline: <code>{esc(str(comparison["baseline"]))}</code> · {esc(comparison["method"])} '
        f"test, {rounds}, seed {comparison['seed']}, {comparison['n_units']} {esc(comparison['unit'])}s; "
        f"delta = F − F(baseline); the interval is at {(1 - alpha) * 100:g} %.</p>",
        '<table class="comparison"><thead><tr><th></th><th>F baseline</th><th>F</th><th>delta F</th>'
        f"<th>interval</th><th>p</th><th>p &lt; {alpha:g}</th></tr></thead><tbody>",
    ]
    for name, t in comparison["schemes"].items():
        sig = t["significant"]
        out.append(
            f'<tr data-scheme="{esc(name)}"><td>{esc(name)}</td><td>{format_pct(t["f_baseline"])}</td>'
            f'<td>{format_pct(t["f"])}</td><td>{format_delta(t["delta"])}</td>'
            f'<td class="ci-text">[{format_delta(t["low"])}, {format_delta(t["high"])}]</td><td>{t["p_value"]:.4f}</td>'
            f'<td class="{"sig" if sig else ""}">{"yes" if sig else "no"}</td></tr>'
        )
    out.append("</tbody></table>")
    return out


def _breakdown_html(block: Mapping[str, Any], primary: str) -> List[str]:
    """One chart per breakdown attribute, the primary scheme's F per bucket
    (with the bucket's interval as a whisker when it was computed)."""
    esc = html.escape
    out: List[str] = []
    for name, by_scheme in block["attributes"].items():
        buckets = by_scheme.get(primary, [])
        kind = block.get("kind", {}).get(name, "document")
        what = "gold spans and predicted units by their own value" if kind == "span" else "documents partitioned by their value"
        out.append(f'<h2>F by {esc(name)} ({esc(primary)})</h2>')
        out.append(f'<p class="note">{what}; numeric values cut into at most {block["buckets"]} buckets from the gold values.</p>')
        out.append(f'<table class="chart breakdown" data-attribute="{esc(name)}"><thead><tr><th>bucket</th>'
                   '<th class="bar"></th><th>P</th><th>R</th><th>F</th><th>F [low, high]</th><th>gold</th><th>pred</th>'
                   "</tr></thead><tbody>")
        for bucket in buckets:
            ci = bucket.get("ci")
            whisker = ci_text = ""
            if ci:
                low, high = _pct_width(ci["f"]["low"]), _pct_width(ci["f"]["high"])
                whisker = f'<div class="whisker" style="left: {low:.2f}%; width: {max(high - low, 0.4):.2f}%"></div>'
                ci_text = f"[{format_pct(ci['f']['low'])}, {format_pct(ci['f']['high'])}]"
            out.append(
                f'<tr><td>{esc(str(bucket["name"]))}</td><td class="bar"><div class="track">'
                f'<div class="bd-fill" style="width: {_pct_width(bucket["f"]):.2f}%"></div>{whisker}</div></td>'
                f'<td>{format_pct(bucket["p"])}</td><td>{format_pct(bucket["r"])}</td><td>{format_pct(bucket["f"])}</td>'
                f'<td class="ci-text">{ci_text}</td><td>{bucket["n_gold"]}</td><td>{bucket["n_pred"]}</td></tr>'
            )
        out.append("</tbody></table>")
    return out


def write_html(path: Path, page: str) -> None:
    """Write the page as UTF-8."""
    Path(path).write_text(page, encoding="utf-8")
