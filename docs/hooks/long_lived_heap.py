"""MkDocs hook: keep the build's long-lived objects (the imported modules, PyTorch's among them) out of the cycle collector.

A full collection traverses every container object alive. By the time pages run, the build process
holds about 225,000 of them that live until exit: MkDocs, its plugins, nbconvert and above all
PyTorch. Every full collection triggered while a page builds its graphs (the training page's MLP
took 1.7 s instead of 2.1-3.3 s once they were frozen) walked them all again, and at exit the
interpreter's final collections walked the whole heap once more (2-2.7 s, now 0.3 s).
``gc.freeze()`` moves the objects alive at that moment into a permanent generation that
collections skip; objects created later are collected as usual, so the pages' graphs and outputs
are the same.

PyTorch is imported here, once per process, so that its objects are among the frozen ones; the
pages that import it later find it already loaded (``torch_threads.py`` has set its thread count).
The collector is paused during that import: it creates some 150,000 objects and next to no garbage
(a collection right after it frees a few thousand objects at most), and the full collections it
would trigger over the heap MkDocs and its plugins already hold cost about 0.5 s.
"""

from __future__ import annotations

import gc
import importlib.util
from typing import Any

from mkdocs.plugins import event_priority


def _import_torch() -> None:
    """Import PyTorch if it is installed (the site's torch pages need it; a build without it fails there, not here)."""
    if importlib.util.find_spec("torch") is None:
        return
    collecting = gc.isenabled()
    gc.disable()
    try:
        import torch  # noqa: F401  (imported for its side effect: loaded once, before the freeze)
    finally:
        if collecting:
            gc.enable()


@event_priority(-100)  # after docs/hooks/notebook.py's on_files: its kernel starts before this import blocks
def on_files(files: Any, config: Any) -> Any:
    """Load PyTorch, then freeze everything alive: the pages' collections skip it."""
    _import_torch()
    gc.freeze()
    return files


def on_post_build(config: Any) -> None:
    """Give the frozen objects back to the collector (`mkdocs serve` rebuilds in this process; freed modules are garbage)."""
    gc.unfreeze()


def on_shutdown() -> None:
    """Freeze the whole heap before exit: the interpreter's final collections then skip it (the OS frees the memory)."""
    gc.freeze()
