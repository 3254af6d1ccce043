"""Dashboards (ipywidgets) for the bounds, binary-search and median notebooks (03–05).

Each factory returns a ``Dashboard`` (see ``_base``) whose controls are reachable by name.
The figure is built once by the same plotting function as the notebook's static figure
and then updated in place on every slider move (``helpers.plotting.lee_clifton``'s
``update_*``, the dashboard's ``update``), so a redraw costs one render, not a new figure.
"""

from __future__ import annotations

import math

import ipywidgets as widgets

from .. import lee_clifton as lc
from ..checks import check_finite_scalar
from ..plotting import allowed_down, risk_up
from ..plotting.lee_clifton import (
    as_columns,
    plot_binary_search,
    plot_bounds,
    update_binary_search,
    update_bounds,
)
from ..queries import get_query
from ..sensitivity import unbounded_sensitivity
from ._base import Dashboard
from ._checks import data_and_size, starting_value

__all__ = ["binary_search_dashboard", "bounds_dashboard", "queries_dashboard"]


#: the queries offered by ``queries_dashboard``: every built-in one and two percentiles
DASHBOARD_QUERIES = lc.ANALYSIS_QUERIES  # the same list as analysis_table's rows
_DEFAULT_QUERY = "median"  # queries_dashboard's first query when the caller names none


def _columns_and_size(data, size) -> tuple[dict, int]:
    """The universe's columns (the school example's school_year and absence_days by default)."""
    frame, size = data_and_size(data, size, size_required=True)
    return as_columns(frame[["school_year", "absence_days"]] if data is None else frame), size


def _risk_slider(cols: dict, size: int, risk: float) -> widgets.FloatSlider:
    rule = "lie in (0, 0.95] (the slider's range)"
    given, risk = risk, check_finite_scalar("risk", risk, rule=rule)
    if not 0 < risk <= 0.95:
        raise ValueError(f"risk must {rule}; got {given!r}")
    # ρ must exceed the prior 1/W (no ε > 0 meets a smaller one): start just above it
    prior = max(1.0 / lc.count_worlds(values, size) for values in cols.values())
    low = math.ceil((prior + 0.005) * 100) / 100
    if risk < low:  # refused, not silently raised to the slider's minimum
        raise ValueError(
            f"risk must lie in [{low:g}, 0.95] (above the prior 1/W = {prior:.4g}, the slider's "
            f"range); got {given!r}"
        )
    return widgets.FloatSlider(
        value=risk,
        min=low,
        max=0.95,
        step=0.01,
        description="ρ (risk)",
        readout_format=".3f",
        continuous_update=False,
    )


def _status(value: float, risk: float) -> str:
    return "meets ρ" if value <= risk else "above ρ"


def bounds_dashboard(
    data=None, size: int | None = None, query="mean", *, epsilon: float = 0.5, risk: float = 1 / 3
) -> Dashboard:
    """Notebook 03: sliders for ε and ρ move a marker on both bounds and the ρ line.

    ``data``: a DataFrame or mapping of universe columns (default: the school example's
    school_year and absence_days, n = 3); ``size``: the release size n.
    """
    cols, size = _columns_and_size(data, size)
    rule = "lie in [0.01, 5] (the slider's range)"
    given, epsilon = epsilon, check_finite_scalar("epsilon", epsilon, rule=rule)
    if not 0.01 <= epsilon <= 5.0:
        raise ValueError(f"epsilon must {rule}; got {given!r}")

    def text(epsilon: float, risk: float) -> str:
        lines = [f"ε = {risk_up(epsilon):.3f}, ρ = {allowed_down(risk):.3f}"]
        width = max(len(name) for name in cols)
        for name, values in cols.items():
            upper, tight = (float(v[0]) for v in lc.bound_curves(values, size, query, [epsilon]))
            lines.append(
                f"{name:<{width}}  upper bound {risk_up(upper):.4f} ({_status(upper, risk)})   "
                f"tight bound {risk_up(tight):.4f} ({_status(tight, risk)})"
            )
        return "\n".join(lines)

    def draw(epsilon: float, risk: float):
        fig = plot_bounds(cols, size, query, risk=risk, epsilon=epsilon, figsize=(8.4, 4.4))
        return fig, text(epsilon, risk)

    def update(fig, epsilon: float, risk: float):
        update_bounds(fig, cols, size, query, risk=risk, epsilon=epsilon)
        return text(epsilon, risk)

    controls = {
        "epsilon": widgets.FloatSlider(
            value=starting_value("epsilon", epsilon, 0.01, 5.0),
            min=0.01,
            max=5.0,
            step=0.01,
            description="ε",
            readout_format=".2f",
            continuous_update=False,
        ),
        "risk": _risk_slider(cols, size, risk),
    }
    return Dashboard(controls, draw, update=update)


def _epsilon_text(value: float, why: str) -> str:
    return f"∞ ({why})" if math.isinf(value) else f"{allowed_down(value):.4f}"


_UB_INF = "Δv = 0: every world gives the same answer"
_BS_INF = "the tight bound never rises above ρ"


def binary_search_dashboard(
    data=None, size: int | None = None, query="mean", *, risk: float = 1 / 3
) -> Dashboard:
    """Notebook 04: a ρ slider moves both dashed lines (eq. 7 and the binary search)."""
    cols, size = _columns_and_size(data, size)

    def text(risk: float) -> str:
        lines = [f"ρ = {allowed_down(risk):.3f}"]
        width = max(len(name) for name in cols)
        for name, values in cols.items():
            e_ub = lc.epsilon_upper_bound(values, size, query, risk)
            e_bs = lc.binary_search_epsilon(values, size, query, risk)
            lines.append(
                f"{name:<{width}}  ε of inequality 7 = {_epsilon_text(e_ub, _UB_INF)}   "
                f"ε binary search = {_epsilon_text(e_bs, _BS_INF)}"
            )
        return "\n".join(lines)

    def draw(risk: float):
        return plot_binary_search(cols, size, query, risk=risk, figsize=(8.4, 4.4)), text(risk)

    def update(fig, risk: float):
        update_binary_search(fig, cols, size, query, risk=risk)
        return text(risk)

    return Dashboard({"risk": _risk_slider(cols, size, risk)}, draw, update=update)


def queries_dashboard(
    data=None,
    size: int | None = None,
    *,
    query: str | None = None,
    column: str | None = None,
    risk: float = 1 / 3,
    queries=DASHBOARD_QUERIES,
) -> Dashboard:
    """Notebook 05: choose a query and a column, slide ρ; prints Δf, Δv and both ε.

    The figure is updated in place while ρ moves; a new query or column draws a fresh one.
    The query menu offers the queries this universe can show: a built-in query the analysis
    refuses on one of the columns (an order statistic with Δf = 0 on the 336,776 flights)
    is left out and named, with the reason, on the readout's last line, so that every choice
    draws its figure (a refused one left the previous query's figure on screen). A column
    menu of a single column is shown disabled (it has nothing to choose).

    ``query`` not given starts on the median when it is offered, else on the first query
    offered (a reader's own data with tied values refuses the median, and a choice the
    reader never made must not be an error); a ``query`` named by the caller and refused on
    these data is a ValueError.
    """
    cols, size = _columns_and_size(data, size)
    queries = tuple(queries)
    for name in queries:
        get_query(name)  # refuse unknown names now, not on the first click
    if query is not None and query not in queries:
        raise ValueError(f"query must be one of {queries}; got {query!r}")
    column = next(iter(cols)) if column is None else column
    if column not in cols:
        raise ValueError(f"column must be one of {list(cols)}; got {column!r}")
    slider = _risk_slider(cols, size, risk)

    fixed, refused = _analysed(cols, size, slider.value, queries)
    offered = [q for q in queries if get_query(q).name not in refused]
    if query is not None and get_query(query).name in refused:
        raise ValueError(f"query {query!r} cannot be shown on these data: {refused[query]}")
    if not offered:
        raise ValueError(f"no query can be shown on these data: {next(iter(refused.values()))}")
    if query is None:  # the default: the median where it can be shown, else the first offered
        query = _DEFAULT_QUERY if _DEFAULT_QUERY in offered else offered[0]
    left_out = _left_out(refused)

    def text(query: str, column: str, risk: float) -> str:
        values = cols[column]
        if (query, column) not in fixed or not _built_in(query):
            fixed[query, column] = _fixed_lines(query, column, values, size, None)
        head, sensitivities = fixed[query, column]
        e_ub = lc.epsilon_upper_bound(values, size, query, risk)
        e_bs = lc.binary_search_epsilon(values, size, query, risk)
        return (
            "\n".join(
                [
                    f"{head}ρ = {allowed_down(risk):.3f}",
                    sensitivities,
                    f"ε of inequality 7 = {_epsilon_text(e_ub, _UB_INF)}   "
                    f"ε binary search = {_epsilon_text(e_bs, _BS_INF)}",
                ]
            )
            + left_out
        )

    def draw(query: str, column: str, risk: float):
        fig = plot_binary_search({column: cols[column]}, size, query, risk=risk, figsize=(5.6, 4.4))
        fig.course_key = (query, column)  # what the figure's curves are of
        return fig, text(query, column, risk)

    def update(fig, query: str, column: str, risk: float):
        if getattr(fig, "course_key", None) != (query, column):
            return None  # other curves: a fresh figure
        update_binary_search(fig, {column: cols[column]}, size, query, risk=risk)
        return text(query, column, risk)

    controls = {
        "query": widgets.Dropdown(options=offered, value=query, description="query"),
        "column": widgets.Dropdown(
            options=list(cols), value=column, description="column", disabled=len(cols) == 1
        ),
        "risk": slider,
    }
    return Dashboard(controls, draw, update=update)


def _analysed(cols: dict, size: int, risk: float, queries) -> tuple[dict, dict]:
    """What :func:`queries_dashboard` shows that does not depend on ρ, per (query, column) of a
    built-in query, and the built-in queries refused on some column, with the reason.

    Read from the analysis table (cached by value in lee_clifton, and already computed by a
    notebook that showed it); a reader's callable may change behaviour, so the dashboard
    recomputes its numbers at each redraw."""
    fixed: dict = {}
    refused: dict = {}
    for name, values in cols.items():
        table = lc.analysis_table(values, size, risk, [q for q in queries if _built_in(q)])
        for q, row in table.iterrows():
            if row["note"]:
                refused.setdefault(q, row["note"])
            else:
                fixed[q, name] = _fixed_lines(q, name, values, size, row)
    return fixed, refused


def _left_out(refused: dict) -> str:
    """The readout's last line naming the queries not offered and why ('' if none is)."""
    reasons = sorted(
        {
            "Δf = 0 here: no noise is needed and the bounds are undefined"
            if "zero sensitivity" in note
            else note
            for note in refused.values()
        }
    )
    return f"\nnot offered here: {', '.join(refused)} ({'; '.join(reasons)})" if refused else ""


def _built_in(query) -> bool:
    return get_query(query).built_in


def _fixed_lines(query, column: str, values, size: int, row) -> tuple[str, str]:
    """The readout's lines that do not depend on ρ: from the analysis table's ``row`` when
    given, else computed (a reader's own query)."""
    if row is None:
        delta_f = unbounded_sensitivity(values, size, query)
        spread = lc.delta_v(values, size, query)
        limit = lc.limit_of_tight_bound(values, size, query)
    else:
        delta_f, spread, limit = row["Δf"], row["Δv"], row["limit of tight bound"]
    name = get_query(query).name if not isinstance(query, str) else query
    return (
        f"query {name}, column {column}, n = {size}, W = {lc.count_worlds(values, size)}, ",
        f"Δf (unbounded sensitivity) = {delta_f:.4f}   Δv = {spread:.4f}   "
        f"tight bound's limit = {risk_up(limit):.4f}",
    )
