"""Build-speed hooks under docs/hooks/: what each one leaves in the build process."""

from __future__ import annotations

import gc
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[1]


def load_hook(name: str) -> ModuleType:
    """Import one of docs/hooks/*.py as a module."""
    spec = importlib.util.spec_from_file_location(f"hook_{name}", REPO / "docs" / "hooks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def unfrozen() -> None:
    """Leave the test process's collector as it was found (nothing frozen)."""
    gc.unfreeze()
    yield
    gc.unfreeze()


def test_long_lived_heap_freezes_after_torch_and_thaws_after_the_build(unfrozen: None) -> None:
    pytest.importorskip("torch")
    hook = load_hook("long_lived_heap")
    files = object()
    assert hook.on_files(files, config=None) is files
    assert "torch" in sys.modules and gc.isenabled()  # the collector paused for the import only
    frozen = gc.get_freeze_count()
    assert frozen > 10_000  # the modules alive at that point: this process's and PyTorch's objects
    young = [object() for _ in range(3)]  # created after the freeze: still the collector's
    assert gc.get_freeze_count() == frozen and gc.is_tracked(young)
    hook.on_post_build(config=None)
    assert gc.get_freeze_count() == 0  # mkdocs serve: the next build's garbage is collectable again
    hook.on_shutdown()
    assert gc.get_freeze_count() >= frozen  # at exit the whole heap is skipped by the final collections


def test_long_lived_heap_runs_after_the_notebook_kernel_starts() -> None:
    """Its on_files must come after docs/hooks/notebook.py's, which starts the kernel, so the import overlaps it."""
    heap, notebook = load_hook("long_lived_heap"), load_hook("notebook")
    assert heap.on_files.mkdocs_priority < notebook.on_files.mkdocs_priority
