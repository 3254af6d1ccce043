"""ε-closeness of equivalence classes (lecture notes): a data-set property, not DP."""

from __future__ import annotations

import numpy as np
from scipy.special import rel_entr

from .._docstrings import fill_docstrings
from .._validation import (
    as_output,
)
from ._checks import _check_distribution

__all__ = [
    "class_distributions",
    "kl_divergence",
    "l1_distance",
    "l2_distance",
    "variational_distance",
]


# --- ε-closeness (lecture notes) --------------------------------------------------------------


def class_distributions(classes, sensitive):
    """P_L for every equivalence class and P_Q for the whole data set.

    Returns ``(class_labels, categories, P_L, P_Q)`` with P_L of shape (classes, categories):
    P_L(s) = #(entries of C with S = s)/|C| and P_Q(s) = #(entries with S = s)/N.

    Used in notebook 00.

    Parameters
    ----------
    classes : sequence
        Equivalence class of every entry.
    sensitive : sequence
        Sensitive value of every entry.

    Returns
    -------
    tuple of numpy.ndarray
        As described above.

    %(raises)s

    %(references)s

    Examples
    --------
    >>> labels, cats, p_l, p_q = class_distributions(['a', 'a', 'b'], ['x', 'y', 'x'])
    >>> p_l.tolist(), np.round(p_q, 6).tolist()
    ([[0.5, 0.5], [1.0, 0.0]], [0.666667, 0.333333])
    """
    classes = np.asarray(classes)
    sensitive = np.asarray(sensitive)
    if classes.ndim != 1 or classes.shape != sensitive.shape or classes.size == 0:
        raise ValueError(
            f"classes and sensitive must be non-empty 1-D sequences of equal length; got "
            f"shapes {classes.shape} and {sensitive.shape}"
        )
    labels, ci = np.unique(classes, return_inverse=True)
    cats, si = np.unique(sensitive, return_inverse=True)
    counts = np.zeros((labels.size, cats.size))
    np.add.at(counts, (ci, si), 1)
    p_l = counts / counts.sum(axis=1, keepdims=True)
    p_q = counts.sum(axis=0) / counts.sum()
    return labels, cats, p_l, p_q


def _pair(p_l, p_q):
    p_l = _check_distribution("p_l", p_l)
    p_q = _check_distribution("p_q", p_q)
    if p_l.shape[-1] != p_q.shape[-1]:
        raise ValueError(
            f"p_l and p_q must range over the same categories; got {p_l.shape[-1]} and {p_q.shape[-1]}"
        )
    return p_l, p_q


def variational_distance(p_l, p_q):
    """d(P_L, P_Q) = ½ Σ_s |P_L(s) − P_Q(s)| (rows of p_l against p_q).

    Used in notebook 00.

    Parameters
    ----------
    %(distributions)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(variational_distance([0.5, 0.5], [0.25, 0.75]), 6)
    0.25
    """
    p_l, p_q = _pair(p_l, p_q)
    return as_output(0.5 * np.abs(p_l - p_q).sum(axis=-1))


def l1_distance(p_l, p_q):
    """Σ_s |P_L(s) − P_Q(s)| (twice the variational distance).

    Not called in a notebook; no other helper uses it.

    Parameters
    ----------
    %(distributions)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(l1_distance([0.5, 0.5], [0.25, 0.75]), 6)
    0.5
    """
    p_l, p_q = _pair(p_l, p_q)
    return as_output(np.abs(p_l - p_q).sum(axis=-1))


def l2_distance(p_l, p_q):
    """√(Σ_s (P_L(s) − P_Q(s))²).

    Not called in a notebook; no other helper uses it.

    Parameters
    ----------
    %(distributions)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(l2_distance([0.5, 0.5], [0.25, 0.75]), 6)
    0.353553
    """
    p_l, p_q = _pair(p_l, p_q)
    return as_output(np.sqrt(((p_l - p_q) ** 2).sum(axis=-1)))


def kl_divergence(p_l, p_q):
    """KL(P_L ‖ P_Q) = Σ_s P_L(s) ln(P_L(s)/P_Q(s)), in nats, with 0 ln 0 = 0.

    Infinite (not NaN) where P_L(s) > 0 = P_Q(s); that cannot happen when P_L is a class of
    the data set P_Q is computed from.

    Used in notebook 00.

    Parameters
    ----------
    %(distributions)s

    %(returns_float_or_array)s

    %(raises)s

    %(references)s

    Examples
    --------
    >>> round(kl_divergence([0.5, 0.5], [0.25, 0.75]), 6)
    0.143841
    """
    p_l, p_q = _pair(p_l, p_q)
    # scipy's rel_entr: x·ln(x/y), 0 at x = 0, inf at x > 0 = y
    return as_output(rel_entr(p_l, p_q).sum(axis=-1))


# this module's own shared docstring sections (the placeholders above)
_SECTIONS = {
    "references": """\
References
----------
Li, Li & Venkatasubramanian (2007), t-closeness; Dwork & Roth (2014), Definition 2.4 (ε-DP).""",
    "distributions": """\
p_l : array_like
    P_L, a class's distribution of the sensitive attribute (rows sum to 1).
p_q : array_like
    P_Q, the whole data set's distribution.""",
}

fill_docstrings(globals(), _SECTIONS)
