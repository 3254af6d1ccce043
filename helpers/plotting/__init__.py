"""matplotlib figure functions: data in, ``matplotlib.figure.Figure`` out, no globals.

The same function draws a notebook's static figure, its widget's figure and the PNG in
``figures/``. Figures are built with ``Figure()`` (not pyplot), so nothing accumulates in
pyplot's registry when a slider redraws a hundred times.
"""

from .beliefs import *  # noqa: F403
from .deployments import *  # noqa: F403
from .foundations import *  # noqa: F403
from .kazan_reiter import *  # noqa: F403
from .lee_clifton import *  # noqa: F403
from .plrv import *  # noqa: F403
