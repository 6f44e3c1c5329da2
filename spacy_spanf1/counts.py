"""Old import path: `spacy_spanf1.counts` is `spacy_spanf1.engine.counts`."""
import sys

from .engine import counts as _moved

sys.modules[__name__] = _moved
