"""Read PyTorch's own backward graph: walk `grad_fn` / `next_functions` into plain nodes and edges.

PyTorch records a graph during the forward pass just as glassgrad does, but it stores it the
other way round: each non-leaf tensor points to the *backward function* that made it
(``tensor.grad_fn``, e.g. ``MulBackward0``), and each backward function lists, per forward
input, the backward function to call next (``next_functions``). A leaf that requires grad is
reached through an ``AccumulateGrad`` node whose ``variable`` is the leaf tensor.

`walk` turns that structure into a `TorchGraph` of `TorchNode`s and `TorchEdge`s with
deterministic ids, so a page can draw it, tabulate it and assert on it. It imports torch;
``import glassgrad`` never imports this module.

Examples:
    >>> import torch
    >>> w = torch.tensor(2.0, dtype=torch.float64, requires_grad=True)
    >>> x = torch.tensor(3.0, dtype=torch.float64, requires_grad=True)
    >>> graph = walk(w * x, names={"w": w, "x": x})
    >>> [(node.id, node.kind, node.label) for node in graph.nodes]
    [('t0', 'AccumulateGrad', 'w'), ('t1', 'AccumulateGrad', 'x'), ('t2', 'MulBackward0', '')]
    >>> [(edge.output, edge.parent, edge.slot) for edge in graph.edges]
    [('t2', 't0', 0), ('t2', 't1', 1)]
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import torch

__all__ = ["FREED", "TorchEdge", "TorchGraph", "TorchNode", "walk"]


class _Freed:
    """Type of `FREED`: stands for a saved tensor that backward already released."""

    def __repr__(self) -> str:
        return "FREED"


FREED = _Freed()
"""The value recorded for a saved tensor that a backward call (without ``retain_graph``) has freed."""


class TorchNode(NamedTuple):
    """One node of PyTorch's backward graph.

    Attributes:
        id: ``"t0"``, ``"t1"``, ... in dependency-safe order (every node after the nodes it sends
            gradient to, leaves first), the same rule as `glassgrad.dependency_safe_order`.
        kind: the class name of the backward function, e.g. ``"MulBackward0"``, ``"AccumulateGrad"``.
        label: the caller's name for the tensor this node produced (or, for ``AccumulateGrad``,
            the leaf it accumulates into), taken from `walk`'s ``names``; ``""`` if unnamed.
        saved: ``(name, value)`` for every ``_saved_*`` attribute, name without the prefix, sorted
            by name: what PyTorch kept from the forward pass to compute local derivatives later.
            One-element tensors become Python numbers; a freed tensor reads as `FREED`.
        inputs: ``len(next_functions)``: one slot per forward input, including inputs that need
            no gradient (constants), which have no edge.
        variable: the leaf tensor of an ``AccumulateGrad`` node, else ``None``.
    """

    id: str
    kind: str
    label: str
    saved: tuple[tuple[str, Any], ...]
    inputs: int
    variable: torch.Tensor | None


class TorchEdge(NamedTuple):
    """One entry of ``next_functions`` that is not ``None``: gradient flows from `output` to `parent`.

    `output` and `parent` are node ids; `slot` is the position in `output`'s ``next_functions``
    (which forward input of the operation this edge belongs to), so ``w * w`` has two edges,
    slots 0 and 1, to the same ``AccumulateGrad``.
    """

    output: str
    parent: str
    slot: int


class TorchGraph(NamedTuple):
    """PyTorch's backward graph as plain data: `nodes` in dependency-safe order, `edges`, and the `root` id.

    `edges` are listed in backward processing order: outputs from the root down, each output's
    slots in order.
    """

    nodes: tuple[TorchNode, ...]
    edges: tuple[TorchEdge, ...]
    root: str

    def node(self, key: str) -> TorchNode:
        """The node with id `key`, or else the node labelled `key`.

        Raises:
            KeyError: if no node has that id or label.
        """
        for node in self.nodes:
            if node.id == key:
                return node
        for node in self.nodes:
            if node.label == key:
                return node
        raise KeyError(f"no node with id or label {key!r} in this graph")

    def parents(self, key: str) -> list[TorchNode]:
        """The nodes that `key` (an id or label) sends gradient to, in slot order."""
        output = self.node(key).id
        return [self.node(edge.parent) for edge in self.edges if edge.output == output]

    def kinds(self) -> list[str]:
        """Every node's `kind`, in dependency-safe order."""
        return [node.kind for node in self.nodes]


def _plain(value: Any) -> Any:
    """A saved attribute as a plain Python value: one-element tensors become numbers."""
    if isinstance(value, torch.Tensor):
        return value.item() if value.numel() == 1 else f"tensor{tuple(value.shape)}"
    if isinstance(value, (bool, int, float, str)) or value is None:
        return value
    return repr(value)


def _saved(fn: Any) -> tuple[tuple[str, Any], ...]:
    """The ``_saved_*`` attributes of one backward function, freed tensors as `FREED`."""
    saved = []
    for attribute in sorted(dir(fn)):
        if not attribute.startswith("_saved_"):
            continue
        try:
            value = _plain(getattr(fn, attribute))
        except RuntimeError:  # backward without retain_graph released it
            value = FREED
        saved.append((attribute[len("_saved_") :], value))
    return tuple(saved)


def walk(root: torch.Tensor | Any, names: Mapping[str, torch.Tensor] | None = None) -> TorchGraph:
    """Walk PyTorch's backward graph from `root` and return it as a `TorchGraph`.

    Iterative depth-first, ``next_functions`` in stored order, each node listed after all the
    nodes it sends gradient to (so ids are deterministic for a given program). Does not run
    backward and changes nothing.

    Args:
        root: a tensor with a ``grad_fn`` (usually the loss), or a backward function itself.
        names: optional ``{label: tensor}``; a non-leaf tensor labels its ``grad_fn`` node, a leaf
            labels the ``AccumulateGrad`` node that holds it.

    Raises:
        ValueError: if `root` is a tensor without ``grad_fn`` (a leaf, or no ``requires_grad``).
    """
    if isinstance(root, torch.Tensor):
        if root.grad_fn is None:
            raise ValueError(
                "walk: the root tensor has no grad_fn (it is a leaf or does not require grad); "
                "pass the output of an operation on tensors with requires_grad=True"
            )
        root = root.grad_fn
    labels: dict[int, str] = {}
    leaves: dict[int, str] = {}
    keep: list[Any] = []  # holds the looked-up grad_fns alive so their ids stay unique
    for label, tensor in (names or {}).items():
        if tensor.grad_fn is not None:
            keep.append(tensor.grad_fn)
            labels.setdefault(id(tensor.grad_fn), label)
        elif tensor.requires_grad:
            leaves.setdefault(id(tensor), label)

    order: list[Any] = []
    state: dict[int, bool] = {id(root): False}  # False: on the current path; True: listed
    stack = [(root, iter(root.next_functions))]
    while stack:
        fn, nexts = stack[-1]
        for parent, _ in nexts:
            if parent is not None and id(parent) not in state:
                state[id(parent)] = False
                stack.append((parent, iter(parent.next_functions)))
                break
        else:
            stack.pop()
            state[id(fn)] = True
            order.append(fn)

    ids = {id(fn): f"t{index}" for index, fn in enumerate(order)}
    nodes = []
    for fn in order:
        variable = getattr(fn, "variable", None)
        if variable is not None:
            label = leaves.get(id(variable), "")
        else:
            label = labels.get(id(fn), "")
        nodes.append(TorchNode(ids[id(fn)], type(fn).__name__, label, _saved(fn), len(fn.next_functions), variable))
    edges = [
        TorchEdge(ids[id(fn)], ids[id(parent)], slot)
        for fn in reversed(order)
        for slot, (parent, _) in enumerate(fn.next_functions)
        if parent is not None
    ]
    return TorchGraph(tuple(nodes), tuple(edges), ids[id(root)])
