"""``python -m instructor.hub [collect|return] ...`` (``python3 course.py hub``)."""

import sys

from .handin import main as handin_main
from .recipes import main as recipes_main

if __name__ == "__main__":
    argv = sys.argv[1:]
    sys.exit(handin_main(argv) if argv[:1] in (["collect"], ["return"]) else recipes_main(argv))
