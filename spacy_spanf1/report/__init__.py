"""What a run reports beside its scores: the error records and the
--errors file (`records`; the link error records of the file: `links`),
and figures as text (`text`). The HTML pages
are in `spacy_spanf1.html`."""

from .records import (
    KB_KEY,
    NOT_IN_TEXT,
    RECORD_KEYS,
    RECORD_KINDS,
    SPAN_KEYS,
    ErrorFile,
    error_lines,
    error_record,
    error_records,
    json_string,
    record_kind,
    span_record,
    write_errors,
)
from .text import format_counts, format_delta, format_pct

__all__ = [
    "KB_KEY",
    "NOT_IN_TEXT",
    "RECORD_KEYS",
    "RECORD_KINDS",
    "SPAN_KEYS",
    "ErrorFile",
    "error_lines",
    "error_record",
    "error_records",
    "json_string",
    "record_kind",
    "span_record",
    "write_errors",
    "format_counts",
    "format_delta",
    "format_pct",
]
