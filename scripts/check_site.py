"""Check a built site, whichever tool built it (ProperDocs, Zensical): `make build` runs it on site/.

Fails (exit code 1, one line per problem) when a page holds
- an executed block that failed: markdown-exec publishes the traceback in place of the output (a builder
  that runs no hook, such as Zensical, would otherwise publish it and exit 0), or the framed failure
  docs/hooks/exec_errors.py shows while serving;
- a formula left as TeX (the math extension did not run or could not convert it);
- a stylesheet or script it links that the site does not contain (an asset a builder did not publish);
- a script, stylesheet or font from another origin: a `<script src>`, a `<link>` that loads (stylesheet, preload,
  modulepreload), a `url(...)` or `@import` of an inline `<style>` or of one of the site's CSS files, or a script,
  stylesheet or font named inside an inline `<script>` or its attributes (a loader such as mkdocs-jupyter 0.27's
  MathJax, which fetches its URL once a notebook is shown): the site must request nothing outside itself;
- a dead link: an `<a href>` inside the site to a file the site does not contain, or to a #fragment that is
  not an id (or `<a name>`) of the page it points at;
- a canonical link (or a sitemap.xml entry) to a local address (`localhost`, `127.0.0.1`, ...): a site built with a
  `site_url` meant for the local server.

`--sources DOCS` also reads the Markdown pages under DOCS (their text, executed blocks' printed links included) and
fails on a relative link that names neither a file of DOCS nor a page of the nav (mkdocs.yml beside DOCS: a page a hook
generates, such as the notebook): a page's built address (`../playground/`) or a folder is
resolved by MkDocs from the built page and by Zensical from the source file, so only a link to the source file
(`../playground.md#code=...`) or to an asset means the same to every builder.

`--not-built SOURCE` (repeatable) names a page, by its file under docs/ as the nav names it, that the builder is
known not to build (Zensical has no notebooks: `notebook/tutorial.ipynb`): links to that file, to its page
(`notebook/tutorial/`) and into it are not counted. Nothing else is excused.

Usage: python scripts/check_site.py [--sources docs] [--not-built notebook/tutorial.ipynb ...] [SITE_FOLDER]   (default: site)
"""

from __future__ import annotations

import argparse
import html
import ipaddress
import re
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

TRACEBACK = re.compile(
    r'Traceback \(most recent call last\):(?:(?!Traceback \().){0,4000}?File "<code block: ', re.DOTALL
)
"""markdown-exec's published traceback: its frames name the block as "<code block: session ...>"."""

FRAMED_FAILURE = 'class="admonition failure gg-exec-failure"'
TEX_LEFT = re.compile(r'class="arithmatex">(?!<math[ >])')
TAG = re.compile(r"<[^>]+>")
LOADING_LINKS = {"stylesheet", "preload", "modulepreload"}
CSS_URL = re.compile(r"""url\(\s*["']?([^"')\s]+)|@import\s+["']([^"']+)["']""")
NAMED_ASSET = re.compile(r"""(?:https?:)?//[\w.-]+\.[a-z]{2,}/[^\s"'<>()]*?\.(?:m?js|css|woff2?|ttf|otf)\b""")
"""A URL of a script, stylesheet or font on another origin, written inside an inline script or its attributes."""
TOP_OF_PAGE = {"#", "#top"}  # links to the top of their own page
MARKDOWN_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)|^ {0,3}\[[^\]]+\]:\s*<?([^\s>]+)", re.MULTILINE)
"""An inline link or image, `[text](target)`, or a reference definition, `[name]: target`, anywhere in the text."""
NAV_PAGE = re.compile(r"^\s*- (?:[^:\n]+: )?([\w./-]+\.(?:md|ipynb))\s*$", re.MULTILINE)
"""A page of mkdocs.yml's nav, `- chapters/1-pytorch.md` or `- Notebook: notebook/tutorial.ipynb`."""
SITEMAP_LOC = re.compile(r"<loc>\s*([^<\s]+)\s*</loc>")


class Page(HTMLParser):
    """What the checks read of one page: its links (``<a href>``), the assets it loads, and its anchors."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self.links: list[str] = []
        self.assets: list[str] = []  # stylesheets and scripts
        self.anchors: set[str] = set()  # ids and <a name>: what a #fragment can point at
        self.foreign: list[str] = []  # scripts, stylesheets and fonts this page would load from another origin
        self.canonical: list[str] = []  # <link rel="canonical" href>: the page's published address
        self._inside = ""  # "script" or "style" while in one of these elements
        self.feed(text)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if "id" in values:
            self.anchors.add(values["id"])
        if tag == "a" and "name" in values:
            self.anchors.add(values["name"])
        if tag == "a" and "href" in values:
            self.links.append(values["href"])
        if tag == "link" and "canonical" in values.get("rel", "").split():
            self.canonical.append(values.get("href", ""))
        if tag == "link" and "stylesheet" in values.get("rel", "").split() and values.get("href"):
            self.assets.append(values["href"])
        if tag == "script" and values.get("src"):
            self.assets.append(values["src"])
        if tag == "link" and LOADING_LINKS & set(values.get("rel", "").split()) and is_foreign(values.get("href", "")):
            self.foreign.append(values["href"])
        if tag == "script":
            self.foreign += [values["src"]] if is_foreign(values.get("src", "")) else []
            self.foreign += [
                url for name, value in values.items() if name != "src" for url in NAMED_ASSET.findall(value)
            ]
        if tag in ("script", "style"):
            self._inside = tag

    def handle_endtag(self, tag: str) -> None:
        if tag == self._inside:
            self._inside = ""

    def handle_data(self, data: str) -> None:
        if self._inside == "style":
            self.foreign += foreign_in_css(data)
        elif self._inside == "script":
            self.foreign += NAMED_ASSET.findall(data)


def is_foreign(url: str) -> bool:
    """Whether `url` points at another origin (`https://...`, `//host/...`); data: and blob: URLs are the page's own."""
    parts = urlsplit(url.strip())
    return bool(parts.netloc) or parts.scheme not in ("", "data", "blob")


def is_local(url: str) -> bool:
    """Whether `url` names this machine (`localhost`, a loopback or unspecified address): no published site's."""
    host = (urlsplit(url.strip()).hostname or "").rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_unspecified


def foreign_in_css(css: str) -> list[str]:
    """The URLs of another origin that a stylesheet imports or loads (fonts, images, other stylesheets)."""
    return [url for match in CSS_URL.finditer(css) if is_foreign(url := match[1] or match[2])]


def text_of(page: str) -> str:
    """The page's text without tags (highlighted code is split into many spans)."""
    return html.unescape(TAG.sub("", page))


def site_path(site: Path) -> str:
    """The path the site is built for (``/glassgrad/``: its absolute links start there), from Home's canonical link."""
    home = site / "index.html"
    canonical = Page(home.read_text(encoding="utf-8", errors="replace")).canonical if home.is_file() else []
    path = urlsplit(canonical[0]).path if canonical else "/"
    return path if path.endswith("/") else path + "/"


def target_of(site: Path, page_path: Path, url: str, base: str = "/") -> tuple[str, Path, str] | None:
    """(site path, file, fragment) that `url`, linked from `page_path`, points at; None for a URL outside the site.

    `base`: the path the site is built for; an absolute link under it names a file of the site.
    """
    parts = urlsplit(url)
    if parts.scheme or parts.netloc:
        return None  # outside the site: the privacy plugin and the browser tests guard those
    page_url = base + page_path.relative_to(site).as_posix()
    target = urlsplit(urljoin(page_url, url))
    if not target.path.startswith(base):  # an absolute path above the site's own: no file of the site
        return (
            target.path,
            site.parent / "outside-the-site" / unquote(target.path).lstrip("/"),
            unquote(target.fragment),
        )
    where = "/" + target.path[len(base) :]
    file = site / unquote(where).lstrip("/")
    if where.endswith("/") or file.is_dir():
        file = file / "index.html"
    return where, file, unquote(target.fragment)


def problems(site: Path, not_built: tuple[str, ...] = ()) -> list[str]:
    """Every problem found in the HTML pages under `site`, as "page: what" lines.

    `not_built`: pages the builder does not build, by their source under docs/ (``notebook/tutorial.ipynb``); links
    to the source file, to the page's folder and into it are not counted.
    """
    excused = tuple(f"/{source.strip('/')}/" for source in not_built)  # the file, as a folder prefix below
    excused += tuple(f"/{Path(source.strip('/')).with_suffix('').as_posix()}/" for source in not_built)
    paths = sorted(site.rglob("*.html"))
    base = site_path(site)
    texts = {path: path.read_text(encoding="utf-8", errors="replace") for path in paths}
    pages = {path: Page(text) for path, text in texts.items()}
    found = []
    for path in paths:
        page, parsed = texts[path], pages[path]
        name = path.relative_to(site).as_posix()
        failures = len(TRACEBACK.findall(text_of(page))) + page.count(FRAMED_FAILURE)
        if failures:
            found.append(f"{name}: {failures} executed block(s) failed (the traceback is on the page)")
        tex = len(TEX_LEFT.findall(page))
        if tex:
            found.append(f"{name}: {tex} formula(s) left as TeX, not MathML")
        for url in parsed.canonical:
            if is_local(url):
                found.append(f"{name}: canonical link to {url}, a local address (site_url: the published one, or none)")
        for url in sorted(set(parsed.foreign)):
            found.append(f"{name}: loads {url} from another origin (the site must request nothing outside itself)")
        for url in parsed.assets:
            target = target_of(site, path, url, base)
            if target and not target[1].is_file():
                found.append(f"{name}: links {target[0]}, which the site does not contain")
        for url in parsed.links:
            target = target_of(site, path, url, base)
            if target is None or url in TOP_OF_PAGE or (target[0] + "/").startswith(excused):
                continue
            where, file, fragment = target
            if not file.is_relative_to(site):
                found.append(f"{name}: dead link {url} (outside {base}, the path the site is built for)")
            elif not file.is_file():
                found.append(f"{name}: dead link {url} (the site has no {file.relative_to(site).as_posix()})")
            elif fragment.startswith("code=") and where.endswith("/playground/"):
                continue  # a program for the Playground to open (#code=, base64url), not an id
            elif fragment and file.suffix == ".html":
                anchors = pages[file].anchors if file in pages else Page(file.read_text(encoding="utf-8")).anchors
                if fragment not in anchors:
                    found.append(f"{name}: dead link {url} (no id {fragment!r} on {file.relative_to(site).as_posix()})")
    for stylesheet in sorted(site.rglob("*.css")):
        for url in sorted(set(foreign_in_css(stylesheet.read_text(encoding="utf-8", errors="replace")))):
            found.append(f"{stylesheet.relative_to(site).as_posix()}: loads {url} from another origin")
    sitemap = site / "sitemap.xml"
    local = (
        [url for url in SITEMAP_LOC.findall(sitemap.read_text(encoding="utf-8")) if is_local(url)]
        if sitemap.is_file()
        else []
    )
    if local:
        found.append(f"sitemap.xml: {len(local)} address(es) on this machine, such as {local[0]} (site_url is local)")
    return found


def source_link_problems(docs: Path) -> list[str]:
    """Relative links of the Markdown pages under `docs` that do not name one of its files, as "page: what" lines.

    A target counts as a link when it looks like a path (it holds a "/" or a ".": a code sample's `f[i](x)` does not).
    """
    config = docs.resolve().parent / "mkdocs.yml"
    nav = {docs.resolve() / page for page in NAV_PAGE.findall(config.read_text(encoding="utf-8"))}
    found = []
    for source in sorted(docs.rglob("*.md")):
        name = source.relative_to(docs).as_posix()
        for match in MARKDOWN_LINK.finditer(source.read_text(encoding="utf-8")):
            url = match[1] or match[2]
            parts = urlsplit(url)
            if parts.scheme or parts.netloc or url.startswith("#") or not ("/" in parts.path or "." in parts.path):
                continue
            target = (source.parent / unquote(parts.path)).resolve()
            if parts.path.startswith("/"):
                found.append(f"{name}: links {url}, an absolute path (it breaks under the published /glassgrad/)")
            elif parts.path.endswith("/") or target.is_dir():
                found.append(f"{name}: links {url}, a built page's address: link its source file (page.md)")
            elif not (target.is_file() and target.is_relative_to(docs.resolve())) and target not in nav:
                found.append(f"{name}: links {url}, which is no file under {docs}")
    return found


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site", nargs="?", default="site", type=Path, help="the built site's folder (default: site)")
    parser.add_argument(
        "--not-built",
        action="append",
        default=[],
        metavar="SOURCE",
        help="a page this builder does not build, by its file under docs/ (notebook/tutorial.ipynb)",
    )
    parser.add_argument(
        "--sources", type=Path, metavar="DOCS", help="also check the relative links of the Markdown pages under DOCS"
    )
    arguments = parser.parse_args(argv[1:])
    site = arguments.site
    if not (site / "index.html").is_file():
        print(f"check_site: {site}/index.html not found: build the site first", file=sys.stderr)
        return 1
    found = problems(site, tuple(arguments.not_built))
    if arguments.sources:
        found += source_link_problems(arguments.sources)
    for line in found:
        print(f"check_site: {line}", file=sys.stderr)
    pages = sum(1 for _ in site.rglob("*.html"))
    print(
        f"check_site: {pages} pages, {len(found)} problem(s)"
        + ("" if found else ": no failed block, no TeX, no missing asset, nothing from another origin, no dead link,")
        + ("" if found else " no local address in a canonical link or the sitemap")
        + (f" (not built, links to it not counted: {', '.join(arguments.not_built)})" if arguments.not_built else "")
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
