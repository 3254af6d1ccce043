"""``python -m instructor.answer_key [--out DIR]`` (``python3 course.py key``)."""

import sys

from instructor.answer_key import main

sys.exit(main(sys.argv[1:]))
