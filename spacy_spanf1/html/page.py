"""The skeleton of every page: doctype, head with the inline CSS, title,
heading, the body's lines, and the blocks every page opens with (the
files read, the signature)."""

import html
from pathlib import Path
from typing import Any, Iterable, Mapping, Optional, Sequence

from ..signature import signature_text
from .css import CSS

#: Every text of a page goes through this (quotes included: it may be an attribute).
escape = html.escape


def render_page(title: str, body: Iterable[str], *, css: str = "", heading: Optional[str] = None) -> str:
    """One self-contained page, its lines joined by newlines.

    title (str): The page's title, and its heading unless `heading` is given.
    body (Iterable[str]): The lines of its body (HTML, escaped already).
    css (str): The page's own rules, after the shared ones (`css.CSS`).
    """
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            f"<title>{escape(title)}</title>",
            f"<style>{CSS}{css}</style></head><body>",
            f"<h1>{escape(title if heading is None else heading)}</h1>",
            *body,
            "</body></html>",
        ]
    )


def sources_text(sources: Sequence[Any], names: Optional[Sequence[str]] = None) -> str:
    """The files a page is of, each in <code> after its name (names: one
    per file, or None for the files alone), joined by " · "."""
    if names is None:
        return " · ".join(f"<code>{escape(str(src))}</code>" for src in sources)
    return " · ".join(f"{escape(name)}: <code>{escape(str(src))}</code>" for name, src in zip(names, sources))


def signature_block(signature: Mapping[str, Any]) -> str:
    """The paragraph of a run's signature (a plain dict, as `to_dict`
    writes it) on one line; "" for none."""
    if not signature:
        return ""
    return f'<p class="meta signature">Signature: <code>{escape(signature_text(signature))}</code></p>'


def write_html(path: Any, page: str) -> None:
    """Write the page as UTF-8."""
    Path(path).write_text(page, encoding="utf-8")
