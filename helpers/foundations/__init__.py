"""The differential-privacy foundations the course builds on (notebook 00).

Two sources, with their notation:

* lecture notes (``001``): ε-closeness of an equivalence class C (a *data set* property:
  the distance D(P_L, P_Q) between the class's distribution P_L of the sensitive attribute
  and the whole data set's P_Q), randomised response with the parameter α (each person i
  reports y_i = x_i with probability α and a fair coin r_i with probability 1 − α), its
  estimator p̂ = (1/α)(Y/n − (1 − α)/2) with Y = Σ y_i, and the definition of ε-DP;
* survey slides (``002``): ε-DP, post-processing, group privacy, sequential composition,
  the hypothesis-testing view (p + e^ε q ≥ 1, e^ε p + q ≥ 1), the Laplace mechanism
  (scale b = Δ/ε), the mean of n bits with Laplace(1/(nε)) noise, and the exponential
  mechanism (select h with probability ∝ exp(ε s(X, h) / (2Δ))) on an auction.

All functions are pure and vectorised; bad input raises ``ValueError`` naming the
parameter, the value and the allowed range. Laplace densities come from
:mod:`helpers.mechanisms`.

This package is the public facade (``from helpers import foundations as F``); each topic has
its own module: :mod:`.sources` (the sources' numbers), :mod:`.sensitivity`,
:mod:`.laplace_ratio`, :mod:`.mean_of_bits`, :mod:`.randomised_response`,
:mod:`.properties`, :mod:`.hypothesis_testing`, :mod:`.exponential_mechanism` and
:mod:`.closeness`.
"""

from .closeness import *  # noqa: F403
from .closeness import __all__ as _closeness
from .exponential_mechanism import *  # noqa: F403
from .exponential_mechanism import __all__ as _exponential_mechanism
from .hypothesis_testing import *  # noqa: F403
from .hypothesis_testing import __all__ as _hypothesis_testing
from .laplace_ratio import *  # noqa: F403
from .laplace_ratio import __all__ as _laplace_ratio
from .mean_of_bits import *  # noqa: F403
from .mean_of_bits import __all__ as _mean_of_bits
from .properties import *  # noqa: F403
from .properties import __all__ as _properties
from .randomised_response import *  # noqa: F403
from .randomised_response import __all__ as _randomised_response
from .sensitivity import *  # noqa: F403
from .sensitivity import __all__ as _sensitivity
from .sources import *  # noqa: F403
from .sources import __all__ as _sources

__all__ = sorted(
    [
        *_sources,
        *_sensitivity,
        *_laplace_ratio,
        *_mean_of_bits,
        *_randomised_response,
        *_properties,
        *_hypothesis_testing,
        *_exponential_mechanism,
        *_closeness,
    ]
)
