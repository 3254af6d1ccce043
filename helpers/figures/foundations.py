"""Files in figures/ for the foundations notebooks: name -> zero-argument Figure factory."""

from __future__ import annotations

from ..plotting import foundations as P

FIGURES: dict = {
    "foundations_bits_sensitivity": lambda: P.plot_bits_sensitivity(40),
    "foundations_laplace_ratio": lambda: P.plot_laplace_ratio(1.0, 10.0, 20.0, sensitivity=10.0),
    "foundations_mean_of_bits": lambda: P.plot_mean_of_bits(150, 1.0, 0.4, 20_000, rng=0),
    "foundations_randomised_response": lambda: P.plot_randomised_response(
        0.5, 18, 0.5, 4000, rng=0
    ),
    "foundations_properties": lambda: P.plot_properties(0.5, 0.5, 0.3, rng=5),
    "foundations_hypothesis_region": lambda: P.plot_hypothesis_region(1.0),
    "foundations_exponential_auction": lambda: P.plot_exponential_mechanism(1.0),
    "foundations_closeness": lambda: P.plot_closeness(),
}
