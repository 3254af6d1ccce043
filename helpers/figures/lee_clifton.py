"""Files in figures/ for the lee clifton notebooks: name -> zero-argument Figure factory."""

from __future__ import annotations

FIGURES: dict = {}
