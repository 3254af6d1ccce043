"""Files in figures/ for the prior and posterior notebooks: name -> zero-argument Figure factory."""

from __future__ import annotations

FIGURES: dict = {}
