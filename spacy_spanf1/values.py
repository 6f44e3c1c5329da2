"""What a setting may be: the names that settings choose from (schemes,
units, tests, interval methods, breakdown attributes, the choices of the
readers), in the order messages list them, the only lists of them; and the
checks of single values, each raising `SettingError` naming the setting,
the value and what is valid.

The settings objects (`settings.py`) are built from these checks, and
`spacy_spanf1.settings` gives every name of this module too.
"""

import numbers
from typing import Any, Iterable, Mapping, Optional, Sequence, Tuple

from .exceptions import SettingError

__all__ = [
    "ALPHA",
    "CONFIDENCE",
    "HTML_DOCS",
    "NOTE_EXAMPLES",
    "N_RESAMPLES",
    "RELATION_THRESHOLD",
    "SEED",
    "SKIPPED_NAMES",
    "TEST_RESAMPLES",
    "VIEWS",
    "ATTRIBUTES",
    "DOC_ATTRIBUTES",
    "GROUNDINGS",
    "LINK_SCHEMES",
    "METHODS",
    "MISSING_PRED",
    "O_TOKENS",
    "RELATION_SCHEMES",
    "SCHEMES",
    "SEMEVAL_SCHEMES",
    "SPAN_ATTRIBUTES",
    "STRING_SCHEMES",
    "TESTS",
    "TEXT_MISMATCH",
    "UNITS",
    "check_beta",
    "check_choice",
    "check_count",
    "check_fraction",
    "check_labels",
    "check_n_resamples",
    "check_name",
    "check_open_fraction",
    "check_schemes",
    "check_seed",
    "check_unit",
    "comma_list",
    "scheme_names",
]

#: Statistics defaults (the bootstrap, the paired tests and the scorer's
#: intervals all take these).
SEED = 12345
N_RESAMPLES = 1000
CONFIDENCE = 0.95
ALPHA = 0.05
#: Rounds of each paired test when none are given.
TEST_RESAMPLES: Mapping[str, int] = {"randomization": 10000, "bootstrap": N_RESAMPLES}
#: Reports stay a readable size: the names of at most this many skipped
#: documents are kept.
SKIPPED_NAMES = 5
#: ... and at most this many examples of each note of the readers (span
#: texts that disagree with their offsets, documents missing a side).
NOTE_EXAMPLES = 5
#: The most documents an HTML report shows (`--html-docs`): those with the
#: most errors, which are all a run with --html keeps of its documents.
HTML_DOCS = 200
#: The score a label of a relation component's `doc._.rel` (the spaCy
#: rel_component tutorial's dict) needs to be a relation, as the tutorial's
#: own scorer takes it.
RELATION_THRESHOLD = 0.5

#: Which mentions a corpus with discontinuous spans scores: every mention;
#: only the documents with a discontinuous gold mention (all their
#: mentions); only the discontinuous mentions of both sides.
VIEWS: Tuple[str, ...] = ("all", "disc_docs", "disc_mentions")

#: Every scheme, in the order tables list them. The only list of names.
SCHEMES: Tuple[str, ...] = ("strict", "exact", "partial", "type", "iou", "overlap")
#: The schemes that count as SemEval-2013 does (COR INC PAR MIS SPU); the
#: others count TP FP FN.
SEMEVAL_SCHEMES: Tuple[str, ...] = SCHEMES[:4]
#: The schemes that compare (string, label) pairs, not offsets: they need
#: the documents' texts (files, pipelines, `evaluate_mentions`), never the
#: primary scheme. `strings`: multisets (unitxt's NER metric);
#: `strings_normalized`: sets after the SQuAD normalization (UniversalNER).
STRING_SCHEMES: Tuple[str, ...] = ("strings", "strings_normalized")
#: The link schemes (entity linking, `evaluate_links`), in the order
#: tables list them: neleval 3.1.1's ten tagging measures under its names,
#: GERBIL's weak annotation match, and spaCy's `Scorer.score_links`.
LINK_SCHEMES: Tuple[str, ...] = (
    "strong_mention_match",
    "strong_typed_mention_match",
    "strong_linked_mention_match",
    "strong_link_match",
    "strong_nil_match",
    "strong_all_match",
    "strong_typed_link_match",
    "strong_typed_nil_match",
    "strong_typed_all_match",
    "entity_match",
    "weak_all_match",
    "nel",
)
#: The relation schemes (`evaluate_relations`), one for each one-to-one
#: span scheme: `rel_S` pairs the arguments of relations as S pairs spans.
RELATION_SCHEMES: Tuple[str, ...] = ("rel_strict", "rel_exact", "rel_partial", "rel_type", "rel_overlap")
UNITS: Tuple[str, ...] = ("token", "char")
#: Paired tests and bootstrap interval methods.
TESTS: Tuple[str, ...] = ("randomization", "bootstrap")
METHODS: Tuple[str, ...] = ("percentile", "BCa")
#: Breakdown attributes: of spans, of documents (any other name is a
#: metadata field of the documents).
SPAN_ATTRIBUTES: Tuple[str, ...] = ("span_length", "label")
DOC_ATTRIBUTES: Tuple[str, ...] = ("doc_length", "density")
ATTRIBUTES: Tuple[str, ...] = SPAN_ATTRIBUTES + DOC_ATTRIBUTES
#: What a reader does with a span whose written text disagrees with the
#: text at its offsets (offsets are authoritative, as in brat): count and
#: show it (the default), stop with an error, or not compare the texts.
TEXT_MISMATCH: Tuple[str, ...] = ("warn", "error", "ignore")
#: How mentions without offsets (an LLM's answers) take occurrences of
#: their strings: the k-th listing the k-th occurrence (the default), every
#: string its first, or every occurrence of a listed string.
GROUNDINGS: Tuple[str, ...] = ("ordered", "first", "all")
#: What pairing does with a gold document the predicted side lacks (brat
#: files, keyed records): count and show it, scored as predicting nothing
#: (the default), or stop with an error.
MISSING_PRED: Tuple[str, ...] = ("warn", "error")
#: Token agreement (kappas, alpha): keep the positions every annotator left
#: `O` (the default) or drop them (the common convention for NER).
O_TOKENS: Tuple[str, ...] = ("include", "exclude")


# --------------------------------------------------------------------------
# Checks of single values (each raises SettingError naming the setting)
# --------------------------------------------------------------------------


def comma_list(value: Any) -> Any:
    """A comma-separated string as the list of its items ("strict, iou" ->
    ["strict", "iou"]), as spaCy's CLI takes lists; anything else as is."""
    if isinstance(value, str):
        return [item.strip() for item in value.split(",") if item.strip()]
    return value


def scheme_names(
    schemes: Any, setting: str, kind: str, valid: Sequence[str], others: Optional[Mapping[str, str]] = None
) -> Tuple[str, ...]:
    """The names of `schemes` (a string is a comma-separated list) as a
    tuple, in the order given, each once and each in `valid`: else a
    SettingError naming the setting and the valid names. kind: what the
    messages call a name ("scheme", "link scheme"); others: names of
    another kind, with what to say of each. There is no default."""
    listed = ", ".join(valid)
    if schemes is None:
        raise SettingError(f"No '{setting}' given: name at least one {kind}. Valid {kind}s: {listed}", setting)
    schemes = tuple(comma_list(schemes))
    if not schemes:
        raise SettingError(f"'{setting}' is empty: name at least one {kind}. Valid {kind}s: {listed}", setting)
    for name in schemes:
        if others and name in others:
            raise SettingError(f"{name!r} in '{setting}' is {others[name]}. Valid {kind}s: {listed}", setting)
        if name not in valid:
            raise SettingError(f"Unknown {kind} {name!r} in '{setting}'. Valid {kind}s: {listed}", setting)
    duplicates = sorted({name for name in schemes if schemes.count(name) > 1})
    if duplicates:
        raise SettingError(f"Scheme {duplicates[0]!r} is named twice in '{setting}'.", setting)
    return schemes


def check_schemes(schemes: Any, setting: str = "schemes") -> Tuple[str, ...]:
    """The schemes as a tuple of known names, in the order given (a string
    is a comma-separated list), the first a span scheme. There is no
    default scheme."""
    schemes = scheme_names(schemes, setting, "scheme", SCHEMES + STRING_SCHEMES + LINK_SCHEMES + RELATION_SCHEMES)
    if schemes[0] not in SCHEMES:
        kind = "string" if schemes[0] in STRING_SCHEMES else "link" if schemes[0] in LINK_SCHEMES else "relation"
        raise SettingError(
            f"'{setting}' starts with {schemes[0]!r}: the first (primary) scheme is a span scheme "
            f"({', '.join(SCHEMES)}); {kind} schemes come after it",
            setting,
        )
    return schemes


def check_fraction(name: str, value: Any, *, optional: bool = False) -> Optional[float]:
    """A number in (0, 1], or None when optional and not set."""
    if value is None and optional:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise SettingError(f"'{name}' must be a number in (0, 1], got {value!r}.", name)
    if not 0.0 < float(value) <= 1.0:
        raise SettingError(f"'{name}' must be in (0, 1] (greater than 0, at most 1), got {value!r}.", name)
    return float(value)


def check_open_fraction(name: str, value: Any) -> float:
    """A number strictly between 0 and 1 (a confidence level, an alpha)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise SettingError(f"'{name}' must be a number in (0, 1), got {value!r}.", name)
    if not 0.0 < float(value) < 1.0:
        raise SettingError(f"'{name}' must be in (0, 1) (greater than 0, less than 1), got {value!r}.", name)
    return float(value)


def check_unit(unit: Any, setting: str = "unit") -> str:
    if unit not in UNITS:
        raise SettingError(f"Unknown unit {unit!r} in '{setting}'. Valid units: {', '.join(UNITS)}", setting)
    return unit


def check_beta(beta: Any) -> float:
    if isinstance(beta, bool) or not isinstance(beta, numbers.Real) or not float(beta) > 0:
        raise SettingError(f"'beta' must be a positive number, got {beta!r}.", "beta")
    return float(beta)


def check_labels(labels: Optional[Iterable[str]], setting: str = "labels") -> Optional[Tuple[str, ...]]:
    """None (all labels) or a non-empty tuple of label strings, in the
    order given, each once."""
    if labels is None:
        return None
    if isinstance(labels, str):
        raise SettingError(f"'{setting}' must be a list of label strings, got the string {labels!r}.", setting)
    labels = list(labels)
    if not labels:
        raise SettingError(f"'{setting}' is empty: give None for all labels or a list of labels.", setting)
    for label in labels:
        if not isinstance(label, str):
            raise SettingError(f"'{setting}' holds {label!r}, which is not a string.", setting)
    return tuple(dict.fromkeys(labels))


def check_count(value: Any, setting: str, minimum: int = 1) -> int:
    """An integer of at least `minimum` (a bool is not one)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise SettingError(f"'{setting}' must be an integer >= {minimum}, got {value!r}.", setting)
    if value < minimum:
        raise SettingError(f"'{setting}' must be an integer >= {minimum}, got {value!r}.", setting)
    return int(value)


def check_n_resamples(value: Any, setting: str = "n_resamples") -> int:
    """A positive integer (a bool is not one)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise SettingError(f"'{setting}' must be a positive integer, got {value!r}.", setting)
    if value < 1:
        raise SettingError(f"'{setting}' must be a positive integer (at least 1), got {value!r}.", setting)
    return int(value)


def check_seed(value: Any) -> int:
    """A non-negative integer, as numpy.random.default_rng takes it."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
        raise SettingError(f"'seed' must be a non-negative integer, got {value!r}.", "seed")
    return int(value)


def check_choice(setting: str, value: Any, valid: Sequence[str]) -> str:
    """One of the valid names, spelled exactly."""
    if not isinstance(value, str) or value not in valid:
        name = setting.replace("_", " ")  # the setting itself is named in quotes (a flag on the command line)
        raise SettingError(f"Unknown {name} {value!r} in '{setting}'. Valid: {', '.join(valid)}", setting)
    return value


def check_name(setting: str, value: Any, optional: bool = True) -> Optional[str]:
    """A non-empty string (a key, a field name), or None when optional."""
    if value is None and optional:
        return None
    if not isinstance(value, str) or not value.strip():
        raise SettingError(f"'{setting}' must be a non-empty name, got {value!r}", setting)
    return value
