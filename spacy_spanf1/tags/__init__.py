"""Tag sequences (BIO/IOB1/IOB2/IOE1/IOE2/IOBES/BILOU) to spans, and
seqeval-compatible scores over them; no spaCy objects are involved.

`schemes`: one table per tagging scheme, as seqeval's `scheme.py`;
`decode`: the one decoder of every mode and scheme (`Decoder`,
`spans_from_tags`); `report`: seqeval's `classification_report` figures
(`evaluate_tags`, `TagReport`).
"""

from .decode import Decoder, check_tag_options, get_decoder, spans_from_tags
from .report import TagReport, TagScore, evaluate_tags, tag_report
from .schemes import TAG_MODES, TAG_SCHEMES, TagScheme

__all__ = [
    "Decoder",
    "TAG_MODES",
    "TAG_SCHEMES",
    "TagReport",
    "TagScheme",
    "TagScore",
    "check_tag_options",
    "evaluate_tags",
    "get_decoder",
    "spans_from_tags",
    "tag_report",
]

#: The examples in the docstrings of the parts, run by `doctest.testmod`
#: on this package.
__test__ = {"spans_from_tags": spans_from_tags, "evaluate_tags": evaluate_tags}
