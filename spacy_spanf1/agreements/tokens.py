"""Token agreement: every position labelled, then Cohen's kappa, Fleiss'
kappa and Krippendorff's alpha (nominal) from count tables.

A position (a token, or a character in char unit) takes the label of the
span that covers it, or `O`: of several covering spans, the one that
starts first, and of those the longest (so a nested span gives way to the
span it is nested in; two crossing spans: the one that starts first; the
same offsets twice: the label first in sorted order). An annotator who did
not do a document has no label at its positions (missing).

Every figure comes from counts made with `numpy.bincount` and comparisons
of whole arrays, never a loop over positions:
- Cohen's kappa: the (categories x categories) confusion table of the two
  annotators, as scikit-learn's `cohen_kappa_score` computes from it;
- Fleiss' kappa: over the documents every annotator did, the category
  totals and, per position, the pairs of annotators that agree (the sum of
  squares of a row of the positions x categories table is N + 2·pairs), as
  statsmodels' `fleiss_kappa` computes from that table;
- Krippendorff's alpha, nominal: the coincidences of the pairable
  positions (two annotators or more), alpha = 1 - (n - 1)(n - Σ o_cc) /
  (n² - Σ n_c²), as the `krippendorff` package's nominal alpha.
"""

from dataclasses import dataclass
from typing import Any, Dict, Mapping, Optional

import numpy

from .annotations import Annotations

#: The category of positions no span covers; labels are 1, 2, ... in the
#: order of `Annotations.labels`; -1: the annotator did not do the document.
OUTSIDE, MISSING = 0, -1


@dataclass(frozen=True)
class Positions:
    """Every position of the corpus labelled by every annotator.

    codes (numpy.ndarray): (annotators x positions): MISSING, OUTSIDE or
        1 + a label id.
    doc (numpy.ndarray): Each position's document.
    n_categories (int): 1 + the number of labels.
    """

    codes: numpy.ndarray
    doc: numpy.ndarray
    n_categories: int


def label_positions(annotations: Annotations, lengths: numpy.ndarray) -> Positions:
    """The label of every annotator at every position (documents laid end
    to end, each `lengths[doc]` units long)."""
    n_labels = len(annotations.labels)
    dtype = numpy.int16 if n_labels < 2**15 - 1 else numpy.int32
    base = numpy.concatenate([[0], numpy.cumsum(lengths)]).astype(numpy.int64)
    total = int(base[-1])
    doc_of = numpy.repeat(numpy.arange(len(lengths)), lengths)
    codes = numpy.empty((len(annotations.names), total), dtype=dtype)
    for a, side in enumerate(annotations.sides):
        row = codes[a]
        row[:] = numpy.where(annotations.done[a][doc_of], OUTSIDE, MISSING)
        start = side.start + base[side.doc]
        end = side.end + base[side.doc]
        _paint(row, start, end, side.label + 1)
    return Positions(codes, doc_of, n_labels + 1)


def _paint(row: numpy.ndarray, start: numpy.ndarray, end: numpy.ndarray, code: numpy.ndarray) -> None:
    """Write each span's code over its positions; where spans overlap, the
    one that starts first, then the longest, then the lowest code wins.
    The spans come sorted by (start, end, code)."""
    if not len(start):
        return
    sizes = end - start
    first = numpy.cumsum(sizes) - sizes
    at = numpy.repeat(start - first, sizes) + numpy.arange(int(sizes.sum()))
    values = numpy.repeat(code, sizes)
    if (start[1:] >= end[:-1]).all():  # no two spans overlap: each position is written once
        row[at] = values
        return
    rank = numpy.lexsort((code, -end, start))  # spans in the order they win
    order_of = numpy.empty(len(rank), dtype=numpy.int64)
    order_of[rank] = numpy.arange(len(rank))
    span_rank = numpy.repeat(order_of, sizes)
    order = numpy.lexsort((span_rank, at))
    at, values = at[order], values[order]
    winner = numpy.r_[True, at[1:] != at[:-1]]
    row[at[winner]] = values[winner]


@dataclass(frozen=True)
class TokenAgreement:
    """The token figures.

    o_tokens (str): "include" or "exclude" (positions every annotator left
        `O` dropped).
    cohen_kappa (Optional[float]): Two annotators only, over the documents
        both did; None for more.
    fleiss_kappa (Optional[float]): Over the documents every annotator
        did; None when there is none.
    alpha (float): Krippendorff's alpha, nominal, missing where an
        annotator did not do a document.
    positions (int): The positions counted (after o_tokens), of any
        document at least two annotators did.
    fleiss_positions (int): Those of the documents every annotator did.
    unit (str): What a position is: a token, or a character in "char" unit.
    Undefined figures (one category only) are nan.
    """

    o_tokens: str
    cohen_kappa: Optional[float]
    fleiss_kappa: Optional[float]
    alpha: float
    positions: int
    fleiss_positions: int
    unit: str = "token"

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): the fields; nan (undefined) as None."""
        return {name: _json_number(getattr(self, name)) for name in self.__dataclass_fields__}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "TokenAgreement":
        """The figures `to_dict` wrote; alpha None (undefined) is nan again
        (nan equals nothing, so figures that hold one are not equal to
        themselves; the kappas stay None)."""
        fields = dict(data)
        if fields.get("alpha") is None:
            fields["alpha"] = float("nan")
        return cls(**fields)


def position_name(unit: str) -> str:
    """What a position of the token figures is, for messages: "token", or
    "character" in char unit."""
    return "character" if unit == "char" else "token"


def _json_number(value: Any) -> Any:
    if isinstance(value, float) and numpy.isnan(value):
        return None
    return value


def kept_positions(positions: Positions, o_tokens: str) -> numpy.ndarray:
    """Bool mask of the positions at least one annotator did, without those
    every annotator who did them left `O` when o_tokens is "exclude"."""
    codes = positions.codes
    kept = (codes != MISSING).any(axis=0)
    if o_tokens == "exclude":
        kept &= (codes > OUTSIDE).any(axis=0)
    return kept


def agreeing_pairs(codes: numpy.ndarray) -> numpy.ndarray:
    """At each position, how many pairs of annotators give it the same
    (present) category."""
    pairs = numpy.zeros(codes.shape[1], dtype=numpy.int64)
    for a in range(len(codes)):
        present = codes[a] != MISSING
        for b in range(a + 1, len(codes)):
            pairs += (codes[a] == codes[b]) & present
    return pairs


def cohen_kappa(x: numpy.ndarray, y: numpy.ndarray, n_categories: int) -> float:
    """Cohen's kappa of two label arrays, as scikit-learn computes it from
    the confusion table."""
    k = n_categories
    table = numpy.bincount(x.astype(numpy.int64) * k + y, minlength=k * k).reshape(k, k).astype(numpy.float64)
    total = table.sum()
    if not total:
        return float("nan")
    expected = numpy.outer(table.sum(axis=1), table.sum(axis=0)) / total
    weights = 1.0 - numpy.eye(k)
    with numpy.errstate(invalid="ignore", divide="ignore"):
        return float(1 - numpy.sum(weights * table) / numpy.sum(weights * expected))


def fleiss_kappa(codes: numpy.ndarray, pairs: numpy.ndarray, n_categories: int) -> float:
    """Fleiss' kappa of positions every annotator labelled (codes: raters x
    positions; pairs: agreeing pairs per position), as statsmodels computes
    it from the positions x categories table."""
    n_raters, n_positions = codes.shape
    if not n_positions:
        return float("nan")
    totals = numpy.bincount(codes.ravel().astype(numpy.int64), minlength=n_categories).astype(numpy.float64)
    share = totals / totals.sum()
    squares = n_raters + 2.0 * pairs
    agreement = ((squares - n_raters) / (n_raters * (n_raters - 1.0))).mean()
    expected = (share * share).sum()
    with numpy.errstate(invalid="ignore", divide="ignore"):
        return float((agreement - expected) / (1 - expected))


def alpha_rows(positions: Positions, kept: numpy.ndarray, pairs: numpy.ndarray, n_docs: int) -> numpy.ndarray:
    """Per document, what Krippendorff's alpha sums: the pairable values of
    each category (n_c) and the diagonal coincidences (Σ o_cc), as a
    (documents x categories + 1) float table."""
    codes = positions.codes
    k = positions.n_categories
    present = codes != MISSING
    values = present.sum(axis=0)
    pairable = kept & (values >= 2)
    doc = positions.doc
    rows = numpy.zeros((n_docs, k + 1), dtype=numpy.float64)
    for a in range(len(codes)):
        take = pairable & present[a]
        rows[:, :k] += numpy.bincount(doc[take] * k + codes[a][take], minlength=n_docs * k).reshape(n_docs, k)
    diagonal = 2.0 * pairs[pairable] / (values[pairable] - 1.0)
    rows[:, k] = numpy.bincount(doc[pairable], weights=diagonal, minlength=n_docs)
    return rows


def alpha_of_rows(summed: numpy.ndarray) -> numpy.ndarray:
    """Nominal alpha of summed alpha rows (..., categories + 1): 1 - (n -
    1)(n - Σ o_cc) / (n² - Σ n_c²); nan where undefined."""
    summed = numpy.asarray(summed, dtype=numpy.float64)
    n_c, diagonal = summed[..., :-1], summed[..., -1]
    n = n_c.sum(axis=-1)
    with numpy.errstate(invalid="ignore", divide="ignore"):
        return 1.0 - (n - 1.0) * (n - diagonal) / (n * n - (n_c * n_c).sum(axis=-1))


def token_agreement(annotations: Annotations, positions: Positions, o_tokens: str):
    """RETURNS (Tuple[TokenAgreement, numpy.ndarray]): the figures and the
    per-document alpha rows (for intervals)."""
    codes = positions.codes
    kept = kept_positions(positions, o_tokens)
    pairs = agreeing_pairs(codes)
    n_annotators = len(codes)
    cohen = None
    if n_annotators == 2:
        both = kept & (codes[0] != MISSING) & (codes[1] != MISSING)
        cohen = cohen_kappa(codes[0][both], codes[1][both], positions.n_categories)
    everyone = kept & (codes != MISSING).all(axis=0)
    fleiss = None
    if everyone.any():
        fleiss = fleiss_kappa(codes[:, everyone], pairs[everyone], positions.n_categories)
    rows = alpha_rows(positions, kept, pairs, annotations.n_docs)
    alpha = float(alpha_of_rows(rows.sum(axis=0)))
    pairable = kept & ((codes != MISSING).sum(axis=0) >= 2)
    figures = TokenAgreement(o_tokens, cohen, fleiss, alpha, int(pairable.sum()), int(everyone.sum()), annotations.unit)
    return figures, rows
