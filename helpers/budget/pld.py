"""Privacy-loss distributions of composed releases, by Google's ``dp_accounting``.

:func:`pld_delta` and :func:`pld_epsilon` compose the releases' distributions (each
mechanism class builds its own, :meth:`helpers.mechanisms.AdditiveNoise.pld`): identical
releases self-composed, distinct ones in a balanced tree, near-identical ones merged on
request.

Part of :mod:`helpers.budget`, which re-exports its public names; its docstring states the
rounding toward privacy every number here keeps.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from .._docstrings import fill_docstrings
from .._validation import (
    as_output,
    check_discretization,
    check_nonnegative,
    check_positive,
    check_real,
)
from ..mechanisms import MECHANISM_CLASSES, AdditiveNoise, PrivacyLoss
from ..mechanisms.composition import composed_pld, epsilon_for_delta
from ._common import (
    _MAX_PLD_CELLS,
    _MAX_PLD_GROUPS,
    _SECTIONS,
    MAX_MAGNITUDE,
    MAX_TIMES,
    _check_open_delta,
    _in_range,
)

__all__ = [
    "PLD_MECHANISMS",
    "pld_delta",
    "pld_epsilon",
]


# --- privacy-loss distributions (dp_accounting) --------------------------------------------


#: Mechanisms whose privacy-loss distributions :func:`pld_delta` composes, by name (the
#: registry at import; every mechanism class builds its own, :meth:`AdditiveNoise.pld`).
PLD_MECHANISMS = tuple(MECHANISM_CLASSES)


def _pld_releases(mechanism, noise, sensitivity) -> tuple:
    """(template, noise, sensitivity, objects): the releases as the caller gave them.

    ``mechanism`` is a name with its ``noise`` (and ``sensitivity``; arrays broadcast later):
    the template is then the class at (1, 1), and each release is that template with its own
    noise and Δ. One additive-noise object whose noise or Δ is an array is the same with the
    object as template (every other field it holds is kept). Any other object, or a sequence
    of objects, is one release each, taken as it is (``objects``).
    """
    if isinstance(mechanism, PrivacyLoss):
        as_mechanism_beside(mechanism, noise, sensitivity)
        if isinstance(mechanism, AdditiveNoise) and not mechanism.is_single():
            return mechanism, mechanism.noise, mechanism.sensitivity, None
        return None, None, None, [mechanism]
    if (
        isinstance(mechanism, (list, tuple))
        and mechanism
        and all(isinstance(one, PrivacyLoss) for one in mechanism)
    ):
        for i, one in enumerate(mechanism):
            as_mechanism_beside(one, noise, sensitivity)
            if not one.is_single():
                raise ValueError(
                    f"mechanism[{i}] must hold one value of each parameter in a list of "
                    f"mechanisms; got {one!r}"
                )
        return None, None, None, list(mechanism)
    if not (isinstance(mechanism, str) and mechanism in MECHANISM_CLASSES):
        shown = repr(mechanism)
        shown = shown if len(shown) <= 80 else shown[:77] + "..."
        raise ValueError(
            f"mechanism must be one of {tuple(MECHANISM_CLASSES)}, a mechanism object of "
            f"helpers.mechanisms or a list of them; got {shown}"
        )
    cls = MECHANISM_CLASSES[mechanism]
    return cls(**{cls.parameter: 1.0}, sensitivity=1), noise, sensitivity, None


def as_mechanism_beside(one, noise, sensitivity) -> None:
    """Refuse a noise or Δ given beside an object (the object carries its own)."""
    if noise is not None or not (isinstance(sensitivity, (int, float)) and sensitivity == 1.0):
        raise ValueError(
            "give noise and sensitivity to the mechanism object itself, not beside it; "
            f"got noise = {noise!r}, sensitivity = {sensitivity!r} with {one!r}"
        )


def _check_times(times, n: int) -> list:
    times_a = check_real("times", times)
    try:
        times_a = np.broadcast_to(times_a, (n,)) if times_a.ndim <= 1 else None
    except ValueError:
        times_a = None
    if times_a is None:
        raise ValueError(
            f"times must broadcast with the mechanisms: one integer or one per mechanism ({n}); "
            f"got shape {np.shape(times)}"
        )
    bad = (times_a < 1) | (times_a > MAX_TIMES) | (times_a != np.round(times_a))
    if np.any(bad):
        raise ValueError(
            f"times must be integers in 1..{MAX_TIMES:,}; got {times_a[bad].ravel()[:3]!r}"
        )
    return [int(t) for t in times_a]


def _additive_releases(template, noise, sensitivity, times) -> tuple:
    """(objects, times): one object per (noise, Δ, times) entry, each the template with its
    noise and Δ replaced (validated as the string API always was)."""
    noise_a = check_positive("noise", noise)
    sens_a = check_positive("sensitivity", sensitivity)
    times_a = check_real("times", times)
    try:
        noise_a, sens_a, times_a = np.broadcast_arrays(noise_a, sens_a, times_a)
    except ValueError:
        raise ValueError(
            f"noise, sensitivity and times must broadcast to one list of releases; got shapes "
            f"{np.shape(noise)}, {np.shape(sensitivity)}, {np.shape(times)}"
        ) from None
    if noise_a.ndim > 1:
        raise ValueError(f"noise must be a number or a 1-D sequence; got shape {noise_a.shape}")
    if noise_a.size == 0:
        raise ValueError(
            "noise, sensitivity and times must describe at least one release; got shapes "
            f"{np.shape(noise)}, {np.shape(sensitivity)}, {np.shape(times)}"
        )
    for name, values in (("noise", noise_a), ("sensitivity", sens_a)):
        bad = ~_in_range(values)
        if np.any(bad):
            raise ValueError(
                f"{name} must lie in [{1 / MAX_MAGNITUDE:g}, {MAX_MAGNITUDE:g}]; got "
                f"{values[bad].ravel()[:3]!r}"
            )
    if template.discrete:
        bad = (sens_a != np.round(sens_a)) | (sens_a > 10**6)
        if np.any(bad):
            raise ValueError(
                f"sensitivity must be a positive integer ≤ 10⁶ for the {template.label} "
                f"mechanism; got {sens_a[bad].ravel()[:3]!r}"
            )
    times_list = _check_times(times_a.ravel(), noise_a.size)
    pairs = dict.fromkeys(zip(noise_a.ravel().tolist(), sens_a.ravel().tolist(), strict=True))
    if len(pairs) > 100 * _MAX_PLD_GROUPS:
        raise ValueError(
            f"noise and sensitivity describe {len(pairs):,} distinct mechanisms; at most "
            f"{100 * _MAX_PLD_GROUPS:,} are taken in one call"
        )
    made = {
        (b, s): replace(
            template, **{template.parameter: b, "sensitivity": round(s) if template.discrete else s}
        )
        for b, s in pairs
    }
    objects = [
        made[(b, s)] for b, s in zip(noise_a.ravel().tolist(), sens_a.ravel().tolist(), strict=True)
    ]
    return objects, times_list


def _pld_releases_of(mechanism, noise, sensitivity, times) -> tuple:
    """(objects, times): every release as an object, validated (the string API builds each from
    its class once; objects are taken as they are)."""
    template, noise, sensitivity, objects = _pld_releases(mechanism, noise, sensitivity)
    if objects is None:
        return _additive_releases(template, noise, sensitivity, times)
    return objects, _check_times(times, len(objects))


def _run(function, mechanism, noise, sensitivity, times, discretization, merge, *first):
    """``function`` of the pipeline (:func:`composed_pld`, :func:`epsilon_for_delta`) on the
    releases as given, its messages in this module's words."""
    objects, runs = _pld_releases_of(mechanism, noise, sensitivity, times)
    h = check_discretization(discretization)
    try:
        return function(
            objects,
            *first,
            times=runs,
            merge=merge,  # checked by the pipeline (releases), one rule for every caller
            discretization=h,
            max_cells=_MAX_PLD_CELLS,
        )
    except ValueError as error:
        raise ValueError(_budget_words(str(error))) from None


def _pld(mechanism, noise, sensitivity, times, discretization, merge=0.0):
    return _run(composed_pld, mechanism, noise, sensitivity, times, discretization, merge)


def _budget_words(message: str) -> str:
    """The pipeline's messages in this function's words (its parameters are noise and times)."""
    message = message.replace("mechanisms hold", "noise and sensitivity describe")
    return message.replace("or fewer releases", "or fewer times")


def pld_delta(
    epsilon, mechanism, noise=None, *, sensitivity=1.0, times=1, discretization=1e-4, merge=0.0
):
    """δ(ε) of composed releases (Laplace, Gaussian, ...), from their privacy-loss distributions.

    Each release adds noise of scale ``noise`` (b for Laplace and the two-sided geometric,
    σ for the Gaussian, as in :mod:`helpers.plrv`) to a query of sensitivity ``sensitivity``
    and is run ``times`` times; ``noise``, ``sensitivity`` and ``times`` may be 1-D sequences
    (one entry per kind of release), broadcast together. A mechanism object of
    :mod:`helpers.mechanisms` (``Laplace(b, sensitivity=Δ)``, ``Gaussian(σ)``,
    ``TwoSidedGeometric(b)``, ``DiscreteGaussian(σ)``) carries its noise and Δ instead, and a
    list of them is one release each (of any classes; ``times`` broadcast with the list).
    Each class builds its own privacy-loss distribution for dp_accounting
    (:meth:`helpers.mechanisms.AdditiveNoise.pld`: Google's ``dp_accounting`` constructor,
    connect-the-dots for Laplace and Gaussian, or a generic one from the class's cdf),
    identical releases are self-composed (FFT powers), the distinct ones composed in a
    balanced tree, and δ(ε) = E[max(0, 1 − e^{ε − L})] read off the result. At most 2,000
    distinct releases are built in one call (each takes milliseconds): use ``merge`` beyond.

    Pessimistic throughout: ``pessimistic_estimate=True`` rounds every privacy loss *up* to a
    multiple of ``discretization`` (so δ is an upper bound), the tail mass cut off in
    composition (at most 10⁻¹⁵) is counted as an infinite loss, and a geometric's
    a = 1/b is rounded up. For additive noise the neighbour pair is (f(D), f(D) + Δ) whatever
    the relation (Δ is the course's change-one-record sensitivity); any other mechanism object
    (randomized response, the exponential mechanism, a subsampled mechanism) is read on its
    own two laws, in both orders of the neighbours, and δ is the larger.

    Used in notebook 11.

    Parameters
    ----------
    epsilon : float or array_like
        ε ≥ 0 at which to read δ (an array gives an array; above 700 read at 700).
    mechanism : PrivacyLoss, list of PrivacyLoss, or a name of MECHANISM_CLASSES
        The mechanism(s), each taken as it is (any class of :mod:`helpers.mechanisms`), or the
        name of the noise distribution ("laplace", "gaussian", "geometric",
        "discrete_gaussian", ...).
    noise : float or array_like, optional
        With a name: b or σ in [1e-150, 1e150]. Omitted with objects.
    sensitivity : float or array_like, keyword-only
        With a name: Δ in [1e-150, 1e150] (a positive integer ≤ 10⁶ for integer noise);
        objects carry their own (then it stays at 1).
    times : int or array_like, keyword-only
        How many times each release runs (1 to :data:`MAX_TIMES`).
    discretization : float, keyword-only
        The PLD's grid step in [1e-6, 0.1] (dp_accounting's ``value_discretization_interval``);
        10⁻⁴ by default.
    merge : float, keyword-only
        In [0, 0.1]. With merge > 0 each release's Δ/b or Δ/σ (scale-free noise; for integer
        noise 1/b or 1/σ at its Δ) is first rounded *up* onto the grid (1 + merge)^j, so
        releases within that factor of each
        other compose as one group: each is treated as a little less noisy than it is (still
        an upper bound on δ), and thousands of distinct releases (an allocation's) become a
        few hundred groups. 0 (the default) merges only identical releases.

    Returns
    -------
    float or numpy.ndarray
        δ, a Python float for a scalar ``epsilon``.

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type, or the work (distinct
        releases, the PLD's width) exceeds the stated budget.

    References
    ----------
    Meiser & Mohammadi, "Tight on budget?" (CCS 2018); Koskela, Jälkö & Honkela (AISTATS
    2020); Doroshenko, Ghazi, Kamath, Kumar & Manurangsi, "Connect the dots" (PETS 2022);
    Google's dp_accounting (``dp_accounting.pld``).

    Examples
    --------
    >>> d = pld_delta(1.0, "gaussian", 3.0, times=4)  # as one Gaussian of σ = 1.5: 0.0309458
    >>> round(d, 7)
    0.0309458
    >>> pld_delta(1.0, Gaussian(3.0), times=4) == d  # the object form
    True
    """
    eps = check_nonnegative("epsilon", epsilon)
    pld = _pld(mechanism, noise, sensitivity, times, discretization, merge)
    # δ(ε) does not increase: read above 700 at 700 (e^ε finite), a value never below the truth
    points = np.minimum(eps, 700.0).ravel()
    if points.size <= 200:  # dp_accounting's scalar path is vectorised over the PLD; its list
        # path loops over the PLD's entries in Python (0.9 s for 1,000 Laplace releases)
        values = np.array([float(pld.get_delta_for_epsilon(float(e))) for e in points])
    else:
        values = np.asarray(pld.get_delta_for_epsilon(points.tolist()), dtype=float)
    return as_output(np.clip(values, 0.0, 1.0).reshape(eps.shape))


def pld_epsilon(
    delta, mechanism, noise=None, *, sensitivity=1.0, times=1, discretization=1e-4, merge=0.0
) -> float:
    """The smallest ε with δ(ε) ≤ ``delta`` for composed releases (see :func:`pld_delta`).

    dp_accounting's ``get_epsilon_for_delta`` on the same pessimistic PLD, then raised (in
    steps from 2⁻⁴⁰ relative, doubling) until that PLD's δ at it is ≤ ``delta``: dp_accounting's
    inverse can return an ε a hair too small (δ 1.00000008e-10 read at its ε for 1e-10). An
    upper bound on the exact ε.

    Used in notebook 11.

    Parameters
    ----------
    delta : float
        δ in (0, 1).
    mechanism, noise, sensitivity, times, discretization, merge
        As in :func:`pld_delta`.

    Returns
    -------
    float
        ε (``inf`` if even an infinite ε leaves more than δ: the tail counted as infinite loss).

    Raises
    ------
    ValueError
        If an argument is out of range, NaN or of the wrong type, or the work exceeds the
        stated budget.

    References
    ----------
    As :func:`pld_delta`.

    Examples
    --------
    >>> round(pld_epsilon(1e-6, "laplace", 10.0, times=100), 2)  # KOV: 4.77, advanced: 6.31
    4.69
    >>> round(pld_epsilon(1e-6, [Laplace(10.0), Gaussian(8.0)], times=50), 2)  # mixed
    5.55
    """
    d = _check_open_delta(delta)
    return _run(epsilon_for_delta, mechanism, noise, sensitivity, times, discretization, merge, d)


fill_docstrings(globals(), _SECTIONS)
