"""MkDocs hook: every build imports the project's packages afresh, and `serve --dirty` rebuilds what an edit touched.

The work is `glassgrad_site.fresh_modules` (which keeps itself loaded: it holds whether this run serves, and dirty).
"""

from __future__ import annotations

from glassgrad_site.fresh_modules import on_files, on_pre_build, on_startup

__all__ = ["on_files", "on_pre_build", "on_startup"]
