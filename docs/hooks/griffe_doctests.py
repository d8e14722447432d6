"""Griffe extension for the API reference: show bare doctest examples in docstrings as Python code.

glassgrad's docstrings write examples as plain ``>>>`` lines (pytest runs them with
``--doctest-modules``). Markdown would read ``>>>`` as nested block quotes and ``[...]`` in an
output line as a link, so each run of doctest lines (prompts, continuations and expected
output, up to a blank line) is wrapped in a ``pycon`` code fence before the docstring is rendered.
Loaded by mkdocstrings through ``extensions:`` in mkdocs.yml; it changes only the rendered text.
"""

from __future__ import annotations

from typing import Any

import griffe


def fence_doctests(text: str) -> str:
    """Wrap every doctest run of `text` in a fenced ``pycon`` block, keeping its indentation.

    Args:
        text: a cleaned docstring.

    Returns:
        The same text with each run (a ``>>>`` line and every non-blank line after it) fenced;
        runs already inside a fence are left as they are.

    >>> print(fence_doctests("Intro.\\n\\n>>> 1 + 1\\n2\\n\\nAfter."))
    Intro.
    <BLANKLINE>
    ```pycon
    >>> 1 + 1
    2
    ```
    <BLANKLINE>
    After.
    """
    lines = text.splitlines()
    out: list[str] = []
    in_fence = False
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.lstrip()
        if stripped.startswith("```"):
            in_fence = not in_fence
        if in_fence or not stripped.startswith(">>>"):
            out.append(line)
            index += 1
            continue
        indent = line[: len(line) - len(stripped)]
        block = []
        while index < len(lines) and lines[index].strip():
            block.append(lines[index])
            index += 1
        out += [f"{indent}```pycon", *block, f"{indent}```"]
    return "\n".join(out)


class DoctestFences(griffe.Extension):
    """Fence the doctest examples of every loaded object's docstring."""

    def on_object(self, *, obj: griffe.Object, **kwargs: Any) -> None:
        """Rewrite `obj`'s docstring text once it is loaded (before it is parsed and rendered)."""
        if obj.docstring is not None and ">>>" in obj.docstring.value:
            obj.docstring.value = fence_doctests(obj.docstring.value)
