"""MkDocs hook: a link printed by an executed block resolves as the page's own links do (to the page's source file).

MkDocs resolves the links of a page's Markdown (`../playground.md` becomes `../../playground/`), but not those of
the Markdown a markdown-exec block prints, which it renders apart; Zensical resolves both. So a block prints its
links as the page writes them, to a source file (`[Run it](../playground.md#code=...)`), and this hook turns each one
MkDocs left behind into the page's address. scripts/check_site.py --sources fails a link that names no source file.
"""

from __future__ import annotations

import posixpath
import re
from typing import Any

LEFT_TO_SOURCE = re.compile(r'href="(?![a-z][a-z0-9+.-]*:|/|#)([^"#?]+\.md)([?#][^"]*)?"')
"""A relative `href` to a Markdown file that no builder step turned into a page's address."""


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    def resolve(match: re.Match[str]) -> str:
        source = posixpath.normpath(posixpath.join(posixpath.dirname(page.file.src_uri), match[1]))
        target = files.get_file_from_path(source)
        if target is None:
            return match[0]  # not a page: check_site.py names the dead link
        return f'href="{target.url_relative_to(page.file)}{match[2] or ""}"'

    return LEFT_TO_SOURCE.sub(resolve, html)
