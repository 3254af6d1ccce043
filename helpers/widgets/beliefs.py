"""Dashboards (ipywidgets) for the prior and posterior notebooks (01, 02).

* ``prior_dashboard``: one weight slider per possible world; bars of the reader's prior
  beside the uniform one.
* ``posterior_dashboard``: ε and the noisy output r; the Laplace likelihood of r under each
  world and the bars of the posterior (Definition 3) beside the prior.
* ``attack_dashboard``: the seeded attack's success rate against ε beside 1/W, for a chosen
  column and true world, with a marker at the ε of the slider.
"""

from __future__ import annotations

from functools import lru_cache

import ipywidgets as widgets
import numpy as np
import pandas as pd

from ..checks import check_int_range, check_nonnegative
from ..datasets import ATTACK_EPSILONS, LEE_CLIFTON_EPSILON, LEE_CLIFTON_OUTPUT
from ..lee_clifton import (
    confidence,
    count_worlds,
    posterior,
    prior,
    simulate_attack,
    world_values,
)
from ..mechanisms import laplace_scale
from ..plotting import risk_up
from ..plotting.beliefs import (
    plot_attack_success,
    plot_posterior,
    plot_prior,
    update_attack_marker,
    update_posterior,
    update_prior,
    world_labels,
)
from ..queries import get_query
from ..sensitivity import unbounded_sensitivity
from ._base import Dashboard
from ._checks import data_and_size, starting_value

__all__ = ["attack_dashboard", "posterior_dashboard", "prior_dashboard"]

PAPER_OUTPUT = LEE_CLIFTON_OUTPUT  # the noisy release of Lee & Clifton's example (Sec. 4.4)
PAPER_EPSILON = LEE_CLIFTON_EPSILON
_MAX_SLIDER_WORLDS = 12
_LAYOUT = widgets.Layout(width="38.5em")  # a track of about 300 px beside a 110 px label
_STYLE = {"description_width": "8.5em"}


def _prior_lines(labels, probs) -> list[str]:
    return [f"  {label:<18} {p:.4f}" for label, p in zip(labels, probs, strict=True)]


def prior_dashboard(
    data: pd.DataFrame | None = None,
    size: int | None = None,
    *,
    name_column: str = "name",
    weights=None,
) -> Dashboard:
    """One slider per world (its weight, 0–5); the prior is the weights normalised to sum 1.

    Controls ``w1`` … ``wW``. The bars show the uniform prior 1/W beside the reader's prior
    (``helpers.lee_clifton.prior(universe, size, weights)``).
    """
    data, size = data_and_size(data, size)
    names = list(data[name_column])
    # count before enumerating: the refusal must come before the work it refuses
    n_worlds = count_worlds(np.arange(len(names), dtype=float), size)
    if n_worlds > _MAX_SLIDER_WORLDS:
        raise ValueError(
            f"{n_worlds} possible worlds: a slider per world is offered for at most "
            f"{_MAX_SLIDER_WORLDS}; pass weights to helpers.lee_clifton.prior instead"
        )
    start = np.ones(n_worlds) if weights is None else check_nonnegative("weights", weights)
    if start.shape != (n_worlds,):
        raise ValueError(
            f"weights must hold one entry per world, {n_worlds}; got shape {start.shape}"
        )
    if np.any(start > 5):
        raise ValueError(f"weights must lie in [0, 5] (the sliders' range); got {start.tolist()}")
    labels = world_labels(names, size)
    universe = np.arange(len(names), dtype=float)  # the prior depends only on who is in
    controls = {
        f"w{i + 1}": widgets.FloatSlider(
            value=float(start[i]),
            min=0.0,
            max=5.0,
            step=0.1,
            description=labels[i],
            layout=_LAYOUT,
            style=_STYLE,
            continuous_update=False,
        )
        for i in range(n_worlds)
    }

    def priors(values) -> dict:
        w = np.array([values[f"w{i + 1}"] for i in range(n_worlds)])
        return {"uniform prior": prior(universe, size), "your prior": prior(universe, size, w)}

    def draw(**values):
        shown = priors(values)
        return plot_prior(shown, labels), text(shown["your prior"])

    def update(fig, **values):
        shown = priors(values)
        if not update_prior(fig, shown, labels):
            return None
        return text(shown["your prior"])

    def text(reader):
        best = int(np.argmax(reader))
        ties = int(np.count_nonzero(np.isclose(reader, reader[best], rtol=0, atol=1e-12)))
        guess = (
            f"most probable world before any release: {labels[best]} with prior {reader[best]:.4f}"
            if ties == 1
            else f"no single most probable world: {ties} worlds tie at prior {reader[best]:.4f}"
        )
        return "\n".join(
            [
                "your prior (weights normalised to sum 1):",
                *_prior_lines(labels, reader),
                f"{guess} (uniform: 1/W = 1/{n_worlds} = {1 / n_worlds:.4f})",
            ]
        )

    dash = Dashboard(controls, draw, update=update)
    # sliders stack vertically: one per world
    dash.widget.children = (widgets.VBox(list(controls.values())), *dash.widget.children[1:])
    return dash


def posterior_dashboard(
    data: pd.DataFrame | None = None,
    size: int | None = None,
    query="mean",
    *,
    columns=("school_year", "absence_days"),
    column: str = "absence_days",
    epsilon: float = PAPER_EPSILON,
    output: float = PAPER_OUTPUT,
    prior_weights=None,
    name_column: str = "name",
) -> Dashboard:
    """Sliders for ε and the noisy output r, a column to attack; Definition 3's posterior.

    Controls ``column``, ``epsilon`` (0.05–5) and ``output`` (around the universe's range).
    The right panel's bars are ``posterior(universe, size, query, output, epsilon,
    prior=prior_weights)``; the text prints every world's prior and posterior, the maximum
    posterior and the confidence max(posterior − prior).
    """
    data, size = data_and_size(data, size)
    labels = world_labels(list(data[name_column]), size)
    columns = list(columns)
    if column not in columns:
        raise ValueError(f"column must be one of {columns}; got {column!r}")
    lo = float(min(data[c].min() for c in columns))
    hi = float(max(data[c].max() for c in columns))
    epsilon = starting_value("epsilon", epsilon, 0.05, 5.0)
    output = starting_value("output", output, lo - 3, hi + 3)
    controls = {
        "column": widgets.Dropdown(options=columns, value=column, description="column"),
        "epsilon": widgets.FloatSlider(
            value=epsilon,
            min=0.05,
            max=5.0,
            step=0.05,
            description="ε",
            layout=_LAYOUT,
            continuous_update=False,
        ),
        "output": widgets.FloatSlider(
            value=output,
            min=lo - 3,
            max=hi + 3,
            step=0.01,
            description="noisy output r",
            readout_format=".5g",
            layout=_LAYOUT,
            style=_STYLE,
            continuous_update=False,
        ),
    }

    def numbers(column, epsilon, output):
        universe = data[column].to_numpy(dtype=float)
        delta_f = unbounded_sensitivity(universe, size, query)
        f = world_values(universe, size, query)
        p0 = prior(universe, size, prior_weights)
        post = posterior(universe, size, query, output, epsilon, prior=prior_weights)
        scale = float(laplace_scale(epsilon, sensitivity=delta_f))
        name = getattr(query, "name", query)
        figure = {
            "output": output,
            "scale": scale,
            "title": f"{column}, {name} query, ε = {risk_up(epsilon):.3g}",
        }
        return universe, delta_f, f, p0, post, scale, name, figure

    def text(column, epsilon, output, universe, delta_f, f, p0, post, scale, name):
        best = int(np.argmax(post))
        rows = [
            f"  {lab:<18} f = {fv:<8.4g} prior {a:.4f}  posterior {risk_up(b):.4f}"
            for lab, fv, a, b in zip(labels, f, p0, post, strict=True)
        ]
        return "\n".join(
            [
                f"{column}, {name}: Δf = {delta_f:.4f}, Laplace scale b = Δf/ε = {scale:.4f}; "
                f"ε = {risk_up(epsilon):.3g}, r = {output:.6g}",
                *rows,
                f"max posterior {risk_up(post[best]):.4f} ({labels[best]}); "
                "confidence max(posterior − prior) = "
                f"{risk_up(confidence(universe, size, query, output, epsilon, prior=prior_weights)):.4f}",
            ]
        )

    def draw(column, epsilon, output):
        universe, delta_f, f, p0, post, scale, name, figure = numbers(column, epsilon, output)
        fig = plot_posterior(f, p0, post, labels, **figure)
        return fig, text(column, epsilon, output, universe, delta_f, f, p0, post, scale, name)

    def update(fig, column, epsilon, output):
        # ε and r move in place; another column (other worlds) draws afresh
        universe, delta_f, f, p0, post, scale, name, figure = numbers(column, epsilon, output)
        if not update_posterior(fig, f, p0, post, labels, **figure):
            return None
        return text(column, epsilon, output, universe, delta_f, f, p0, post, scale, name)

    return Dashboard(controls, draw, update=update)


@lru_cache(maxsize=32)
def _curve(universe: tuple, size: int, query, true_world, trials: int, seed: int, eps: tuple):
    rates = simulate_attack(
        np.asarray(universe),
        size,
        query,
        np.asarray(eps),
        true_world=true_world,
        trials=trials,
        rng=seed,
    )
    rates.setflags(write=False)
    return rates


def attack_dashboard(
    data: pd.DataFrame | None = None,
    size: int | None = None,
    query="mean",
    *,
    columns=("school_year", "absence_days"),
    column: str = "absence_days",
    epsilon: float = PAPER_EPSILON,
    trials: int = 2000,
    rng: int = 2011,
    epsilons=None,
    name_column: str = "name",
) -> Dashboard:
    """The seeded attack: releases drawn from the true world, the adversary picks the world of
    largest posterior (uniform prior). Controls ``column``, ``true_world`` (a world index, or
    -1 for "averaged over the prior"), ``epsilon`` (the marker) and ``seed`` (starting at
    ``rng``, an int seed: the control shows the seed the reader can change).

    The curve is ``simulate_attack`` on a grid of ε; the marker and the text are
    ``simulate_attack`` at the slider's ε with the same seed.
    """
    data, size = data_and_size(data, size)
    labels = world_labels(list(data[name_column]), size)
    if column not in columns:
        raise ValueError(f"column must be one of {list(columns)}; got {column!r}")
    epsilon = starting_value("epsilon", epsilon, 0.05, 5.0)
    trials = check_int_range("trials", trials, 1, 1_000_000)
    seed = check_int_range("rng", rng, 0, 2**31 - 1)
    grid = tuple(ATTACK_EPSILONS if epsilons is None else epsilons)
    options = [(lab, i) for i, lab in enumerate(labels)] + [("averaged over the prior", -1)]
    controls = {
        "column": widgets.Dropdown(options=list(columns), value=column, description="column"),
        "true_world": widgets.Dropdown(options=options, value=0, description="true world"),
        "epsilon": widgets.FloatSlider(
            value=epsilon,
            min=0.05,
            max=5.0,
            step=0.05,
            description="ε",
            layout=_LAYOUT,
            continuous_update=False,
        ),
        "seed": widgets.BoundedIntText(value=seed, min=0, max=2**31 - 1, description="seed"),
    }

    def draw(column, true_world, epsilon, seed):
        universe = data[column].to_numpy(dtype=float)
        n_worlds = count_worlds(universe, size)
        world = None if true_world == -1 else int(true_world)
        # cached only for a built-in query: a reader's callable may have changed behaviour
        curve = _curve if get_query(query).built_in else _curve.__wrapped__
        rates = curve(tuple(universe.tolist()), size, query, world, trials, int(seed), grid)
        at = simulate_attack(
            universe, size, query, epsilon, true_world=world, trials=trials, rng=int(seed)
        )
        who = (
            "true world drawn from the uniform prior"
            if world is None
            else f"true world {labels[world]}"
        )
        fig = plot_attack_success(
            np.asarray(grid),
            {f"{column}, {who}": rates},
            1 / n_worlds,
            marker=(epsilon, at),
            figsize=(6.4, 3.2),
        )
        fig._course_shape = (column, true_world, int(seed))  # what the curve is of
        return fig, text(column, world, epsilon, seed, at, who, n_worlds)

    def text(column, world, epsilon, seed, at, who, n_worlds):
        return (
            f"{column}, {who}: success rate at ε = {risk_up(epsilon):.3g} is {risk_up(at):.4f} over {trials} "
            f"seeded releases (seed {int(seed)}); the prior's guess succeeds with 1/W = "
            f"1/{n_worlds} = {1 / n_worlds:.4f}"
        )

    def update(fig, column, true_world, epsilon, seed):
        # ε moves the marker in place; another column, world or seed draws a new curve, and
        # so does every move for a reader's callable query (its curve is never kept)
        same = getattr(fig, "_course_shape", None) == (column, true_world, int(seed))
        if not same or not get_query(query).built_in:
            return None
        universe = data[column].to_numpy(dtype=float)
        world = None if true_world == -1 else int(true_world)
        at = simulate_attack(
            universe, size, query, epsilon, true_world=world, trials=trials, rng=int(seed)
        )
        update_attack_marker(fig, (epsilon, at))
        who = (
            "true world drawn from the uniform prior"
            if world is None
            else f"true world {labels[world]}"
        )
        return text(column, world, epsilon, seed, at, who, count_worlds(universe, size))

    return Dashboard(controls, draw, update=update)
