"""A document's text with its spans marked, each in its label's colour,
as the compare report and the agreement page show documents."""

import colorsys
import zlib
from typing import Any, Dict, Iterable, List, Mapping, Sequence

from ..spans import Span
from .page import escape


def label_color(label: str) -> str:
    """A label's colour: the same in every report (from a hash of its name)."""
    hue = zlib.crc32(label.encode("utf-8")) % 360
    red, green, blue = colorsys.hls_to_rgb(hue / 360, 0.78, 0.65)
    return f"#{round(red * 255):02x}{round(green * 255):02x}{round(blue * 255):02x}"


def label_colors(labels: Iterable[str]) -> Dict[str, str]:
    """A colour for each label (label_color), in sorted order of the labels."""
    return {label: label_color(label) for label in sorted(set(labels))}


def char_spans(doc: Any, spans: Sequence[Span]) -> List[Span]:
    """The spans in character offsets of doc.text (doc.offsets: the
    character (start, end) of each token in token unit, None in char
    unit); not those past its end (mentions without a place in it)."""
    if doc.offsets is None:
        return [s for s in spans if s.end <= len(doc.text)]
    n = len(doc.offsets)
    return [
        Span(doc.offsets[s.start][0], doc.offsets[s.end - 1][1], s.label) for s in spans if 0 <= s.start < s.end <= n
    ]


def render_spans(doc: Any, spans: Sequence[Span], colors: Mapping[str, str]) -> str:
    """The document's text as written, each span a mark of its label's
    colour with its label in front. Spans that overlap (span groups) stack:
    the innermost colours the text, the others underline it. Labels are CSS
    content (`data-label`), so the page's text is the document's text.

    doc: Has `text` and `offsets` (as `char_spans` reads them): a DocPair.
    """
    esc = escape
    text = doc.text
    marked = sorted(set(char_spans(doc, spans)), key=lambda s: (s.start, -s.end, s.label))
    cuts = sorted({0, len(text)} | {b for s in marked for b in (s.start, s.end)})
    out = ['<div class="spans">']
    for a, b in zip(cuts, cuts[1:]):
        active = [s for s in marked if s.start <= a and s.end >= b]
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
        shadows = ", ".join(f"0 {3 * (i + 1)}px 0 0 {colors.get(s.label, '#ddd')}" for i, s in enumerate(others))
        classes = ["mark"]
        if inner.start == a:
            classes.append("first")
        if inner.end == b:
            classes.append("last")
        style = f"background: {colors.get(inner.label, '#ddd')}" + (f"; box-shadow: {shadows}" if shadows else "")
        out.append(f'<span class="{" ".join(classes)}" data-spans="{len(active)}" style="{style}">{piece}</span>')
    out.append("</div>")
    return "".join(out)
