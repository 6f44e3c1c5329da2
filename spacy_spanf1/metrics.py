"""Old import path: `spacy_spanf1.metrics` is `spacy_spanf1.engine.metrics`."""
import sys

from .engine import metrics as _moved

sys.modules[__name__] = _moved
