"""Sphinx extension: each page's <script> list without duplicates.

sphinx-thebe 0.3.1 (pulled in by Jupyter Book 1.0.4) registers its configuration script once
per ``env-before-read-docs`` event, and under Jupyter Book that event fires twice, so every page
declared ``const THEBE_JS_URL`` twice: "Identifier 'THEBE_JS_URL' has already been declared"
in the browser console (the browser tests caught it). Keep the first of identical scripts.
"""

from __future__ import annotations


def _dedupe(app, pagename, templatename, context, doctree):
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, kept = set(), []
    for script in scripts:
        attributes = getattr(script, "attributes", {}) or {}
        # an inline script is registered once with filename None and once with ''
        filename = getattr(script, "filename", str(script)) or ""
        key = (filename, tuple(sorted((k, str(v)) for k, v in attributes.items())))
        if key not in seen:
            seen.add(key)
            kept.append(script)
    scripts[:] = kept  # in place: handlers after this one may still add their scripts


def setup(app):
    # early: 'html-page-context' stops at the first handler that returns a value
    app.connect("html-page-context", _dedupe, priority=1)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
