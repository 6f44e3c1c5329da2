"""Relations of spaCy docs, and the registered relation scorer
`spacy-spanf1.relation_scorer.v1`.

`doc._.rel` comes in two shapes, both over `doc.ents`:

- the `rel_component` tutorial's (explosion/projects): a dict
  {(head start token, tail start token): {label: score}}, a relation for
  each label whose score reaches the threshold (its gold docs hold 1.0
  and 0.0);
- spacy-llm's REL task: a list of relations (`RelationItem`s or dicts) of
  `dep` (the head's index in `doc.ents`), `dest` (the tail's) and
  `relation` (the label).

Spans are the entities by character offsets, so that the two docs of an
Example need not share a tokenization.

    [components.relation_extractor.scorer]
    @scorers = "spacy-spanf1.relation_scorer.v1"
    schemes = ["rel_strict", "rel_exact"]
"""

from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from spacy.tokens import Doc
from spacy.training import Example
from thinc.api import ConfigValidationError

from ..exceptions import InputError, PathLike, SettingError
from ..relations import ValueDoc, check_relation_schemes, evaluate_relations
from ..settings import RELATION_SCHEMES, RELATION_THRESHOLD, MatchSettings, check_fraction
from ..spans import Span

__all__ = ["doc_relations", "make_relation_scorer_v1", "rel_relations", "score_relations"]

_SHAPES = (
    "doc._.rel is either the rel_component tutorial's dict {(head start token, tail start token): {label: score}} "
    "or spacy-llm's list of relations with 'dep', 'dest' and 'relation' (indices into doc.ents)"
)


def doc_relations(doc: Doc, threshold: float = RELATION_THRESHOLD, where: str = "doc") -> ValueDoc:
    """The entities of a doc (character offsets) and the relations of its
    `doc._.rel` (either shape; none when it is unset)."""
    ents = list(doc.ents)
    spans = [Span(e.start_char, e.end_char, e.label_) for e in ents]
    if not Doc.has_extension("rel"):
        raise InputError(f"{where} has no relations: the extension doc._.rel is not registered. {_SHAPES}")
    value = doc._.rel
    if value is None:
        return ValueDoc(spans, None, where)
    return ValueDoc(spans, rel_relations(value, [e.start for e in ents], spans, threshold, where), where)


def rel_relations(
    value: Any,
    starts: Sequence[int],
    spans: Sequence[Span],
    threshold: float = RELATION_THRESHOLD,
    where: str = "doc",
    path: Optional[PathLike] = None,
) -> List[Tuple[Span, Span, str]]:
    """The relations of a `doc._.rel` value (either shape) between the
    doc's entities: `starts`, the start token of each entity of `doc.ents`,
    and `spans`, each as a Span (in whatever unit the caller reads them).
    Any other shape is an InputError naming `where` (and `path`)."""
    found: List[Tuple[Span, Span, str]] = []
    if isinstance(value, dict):
        by_start = dict(zip(starts, spans))
        for key, scores in value.items():
            if not (isinstance(key, tuple) and len(key) == 2 and isinstance(scores, dict)):
                raise InputError(f"{where}: doc._.rel has the entry {key!r}: {scores!r}. {_SHAPES}", path)
            ends = []
            for role, start in zip(("head", "tail"), key):
                if start not in by_start:
                    raise InputError(
                        f"{where}: doc._.rel names token {start!r} as a {role}, where no entity of doc.ents starts",
                        path,
                    )
                ends.append(by_start[start])
            found.extend((ends[0], ends[1], label) for label, score in scores.items() if score >= threshold)
    elif isinstance(value, (list, tuple)):
        for k, item in enumerate(value):
            fields = _llm_fields(item)
            if fields is None:
                raise InputError(f"{where}: relation {k} of doc._.rel is {item!r}. {_SHAPES}", path)
            dep, dest, label = fields
            for role, index in (("dep", dep), ("dest", dest)):
                if not isinstance(index, int) or not 0 <= index < len(spans):
                    raise InputError(
                        f"{where}: relation {k} of doc._.rel has {role} {index!r}, not an index into doc.ents "
                        f"(the doc has {len(spans)} entities)",
                        path,
                    )
            found.append((spans[dep], spans[dest], label))
    else:
        raise InputError(f"{where}: doc._.rel is a {type(value).__name__}. {_SHAPES}", path)
    return found


def _llm_fields(item: Any) -> Optional[Tuple[Any, Any, Any]]:
    """(dep, dest, relation) of a spacy-llm relation (an object or a dict)."""
    if isinstance(item, dict):
        if all(key in item for key in ("dep", "dest", "relation")):
            return item["dep"], item["dest"], item["relation"]
        return None
    if all(hasattr(item, name) for name in ("dep", "dest", "relation")):
        return item.dep, item.dest, item.relation
    return None


def score_relations(
    examples: Iterable[Example],
    *,
    schemes: Iterable[str],
    threshold: float = RELATION_THRESHOLD,
    symmetric: Iterable[str] = (),
    relation_labels: Optional[Iterable[str]] = None,
    overlap_threshold: float = MatchSettings.overlap_threshold,
    min_overlap: Optional[float] = MatchSettings.min_overlap,
) -> Dict[str, Any]:
    """spaCy's flat score dict of the relations of Examples (`doc._.rel`
    of the reference and the predicted doc): `<scheme>_p`, `_r`, `_f`,
    `_macro_f`, `_per_type`, `_counts` for every relation scheme
    (`rel_strict_f`, ...), and the first under the tutorial's keys
    `rel_micro_p`, `rel_micro_r`, `rel_micro_f`. P/R/F are None when no
    relation was scored."""
    threshold = float(check_fraction("threshold", threshold))  # type: ignore[arg-type]
    gold, pred = [], []
    for i, eg in enumerate(examples):
        gold.append(doc_relations(eg.reference, threshold, f"the reference doc of example {i}"))
        pred.append(doc_relations(eg.predicted, threshold, f"the predicted doc of example {i}"))
    results = evaluate_relations(
        gold,
        pred,
        schemes=list(schemes),
        symmetric=symmetric,
        relation_labels=relation_labels,
        overlap_threshold=overlap_threshold,
        min_overlap=min_overlap,
        unit="char",
    )
    out: Dict[str, Any] = {}
    for i, (scheme, result) in enumerate(results.items()):
        keys = result.flat_keys(scheme)
        if i == 0:
            out.update({f"rel_micro_{m}": keys[f"{scheme}_{m}"] for m in ("p", "r", "f")})
        out.update(keys)
    return out


def make_relation_scorer_v1(
    schemes: Optional[List[str]] = None,
    threshold: float = RELATION_THRESHOLD,
    symmetric: List[str] = [],  # noqa: B006  (the config's list; never changed)
    relation_labels: Optional[List[str]] = None,
    overlap_threshold: float = MatchSettings.overlap_threshold,
    min_overlap: Optional[float] = MatchSettings.min_overlap,
) -> Callable[..., Dict[str, Any]]:
    """Make a scorer of a relation component's `doc._.rel` under the named
    relation schemes (`score_relations`); the keywords a component passes
    are ignored.

    schemes (List[str]): Relation schemes, required; the first is also
        reported under the tutorial's `rel_micro_p/r/f`.
    threshold (float): In (0, 1]: a label of the tutorial's dict is a
        relation when its score reaches it.
    symmetric (List[str]): Relation labels without direction.
    relation_labels (Optional[List[str]]): Score only these labels, and
        average macro F over them; None: the labels found.
    """
    try:
        names = [name for name in check_relation_schemes(schemes) if name in RELATION_SCHEMES]
        if len(names) != len(list(schemes or ())):
            raise SettingError(f"'schemes' of a relation scorer are relation schemes: {', '.join(RELATION_SCHEMES)}")
        check_fraction("threshold", threshold)
    except SettingError as err:
        raise ConfigValidationError(
            title="Invalid setting of the scorer spacy-spanf1.relation_scorer.v1", desc=str(err)
        ) from None
    settings = dict(
        schemes=names,
        threshold=threshold,
        symmetric=list(symmetric),
        relation_labels=relation_labels,
        overlap_threshold=overlap_threshold,
        min_overlap=min_overlap,
    )

    def score_relations_v1(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        return score_relations(examples, **settings)  # type: ignore[arg-type]

    return score_relations_v1
