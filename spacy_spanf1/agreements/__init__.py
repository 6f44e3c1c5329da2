"""Agreement between annotators: pairwise span agreement under every
scheme, token agreement (Cohen's and Fleiss' kappa, Krippendorff's alpha),
the consensus of the annotators and their disagreements.

`annotations` reads every annotator's spans once into arrays; `pairwise`
scores each ordered pair with the engine; `tokens` labels positions and
computes the kappas and alpha from count tables; `intervals` bootstraps
them by document; `consensus` votes; `result` holds the figures.
"""

from .consensus import Disagreement, consensus, disagreements
from .measure import agreement
from .result import AgreementResult

__all__ = ["AgreementResult", "Disagreement", "agreement", "consensus", "disagreements"]
