"""MkDocs hook: the tutorial notebook, generated from the chapter pages before each build (`glassgrad_site.notebook`).

Each event imports the module when it runs, so that `make serve` uses its newest code (fresh_modules.py drops it).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from mkdocs.plugins import event_priority

NBCONVERT_CONFIG = Path(__file__).with_name("jupyter")  # jupyter_nbconvert_config.py: streams joined after the run


def on_config(config: Any) -> Any:
    """Point Jupyter's configuration search at docs/hooks/jupyter/ before mkdocs-jupyter converts the notebook."""
    from glassgrad_site.notebook import jupyter_config_path

    os.environ["JUPYTER_CONFIG_PATH"] = jupyter_config_path(os.environ.get("JUPYTER_CONFIG_PATH"), NBCONVERT_CONFIG)
    return config


@event_priority(50)  # before mkdocs-jupyter's on_files (priority 0), which must already see the .ipynb
def on_files(files: Any, config: Any) -> Any:
    from glassgrad_site.notebook import add_notebook

    return add_notebook(files, config)


def on_page_content(content: str, page: Any, config: Any, files: Any) -> str:
    from glassgrad_site.notebook import notebook_page

    return notebook_page(content, page)
