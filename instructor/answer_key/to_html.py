"""The answer key as one self-contained HTML page (answer-key.html): TeX to HTML, no script, no image.

Part of :mod:`instructor.answer_key`, which re-exports every name.
"""

from __future__ import annotations

import html
import re

import mistune

from .exercises import Exercise
from .quizzes import _quiz_answer_text
from .sources import RUBRIC_LEVELS, TITLE, normalise
from .to_markdown import _INTRO, _by_notebook, _unlink, _variable, slug

# --- HTML -----------------------------------------------------------------------------------

_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "Delta": "Δ", "epsilon": "ε",
    "varepsilon": "ε", "mu": "μ", "pi": "π", "rho": "ρ", "sigma": "σ", "omega": "ω",
    "Omega": "Ω", "lambda": "λ", "theta": "θ", "phi": "φ", "Phi": "Φ", "tau": "τ", "kappa": "κ",
    "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "in": "∈", "cdot": "·", "times": "×",
    "infty": "∞", "approx": "≈", "ne": "≠", "neq": "≠", "to": "→", "mid": "|", "sum": "Σ",
    "ln": "ln", "log": "log", "exp": "exp", "Pr": "Pr", "max": "max", "min": "min",
    "quad": " ", "qquad": "  ", ",": " ", ";": " ", "!": "", " ": " ",
    "left": "", "right": "", "big": "", "Big": "", "bigg": "",
}  # fmt: skip
_ACCENT = {"hat": "\u0302", "tilde": "\u0303", "bar": "\u0304"}
_SCRIPT = {"mathcal": {"L": "ℒ", "D": "𝒟", "M": "ℳ"}}


def _group(tex: str, i: int) -> tuple[str, int]:
    """The argument at ``tex[i:]``: a {...} group, a command or one character."""
    while i < len(tex) and tex[i] == " ":
        i += 1
    if i >= len(tex):
        return "", i
    if tex[i] == "{":
        depth, j = 0, i
        while j < len(tex):
            depth += {"{": 1, "}": -1}.get(tex[j], 0)
            if depth == 0:
                return tex[i + 1 : j], j + 1
            j += 1
        return tex[i + 1 :], len(tex)
    if tex[i] == "\\":
        match = re.match(r"\\([A-Za-z]+|.)", tex[i:])
        return match.group(0), i + len(match.group(0))
    return tex[i], i + 1


def tex_to_html(tex: str) -> str | None:
    """A small LaTeX subset as HTML text (Unicode, <sup>, <sub>); None when out of the subset."""
    out, i = [], 0
    while i < len(tex):
        c = tex[i]
        if c == "\\":
            match = re.match(r"\\([A-Za-z]+|.)", tex[i:])
            name = match.group(1)
            i += len(match.group(0))
            if name in _GREEK:
                out.append(_GREEK[name])
            elif name in _ACCENT:
                arg, i = _group(tex, i)
                inner = tex_to_html(arg)
                if inner is None:
                    return None
                out.append(inner + _ACCENT[name])
            elif name in _SCRIPT:
                arg, i = _group(tex, i)
                out.append(_SCRIPT[name].get(arg, arg))
            elif name in ("frac", "tfrac", "dfrac"):
                top, i = _group(tex, i)
                bottom, i = _group(tex, i)
                top_html, bottom_html = tex_to_html(top), tex_to_html(bottom)
                if top_html is None or bottom_html is None:
                    return None
                if top == "1" and bottom == "2":
                    out.append("½")
                else:
                    wrap = lambda s: s if len(s) == 1 or s.isalnum() else f"({s})"  # noqa: E731
                    out.append(f"{wrap(top_html)}/{wrap(bottom_html)}")
            elif name in ("text", "mathrm", "operatorname", "mathit", "textrm", "mathbf"):
                arg, i = _group(tex, i)
                out.append(html.escape(arg))
            elif name in ("$", "%", "&", "_", "{", "}", "#"):
                out.append(html.escape(name))
            else:
                return None
        elif c in "^_":
            arg, i = _group(tex, i + 1)
            inner = tex_to_html(arg)
            if inner is None:
                return None
            tag = "sup" if c == "^" else "sub"
            out.append(f"<{tag}>{inner}</{tag}>")
        elif c in "{}":
            i += 1
        elif c == "-":
            out.append("−")  # a minus sign, not a hyphen
            i += 1
        else:
            out.append(html.escape(c))
            i += 1
    return "".join(out)


_MATH = re.compile(r"\$\$(.+?)\$\$|(?<![\\$])\$(?!\$)(.+?)(?<!\\)\$", re.DOTALL)


def _math_html(tex: str, display: bool) -> str:
    converted = tex_to_html(tex.strip())
    if converted is None:
        return f'<code class="tex">{html.escape(tex.strip())}</code>'
    tag = "div" if display else "span"
    return f'<{tag} class="math">{converted}</{tag}>'


class _Renderer(mistune.HTMLRenderer):
    def link(self, text, url, title=None):
        if url.startswith("#"):
            return f'<a href="{html.escape(url)}">{text}</a>'
        return text  # nothing points outside the page

    def image(self, text, url, title=None):
        return html.escape(text or "")

    def heading(self, text, level, **attrs):
        return f"<p><strong>{text}</strong></p>\n"  # statements never add headings to the page


_MARKDOWN = mistune.create_markdown(renderer=_Renderer(escape=True), plugins=["table"])


def markdown_html(text: str) -> str:
    """Markdown (with $math$) as HTML for the page; raw HTML in it is escaped."""
    maths: list[str] = []

    def hold(match):
        maths.append(_math_html(match.group(1) or match.group(2), bool(match.group(1))))
        return f"MATHHOLD{len(maths) - 1}X"

    rendered = _MARKDOWN(_MATH.sub(hold, text))
    return re.sub(r"MATHHOLD(\d+)X", lambda m: maths[int(m.group(1))], rendered)


def _inline_html(text: str) -> str:
    """Markdown rendered without its enclosing paragraph."""
    rendered = markdown_html(text).strip()
    match = re.fullmatch(r"<p>(.*)</p>", rendered, re.DOTALL)
    return match.group(1) if match else rendered


_CSS = """
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; line-height: 1.55;
  color: #1a1a1a; background: #fff; max-width: 58rem; margin: 0 auto; padding: 1rem 1.5rem 4rem; }
a { color: #0b4f9c; }
a:focus, a:hover { outline: 2px solid #0b4f9c; outline-offset: 2px; }
.skip { position: absolute; left: -999px; }
.skip:focus { left: 1rem; top: 1rem; background: #fff; padding: .3rem .6rem; }
h1 { font-size: 1.8rem; } h2 { border-top: 3px solid #333; padding-top: .8rem; margin-top: 2.5rem; }
h3 { border-top: 1px solid #999; padding-top: .6rem; margin-top: 2rem; }
h4 { margin-bottom: .3rem; }
.notice { background: #fff4d6; border-left: 5px solid #8a5a00; padding: .6rem 1rem; }
.meta { color: #333; }
pre { background: #f3f3f3; border: 1px solid #bbb; padding: .7rem; overflow-x: auto;
  font-size: .92rem; line-height: 1.4; }
code { font-family: ui-monospace, "DejaVu Sans Mono", Menlo, Consolas, monospace; }
table { border-collapse: collapse; margin: .5rem 0; }
th, td { border: 1px solid #888; padding: .3rem .6rem; text-align: left; vertical-align: top; }
th { background: #e8e8e8; }
blockquote { margin: .8rem 0; padding: .3rem 1rem; border-left: 4px solid #0b4f9c;
  background: #eef4fb; }
.math { font-style: normal; }
dl.rubric dt { font-weight: bold; margin-top: .4rem; }
dl.rubric dd { margin-left: 1.5rem; }
.ok { color: #0a5d1f; font-weight: bold; } .bad { color: #9b0000; font-weight: bold; }
nav ol { padding-left: 1.4rem; }
@media print { .skip, nav { display: none; } h2 { break-before: page; } }
"""


def render_html(exercises: list[Exercise], quizzes: list | None = None) -> str:
    quizzes = quizzes or []
    e = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(TITLE)}</title>",
        f"<style>{_CSS}</style>",
        "</head>",
        "<body>",
        '<a class="skip" href="#main">Skip to the answers</a>',
        "<header>",
        f"<h1>{e(TITLE)}</h1>",
        f'<div class="notice">{markdown_html(_INTRO)}</div>',
        "</header>",
        '<nav aria-labelledby="contents">',
        '<h2 id="contents">Contents</h2>',
        "<ol>",
    ]
    for first, group in _by_notebook(exercises):
        links = ", ".join(f'<a href="#{slug(x.exercise_id)}">{e(x.exercise_id)}</a>' for x in group)
        parts.append(
            f'<li><a href="#nb-{first.notebook[:2]}">{e(first.title)}</a>: exercises {links}</li>'
        )
    if quizzes:
        parts.append('<li><a href="#quizzes">The quiz bank\'s answers</a></li>')
    parts += ["</ol>", "</nav>", '<main id="main">']
    for first, group in _by_notebook(exercises):
        parts.append(f'<section aria-labelledby="nb-{first.notebook[:2]}">')
        parts.append(f'<h2 id="nb-{first.notebook[:2]}">{e(first.title)}</h2>')
        parts.append(f"<p>Notebook <code>notebooks/{e(first.notebook)}.ipynb</code>.</p>")
        for x in group:
            parts += _exercise_html(x)
        parts.append("</section>")
    if quizzes:
        parts += _quizzes_html(quizzes)
    parts += ["</main>", "</body>", "</html>"]
    return "\n".join(parts) + "\n"


def _exercise_html(x: Exercise) -> list[str]:
    e = html.escape
    sid = slug(x.exercise_id)
    names = ", ".join(f"<code>{e(n)}</code>" for n in x.names)
    lecture = f"; {e(x.lecture)}" if x.lecture else ""
    out = [
        f'<article aria-labelledby="{sid}">',
        f'<h3 id="{sid}">Exercise {e(x.exercise_id)}</h3>',
        f'<p class="meta">Recorded in <code>{_variable(x.exercise_id)}</code> ({names}); '
        f"precision: {e(x.precision)}{lecture}.</p>",
        "<h4>Statement</h4>",
        markdown_html(_unlink(x.statement.text)),
        "<h4>Worked solution (the notebook's cell tagged <code>solution</code>)</h4>",
        f'<pre><code class="language-python">{e(x.statement.solution)}</code></pre>',
    ]
    if x.parameters:
        out += [
            "<h4>Parameters (shown in the notebook; the grade draws others)</h4>",
            "<table>",
            '<thead><tr><th scope="col">name</th><th scope="col">shown</th>'
            '<th scope="col">the grade draws</th><th scope="col">what it is</th></tr></thead>',
            "<tbody>",
        ]
        out += [
            f'<tr><th scope="row"><code>{e(p.name)}</code></th><td>{e(p.shown)}</td>'
            f"<td>{e(p.drawn)}</td><td>{e(p.about)}</td></tr>"
            for p in x.parameters
        ]
        out += ["</tbody>", "</table>"]
    if x.is_open:
        verdict = (
            '<span class="ok">passes the check</span>'
            if x.worked["ok"]
            else '<span class="bad">FAILS the check</span>'
        )
        out += [
            "<h4>Accepted answers</h4>",
            "<p>An open exercise: any answer that meets the conditions of the statement is "
            f"right, and the check tests exactly those conditions. The worked answer above, run "
            f"now, {verdict}.</p>",
        ]
        if x.worked["printed"]:
            out.append(f"<p>It prints:</p>\n<pre><samp>{e(x.worked['printed'])}</samp></pre>")
    else:
        out += [
            "<h4>Values (computed now by <code>helpers.exercises.answers</code>)</h4>",
            "<table>",
            '<thead><tr><th scope="col">name</th><th scope="col">value</th>'
            '<th scope="col">at the stated precision</th><th scope="col">points</th></tr></thead>',
            "<tbody>",
        ]
        out += [
            f'<tr><th scope="row"><code>{e(v.name)}</code></th><td>{e(v.full)}</td>'
            f"<td>{e(v.rounded)}</td><td>{e(v.points)}</td></tr>"
            for v in x.values
        ]
        out += ["</tbody>", "</table>"]
    if x.note:
        out.append(markdown_html(_unlink(x.note)))
    checked = [q for q in x.questions if "checked_by" in q]
    if checked:
        items = "; ".join(
            f"“{_inline_html(normalise(q['quote']))}” "
            f"({', '.join(f'<code>{e(n)}</code>' for n in q['checked_by'])})"
            for q in checked
        )
        out.append(f"<p>Questions the check judges: {items}.</p>")
    written = [q for q in x.questions if "answer" in q]
    if written:
        out.append("<h4>Written answers and rubrics</h4>")
        for q in written:
            out.append(f"<blockquote>{markdown_html(normalise(q['quote']))}</blockquote>")
            out.append(
                f"<p><em>Written answer <code>{e(q['id'])}</code>, {e(q['points'])} point(s): "
                "full credit all of them, partial half, none 0.</em></p>"
            )
            out.append(f"<p><strong>Answer.</strong> {_inline_html(q['answer'])}</p>")
            out.append('<dl class="rubric">')
            for level, label in RUBRIC_LEVELS:
                out.append(f"<dt>{label}</dt><dd>{_inline_html(q['rubric'][level])}</dd>")
            out.append("</dl>")
    out.append("</article>")
    return out


def _quizzes_html(quizzes) -> list[str]:
    out = [
        '<section aria-labelledby="quizzes">',
        '<h2 id="quizzes">The quiz bank\'s answers</h2>',
    ]
    for index, (title, questions) in enumerate(quizzes):
        out.append(f'<h3 id="quiz-{index}">{html.escape(title)}</h3>')
        out.append("<ol>")
        for q in questions:
            label = f"<code>{html.escape(q['id'])}</code>: " if q["id"] else ""
            where = f" <em>({html.escape(q['where'])})</em>" if q["where"] else ""
            item = [f"<li><p>{label}{_inline_html(_unlink(q['text']))}{where}</p>", "<ul>"]
            answer = _inline_html(_unlink(_quiz_answer_text(q)))
            item.append(f"<li><strong>Answer:</strong> {answer}</li>")
            if q["why"]:
                item.append(f"<li>Why: {_inline_html(_unlink(q['why']))}</li>")
            for option, ok, why in q["options"]:
                if why and not ok:
                    item.append(
                        f"<li>Not “{_inline_html(_unlink(option.rstrip('.')))}”: "
                        f"{_inline_html(_unlink(why))}</li>"
                    )
            item += ["</ul>", "</li>"]
            out += item
        out.append("</ol>")
    out.append("</section>")
    return out
