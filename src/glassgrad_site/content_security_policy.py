"""A Content-Security-Policy ``<meta http-equiv>`` at the top of every page the build writes (docs/hooks/content_security_policy.py).

Nothing loads from another origin (scripts, styles, images, fonts, media, frames, connections); no plugins
(``object-src 'none'``), no ``<base>`` elsewhere, no form sends anything. Scripts are the site's files and
the theme's few inline scripts, each allowed by its SHA-256: the policy is written once the whole site is
built, with the hashes of every page's inline scripts, because instant navigation runs another page's inline
scripts under the policy of the page first opened. Pyodide needs ``'wasm-unsafe-eval'`` and workers from the
site (or ``blob:``). Inline styles stay allowed: the theme and the figures size themselves with them.

Trusted Types: ``trusted-types glassgrad`` lets the page create one policy, docs/javascripts/sanitizer.js's,
through which the site's own scripts send every HTML string, script text and worker address. The policy does not
``require-trusted-types-for 'script'``: the theme's bundle writes strings to those sinks itself (its icons
through DOMParser, search results through innerHTML, its search worker and scripts by URL), and a report-only
policy cannot be given in a ``<meta>``. tests/runtime/test_trusted_types.py serves the site with the requirement
as a header and checks that the site's own scripts never reach a sink without the policy.
"""

from __future__ import annotations

import base64
import hashlib
import html
import re
from pathlib import Path

META = '<meta http-equiv="Content-Security-Policy" content="{policy}">'
INLINE_SCRIPT = re.compile(r"<script(?P<attrs>(?:\s[^>]*)?)>(?P<body>.*?)</script>", re.DOTALL | re.IGNORECASE)
SCRIPT_TYPE = re.compile(r"""\stype\s*=\s*["']?([^"'\s>]*)""", re.IGNORECASE)
RUN = {"", "text/javascript", "module"}  # the types a browser runs (a data block's type is anything else)
HEAD = re.compile(r"<head(?:\s[^>]*)?>(?:\s*<meta charset=[^>]*>)?", re.IGNORECASE)
PRESENT = re.compile(r"<meta http-equiv=.?Content-Security-Policy", re.IGNORECASE)


TRUSTED_TYPES_POLICY = "glassgrad"
"""The one Trusted Types policy a page may create (docs/javascripts/sanitizer.js's ``POLICY_NAME``)."""


def policy(script_hashes: list[str]) -> str:
    """The policy, allowing the inline scripts whose hashes are given (``'sha256-…'``)."""
    scripts = " ".join(["'self'", "'wasm-unsafe-eval'", *script_hashes])
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src {scripts}",
            "style-src 'self' 'unsafe-inline'",
            "img-src 'self' data: blob:",
            "font-src 'self' data:",
            "media-src 'self'",
            "connect-src 'self'",
            "worker-src 'self' blob:",
            "frame-src 'self'",
            "object-src 'none'",
            "base-uri 'self'",
            "form-action 'none'",
            f"trusted-types {TRUSTED_TYPES_POLICY}",
        ]
    )


def inline_script_hashes(page: str) -> set[str]:
    """The CSP source of each script the browser would run from this page's own text (not a data block)."""
    found = set()
    for match in INLINE_SCRIPT.finditer(page):
        attrs = match.group("attrs")
        kind = SCRIPT_TYPE.search(attrs)
        if re.search(r"\ssrc\s*=", attrs, re.IGNORECASE) or (kind and kind.group(1).lower() not in RUN):
            continue
        digest = hashlib.sha256(match.group("body").encode("utf-8")).digest()
        found.add(f"'sha256-{base64.b64encode(digest).decode('ascii')}'")
    return found


def write_policy(site_dir: Path) -> None:
    """Write the policy into every HTML file of the built site in `site_dir` (the same policy everywhere)."""
    pages = sorted(site_dir.rglob("*.html"))
    texts = {path: path.read_text(encoding="utf-8") for path in pages}
    hashes = sorted(set().union(*(inline_script_hashes(text) for text in texts.values())))
    meta = META.format(policy=html.escape(policy(hashes), quote=False))
    for path, text in texts.items():
        head = HEAD.search(text)
        if head is None or PRESENT.search(text):
            continue
        path.write_text(f"{text[: head.end()]}{meta}{text[head.end() :]}", encoding="utf-8")
