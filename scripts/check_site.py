"""Check a built site, whichever tool built it (MkDocs, Zensical): `make build` runs it on site/.

Fails (exit code 1, one line per problem) when a page holds
- an executed block that failed: markdown-exec publishes the traceback in place of the output (a builder
  that runs no hook, such as Zensical, would otherwise publish it and exit 0), or the framed failure
  docs/hooks/exec_errors.py shows while serving;
- a formula left as TeX (the math extension did not run or could not convert it);
- a stylesheet or script it links that the site does not contain (an asset a builder did not publish).

Usage: python scripts/check_site.py [SITE_FOLDER]   (default: site)
"""

from __future__ import annotations

import html
import re
import sys
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

TRACEBACK = re.compile(
    r'Traceback \(most recent call last\):(?:(?!Traceback \().){0,4000}?File "<code block: ', re.DOTALL
)
"""markdown-exec's published traceback: its frames name the block as "<code block: session ...>"."""

FRAMED_FAILURE = 'class="admonition failure gg-exec-failure"'
TEX_LEFT = re.compile(r'class="arithmatex">(?!<math[ >])')
LINKED_ASSET = re.compile(r'<(?:link[^>]*\brel="stylesheet"[^>]*\bhref|script[^>]*\bsrc)="(?P<url>[^"]+)"')
TAG = re.compile(r"<[^>]+>")


def text_of(page: str) -> str:
    """The page's text without tags (highlighted code is split into many spans)."""
    return html.unescape(TAG.sub("", page))


def missing_asset(site: Path, page_path: Path, url: str) -> str | None:
    """The site path `url` (as linked from `page_path`) names when that file is absent, else None."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None  # outside the site: the privacy plugin and the browser tests guard those
    page_url = "/" + page_path.relative_to(site).as_posix()
    target = urlsplit(urljoin(page_url, parts.path)).path
    file = site / unquote(target).lstrip("/")
    return None if file.is_file() or (file / "index.html").is_file() else target


def problems(site: Path) -> list[str]:
    """Every problem found in the HTML pages under `site`, as "page: what" lines."""
    found = []
    for path in sorted(site.rglob("*.html")):
        page = path.read_text(encoding="utf-8", errors="replace")
        name = path.relative_to(site).as_posix()
        failures = len(TRACEBACK.findall(text_of(page))) + page.count(FRAMED_FAILURE)
        if failures:
            found.append(f"{name}: {failures} executed block(s) failed (the traceback is on the page)")
        tex = len(TEX_LEFT.findall(page))
        if tex:
            found.append(f"{name}: {tex} formula(s) left as TeX, not MathML")
        for match in LINKED_ASSET.finditer(page):
            absent = missing_asset(site, path, html.unescape(match["url"]))
            if absent:
                found.append(f"{name}: links {absent}, which the site does not contain")
    return found


def main(argv: list[str]) -> int:
    site = Path(argv[1] if len(argv) > 1 else "site")
    if not (site / "index.html").is_file():
        print(f"check_site: {site}/index.html not found: build the site first", file=sys.stderr)
        return 1
    found = problems(site)
    for line in found:
        print(f"check_site: {line}", file=sys.stderr)
    pages = sum(1 for _ in site.rglob("*.html"))
    print(
        f"check_site: {pages} pages, {len(found)} problem(s)"
        + ("" if found else ": no failed block, no TeX, no missing asset")
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
