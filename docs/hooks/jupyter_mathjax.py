"""MkDocs hook: mkdocs-jupyter adds no MathJax loader from a CDN, whichever release the Python in use installs.

The site's formulas are MathML made at build time (glassgrad.viz.mathml; the notebook hook converts the notebook's):
no page needs MathJax. mkdocs-jupyter 0.27 (Python >= 3.12) writes into every page a loader that fetches MathJax 4
from a CDN once a notebook is shown, unless its setting `mathjax_version` is 2 (then only nbconvert's MathJax 2 tag
is written into the notebook page, which docs/hooks/notebook.py removes). 0.26, the newest release for Python 3.11,
has no such setting and rejects it as unknown (which fails a strict build), so it cannot be written in mkdocs.yml:
it is set here where the installed plugin has it. scripts/check_site.py fails any page that would load a script
from another origin, so a release that brings another loader cannot slip through.
"""

from __future__ import annotations

from typing import Any

MATHJAX_VERSION = 2  # nbconvert's classic tag on the notebook page only, which docs/hooks/notebook.py strips


def on_config(config: Any) -> Any:
    jupyter = config.plugins.get("mkdocs-jupyter")
    if jupyter is not None and "mathjax_version" in dict(jupyter.config_scheme):
        jupyter.config["mathjax_version"] = MATHJAX_VERSION
    return config
