"""Old import path: `spacy_spanf1.hf` is `spacy_spanf1.integrations.hf`."""
import sys

from .integrations import hf as _moved

sys.modules[__name__] = _moved
