"""Several views of one corpus (`--view all,disc_docs,disc_mentions`),
scored one after the other and shown side by side: a row per scheme, P, R
and F of each view."""

from typing import Any, Callable, Dict, List

import srsly

from ..notes import warnings_shown
from ..report import format_pct
from ..results import CorpusScores
from ..settings import VIEWS
from ..values import check_choice
from .output import printer

#: What the side-by-side run writes and shows: the others need one view.
_ONE_VIEW_ONLY = ("errors_path", "html_path", "bootstrap", "baseline", "by")


def views_side_by_side(front_door: Callable[..., CorpusScores], *inputs: Any, views: List[str], **options: Any):
    """front_door(*inputs, view=v, **options) for each view, one table of
    their P/R/F; `output_path` gets {view: scores} as JSON. RETURNS
    (Dict[str, Any]): view -> `CorpusScores.to_dict()`."""
    views = [check_choice("view", view.strip(), VIEWS) for view in views]
    for name in _ONE_VIEW_ONLY:
        if options.get(name):
            raise check_error(name)
    output_path = options.pop("output_path", None)
    silent = bool(options.pop("silent", False))
    options.pop("html_docs", None)
    options.pop("confusion", None)
    options.pop("view", None)
    options = {k: v for k, v in options.items() if k not in _ONE_VIEW_ONLY}
    found: Dict[str, CorpusScores] = {}
    with warnings_shown():
        for view in views:
            found[view] = front_door(*inputs, view=view, progress=False, **options)
    msg = printer(silent)
    first = found[views[0]]
    header = [""] + [f"{view} {part}" for view in views for part in ("P", "R", "F")]
    rows = [
        [scheme]
        + [
            format_pct(value)
            for view in views
            for value in (
                found[view].results[scheme].precision,
                found[view].results[scheme].recall,
                found[view].results[scheme].f1,
            )
        ]
        for scheme in first.results
    ]
    msg.table(rows, header=header, aligns=["l"] + ["r"] * (len(header) - 1), title=f"Views ({first.unit} unit)")
    out = {view: scores.to_dict() for view, scores in found.items()}
    if output_path is not None:
        srsly.write_json(output_path, out)
    return out


def check_error(name: str) -> Exception:
    """The error of a setting that needs a single view."""
    from ..exceptions import SettingError

    return SettingError(
        f"{name} needs one view; several views (--view with commas) are only reported side by side", name
    )
