"""What the converters share: writing the DocBin they filled."""

from pathlib import Path

from spacy.tokens import DocBin
from wasabi import msg


def write_docbin(doc_bin: DocBin, output_path: Path, what: str) -> None:
    """Write doc_bin to output_path, its folder made if need be, and say
    how many docs went there with `what` (e.g. "12 entities")."""
    output_path.parent.mkdir(parents=True, exist_ok=True)
    doc_bin.to_disk(output_path)
    msg.good(f"Wrote {len(doc_bin)} docs with {what} to {output_path}")
