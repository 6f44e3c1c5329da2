"""Old import path: `spacy_spanf1.docs` is `spacy_spanf1.integrations.spacy`."""
import sys

from .integrations import spacy as _moved

sys.modules[__name__] = _moved
