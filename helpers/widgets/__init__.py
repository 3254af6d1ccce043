"""ipywidgets dashboards. Each factory returns a ``Dashboard`` whose controls are reachable."""

from ._base import Dashboard as Dashboard
from .beliefs import *  # noqa: F403
from .budget import *  # noqa: F403
from .deployments import *  # noqa: F403
from .foundations import *  # noqa: F403
from .kazan_reiter import *  # noqa: F403
from .lee_clifton import *  # noqa: F403
from .plrv import *  # noqa: F403
from .release import *  # noqa: F403
