"""neleval 3.1.1 run on the same linked spans: the reference of the
neleval measures.

neleval 3.1.1 imports `collections.Sequence`, which Python 3.10 removed
(it is `collections.abc.Sequence`): the name is put back before neleval is
imported, and nothing else of neleval is changed. Its annotations are
built as its reader builds them from its TSV lines (document, start, end,
then one candidate: the kb id, a score and the type); the id of a span
without one is written NIL, as SPEC.md says, and neleval decides the rest
(an id that starts with "NIL" is NIL).
"""

import collections
import collections.abc
import warnings

import pytest

if not hasattr(collections, "Sequence"):
    collections.Sequence = collections.abc.Sequence  # type: ignore[attr-defined]

from neleval.annotation import Annotation, Candidate  # noqa: E402
from neleval.configs import MEASURE_SETS  # noqa: E402
from neleval.document import Document  # noqa: E402
from neleval.evaluate import Evaluate, StrictMetricWarning  # noqa: E402

from spacy_spanf1 import LINK_SCHEMES  # noqa: E402

#: neleval's tagging measures (its `all-tagging` group), in SPEC.md's order
#: (the order of the package's link schemes, which name each one as neleval does).
NELEVAL_MEASURES = tuple(name for name in LINK_SCHEMES if name in MEASURE_SETS["all-tagging"])


def span_fields(span):
    """(start, end, label, kb id or None) of a span as the tests write them."""
    if isinstance(span, dict):
        return span["start"], span["end"], span["label"], span.get("kb_id")
    if len(span) == 3:
        return (*span, None)
    return tuple(span)


def neleval_documents(docs, keep=lambda label: True):
    """neleval Documents of one side: document i is "d<i>"; end inclusive,
    as neleval's files write it."""
    out = []
    for i, spans in enumerate(docs):
        annotations = []
        for span in spans:
            start, end, label, kb = span_fields(span)
            if keep(label):
                annotations.append(Annotation(f"d{i}", start, end - 1, [Candidate(kb or "NIL", 1.0, label)]))
        out.append(Document(f"d{i}", annotations))
    return out


def neleval_run(gold_docs, pred_docs, measures=NELEVAL_MEASURES, keep=lambda label: True, group_by=None):
    """neleval's `evaluate` (Evaluate(...)()) on the spans: its results by name."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", StrictMetricWarning)
        evaluate = Evaluate(
            neleval_documents(pred_docs, keep),
            neleval_documents(gold_docs, keep),
            measures=list(measures),
            fmt="none",
            group_by=group_by,
        )
        return evaluate()


def neleval_counts(gold_docs, pred_docs, measures=NELEVAL_MEASURES, keep=lambda label: True):
    """measure -> (tp, fp, fn) of neleval's evaluate (its ptp = rtp)."""
    results = neleval_run(gold_docs, pred_docs, measures, keep)
    counts = {}
    for name in measures:
        row = results[name]
        assert row["ptp"] == row["rtp"]
        counts[name] = (int(row["ptp"]), int(row["fp"]), int(row["fn"]))
    return counts


@pytest.fixture(scope="session")
def neleval():
    """The neleval reference: `neleval.counts(gold, pred, measures, keep)`,
    `neleval.run(...)`."""

    class Reference:
        counts = staticmethod(neleval_counts)
        run = staticmethod(neleval_run)
        measures = NELEVAL_MEASURES

    return Reference()
