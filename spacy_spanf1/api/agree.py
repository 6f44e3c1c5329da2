"""`agreement` (the agreement of annotators given as span lists) and
`agree_files` (given as files, and, when asked for, their consensus with
each annotator scored against it)."""

from pathlib import PurePath
from typing import Any, Dict, Optional, Sequence, Union, Unpack

from ..agreements.annotations import annotator_items, read_annotations
from ..agreements.links import without_kb_ids
from ..agreements.consensus import scored_consensus
from ..agreements.files import read_annotator_files
from ..agreements.measure import UNUSED, agreement_of, span_schemes_only, without_links
from ..agreements.result import AgreementResult
from ..exceptions import InputError, PathLike, SettingError
from ..keyword_types import (
    AgreementKeywords,
    IntervalKeywords,
    LabelledMatchKeywords,
    ReaderKeywords,
    SpanGroupKeywords,
)
from ..keywords import UNSET, Maybe, built, front_door, refuse_set, with_options
from ..notes import warn_each
from ..settings import UNITS, AgreementSettings, AnalysisSettings, MatchSettings, ReadSettings, comma_list
from .scores import annotated_files_door

__all__ = ["agree_files", "agreement"]


class AgreementDoorKeywords(LabelledMatchKeywords, AgreementKeywords, IntervalKeywords, total=False):
    """The keywords of `agreement`: its settings objects' fields."""


class AgreeFilesKeywords(AgreementDoorKeywords, ReaderKeywords, SpanGroupKeywords, total=False):
    """The keywords of `agree_files`: and the reader settings."""


@front_door(match=MatchSettings, agreement=AgreementSettings, analysis=AnalysisSettings)
def agreement(
    annotations: Any,
    *,
    lengths: Optional[Sequence[int]] = None,
    groups: Optional[Sequence[Any]] = None,
    match: Optional[MatchSettings] = None,
    agreement: Optional[AgreementSettings] = None,
    analysis: Optional[AnalysisSettings] = None,
    **keywords: Unpack[AgreementDoorKeywords],
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
    match (Optional[MatchSettings]): How spans are matched (span schemes
        only); or its fields as keywords: schemes (required), unit ("token"
        or "char": the offsets spaCy Spans give and the positions of the
        token figures), labels, iou_threshold, overlap_threshold,
        min_overlap (as evaluate_spans), label_map, map_unlisted.
    agreement (Optional[AgreementSettings]): Or its fields as keywords:
        o_tokens ("include" or "exclude": drop the positions every
        annotator left O from the token figures), min_votes (signed only:
        the consensus is `consensus`'s).
    analysis (Optional[AnalysisSettings]): Or its fields as keywords:
        bootstrap (resamples of the intervals of every pair's F, the mean F
        and alpha; None: no intervals), confidence, method, seed.
        resample_by is for files (`agree_files`): give groups instead.
        A keyword given beside its object is written over the object's
        field; an unknown keyword is a TypeError naming those it takes.
    RETURNS (AgreementResult): `.pairwise[scheme][(a, b)]` (b scored
        against a), `.mean_f`, `.micro_f`, `.micro`, `.mean_label_f`,
        `.versus_others`, `.shared`, `.cohen_kappa` (two annotators),
        `.fleiss_kappa` (documents every annotator did), `.alpha`,
        `.intervals`, `.to_dict()`.

    Ratios with a zero denominator are 0.0; a kappa or alpha that is
    undefined (a single category) is nan.
    """
    match, agree, analysis = span_schemes_only(built(match)), built(agreement), built(analysis)
    refuse_set(match, UNUSED["match"], "agreement")
    refuse_set(analysis, UNUSED["analysis"], "agreement")
    if analysis.resample_by is not None:
        raise SettingError(
            "'resample_by' names a metadata field of files (agree_files); with span lists give 'groups', "
            "one key per document",
            "resample_by",
        )
    unit = match.unit or UNITS[0]
    links = None
    if match.link_schemes:  # the entries are read twice: for the spans, and for the linked spans
        links = {name: list(docs) for name, docs in annotator_items(annotations)}
        annotations = {name: [without_kb_ids(entry) for entry in docs] for name, docs in links.items()}
    read = read_annotations(
        annotations,
        unit,
        labels=match.labels,
        lengths=lengths,
        label_map=match.label_map,
        refuse_unlisted=match.map_unlisted == "error",
    )
    result = agreement_of(read, match, agree, analysis, groups=groups, links=links)
    warn_each(result.warnings)
    return result


@annotated_files_door(match=MatchSettings, agreement=AgreementSettings, analysis=AnalysisSettings, read=ReadSettings)
def agree_files(
    paths: Union[PathLike, Sequence[PathLike]],
    format: Maybe[Optional[str]] = UNSET,
    names: Optional[Union[str, Sequence[str]]] = None,
    *,
    match: Optional[MatchSettings] = None,
    agreement: Optional[AgreementSettings] = None,
    analysis: Optional[AnalysisSettings] = None,
    read: Optional[ReadSettings] = None,
    consensus: bool = False,
    **keywords: Unpack[AgreeFilesKeywords],
) -> AgreementResult:
    """The agreement of annotators given as files.

    paths (PathLike or Sequence[PathLike]): One file (or brat directory)
        per annotator, all in one registered format; or ONE export that
        names its annotators: Label Studio (`completed_by`, several
        annotations a task; cancelled ones skipped and counted), Prodigy
        (`_annotator_id` or `_session_id`; only answer "accept" counts),
        JSONL with an "annotator" field.
    format (Optional[str]): The format; None: from the extensions.
    names (Optional[Sequence[str]]): The annotators' names, in the order of
        the files (or of their first appearance in one export); a string is
        comma-separated. Default: the file names (or the export's names).
    match (Optional[MatchSettings]): How spans are matched (span schemes
        only); or its fields as keywords: schemes (required), unit, labels,
        iou_threshold, overlap_threshold, min_overlap, label_map (one map
        for every annotator), map_unlisted.
    agreement (Optional[AgreementSettings]): Or its fields as keywords:
        o_tokens ("include" or "exclude" the positions every annotator
        left O from the token figures), min_votes (of the consensus).
    analysis (Optional[AnalysisSettings]): Or its fields as keywords:
        bootstrap (resamples of the intervals), confidence, method, seed,
        resample_by (a metadata field: with bootstrap, the documents of one
        value are resampled together).
    read (Optional[ReadSettings]): format and options (as the reader settings
        in **keywords).
        A keyword given beside its object is written over the object's field.
    consensus (bool): Also the consensus (`result.consensus`: its spans
        per document, kept when min_votes annotators, None: a strict
        majority of those who did the document, have them) and each
        annotator scored against it under the match settings.
    **keywords: The fields of match, agreement and analysis above, and
        the reader settings of the format (text_field,
        fragments, spans_key, ...), written over `read.options`.
    RETURNS (AgreementResult): Documents are matched by key or text; each
        pair is scored over the documents both did; the token figures count
        the documents' own tokens (or characters).
    """
    read = with_options(built(read), keywords)
    match, agreement, analysis = span_schemes_only(built(match)), built(agreement), built(analysis)
    for obj, unused in ((match, UNUSED["match"]), (read, UNUSED["read"]), (analysis, UNUSED["analysis"])):
        refuse_set(obj, unused, "agree_files")
    if isinstance(paths, (str, PurePath)):
        paths = [paths]
    files = read_annotator_files(list(paths), read.format, comma_list(names), match.unit, dict(read.options))
    annotations = read_annotations(
        files.annotations,
        files.unit,
        labels=match.labels,
        lengths=files.lengths,
        label_map=match.label_map,
        refuse_unlisted=match.map_unlisted == "error",
    )
    groups = None
    if analysis.resample_by is not None and analysis.bootstrap is not None:
        groups = [_group_key(meta, analysis.resample_by, doc, files.texts[doc]) for doc, meta in enumerate(files.meta)]
    result = agreement_of(
        annotations, match, agreement, analysis, read_signature=read, groups=groups, fmt=files.format, links=files.links
    )
    result = result.replace(notes=files.notes, files=files)
    if consensus:
        # the consensus is of spans: scored under the span schemes
        spans_only = without_links(match)
        result = result.replace(
            consensus=scored_consensus(files.annotations, files.unit, spans_only, agreement.min_votes)
        )
    warn_each(result.warnings)
    return result


def _group_key(meta: Dict[str, Any], name: str, doc: int, text: str) -> Any:
    """A document's resampling group: its metadata field `name`."""
    if name not in meta:
        fields = ", ".join(sorted(meta)) or "none"
        raise InputError(
            f"document {doc} ({text[:30]!r}) has no metadata field {name!r}. Its fields: {fields}",
            setting="resample_by",
        )
    value = meta[name]
    return value if isinstance(value, (str, int, float)) and not isinstance(value, bool) else str(value)
