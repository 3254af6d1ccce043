"""The mechanisms of the course as noise distributions: one class per mechanism, registered.

* Laplace(μ, b): density e^{-|x-μ|/b} / (2b). The Laplace mechanism adds it with b = Δf/ε.
* Gaussian(μ, σ): the Gaussian mechanism (approximate DP, notebook 08).
* Two-sided geometric ("discrete Laplace") with α = e^{-ε/Δ}: P[Z = z] = (1-α)/(1+α) · α^{|z|}
  on the integers. Kazan & Reiter release counts with it; its SD and its mass at zero
  (the chance the release is exact) are the utility numbers of their Tables 1 and 5.

Conventions: every noise distribution here is described by its scale (b for Laplace and the
two-sided geometric, σ for the Gaussian); ε and the sensitivity Δ enter through
``laplace_scale(ε, sensitivity=Δ)`` and ``geometric_scale(ε, sensitivity=Δ)``, both Δ/ε
(for the geometric, α = e^{−1/b} = e^{−ε/Δ}, Kazan & Reiter's Definition 1; scipy's
``dlaplace`` shape a = 1/b). :mod:`helpers.plrv` uses the same scales. Densities, CDFs and survival
functions delegate to ``scipy.stats`` (``laplace``, ``norm``, ``dlaplace``) where scipy is
exact; the geometric tails are computed in closed form because ``dlaplace.sf`` is 1 − cdf.

The mechanisms as objects (notebooks 08-10; :mod:`helpers.plrv`, :mod:`helpers.deployments`,
the PLRV figures and dashboard take them): one frozen class per mechanism, ``Laplace(b)``,
``Gaussian(σ)``, ``TwoSidedGeometric(b)`` (``sensitivity=Δ``; ``from_epsilon`` rounds toward
privacy), ``DiscreteGaussian(σ)`` (Canonne, Kamath & Steinke 2020: integer noise, exact
sampling; the 2020 US Census's noise), ``Staircase(b)`` (Geng & Viswanath 2016: the ε-DP noise
of least expected magnitude, in :mod:`helpers.mechanisms.staircase`), on the base :class:`AdditiveNoise` after dp-accounting's
``AdditiveNoisePrivacyLoss``: a mechanism supplies its noise (cdf, sf, log-cdf, log-density,
sampler) and the base writes the privacy loss, δ(ε) through the one hockey-stick formula
(``_numerics.log_hockey_stick``), the naive δ, the PLRV's quantiles and the binned pmfs. A
built-in mechanism overrides a step with its closed form where the generic one loses digits
(as scipy.stats distributions override ``_sf``); tests/helpers/mechanisms/test_mechanisms.py adds
a logistic mechanism in one class. Each class also knows what :mod:`helpers.budget` needs of
its noise: its privacy measure (pure ε or ρ-zCDP), the map between its scale and its budget,
its accuracy at a scale, whether it needs integer sensitivities, whether it is scale-free (so
merging releases is correct by construction) and its privacy-loss distribution for dp-accounting
(:meth:`AdditiveNoise.pld`). :func:`as_mechanism` turns the names of
:data:`MECHANISM_CLASSES` ("laplace", "gaussian", "geometric", "discrete_gaussian",
"staircase") into objects (the one place a name is looked up).

Beyond additive noise (every layer takes these as it takes the noises above): every
mechanism is a :class:`PrivacyLoss`, the pair of its output laws on neighbouring data sets in
both orders ("remove", "add"), with its exact δ, its rounded privacy-loss distribution
(:class:`LossPMF`) and its PLD for dp-accounting (:mod:`helpers.mechanisms.loss`);
:class:`RandomizedResponse` and :class:`ExponentialMechanism` state their laws as arrays
(:class:`FiniteOutputs`); :class:`Subsampled` runs any of them on a Poisson sample or a
sample without replacement. The one composition pipeline (:func:`releases`,
:func:`composed_pld`, :func:`composed_loss`, :func:`epsilon_for_delta`) is what
:mod:`helpers.budget` and :mod:`helpers.attack` call.

Every function returns a Python ``float`` for scalar input and an ndarray of the broadcast
shape otherwise. Sampling functions take ``rng``: an int seed or a
``numpy.random.Generator``, so every simulation in the notebooks is reproducible.
"""

from __future__ import annotations

from .base import (
    MAX_BINS,  # noqa: F401 (helpers.plrv's bound)
    AdditiveNoise,
    make_rng,
)
from .composition import (
    adjacencies,
    check_mechanisms,
    composed_loss,
    composed_pld,
    epsilon_for_delta,
    releases,
)
from .continuous import (
    Gaussian,
    Laplace,
    gaussian_cdf,
    gaussian_pdf,
    gaussian_sample,
    gaussian_sf,
    gaussian_sigma_for_delta,
    laplace_cdf,
    laplace_noise_sd,
    laplace_pdf,
    laplace_sample,
    laplace_scale,
    laplace_sf,
)
from .discrete import (
    DISCRETE_GAUSSIAN_MAX_SIGMA,
    DiscreteGaussian,
    TwoSidedGeometric,
    geometric_alpha,
    geometric_cdf,
    geometric_noise_sd,
    geometric_pmf,
    geometric_prob_exact,
    geometric_sample,
    geometric_scale,
    geometric_sf,
)
from .finite import ExponentialMechanism, RandomizedResponse
from .loss import ADJACENCIES, FiniteOutputs, LossPMF, PrivacyLoss
from .staircase import Staircase
from .subsampled import SAMPLINGS, Subsampled

__all__ = [
    "ADJACENCIES",
    "DISCRETE_GAUSSIAN_MAX_SIGMA",
    "MECHANISM_CLASSES",
    "SAMPLINGS",
    "AdditiveNoise",
    "DiscreteGaussian",
    "ExponentialMechanism",
    "FiniteOutputs",
    "Gaussian",
    "Laplace",
    "LossPMF",
    "PrivacyLoss",
    "RandomizedResponse",
    "Staircase",
    "Subsampled",
    "TwoSidedGeometric",
    "adjacencies",
    "as_mechanism",
    "check_mechanisms",
    "composed_loss",
    "composed_pld",
    "epsilon_for_delta",
    "gaussian_cdf",
    "gaussian_pdf",
    "gaussian_sample",
    "gaussian_sf",
    "gaussian_sigma_for_delta",
    "geometric_alpha",
    "geometric_cdf",
    "geometric_noise_sd",
    "geometric_pmf",
    "geometric_prob_exact",
    "geometric_sample",
    "geometric_scale",
    "geometric_sf",
    "laplace_cdf",
    "laplace_noise_sd",
    "laplace_pdf",
    "laplace_sample",
    "laplace_scale",
    "laplace_sf",
    "make_rng",
    "releases",
]


#: the mechanisms by the names the string API of helpers.plrv takes
MECHANISM_CLASSES: dict[str, type[AdditiveNoise]] = {
    cls.name: cls for cls in (Laplace, Gaussian, TwoSidedGeometric, DiscreteGaussian, Staircase)
}


def as_mechanism(mechanism, noise=None, *, sensitivity=1.0) -> AdditiveNoise:
    """A mechanism object from an object (returned as is) or a name and its noise parameter.

    ``mechanism`` is an :class:`AdditiveNoise` (then ``noise`` must be omitted and
    ``sensitivity`` left at 1: the object carries both) or a name of :data:`MECHANISM_CLASSES`
    ("laplace", "gaussian", "geometric", "discrete_gaussian") with ``noise`` its b or σ.
    Anything else is a ValueError, never a KeyError.

    Not called in a notebook; used by ``helpers.plotting.plrv``, ``helpers.plrv`` and ``helpers.widgets.plrv``.

    Parameters
    ----------
    mechanism : AdditiveNoise or str
        The mechanism, or its name in :data:`MECHANISM_CLASSES`.
    noise : float or array_like, optional
        b (laplace, geometric) or σ (gaussian, discrete_gaussian), > 0; only with a name.
    sensitivity : float, keyword-only
        Δ > 0 (a positive integer ≤ 10⁶ for integer noise); only with a name.

    Returns
    -------
    AdditiveNoise

    Raises
    ------
    ValueError
        For an unknown mechanism, a noise given with an object, or a bad parameter.

    References
    ----------
    dp-accounting, ``privacy_loss_mechanism.AdditiveNoisePrivacyLoss``.

    Examples
    --------
    >>> as_mechanism("laplace", 2.0)
    Laplace(scale=2.0, sensitivity=1.0)
    """
    if isinstance(mechanism, AdditiveNoise):
        if noise is not None or not (isinstance(sensitivity, (int, float)) and sensitivity == 1.0):
            raise ValueError(
                "give noise and sensitivity to the mechanism object itself, not beside it; "
                f"got noise = {noise!r}, sensitivity = {sensitivity!r} with {mechanism!r}"
            )
        return mechanism
    if not isinstance(mechanism, str) or mechanism not in MECHANISM_CLASSES:
        raise ValueError(
            f"mechanism must be one of {tuple(MECHANISM_CLASSES)} or an AdditiveNoise object "
            f"(helpers.mechanisms); got {mechanism!r}"
        )
    return MECHANISM_CLASSES[mechanism](noise, sensitivity=sensitivity)
