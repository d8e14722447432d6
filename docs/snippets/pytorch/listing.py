# Show a listing and run exactly that text in this page's session, so the code on the page is the code that ran.
import os
import string
from pathlib import Path

import glassgrad.examples
from glassgrad.examples import LINEAR_INPUTS


def fenced(language: str, text: str) -> str:
    """A Markdown code fence around `text` (markdown-exec renders this block's output as Markdown)."""
    return f"```{language}\n{text.rstrip()}\n```\n"


def fill_template(template_path: str, inputs=None) -> str:
    """The template's text with `$w $x $b $y` replaced by `inputs` (default LINEAR_INPUTS) as float literals."""
    # markdown-exec exports the folder of mkdocs.yml (empty for `-f mkdocs.yml`); else the checkout glassgrad runs from.
    root = Path(os.environ.get("MKDOCS_CONFIG_DIR") or Path(glassgrad.examples.__file__).parents[2])
    template = string.Template((root / template_path).read_text(encoding="utf-8"))
    inputs = LINEAR_INPUTS if inputs is None else inputs
    return template.substitute({name: repr(float(value)) for name, value in inputs.items()})


def show_and_run(template_path: str, namespace: dict, inputs=None) -> str:
    """Fill the template's `$w $x $b $y` from `inputs` (default LINEAR_INPUTS), run it in `namespace`,
    and return the listing followed by what it printed."""
    source = fill_template(template_path, inputs)
    printed = []
    page_print = namespace.get("print", print)
    # markdown-exec routes print() to the page; capture the listing's own output separately.
    namespace["print"] = lambda *texts, sep=" ", end="\n", **_: printed.append(sep.join(map(str, texts)) + end)
    try:
        exec(compile(source, template_path, "exec"), namespace)
    finally:
        namespace["print"] = page_print
    # Same layout as markdown-exec's source="block": the listing, then its output in a result box.
    return fenced("python", source) + '\n<div class="result" markdown="1">\n\n' + fenced("text", "".join(printed)) + "\n</div>\n"
