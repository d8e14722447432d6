# The chapter map is read from docs/chapters/, so a new chapter appears here without editing this page.
import os
import re
from pathlib import Path

chapters_folder = Path(os.environ.get("MKDOCS_CONFIG_DIR", ".")) / "docs" / "chapters"


def chapter_summary(markdown: str) -> tuple[str, str]:
    """(title, summary): the `# ` heading, and the front matter's `description:` or else the first sentence."""
    description = re.match(r"---\n(?:.*\n)*?description:\s*(.+)\n(?:.*\n)*?---\n", markdown)
    title = re.search(r"^# (.+)$", markdown, re.MULTILINE)
    body = markdown[title.end():] if title else markdown
    paragraph = next(
        (block.strip() for block in re.split(r"\n\s*\n", body)
         if block.strip() and not block.lstrip().startswith(("#", "```", "\\[", "!!!", "<", "|", "-", "--8<--"))),
        "",
    )
    sentence = re.split(r"(?<=[.!?:])\s", " ".join(paragraph.split()), maxsplit=1)[0]
    summary = description[1].strip().strip("\"'") if description else sentence.rstrip(":")
    return (title[1].strip() if title else "Untitled"), summary


rows = ["| chapter | what it shows |", "| --- | --- |"]
for path in sorted(chapters_folder.glob("*.md")):
    title, summary = chapter_summary(path.read_text(encoding="utf-8"))
    # A site URL, not a .md path: MkDocs does not rewrite links inside executed output.
    rows.append(f"| [{title}](chapters/{path.stem}/) | {summary} |")
assert len(rows) > 2, "no chapter found"
print("\n".join(rows))
