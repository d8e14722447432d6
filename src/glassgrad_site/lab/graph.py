"""One example's loss graph as Inspect shows it: its nodes named as the page's formulas, a node per neuron, a layout copy."""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING, Any

from glassgrad import ParentLink, Value, dependency_safe_order

if TYPE_CHECKING:
    from glassgrad_site.lab.model import Lab

PREFIX = "lab-graph"  # id prefix of the inspected graph's figure

LOSS_NAMES = {"×": "y·s", "+": "1−y·s", "−": "1−y·s", "σ": "σ(y·s)", "log": "logσ(y·s)"}
"""Display names of the nodes `example_loss` makes after the score s (the label's leaf is y); names change no number."""


def name_loss_nodes(loss: Value, score: Value | list[Value]) -> None:
    """Name the nodes between the score and the loss as the page's formulas do (y, y·s, 1−y·s, ...).

    Softmax cross-entropy is one node on the scores: nothing between them to name."""
    if isinstance(score, list):
        return
    stack, seen = [loss], set()
    while stack:
        node = stack.pop()
        if node is score or id(node) in seen:
            continue
        seen.add(id(node))
        links = node.parents
        if not links and not node.label:
            node.label = "y" if any(link.value is score for link in _users(loss, node)) else f"{node.data:g}"
        elif not node.label:
            node.label = "s−y" if node.op == "−" and links[0].value is score else LOSS_NAMES.get(node.op, "")
        stack.extend(link.value for link in links)


def _users(root: Value, leaf: Value) -> list[Any]:
    """The links of the nodes that use `leaf` next to another operand (for the label: y · s)."""
    found: list[Any] = []
    stack, seen = [root], set()
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if any(link.value is leaf for link in node.parents):
            found.extend(node.parents)
        stack.extend(link.value for link in node.parents)
    return found


def collapse(root: Value, hidden: Collection[Value]) -> Value:
    """A copy of `root`'s graph without the `hidden` values: each is folded into the node that uses it.

    A kept node's links go to the kept values it reaches through hidden ones. Each link's local derivative
    is the sum, over the paths through hidden values, of the products of the local derivatives along the
    path (the chain rule, as forward mode sums paths); a path that ends at a hidden leaf (a weight, a bias)
    is dropped, as that leaf is. A neuron ``h = relu(z)``, ``z = w·x + b``, with `z`, the weights and
    the bias hidden, becomes one node whose link to each input ``x`` holds ``∂h/∂x = relu'(z)·w``. The
    copy is a graph of real `Value`s and `ParentLink`s: `backward` on it gives every kept value the
    gradient the whole graph gives it (up to rounding).
    """
    gone = {id(value) for value in hidden}
    made: dict[int, Value] = {}
    for node in dependency_safe_order(root):
        if id(node) in gone:
            continue
        sums: dict[int, list[Any]] = {}  # a kept parent's id -> [the parent, the sum over paths to it]
        stack = [(link.value, link.local_grad) for link in reversed(node.parents)]
        while stack:
            parent, product = stack.pop()
            if id(parent) not in gone:
                sums.setdefault(id(parent), [parent, 0.0])[1] += product
            else:
                stack.extend((link.value, product * link.local_grad) for link in reversed(parent.parents))
        links = [ParentLink(made[key], total) for key, (_, total) in sums.items()]
        made[id(node)] = Value(node.data, node.label, parents=links, op=node.op)
    return made[id(root)]


def neuron_of(label: str) -> str:
    """The neuron a node's label belongs to (``L1.n3`` for ``L1.n3``, ``L1.n3.h``, ``L1.n3.w0``), or ``""``."""
    parts = label.split(".")
    if (
        len(parts) >= 2
        and parts[0][:1] == "L"
        and parts[0][1:].isdigit()
        and parts[1][:1] == "n"
        and parts[1][1:].isdigit()
    ):
        return ".".join(parts[:2])
    return ""


def neuron_view(lab: Lab, root: Value, expand: str = "") -> Value:
    """`root` (an example's loss) with each neuron as one node: its weights, its bias and its weighted sum folded in.

    A hidden neuron keeps its activation's label without the ``.h`` (``L1.n3``) and shows the operation
    ``ReLU∘Σ`` (or ``tanh∘Σ``, ``σ∘Σ``); a linear neuron and the output neurons (the scores, no activation)
    keep their labels and ``Σ``. The neuron `expand` names (``L1.n3``) keeps its Values: its weights, its bias,
    its weighted sum and its activation, as the engine built them.
    """
    hidden: list[Value] = [p for p in lab.parameters if not expand or neuron_of(p.label) != expand]
    activated = []
    for node, weighted_sum in _activations(root):
        if not expand or neuron_of(node.label) != expand:
            hidden.append(weighted_sum)
            activated.append(node.label)
    view = collapse(root, hidden)
    for node in dependency_safe_order(view):
        if node.label in activated:
            node.label, node.op = node.label.removesuffix(".h"), f"{node.op}∘Σ"
    return view


def pre_activations(root: Value) -> dict[str, float]:
    """Each activated neuron's weighted sum z in `root`'s whole graph, by the neuron's label (``L1.n3``): what a
    collapsed neuron's node folds in and shows on demand."""
    return {node.label.removesuffix(".h"): weighted_sum.data for node, weighted_sum in _activations(root)}


def _activations(root: Value) -> list[tuple[Value, Value]]:
    """Each neuron's activation in `root`'s graph (labelled ``L1.n3.h``) with the weighted sum it is applied to."""
    return [
        (node, node.parents[0].value)
        for node in dependency_safe_order(root)
        if node.label.endswith(".h") and len(node.parents) == 1 and node.parents[0].value.op == "Σ"
    ]


WIDEST = -0.888888
"""The number every box and edge label is laid out for: as wide as most numbers ``:g`` writes (9 characters)."""


def widest(root: Value) -> Value:
    """A copy of `root`'s graph with `WIDEST` for every data, grad and local derivative, to lay the drawing out for
    the numbers later examples and steps write into it (a layout made for short numbers would let longer ones
    spill out of their boxes)."""
    made: dict[int, Value] = {}
    for node in dependency_safe_order(root):
        links = [ParentLink(made[id(link.value)], WIDEST) for link in node.parents]
        copy = made[id(node)] = Value(WIDEST, node.label, parents=links, op=node.op)
        copy.grad = WIDEST
    return made[id(root)]
