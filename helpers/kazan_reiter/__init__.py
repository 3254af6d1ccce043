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

from .closed_forms import *  # noqa: F403
from .closed_forms import __all__ as _closed_forms
from .durham import *  # noqa: F403
from .durham import __all__ as _durham
from .optimiser import *  # noqa: F403
from .optimiser import __all__ as _optimiser
from .profiles import *  # noqa: F403
from .profiles import __all__ as _profiles
from .slices import *  # noqa: F403
from .slices import __all__ as _slices
from .theorems import *  # noqa: F403
from .theorems import __all__ as _theorems

__all__ = sorted([*_theorems, *_optimiser, *_profiles, *_closed_forms, *_slices, *_durham])
