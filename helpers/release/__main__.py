"""``python -m helpers.release PLAN.json DATA.csv``: the release script (:func:`helpers.release.script.main`)."""

import sys

from .script import main

if __name__ == "__main__":
    sys.exit(main())
