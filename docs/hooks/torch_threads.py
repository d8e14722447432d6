"""MkDocs hook: PyTorch runs on one thread during the build (and in the notebook's kernel).

The site's tensors are tiny (scalars, a 60 × 8 matrix). With its default of one thread per core,
PyTorch hands each operation to a thread pool whose workers spin while they wait: on the build
machine the moons run of `docs/training.md` took 1-2 s of CPU that way instead of 0.04 s, and the
spinning took the second core from the notebook's kernel. Tensors this small are never split
across threads, so the numbers are the same either way.

`OMP_NUM_THREADS` is read when torch is imported (the pages import it later; the notebook's
kernel inherits the environment); a value set by the caller is kept.
"""

from __future__ import annotations

import os
import sys
from typing import Any

THREADS = "1"

os.environ.setdefault("OMP_NUM_THREADS", THREADS)


def on_config(config: Any) -> Any:
    """Under `mkdocs serve`, torch stays imported across rebuilds: apply the setting to it directly."""
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(int(os.environ["OMP_NUM_THREADS"]))
    return config
