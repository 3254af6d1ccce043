"""The staircase mechanism (Geng & Viswanath 2016): the ε-DP noise of least expected magnitude.

Its density is a staircase: constant on steps, falling by e^{−ε} every Δ, with the first step
of each period γΔ wide. With β = e^{−ε}, for x ≥ 0 at x = (k + r)Δ (k an integer, r ∈ [0, 1))

    p(x) = a·β^k       for r < γ,
    p(x) = a·β^{k+1}   for r ≥ γ,      a = (1 − β) / (2Δ(γ + (1 − γ)β)),

and p(−x) = p(x) (Geng & Viswanath, "The optimal noise-adding mechanism in differential
privacy", IEEE Trans. Inf. Theory 62(2), 2016: the staircase-shaped family). For the expected
magnitude E|Z| the best γ is γ* = 1/(1 + e^{ε/2}), the γ used here (tests/helpers/mechanisms/
test_staircase.py checks that it minimises E|Z| numerically). The
privacy loss takes three values only: ε on outputs below γΔ, 0 on [γΔ, (1 − γ)Δ] and −ε above,
so for 0 ≤ ε' < ε

    δ₂(ε') = P[Z < γΔ]·(1 − e^{ε' − ε}),   δ₁(ε') = P[Z < γΔ],   P[Z < γΔ] = ½ + aγΔ,

both 0 from ε on. As ε grows its E|Z| falls as Θ(Δe^{−ε/2}), Laplace's as Δ/ε (notebook 08).

The noise parameter is the scale b with ε = Δ/b, as for Laplace; the shape depends on Δ (the
steps are Δ wide), so the class is not scale-free in b, and its accuracy is read at each
release's own Δ. OpenDP has no staircase noise: ``opendp`` is None and the release refuses it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from .._numerics import nudge_until
from .._validation import as_output, check_open_unit, check_real, check_sample_shape
from .base import _TINY_NOISE, AdditiveNoise, make_rng
from .continuous import _gap_to_loss, _laplace_loss_bound, laplace_scale

__all__ = ["Staircase"]


_LOG_TOL = 1e-12  # the search's last bracket in ln b: b to 1e-12 relative, rounded down


def _shape(b, d):
    """(ε, β, γ, aΔ) of the staircase of scale b at Δ: ε = Δ/b, β = e^{−ε}, γ = γ*(ε)."""
    b, d = np.asarray(b, dtype=float), np.asarray(d, dtype=float)
    with np.errstate(over="ignore", under="ignore"):
        # the shape's ε capped at 1400 (noise below e^{−700}Δ): beyond it γ and e^{−ε/2}
        # underflow; the cap only widens the noise (its accuracy errs toward less), and the
        # privacy loss reads the exact Δ/b (:meth:`Staircase.loss_bound`)
        eps = np.minimum(d / b, 1400.0)
        beta = np.exp(-eps)
        gamma = 1 / (1 + np.exp(eps / 2))  # γ* = 1/(1 + e^{ε/2})
        # aΔ = (1 − β)/(2(γ + (1 − γ)β)) and, at γ*, γ + (1 − γ)β = e^{−ε/2} exactly; 1 − β
        # from expm1 (no cancellation at small ε)
        a_d = -np.expm1(-eps) / (2 * np.exp(-eps / 2))
    return eps, beta, gamma, a_d


@dataclass(frozen=True, repr=False)
class Staircase(AdditiveNoise):
    """The staircase mechanism: piecewise-constant noise with Δ-wide steps, ε-DP for b = Δ/ε
    (Geng & Viswanath 2016; notebook 08 sets it beside Laplace: less expected noise at the
    same ε).

    Examples
    --------
    >>> mech = Staircase.from_epsilon(2.0)
    >>> round(mech.delta(1.0), 6), mech.delta(2.0)
    (0.515848, 0.0)
    >>> round(mech.mean_abs(), 4), Staircase.from_epsilon(2.0, sensitivity=3.0).loss_bound()
    (0.4255, 2.0)
    """

    scale: float = 1.0

    name: ClassVar[str] = "staircase"
    label: ClassVar[str] = "staircase"
    opendp: ClassVar[str | None] = None  # OpenDP has no staircase noise

    @classmethod
    def from_epsilon(cls, epsilon, *, sensitivity=1.0) -> Staircase:
        """b = Δ/ε rounded up (:func:`laplace_scale`): ε-DP, never a hair above ε."""
        return cls(laplace_scale(epsilon, sensitivity=sensitivity), sensitivity=sensitivity)

    @property
    def _parts(self):
        return _shape(self.scale, self.sensitivity)

    def loss_bound(self):
        """Δ/b rounded up: L takes the values ±Δ/b and 0, so δ(ε) = 0 exactly from it on.

        Examples
        --------
        >>> Staircase(0.5).loss_bound()
        2.0
        """
        d = np.asarray(self.sensitivity, dtype=float)
        return as_output(_laplace_loss_bound(np.asarray(self.scale, dtype=float), d))

    def breakpoints(self, low, high):
        """Every multiple of Δ and every (k ± γ)Δ in [low, high]: where the density steps."""
        _, _, gamma, _ = self._parts
        d, g = float(self.sensitivity), float(gamma)
        k = np.arange(math.floor(low / d) - 1, math.ceil(high / d) + 2, dtype=float)
        points = np.concatenate([k * d, (k + g) * d, (k - g) * d])
        return np.unique(points[(points >= low) & (points <= high)])

    def _steps(self, x):
        """m(x) ≥ 0 with p(x) = a·β^{m(x)}: 2 steps per period, the first γΔ wide."""
        _, _, gamma, _ = self._parts
        t = np.abs(x) / np.asarray(self.sensitivity, dtype=float)
        k = np.floor(t)
        return k + (t - k >= gamma)

    def _log_tail(self, x):
        """ln P[Z > x] for x ≥ 0: β^k·(β/2 + aΔ((γ − r)⁺ + β(1 − max(r, γ)))), x = (k + r)Δ."""
        eps, beta, gamma, a_d = self._parts
        with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
            t = x / np.asarray(self.sensitivity, dtype=float)
            k = np.floor(t)
            r = t - k
            inner = beta / 2 + a_d * (
                np.maximum(gamma - r, 0.0) + beta * (1 - np.maximum(r, gamma))
            )
            return np.where(np.isinf(t), -np.inf, -k * eps + np.log(inner))

    def logsf(self, x):
        x = np.asarray(check_real("x", x), dtype=float)
        upper = self._log_tail(np.abs(x))
        with np.errstate(divide="ignore"):
            return as_output(np.where(x >= 0, upper, np.log1p(-np.exp(upper))))

    def logcdf(self, x):
        return self.logsf(-np.asarray(check_real("x", x), dtype=float))

    def sf(self, x):
        return as_output(np.exp(self.logsf(x)))

    def cdf(self, x):
        return as_output(np.exp(self.logcdf(x)))

    def logpdf(self, x):
        x = np.asarray(check_real("x", x), dtype=float)
        eps, _, _, a_d = self._parts
        log_a = np.log(a_d) - np.log(np.asarray(self.sensitivity, dtype=float))
        with np.errstate(invalid="ignore"):
            return as_output(np.where(np.isinf(x), -np.inf, log_a - eps * self._steps(x)))

    def _magnitude(self, t):
        """|z| with P[Z > |z|] = t, for t ∈ (0, ½]: the period k from β^k/2 ≥ t, then the step."""
        eps, beta, gamma, a_d = self._parts
        d = np.asarray(self.sensitivity, dtype=float)
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            k = np.maximum(np.floor(np.log(2 * t) / -eps), 0.0)
            inner = t * np.exp(k * eps)  # in (β/2, ½]
            k = np.where(inner > 0.5, k - 1, k)  # a last-place slip of the floor
            inner = np.where(inner > 0.5, t * np.exp(k * eps), inner)
            first = beta / 2 + a_d * beta * (1 - gamma)  # the tail at r = γ
            r = np.where(
                inner >= first,
                gamma + beta * (1 - gamma) - (inner - beta / 2) / a_d,
                1 - (inner - beta / 2) / (a_d * beta),
            )
            return (k + np.clip(r, 0.0, 1.0)) * d

    def ppf(self, u):
        u = check_open_unit("u", u)
        upper = u >= 0.5
        t = np.where(upper, 1 - u, u)  # exact for u ≥ ½ (Sterbenz)
        z = self._magnitude(t)
        return as_output(np.where(upper, z, -z))

    def sample(self, size=None, *, rng):
        generator = make_rng(rng)
        size = check_sample_shape(size, scale=self.scale, sensitivity=self.sensitivity)
        shape = size if size is not None else np.broadcast_shapes(*map(np.shape, self._parts))
        t = 0.5 * (1 - generator.random(shape))  # uniform on (0, ½]
        sign = np.where(generator.random(shape) < 0.5, -1.0, 1.0)
        return as_output(sign * self._magnitude(t))

    def _loss(self, o, loc):
        # ln p(x) − ln p(x − Δ) = ε·(m(x − Δ) − m(x)): exactly −ε, 0 or ε (ε = the bound)
        x = o - loc
        with np.errstate(invalid="ignore", over="ignore"):
            steps = self._steps(x - self.sensitivity) - self._steps(x)
        return steps * np.asarray(self.loss_bound(), dtype=float)

    def _threshold(self, eps):
        # L > ε' exactly on x < γΔ for ε' below the bound ε (sign exact), nowhere from it on
        _, _, gamma, _ = self._parts
        gap = self._gap(eps)
        return np.where(gap < 0, gamma * np.asarray(self.sensitivity, dtype=float), -np.inf)

    def _gap(self, eps):
        """ε' − Δ/b with its sign exact."""
        return _gap_to_loss(eps, self.scale, np.asarray(self.sensitivity, float), 1.0)

    def _mass_above(self):
        """P[L = ε] = P[Z < γΔ] = ½ + aγΔ."""
        _, _, gamma, a_d = self._parts
        return 0.5 + a_d * gamma

    def _delta(self, eps):
        gap = self._gap(eps)
        return np.where(gap < 0, self._mass_above() * -np.expm1(np.minimum(gap, 0.0)), 0.0)

    def _delta_naive(self, eps):
        return np.where(self._gap(eps) < 0, self._mass_above() + 0 * eps, 0.0)

    @classmethod
    def _accuracy_noise_search(cls, k, c, d):
        """The largest b with P(|Z| ≤ k) ≥ c at Δ: a bracketed secant search (Illinois) in
        ln b from the period bracket, then nudged until the target holds.

        With k = (m + r)Δ the tail P[Z > k] = β^m·(inner), inner ∈ (β/2, ½] (see
        :meth:`_log_tail`), so for m ≥ 1 the ε = Δ/b meeting tail = t = (1 − c)/2 lies in
        [ln(1/(2t))/(m + 1), ln(1/(2t))/m]; within it the log tail is smooth but for one kink
        (where γ passes r), so the secant closes the bracket in a few steps where the
        generic bisection (:meth:`AdditiveNoise._accuracy_noise_search`) takes about 56.
        Where m = 0 or the bracket fails in floating point, that generic bracket is used.
        """

        def gap(log_noise):  # increasing in the noise: short of the target once positive
            return c - cls.noise_coverage(np.exp(log_noise), k, sensitivity=d)

        base = np.log(np.maximum(k, 1.0))
        m = np.floor(k / d)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            need = -np.log1p(-c)  # ln(1/(2t)), t = (1 − c)/2
            eps_high = need / m  # the tail ≤ β^m/2 ≤ t from this ε on
            low = np.log(d) - np.log(eps_high) - 1e-9
            high = np.log(d) - np.log(need / (m + 1)) + 1e-9  # tail > β^(m+1)/2 > t below
        usable = (m >= 1) & np.isfinite(low) & np.isfinite(high) & (eps_high < 1400.0)
        low = np.where(usable, low, base - 60.0)
        high = np.where(usable, high, base + 5.0)
        g_low, g_high = gap(low), gap(high)
        bad = ~((g_low <= 0) & (g_high > 0))
        if np.any(bad):  # the generic bracket where the period bracket failed
            low, high = np.where(bad, base - 60.0, low), np.where(bad, base + 5.0, high)
            g_low, g_high = gap(low), gap(high)
        side = np.zeros(np.shape(low), dtype=int)  # the end kept last time (Illinois)
        for _ in range(200):
            done = high - low <= _LOG_TOL
            if np.all(done):
                break
            with np.errstate(divide="ignore", invalid="ignore"):
                guess = high - g_high * (high - low) / (g_high - g_low)
            mid = 0.5 * (low + high)
            guess = np.where((guess > low) & (guess < high), guess, mid)
            value = gap(guess)
            above = value > 0
            # Illinois: halve the kept end's value when the same end is kept twice
            g_low = np.where(above & (side == -1), 0.5 * g_low, g_low)
            g_high = np.where(~above & (side == 1), 0.5 * g_high, g_high)
            high = np.where(done, high, np.where(above, guess, high))
            g_high = np.where(done | ~above, g_high, value)
            low = np.where(done, low, np.where(above, low, guess))
            g_low = np.where(done | above, g_low, value)
            side = np.where(above, -1, 1)
        return nudge_until(
            np.maximum(np.exp(low), _TINY_NOISE),
            lambda v: cls.noise_coverage(v, k, sensitivity=d) >= c,
            toward_zero=True,
        )

    @classmethod
    def noise_variance(cls, noise, *, sensitivity=None):
        """E[Z²] = (2aΔ³/3)·Σ_k β^k((k + γ)³ − k³ + β((k + 1)³ − (k + γ)³)), in closed form
        from Σ β^k = 1/(1 − β), Σ kβ^k = β/(1 − β)², Σ k²β^k = β(1 + β)/(1 − β)³."""
        d = cls._accuracy_delta(sensitivity)
        _, beta, g, a_d = _shape(noise, d)
        with np.errstate(over="ignore", under="ignore", invalid="ignore"):
            one = -np.expm1(np.log(beta))  # 1 − β
            s0, s1, s2 = 1 / one, beta / one**2, beta * (1 + beta) / one**3
            total = (
                3 * s2 * (g + beta * (1 - g))
                + 3 * s1 * (g * g + beta * (1 - g * g))
                + s0 * (g**3 + beta * (1 - g**3))
            )
            return 2 * a_d * d * d * total / 3

    def mean_abs(self):
        """E|Z| = Δ(β/(1 − β) + (γ² + β(1 − γ²))/(2(γ + (1 − γ)β))) (the cost γ* minimises).

        Examples
        --------
        >>> round(Staircase(1.0).mean_abs(), 6)  # Laplace's E|Z| is b = 1
        0.959517
        """
        eps, beta, g, _ = self._parts
        d = np.asarray(self.sensitivity, dtype=float)
        with np.errstate(over="ignore", under="ignore"):
            out = d * (
                beta / -np.expm1(-eps) + (g * g + beta * (1 - g * g)) / (2 * (g + (1 - g) * beta))
            )
        return as_output(out)
