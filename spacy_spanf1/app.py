"""Old import path: `spacy_spanf1.app` is `spacy_spanf1.api`."""
import sys

from . import api as _moved

sys.modules[__name__] = _moved
