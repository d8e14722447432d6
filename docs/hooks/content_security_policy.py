"""MkDocs hook: a Content-Security-Policy ``<meta http-equiv>`` at the top of every page the build writes.

The policy and why: `glassgrad_site.content_security_policy`. Listed last in mkdocs.yml: it hashes every page written.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any


def on_post_build(config: Any) -> None:
    from glassgrad_site.content_security_policy import write_policy

    write_policy(Path(config["site_dir"]))
