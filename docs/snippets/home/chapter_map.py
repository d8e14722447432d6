# The map follows mkdocs.yml's nav, so a page added to the nav appears here without editing this page.
import os
import re
from pathlib import Path

import yaml

site_root = Path(os.environ.get("MKDOCS_CONFIG_DIR", "."))
docs_folder = site_root / "docs"


class NavLoader(yaml.SafeLoader):
    """A YAML loader that reads mkdocs.yml and ignores its tags (`!relative`, `!!python/name:`)."""


NavLoader.add_multi_constructor("!", lambda loader, suffix, node: None)
NavLoader.add_multi_constructor("tag:yaml.org,2002:python/", lambda loader, suffix, node: None)


def nav_pages(entries, section=""):
    """Yield (section, title or None, docs-relative path) for every Markdown page in the nav, in order."""
    for entry in entries:
        if isinstance(entry, str):
            yield section, None, entry
        elif isinstance(entry, dict):
            for title, target in entry.items():
                if isinstance(target, list):
                    yield from nav_pages(target, title)
                elif isinstance(target, str) and target.endswith((".md", ".ipynb")):
                    yield section, title, target


# The notebook is generated from the chapters at build time (docs/hooks/notebook.py): no page to read it from.
NOTEBOOK_SUMMARY = "The three chapters as one Jupyter notebook, to download, run and change."


def page_summary(path: str) -> tuple[str, str]:
    """(title, summary) of a page: its `# ` heading and its front matter's `description:`."""
    if path.endswith(".ipynb"):
        return Path(path).stem, NOTEBOOK_SUMMARY
    markdown = (docs_folder / path).read_text(encoding="utf-8")
    front_matter = re.match(r"---\n(.*?)\n---\n", markdown, re.DOTALL)
    # Parsed as MkDocs parses it, so a description that is not valid YAML fails here, not silently in <meta>.
    meta = yaml.safe_load(front_matter[1]) if front_matter else {}
    # Every page carries a description (search engines and this map use it): a page without one fails here.
    assert isinstance(meta, dict) and meta.get("description"), f"{path} has no `description:` front matter"
    title = re.search(r"^# (.+)$", markdown, re.MULTILINE)
    return (title[1].strip() if title else path), " ".join(str(meta["description"]).split())


def page_url(path: str) -> str:
    """The page's URL relative to Home (MkDocs does not rewrite .md links inside executed output)."""
    stem = path.rsplit(".", 1)[0]
    return "./" if stem == "index" else (stem[: -len("index")] if stem.endswith("/index") else stem + "/")


config = yaml.load((site_root / "mkdocs.yml").read_text(encoding="utf-8"), Loader=NavLoader)
rows = ["| part | page | what it shows |", "| --- | --- | --- |"]
for section, nav_title, path in nav_pages(config["nav"]):
    if path == "index.md":
        continue
    title, summary = page_summary(path)
    rows.append(f"| {section} | [{nav_title or title}]({page_url(path)}) | {summary.replace('|', '&#124;')} |")
assert len(rows) > 2, "the nav lists no page besides Home"
print("\n".join(rows))
