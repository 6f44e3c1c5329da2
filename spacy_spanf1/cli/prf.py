"""`spacy-spanf1 prf`: the plain exact-match calculator on standard input."""

import typer

from ..api import prf_from_stdin
from .main import app, run


@app.command("prf")
def prf_cli(ctx: typer.Context) -> None:
    """Exact-match precision, recall and F1 of plain spans read from
    standard input: P, then P lines `start end type` (predicted), then G,
    then G lines (gold). Ends are inclusive; the numbers may also come on one
    line, space-separated. Prints `precision recall f1` rounded to 4
    decimals, 0.0 where undefined; identical spans count once.

    \b
    Example:
    echo "3 0 1 PER 4 6 LOC 8 8 ORG 2 0 1 PER 4 6 LOC" | spacy-spanf1 prf
    prints 0.6667 1.0 0.8
    """
    p, r, f = run(ctx, prf_from_stdin)
    print(f"{p} {r} {f}")
