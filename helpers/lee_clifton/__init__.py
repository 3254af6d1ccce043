"""Lee & Clifton (2011), "How Much Is Enough? Choosing ε for Differential Privacy".

The adversary knows the universe U of N records and that the released data set holds
``size`` = n of them; everything else is uncertain. Notation, as in the paper:

* possible worlds ω₁ … ω_W: the size-n sub-multisets of U taken by position, in
  ``itertools.combinations`` order (W = C(N, n)); for the school example world 1 is the
  released data set, everyone but Terry;
* f: the query (``helpers.queries``); Δf: its unbounded empirical sensitivity, which sets
  the Laplace scale b = Δf/ε of the release;
* Δv: the largest difference of f between two possible worlds, max f(ωᵢ) − min f(ωⱼ);
* ρ: the risk, the largest posterior probability the data owner tolerates for the true world.

Every public function takes ``universe, size, query`` first (query: a name such as
``"mean"``, a ``Query`` or a callable) and validates its input.

World tables and Δf are cached for the built-in queries only (keyed by the universe's
values and the query's name; ``clear_caches`` empties them): a reader's callable may read a
list, a slider or a global, so it is evaluated afresh on every call. Work is budgeted by the
work itself and refused before any is done, with its count: W worlds × n records for an
enumeration (``MAX_ENUMERATED_VALUES``; ``MAX_CALLABLE_VALUES`` for a reader's callable),
levels × ε values for ``tight_bound`` (``MAX_BOUND_TERMS``), besides ``MAX_WORLDS`` and
``MAX_TABLE_BYTES``.

This package is the public facade (``from helpers import lee_clifton as lc``); the code lives
in modules by topic: :mod:`.worlds` (the setting, the possible worlds, the world tables and
their caches, Δf and Δv), :mod:`.beliefs` (prior, posterior, confidence and the simulated
attack), :mod:`.bounds` (the bounds on the posterior, eqs. (3)–(5)) and :mod:`.choosing`
(inequality (7), the binary search and the analysis table). A budget is read by the module
that holds it: to change one for a session, set it there (``lc.worlds.MAX_WORLDS``,
``lc.bounds.MAX_BOUND_TERMS``), not on this facade.
"""

from .._cache import clear_caches
from .beliefs import confidence, posterior, prior, simulate_attack
from .bounds import (
    MAX_BOUND_TERMS,
    bound_curves,
    limit_of_tight_bound,
    most_exposed_world,
    tight_bound,
    upper_bound,
)
from .choosing import (
    ANALYSIS_QUERIES,
    analysis_table,
    binary_search_epsilon,
    binary_search_steps,
    epsilon_upper_bound,
)
from .worlds import (
    MAX_CALLABLE_VALUES,
    MAX_ENUMERATED_VALUES,
    MAX_TABLE_BYTES,
    MAX_WORLDS,
    count_worlds,
    delta_v,
    possible_worlds,
    world_values,
)

__all__ = [
    "ANALYSIS_QUERIES",
    "MAX_BOUND_TERMS",
    "MAX_CALLABLE_VALUES",
    "MAX_ENUMERATED_VALUES",
    "MAX_TABLE_BYTES",
    "MAX_WORLDS",
    "analysis_table",
    "binary_search_epsilon",
    "binary_search_steps",
    "bound_curves",
    "clear_caches",
    "confidence",
    "count_worlds",
    "delta_v",
    "epsilon_upper_bound",
    "limit_of_tight_bound",
    "most_exposed_world",
    "possible_worlds",
    "posterior",
    "prior",
    "simulate_attack",
    "tight_bound",
    "upper_bound",
    "world_values",
]
