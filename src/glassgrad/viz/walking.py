"""Walking a graph for the figures, and the ids and fingerprints of its elements (see `glassgrad.viz.graph`)."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence, Set
from typing import Any

from glassgrad.autograd import GraphTooLarge, OrderEvent, walk_parents
from glassgrad.viz.html import caption, short

Value = Any
"""Any node with the public shape viz reads: ``data``, ``grad``, ``label``, ``op`` and ``parents``,
a sequence of links with ``.value`` (the operand) and ``.local_grad``: a `glassgrad.Value` or a
`glassgrad.scratch.Value` alike."""


def check_node(node: object, caller: str) -> None:
    """TypeError naming `node` unless it has the public fields viz reads (``data``, ``grad``, ``label``, ``op``, ``parents``)."""
    if not all(hasattr(node, field) for field in ("data", "grad", "label", "op", "parents")):
        raise TypeError(
            f"{caller}: expected a Value (anything with data, grad, label, op and parents), "
            f"got {type(node).__name__} {node!r:.60}"
        )


def too_big(caller: str, root: Value, what: str, limit: int, name: str) -> ValueError:
    """The error a drawing function raises when the graph passes one of its limits, saying how to draw it anyway."""
    return ValueError(
        f"{caller}: the graph of {short(caption(root))!r} has more than {limit:,} {what} ({name}={limit:,}): "
        f"too many to draw in reasonable time and size. Draw a smaller part, or pass a larger {name}."
    )


def walk(
    root: Value,
    events: list[OrderEvent] | None = None,
    *,
    max_values: int | None = None,
    max_links: int | None = None,
    caller: str = "walk",
) -> list[Value]:
    """Every node reachable from `root` through ``parents[k].value``, each after all of its parents.

    The engine's public walk (`glassgrad.autograd.walk_parents`: `dependency_safe_order` over public
    fields), so the figures number nodes in that order and draw any engine's graph, however deep;
    this adds the check of `root` and the size errors named after `caller`. When `events` is a list,
    every visit, skip and append is added to it, for replays.

    Raises:
        ValueError: if a node is its own ancestor (a cycle made by editing ``parents``), or, as soon
            as it reaches them, more than `max_values` values or `max_links` links (named after `caller`).
        TypeError: if `root` is not a node.
    """
    check_node(root, caller)
    try:
        return walk_parents(
            root, events, max_values=max_values, max_links=max_links, describe=lambda node: repr(short(caption(node)))
        )
    except GraphTooLarge as error:
        raise too_big(caller, root, error.what, error.limit, f"max_{error.what}") from None


def names(root: Value, order: Sequence[Value] | None = None) -> dict[Value, str]:
    """The name every figure shows for each node reachable from `root` (see `caption`), keyed by node;
    `order` is ``walk(root)`` when the caller has it already."""
    return {node: caption(node, i) for i, node in enumerate(walk(root) if order is None else order)}


def check_prefix(prefix: str) -> str:
    """Return `prefix` if it is a safe id prefix (a letter, then letters, digits, ``_``, ``-``); else ValueError."""
    if not isinstance(prefix, str) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_-]*", prefix):
        raise ValueError(f"id prefix must start with a letter and use only A-Z a-z 0-9 _ -, got {prefix!r:.60}")
    return prefix


def fingerprint(kind: str, parts: Sequence[str]) -> str:
    """A short id prefix derived from `parts`: the same content always gives the same prefix."""
    digest = hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()
    return f"{kind}{digest[:8]}"


class GraphIds:
    """The id of every element of the figure of `root`'s graph with id prefix `prefix` (see the module docstring);
    `order` is ``walk(root)`` when the caller has it already.

    Raises:
        ValueError: if `prefix` is not a letter followed by letters, digits, ``_`` or ``-``.
    """

    __slots__ = ("prefix", "order", "_index")

    def __init__(self, root: Value, prefix: str, order: Sequence[Value] | None = None) -> None:
        self.prefix = check_prefix(prefix)
        self.order: list[Value] = walk(root) if order is None else list(order)
        self._index = {node: i for i, node in enumerate(self.order)}

    def __contains__(self, value: object) -> bool:
        """Whether `value` is one of the figure's values."""
        return value in self._index

    def index(self, value: Value) -> int:
        """Position of `value` in ``walk(root)`` (KeyError if it is not in the graph)."""
        return self._index[value]

    def node_id(self, value: Value) -> str:
        """Id of the value box of `value`: ``{prefix}-node-{i}``."""
        return f"{self.prefix}-node-{self._index[value]}"

    def op_id(self, value: Value) -> str:
        """Id of the operation circle that produced `value`: ``{prefix}-op-{i}``."""
        return f"{self.prefix}-op-{self._index[value]}"

    def edge_id(self, output: Value, k: int) -> str:
        """Id of the edge for ``output.parents[k]`` (parent → op of `output`): ``{prefix}-edge-{i}-{k}``."""
        if not 0 <= k < len(output.parents):
            raise IndexError(f"{caption(output)} has {len(output.parents)} parent links, no link {k}")
        return f"{self.prefix}-edge-{self._index[output]}-{k}"

    def out_id(self, value: Value) -> str:
        """Id of the edge from the operation circle to the value box of `value`: ``{prefix}-out-{i}``."""
        return f"{self.prefix}-out-{self._index[value]}"

    def data_id(self, value: Value) -> str:
        """Id of the number in the data line of the value box of `value`: ``{prefix}-node-{i}-data``."""
        return f"{self.node_id(value)}-data"

    def grad_id(self, value: Value) -> str:
        """Id of the grad line of the value box of `value`: ``{prefix}-node-{i}-grad``."""
        return f"{self.node_id(value)}-grad"

    def local_id(self, output: Value, k: int) -> str:
        """Id of the line of the label of edge `k` of `output` that holds its number: ``{prefix}-edge-{i}-{k}-local``."""
        return f"{self.edge_id(output, k)}-local"


def _option_text(option: object, position: Mapping[Value, int]) -> str:
    """`option` as text for `graph_fingerprint`: a value of the graph by its position, collections item by item."""
    if isinstance(option, str | bytes):
        return repr(option)
    if all(hasattr(option, field) for field in ("data", "grad", "label", "op", "parents")):
        return f"#{position.get(option, '?')}"
    if isinstance(option, Mapping):
        pairs = (f"{_option_text(key, position)}:{_option_text(item, position)}" for key, item in option.items())
        return "{" + ",".join(sorted(pairs)) + "}"
    if isinstance(option, Set):  # no order: its items sorted
        return "{" + ",".join(sorted(_option_text(item, position) for item in option)) + "}"
    if isinstance(option, Sequence):
        return "[" + ",".join(_option_text(item, position) for item in option) + "]"
    return repr(option)


def graph_fingerprint(order: Sequence[Value], show_grad: bool, options: Mapping[str, object], kind: str = "gg") -> str:
    """A prefix derived from everything drawn, every option of the drawing included (values of the graph by
    their position): same graph and options → same ids; a different graph or any different option → different ids."""
    index = {node: i for i, node in enumerate(order)}
    parts = [_option_text(dict(options), index)]
    for node in order:
        links = ",".join(f"{index[link.value]}:{link.local_grad!r}" for link in node.parents)
        grad = repr(node.grad) if show_grad else ""
        parts.append(f"{node.label!r}|{node.data!r}|{grad}|{node.op!r}|{links}")
    return fingerprint(kind, parts)
