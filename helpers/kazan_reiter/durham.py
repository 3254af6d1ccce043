"""Utility of the geometric mechanism (Tables 1 and 5) and the Durham county switching
probability of Example 3 (Figure 2).

Changes when: the paper's application example changes.
"""

from __future__ import annotations

import numpy as np

from .._docstrings import fill_docstrings
from .._validation import (
    as_output,
    check_nonnegative,
    check_positive,
    check_scalar,
)
from ..mechanisms import (
    geometric_cdf,
    geometric_noise_sd,
    geometric_prob_exact,
    geometric_scale,
    geometric_sf,
)

__all__ = [
    "DURHAM_BIRTHS",
    "DURHAM_TARGET",
    "durham_switch_probability",
    "durham_true_counts",
    "utility",
]


# --- utility (Tables 1 and 5, Figure 2) --------------------------------------------------


def utility(epsilon):
    """Noise SD and P[exact] of the geometric mechanism at ε: the columns of Tables 1 and 5.

    Used in notebooks 06 and 07.

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0, finite (the privacy parameter; arrays broadcast). At ε = 0 the noise is
        unbounded: SD ∞ and P[exact] 0 (a release that carries no information).

    Returns
    -------
    tuple of float or numpy.ndarray
        (noise SD, P[exact]) of the geometric mechanism at ε.

    %(raises)s

    References
    ----------
    Kazan & Reiter, "Prior-itizing privacy" (NeurIPS 2024): Tables 1 and 5 (the geometric mechanism of Example 3).

    Examples
    --------
    >>> tuple(round(v, 4) for v in utility(4.0))
    (0.195, 0.964)
    """
    eps = check_nonnegative("epsilon", epsilon)
    if np.any(np.isinf(eps)):
        raise ValueError(f"epsilon must be finite (ε ≥ 0); got {epsilon!r}")
    zero = eps == 0
    b = geometric_scale(np.where(zero, 1.0, eps))  # Δ = 1: a count
    sd = np.where(zero, np.inf, geometric_noise_sd(b))
    exact = np.where(zero, 0.0, geometric_prob_exact(b))
    return as_output(sd), as_output(exact)


DURHAM_BIRTHS = 4012  # live births, Durham county, 2020 (Example 3)
DURHAM_TARGET = 6.0  # Healthy People 2020 target, deaths per 1,000 live births


def durham_true_counts(deviation, births: int = DURHAM_BIRTHS, target: float = DURHAM_TARGET):
    """Hypothetical true death counts with the rate ``deviation`` per 1,000 above / below target.

    Counts are whole deaths: (target ± deviation)·births/1000 rounded to the nearest integer.
    Returns (count_above, count_below, threshold) where threshold = target·births/1000 is the
    count at which the rate meets the target exactly (24.072 for Durham): a release meets
    the target iff it is ≤ threshold.

    Used in notebook 07.

    Parameters
    ----------
    deviation : float or array_like
        How far the true rate lies from the target, deaths per 1,000, > 0.
    %(births_target)s

    Returns
    -------
    tuple of float or numpy.ndarray
        (count_above, count_below, threshold).

    %(raises)s

    References
    ----------
    Kazan & Reiter, "Prior-itizing privacy" (NeurIPS 2024): Example 3 (Durham county infant deaths).

    Examples
    --------
    >>> durham_true_counts(0.25)
    (25.0, 23.0, 24.072)
    """
    d = check_positive("deviation", deviation)
    # one population and one target per call: a list here used to escape as a TypeError
    births = check_scalar("births", check_positive("births", births), births)
    target = check_scalar("target", check_positive("target", target), target)
    threshold = target * births / 1000
    above = np.rint((target + d) * births / 1000)
    below = np.rint((target - d) * births / 1000)
    if np.any(below < 0):
        raise ValueError(f"deviation must be below the target {target}; got {d!r}")
    if np.any(above <= threshold) or np.any(below > threshold):
        raise ValueError(
            f"deviation is too small for whole counts: (target ± deviation)·births/1000 rounds "
            f"to a count on the same side of the threshold {threshold:g}; got {d!r}"
        )
    return as_output(above), as_output(below), as_output(threshold)


def durham_switch_probability(
    epsilon,
    deviation,
    direction: str = "above",
    *,
    births: int = DURHAM_BIRTHS,
    target: float = DURHAM_TARGET,
):
    """P[the geometric release lands on the other side of the target than the truth] (Fig. 2).

    ``direction``:

    * ``"above"``: the true rate is target + deviation (target missed) and the release
      T* = T + Z meets it, T* ≤ threshold: P[Z ≤ ⌊threshold⌋ − T];
    * ``"below"``: the true rate is target − deviation and the release misses it,
      T* > threshold: P[Z ≥ ⌊threshold⌋ + 1 − T];
    * ``"worst"``: the larger of the two (a two-sided reading: the agency does not know on
      which side the truth lies).

    Because counts are integers the two directions differ (for Durham, a deviation of 0.25
    is 1 death above the threshold but 2 deaths below it). Vectorised over ε and deviation.

    Used in notebooks 07 and 10.

    Parameters
    ----------
    %(epsilon)s
    deviation : float or array_like
        How far the true rate lies from the target, deaths per 1,000, > 0.
    direction : {'above', 'below', 'worst'}
        Which side the truth lies on (see above).
    %(births_target)s

    %(returns_float_or_array)s

    %(raises)s

    References
    ----------
    Kazan & Reiter, "Prior-itizing privacy" (NeurIPS 2024): Example 3 and Figure 2 (top panel).

    Examples
    --------
    >>> round(durham_switch_probability(1.0, 0.25, 'above'), 6)
    0.268941
    """
    eps = check_positive("epsilon", epsilon)
    above, below, threshold = durham_true_counts(deviation, births, target)
    cut = np.floor(threshold)
    b = geometric_scale(eps)  # Δ = 1: a count
    p_above = geometric_cdf(cut - above, b)
    p_below = geometric_sf(cut - below, b)  # P[Z ≥ cut + 1 − below], not 1 − cdf
    if direction == "above":
        return as_output(p_above)
    if direction == "below":
        return as_output(p_below)
    if direction == "worst":
        return as_output(np.maximum(p_above, p_below))
    raise ValueError(f"direction must be 'above', 'below' or 'worst'; got {direction!r}")


# this module's own shared docstring sections (the placeholders above)
_SECTIONS = {
    "births_target": """\
births : int, keyword-only
    Live births (Durham, 2020: 4,012).
target : float, keyword-only
    The target rate, deaths per 1,000 live births (6.0).""",
}

fill_docstrings(globals(), _SECTIONS)
