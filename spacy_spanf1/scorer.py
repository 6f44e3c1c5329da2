"""Old import path: `spacy_spanf1.scorer` is `spacy_spanf1.integrations.spacy`."""
import sys

from .integrations import spacy as _spacy_integration

sys.modules[__name__] = _spacy_integration
