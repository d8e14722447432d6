"""MkDocs hook: a block that raises never publishes; while serving, its failure shows on its page.

The work is `glassgrad_site.exec_errors` (kept loaded across builds by fresh_modules.py: it holds the blocks' state).
"""

from __future__ import annotations

from glassgrad_site import exec_errors
from glassgrad_site.exec_errors import on_page_content, on_page_markdown, on_pre_build, on_startup

__all__ = ["on_page_content", "on_page_markdown", "on_pre_build", "on_startup"]

exec_errors.install()
