"""Helpers for the course on choosing ε for differential privacy.

Layers (each imports only from the layers below it):

* ``widgets`` / ``figures``  – ipywidgets dashboards; regeneration of ``figures/``
* ``plotting``               – matplotlib figure functions (data in, Figure out)
* ``lee_clifton``, ``kazan_reiter``, ``plrv``, ``foundations``, ``sensitivity``, ``queries``
                             – the papers' mathematics: pure, vectorised, validated
* ``deployments``, ``choose`` – real deployments read three ways; choosing ε from accuracy and risk
* ``mechanisms``, ``datasets`` – noise distributions and the papers' small data sets

The math layer never imports matplotlib or ipywidgets.
"""

__version__ = "0.1.0"
