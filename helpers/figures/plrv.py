"""Files in figures/ for the PLRV notebook (08): name -> zero-argument Figure factory.

The ten figures of Desfontaines' post "The privacy loss random variable", in its order.
"""

from __future__ import annotations

from .. import plrv
from ..plotting import plrv as P

_B, _S, _E = plrv.POST_LAPLACE_SCALE, plrv.POST_GAUSSIAN_SIGMA, plrv.POST_EPSILON

FIGURES: dict = {
    "plrv_laplace_densities": lambda: P.plot_two_densities("laplace", _B),
    "plrv_laplace_three_outputs": lambda: P.plot_two_densities(
        "laplace", _B, outputs=[999, 1000.5, 1003]
    ),
    "plrv_laplace_loss": lambda: P.plot_loss_vs_output("laplace", _B),
    "plrv_exp_loss_laplace": lambda: P.plot_exp_loss("laplace", _B),
    "plrv_gaussian_densities": lambda: P.plot_two_densities("gaussian", _S),
    "plrv_exp_loss_gaussian": lambda: P.plot_exp_loss("gaussian", _S),
    "plrv_exp_loss_gaussian_delta": lambda: P.plot_exp_loss("gaussian", _S, epsilon=_E),
    "plrv_exp_loss_gaussian_bad_events": lambda: P.plot_exp_loss(
        "gaussian", _S, epsilon=_E, umax=0.06, points=[0.045, 0.002], ymax=8
    ),
    "plrv_delta_area_gaussian": lambda: P.plot_delta_area(_E, "gaussian", _S, umax=0.2),
    "plrv_delta_area_distinguishing": lambda: P.plot_delta_area(
        _E, "pmf", pmfs=plrv.thresholding_pmfs(), umax=0.05
    ),
}
