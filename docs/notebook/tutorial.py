# ---
# jupyter:
#   jupytext:
#     formats: py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#   kernelspec:
#     display_name: Python 3 (ipykernel)
#     language: python
#     name: python3
# ---

# %% [markdown]
# # glassgrad: the whole tutorial in one notebook
#
# The three chapters of the site, in one notebook that runs top to bottom:
#
# 1. PyTorch differentiates a graph of four operations; its values and gradients become the targets.
# 2. glassgrad, a tiny engine, reproduces every one of those numbers and shows each step it takes.
# 3. One neuron compares a sigmoid written as one operation with the same sigmoid written as four.
#
# Every number below is computed when the notebook runs. The last cell compares every value and every
# gradient with PyTorch and raises if a single one disagrees.
#
# To run it yourself: `pip install "glassgrad[torch,viz]"` (figures also need Graphviz's `dot`). The
# first cell loads glassgrad's stylesheet, which gives the figures their colours outside the site.

# %%
import inspect
import math

import torch
from IPython.display import display

import glassgrad.autograd
import glassgrad.value
from glassgrad import (
    CycleError,
    ParentLink,
    Value,
    add,
    backward,
    dependency_safe_order,
    exponential,
    multiply,
    negate,
    plus_one,
    reciprocal,
    sigmoid,
    square,
    subtract,
)
from glassgrad.examples import LINEAR_INPUTS, SIGMOID_INPUTS, linear_loss, sigmoid_neuron
from glassgrad.torch_reference import compare
from glassgrad.torch_reference import linear_loss as torch_linear_loss
from glassgrad.torch_reference import sigmoid_neuron as torch_sigmoid_neuron
from glassgrad.viz import (
    animate_backward,
    animate_order,
    draw_graph,
    legend,
    show_backward_steps,
    show_complete_state,
    show_dependency_order,
    show_order_walk,
    show_parent_link,
    side_by_side,
    stylesheet,
)

stylesheet()

# %% [markdown]
# ## 1 · The whole example in PyTorch
#
# The running example is one small graph:
#
# $$m=wx,\qquad a=m+b,\qquad e=a-y,\qquad L=e^2$$
#
# with the inputs of `glassgrad.examples.LINEAR_INPUTS`, the numbers every chapter uses (printed by the
# next cell). Each number is a scalar tensor, in float64 so that PyTorch and glassgrad can be compared
# exactly. `requires_grad=True` asks PyTorch for the derivative of the loss
# with respect to that tensor. The target `y` would be fixed data in real training; it is tracked here
# only so that PyTorch reports every gradient of the hand calculation.
#
# PyTorch fills `.grad` by itself only for the four **leaf** tensors, the ones created by hand.
# `retain_grad()` asks it to keep the gradients of the intermediate results as well.

# %%
torch.set_default_dtype(torch.float64)
print("Inputs:", ", ".join(f"{name} = {value:g}" for name, value in LINEAR_INPUTS.items()))

w = torch.tensor(LINEAR_INPUTS["w"], requires_grad=True)
x = torch.tensor(LINEAR_INPUTS["x"], requires_grad=True)
b = torch.tensor(LINEAR_INPUTS["b"], requires_grad=True)
y = torch.tensor(LINEAR_INPUTS["y"], requires_grad=True)

# Forward pass: each line records one operation in PyTorch's graph
m = w * x
a = m + b
e = a - y
L = e ** 2

# Intermediate (non-leaf) tensors drop .grad unless asked to keep it
for node in (m, a, e, L):
    node.retain_grad()

print("Forward: m =", m.item(), ", a =", a.item(), ", e =", e.item(), ", L =", L.item())

# %% [markdown]
# One call differentiates the whole graph. It starts from $\partial L/\partial L=1$ at $L$ and sends
# gradients back through the recorded operations to every tensor that asked for one:

# %%
L.backward()

print("w.grad =", w.grad)
print("x.grad =", x.grad)
print("b.grad =", b.grad)
print("y.grad =", y.grad)

# %% [markdown]
# Each gradient is a sensitivity: moving $w$ by a small $\varepsilon$ moves $L$ by about
# `w.grad` $\times\,\varepsilon$. A central difference, computed without autograd, says the same:

# %%
def loss_at(w_value):
    """L with w replaced by `w_value`, computed without recording a graph."""
    with torch.no_grad():
        return ((w_value * x + b - y) ** 2).item()


step = 1e-6
slope = (loss_at(w.item() + step) - loss_at(w.item() - step)) / (2 * step)
assert math.isclose(slope, w.grad.item(), rel_tol=1e-6), (slope, w.grad.item())
print(f"finite-difference slope in w: {slope:.6f}   autograd: {w.grad.item():g}")

# %% [markdown]
# Every stored value and gradient, collected for the comparisons that follow:

# %%
torch_nodes = {"w": w, "x": x, "m": m, "b": b, "a": a, "y": y, "e": e, "L": L}
torch_reference = {
    name: (node.item(), node.grad.item()) for name, node in torch_nodes.items()
}

print(f"{'node':<5} {'value':>8} {'grad':>8}")
for name, (value, grad) in torch_reference.items():
    print(f"{name:<5} {value:8.1f} {grad:8.1f}")

# %% [markdown]
# glassgrad builds the same four operations (`glassgrad.examples.linear_loss`), runs its own backward
# pass and must reproduce that table. `compare` raises, naming every node that disagrees:

# %%
engine_nodes = linear_loss()
backward(engine_nodes["L"])
compare(engine_nodes, torch_reference)
assert torch_reference == torch_linear_loss()  # the library's PyTorch reference too

count = len(torch_reference)
print(f"✓ {count} values and {count} gradients agree with PyTorch")

# %% [markdown]
# A glassgrad `Value` shows itself compactly in Jupyter, with its label, number and gradient:

# %%
engine_nodes["w"]

# %% [markdown]
# ## 2 · A tiny autograd engine from scratch
#
# ### Parents, outputs and what one operation stores
#
# Take one operation that reads a value $u$ and produces $v=f(u)$. Building $v$ makes $u$ a
# **parent** (an operand) of $v$, and $v$ the **output** made from $u$. The words describe one
# operation of the graph, not a layer of a network. The rule to remember: follow `v.parents`. Each
# entry is a `ParentLink` pointing back to one direct operand, together with the local derivative
# along that edge, evaluated during the forward pass.
#
# The figure shows the link from $m=w\times x$ back to $w$, with this graph's numbers after backward:

# %%
preview = linear_loss()
backward(preview["L"])
show_parent_link(preview["m"], 0)

# %% [markdown]
# Only the output holds links; a parent keeps no list of the values made from it. Backward never
# needs one: it starts at the loss and only ever asks an output where its operands are. Reading the
# link above: `m.grad` is the upstream gradient, the link's `.local_grad` is $\partial m/\partial w=x$,
# and their product is the edge contribution added to `w.grad`.

# %%
upstream = preview["m"].grad
for k, link in enumerate(preview["m"].parents):
    parent = link.value
    contribution = upstream * link.local_grad
    print(f"m.parents[{k}]: .value is {parent.label}, .local_grad = {link.local_grad:g}")
    print(f"  upstream {upstream:g} × local {link.local_grad:g} = {contribution:g}"
          f" → {parent.label}.grad = {parent.grad:g}")
    assert parent.grad == contribution  # m is the only use of w and of x

# %% [markdown]
# For the calculus, a `Value` needs its number (`data`), its gradient buffer (`grad`, where
# contributions add up) and its links (`parents`). The `label` and `op` fields exist for the figures:
# renaming every node changes no number.

# %%
renamed = linear_loss()
for name, node in renamed.items():
    node.label = "renamed " + name
backward(renamed["L"])
assert [node.grad for node in renamed.values()] == [node.grad for node in preview.values()]
print("same gradients after renaming:", [node.grad for node in renamed.values()])

# %% [markdown]
# Three gradient words, always relative to the operation being processed (from output $v$ back to
# parent $u$), each with its colour in every figure and trace:
#
# - **upstream** $g_v=\partial L/\partial v$, already accumulated in `v.grad`;
# - **local** $\partial v/\partial u$, stored in the link from $v$ to $u$;
# - **edge contribution** $\Delta g_u=g_v\,\partial v/\partial u$, computed during backward and added to `u.grad`;
# - **gradient**, what a `.grad` holds once backward has finished.

# %%
legend()

# %% [markdown]
# ### When is a node ready?
#
# A node may pass its gradient on only after every contribution it will ever receive has been added
# to its `.grad`. Backward therefore needs a **dependency-safe order**: start at $L$, follow the saved
# links towards the inputs, and append a node only once all its parents are in the list. Reversed,
# that list puts every node after all the outputs that use it. (Any such order is a *topological
# order*.) The figure also shows an order that breaks the rule: $m$ would send its gradient before
# $a$ has given it its share.

# %%
order_nodes = linear_loss()
wrong_order = [order_nodes[name] for name in "L e y m a b x w".split()]
show_dependency_order(order_nodes["L"], wrong_order=wrong_order)

# %% [markdown]
# The rule on the small piece $m=wx$, replayed from the events of `trace_dependency_safe_order`:

# %%
show_order_walk(order_nodes["m"])

# %%
order = dependency_safe_order(order_nodes["L"])
print("dependency-first:  ", ", ".join(node.label for node in order))
print("backward processes:", ", ".join(node.label for node in reversed(order)))

# %% [markdown]
# The walk removes duplicate **Value objects**, not duplicate edges. `w * w` stores two links to the
# same `w`; `w` is scheduled once, and backward still processes both links:

# %%
w_shared = Value(LINEAR_INPUTS["w"], label="w")
r = multiply(w_shared, w_shared, "r")  # one object, used as both operands

print("links saved by r:", len(r.parents))
print("nodes in the schedule:", [node.label for node in dependency_safe_order(r)])
square_steps = backward(r)
contributions = [step.contribution for step in square_steps]
print("contributions:", contributions, "→ w.grad =", w_shared.grad)
assert w_shared.grad == 2 * w_shared.data  # the derivative of w² is 2w

# %% [markdown]
# ### The engine
#
# glassgrad's own code, read from the installed package while this notebook runs. First the data
# model and the four operations of the example: each computes its number and hands `_node` the
# operands with their local derivatives, evaluated right away. `_node` keeps the first link in two fields
# and a second one as a pair (two objects per multiplication for Python's cycle collector instead of
# four); reading `.parents` builds the
# `ParentLink`s once, and from then on they are the links `backward` follows.

# %%
for piece in (ParentLink, Value.__init__, glassgrad.value._node, Value.parents.fget, multiply, add, subtract, square):
    print(inspect.getsource(piece))

# %% [markdown]
# Finding a safe order and doing the calculus are separate. The order comes from one depth-first walk
# (an explicit stack, so a long chain needs no recursion limit; a value `seen` but not yet `appended`
# means a cycle); `backward` clears every reachable
# `.grad`, seeds `root.grad = 1` because $\partial L/\partial L=1$, then visits the order reversed and,
# at each saved link, adds upstream × local to the parent's `.grad`. The `record` branch does the same
# arithmetic and also logs each step.

# %%
print(inspect.getsource(glassgrad.autograd._walk))
print(inspect.getsource(backward))

# %% [markdown]
# ### Three deliberate boundaries
#
# **The graph must be acyclic.** Operations only link to values that already exist, so a cycle needs
# hand-editing; the walk detects it instead of looping forever:

# %%
p = Value(1.0, label="p")
q = multiply(p, 2.0, "q")
p.parents = (ParentLink(q, 1.0),)  # p now depends on q, which depends on p
try:
    backward(q)
except CycleError as error:
    print("CycleError:", error)
else:
    raise AssertionError("a cycle went unnoticed")

# %% [markdown]
# **The loss is a scalar, seeded with 1.** A vector output has no single seed; PyTorch asks for an
# explicit upstream gradient instead of inventing one:

# %%
v = torch.tensor([1.0, 2.0], requires_grad=True)
out = v * 3.0
try:
    out.backward()
except RuntimeError as error:
    print("PyTorch:", error)
out.backward(torch.tensor([1.0, 1.0]))  # an explicit upstream seed
print("with seed [1, 1]: v.grad =", v.grad.tolist())

# %% [markdown]
# **Gradients are cleared, not accumulated.** Each `backward` call clears the reachable buffers first.
# PyTorch adds into `.grad` across calls until you zero it; `accumulate=True` does the same here:

# %%
twice = linear_loss()
backward(twice["L"])
backward(twice["L"])
print("glassgrad, twice:           w.grad =", twice["w"].grad)
backward(twice["L"], accumulate=True)
print("glassgrad, accumulate=True: w.grad =", twice["w"].grad)

tw = torch.tensor(LINEAR_INPUTS["w"], requires_grad=True)
tL = (tw * LINEAR_INPUTS["x"] + LINEAR_INPUTS["b"] - LINEAR_INPUTS["y"]) ** 2
tL.backward(retain_graph=True)
tL.backward()
print("PyTorch, twice:             w.grad =", tw.grad.item())
assert math.isclose(twice["w"].grad, tw.grad.item())

# %% [markdown]
# ### The whole graph, edge by edge
#
# Build chapter 1's graph by hand, one line per operation. Everything after this cell (graphs,
# players, trace, cards) is drawn from these objects and their stored links.

# %%
sw = Value(LINEAR_INPUTS["w"], label="w")
sx = Value(LINEAR_INPUTS["x"], label="x")
sb = Value(LINEAR_INPUTS["b"], label="b")
sy = Value(LINEAR_INPUTS["y"], label="y")

sm = multiply(sw, sx, "m")
sa = add(sm, sb, "a")
se = subtract(sa, sy, "e")
sL = square(se, "L")

print("What m = w x stored during forward:")
for link in sm.parents:
    name = link.value.label
    print(f"  parent {name}: local ∂m/∂{name} = {link.local_grad:g}")

safe_order = dependency_safe_order(sL)
print("\nDependency-first order:", " → ".join(node.label for node in safe_order))
print("Backward will process: ", " → ".join(node.label for node in reversed(safe_order)))

# %% [markdown]
# Before backward every value has its number but no gradient yet ("—"); each edge carries the local
# derivative that the forward pass saved:

# %%
draw_graph(sL, show_grad=False)

# %% [markdown]
# The ordering walk on this graph, one event per step (use the buttons, or focus the player and press
# ← and →):

# %%
animate_order(sL)

# %% [markdown]
# Now the one line that differentiates. Everything after it only displays what it did.

# %%
steps = backward(sL)

# %% [markdown]
# The same call replayed edge by edge: each step lights the link being processed and moves the
# parent's `grad` from its value before the step to its value after.

# %%
animate_backward(sL, steps, trace=False)

# %% [markdown]
# The trace as text, then as cards (one per saved link; pointing at a card lights its edge in the
# graph below it), then the graph after backward with every gradient in teal:

# %%
for number, step in enumerate(steps, start=1):
    out, parent = step.output.label, step.parent.label
    print(f"{number}. {out} → {parent}: {step.upstream:g} × {step.local:g} = {step.contribution:g};"
          f" {parent}.grad {step.before:g} → {step.after:g}")

# %%
after_figure = draw_graph(sL)  # drawn first so that each trace card can name its edge
display(show_backward_steps(steps, graph=after_figure))
after_figure

# %% [markdown]
# Every field of every `Value` and every saved `ParentLink`. The orange edge contribution is not among
# them: it lives only for one update, and in the optional log `steps`.

# %%
show_complete_state(sL)

# %% [markdown]
# Seven saved links, seven steps. In step 1 the square sends its contribution into `e.grad`; in step 2
# that same stored number is the upstream gradient of the subtraction. When several paths lead back to one
# value, each adds into the same buffer and only their sum is the gradient.

# %%
assert len(steps) == sum(len(node.parents) for node in safe_order) == 7
assert steps[0].contribution == steps[1].upstream == se.grad

scratch_nodes = {"w": sw, "x": sx, "m": sm, "b": sb, "a": sa, "y": sy, "e": se, "L": sL}
compare(scratch_nodes, torch_linear_loss())
print(f"✓ all {len(scratch_nodes)} values and gradients match PyTorch")

# %% [markdown]
# ## 3 · One neuron: fused sigmoid or atomic sigmoid?
#
# A slightly larger graph, one neuron with a sigmoid and a squared error:
#
# $$m=wx,\qquad z=m+b,\qquad s=\sigma(z),\qquad e=s-y,\qquad L=e^2,$$
#
# where $\sigma(z)=1/(1+e^{-z})$, with the inputs of `glassgrad.examples.SIGMOID_INPUTS`. The sigmoid
# can enter the graph in two ways:
#
# - **fused**: one autograd operation $s=\sigma(z)$;
# - **atomic**: four operations, $n=-z$, $q=\exp(n)$, $d=1+q$ and $s=1/d$.
#
# "Fused" describes the graph: several local steps are packaged behind one node. The chain rule is not
# skipped. The five operations, from glassgrad's source:

# %%
for piece in (negate, exponential, plus_one, reciprocal, sigmoid):
    print(inspect.getsource(piece))

# %% [markdown]
# The fused operation stores one local derivative, $\partial s/\partial z=s(1-s)$. The atomic graph
# stores four, and along the path from $s$ back to $z$ the chain rule multiplies them:
#
# $$\left(-\frac{1}{d^2}\right)(1)(q)(-1)=\frac{q}{d^2}=s(1-s)\quad\text{since } s=\frac{1}{d},\ q=d-1.$$
#
# The numbers, for this neuron's inputs:

# %%
fused_preview = sigmoid_neuron(fused=True)
atomic_preview = sigmoid_neuron(fused=False)
local_of = {name: atomic_preview[name].parents[0].local_grad for name in ("s", "d", "q", "n")}
s_value = fused_preview["s"].data
fused_local_preview = fused_preview["s"].parents[0].local_grad

print("Inputs:", ", ".join(f"{name} = {value:g}" for name, value in SIGMOID_INPUTS.items()))
print(f"z = {fused_preview['z'].data:g}, s = {s_value:g}, L = {fused_preview['L'].data:g}")
parent_of = {name: atomic_preview[name].parents[0].value.label for name in local_of}
print("atomic locals:", ", ".join(f"∂{name}/∂{parent_of[name]} = {local:g}" for name, local in local_of.items()),
      f"→ product {math.prod(local_of.values()):g}")
print(f"fused local s(1 - s) = {fused_local_preview:g}")
assert math.isclose(math.prod(local_of.values()), s_value * (1 - s_value))
assert math.isclose(s_value * (1 - s_value), fused_local_preview)

# %% [markdown]
# ### Both graphs, both traces
#
# Build both neurons with `glassgrad.examples.sigmoid_neuron` and run backward on each:

# %%
fused = sigmoid_neuron(fused=True)  # s = sigmoid(z): one operation
atomic = sigmoid_neuron(fused=False)  # n = -z, q = exp(n), d = 1 + q, s = 1/d

fused_steps = backward(fused["L"])
atomic_steps = backward(atomic["L"])

print("fused: ", len(fused), "values,", len(fused_steps), "reverse edges")
print("atomic:", len(atomic), "values,", len(atomic_steps), "reverse edges")
assert (len(fused_steps), len(atomic_steps)) == (8, 11)  # the headings below

# %% [markdown]
# In the traces, the cards of the operations that differ between the two graphs are highlighted in
# blue; every other card is the same.
#
# **Fused sigmoid: 8 reverse edges.**

# %%
fused_figure = draw_graph(fused["L"], min_width=1180)
display(fused_figure)
show_backward_steps(fused_steps, highlight_outputs={"s"}, graph=fused_figure)

# %% [markdown]
# **Atomic sigmoid: 11 reverse edges.**

# %%
atomic_figure = draw_graph(atomic["L"], min_width=1700)
display(atomic_figure)
show_backward_steps(atomic_steps, highlight_outputs={"s", "d", "q", "n"}, graph=atomic_figure)

# %% [markdown]
# Only the highlighted cards differ. Fused: one update, $g_z=g_s\,s(1-s)$. Atomic: four updates,
# $s\to d\to q\to n\to z$, ending at the same $g_z$ (up to the last bits of rounding, when $z\neq 0$).
# From $z$ back to the inputs both traces are the same numbers in the same order:

# %%
def same_numbers(fused_part, atomic_part):
    """True if both lists of steps show the same upstream, local, contribution and result, up to rounding."""
    pairs = list(zip(fused_part, atomic_part, strict=True))
    return all(
        math.isclose(getattr(fused_step, field), getattr(atomic_step, field), rel_tol=1e-12, abs_tol=1e-15)
        for fused_step, atomic_step in pairs
        for field in ("upstream", "local", "contribution", "after")
    )


assert same_numbers(fused_steps[:3], atomic_steps[:3])  # L → e, e → s, e → y
assert same_numbers(fused_steps[4:], atomic_steps[7:])  # from z back to the inputs
print(f"g_z, fused: {fused['z'].grad:.12g}   atomic: {atomic['z'].grad:.12g}")

# %% [markdown]
# Step both players to the same number: they agree until the sigmoid, where the atomic graph takes four
# steps for the fused graph's one, and agree again from $z$ onwards.

# %%
side_by_side(
    animate_backward(fused["L"], fused_steps, title="Fused sigmoid",
                     trace=False, min_width=1180),
    animate_backward(atomic["L"], atomic_steps, title="Atomic sigmoid",
                     trace=False, min_width=1700),
)

# %% [markdown]
# The ordering walk on both: the atomic walk also visits the four intermediate values, and its
# backward schedule is longer by exactly those.

# %%
side_by_side(
    animate_order(fused["L"], title="Fused sigmoid: ordering walk", min_width=1180),
    animate_order(atomic["L"], title="Atomic sigmoid: ordering walk", min_width=1700),
)

# %% [markdown]
# ### Checks
#
# Fusion gives a smaller graph (fewer values, fewer reverse edges, fewer gradient buffers) and the
# same mathematics: the fused local derivative is exactly the product of the four atomic ones.

# %%
# 1. Every node the two graphs share has the same value and the same gradient.
shared = [name for name in fused if name in atomic]
for name in shared:
    assert math.isclose(fused[name].data, atomic[name].data), name
    assert math.isclose(fused[name].grad, atomic[name].grad), name


# 2. Backward visited the edges in the expected order.
def edges(steps):
    """(output, parent) labels of each step, in processing order."""
    return [(step.output.label, step.parent.label) for step in steps]


assert edges(fused_steps) == [
    ("L", "e"), ("e", "s"), ("e", "y"), ("s", "z"),
    ("z", "m"), ("z", "b"), ("m", "w"), ("m", "x"),
]
assert edges(atomic_steps) == [
    ("L", "e"), ("e", "s"), ("e", "y"), ("s", "d"),
    ("d", "q"), ("q", "n"), ("n", "z"), ("z", "m"),
    ("z", "b"), ("m", "w"), ("m", "x"),
]

# 3. The fused local derivative is the product of the four atomic ones.
fused_local = next(step.local for step in fused_steps if step.output.label == "s")
atomic_locals = [
    step.local for step in atomic_steps if step.output.label in {"s", "d", "q", "n"}
]
assert math.isclose(math.prod(atomic_locals), fused_local)

print("✓ fused and atomic agree on", len(shared), "shared nodes")
print(f"  sigmoid local: product of {len(atomic_locals)} atomic factors = 1 fused factor = {fused_local:g}")
final = ", ".join(f"{name} = {fused[name].grad:g}" for name in ("w", "x", "b", "y"))
print("  final gradients:", final)

# %% [markdown]
# ## Every node against PyTorch
#
# The same checks as the chapters: every value and every gradient of every graph built in this
# notebook, against PyTorch in float64. `compare` raises `MismatchError`, listing each node that
# disagrees, so a wrong engine stops the notebook here (and fails the site's build).

# %%
checked = {
    "chapter 1, glassgrad.examples": (engine_nodes, torch_linear_loss()),
    "chapter 2, built by hand": (scratch_nodes, torch_linear_loss()),
    "chapter 3, fused sigmoid": (fused, torch_sigmoid_neuron(fused=True)),
    "chapter 3, atomic sigmoid": (atomic, torch_sigmoid_neuron(fused=False)),
}
for graph_name, (nodes, reference) in checked.items():
    compare(nodes, reference)
    print(f"  {graph_name}: {len(nodes)} nodes match")

node_count = sum(len(nodes) for nodes, _ in checked.values())
print(f"✓ Every value and every gradient of all {node_count} nodes matches PyTorch.")

# %% [markdown]
# ## Takeaway
#
# PyTorch and this small engine do the same three things: run the forward operations while storing,
# for each output, its links to its operands with their local derivatives; seed the loss's `.grad`
# with 1; and, in a dependency-safe reverse order, add upstream × local to the parent's `.grad` for
# every saved link. Fusion changes the size of the graph, not the calculus. PyTorch applies the same
# ideas to tensors, layers, accelerators and large models.
