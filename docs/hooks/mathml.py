"""MkDocs hook: render the TeX that pymdownx.arithmatex leaves in the page as MathML, at build time.

Browsers display MathML natively, so the site needs no math JavaScript and makes no request
outside itself. A formula latex2mathml cannot parse fails the strict build with the page named.
"""

from __future__ import annotations

import html
import logging
import re
from typing import Any

from latex2mathml.converter import convert

log = logging.getLogger("mkdocs.hooks.mathml")

# arithmatex (generic mode) emits <span class="arithmatex">\(...\)</span>, <div class="arithmatex">\[...\]</div>
# (also for $...$ and $$...$$) and <div class="arithmatex">\begin{env}...\end{env}</div>.
ARITHMATEX = re.compile(
    r'<(?P<tag>span|div) class="arithmatex">\s*'
    r"(?:\\(?P<open>[(\[])(?P<tex>.*?)\\[)\]]|(?P<environment>\\begin\{.*?\\end\{[^}]*\}))"
    r"\s*</(?P=tag)>",
    re.DOTALL,
)


def tex_to_mathml(tex: str, *, display: bool) -> str:
    """One formula as a MathML `<math>` element, keeping the TeX as its accessible annotation."""
    mathml = convert(tex.strip(), display="block" if display else "inline")
    # The TeX stays readable to copy-paste and screen readers via the alttext attribute.
    return mathml.replace("<math ", f'<math alttext="{html.escape(tex.strip(), quote=True)}" ', 1)


def on_page_content(content: str, page: Any, config: Any, files: Any) -> str:
    """Replace every arithmatex formula in the page's HTML by MathML."""

    def replace(match: re.Match[str]) -> str:
        tex = html.unescape(match["tex"] if match["environment"] is None else match["environment"])
        display = match["open"] != "("
        try:
            mathml = tex_to_mathml(tex, display=display)
        except Exception as error:  # latex2mathml raises several types; report them all the same way
            log.warning("%s: cannot convert the formula %r to MathML: %s", page.file.src_uri, tex, error)
            return match[0]
        wrapper = "div" if display else "span"
        return f'<{wrapper} class="arithmatex">{mathml}</{wrapper}>'

    return ARITHMATEX.sub(replace, content)
