"""The old playground worker's entry points, delegating to glassgrad_runtime (goes with playground-worker.js).

Kept only until the page's new worker (which calls glassgrad_runtime.worker) replaces playground-worker.js.
"""

from __future__ import annotations

from typing import Any

from glassgrad_runtime import execute


def run(source: str, prefix: str | None = None, namespace: dict[str, Any] | None = None) -> dict[str, Any]:
    return execute(source, prefix, namespace=namespace)


def check(exercise: str, source: str, prefix: str | None = None, namespace: dict[str, Any] | None = None) -> dict[str, Any]:
    return execute(source, prefix, exercise=exercise, namespace=namespace)
