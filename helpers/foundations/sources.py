"""The numbers the two sources print (kept here so nothing is typed into a notebook)."""

from __future__ import annotations

__all__ = [
    "CLOSENESS_EXAMPLE",
    "NOTES_RR_EXAMPLE",
    "SURVEY_AUCTION_BIDS",
    "SURVEY_AUCTION_PRICES",
    "SURVEY_LAPLACE_EXAMPLE",
]


# --- the sources' inputs (numbers they print, kept here so nothing is typed in notebooks) ---

#: Survey, "Motivation beyond Exponential Mechanism": three bidders willing to pay these.
SURVEY_AUCTION_BIDS = (1.0, 1.0, 3.01)
#: ... and the four prices the survey discusses.
SURVEY_AUCTION_PRICES = (1.0, 1.01, 3.01, 3.02)
#: Survey, "Intuition behind the Laplace distribution": Δ_f = 10, y₁ = 10, y₂ = 20.
SURVEY_LAPLACE_EXAMPLE = {"sensitivity": 10.0, "y1": 10.0, "y2": 20.0}
#: Lecture notes: n = 18 respondents, α = 1/2, nine answers 1 (and nine 0).
NOTES_RR_EXAMPLE = {"n": 18, "alpha": 0.5, "ones": 9}
#: A small data set for ε-closeness (not in the notes, which give no numbers): the
#: sensitive attribute is the operating system (the notes' own example of S), and the
#: equivalence classes are what an observer who knows the quasi-identifiers can isolate.
CLOSENESS_EXAMPLE = {
    "classes": ("C1",) * 4 + ("C2",) * 4 + ("C3",) * 4,
    "sensitive": (
        "Linux", "Linux", "macOS", "Windows",
        "Linux", "macOS", "Windows", "Windows",
        "Windows", "Windows", "Windows", "Windows",
    ),
}  # fmt: skip
