"""Grading submissions: which exercises, at which parameters, how many points (``scoring``)."""
