"""The noise calibrations' search in σ (:func:`helpers.dpsgd.noise_for_epsilon` and
:func:`helpers.dpsgd.noise_for_attack_tpr`): the least noise multiplier whose measure, an ε or
a TPR that falls as σ rises, meets a target, as the plain bisection in log σ finds it, in few
evaluations of the measure (each one a composed privacy-loss distribution).

Private to :mod:`helpers.dpsgd`, which re-exports nothing of it; kept apart only for size.
"""

from __future__ import annotations

import bisect
import math

__all__: list[str] = []  # private to helpers.dpsgd

_SIGMA_RANGE = (0.05, 500.0)  # the noise multipliers a calibration searches


def _ladder() -> list[float]:
    """The σ the bracket's walk may visit, ascending, each float as the walk from σ = 1
    computes it: ÷1.5 down to 0.05 and ×1.5 up to 500 (σ = 1 is among them)."""
    low_end, high_end = _SIGMA_RANGE
    down, high = [], 1.0
    while high > low_end:
        high = max(high / 1.5, low_end)
        down.append(high)
    up, low = [], 1.0
    while low < high_end:
        low = min(low * 1.5, high_end)
        up.append(low)
    return [*down[::-1], 1.0, *up]


def _least_sigma(measure, target: float, name: str, model: _Model | None = None) -> float:
    """The least σ in the searched range with measure(σ) ≤ target (the measure, an ε or a
    TPR, falls as σ rises), rounded up within 2⁻¹² relative: the bisection in log σ down to
    2⁻¹² inside a bracket of two neighbours on a ladder of steps ×1.5 from σ = 1, the
    lowest rung that meets and the one below (:func:`_ladder`), found in a few evaluations
    (:class:`_Search`). ``model`` (a cheap approximation of the curve) only saves evaluations.

    The bracket is never bisected from the whole range: the privacy-loss distribution of a
    small σ spans a wide grid (hundreds of megabytes at σ = 0.3 and 400 steps), so the search
    only tries a σ near the model's guess, near what it has evaluated, or on the walk from
    σ = 1.
    """
    return _Search(measure, target, model).run(name)


def _bisect_path(log_low: float, log_high: float, meets) -> tuple[float, float]:
    """The bisection in log σ down to a width of 2⁻¹² (``meets`` decides each midpoint): the
    final (low, high), each float exactly as the bisection computes it."""
    while log_high - log_low > 2.0**-12:
        mid = 0.5 * (log_low + log_high)
        if meets(mid):
            log_high = mid
        else:
            log_low = mid
    return log_low, log_high


def _logged(y: float) -> float:
    return math.log(y) if 0 < y < math.inf else math.nan


class _Model:
    """Coordinates in which a measure's curve is nearly a straight line, for the search's
    secants: u(log σ) and v(measure), the target at v = ``v_target``, and the slope dv/du
    assumed where one point is known (None: not known).

    The default is log measure against log σ (no slope assumed). DP-SGD's calibrations use
    the central limit theorem of Gaussian DP instead (:func:`_clt_model`): u = ln μ of the
    μ-GDP mechanism the theorem gives T steps of σ, v = ln μ of the μ-GDP mechanism whose
    measure is the one found, nearly v = u (slope 1) and exactly a line where the theorem's
    error changes slowly with σ.
    """

    def __init__(self, target: float, u=None, log_sigma=None, v=None, v_target=None, slope=None):
        self.u = u or (lambda x: x)
        self.log_sigma = log_sigma or (lambda u: u)
        self.v = v or _logged
        self.v_target = _logged(target) if v_target is None else v_target
        self.slope = slope

    def guess(self, points) -> float:
        """log σ where a line crosses the target: through the first of the (log σ, measure)
        ``points`` (the nearest the target first) and the next one at least 2⁻⁹ away in
        log σ, or with the assumed slope where none is (or, without one, the next point);
        NaN where they draw no line that falls as σ rises.

        Two points a bisection's cell apart (2⁻¹²) give a slope blurred by the measure's
        own wobble (a PLD's grid); the model's slope, or a point further off, does better.
        """
        (x0, y0), *rest = points
        u0, v0 = self.u(x0), self.v(y0)
        far = [(x, y) for x, y in rest if abs(x - x0) >= 2.0**-9]
        other = far[0] if far else (rest[0] if rest and self.slope is None else None)
        slope = self.slope
        if other is not None:
            (x1, y1) = other
            u1, v1 = self.u(x1), self.v(y1)
            slope = (v1 - v0) / (u1 - u0) if u1 != u0 else math.nan
        if slope is None or not math.isfinite(v0) or not math.isfinite(slope) or slope == 0:
            return math.nan
        x = self.log_sigma(u0 + (self.v_target - v0) / slope)
        # the measure falls as σ rises: a line that says otherwise is noise, not a guess
        falls = (self.u(x0 + 1e-3) - u0) * slope < 0
        return x if falls and math.isfinite(x) else math.nan


class _Search:
    """The search of :func:`_least_sigma`: its result is the plain search's float, the walk
    along the ladder from σ = 1 to the bracket then the bisection's last high.

    With a measure that falls as σ rises, that float is the upper end of the one cell of the
    bracket's bisection (2⁻¹² wide in log σ) whose low fails and whose high meets. So a cell
    is guessed (the model's guess, then the secant through the two points evaluated nearest
    the target, which converges like the secant method), and only its two ends are
    evaluated: where the low fails and the high meets, the walk and the bisection would take
    the same turns (every rung and midpoint lies at or below that low or at or above that
    high) and return that high; otherwise the ends evaluated tighten the pair (the highest σ
    known to fail, the lowest known to meet). A cell's low is evaluated only where the guess
    redrawn through its high still points into it. After six evaluations of guesses (ten
    from a model's first guess, with no walk before) the walk and the bisection run, evaluating only the points strictly inside that pair (those
    outside are decided by it): a measure in steps, where a secant guesses badly, costs at
    most six evaluations more than the plain search; the calibrations' smooth curves cost
    three to five instead of about fifteen.
    """

    def __init__(self, measure, target: float, model: _Model | None) -> None:
        self.measure, self.target = measure, target
        self.model = _Model(target) if model is None else model
        self.seen: dict[float, float] = {}  # log σ → the measure
        self.fail, self.meet = -math.inf, math.inf  # log σ known to fail, to meet
        self.ladder = _ladder()
        self.rungs = [math.log(sigma) for sigma in self.ladder]

    def value(self, log_sigma: float) -> float:
        if log_sigma not in self.seen:
            # every argument is checked before the search: a ValueError here is the
            # composition's work budget refusing a noise so small that its loss spans too wide
            # a grid, a noise that meets no sensible target
            try:
                self.seen[log_sigma] = float(self.measure(math.exp(log_sigma)))
            except ValueError:
                self.seen[log_sigma] = math.inf
        return self.seen[log_sigma]

    def meets(self, log_sigma: float) -> bool:
        """measure ≤ target at σ, decided by the pair where it can be (the measure falls)."""
        if log_sigma >= self.meet or log_sigma <= self.fail:
            return log_sigma >= self.meet
        met = self.value(log_sigma) <= self.target
        if met:
            self.meet = log_sigma
        else:
            self.fail = log_sigma
        return met

    def run(self, name: str) -> float:
        threshold = self.model.log_sigma(self.model.v_target)  # where the model meets it
        if self.model.slope is None or not math.isfinite(threshold):
            self.walk(name)  # no model: a bracket first, two points for the secant
            threshold = self.next_guess()
        # the guesses' evaluations before the plain search's: six after a walk (a measure in
        # steps costs at most that more), ten from a model's first guess, which may be far
        budget = len(self.seen) + (6 if self.seen else 10)
        for _ in range(12):
            if len(self.seen) > budget - 2:  # a cell costs two at most
                break
            found = self.try_cell(threshold, name)
            if found is not None:
                return found
            threshold = self.next_guess()
        low, high = self.walk(name)
        if high == self.rungs[0]:
            return self.ladder[0]  # 0.05 as the walk gives it, not exp(ln 0.05)
        return math.exp(_bisect_path(low, high, self.meets)[1])

    def walk(self, name: str) -> tuple[float, float]:
        """The bracket (log σ): down the ladder while a rung meets, up while it fails, from
        the rung nearest the pair (σ = 1 before any evaluation); (−inf, ln 0.05) where even
        0.05 meets. Raises where 500 fails."""
        rungs = self.rungs
        if math.isfinite(self.meet):
            i = min(bisect.bisect_left(rungs, self.meet), len(rungs) - 1)
        elif math.isfinite(self.fail):
            i = max(bisect.bisect_right(rungs, self.fail) - 1, 0)
        else:
            i = rungs.index(0.0)  # σ = 1, where the plain walk starts
        if self.meets(rungs[i]):
            while i > 0 and self.meets(rungs[i - 1]):
                i -= 1
            return (rungs[i - 1] if i > 0 else -math.inf), rungs[i]
        while i < len(rungs) - 1:
            i += 1
            if self.meets(rungs[i]):
                return rungs[i - 1], rungs[i]
        raise _unmet(name)

    def try_cell(self, threshold: float, name: str) -> float | None:
        """The result where the cell of the bisection holding ``threshold`` (log σ) proves to
        be the one (its low fails, its high meets), else None (the pair tightened)."""
        rungs = self.rungs
        threshold = min(max(threshold, self.fail), self.meet)
        if threshold == self.fail:  # a guess at or below a σ that fails: the next cell up
            threshold = math.nextafter(threshold, math.inf)
        if threshold <= rungs[0]:  # every σ in the range meets, or the pair tightens
            return self.ladder[0] if self.meets(rungs[0]) else None
        if threshold > rungs[-1]:
            if not self.meets(rungs[-1]):
                raise _unmet(name)
            return None
        k = bisect.bisect_left(rungs, threshold)  # rungs[k − 1] < threshold ≤ rungs[k]
        low, high = _bisect_path(rungs[k - 1], rungs[k], threshold.__le__)
        if not self.meets(high):
            return None
        if low > self.fail:
            # the low is worth its evaluation only where the guess, redrawn through the high
            # just evaluated, still falls in this cell (else the next guess is better spent)
            again = min(max(self.next_guess(), self.fail), self.meet)
            if not low < again <= high:
                return None
        return None if self.meets(low) else math.exp(high)

    def next_guess(self) -> float:
        """The threshold's next guess (log σ): the model's line through the two points
        evaluated nearest the target (or one, with the model's slope), else the line through
        the pair, else a rung beyond a one-sided pair, or the pair's middle."""
        model, vt = self.model, self.model.v_target
        near = sorted(
            (abs(v - vt), x, y) for x, y in self.seen.items() if math.isfinite(v := model.v(y))
        )
        guess = math.nan
        if near:
            guess = model.guess([point[1:] for point in near])
        fail, meet = self.fail, self.meet
        both = math.isfinite(fail) and math.isfinite(meet)
        if not math.isfinite(guess) and both:
            guess = model.guess([(fail, self.seen[fail]), (meet, self.seen[meet])])
        if math.isfinite(guess) and not both and len(near) >= 2:
            # every point on one side, though the line said the last would cross: a model
            # that bends away (the theorem far from its regime, a large TPR) creeps up on the
            # threshold one side at a time; twice the step crosses it, and a point beyond
            # decides every midpoint between (the walk's bisection would evaluate them)
            edge = meet if math.isfinite(meet) else fail
            guess = edge + 2 * (guess - edge)
        if not math.isfinite(guess):
            if both:
                guess = 0.5 * (fail + meet)
            else:
                guess = meet - math.log(1.5) if math.isfinite(meet) else fail + math.log(1.5)
        return guess


def _unmet(name: str) -> ValueError:
    return ValueError(
        f"{name} cannot be met with a noise multiplier up to {_SIGMA_RANGE[1]:g}; ask for less"
    )


def _clt_model(target: float, to_mu, sample_rate: float, steps: int) -> _Model:
    """The search's coordinates for T DP-SGD steps at rate q (:class:`_Model`): the central
    limit theorem of Gaussian DP (Bu, Dong, Long & Su 2020) makes T steps of σ μ-GDP with
    μ = q·√(T·(e^{1/σ²} − 1)); ``to_mu`` gives the μ of the μ-GDP mechanism with a measure
    (NaN where none). Only where the search looks, never its result."""
    log_scale = math.log(sample_rate) + 0.5 * math.log(steps)

    def u(x: float) -> float:  # ln μ at σ = e^x, with ln(e^z − 1) = z + ln(1 − e^−z)
        z = math.exp(-2 * x)
        return log_scale + 0.5 * (z + math.log(-math.expm1(-z)))

    def log_sigma(u: float) -> float:  # its inverse: σ = 1/√ln(1 + μ²/(q²T))
        w = 2 * (u - log_scale)
        spread = w + math.log1p(math.exp(-w)) if w > 0 else math.log1p(math.exp(w))
        return -0.5 * math.log(spread) if spread > 0 else math.nan

    read: dict[float, float] = {}

    def v(y: float) -> float:  # kept: every guess rereads every point (a root-find for an ε)
        if y not in read:
            try:
                mu = float(to_mu(y))
            except (ValueError, OverflowError, ZeroDivisionError):
                mu = math.nan
            read[y] = math.log(mu) if 0 < mu < math.inf else math.nan
        return read[y]

    return _Model(target, u=u, log_sigma=log_sigma, v=v, v_target=v(target), slope=1.0)
