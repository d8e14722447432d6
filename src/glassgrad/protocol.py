"""What every engine's Value has in public, and the one test for it.

`glassgrad.Value` and chapter 2's `glassgrad.scratch.Value` are different classes with one public shape:
``data``, ``grad``, ``label``, ``op`` and ``parents`` (links with ``value`` and ``local_grad``). Code that
takes either (the exercise checker, the runtime that runs a reader's program, the figures) asks `is_value`.

Examples:
    >>> from glassgrad import Value, scratch
    >>> is_value(Value(2.0)), is_value(scratch.Value(2.0)), is_value(2.0)
    (True, True, False)
"""

from __future__ import annotations

VALUE_FIELDS = ("data", "grad", "parents")
"""The fields that make a Value of either engine (a reader's own class with them counts too)."""


def is_value(thing: object) -> bool:
    """Whether `thing` has a Value's public shape (`VALUE_FIELDS`), whichever engine made it."""
    return all(hasattr(thing, name) for name in VALUE_FIELDS)
