"""matplotlib figure functions: data in, ``matplotlib.figure.Figure`` out, no globals.

The same function draws a notebook's static figure, its widget's figure and the PNG in
``figures/``. Figures are built with ``Figure()`` (not pyplot), so nothing accumulates in
pyplot's registry when a slider redraws a hundred times. Every figure carries its text
alternative as ``fig.alt_text`` (``helpers.plotting._alt``) and draws its series in Okabe &
Ito's colours, each series also told apart by line style, marker or hatch
(``helpers.plotting._style``).
"""

from ._alt import alt_text as alt_text
from ._alt import alt_text_problem as alt_text_problem
from ._alt import install_ipython_alt
from .beliefs import *  # noqa: F403
from .budget import *  # noqa: F403
from .deployments import *  # noqa: F403
from .foundations import *  # noqa: F403
from .kazan_reiter import *  # noqa: F403
from .lee_clifton import *  # noqa: F403
from .plrv import *  # noqa: F403
from .release import *  # noqa: F403

# in a notebook's kernel, each displayed figure's PNG carries its text alternative
install_ipython_alt()
