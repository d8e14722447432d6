"""What several test files need, written once: the repository, reading built pages, loading the docs' code,
running one expression on glassgrad and on PyTorch, comparing floats.

Fixtures (the built site, its server, the browser) live in conftest.py; plain functions live here.
"""

from __future__ import annotations

import contextlib
import importlib.util
import inspect
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[1]
"""The repository root (holds mkdocs.yml, docs/ and src/)."""


# ---- the docs' own code ------------------------------------------------------------------------------


def load_module(path: Path | str) -> ModuleType:
    """Import one file as a module (a hook under docs/hooks/, the playground's runner): `path` is relative to REPO."""
    path = REPO / path
    spec = importlib.util.spec_from_file_location(f"_tested_{path.stem}", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_snippets(*paths: Path | str) -> dict[str, Any]:
    """Run snippet files (relative to REPO) one after the other in one namespace, as a page's session does."""
    namespace: dict[str, Any] = {"__name__": "__snippets__"}
    for path in paths:
        path = REPO / path
        exec(compile(path.read_text(encoding="utf-8"), str(path), "exec"), namespace)  # noqa: S102 - the docs' own code
    return namespace


TRUE = {"1", "true", "yes", "on"}


def executed_blocks(text: str, base: Path) -> list[tuple[str, dict[str, str]]]:
    """(code, options) of every executed Python block of a page, as the site's Markdown extensions read it.

    The oracle is Python-Markdown with the site's pymdownx.snippets (includes resolved under `base`) and
    superfences, with a fence that records every ``exec="1"`` block instead of running it.
    """
    import markdown

    blocks: list[tuple[str, dict[str, str]]] = []

    def validator(language, inputs, options, attrs, md):
        options.update(inputs)
        return True

    def formatter(source, language, class_name, options, md, **kwargs):
        if str(options.get("exec", "")).lower() in TRUE:
            blocks.append((source, dict(options)))
        return ""

    fences = [{"name": name, "class": name, "validator": validator, "format": formatter} for name in ("python", "py")]
    md = markdown.Markdown(
        extensions=[
            "pymdownx.snippets",
            "pymdownx.superfences",
            "admonition",
            "pymdownx.details",
            "md_in_html",
            "attr_list",
        ],
        extension_configs={
            "pymdownx.snippets": {"base_path": [str(base)], "check_paths": True},
            "pymdownx.superfences": {"custom_fences": fences},
        },
    )
    md.convert(text)
    return blocks


# ---- the site's pages -----------------------------------------------------------------------------------


def nav_paths() -> list[str]:
    """Every page's source path under docs/, in mkdocs.yml's nav order."""
    import yaml

    loader = type("NavLoader", (yaml.SafeLoader,), {})
    loader.add_multi_constructor("!", lambda *_: None)  # mkdocs.yml's own tags (!ENV, python names)
    loader.add_multi_constructor("tag:yaml.org,2002:python/", lambda *_: None)
    config = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=loader)

    def flatten(entries: list) -> list[str]:
        paths = []
        for entry in entries:
            targets = [entry] if isinstance(entry, str) else list(entry.values())
            for target in targets:
                paths.extend(flatten(target) if isinstance(target, list) else [target])
        return paths

    return flatten(config["nav"])


def url_of(path: str) -> str:
    """A page's URL inside the site from its source path under docs/ (``""`` for Home)."""
    return "" if path == "index.md" else path.rsplit(".", 1)[0] + "/"


# ---- reading built pages -----------------------------------------------------------------------------


class Page(HTMLParser):
    """One parsed page: its visible text, element ids, links, the assets a browser fetches by itself, its JSON scripts."""

    # (tag, attribute) pairs whose URL the browser fetches by itself when the page loads.
    FETCHED = {
        ("script", "src"),
        ("img", "src"),
        ("img", "srcset"),
        ("iframe", "src"),
        ("source", "src"),
        ("source", "srcset"),
        ("video", "src"),
        ("video", "poster"),
        ("audio", "src"),
        ("embed", "src"),
        ("object", "data"),
        ("image", "href"),
        ("image", "xlink:href"),
        ("use", "href"),
        ("use", "xlink:href"),
        ("input", "src"),
        ("track", "src"),
    }
    LINK_FETCHED = {"stylesheet", "icon", "preload", "modulepreload", "prefetch", "manifest", "apple-touch-icon"}
    LINKING = {("a", "href"), ("link", "href"), ("img", "src"), ("script", "src"), ("source", "src"), ("iframe", "src")}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.text: list[str] = []
        self.ids: list[str] = []
        self.anchors: set[str] = set()  # ids and <a name=...>: what a #fragment can point at
        self.links: list[str] = []  # every URL in LINKING, in page order
        self.downloads: list[str] = []  # href of every <a download>
        self.assets: list[str] = []
        self.json_scripts: list[str] = []  # the text of every <script type="application/json">, as a browser splits it
        self._in_style = False
        self._in_json = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {name: value or "" for name, value in attrs}
        if "id" in values:
            self.ids.append(values["id"])
            self.anchors.add(values["id"])
        if tag == "a" and "name" in values:
            self.anchors.add(values["name"])
        if tag == "a" and "download" in values:
            self.downloads.append(values.get("href", ""))
        for name, value in values.items():
            if (tag, name) in self.LINKING:
                self.links.append(value)
            if (tag, name) in self.FETCHED:
                self.assets.extend(part.strip().split(" ")[0] for part in value.split(","))
            if name == "style":
                self.assets.extend(re.findall(r"url\(\s*['\"]?([^'\")]+)", value))
        if tag == "link" and self.LINK_FETCHED & set(values.get("rel", "").lower().split()):
            self.assets.append(values.get("href", ""))
        self._in_style = tag == "style"
        self._in_json = tag == "script" and values.get("type") == "application/json"
        if self._in_json:
            self.json_scripts.append("")

    def handle_endtag(self, tag: str) -> None:
        self._in_style = self._in_json = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.assets.extend(re.findall(r"(?:url\(|@import)\s*['\"]?([^'\")\s;]+)", data))
        if self._in_json:
            self.json_scripts[-1] += data
        self.text.append(data)


def parse(html: str) -> Page:
    """Parse one page."""
    page = Page()
    page.feed(html)
    page.close()
    return page


def text_of(html: str) -> str:
    """The page's text with tags removed and entities decoded (code blocks keep their line breaks)."""
    return "".join(parse(html).text)


def flat_text(html: str) -> str:
    """The page's text with every tag and every run of white space made one space (to find a sentence)."""
    return re.sub(r"\s+", " ", " ".join(parse(html).text))


# ---- one expression on glassgrad and on PyTorch --------------------------------------------------------


def run_glassgrad(function: Callable[..., Any], args: tuple) -> tuple[float, list[float]]:
    """Forward value and the gradient of every Value argument (floats become leaves), from glassgrad."""
    from glassgrad import Value, backward

    leaves = [Value(a) if isinstance(a, float) else a for a in args]
    out = function(*leaves)
    backward(out)
    return out.data, [leaf.grad for leaf in leaves if isinstance(leaf, Value)]


def run_torch(function: Callable[..., Any], args: tuple) -> tuple[float, list[float]]:
    """The same from PyTorch float64 (floats become leaves that require grad; 0.0 for a grad never reached)."""
    import torch

    leaves = [torch.tensor(a, dtype=torch.float64, requires_grad=True) if isinstance(a, float) else a for a in args]
    out = function(*leaves)
    out.backward()
    return out.item(), [leaf.grad.item() if leaf.grad is not None else 0.0 for leaf in leaves if torch.is_tensor(leaf)]


def same_float(mine: float, theirs: float, rel: float = 1e-12, abs_tol: float = 0.0) -> bool:
    """Equal as IEEE results: nan equals nan, infinities must match exactly, finite numbers within tolerance."""
    if math.isnan(mine) or math.isnan(theirs):
        return math.isnan(mine) and math.isnan(theirs)
    return math.isclose(mine, theirs, rel_tol=rel, abs_tol=abs_tol)


def keep_inside(target: Any, site_url: str) -> tuple[list[str], list[str]]:
    """Route every request of a Playwright page or context: the site's own (and data:/blob:) go through, any
    other is refused. Returns the two lists it fills as the page runs: (fetched from the site, refused)."""
    fetched: list[str] = []
    outside: list[str] = []

    def guard(route: Any) -> None:
        url = route.request.url
        if url.startswith((site_url, "data:", "blob:")):
            fetched.append(url)
            route.continue_()
        else:
            outside.append(url)
            route.abort()

    target.route("**/*", guard)
    return fetched, outside


# ---- the built site, in the browser ---------------------------------------------------------------------


def page_html(site: Path, page: str) -> str:
    """The HTML of one built page, by its URL inside the site (``""`` for Home, ``"chapters/1-pytorch/"``)."""
    path = site / page / "index.html" if not page.endswith(".html") else site / page
    return path.read_text(encoding="utf-8")


def site_pages(site: Path) -> list[str]:
    """Every page of the built site, as a URL path ("" for Home)."""
    pages = []
    for index in sorted(site.rglob("index.html")):
        relative = index.parent.relative_to(site).as_posix()
        pages.append("" if relative == "." else relative + "/")
    return pages


SETTLED = """() => Promise.all(document.getAnimations()
  .filter(animation => animation.effect && animation.effect.getComputedTiming().endTime !== Infinity)
  .map(animation => animation.finished))"""
"""Resolves once the page's finite CSS transitions and animations have ended (a fading text is paler than it will be)."""


@dataclass
class Guarded:
    """A page whose requests outside the site are refused (`keep_inside`), with what it fetched, refused and logged."""

    page: Any
    fetched: list[str]
    outside: list[str]
    errors: list[str]


@contextlib.contextmanager
def guarded_page(browser: Any, site_url: str) -> Iterator[Guarded]:
    """A page of a new 1280 × 900 browser context, guarded by `keep_inside`, its console errors and uncaught
    exceptions recorded as they happen (`Visit`); the context is closed afterwards."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    fetched, outside = keep_inside(context, site_url)
    page = context.new_page()
    try:
        yield Guarded(page, fetched, outside, Visit(page, site_url).errors)
    finally:
        context.close()


class Visit:
    """One open page of the site, recording its console errors and every request that leaves the site."""

    def __init__(self, page: Any, site_url: str) -> None:
        self.page = page
        self.errors: list[str] = []
        self.outside: list[str] = []

        def console(message: Any) -> None:
            if message.type == "error":
                self.errors.append(message.text)

        def request(request: Any) -> None:
            if not request.url.startswith((site_url, "data:", "blob:", "about:")):
                self.outside.append(request.url)

        self._listeners = {
            "console": console,
            "pageerror": lambda error: self.errors.append(str(error)),
            "request": request,
        }
        for event, listener in self._listeners.items():
            page.on(event, listener)

    def stop_listening(self) -> None:
        for event, listener in self._listeners.items():
            self.page.remove_listener(event, listener)
        self._listeners = {}


def public_names(module: ModuleType) -> list[str]:
    """`__all__` when the module declares it, else every non-underscore name defined in the module itself."""
    if hasattr(module, "__all__"):
        return list(module.__all__)
    return [
        name
        for name, obj in vars(module).items()
        if not name.startswith("_")
        and (inspect.isfunction(obj) or inspect.isclass(obj))
        and getattr(obj, "__module__", None) == module.__name__
    ]
