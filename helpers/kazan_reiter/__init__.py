"""Kazan & Reiter (NeurIPS 2024), "Prior-itizing Privacy": setting ε from a risk profile.

Notation (the paper's, Section 2.2). An adversary targets individual *i* and holds two prior
probabilities:

* ``p`` = pᵢ = P_M[Iᵢ = 1], the prior probability that *i* is included in the data;
* ``q`` = qᵢ = P_M[Yᵢ ∈ S | Iᵢ = 1], the prior probability that *i*'s values disclose
  (fall in the set S the agency treats as a privacy violation).

The *relative disclosure risk* rᵢ(p, q, t*) is the posterior-to-prior ratio of the event
{Yᵢ ∈ S, Iᵢ = 1} after the release T* = t*; the *absolute* risk aᵢ = rᵢ·p·q is the posterior.
An agency writes a *risk profile* r*(p, q): the largest relative risk it accepts when the prior
is (p, q) (``math.inf`` where it does not care). Theorem 1 bounds rᵢ for an ε-DP release,
Theorem 2 turns the bound around into the largest ε that respects r* at one (p, q), and
eq. (13) takes the minimum over all (p, q) ∈ (0, 1]². Table 4 collects closed forms of that
minimum for the paper's profiles; each has a function here, tested against the numerical
minimiser :func:`recommend_epsilon`.

Also here: the Durham county switching probability of Example 3 (Figure 2).

This package is the public facade (``from helpers import kazan_reiter as kr``); the code
lives in modules with one reason to change each: :mod:`.theorems` (Theorems 1–2),
:mod:`.optimiser` (eq. (13), the numerical search), :mod:`.profiles` (the paper's
profiles), :mod:`.closed_forms` (Table 4), :mod:`.slices` (Figure 1's data) and
:mod:`.durham` (utility and Example 3).
"""

from .closed_forms import (
    epsilon_box_profile,
    epsilon_constant_profile,
    epsilon_difference_profile,
    epsilon_inclusion_profile,
    epsilon_lee_clifton_setting,
    epsilon_values_profile,
)
from .durham import (
    DURHAM_BIRTHS,
    DURHAM_TARGET,
    durham_switch_probability,
    durham_true_counts,
    utility,
)
from .optimiser import (
    AUTHORS_RESOLUTION,
    Recommendation,
    argmin_epsilon,
    evaluate_profile,
    recommend_epsilon,
)
from .profiles import (
    box_profile,
    difference_profile,
    inclusion_profile,
    lee_clifton_profile,
    two_dimensional_profile,
    values_profile,
)
from .slices import SLICE_X, ProfileSlice, profile_slice
from .theorems import max_epsilon, max_epsilon_naive, naive_bound, relative_risk_bound

__all__ = [
    "AUTHORS_RESOLUTION",
    "DURHAM_BIRTHS",
    "DURHAM_TARGET",
    "SLICE_X",
    "ProfileSlice",
    "Recommendation",
    "argmin_epsilon",
    "box_profile",
    "difference_profile",
    "durham_switch_probability",
    "durham_true_counts",
    "epsilon_box_profile",
    "epsilon_constant_profile",
    "epsilon_difference_profile",
    "epsilon_inclusion_profile",
    "epsilon_lee_clifton_setting",
    "epsilon_values_profile",
    "evaluate_profile",
    "inclusion_profile",
    "lee_clifton_profile",
    "max_epsilon",
    "max_epsilon_naive",
    "naive_bound",
    "profile_slice",
    "recommend_epsilon",
    "relative_risk_bound",
    "two_dimensional_profile",
    "utility",
    "values_profile",
]
