"""Helpers for the course on choosing ε for differential privacy.

Layers, top first. A module imports only from its own layer and the layers below it, never
from a layer above (tests/test_import_rules.py reads this list and checks every import):

* ``widgets``, ``figures`` – ipywidgets dashboards; regeneration of ``figures/``
* ``plotting`` – matplotlib figure functions (data in, Figure out)
* ``exercises`` – checked exercises: each answer recomputed with the layers below
* the **math layer**, whose public functions keep the API contract below:

  * ``release`` – from a chosen budget to a release: the unit of privacy, δ against n, small
    groups, odds-based explanations, a registry record, the release in OpenDP (built on
    ``budget`` and ``deployments``)
  * ``budget`` – one budget for many releases: composition, allocation, both sides of the
    choice for a workload (built on ``choose`` and ``deployments``)
  * ``choose``, ``deployments`` – choosing ε from accuracy and risk; real deployments read
    three ways (both build on ``kazan_reiter`` and ``plrv``)
  * ``dpsgd``, ``_calibration`` – a model trained with DP-SGD: its ε, its attack risk, its
    noise calibrated to either (the search in σ: ``_calibration``), and the training in numpy
    (built on ``attack``)
  * ``lee_clifton``, ``leave_one_out``, ``sensitivity``, ``queries``, ``kazan_reiter``,
    ``plrv``, ``foundations``, ``attack`` – the papers' mathematics: pure, vectorised,
    validated (``attack``: attack risk read on a workload's own privacy-loss distribution)
  * ``mechanisms`` – the noise distributions, their scales and samplers
  * ``checks``, ``_validation``, ``_numerics``, ``_cache``, ``_docstrings`` – the input
    checks (``checks`` is their public face for the layers above), the floating-point tools
    (differences that cannot overflow, inverses rounded toward privacy, root finders, log
    space), the caches (one design; ``lee_clifton.clear_caches`` empties them all) and the
    docstring templates (the sections many functions share, filled in at import as scipy's
    doccer does)

* ``datasets``, ``notebooks`` – the papers' small data sets (and the constants shared by
  figures, dashboards and notebooks); the notebook harness. Neither imports from ``helpers``.

The math layer never imports matplotlib or ipywidgets. No package imports a private module
or name of another: a private module (``_x``) serves its own package and the packages inside
it, except that ``helpers._validation``, ``helpers._numerics``, ``helpers._cache`` and
``helpers._docstrings`` serve the math layer only (the layers above use ``checks``); a private
name (``_x``) is imported only by modules of the same package and of the packages inside it
(one listed exception: ``release`` reads ``budget``'s workload parser).
``kazan_reiter``, ``lee_clifton``, ``foundations``, ``mechanisms``, ``budget``, ``release`` and
``deployments`` are packages (one module per topic) whose ``__init__`` is the public facade.

API contract (every public function of the math layer; tested in tests/test_contract.py)
-----------------------------------------------------------------------------------------
* **Return types.** A scalar in gives a Python ``float`` out (``bool`` for a yes/no answer);
  array_like in gives an ``ndarray`` of the broadcast shape. Results that are several
  numbers are NamedTuples of those (``Recommendation``, ``ProfileSlice``, ...).
* **Not vectorised, on purpose:** searches and inverses that run an optimiser or a root
  finder per value (``argmin_epsilon``, ``recommend_epsilon``, ``gaussian_sigma_for_delta``,
  ``binary_search_epsilon``), functions of a whole data set or universe (the universe *is*
  the array), samplers (``size=`` gives the shape) and ``properties_experiment``. They take
  scalars and refuse arrays with a ValueError.
* **Names.** ``epsilon``, ``delta``, ``risk``, ``rng``, ``sensitivity`` mean the same thing
  everywhere; the papers' tilde quantities are ``p_tilde``, ``q_tilde``, ``r_tilde``,
  ``a_tilde`` (``b_tilde``). Data arguments come first, then sizes, then the mechanism's
  parameter (``rr_variance(p, n, alpha)``); options are keyword-only (``sensitivity``,
  ``rng``, ``vectorized``, ``reps`` ...). One convention for the noise: every distribution
  is described by its scale (b for Laplace and for the two-sided geometric, α = e^{−1/b};
  σ for the Gaussian), in ``mechanisms`` and ``plrv`` alike; ε and Δ enter through
  ``laplace_scale(ε, sensitivity=Δ)`` and ``geometric_scale(ε, sensitivity=Δ)`` = Δ/ε
  (Kazan & Reiter's α = e^{−ε/Δ}). Functions *of* ε (``utility``, the Table 4 closed
  forms) take ε.
* **Errors.** Bad input raises ``ValueError`` before any large allocation, worded
  ``"<parameter> must <allowed range>; got <the value as given>"`` (a scalar is shown as
  the scalar, an array by its shape and a few offending entries). Strings and booleans
  (``True``, boolean arrays, a bool inside a list) are never coerced to numbers, NaN is
  refused unless ±inf is meaningful, a universe's values must lie within ±1e150
  (``_validation.MAX_UNIVERSE_MAGNITUDE``: their squares and sums stay inside double
  precision), and work above a stated budget is refused up front with the size it would
  take. A user's own callable (a risk profile, a query) that raises is wrapped in a
  ``ValueError`` saying it was *your code* that raised, which exception, and at which input.
* **Rounding toward privacy.** An inverse that turns a privacy target into a mechanism
  parameter rounds on the safe side (α, ε and ρ_z down; b and σ up), so its round trip never
  gives an ε (or δ, or posterior) above the target; a δ or ε reported *for* a mechanism is
  never rounded below its true value. Finite inputs never give NaN or a spurious ±inf
  through inf − inf, inf·0 or an overflowing difference such as 1e308 − (−1e308).
* **Numerics.** Products and sums of exponentials in log space, tails from survival
  functions (never ``1 − cdf``), no ``inf·0``, scipy where it is exact (``softmax``,
  ``log_softmax``, ``rel_entr``, ``expit``, ``scipy.stats.laplace``/``norm``/``dlaplace``).
"""

__version__ = "0.1.0"
