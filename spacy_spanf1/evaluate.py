"""Old import path: `spacy_spanf1.evaluate` is `spacy_spanf1.engine.scorer`."""
import sys

from .engine import scorer as _moved

sys.modules[__name__] = _moved
