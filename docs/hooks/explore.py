"""MkDocs hook: a page's ``<div class="gg-explore-slot" data-gg-explore="NAME"></div>`` becomes explorer NAME.

The explorer (`glassgrad_site.explore.explorer`: the running example with a slider and a field per leaf, its
figure, trace and state card, and the precomputed frames) is site code, not the reader's: it is put into the
page here rather than by an executed block, which the notebook would copy into the reader's code.
"""

from __future__ import annotations

import re
from typing import Any

SLOT = re.compile(r'<div class="gg-explore-slot" data-gg-explore="(?P<name>[a-z]+)"></div>')


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """Replace every explorer slot of the page with its explorer."""
    if "gg-explore-slot" not in html:
        return html
    from glassgrad_site.explore import explorer

    return SLOT.sub(lambda match: explorer(match.group("name")), html)
