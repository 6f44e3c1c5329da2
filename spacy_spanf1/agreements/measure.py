"""How much N annotators agree, span by span under every scheme and token
by token (kappas, alpha), from annotations read (`agreement_of`: what the
front doors `agreement` and `agree_files` run)."""

from typing import Any, List, Mapping, Optional, Sequence, Set, Tuple

import numpy

from ..exceptions import InputError, SettingError
from ..notes import closest_label, one_sided_labels, quoted, spans_counted
from ..signature import make_signature
from ..settings import SCHEMES, AgreementSettings, AnalysisSettings, MatchSettings
from .annotations import Annotations
from .intervals import agreement_intervals
from .links import score_link_pairs
from .pairwise import ordered_pairs, score_annotator_pairs, shared_counts, shared_index
from .result import AgreementResult
from .tokens import label_positions, token_agreement

#: What the agreement doors (`agreement`, `agree_files`) do not apply of
#: the settings objects they take: a field set away from its default is a
#: SettingError.
UNUSED = {
    "match": ("spans_key", "beta"),
    "read": ("gold_format", "pred_format", "gold_column", "pred_column"),
    "analysis": ("baseline", "test", "alpha", "by", "buckets"),
}


def span_schemes_only(match: MatchSettings) -> MatchSettings:
    """match, if it names no string scheme (annotators are compared by
    their spans' offsets, and under link schemes by their spans' kb ids);
    else a SettingError."""
    if match.string_schemes:
        raise SettingError(
            f"the scheme {match.string_schemes[0]!r} compares span texts; agreement compares span offsets: "
            f"name span schemes only: {', '.join(SCHEMES)}",
            "schemes",
        )
    return match


def without_links(match: MatchSettings) -> MatchSettings:
    """match without its link schemes (scored apart: `links`)."""
    if not match.link_schemes:
        return match
    return match.replace(schemes=tuple(name for name in match.schemes if name not in match.link_schemes))


def agreement_of(
    read: Annotations,
    match: MatchSettings,
    agree: AgreementSettings,
    analysis: AnalysisSettings,
    read_signature: Any = None,
    groups: Optional[Sequence[Any]] = None,
    fmt: Optional[str] = None,
    links: Optional[Mapping[str, Sequence[Any]]] = None,
) -> AgreementResult:
    """The agreement of annotations already read (`read_annotations`, or
    read from files: `read_signature` the ReadSettings, `fmt` the format
    they were read as); under the link schemes, of `links` (annotator ->
    one entry per document: its linked spans, None where not done)."""
    check_pairs_share(read)
    with_rows = analysis.bootstrap is not None
    # The annotations were read with the label map applied: the pairs are scored on them as they are.
    pairwise = score_annotator_pairs(read, without_links(match).replace(label_map=None), per_doc=with_rows)
    if match.link_schemes:
        linked = score_link_pairs(links or {}, read.names, match.link_schemes, read.unit, with_rows)
        pairwise = {scheme: pairwise[scheme] if scheme in pairwise else linked[scheme] for scheme in match.schemes}
    lengths = read.lengths
    if lengths is None and agree.o_tokens == "exclude":
        lengths = spanned_lengths(read)
    tokens, alpha_rows = None, None
    if lengths is not None:
        tokens, alpha_rows = token_agreement(read, label_positions(read, lengths), agree.o_tokens)
    intervals = None
    if with_rows:
        names = read.names
        docs_of = {(names[a], names[b]): shared_index(read, a, b) for a, b in ordered_pairs(names)}
        intervals = agreement_intervals(
            pairwise,
            docs_of,
            alpha_rows,
            None if tokens is None else tokens.alpha,
            read.n_docs,
            analysis,
            None if groups is None else list(groups),
        )
    signature = make_signature(
        match,
        unit=read.unit,
        read=read_signature,
        fmt=fmt,
        analysis=analysis,
        agreement={**agree.to_dict(), "lengths": read.lengths is not None},
    )
    return AgreementResult(
        read.names,
        read.n_docs,
        pairwise,
        shared_counts(read),
        tokens,
        intervals,
        signature,
        warnings=tuple(annotator_label_warnings(read)) + unmapped_warnings(read),
    )


def unmapped_warnings(read: Annotations) -> Tuple[str, ...]:
    """A warning naming, by annotator, the labels the label map does not name."""
    if not read.unmapped:
        return ()
    parts = [
        f"annotator {name!r}: "
        + ", ".join(f"{quoted(label)} ({spans_counted(n)})" for label, n in sorted(found.items()))
        for name, found in read.unmapped.items()
    ]
    return ("the label map does not name the labels of " + "; ".join(parts) + ": scored as they are",)


def annotator_label_warnings(read: Annotations) -> List[str]:
    """A warning for each label one annotator alone uses, with the closest
    label of the others (another case, a rename, a typo: such labels agree
    with nothing). Of two labels each the other's closest (one annotator
    writes "per", another "PER"), only the first annotator's is named."""
    counts = [numpy.bincount(side.label, minlength=len(read.labels)) for side in read.sides]
    used = [{read.labels[i]: int(n) for i, n in enumerate(found) if n} for found in counts]
    found: List[str] = []
    named: Set[Tuple[Optional[str], Optional[str]]] = set()
    for a, name in enumerate(read.names):
        others = {label for b, labels in enumerate(used) if b != a for label in labels}
        mine = {
            label: n
            for label, n in used[a].items()
            if label not in others and (closest_label(label, others), label) not in named
        }
        named.update((label, closest_label(label, others)) for label in mine)
        found.extend(
            one_sided_labels(
                mine,
                others,
                lone=f"the label {{label}} of annotator {quoted(name)} ({{spans}}) occurs in no other annotator's spans",
                closest="closest label of the others {label}",
                rest=f"{{n}} more labels of annotator {quoted(name)} ({{spans}}) occur in no other annotator's spans",
            )
        )
    return found


def check_pairs_share(read: Annotations) -> None:
    """Every pair of annotators must share a document."""
    for a, b in ordered_pairs(read.names):
        if a < b and not read.shared(a, b).any():
            did = {read.names[i]: int(read.done[i].sum()) for i in (a, b)}
            listed = ", ".join(f"{name!r} did {n}" for name, n in did.items())
            raise InputError(
                f"annotators {read.names[a]!r} and {read.names[b]!r} have no document in common ({listed} of "
                f"{read.n_docs}): every pair must share a document (None marks a document an annotator did not do)",
                setting="annotations",
            )


def spanned_lengths(read: Annotations) -> numpy.ndarray:
    """Each document's furthest span end over the annotators (the positions
    past it are O for everyone)."""
    lengths = numpy.zeros(read.n_docs, dtype=numpy.int64)
    for side in read.sides:
        numpy.maximum.at(lengths, side.doc, side.end)
    return lengths
