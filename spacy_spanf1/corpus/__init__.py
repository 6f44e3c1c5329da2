"""Scoring a corpus (see `stream`)."""
from .stream import (
    FULL_COLLECTION,
    ErrorStream,
    Keep,
    check_outcome,
    deliver_errors,
    finish,
    load_pipeline,
    pipeline_input,
    pipeline_pairs,
    score_files,
    score_pairs,
    score_pipeline,
    unzip,
)

__all__ = ["FULL_COLLECTION", "ErrorStream", "Keep", "check_outcome", "deliver_errors", "finish", "load_pipeline",
           "pipeline_input", "pipeline_pairs", "score_files", "score_pipeline", "score_pairs", "unzip"]
