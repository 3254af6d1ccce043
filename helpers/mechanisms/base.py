"""The base of every mechanism: :class:`AdditiveNoise` and the machinery it writes once.

A mechanism supplies its noise (cdf, sf, log-cdf, log-density, sampler); the base writes the
privacy loss, its bound and inverse, δ(ε) through the one hockey-stick formula
(``_numerics.log_hockey_stick``), the naive δ, the PLRV's quantiles, the binned pmfs, the
accuracy at a scale, the map between scale and budget and the privacy-loss distribution for
dp-accounting (generic, from the class's own cdf). Also here: :func:`make_rng`, the seeding
every sampler shares, and the docstring sections of the package (``_SECTIONS``).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import lru_cache
from typing import ClassVar

import numpy as np
from scipy.special import ndtr

from .._docstrings import SECTIONS, fill_docstrings, fill_object
from .._numerics import (
    bisect_increasing,
    decimals_up,
    gallop_below,
    log_hockey_stick,
    nudge_until,
    ratio_up,
    sqrt_down,
    square_up,
)
from .._validation import (
    as_output,
    check_discretization,
    check_finite_scalar,
    check_int_range,
    check_nonnegative,
    check_open_unit,
    check_positive,
    check_real,
)
from .loss import PLD_TAIL, LossPMF, PrivacyLoss, check_adjacency, check_at

__all__ = ["AdditiveNoise", "make_rng"]  # and MAX_BINS, outside the package's __all__ as before


def make_rng(rng: int | np.random.Generator | None) -> np.random.Generator:
    """A Generator from a seed (or the Generator itself). ``None`` is refused: be seeded.

    Used in notebooks 10 and 11.

    Parameters
    ----------
    rng : int or numpy.random.Generator
        Seed or generator (None is refused: simulations are seeded).

    Returns
    -------
    numpy.random.Generator
        ``rng`` itself if it is a Generator, else ``numpy.random.default_rng(rng)``.

    %(raises)s

    %(references)s

    Examples
    --------
    >>> int(make_rng(0).integers(10)) == int(make_rng(0).integers(10))
    True
    """
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or isinstance(rng, bool) or not isinstance(rng, (int, np.integer)):
        raise ValueError(f"rng must be an int seed or a numpy Generator; got {rng!r}")
    return np.random.default_rng(int(rng))


def _check_integer_sensitivity(sensitivity, label: str = "two-sided geometric") -> int:
    """Δ of a mechanism on the integers: a positive integer ≤ 10⁶ (the message names it)."""
    value = check_finite_scalar("sensitivity", sensitivity)
    if value <= 0 or value != round(value) or value > 10**6:
        raise ValueError(
            f"sensitivity must be a positive integer up to 10**6 for the {label} "
            f"mechanism (it lives on the integers); got {sensitivity!r}"
        )
    return round(value)


# (dp_accounting/pld/privacy_loss_mechanism.py): the base class writes the privacy loss,
# δ(ε), the naive δ, the PLRV's upper quantiles and the binned pmfs once, from the noise's
# cdf, sf, log-cdf and log-density; a mechanism supplies its noise. Where the generic route
# loses digits a mechanism overrides one private step with its closed form, as a
# scipy.stats distribution overrides ``_sf`` (the Gaussian's δ starts from the same
# hockey-stick formula and switches to two cancellation-free forms where it cancels). The
# functions of helpers.plrv (notebook 08) and the figures and dashboards take these objects.

# most bins (or integer outputs) a discretisation builds
MAX_BINS = 5_000_000


_PLD_TAIL = PLD_TAIL  # the tail mass a privacy-loss distribution may cut off
_TINY_NOISE = 2.0**-900  # a floor for budgets and noise (far below anything meaningful)


def _grid_up(x, step: float) -> np.ndarray:
    """Each x > 0 rounded up onto the grid (1 + step)^j (equal j, equal value)."""
    x = np.asarray(x, dtype=float)
    log_base = math.log1p(step)
    j = np.ceil(np.log(x) / log_base)
    value = np.exp(j * log_base)
    j = np.where(value < x, j + 1, j)
    return np.exp(j * log_base)


@lru_cache(maxsize=4096)
def _discrete_accuracy_noise(cls, k: float, coverage: float, sensitivity: float) -> float:
    """:meth:`AdditiveNoise.accuracy_noise` of integer noise at one (⌊k⌋, c, Δ), remembered (the
    allocation's searches ask for the same few integers again and again)."""
    return float(cls._accuracy_noise_search(np.array(k), np.array(coverage), np.array(sensitivity)))


def _integer_quantile(excess, noise) -> np.ndarray:
    """The least integer k with excess(k) ≥ 0, for excess non-decreasing in k (vectorised).

    Galloping out from 0 by steps of about the noise parameter, then bisection on integers.
    """
    noise = np.asarray(noise, dtype=float)
    step = np.maximum(np.ceil(np.broadcast_to(noise, np.shape(excess(0.0))) * 4), 1.0)
    high = np.zeros(step.shape)
    for _ in range(2100):  # up until excess(high) ≥ 0
        short = np.asarray(excess(high)) < 0
        if not np.any(short):
            break
        high = np.where(short, high + step, high)
        step = np.where(short, step * 2, step)
    low = high - 1
    step = np.maximum(np.ceil(np.broadcast_to(noise, high.shape) * 4), 1.0)
    for _ in range(2100):  # down until excess(low) < 0
        met = np.asarray(excess(low)) >= 0
        if not np.any(met):
            break
        high = np.where(met, low, high)
        low = np.where(met, low - step, low)
        step = np.where(met, step * 2, step)
    while np.any(high - low > 1):  # excess(low) < 0 ≤ excess(high)
        mid = np.floor((low + high) / 2)
        met = np.asarray(excess(mid)) >= 0
        high, low = np.where(met, mid, high), np.where(met, low, mid)
    return high


@lru_cache(maxsize=256)
def _family_of(cls: type, fixed: tuple) -> type:
    """The subclass of ``cls`` whose instances hold ``fixed`` (name, value) pairs."""
    shown = ", ".join(f"{name}={value!r}" for name, value in fixed)
    values = dict(fixed)
    made = cls.__init__

    def __init__(self, *args, **kwargs):  # every instance holds the fixed fields
        made(self, *args, **{**values, **kwargs})

    return type(
        cls.__name__,
        (cls,),
        {
            "_fixed": values,
            "__init__": __init__,
            "__module__": cls.__module__,
            "__qualname__": f"{cls.__qualname__}[{shown}]",
        },
    )


@dataclass(frozen=True, kw_only=True, repr=False)
class AdditiveNoise(PrivacyLoss, ABC):
    """A(D) = f(D) + Z for symmetric noise Z: A(D₁) = loc + Z against A(D₂) = loc + Δ + Z.

    The privacy loss L(o) = ln(p_{A(D₁)}(o)/p_{A(D₂)}(o)) falls as o grows, so L > ε exactly
    on the outputs below a threshold x_ε (:meth:`inverse_privacy_loss`), and

        δ₂(ε) = P[Z < x_ε] − e^ε·P[Z < x_ε − Δ]   (the hockey-stick divergence),
        δ₁(ε) = P[Z < x_ε]                         (the naive δ, P[L > ε]).

    A subclass holds its noise parameter (a dataclass field named by ``parameter``) and
    supplies :meth:`cdf`, :meth:`sf`, :meth:`logcdf`, :meth:`logpdf` and :meth:`sample` of Z
    (and :meth:`from_epsilon`); it states its ``name``, ``label``, ``opendp`` and
    :meth:`loss_bound` (no defaults: forgetting one fails at class creation or when the
    class is made) and lists the steps of a piecewise density in :meth:`breakpoints`;
    everything else is written here once. Parameters are
    validated when the object is made (a ValueError naming the field); an array parameter
    makes every method broadcast over it, as a frozen ``scipy.stats`` distribution does.

    Used by notebook 08 (through :mod:`helpers.plrv`) and by :mod:`helpers.deployments`.
    """

    sensitivity: float = 1.0

    #: symmetric noise: adding and removing the record give one PLD (:class:`PrivacyLoss`)
    symmetric: ClassVar[bool] = True

    #: the name the string API uses ("laplace", ...), a label for figures, the field that
    #: holds the noise parameter and its symbol; whether Z lives on the integers
    name: ClassVar[str]
    label: ClassVar[str]
    parameter: ClassVar[str] = "scale"
    symbol: ClassVar[str] = "b"
    #: Z lives on the integers, and so must every sensitivity (checked, naming the class)
    discrete: ClassVar[bool] = False
    #: the privacy measure its budget is counted in: "epsilon" (pure ε-DP, the ε's add) or
    #: "zcdp" (ρ-zCDP, the ρ's add); :mod:`helpers.budget` keys composition by it
    measure: ClassVar[str] = "epsilon"
    #: the privacy loss depends on Δ/noise only (a location-scale family on ℝ): merging
    #: releases may then rescale them to noise 1 and sensitivity Δ/noise. Otherwise merging
    #: lowers the noise at the same Δ, which needs δ(ε) to fall as the noise grows
    scale_free: ClassVar[bool] = False
    #: ρ-zCDP of this noise is exactly μ-Gaussian DP with μ = √(2ρ) (the continuous Gaussian
    #: only): the power of a test between neighbours is then read on the Gaussian trade-off curve
    gaussian_dp: ClassVar[bool] = False
    #: OpenDP's noise that *is* this mechanism, or None where OpenDP has none. Declared by every
    #: class (no default): "laplace" (OpenDP's Laplace: continuous on a float column, the
    #: discrete Laplace, i.e. two-sided geometric, on an integer column) or "gaussian" (likewise
    #: continuous or discrete). The release (:mod:`helpers.release`) runs exactly this noise, on
    #: the domain ``discrete`` names, and refuses a class whose counterpart is None, by name.
    opendp: ClassVar[str | None]

    #: what every public subclass must state itself (no default: forgetting one fails at
    #: class creation, naming it), besides :meth:`loss_bound` (abstract)
    _DECLARED: ClassVar[tuple[str, ...]] = ("name", "label", "opendp")

    def __init_subclass__(cls, **kwargs) -> None:
        super().__init_subclass__(**kwargs)
        # its docstrings filled now, wherever in its module the class is written
        fill_object(cls, {**SECTIONS, **_SECTIONS})
        if cls.__name__.startswith("_"):  # a private mixin or partial base
            return
        missing = [
            attr for attr in cls._DECLARED if not hasattr(cls, attr) or getattr(cls, attr) == ""
        ]
        if missing:
            raise TypeError(
                f"{cls.__name__} must declare {', '.join(missing)} as class attributes "
                "(name: its key in MECHANISM_CLASSES; label: words for figures; opendp: OpenDP's "
                "noise that is this mechanism, 'laplace' or 'gaussian', or None where OpenDP has "
                "none); see CONTRIBUTING.md, 'Adding a mechanism'"
            )
        if cls.opendp not in (None, "laplace", "gaussian"):
            raise TypeError(
                f"{cls.__name__}.opendp must be 'laplace', 'gaussian' or None; got {cls.opendp!r}"
            )

    def __post_init__(self) -> None:
        value = getattr(self, self.parameter)
        object.__setattr__(self, self.parameter, as_output(check_positive(self.parameter, value)))
        object.__setattr__(self, "sensitivity", self._checked_sensitivity(self.sensitivity))

    def _checked_sensitivity(self, sensitivity):
        if self.discrete:
            return _check_integer_sensitivity(sensitivity, self.label)
        return as_output(check_positive("sensitivity", sensitivity))

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.parameter}={self.noise!r}, sensitivity={self.sensitivity!r})"

    @property
    def noise(self):
        """The noise parameter (b or σ), whatever the field is called."""
        return getattr(self, self.parameter)

    def noise_text(self) -> str:
        """The noise in a few words for a figure's title ("b = 0.91"; σ² for a Gaussian)."""
        return f"{self.symbol} = {self.noise:.3g}"

    def text(self) -> str:
        """The mechanism in a few words ("Laplace, b = 0.91")."""
        return f"{self.label}, {self.symbol} = {self.noise:.3g}"

    def loss_text(self) -> str:
        """What bounds the privacy loss, in a sentence (for a dashboard's readout)."""
        bound = float(self.loss_bound())
        if math.isinf(bound):
            return "L is unbounded, so δ₂ > 0 for every ε"
        shown = decimals_up(bound, 4)  # a risk: rounded up, never to nearest
        return f"L never exceeds {shown}: δ₁ = δ₂ = 0 from ε = {shown} on"

    # the noise Z, centred at 0: what a subclass supplies

    @classmethod
    @abstractmethod
    def from_epsilon(cls, epsilon, *args, sensitivity=1.0) -> AdditiveNoise:
        """The mechanism with the least noise that meets the privacy target."""

    @abstractmethod
    def cdf(self, x):
        """P[Z ≤ x]."""

    @abstractmethod
    def sf(self, x):
        """P[Z > x], without 1 − cdf's cancellation."""

    @abstractmethod
    def logcdf(self, x):
        """ln P[Z ≤ x], finite far into the lower tail."""

    @abstractmethod
    def logpdf(self, x):
        """ln of the density (of the pmf for a discrete Z)."""

    @abstractmethod
    def sample(self, size=None, *, rng):
        """Draws of Z (``size`` gives the shape), seeded by ``rng``."""

    def logsf(self, x):
        """ln P[Z > x] = ln P[Z < −x] (Z symmetric and continuous)."""
        return self.logcdf(-check_real("x", x))

    def pdf(self, x):
        """The density (the pmf for a discrete Z)."""
        return as_output(np.exp(self.logpdf(x)))

    def breakpoints(self, low: float, high: float) -> np.ndarray:
        """The sorted points in [low, high] where the density of Z jumps or has a kink.

        None for a smooth density (the default); a piecewise density lists its steps (the
        staircase: every multiple of Δ and of Δ shifted by γΔ). Quadrature over the density
        splits its range there (the battery's brute-force checks do), so a piecewise noise
        is integrated exactly; the generic :meth:`noise_variance` assumes a smooth density
        and refuses a class that lists any.
        """
        return np.empty(0)

    def ppf(self, u):
        """The u-quantile of Z, by bisection on the cdf (a subclass may give a closed form)."""
        u = check_open_unit("u", u)
        if self.discrete:
            raise NotImplementedError(f"{type(self).__name__} gives no ppf")
        reach = np.array(np.broadcast_arrays(np.asarray(self.noise, dtype=float), u)[0])
        largest = np.finfo(float).max
        for _ in range(2100):  # gallop until cdf(−reach) < u < cdf(reach)
            ok = (np.asarray(self.cdf(-reach)) < u) & (np.asarray(self.cdf(reach)) > u)
            if np.all(ok | (reach >= largest)):
                break
            with np.errstate(over="ignore"):
                reach = np.where(ok, reach, np.minimum(2 * reach, largest))
        return as_output(bisect_increasing(lambda x: self.cdf(x) - u, -reach, reach))

    # the privacy loss and δ, written once

    def privacy_loss(self, o, *, loc=0.0):
        """L(o) = ln(p(o − loc)/p(o − loc − Δ)): the loss of output o (A(D₁) centred at loc).

        Examples
        --------
        >>> Laplace(1.0).privacy_loss(999.0, loc=1000.0)
        1.0
        """
        o = check_real("o", o)
        loc = check_real("loc", loc)
        return as_output(self._loss(o, loc))

    def _loss(self, o: np.ndarray, loc: np.ndarray) -> np.ndarray:
        x = o - loc
        with np.errstate(invalid="ignore"):
            return np.asarray(self.logpdf(x) - self.logpdf(x - self.sensitivity))

    @abstractmethod
    def loss_bound(self):
        """sup L, the mechanism's ε as a pure-DP mechanism: δ₁ = δ₂ = 0 from it on.

        Every class states it (inf where L is unbounded, as for Gaussian noise): the base
        does not guess, since the dashboards' sentence and the PLD's span read it, and the
        battery checks it against δ(ε) (δ > 0 below it, δ = 0 at and above it).
        """

    def inverse_privacy_loss(self, epsilon):
        """x_ε: L(o) > ε exactly for o − loc < x_ε (−inf where no output's loss exceeds ε).

        By bisection on ε − L, which rises with the output: a subclass with a closed form
        overrides it.
        """
        eps = check_nonnegative("epsilon", epsilon)
        return as_output(self._threshold(eps))

    def _threshold(self, eps: np.ndarray) -> np.ndarray:
        noise, d = np.asarray(self.noise, dtype=float), np.asarray(self.sensitivity, dtype=float)
        eps, noise, d = np.broadcast_arrays(eps, noise, d)
        zero = np.zeros(eps.shape)

        def gap(x):
            return eps - self._loss(x, zero)

        # L(Δ/2) = 0 ≤ ε for symmetric noise: the upper end; the lower one gallops down
        high = 0.5 * d
        low, found = gallop_below(gap, high - noise - d, high)
        # where no output's loss exceeds ε the bracket is moot (the answer is −inf)
        x = bisect_increasing(gap, np.where(found, low, high - 1.0), high)
        return np.where(found, x, -np.inf)

    def delta(self, epsilon, *, adjacency=None):
        """Tight δ₂(ε) = E[max(0, 1 − e^{ε − L})]: the smallest δ for (ε, δ)-DP.

        The noise is symmetric, so both adjacencies ("remove", "add", or None for the larger)
        give this one value.

        Examples
        --------
        >>> round(Laplace(1.0).delta(0.5), 6)
        0.221199
        """
        check_adjacency(adjacency, allow_none=True)
        return as_output(self._delta(self._epsilon(epsilon)))

    def delta_naive(self, epsilon):
        """Naive δ₁(ε) = P[L > ε]: how often the loss exceeds ε.

        Examples
        --------
        >>> round(Laplace(1.0).delta_naive(0.5), 6)
        0.6106
        """
        return as_output(self._delta_naive(self._epsilon(epsilon)))

    def profile(self, epsilon):
        """(δ₁(ε), δ₂(ε)): the naive and the tight δ (the privacy profile is ε ↦ δ₂).

        Examples
        --------
        >>> tuple(round(d, 6) for d in Gaussian(3 ** 0.5).profile(math.log(3)))
        (0.053245, 0.010624)
        """
        return self.delta_naive(epsilon), self.delta(epsilon)

    def _epsilon(self, epsilon) -> np.ndarray:
        return check_nonnegative("epsilon", epsilon)

    def _delta(self, eps: np.ndarray) -> np.ndarray:
        """The hockey-stick divergence at the threshold, through the one log-space formula."""
        x = self._threshold(eps)
        with np.errstate(invalid="ignore"):
            log_p = np.asarray(self.logcdf(np.where(np.isneginf(x), 0.0, x)), dtype=float)
            log_q = np.asarray(
                self.logcdf(np.where(np.isneginf(x), 0.0, x - self.sensitivity)), dtype=float
            )
        log_p = np.where(np.isneginf(x), -np.inf, log_p)
        return np.exp(log_hockey_stick(eps, log_p, log_q))

    def _delta_naive(self, eps: np.ndarray) -> np.ndarray:
        x = self._threshold(eps)
        return np.where(np.isneginf(x), 0.0, self.cdf(np.where(np.isneginf(x), 0.0, x)))

    def upper_quantile(self, u, *, adjacency="remove"):
        """L at cumulative probability u, the outputs sorted by decreasing loss (symmetric
        noise: the same in both orders).

        Examples
        --------
        >>> round(Gaussian(1.0).upper_quantile(0.3), 6)
        1.024401
        """
        check_adjacency(adjacency)
        u = check_open_unit("u", u)
        return as_output(self._upper_quantile(u))

    def tail(self, epsilon, *, adjacency="remove"):
        """δ₁(ε) = P[L > ε], exact (:meth:`delta_naive`; the same in both orders)."""
        check_adjacency(adjacency)
        return self.delta_naive(epsilon)

    def _upper_quantile(self, u: np.ndarray) -> np.ndarray:
        # L falls as the output grows: the upper u-quantile of L is L at the u-quantile of Z
        return self._loss(np.asarray(self.ppf(u), dtype=float), np.zeros(np.shape(u)))

    def discretise(self, *, width=None, bins=20_001):
        """``(edges, p, q)``: the masses of A(D₁) and A(D₂) on bins, tails at both ends.

        ``edges`` has bins + 1 finite points over −width .. Δ + width (default 40 noise
        parameters); the two tails (−∞, first edge) and (last edge, ∞) are extra outcomes
        at the ends of p and q. A discrete Z is binned on its integers (exact pmfs).

        Examples
        --------
        >>> edges, p, q = Laplace(1.0).discretise(bins=101)
        >>> edges.size, p.size, round(float(p.sum()), 12)
        (102, 103, 1.0)
        """
        n = check_int_range("bins", bins, 2, MAX_BINS)
        if np.ndim(self.noise) or np.ndim(self.sensitivity):
            raise ValueError(
                f"discretise needs a single {self.parameter} and sensitivity; got shapes "
                f"{np.shape(self.noise)} and {np.shape(self.sensitivity)}"
            )
        noise, d = float(self.noise), float(self.sensitivity)
        half = 40 * noise if width is None else check_finite_scalar("width", width)
        if not math.isfinite(2 * half + d):  # the grid's span (its step overflowed: NaN edges)
            raise ValueError(
                f"noise = {noise!r} (or width) with sensitivity = {d!r} gives an output grid "
                "beyond the largest float; give a smaller noise or width"
            )
        if half <= 0:
            raise ValueError(f"width must be > 0 and finite; got {width!r}")
        return self._discretise(half, n, d)

    def _discretise(self, half: float, n: int, d):
        if self.discrete:
            d = int(d)
            n_outputs = 2 * math.ceil(half) + d + 1
            if n_outputs > MAX_BINS:
                raise ValueError(
                    f"the {self.label} mechanism over loc ± width needs {n_outputs} integer "
                    f"outputs (width = {half:g}, sensitivity = {d}); at most {MAX_BINS} are "
                    "allowed: give a smaller width (or noise)"
                )
            k = np.arange(-math.ceil(half), d + math.ceil(half) + 1)
            edges = np.concatenate([[k[0] - 0.5], k + 0.5])
            centres = (0.0, float(d))
        else:
            edges = np.linspace(-half, d + half, n + 1)
            centres = (0.0, d)

        def masses(loc):
            # left of the centre, differences of the CDF; right of it, of the survival
            # function: neither subtracts two numbers near 1, so no tail mass below 1e-16
            # is lost
            c, s = self.cdf(edges - loc), self.sf(edges - loc)
            inner = np.where(edges[1:] <= loc, np.diff(c), -np.diff(s))
            return np.concatenate([[c[0]], inner, [s[-1]]])

        return edges, masses(centres[0]), masses(centres[1])

    # the noise's accuracy at a scale (the allocation of helpers.budget asks the class)

    # Every accuracy method takes the sensitivity Δ the noise is drawn for: a noise whose
    # shape depends on Δ (the staircase's steps are Δ wide) is then right at every Δ. The
    # generic steps read the instance cls(noise, sensitivity=Δ); a closed form that ignores
    # Δ is checked by the battery against the instance's own sf at a Δ ≠ 1. A scale-free
    # class (its noise is the same at every Δ, which the battery verifies) may omit it.

    @classmethod
    def _accuracy_delta(cls, sensitivity) -> np.ndarray:
        """Δ for an accuracy method: as given, or 1 for a scale-free class when omitted."""
        if sensitivity is None:
            if cls.scale_free:
                return np.asarray(1.0)
            raise ValueError(
                f"sensitivity must be given for the {cls.label} mechanism (it is not scale-free: "
                "its noise may depend on Δ); got None"
            )
        return np.asarray(sensitivity, dtype=float)

    @classmethod
    def noise_coverage(cls, noise, k, *, sensitivity=None):
        """P(|Z| ≤ k) for noise parameter(s) ``noise`` at sensitivity Δ: 1 − 2·P[Z > k]."""
        noise, k, d = np.broadcast_arrays(
            np.asarray(noise, float), np.asarray(k, float), cls._accuracy_delta(sensitivity)
        )
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            tail = cls._per_delta(d, lambda at, dd: cls._at(noise[at], dd).logsf(k[at]))
            return -np.expm1(np.log(2.0) + tail)

    @classmethod
    def noise_reach(cls, noise, coverage, *, sensitivity=None):
        """The least k with P(|Z| ≤ k) ≥ c at Δ (an integer for a discrete Z): the ±k a noise
        reaches."""
        noise, c, d = np.broadcast_arrays(
            np.asarray(noise, float), np.asarray(coverage, float), cls._accuracy_delta(sensitivity)
        )
        if cls.discrete:
            return _integer_quantile(
                lambda k: cls.noise_coverage(noise, k, sensitivity=d) - c, noise
            )
        k = np.asarray(cls._at(noise, d).ppf((1 + c) / 2), dtype=float)
        # the quantile rounded up until it covers c (the ppf may land an ulp short)
        return nudge_until(
            k, lambda v: cls.noise_coverage(noise, v, sensitivity=d) >= c, toward_zero=False
        )

    @classmethod
    def noise_variance(cls, noise, *, sensitivity=None):
        """Var Z = E[Z²] = 4∫₀^∞ x·P[Z > x] dx (Gauss–Laguerre in x/noise, for a smooth
        density; a class overrides it with its closed form, a discrete or piecewise one must)."""
        s, d = np.broadcast_arrays(np.asarray(noise, dtype=float), cls._accuracy_delta(sensitivity))
        if cls.discrete or cls._kinked(float(np.max(s)), float(np.max(d))):
            raise NotImplementedError(f"{cls.__name__} must give its noise_variance")
        t, w = np.polynomial.laguerre.laggauss(80)
        x = s[..., None] * t
        with np.errstate(under="ignore", over="ignore", invalid="ignore"):
            tail = np.asarray(cls._at(s[..., None], d[..., None]).logsf(x), dtype=float)
            g = np.exp(t + tail) * t
        return 4 * s * s * np.sum(w * g, axis=-1)

    def mean_abs(self):
        """E|Z|, the expected magnitude of the noise: 2∫₀^∞ P[Z > x] dx (Gauss–Laguerre in
        x/noise for a smooth density), 2Σ_{k≥0} P[Z > k] for integer noise; a piecewise
        density's class gives its closed form.

        Examples
        --------
        >>> round(Gaussian(1.0).mean_abs(), 6)  # σ√(2/π)
        0.797885
        """
        s, d = np.broadcast_arrays(
            np.asarray(self.noise, dtype=float), np.asarray(self.sensitivity, dtype=float)
        )
        if self.discrete:
            reach = np.asarray(type(self).noise_reach(s, 1 - 1e-17, sensitivity=d))
            out = np.empty(s.shape)
            for i in np.ndindex(s.shape):
                k = np.arange(0.0, float(reach[i]) + 1)
                out[i] = 2 * math.fsum(np.asarray(self.sf(k), dtype=float).ravel().tolist())
            return as_output(out)
        if self._kinked(float(np.max(s)), float(np.max(d))):
            raise NotImplementedError(f"{type(self).__name__} must give its mean_abs")
        t, w = np.polynomial.laguerre.laggauss(80)
        with np.errstate(under="ignore", over="ignore", invalid="ignore"):
            tail = np.asarray(self.logsf(s[..., None] * t), dtype=float)
            return as_output(2 * s * np.sum(w * np.exp(t + tail), axis=-1))

    def coverage(self, k, *, at="worst"):
        """P[|A(x) − x| ≤ k] = P(|Z| ≤ k): the same at every true value x (``at`` is checked,
        and either reading is this one; :meth:`PrivacyLoss.coverage`)."""
        check_at(at)
        k = check_nonnegative("k", k)
        return as_output(type(self).noise_coverage(self.noise, k, sensitivity=self.sensitivity))

    def reach(self, coverage, *, at="worst"):
        """The least k with P(|Z| ≤ k) ≥ ``coverage``, at every true value
        (:meth:`PrivacyLoss.reach`)."""
        check_at(at)
        c = check_open_unit("coverage", coverage)
        return as_output(type(self).noise_reach(self.noise, c, sensitivity=self.sensitivity))

    @classmethod
    def _kinked(cls, noise: float, sensitivity: float) -> bool:
        """The density has a step or kink at some x > 0 (where the generic quadrature runs)."""
        probe = cls._at(noise, sensitivity)
        return bool(np.asarray(probe.breakpoints(np.finfo(float).tiny, 100 * noise)).size)

    @classmethod
    def accuracy_noise(cls, k, coverage, *, sensitivity=None):
        """The largest noise parameter with P(|Z| ≤ k) ≥ c at Δ, rounded down (the target holds).

        By bisection in log noise on the coverage, which falls as the noise grows; a class
        with a closed form overrides it.
        """
        k, c, d = np.broadcast_arrays(
            np.asarray(k, float), np.asarray(coverage, float), cls._accuracy_delta(sensitivity)
        )
        if cls.discrete:  # P(|Z| ≤ k) depends on ⌊k⌋ only: one search per distinct (⌊k⌋, c, Δ)
            rows = np.stack([np.floor(k).ravel(), c.ravel(), d.ravel()], axis=1)
            triples, where = np.unique(rows, axis=0, return_inverse=True)
            found = [_discrete_accuracy_noise(cls, *map(float, row)) for row in triples]
            return np.asarray(found, dtype=float)[where.ravel()].reshape(k.shape)
        return cls._accuracy_noise_search(k, c, d)

    @classmethod
    def _accuracy_noise_search(cls, k, c, d):
        def gap(log_noise):  # increasing in the noise: short of the target once positive
            return c - cls.noise_coverage(np.exp(log_noise), k, sensitivity=d)

        low, high = np.log(np.maximum(k, 1.0)) - 60.0, np.log(np.maximum(k, 1.0)) + 5.0
        log_noise = bisect_increasing(gap, np.full(k.shape, low), np.full(k.shape, high), "low")
        noise = np.exp(log_noise)
        return nudge_until(
            np.maximum(noise, _TINY_NOISE),
            lambda v: cls.noise_coverage(v, k, sensitivity=d) >= c,
            toward_zero=True,
        )

    @classmethod
    def budget_of(cls, sensitivity, noise):
        """The budget noise at sensitivity Δ spends, rounded up: ε = Δ/b (pure) or
        ρ = Δ²/(2σ²) (zCDP); a class whose map differs overrides this and :meth:`noise_for`."""
        ratio = ratio_up(sensitivity, noise)
        if cls.measure == "zcdp":
            return np.maximum(square_up(ratio) / 2, _TINY_NOISE)  # halving is exact
        return np.maximum(ratio, _TINY_NOISE)

    @classmethod
    def noise_for(cls, sensitivity, budget):
        """The least noise a budget allows at sensitivity Δ, rounded up (toward privacy)."""
        budget = np.maximum(np.asarray(budget, dtype=float), _TINY_NOISE)
        if cls.measure == "zcdp":
            return np.maximum(ratio_up(sensitivity, sqrt_down(2 * budget)), _TINY_NOISE)
        return np.maximum(ratio_up(sensitivity, budget), _TINY_NOISE)

    @classmethod
    def _at(cls, noise, sensitivity) -> AdditiveNoise:
        """The mechanism at noise parameter(s) ``noise`` and sensitivity Δ (its noise Z), with
        every other field at the class's fixed values (:meth:`family`; none by default).

        An integer noise takes one Δ per object: give it a single value (see :meth:`_per_delta`).
        """
        if cls.discrete:
            sensitivity = int(np.asarray(sensitivity, dtype=float).ravel()[0])
        return cls(**{cls.parameter: noise}, sensitivity=sensitivity)

    #: the fields other than the noise and Δ that every instance the class makes holds (set
    #: on the class :meth:`family` returns; empty on a class as written)
    _fixed: ClassVar[dict] = {}

    def family(self) -> type:
        """This mechanism's class with every field but the noise and Δ fixed at this instance's.

        What the allocation and the accuracy steps read: they vary the noise and Δ of a release
        and must keep every other parameter the mechanism holds (a class with no other field is
        its own family). The family is a subclass made once per set of values.
        """
        from dataclasses import fields

        own = (self.parameter, "sensitivity")
        fixed = tuple((f.name, getattr(self, f.name)) for f in fields(self) if f.name not in own)
        written = self.declared()
        return _family_of(written, fixed) if fixed else written

    @classmethod
    def declared(cls) -> type:
        """The class as written (a family's base; the class itself otherwise): what the
        registry lists."""
        while cls.__dict__.get("_fixed"):
            cls = cls.__bases__[0]
        return cls

    @classmethod
    def _per_delta(cls, d: np.ndarray, compute) -> np.ndarray:
        """``compute(mask, Δ)`` for each distinct Δ of ``d`` (an integer noise holds one Δ per
        object), assembled into one array of d's shape; a continuous noise in one call."""
        if not cls.discrete:
            return np.asarray(compute(..., d), dtype=float)
        out = np.empty(d.shape)
        for value in np.unique(d):
            mask = d == value
            out[mask] = compute(mask, value)
        return out

    # its privacy-loss distribution for dp_accounting

    def pld(self, *, discretization=1e-4):
        """dp_accounting's pessimistic privacy-loss distribution of one release.

        Generic, from this class's own cdf and privacy-loss inverse: the loss is rounded *up*
        to a multiple of ``discretization`` (every δ read from it is an upper bound), the
        mass of L beyond the truncation (at most 10⁻¹⁵) counted as an infinite loss, built
        by ``PrivacyLossDistribution.create_from_rounded_probability`` (the noise is
        symmetric, so adding and removing a record give the same distribution). A class
        with a native constructor in dp_accounting overrides this with it.

        Examples
        --------
        >>> round(float(Laplace(1.0).pld().get_delta_for_epsilon(0.5)), 4)
        0.2212
        """
        from dp_accounting.pld import privacy_loss_distribution as pld

        h = float(check_positive("discretization", discretization))
        if np.ndim(self.noise) or np.ndim(self.sensitivity):
            raise ValueError(f"pld needs a single {self.parameter} and sensitivity; got {self!r}")
        rounded, infinity = (
            self._pld_pmf_discrete(h) if self.discrete else self._pld_pmf_continuous(h)
        )
        return pld.PrivacyLossDistribution.create_from_rounded_probability(
            rounded, infinity, h, pessimistic_estimate=True
        )

    def _pld_arguments(self, discretization) -> tuple[float, float, float]:
        """(noise, sensitivity, h) as floats for a PLD build, checked: one mechanism, h > 0."""
        h = float(check_positive("discretization", discretization))
        if np.ndim(self.noise) or np.ndim(self.sensitivity):
            raise ValueError(f"pld needs a single {self.parameter} and sensitivity; got {self!r}")
        return float(self.noise), float(self.sensitivity), h

    def _native_pld(self, constructor: str, parameter: float, discretization):
        """dp_accounting's own ``constructor`` of this noise at ``parameter`` (pessimistic): the
        fast path of a class whose :meth:`pld` dp_accounting builds natively."""
        from dp_accounting.pld import privacy_loss_distribution as pld

        sensitivity = int(self.sensitivity) if self.discrete else float(self.sensitivity)
        return getattr(pld, constructor)(
            parameter,
            sensitivity=sensitivity,
            pessimistic_estimate=True,
            value_discretization_interval=float(discretization),
        )

    def _pld_top(self, h: float) -> int:
        """J: the loss grid runs over −Jh .. Jh (the loss above Jh has mass below 1e-15)."""
        bound = float(self.loss_bound())
        if not math.isfinite(bound):
            bound = float(self._upper_quantile(np.array(_PLD_TAIL)))
        top = math.ceil(max(bound, h) / h)
        if top > MAX_BINS:
            raise ValueError(
                f"the privacy loss of {self!r} spans {2 * top:,} steps of {h:g} (at most "
                f"{2 * MAX_BINS:,}); use a larger discretization"
            )
        return top

    def _pld_pmf_continuous(self, h: float) -> tuple[dict, float]:
        # P[L > jh] = P[Z < x_jh] and, by symmetry (L(Δ − x) = −L(x)), P[L ≤ −jh] =
        # P[Z ≥ Δ − x_jh] = P[Z ≤ x_jh − Δ]; bucket i holds the mass of L in ((i−1)h, ih]
        top = self._pld_top(h)
        x = np.asarray(self._threshold(np.arange(top + 1) * h), dtype=float)
        finite = np.where(np.isneginf(x), 0.0, x)
        above = np.where(np.isneginf(x), 0.0, self.cdf(finite))
        below = np.where(np.isneginf(x), 0.0, self.cdf(finite - self.sensitivity))
        masses = {i: float(above[i - 1] - above[i]) for i in range(1, top + 1)}
        for i in range(top):
            masses[-i] = float(below[i] - below[i + 1])
        masses[-top] = float(below[top])
        # below[j] is P[L < −jh] (the mirror of P[L > jh]): an atom of L exactly at −jh (a
        # piecewise noise's L = 0, say) is in no bucket above; the mass left over is that,
        # put at 0, above every −jh (pessimistic), and rounding noise for a smooth density
        rest = 1.0 - math.fsum(masses.values()) - float(above[top])
        masses[0] += max(rest, 0.0)
        return {i: m for i, m in masses.items() if m > 0}, float(above[top])

    def _pld_pmf_discrete(self, h: float) -> tuple[dict, float]:
        # the outputs k of A(D₁) in a window holding all but 1e-15 of the mass; L falls in k,
        # so the left tail (larger losses) is counted as infinite, the right one at the end
        d = int(self.sensitivity)
        lo = int(_integer_quantile(lambda k: self.cdf(k) - _PLD_TAIL / 2, self.noise))
        hi = int(_integer_quantile(lambda k: -self.sf(k) + _PLD_TAIL / 2, self.noise)) + d
        if hi - lo > MAX_BINS:
            raise ValueError(f"{self!r} has more than {MAX_BINS:,} likely outputs")
        k = np.arange(lo, hi + 1, dtype=float)
        p = np.asarray(self.pdf(k), dtype=float)
        p[-1] = float(self.sf(hi - 1))  # P[Z ≥ hi]: L ≤ L(hi) there
        loss = np.asarray(self._loss(k, np.zeros(k.shape)), dtype=float)
        index = np.ceil(loss / h - 1e-9 * 0).astype(np.int64)  # rounded up
        index = np.where(index * h < loss, index + 1, index)
        rounded: dict = {}
        for i, m in zip(index.tolist(), p.tolist(), strict=True):
            if m > 0:
                rounded[i] = rounded.get(i, 0.0) + m
        return rounded, float(self.cdf(lo - 1))

    def _pld_spread(self) -> float:
        """The half-width of one release's privacy loss (for the composed PLD's size)."""
        bound = float(self.loss_bound())
        return bound if math.isfinite(bound) else float(self._upper_quantile(np.array(_PLD_TAIL)))

    # what every layer reads of it as a privacy-loss object (helpers.mechanisms.loss)

    @property
    def outputs(self) -> str:
        """Where its outputs live: "integers" for integer noise, else "reals"."""
        return "integers" if self.discrete else "reals"

    def is_single(self) -> bool:
        """One noise and one Δ (not an array of them): one mechanism, fit for composition."""
        return not (np.ndim(self.noise) or np.ndim(self.sensitivity))

    def log_laws(self, o, *, adjacency="remove"):
        """(ln p(o), ln q(o)): A(D) = Z against A(D′) = Δ + Z ("remove"), the other way ("add")."""
        check_adjacency(adjacency)
        o = check_real("o", o)
        with np.errstate(divide="ignore"):
            first = np.asarray(self.logpdf(o), dtype=float)
            second = np.asarray(self.logpdf(o - self.sensitivity), dtype=float)
        if self.discrete:  # integer noise: no mass off the integers
            off = o != np.round(o)
            first, second = np.where(off, -np.inf, first), np.where(off, -np.inf, second)
        return (first, second) if adjacency == "remove" else (second, first)

    def output_range(self):
        """(−k, Δ + k) with P(|Z| > k) < 10⁻¹²: both laws' outputs, all but a negligible mass."""
        if not self.is_single():
            raise ValueError(f"output_range needs a single {self.parameter} and sensitivity")
        k = float(type(self).noise_reach(self.noise, 1 - 1e-13, sensitivity=self.sensitivity))
        return -k, float(self.sensitivity) + k

    def gdp_mu(self):
        """μ = Δ/σ, rounded up, for a class whose ρ-zCDP is exactly μ-GDP (``gaussian_dp``)."""
        if not self.gaussian_dp:
            return None
        # one division, then one ulp up: never below the exact Δ/σ (plain floats, since the
        # attack readings ask every release of a workload)
        return math.nextafter(float(self.sensitivity) / float(self.noise), math.inf)

    def coarsened(self, merge: float):
        """The same class a little less private, on a grid of ratio 1 + merge (δ never lower).

        Scale-free noise: noise 1 and Δ/noise rounded up onto the grid; otherwise the noise
        rounded down onto it at the same Δ (δ(ε) falls as the noise grows). Every other field
        of the instance is kept (``dataclasses.replace``).
        """
        from dataclasses import replace

        merge = float(merge)
        if merge <= 0:
            return self
        if self.scale_free:
            ratio = float(_grid_up(ratio_up(self.sensitivity, self.noise), merge))
            return replace(self, **{self.parameter: 1.0, "sensitivity": ratio})
        noise = float(1.0 / _grid_up(ratio_up(1.0, self.noise), merge))
        return replace(self, **{self.parameter: noise})

    def loss_span(self, times: int = 1) -> float:
        """A rough half-width of the loss of ``times`` runs (for the work a composition costs):
        one release's reach, times (10√times + 1) for several."""
        return (1 if times == 1 else math.sqrt(times) * 10 + 1) * self._pld_spread()

    def loss_pmf(self, discretization=1e-4, *, adjacency="remove") -> LossPMF:
        """The loss rounded up onto h·ℤ (privacy buckets; the same for both adjacencies).

        Its own cdf at its own thresholds (a continuous noise), its own pmf at each integer
        output (integer noise), or for a μ-GDP class the loss's law N(μ²/2, μ²) exactly (Dong,
        Roth & Su 2022), cut at ±12μ (the mass above to +∞, below onto the lowest cell: both up).
        """
        h = check_discretization(discretization)
        check_adjacency(adjacency)
        if not self.is_single():
            raise ValueError(
                f"loss_pmf needs a single {self.parameter} and sensitivity; got {self!r}"
            )
        if self.gaussian_dp:
            mu = float(self.gdp_mu())
            m, spread = mu * mu / 2, 12 * mu
            lo, hi = math.ceil((m - spread) / h), math.ceil((m + spread) / h)
            edges = (h * np.arange(lo - 1, hi + 1, dtype=float) - m) / mu
            cdf, sf = ndtr(edges), ndtr(-edges)
            # differences of the cdf below the mean, of the sf above it (no cancellation)
            pmf = np.where(edges[1:] <= 0, np.diff(cdf), -np.diff(sf))
            pmf[0] += cdf[0]
            return LossPMF(h, lo, np.clip(pmf, 0.0, None), float(sf[-1]))
        rounded, infinity = (
            self._pld_pmf_discrete(h) if self.discrete else self._pld_pmf_continuous(h)
        )
        index = np.fromiter(rounded.keys(), dtype=np.int64, count=len(rounded))
        mass = np.fromiter(rounded.values(), dtype=float, count=len(rounded))
        lower = int(index.min()) if index.size else 0
        pmf = np.bincount(index - lower, weights=mass) if index.size else np.zeros(1)
        return LossPMF(h, lower, pmf, min(max(infinity, 0.0), 1.0))


#: the package's shared docstring sections (helpers/_docstrings.py fills them at import)
_SECTIONS = {
    "references": """\
References
----------
Dwork & Roth (2014), §3.3 (Laplace) and App. A (Gaussian); Kazan & Reiter (2024), Definition 1 (two-sided geometric).""",
    "x_loc": """\
x : float or array_like
    Points at which to evaluate (finite).
loc : float or array_like
    The centre of the distribution (finite).""",
    "size_rng": """\
size : int or tuple of int, optional
    Number (shape) of draws, at most 10⁸.
rng : int or numpy.random.Generator, keyword-only
    Seed or generator (None is refused: simulations are seeded).""",
    "returns_sample": """\
Returns
-------
float or numpy.ndarray
    A Python float when ``size`` is None and the parameters are scalars, else an
    array (of shape ``size`` when given).""",
}

fill_docstrings(globals(), _SECTIONS)
