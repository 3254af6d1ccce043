"""How an answer is judged without the expected value in sight: salted hashes.

Every exercise is judged from a *key entry*, a JSON-able dict that holds, for each number
the exercise asks for, only salted SHA-256 hashes (never the value):

* ``h``: the expected value quantised at a hundredth of the step ``q`` the exercise states
  (``round(100 · value / q)``); an answer is accepted when its own quantised value is within
  101 of those sub-steps, so every answer within ±q is accepted and none further than 1.02 q
  (the precision the exercise states is the precision accepted);
* ``hs``: the sign and the logarithm of the magnitude in steps of 0.2 %, which says "a little
  too large";
* ``hc``: the same in steps of 5 %, which says "too large" or "much too small".

A slip (a common factor, a square, an exp or a log) is named only when undoing it lands on the
answer at the stated precision (and within 1 % of it), and only when that is not a mere
consequence of the answer being near 0, 1 or −1: if undoing the slip on 0, 1 or −1 lands on the
answer as well, the value given is as well explained by being near that number, and no slip is
named. A hint therefore reveals what a hint reveals (a direction, a factor), never the value. The
student's wheel carries a key built with a random salt when the student edition is built
(``helpers/exercises/_key_data.py``); in the instructor's environment the key entries are
computed on demand from ``helpers/exercises/answers`` (not part of the student wheel) and
the grader builds them the same way, so the formative ``check`` and the grade can never
disagree. Whoever has the key can still search it (as they can search ``check`` by calling
it): the grade comes from ``python3 course.py grade`` and the instructor's answers.
"""

from __future__ import annotations

import hashlib
import math
import numbers
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

# (factor, how to say it): ratios a reader typically lands on by a slip
_FACTORS = (
    (2.0, "a factor of 2"),
    (10.0, "a factor of 10"),
    (100.0, "a factor of 100"),
    (1000.0, "a factor of 1000"),
    (math.e, "a factor of e (an exponent off by one?)"),
    (math.log(10), "a factor of ln 10 (log10 instead of ln?)"),
    (3.0, "a factor of 3"),
    (4.0, "a factor of 4"),
)
_FINE = 100  # sub-steps per precision step q: ±q is accepted, nothing beyond (1 + 2/_FINE)·q
_SLIP = math.log1p(0.002)  # fine logarithmic bucket: "a little", "within 0.2 %"
_COARSE = math.log(1.05)  # coarse logarithmic bucket: the direction
_A_LITTLE = 48  # fine buckets in 10 % (1.002^48 ≈ 1.10)
_MUCH = 23  # coarse buckets in a factor of 3 (1.05^23 ≈ 3.07)
_FAR = 600  # coarse buckets searched (1.05^600 ≈ 5·10^12)
_DIGEST = 16  # hex characters kept of each hash
_SPECIFIC = 0.01  # a slip is named only when undoing it lands within 1 % of the answer
_LANDMARKS = (0.0, 1.0, -1.0)  # values whose images under a slip say nothing about the slip


# --- the precision an exercise states ---------------------------------------------------------


@dataclass(frozen=True)
class Precision:
    """How precisely an exercise asks for its numbers: ``decimals`` or significant ``digits``."""

    decimals: int | None = None
    digits: int | None = None

    def __post_init__(self):
        if (self.decimals is None) == (self.digits is None):
            raise ValueError("give exactly one of decimals= and digits=")

    def step(self, value: float) -> float:
        """The quantisation step q for an expected ``value``."""
        if self.decimals is not None:
            return 10.0**-self.decimals
        if value == 0 or not math.isfinite(value):
            return 10.0 ** -(self.digits or 1)
        return 10.0 ** (math.floor(math.log10(abs(value))) - self.digits + 1)

    def text(self) -> str:
        """What the exercise states, e.g. ``to 4 decimal places (±0.0001 is accepted)``."""
        if self.decimals is not None:
            q = f"{10.0**-self.decimals:.{self.decimals}f}" if self.decimals > 0 else "1"
            return f"to {self.decimals} decimal places (±{q} is accepted)"
        return f"to {self.digits} significant digits (±1 in the last of them is accepted)"


# --- an exercise's parameters ----------------------------------------------------------------


@dataclass(frozen=True)
class Param:
    """One input of an exercise: the value the notebook shows, and the range drawn for grading.

    ``kind`` is ``"float"`` (uniform in [low, high], rounded to ``step``), ``"int"`` (uniform
    in low … high), ``"choice"`` (one of ``choices``) or ``"floats"`` (``len(default)`` sorted,
    distinct values in [low, high] on the ``step`` grid). ``about`` says what it is, in the
    statement's words; ``shown`` is how the notebook writes the default (``"1 / 3"``).
    """

    default: object
    low: float | None = None
    high: float | None = None
    kind: str = "float"
    choices: tuple = ()
    step: float | None = None
    about: str = ""
    shown: str | None = None

    def __post_init__(self):
        if self.kind not in ("float", "int", "choice", "floats"):
            raise ValueError(f"kind={self.kind!r}; one of 'float', 'int', 'choice', 'floats'")
        if self.kind == "choice" and self.default not in self.choices:
            raise ValueError(f"default={self.default!r} is not among choices={self.choices!r}")
        if self.kind != "choice" and not (self.low <= self.high):
            raise ValueError(f"low={self.low!r} must be at most high={self.high!r}")

    def draw(self, rng):
        """One value from the range, drawn with numpy Generator ``rng``."""
        if self.kind == "choice":
            return self.choices[int(rng.integers(len(self.choices)))]
        if self.kind == "int":
            return int(rng.integers(int(self.low), int(self.high) + 1))
        if self.kind == "floats":
            grid = np.round(np.arange(self.low, self.high + self.step / 2, self.step), 10)
            picked = rng.choice(grid, size=len(self.default), replace=False)
            return tuple(float(v) for v in np.sort(picked))
        value = float(rng.uniform(self.low, self.high))
        if self.step:
            value = float(
                np.clip(round(round(value / self.step) * self.step, 10), self.low, self.high)
            )
        return value

    def literal(self) -> str:
        """How the notebook's parameters cell writes the default."""
        return self.shown if self.shown is not None else repr(self.default)


# --- hashing ---------------------------------------------------------------------------------


def new_salt() -> str:
    return secrets.token_hex(16)


def _hasher(salt: str, exercise_id: str, path: str):
    def digest(token: str) -> str:
        text = f"{salt}|{exercise_id}|{path}|{token}"
        return hashlib.sha256(text.encode()).hexdigest()[:_DIGEST]

    return digest


def _sign(value: float) -> str:
    return "-" if value < 0 else "+"


def _fine_index(value: float, q: float) -> int | None:
    """``value`` in sub-steps of q/_FINE (None where it cannot be one: inf, NaN)."""
    try:
        return round(value / q * _FINE)
    except (OverflowError, ValueError):
        return None


def _fine_token(index: int) -> str:
    return f"f{index}"


def _log_token(kind: str, value: float, width: float, offset: int = 0) -> str:
    if value == 0:
        return f"{kind}0"
    return f"{kind}{_sign(value)}{math.floor(math.log(abs(value)) / width) + offset}"


def _is_integer(value) -> bool:
    return isinstance(value, (numbers.Integral, np.integer)) and not isinstance(
        value, (bool, np.bool_)
    )


def _is_real_scalar(value) -> bool:
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, numbers.Real):
        return True
    return isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype.kind in "iuf"


def _as_float(value) -> tuple[float | None, str]:
    """``value`` (a real scalar) as a float, or None and why not; never raises.

    A whole number beyond a float's range (``10**400``) and a ``numbers.Real`` whose
    ``__float__`` fails are answers like any other: they get a message, not an exception."""
    try:
        x = float(value)
    except OverflowError:
        digits = ""
        if isinstance(value, int):
            digits = (
                f" (it has {len(str(abs(value))) if abs(value) < 10**4000 else 'over 4000'} digits)"
            )
        return None, f"is a number too large to be read as a float{digits}"
    except Exception as error:  # a user-defined number whose conversion fails
        return None, (
            f"is a number that cannot be read as a float ({type(error).__name__}: {_short(error)})"
        )
    if not isinstance(x, float):  # pragma: no cover - float() always returns a float
        return None, "is not a plain number"
    return x, ""


def _short(error: BaseException, limit: int = 120) -> str:
    """An exception's message, cut to ``limit`` characters (its str() may fail too)."""
    try:
        text = str(error)
    except Exception:
        text = type(error).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _article(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


def _type_name(value) -> str:
    """What a value is, in words (with its article): "an integer", "a string", "None" ..."""
    if value is None:
        return "None"
    if isinstance(value, np.ndarray):
        kind = {"b": " of booleans", "U": " of strings", "S": " of bytes", "O": " of objects"}
        return f"an array{kind.get(value.dtype.kind, '')} of shape {plain(value.shape)}"
    if isinstance(value, (bool, np.bool_)):
        return "a boolean"
    if isinstance(value, (str, np.str_)):
        return "a string"
    if _is_integer(value):
        return "an integer"
    if isinstance(value, numbers.Real):
        return "a number"
    if isinstance(value, (complex, np.complexfloating)):
        return "a complex number"
    if isinstance(value, (tuple, list)):
        count = f"{len(value)} value{'' if len(value) == 1 else 's'}"
        return f"a {type(value).__name__} of {count}"
    if isinstance(value, dict):
        return "a dict"
    if callable(value):
        return "a function"
    return _article(type(value).__name__)


def plain(value):
    """``value`` as plain Python (numpy scalars, arrays and tuples of them), for a message."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if isinstance(value, tuple):
        return tuple(plain(v) for v in value)
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


_NUMPY_REPR = re.compile(r"\bnp\.(?:True_|False_|\w+\(([^()]*)\))")


def plain_text(text: str) -> str:
    """``text`` with numpy reprs (``np.float64(0.5)``, ``np.True_``) as plain Python."""

    def one(match: re.Match) -> str:
        whole = match.group(0)
        if whole in ("np.True_", "np.False_"):
            return whole[3:-1]
        return match.group(1)

    return _NUMPY_REPR.sub(one, text)


# --- building a key entry from the expected value (instructor side only) ---------------------


def _leaf(value, precision: Precision, digest) -> dict:
    if isinstance(value, (bool, np.bool_)):
        return {"kind": "bool", "h": digest(f"b{bool(value)}")}
    if isinstance(value, str):
        return {"kind": "str", "h": digest(f"t{value.strip().lower()}")}
    if _is_integer(value):
        n = int(value)
        return {
            "kind": "int",
            "h": digest(f"i{n}"),
            "hs": digest(_log_token("s", n, _SLIP)),
            "hc": digest(_log_token("c", n, _COARSE)),
        }
    value = float(value)
    if math.isnan(value):
        raise ValueError("an expected answer is NaN")
    if math.isinf(value):
        return {
            "kind": "real",
            "q": 1.0,
            "h": digest(f"inf{_sign(value)}"),
            "hs": digest("s-inf"),
            "hc": digest("c-inf"),
        }
    q = precision.step(value)
    return {
        "kind": "real",
        "q": q,
        "h": digest(_fine_token(_fine_index(value, q))),
        "hs": digest(_log_token("s", value, _SLIP)),
        "hc": digest(_log_token("c", value, _COARSE)),
    }


def _part(value, precision: Precision, digest_for) -> dict:
    if isinstance(value, np.ndarray) and value.ndim > 0:
        flat = value.ravel()
        return {
            "kind": "array",
            "shape": list(value.shape),
            "items": [
                _leaf(flat[i].item(), precision, digest_for(str(i))) for i in range(flat.size)
            ],
        }
    return _leaf(value, precision, digest_for(""))


def make_entry(
    exercise_id: str, names: tuple[str, ...], expected, precision: Precision, salt: str
) -> dict:
    """The key entry of one exercise (hashes only) for its ``expected`` value."""
    values = [expected] if len(names) == 1 else list(expected)
    if len(values) != len(names):
        raise ValueError(f"{exercise_id}: {len(names)} names but {len(values)} values")
    parts = [
        _part(value, precision, lambda sub, k=k: _hasher(salt, exercise_id, f"{k}/{sub}"))
        for k, value in enumerate(values)
    ]
    kinds = {leaf["kind"] for part in parts for leaf in part.get("items", [part])}
    return {
        "id": exercise_id,
        "names": list(names),
        "precision": precision.text() if "real" in kinds else "exactly",
        "salt": salt,
        "parts": parts,
    }


def open_entry(exercise_id: str, names: tuple[str, ...], precision: str) -> dict:
    """The key entry of an open exercise: its own test decides (``_open.py``), no hash."""
    return {"id": exercise_id, "names": list(names), "precision": precision, "open": True}


# --- judging an answer from a key entry (student, instructor and grader alike) ---------------


def _search(digest, target: str, tokens) -> int | None:
    for offset, token in tokens:
        if digest(token) == target:
            return offset
    return None


def _fine_match(x: float, leaf: dict, digest) -> bool:
    """Is ``x`` within the stated precision ±q of the answer (±q always, 1.02 q never)?"""
    k = _fine_index(x, leaf["q"])
    if k is None:
        return False
    target = leaf["h"]
    return any(digest(_fine_token(k + d)) == target for d in range(-_FINE - 1, _FINE + 2))


def _matches(x: float, leaf: dict, digest) -> bool:
    """Does ``x`` equal the answer at the stated precision (a count: exactly)?"""
    if not math.isfinite(x):
        return False
    if leaf["kind"] == "int":
        return x == math.floor(x) and digest(f"i{int(x)}") == leaf["h"]
    return _fine_match(x, leaf, digest)


def _within_slip(x: float, leaf: dict, digest) -> bool:
    """Is ``x`` within about 0.2 % of the answer (its logarithmic bucket or the next)?"""
    if x == 0:
        return digest("s0") == leaf["hs"]
    return any(digest(_log_token("s", x, _SLIP, d)) == leaf["hs"] for d in (-1, 0, 1))


def _explains(undo, x: float, leaf: dict, digest) -> bool:
    """Does undoing a slip (``undo``) turn ``x`` into the answer, and say something?

    It must land on the answer at the stated precision and, where that precision is coarser
    than 1 % of the value, within 0.2 % as well; and undoing it on 0, 1 or −1 must not land
    there too (else ``x`` is as well explained by being near that number: a near-1 answer
    is not "a square" of an answer near 1, a near-0 answer not "a factor of 10" of one near 0).
    """
    y = undo(x)
    if y is None or not math.isfinite(y) or not _matches(y, leaf, digest):
        return False
    if (
        leaf["kind"] != "int"
        and leaf["q"] > _SPECIFIC * abs(y)
        and not _within_slip(y, leaf, digest)
    ):
        return False
    for landmark in _LANDMARKS:
        image = undo(landmark)
        if image is not None and math.isfinite(image) and _matches(image, leaf, digest):
            return False
    return True


def _root(x: float) -> float:
    return math.copysign(math.sqrt(abs(x)), x)


def _square(x: float) -> float | None:
    return x * x if abs(x) < 1e150 else None


def _log(x: float) -> float | None:
    return math.log(x) if x > 0 else None


def _exp(x: float) -> float | None:
    return math.exp(x) if x < 700 else None


def _slips():
    """(undo, words): a slip that turns the answer into the value given, and how to say it."""
    for factor, words in _FACTORS:
        yield (lambda x, f=factor: x / f), f"by {words}"
        yield (lambda x, f=factor: x * f), f"by {words}"
    yield _root, ": is it the square of the answer (a missing square root)?"
    yield _square, ": is it the square root of the answer (a square root too many)?"
    yield _log, ": is it e to the power of the answer (an exp too many)?"
    yield _exp, ": is it the logarithm of the answer (a log too many)?"


def _size_words(x: float, leaf: dict, digest) -> str:
    """'too large' / 'too small', by how much or by which slip, found from the hashes alone."""
    if x == 0:
        if digest("c0") == leaf["hc"]:  # pragma: no cover - 0 is then accepted above
            return "is not zero, but the answer is"
        return "is zero, but the answer is not"
    if digest("c0") == leaf["hc"]:
        return "is not zero, but the answer is"
    sign = _sign(x)
    other = "-" if sign == "+" else "+"
    fine = [(d, _log_token("s", x, _SLIP, -d)) for d in range(-_A_LITTLE, _A_LITTLE + 1)]
    fine.sort(key=lambda t: abs(t[0]))
    near = _search(digest, leaf["hs"], fine)
    if near is not None:
        if leaf["kind"] == "int":
            direction = "too large" if near > 0 else "too small"
            return f"is a little {direction} (within 10 %): a count is exact (off by one?)"
        if near == 0:
            return (
                "is within 0.2 % but not to the stated precision: keep the digits the "
                "exercise asks for (a coarser rounding, a grid or a tolerance?)"
            )
        direction = "too large" if near > 0 else "too small"
        # more than 0.2 % off is not rounding: an input that differs (a weight, a parameter
        # the statement gives) or a search that stopped early is
        return (
            f"is a little {direction} (within 10 %): check every input the statement gives "
            "(each weight and parameter) and how finely you searched"
        )
    coarse = [(d, _log_token("c", x, _COARSE, -d)) for d in range(-_FAR, _FAR + 1)]
    coarse.sort(key=lambda t: abs(t[0]))
    offset = _search(digest, leaf["hc"], coarse)
    if offset is None:
        flipped = [(d, f"c{other}{tok[2:]}") for d, tok in coarse]
        if _search(digest, leaf["hc"], flipped) is None:
            return "is far off (by more than a factor of 10^12)"
        for undo, words in _slips():  # only an exp or a log turns the sign
            if words.startswith(":") and _explains(undo, x, leaf, digest):
                return f"is of the wrong sign{words}"
        return "is of the wrong sign"
    size = "too large" if offset > 0 else "too small"
    if sign == "-":
        size += " in magnitude"
    for undo, words in _slips():
        if _explains(undo, x, leaf, digest):
            return f"is {size}{'' if words.startswith(':') else ' '}{words}"
    if abs(offset) >= _MUCH:
        return f"is much {size}"
    return f"is {size}"


def _judge_leaf(answer, leaf: dict, digest) -> tuple[bool, str]:
    kind = leaf["kind"]
    if kind == "bool":
        if not isinstance(answer, (bool, np.bool_)):
            return False, f"is {_type_name(answer)}; answer True or False"
        return digest(f"b{bool(answer)}") == leaf["h"], "is not right: think again"
    if kind == "str":
        if not isinstance(answer, str):
            return False, f"is {_type_name(answer)}; a string is expected"
        ok = digest(f"t{answer.strip().lower()}") == leaf["h"]
        return ok, "is not the expected word"
    if not _is_real_scalar(answer):
        return False, f"is {_type_name(answer)}; a single number is expected"
    x, why = _as_float(answer)
    if x is None:
        return False, why
    if math.isnan(x):
        return False, "is NaN (not a number): a number is expected"
    if kind == "int":
        if math.isinf(x) or x != math.floor(x):
            return False, "is not a whole number; a count is expected"
        if digest(f"i{int(x)}") == leaf["h"]:
            return True, ""
        return False, _size_words(x, leaf, digest)
    if math.isinf(x):
        if digest(f"inf{_sign(x)}") == leaf["h"]:
            return True, ""
        if digest(f"inf{'-' if x > 0 else '+'}") == leaf["h"]:
            return False, "is of the wrong sign"
        return False, "is infinite, but the answer is finite"
    if digest("inf+") == leaf["h"] or digest("inf-") == leaf["h"]:
        return False, "is finite, but no finite value is right here"
    if _fine_match(x, leaf, digest):
        return True, ""
    return False, _size_words(x, leaf, digest)


def _as_numbers(answer) -> tuple[np.ndarray | None, str]:
    """``answer`` as an array of floats, or None and why not (strings and booleans are not
    numbers: a list is read item by item, so ``[0.1, True]`` is refused, not read as 1)."""
    try:
        raw = answer if isinstance(answer, np.ndarray) else np.asarray(answer, dtype=object)
    except Exception:  # a sequence that cannot be read (ragged, or whose items raise)
        return None, f"is {_type_name(answer)} that cannot be read as an array of numbers"
    if raw.dtype.kind == "O":
        flat = raw.ravel().tolist()
        wrong = [v for v in flat if not _is_real_scalar(v)]
        if any(isinstance(v, (list, tuple, np.ndarray)) for v in wrong):
            return None, "is ragged (rows of different lengths); an array of numbers is expected"
        if wrong:
            return None, f"holds {_type_name(wrong[0])}; an array of numbers is expected"
        floats = []
        for v in flat:
            x, why = _as_float(v)
            if x is None:
                return None, f"holds a value that {why.removeprefix('is ')}: " + (
                    "an array of numbers is expected"
                )
            floats.append(x)
        raw = np.asarray(floats, dtype=float).reshape(raw.shape)
    if raw.dtype.kind in "bUSc" or raw.dtype.kind not in "iuf":
        what = {"b": "True/False values", "U": "strings", "S": "bytes", "c": "complex numbers"}
        holds = what.get(raw.dtype.kind, f"values of type {raw.dtype}")
        return None, f"holds {holds}; an array of numbers is expected"
    return raw.astype(float), ""


def _judge_array(answer, part: dict, digest_for) -> tuple[bool, str]:
    shape = tuple(part["shape"])
    if isinstance(answer, (str, bytes, dict)) or answer is None or callable(answer):
        return False, f"is {_type_name(answer)}; an array of shape {shape} is expected"
    values, why = _as_numbers(answer)
    if values is None:
        return False, why
    if values.shape != shape:
        return False, f"has shape {plain(values.shape)}; shape {shape} is expected"
    if np.isnan(values).any():
        return False, "holds NaN (not a number): numbers are expected"
    flat = values.ravel()
    wrong = []
    for i, leaf in enumerate(part["items"]):
        value = flat[i].item()
        if leaf["kind"] == "int" and value == math.floor(value):
            value = int(value)
        ok, hint = _judge_leaf(value, leaf, digest_for(str(i)))
        if not ok:
            wrong.append((i, hint))
    if not wrong:
        return True, ""
    first, hint = wrong[0]
    index = plain(np.unravel_index(first, shape))
    where = index[0] if len(index) == 1 else index
    hint = hint.removeprefix("is ")
    return False, f"has {len(wrong)} of {flat.size} entries off; entry {where} is {hint}"


def is_missing(answer) -> bool:
    """``...`` (Ellipsis) anywhere in the answer means "not answered yet"."""
    if answer is Ellipsis:
        return True
    if isinstance(answer, (tuple, list)):
        return any(is_missing(a) for a in answer)
    return False


def judge(entry: dict, answer, *, open_judge=None) -> tuple[bool, str]:
    """(ok, one-line verdict) for ``answer`` to the exercise of key ``entry``; never raises.

    ``open_judge(answer) -> (ok, hint)`` decides an open exercise (``entry["open"]``). Any
    answer, however large or strange, gets a verdict: what cannot be read is a ✗ saying why.
    """
    try:
        return _judge(entry, answer, open_judge=open_judge)
    except Exception as error:  # the class: no answer may stop a check or a grading run
        return False, (
            f"✗ {entry['id']}: {', '.join(entry['names'])} could not be read "
            f"({type(error).__name__}: {_short(error)})"
        )


def _judge(entry: dict, answer, *, open_judge=None) -> tuple[bool, str]:
    exercise_id, names = entry["id"], entry["names"]
    listed = ", ".join(names)
    if is_missing(answer):
        return False, f"… {exercise_id}: not answered yet (set {listed} and run the check)"
    if entry.get("open"):
        ok, hint = open_judge(answer)
        if ok:
            return True, f"✓ {exercise_id}: correct"
        return False, plain_text(f"✗ {exercise_id}: {listed} {hint}")
    if len(names) == 1:
        answers = [answer]
    else:
        if not isinstance(answer, (tuple, list)) or len(answer) != len(names):
            return False, (
                f"✗ {exercise_id}: pass {len(names)} values ({listed}) as a tuple; "
                f"got {_type_name(answer)}"
            )
        answers = list(answer)
    for k, (name, given, part) in enumerate(zip(names, answers, entry["parts"], strict=True)):

        def digest_for(sub, k=k):
            return _hasher(entry["salt"], exercise_id, f"{k}/{sub}")

        if part["kind"] == "array":
            ok, hint = _judge_array(given, part, digest_for)
        else:
            ok, hint = _judge_leaf(given, part, digest_for(""))
        if not ok:
            return False, plain_text(f"✗ {exercise_id}: {name} {hint}")
    return True, f"✓ {exercise_id}: correct"


def compare(answer, expected, *, decimals: int | None = None, digits: int | None = None):
    """(ok, hint) for one value against ``expected`` at a precision (a one-off key).

    The precision must be stated, ``decimals=`` or ``digits=`` (as an exercise states it):
    ±one unit in that place is accepted, nothing beyond 1.02 units.
    """
    precision = Precision(decimals=decimals, digits=digits)
    entry = make_entry("value", ("value",), expected, precision, new_salt())
    ok, line = judge(entry, answer)
    return ok, line.partition("value ")[2] if not ok else ""


# --- open exercises: what ``_open`` and ``nb11`` define (the table itself is ``_open.OPEN``) ---
@dataclass(frozen=True)
class OpenExercise:
    """An open exercise: its names, the precision its statement states, its two steps."""

    exercise_id: str
    names: tuple[str, ...]
    reduce: Callable
    judge: Callable
    #: the precision the exercise states (its statement holds this text) and the judge uses
    precision: str
    #: the exercise's parameters (name → Param), as for a value exercise; the judge takes
    #: them as ``judge(data, params)``
    parameters: dict = field(default_factory=dict)

    def defaults(self) -> dict:
        """The parameters the notebook shows."""
        return {name: p.default for name, p in self.parameters.items()}


def _is_number(value) -> bool:
    """A real number: not a string ("3"), a bool or an array (they are refused, not read)."""
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, np.ndarray):
        return value.ndim == 0 and value.dtype.kind in "iuf"
    return isinstance(value, numbers.Real)


def _what(value) -> str:
    """What a value is, in words, for a message (plain Python, never a numpy repr)."""
    if isinstance(value, (str, bool, np.bool_, np.str_)) or _is_number(value):
        return f"{plain(value)!r} ({_type_name(value)})"
    return _type_name(value)
