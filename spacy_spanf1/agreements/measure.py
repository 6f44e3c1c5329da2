"""`agreement`: how much N annotators agree, span by span under every
scheme and token by token (kappas, alpha), from lists of spans."""

from typing import Any, Dict, List, Optional, Sequence, Set, Tuple

import numpy

from ..exceptions import InputError, SettingError
from ..notes import closest_label, one_sided_labels, quoted, spans_counted, warn_each
from ..signature import make_signature
from ..settings import SCHEMES, UNITS, AgreementSettings, AnalysisSettings, MatchSettings, comma_list, split_keywords
from .annotations import Annotations, read_annotations
from .intervals import agreement_intervals
from .pairwise import ordered_pairs, score_annotator_pairs, shared_counts, shared_index
from .result import AgreementResult
from .tokens import label_positions, token_agreement

#: The settings `agreement` takes, by the settings class that checks them.
TAKEN: Dict[Any, Tuple[str, ...]] = {
    MatchSettings: (
        "schemes",
        "unit",
        "labels",
        "iou_threshold",
        "overlap_threshold",
        "min_overlap",
        "label_map",
        "map_unlisted",
    ),
    AgreementSettings: ("o_tokens",),
    AnalysisSettings: ("bootstrap", "confidence", "method", "seed", "resample_by"),
}


def agreement_settings(
    settings: Dict[str, Any], where: str = "agreement"
) -> Tuple[MatchSettings, AgreementSettings, AnalysisSettings]:
    """The keyword settings of an agreement front door as settings objects;
    a keyword it does not take is a SettingError listing those it does."""
    settings = dict(settings)
    if "labels" in settings:
        settings["labels"] = comma_list(settings["labels"])
    valid = [name for names in TAKEN.values() for name in names]
    for name in settings:
        if name not in valid and name not in ("min_votes",):
            raise SettingError(
                f"{where} got an unexpected keyword argument {name!r}. Valid settings: {', '.join(valid + ['min_votes'])}",
                name,
            )
    matching, agree, analysis, _ = split_keywords(
        settings, MatchSettings, AgreementSettings, AnalysisSettings, where=where
    )
    match = span_schemes_only(MatchSettings(**matching))
    return match, AgreementSettings(**agree), AnalysisSettings(**analysis)


def span_schemes_only(match: MatchSettings) -> MatchSettings:
    """match, if it names no string scheme (annotators are compared by
    their spans' offsets); else a SettingError."""
    if match.string_schemes:
        raise SettingError(
            f"the scheme {match.string_schemes[0]!r} compares span texts; agreement compares span offsets: "
            f"name span schemes only: {', '.join(SCHEMES)}",
            "schemes",
        )
    if match.link_schemes:
        raise SettingError(
            f"the scheme {match.link_schemes[0]!r} compares knowledge-base ids; agreement compares span offsets: "
            f"name span schemes only: {', '.join(SCHEMES)}",
            "schemes",
        )
    return match


def agreement(
    annotations: Any,
    *,
    lengths: Optional[Sequence[int]] = None,
    groups: Optional[Sequence[Any]] = None,
    **settings: Any,
) -> AgreementResult:
    """The agreement of N annotators over the same documents.

    annotations (Mapping[str, Sequence]): annotator -> one entry per
        document: its spans ((start, end, label) tuples, {"start", "end",
        "label"} dicts or spaCy Spans, end exclusive), or None where that
        annotator did not do the document. At least two annotators, the
        same number of entries each, every pair sharing a document.
    lengths (Optional[Sequence[int]]): Each document's number of units
        (tokens, or characters in char unit), for the token figures. None:
        no token figures with o_tokens "include" (the positions no one
        marked are unknown); with "exclude", spans alone suffice.
    groups (Optional[Sequence]): One hashable key per document: with
        bootstrap, the documents of one key are resampled together (e.g.
        the sentences of one source document), as `bootstrap_ci` takes
        groups.
    **settings: schemes (required), unit ("token" or "char": the offsets
        spaCy Spans give and the positions of the token figures), labels,
        iou_threshold, overlap_threshold, min_overlap (as evaluate_spans);
        o_tokens ("include" or "exclude": drop the positions every
        annotator left O from the token figures); bootstrap (resamples of
        the intervals of every pair's F, the mean F and alpha; None: no
        intervals), confidence, method, seed.
    RETURNS (AgreementResult): `.pairwise[scheme][(a, b)]` (b scored
        against a), `.mean_f`, `.micro_f`, `.micro`, `.mean_label_f`,
        `.versus_others`, `.shared`, `.cohen_kappa` (two annotators),
        `.fleiss_kappa` (documents every annotator did), `.alpha`,
        `.intervals`, `.to_dict()`.

    Ratios with a zero denominator are 0.0; a kappa or alpha that is
    undefined (a single category) is nan.
    """
    match, agree, analysis = agreement_settings(settings)
    if analysis.resample_by is not None:
        raise SettingError(
            "'resample_by' names a metadata field of files (agree_files); with span lists give 'groups', "
            "one key per document",
            "resample_by",
        )
    unit = match.unit or UNITS[0]
    read = read_annotations(
        annotations,
        unit,
        labels=match.labels,
        lengths=lengths,
        label_map=match.label_map,
        refuse_unlisted=match.map_unlisted == "error",
    )
    result = agreement_of(read, match, agree, analysis, groups=groups)
    warn_each(result.warnings)
    return result


def agreement_of(
    read: Annotations,
    match: MatchSettings,
    agree: AgreementSettings,
    analysis: AnalysisSettings,
    read_signature: Any = None,
    groups: Optional[Sequence[Any]] = None,
    fmt: Optional[str] = None,
) -> AgreementResult:
    """The agreement of annotations already read (`read_annotations`, or
    read from files: `read_signature` the ReadSettings, `fmt` the format
    they were read as)."""
    check_pairs_share(read)
    with_rows = analysis.bootstrap is not None
    # The annotations were read with the label map applied: the pairs are scored on them as they are.
    pairwise = score_annotator_pairs(read, match.replace(label_map=None), per_doc=with_rows)
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
