"""Statistics over the count table and the span outcomes."""
from .breakdown import Bucket, assign, breakdown, bucket_edges

__all__ = ["Bucket", "assign", "breakdown", "bucket_edges"]
