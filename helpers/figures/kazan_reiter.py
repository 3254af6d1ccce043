"""Files in figures/ for the kazan reiter notebooks: name -> zero-argument Figure factory."""

from __future__ import annotations

FIGURES: dict = {}
