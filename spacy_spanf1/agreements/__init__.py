"""Agreement between annotators: pairwise span agreement under every
scheme, token agreement (Cohen's and Fleiss' kappa, Krippendorff's alpha),
the consensus of the annotators and their disagreements.

`annotations` reads every annotator's spans once into arrays; `pairwise`
scores each ordered pair with the engine; `tokens` labels positions and
computes the kappas and alpha from count tables; `intervals` bootstraps
them by document; `measure` runs them all (`agreement_of`); `consensus`
votes; `result` holds the figures. The front doors, `agreement` (span
lists) and `agree_files`, are `api.agree`'s.
"""

from .consensus import Disagreement, consensus, disagreements
from .result import AgreementResult

__all__ = ["AgreementResult", "Disagreement", "consensus", "disagreements"]
