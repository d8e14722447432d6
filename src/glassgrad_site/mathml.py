"""A Python-Markdown extension that typesets formulas as MathML when the page is built (no JavaScript).

It turns the TeX that `pymdownx.arithmatex` (``generic: true``) leaves in a page into MathML, which
browsers display natively; a served OpenType MATH font (STIX Two Math on the site) makes braces,
fractions and parentheses stretch. The TeX stays on each ``<math>`` as its ``alttext``. Being an
extension rather than an MkDocs hook, it runs under every builder that reads ``markdown_extensions``
(MkDocs and Zensical alike). In ``mkdocs.yml``, after arithmatex::

    markdown_extensions:
      - pymdownx.arithmatex:
          generic: true
      - glassgrad_site.mathml

Needs ``markdown`` and ``latex2mathml`` (the ``docs`` dependency group). Part of the site package, not the wheel.
"""

from __future__ import annotations

import html
import logging
import re
import xml.etree.ElementTree as etree
from typing import Any

from latex2mathml.converter import convert
from markdown import Markdown
from markdown.extensions import Extension
from markdown.treeprocessors import Treeprocessor

log = logging.getLogger("mkdocs.extensions.glassgrad_site.mathml")

ARITHMATEX_CLASS = "arithmatex"
DELIMITED = re.compile(r"\s*\\(?P<open>[(\[])(?P<tex>.*?)\\[)\]]\s*", re.DOTALL)
"""arithmatex's generic output: ``\\(tex\\)`` inline, ``\\[tex\\]`` displayed (a bare ``\\begin{env}`` too)."""


def tex_to_mathml(tex: str, *, display: bool) -> str:
    """One formula as a MathML ``<math>`` element, keeping the TeX as its ``alttext``.

    Args:
        tex: the formula in TeX, without delimiters.
        display: a displayed formula (a block of its own) rather than one inside a line of text.

    Returns:
        The ``<math>`` element as HTML.

    Examples:
        >>> tex_to_mathml("x^2", display=False)
        '<math alttext="x^2" xmlns="http://www.w3.org/1998/Math/MathML" display="inline"><mrow><msup><mi>x</mi><mn>2</mn></msup></mrow></math>'
    """
    mathml = convert(tex.strip(), display="block" if display else "inline")
    return mathml.replace("<math ", f'<math alttext="{html.escape(tex.strip(), quote=True)}" ', 1)


def formula(text: str, *, block: bool) -> tuple[str, bool]:
    """The TeX inside arithmatex's delimiters and whether it is displayed (a bare environment is).

    Args:
        text: the element's text as arithmatex wrote it.
        block: the element is a block (``div``): arithmatex escaped its text.
    """
    if block:
        text = html.unescape(text)
    match = DELIMITED.fullmatch(text)
    if match is None:
        return text.strip(), True  # \begin{env}...\end{env}, which arithmatex leaves undelimited
    return match["tex"], match["open"] == "["


class MathMLTreeprocessor(Treeprocessor):
    """Replace the text of each arithmatex element by its MathML (through the raw-HTML stash)."""

    def run(self, root: etree.Element) -> None:
        """Convert every formula of the page's tree in place.

        Args:
            root: the page's element tree, after inline patterns ran.
        """
        for element in root.iter():
            if ARITHMATEX_CLASS not in (element.get("class") or "").split() or not element.text:
                continue
            tex, display = formula(element.text, block=element.tag == "div")
            try:
                mathml = tex_to_mathml(tex, display=display)
            except Exception as error:  # latex2mathml raises several types; report them all the same way
                log.warning("cannot convert the formula %r to MathML: %s", tex, error)
                continue  # the TeX stays: scripts/check_site.py fails the build on it
            element.text = self.md.htmlStash.store(mathml)


class MathMLExtension(Extension):
    """Register `MathMLTreeprocessor` after the inline patterns (which make arithmatex's inline formulas)."""

    def extendMarkdown(self, md: Markdown) -> None:  # Python-Markdown's name
        """Add the tree processor to `md`.

        Args:
            md: the Markdown instance being configured.
        """
        md.treeprocessors.register(MathMLTreeprocessor(md), "glassgrad_mathml", 19)


def makeExtension(**kwargs: Any) -> MathMLExtension:  # the entry point Python-Markdown looks for
    """The extension, as Python-Markdown loads it by module name.

    Args:
        kwargs: configuration (none is needed).
    """
    return MathMLExtension(**kwargs)


def render_arithmatex(page_html: str) -> str:
    """Convert arithmatex's generic markup found in already-rendered HTML (the notebook page's cells).

    Args:
        page_html: HTML holding ``<span class="arithmatex">\\(...\\)</span>`` or the ``div`` form.
    """

    def replace(match: re.Match[str]) -> str:
        tex, display = formula(match["text"], block=True)
        return f'<{match["tag"]} class="arithmatex">{tex_to_mathml(tex, display=display)}</{match["tag"]}>'

    return re.sub(
        r'<(?P<tag>span|div) class="arithmatex">(?P<text>.*?)</(?P=tag)>', replace, page_html, flags=re.DOTALL
    )
