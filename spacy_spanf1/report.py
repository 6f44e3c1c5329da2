"""Error reports: one JSON line per error, and a self-contained HTML page.

The errors are those of one scheme (the primary one on the command line),
with the kinds the scheme gives them (`outcomes.py`): missed, spurious,
wrong_type, wrong_boundaries, low_overlap. `ErrorFile` writes the lines a
batch at a time while the corpus is scored (it is the `on_errors` of
`compare_files`); the page shows the documents a run kept, with the counts
of all its errors (`ErrorCounts`).
"""
import colorsys
import html
import os
import zlib
from collections import Counter
from json.encoder import encode_basestring_ascii
from pathlib import Path
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

import srsly

from .formats import DocPair
from .engine.outcomes import ERROR_KINDS, SpanError
from .exceptions import PathLike
from .spans import Span
from .notes import note_lines
from .results import ErrorCounts, signature_text
from .settings import HTML_DOCS, UNITS


def _span_record(pair: DocPair, span: Span) -> Dict[str, Any]:
    return {"start": span.start, "end": span.end, "label": span.label, "text": pair.span_text(span)}


#: The kind of the error records of a mention that is not in the text
#: (mentions without offsets): a spurious prediction, named apart.
NOT_IN_TEXT = "not_in_text"
#: Every kind an error record has.
RECORD_KINDS = ERROR_KINDS + (NOT_IN_TEXT,)
#: kind -> its place in RECORD_KINDS (records at one position are in this order).
KIND_ORDER = {kind: i for i, kind in enumerate(RECORD_KINDS)}


def record_kind(error: SpanError, pair: DocPair) -> str:
    """The kind of an error's record: its own, or `not_in_text` for a
    spurious prediction made of mentions that were not found in the text."""
    unplaced = pair.pred_unplaced
    if unplaced and error.kind == "spurious" and error.pred and all(
        unplaced.get(p[0], ("", ""))[1] == "not_found" for p in error.pred
    ):
        return NOT_IN_TEXT
    return error.kind


def _unplaced_record(pair: DocPair, span: Span) -> Optional[Dict[str, Any]]:
    """The record of a predicted mention without a place in the text: no
    offsets, the string as listed; None for a span of the text."""
    if pair.pred_unplaced and span[0] in pair.pred_unplaced:
        return {"start": None, "end": None, "label": span[2], "text": pair.pred_unplaced[span[0]][0]}
    return None


def error_records(
    errors: Iterable[SpanError], pairs: Mapping[int, DocPair], scheme: str = ""
) -> List[Dict[str, Any]]:
    """One dict per error, in document order, then by position (start, end
    of the gold span, else of the first prediction), then kind.

    errors (Iterable[SpanError]): From a SpanScorer fed `pairs` in order.
    pairs (Mapping[int, DocPair]): The scored documents (SpanError.doc
        indexes them): a sequence, or a mapping holding those of the errors.
    scheme (str): The scheme the errors are of.
    RETURNS (List[Dict[str, Any]]): Keys "doc" (index in the corpus, skipped
        documents included), "name", "scheme", "kind", "count", "gold" (span
        with its text, or None), "pred" (list of spans with their text),
        "iou", "gold_coverage" and "pred_coverage".
    """
    records = []
    positions = []
    for error in errors:
        pair = pairs[error.doc]
        gold = error.gold
        if pair.offsets is None:  # character offsets: the text is sliced (DocPair.span_text) inline
            text = pair.text
            gold_record = None if gold is None else {
                "start": gold[0], "end": gold[1], "label": gold[2], "text": text[gold[0]:gold[1]]
            }
            pred_records = [{"start": p[0], "end": p[1], "label": p[2], "text": text[p[0]:p[1]]} for p in error.pred]
        else:
            gold_record = None if gold is None else _span_record(pair, gold)
            pred_records = [_span_record(pair, p) for p in error.pred]
        kind = error.kind
        if pair.pred_unplaced:
            kind = record_kind(error, pair)
            pred_records = [_unplaced_record(pair, p) or r for p, r in zip(error.pred, pred_records)]
        records.append(
            {
                "doc": pair.index,
                "name": pair.name,
                "scheme": scheme,
                "kind": kind,
                "count": error.count,
                "gold": gold_record,
                "pred": pred_records,
                "iou": error.iou,
                "gold_coverage": error.gold_coverage,
                "pred_coverage": error.pred_coverage,
            }
        )
        first = gold if gold is not None else error.pred[0]
        positions.append((pair.index, first[0], first[1], KIND_ORDER[kind]))
    order = sorted(range(len(records)), key=positions.__getitem__)
    return [records[i] for i in order]


#: The one ASCII character ujson writes as it is and the standard library escapes.
DEL = "\x7f"
COUNT_KEY = ',"count":'


def json_string(text: str) -> str:
    """A string as `srsly.json_dumps` encodes it. An ASCII string without
    DEL is escaped by the standard library's C encoder, which escapes every
    other ASCII character as ujson does (tests/cli/test_error_stream.py checks
    all 128) and takes a tenth of the time of a call of ujson's; any other
    string goes to srsly."""
    if text.isascii() and DEL not in text:
        return encode_basestring_ascii(text)
    return srsly.json_dumps(text)


def error_lines(errors: Iterable[SpanError], pairs: Mapping[int, DocPair], scheme: str = "") -> List[str]:
    """The JSON lines of `error_records(errors, pairs, scheme)` (without
    their newlines): the text `srsly.json_dumps` makes of each record,
    made without the dicts, so that the file of a large corpus is written
    at a few microseconds an error (`ErrorFile`). The keys are written in
    the records' order with ujson's compact separators; strings are
    encoded as `json_string` does, the scores (iou, coverage: a few ratios
    of small integers) by srsly, each value once."""
    encode, dumps = encode_basestring_ascii, srsly.json_dumps
    numbers: Dict[float, str] = {}
    labels: Dict[str, str] = {}
    docs: Dict[int, Tuple[str, str, Optional[Sequence[Tuple[int, int]]], DocPair]] = {}
    head = ',"scheme":' + json_string(scheme)
    kinds = {kind: ',"kind":' + json_string(kind) for kind in RECORD_KINDS}
    counts: Dict[str, str] = {}

    def first_time(value: Any, found: Dict[Any, str], encoded: str) -> str:
        found[value] = encoded
        return encoded

    def span(item: Span, text: str, offsets: Any, pair: DocPair) -> str:
        start, end, label = item
        if pair.pred_unplaced and start in pair.pred_unplaced:
            return srsly.json_dumps(_unplaced_record(pair, item))
        piece = text[start:end] if offsets is None else pair.span_text(item)
        return (
            f'{{"start":{start},"end":{end},"label":{labels.get(label) or first_time(label, labels, json_string(label))},'
            f'"text":{encode(piece) if piece.isascii() and DEL not in piece else dumps(piece)}}}'
        )

    lines = []
    positions = []
    for error in errors:
        found = docs.get(error.doc)
        if found is None:
            pair = pairs[error.doc]
            found = docs[error.doc] = (
                f'{{"doc":{pair.index},"name":{json_string(pair.name)}{head}', pair.text, pair.offsets, pair
            )
        head_of_doc, text, offsets, pair = found
        gold, pred, kind = error.gold, error.pred, error.kind
        if pair.pred_unplaced:
            kind = record_kind(error, pair)
        iou, gold_cover, pred_cover = error.iou, error.gold_coverage, error.pred_coverage
        lines.append(
            f'{head_of_doc}{kinds[kind]}'
            f'{counts.get(error.count) or first_time(error.count, counts, COUNT_KEY + json_string(error.count))},'
            f'"gold":{"null" if gold is None else span(gold, text, offsets, pair)},'
            f'"pred":[{",".join([span(p, text, offsets, pair) for p in pred])}],'
            f'"iou":{numbers.get(iou) or first_time(iou, numbers, dumps(iou))},'
            f'"gold_coverage":{numbers.get(gold_cover) or first_time(gold_cover, numbers, dumps(gold_cover))},'
            f'"pred_coverage":{numbers.get(pred_cover) or first_time(pred_cover, numbers, dumps(pred_cover))}}}'
        )
        first = gold if gold is not None else pred[0]
        positions.append((pair.index, first[0], first[1], KIND_ORDER[kind]))
    order = sorted(range(len(lines)), key=positions.__getitem__)
    return [lines[i] for i in order]


def write_errors(path: Path, records: Iterable[Dict[str, Any]]) -> None:
    """Write the error records as JSON lines."""
    srsly.write_jsonl(path, records)


class ErrorFile:
    """The error records of a run written as JSON lines while it is scored,
    the same bytes `write_errors` writes of all of them: call it as
    `on_errors(errors, pairs, scheme)` after each scored batch, in document
    order. The lines go to PATH.partial beside the file, moved into place
    by `commit`; a run that fails (`discard`, or leaving the `with` block
    by an exception) leaves no half-written file, and an older file at
    PATH as it was.

    path (PathLike): The file of the records. Opening it may raise OSError.
    """

    def __init__(self, path: PathLike) -> None:
        self.path = Path(path)
        self.partial = self.path.with_name(self.path.name + ".partial")
        self.written = 0
        self.file = self.partial.open("w", encoding="utf-8")

    def __call__(self, errors: Sequence[SpanError], pairs: Mapping[int, DocPair], scheme: str = "") -> None:
        lines = error_lines(errors, pairs, scheme)
        if lines:
            self.file.write("\n".join(lines) + "\n")
        self.written += len(lines)

    def commit(self) -> None:
        """Close the file and put it in place (an older one is replaced)."""
        self.file.close()
        try:
            os.replace(self.partial, self.path)
        except OSError:
            self.partial.unlink(missing_ok=True)
            raise

    def discard(self) -> None:
        """Close the file and remove it (PATH is not touched)."""
        self.file.close()
        self.partial.unlink(missing_ok=True)

    def __enter__(self) -> "ErrorFile":
        return self

    def __exit__(self, *exc: Any) -> None:
        if not self.file.closed:
            self.discard()


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
/* the signature and the file paths (in <code>) have no space to break at */
.meta, .note, ul.notes li { overflow-wrap: anywhere; }
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
ul.notes { list-style: none; padding-left: 0; } ul.notes li.warn { color: #8a5300; } ul.notes li.info { color: #555; }
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
    """The spans in character offsets of pair.text (not those past its end:
    mentions without a place in it)."""
    if pair.offsets is None:
        return [s for s in spans if s.end <= len(pair.text)]
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
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


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
    # What the readers noted and the corpus checks warned of, as the command prints it.
    said = note_lines(scores.get("notes", {}), list(sources), scores.get("baseline")) if len(sources) == 2 else []
    said += [("warn", warning) for warning in scores.get("warnings", ())]
    if said:
        out.append('<ul class="notes">' + "".join(
            f'<li class="{icon}">{"⚠" if icon == "warn" else "ℹ"} {esc(line)}</li>' for icon, line in said
        ) + "</ul>")
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
    # Errors by kind, over the whole corpus.
    by_doc: Dict[int, List[Mapping[str, Any]]] = {}
    for record in records:
        by_doc.setdefault(record["doc"], []).append(record)
    if counts is None:
        counts = ErrorCounts(tuple(Counter(r["kind"] for r in records).get(kind, 0) for kind in ERROR_KINDS), len(by_doc))
    out.append('<h2>Errors</h2><table class="kinds"><thead><tr><th>kind</th><th>n</th></tr></thead><tbody>')
    for kind, n in counts.by_kind().items():
        out.append(f'<tr><td class="kind">{kind}</td><td>{n}</td></tr>')
    out.append(f"<tr><td>all</td><td>{counts.total}</td></tr></tbody></table>")
    # Documents with errors.
    pair_by_index = {pair.index: pair for pair in pairs}
    # The page stays a readable size on any corpus: the documents with the
    # most errors first (ties: in document order), at most max_docs of them.
    shown = sorted(by_doc, key=lambda index: (-len(by_doc[index]), index))[:max_docs]
    out.append(f"<h2>Documents with errors ({counts.documents})</h2>")
    left_out = counts.documents - len(shown)
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
