"""The HTML page of `spacy-spanf1 agree --html`: the pairwise F matrix of
the primary scheme as a heat map, the mean and micro F of every scheme,
the kappas and alpha, and the documents the annotators disagree on (the
most disagreements first), every annotator's spans one above the other.

Built from the widgets of `spacy_spanf1.html`: one self-contained page,
inline CSS, every text escaped, no script.
"""

from types import SimpleNamespace
from typing import Dict, List, Optional, Sequence

from ..html.page import escape, render_page, signature_block, sources_text
from ..html.spans import label_colors, render_spans
from ..html.tables import TABLE_END, heat_cell, table_start
from ..report.text import format_pct
from ..settings import HTML_DOCS
from .consensus import Disagreement
from .files import AnnotatorFiles
from .result import AgreementResult
from .tokens import position_name

PAGE_CSS = """
table.matrix td.cell { min-width: 4.5rem; font-variant-numeric: tabular-nums; }
table.matrix td.self { color: #999; text-align: center; }
.rows .row { display: grid; grid-template-columns: 9rem 1fr; gap: 1rem; align-items: baseline;
             border-bottom: 1px dashed #e4e4e4; }
.rows .who { color: #555; font-size: 0.85rem; overflow-wrap: anywhere; }
.rows .row.absent .spans { color: #999; font-style: italic; }
"""


def _figure(value: Optional[float]) -> str:
    return "n/a" if value is None or value != value else f"{value:.4f}"


def render_agreement_html(
    result: AgreementResult,
    files: AnnotatorFiles,
    found: Sequence[Disagreement],
    *,
    sources: Sequence[str] = (),
    max_docs: int = HTML_DOCS,
) -> str:
    """One self-contained HTML page of an agreement.

    result (AgreementResult): From `agree_files`.
    files (AnnotatorFiles): What was read (texts, token offsets, spans).
    found (Sequence[Disagreement]): Every disagreement (`disagreements`).
    sources (Sequence[str]): The input files, for the header.
    max_docs (int): Show at most this many documents with disagreements,
        the most disagreements first (ties: the earlier first); the page
        says how many were left out.
    """
    esc = escape
    names = result.annotators
    primary = result.schemes[0]
    labels = {s.label for docs in files.annotations.values() for spans in docs if spans for s in spans}
    colors = label_colors(labels)
    out = ['<p class="meta">']
    if sources:
        out.append(sources_text(sources, names) + "<br>")
    out.append(f"{len(names)} annotators, {result.n_docs} documents; offsets in {esc(files.unit)} unit.</p>")
    if result.signature:
        out.append(signature_block(result.signature))
    # The pairwise F matrix of the primary scheme, as a heat map.
    matrix = result.matrix(primary)
    out.append(f"<h2>Pairwise F ({esc(primary)})</h2>")
    out.append(
        '<p class="note">Each cell: the column annotator scored against the row annotator as gold, over '
        "the documents both did (their number under the F). Colour: from red (F 0) to green (F 100).</p>"
    )
    out.append(
        table_start("matrix", ["<th>reference \\ scored</th>", *(f'<th class="name">{esc(b)}</th>' for b in names)])
    )
    for a in names:
        cells = []
        for b in names:
            f = matrix[a][b]
            if f is None:
                cells.append('<td class="self">–</td>')
            else:
                shared = result.shared[(a, b)]
                cells.append(
                    heat_cell(
                        f,
                        f'{format_pct(f)}<br><small class="shared">{shared} docs</small>',
                        {"reference": a, "scored": b, "f": f"{f:.6f}"},
                    )
                )
        out.append(f'<tr><th class="name">{esc(a)}</th>{"".join(cells)}</tr>')
    out.append(TABLE_END)
    # Mean and micro F of every scheme.
    intervals = result.intervals
    ci_head = "<th>mean F [low, high]</th>" if intervals is not None else ""
    out.append(
        "<h2>Every scheme</h2>"
        + table_start("summary", ["<th></th>", "<th>mean pairwise F</th>", ci_head, "<th>micro F</th>"])
    )
    for scheme in result.schemes:
        ci = ""
        if intervals is not None:
            interval = intervals.mean_f[scheme]
            ci = f"<td>[{format_pct(interval.low)}, {format_pct(interval.high)}]</td>"
        out.append(
            f'<tr><td>{esc(scheme)}</td><td class="mean-f">{format_pct(result.mean_f[scheme])}</td>{ci}'
            f'<td class="micro-f">{format_pct(result.micro_f[scheme])}</td></tr>'
        )
    out.append(TABLE_END)
    # Token figures.
    tokens = result.tokens
    position = position_name(files.unit)
    out.append(f"<h2>{position.capitalize()} agreement</h2>")
    if tokens is None:
        out.append('<p class="note">None: no document lengths.</p>')
    else:
        alpha_ci = ""
        if intervals is not None and intervals.alpha is not None:
            alpha_ci = f" [{_figure(intervals.alpha.low)}, {_figure(intervals.alpha.high)}]"
        out.append(
            '<table class="tokens"><tbody>'
            f'<tr><td>Cohen\'s kappa</td><td class="cohen">{_figure(tokens.cohen_kappa)}</td></tr>'
            f'<tr><td>Fleiss\' kappa</td><td class="fleiss">{_figure(tokens.fleiss_kappa)}</td></tr>'
            f'<tr><td>Krippendorff\'s alpha</td><td class="alpha">{_figure(tokens.alpha)}{alpha_ci}</td></tr>'
            "</tbody></table>"
        )
        out.append(
            f'<p class="note">Each position is a {position}. O positions {esc(tokens.o_tokens)}d; '
            f"{tokens.positions} positions "
            f"({tokens.fleiss_positions} in documents every annotator did, which Fleiss' kappa counts). "
            "Cohen's kappa is for two annotators only.</p>"
        )
    # The documents the annotators disagree on.
    by_doc: Dict[int, List[Disagreement]] = {}
    for d in found:
        by_doc.setdefault(d.doc, []).append(d)
    shown = sorted(by_doc, key=lambda doc: (-len(by_doc[doc]), doc))[: max(0, max_docs)]
    out.append(f"<h2>Documents with disagreements ({len(by_doc)})</h2>")
    left_out = len(by_doc) - len(shown)
    out.append(
        f'<p class="meta">Shown: {len(shown)}, the documents with the most disagreements first'
        + (f"; {left_out} more left out (the --disagreements file lists every one)" if left_out else "")
        + ".</p>"
    )
    for doc in shown:
        text = files.texts[doc]
        offsets = files.offsets[doc] if files.unit == "token" and doc < len(files.offsets) else None
        view = SimpleNamespace(text=text, offsets=offsets)
        key = files.keys[doc]
        title = f"Document {doc}" + (f" · {esc(str(key))}" if key is not None else "")
        out.append(f'<section class="doc" id="doc-{doc}" data-doc="{doc}" data-disagreements="{len(by_doc[doc])}">')
        out.append(f'<h3>{title} · {len(by_doc[doc])} disagreements</h3><div class="rows">')
        for name in names:
            spans = files.annotations[name][doc]
            if spans is None:
                out.append(
                    f'<div class="row absent" data-annotator="{esc(name)}"><div class="who">{esc(name)}</div>'
                    '<div class="spans">did not annotate this document</div></div>'
                )
            else:
                out.append(
                    f'<div class="row" data-annotator="{esc(name)}"><div class="who">{esc(name)}</div>'
                    f"{render_spans(view, spans, colors)}</div>"
                )
        out.append("</div>")
        out.append(
            table_start(
                "errors",
                [
                    '<th class="text">span</th>',
                    '<th class="text">label</th>',
                    '<th class="text">have it</th>',
                    '<th class="text">instead</th>',
                ],
            )
        )
        for d in by_doc[doc]:
            instead = "; ".join(
                f"{esc(who)}: "
                + (", ".join(f"{esc(_text(view, s))} <b>{esc(s.label)}</b>" for s in spans) or "nothing")
                for who, spans in d.instead.items()
            )
            out.append(
                f'<tr><td class="text">{esc(_text(view, d.span))}</td><td class="text">{esc(d.span.label)}</td>'
                f'<td class="text">{esc(", ".join(d.have))}</td><td class="text">{instead}</td></tr>'
            )
        out.append(f"{TABLE_END}</section>")
    return render_page("spacy-spanf1 agreement", out, css=PAGE_CSS)


def _text(view, span) -> str:
    if view.offsets is None:
        return view.text[span.start : span.end]
    return view.text[view.offsets[span.start][0] : view.offsets[span.end - 1][1]]
