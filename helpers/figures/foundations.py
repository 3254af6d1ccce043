"""Files in figures/ for the foundations notebooks: name -> zero-argument Figure factory."""

from __future__ import annotations

FIGURES: dict = {}
