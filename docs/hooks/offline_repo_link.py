"""MkDocs hook: keep the header's repository link, but stop Material from fetching its facts.

With a GitHub `repo_url`, Material's script asks api.github.com for stars, forks and the latest
release on every first visit: a request outside the site. The link is found through its
``data-md-component="source"`` attribute; without that attribute the link stays and nothing is fetched.
Pages pass through ``on_post_page``, the 404 page (a template of its own) through ``on_post_template``.
"""

from __future__ import annotations

from typing import Any

SOURCE_COMPONENT = ' data-md-component="source"'


def on_post_page(output: str, page: Any, config: Any) -> str:
    """Drop the attribute that makes Material fetch repository facts."""
    return output.replace(SOURCE_COMPONENT, "")


def on_post_template(output_content: str, template_name: str, config: Any) -> str:
    """The same for the 404 page, which MkDocs renders from a template rather than as a page."""
    return output_content.replace(SOURCE_COMPONENT, "")
