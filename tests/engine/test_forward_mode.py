"""Forward mode (`jvp`, `trace_jvp`) and vector-seeded backward (the VJP), against backward and PyTorch float64."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

import glassgrad as gg  # noqa: E402
from glassgrad import Value, backward, jvp, trace_jvp  # noqa: E402

from strategies import build_glassgrad, build_torch, error_scales, programs, torch_function  # noqa: E402

TOLERANCE = 1e-9
"""Allowed difference, as a fraction of the error scale of the sum compared (see `strategies.error_scales`)."""

tangent = st.floats(-2.0, 2.0, allow_nan=False, allow_subnormal=False)


@st.composite
def programs_with_seeds(draw: st.DrawFn):
    """A random DAG and one tangent per leaf."""
    program = draw(programs())
    return program, draw(st.lists(tangent, min_size=len(program.leaves), max_size=len(program.leaves)))


@given(programs_with_seeds())
def test_jvp_equals_seeded_sum_of_backward_grads_and_torch_func_jvp(drawn) -> None:
    """jvp = Σ seedᵢ·∂root/∂leafᵢ (backward's grads) = torch.func.jvp's tangent, on DAGs with shared subgraphs."""
    program, seeds = drawn
    nodes, root = build_glassgrad(program)
    leaves = nodes[: len(program.leaves)]
    forward = jvp(root, dict(zip(leaves, seeds, strict=True)))

    backward(root)
    _, backward_scale = error_scales(nodes, root)
    scale = sum(abs(seed) * backward_scale[id(leaf)] for leaf, seed in zip(leaves, seeds, strict=True))
    reverse = math.fsum(seed * leaf.grad for leaf, seed in zip(leaves, seeds, strict=True))
    assert abs(forward - reverse) <= TOLERANCE * scale + 1e-300

    primals = tuple(torch.tensor(x, dtype=torch.float64) for x in program.leaves)
    tangents = tuple(torch.tensor(t, dtype=torch.float64) for t in seeds)
    torch_value, torch_tangent = torch.func.jvp(torch_function(program), primals, tangents)
    assert root.data == pytest.approx(torch_value.item(), rel=TOLERANCE, abs=TOLERANCE)
    assert abs(forward - torch_tangent.item()) <= TOLERANCE * scale + 1e-300


@given(programs_with_seeds())
def test_one_pass_gives_every_output_the_tangent_its_own_pass_gives(drawn) -> None:
    """jvp of a list of outputs (every node of the DAG) equals each output's own jvp, exactly: one pass, J times the seeds."""
    program, seeds = drawn
    nodes, _ = build_glassgrad(program)
    seed_map = dict(zip(nodes, seeds, strict=False))
    assert jvp(nodes, seed_map) == [jvp(node, seed_map) for node in nodes]
    steps = trace_jvp(nodes, seed_map)
    assert [steps.tangents[node] for node in nodes] == jvp(nodes, seed_map)


@given(programs_with_seeds())
def test_trace_jvp_logs_one_step_per_link_ending_at_jvp(drawn) -> None:
    """The log has one step per saved link, in dependency-safe order, and its last `after` is jvp exactly."""
    program, seeds = drawn
    nodes, root = build_glassgrad(program)
    seed_map = dict(zip(nodes, seeds, strict=False))
    steps = trace_jvp(root, seed_map)
    order = gg.dependency_safe_order(root)
    assert [(step.output, step.parent) for step in steps] == [
        (node, link.value) for node in order for link in node.parents
    ]
    tangent = {id(leaf): seeds[i] for i, leaf in enumerate(nodes[: len(seeds)])}
    for step in steps:  # each step reads a complete parent tangent and adds into its output's
        assert step.parent_tangent == tangent.get(id(step.parent), 0.0)
        assert step.contribution == step.parent_tangent * step.local
        assert step.after == step.before + step.contribution
        tangent[id(step.output)] = step.after
    assert steps[-1].after == jvp(root, seed_map)
    assert list(steps.tangents) == order and all(steps.tangents[node] == tangent.get(id(node), 0.0) for node in order)


@given(depth=st.integers(1_500, 4_000), factor=st.floats(0.999, 1.001), shift=st.floats(-1.0, 1.0))
def test_deep_chain_beyond_the_recursion_limit_matches_torch(depth, factor, shift) -> None:
    """Chains deeper than Python's recursion limit: y ← tanh(k·y + c) repeated, against torch.func.jvp."""
    x, k, c = Value(0.3, "x"), Value(factor, "k"), Value(shift, "c")
    y = x
    for _ in range(depth):
        y = (k * y + c).tanh()
    seeds = {x: 1.0, k: -0.5, c: 2.0}
    forward = jvp(y, seeds)

    def chain(x_t, k_t, c_t):
        y_t = x_t
        for _ in range(depth):
            y_t = torch.tanh(k_t * y_t + c_t)
        return y_t

    primals = tuple(torch.tensor(leaf.data, dtype=torch.float64) for leaf in seeds)
    tangents = tuple(torch.tensor(t, dtype=torch.float64) for t in seeds.values())
    _, torch_tangent = torch.func.jvp(chain, primals, tangents)
    assert forward == pytest.approx(torch_tangent.item(), rel=1e-9, abs=1e-12)
    backward(y, record=False)
    assert forward == pytest.approx(sum(t * leaf.grad for leaf, t in seeds.items()), rel=1e-9, abs=1e-12)


def test_100_000_deep_chain_needs_no_recursion() -> None:
    """A chain of 100,000 multiplications by a shared k: the closed form, and backward's seeded sum."""
    depth = 100_000
    x, k = Value(1.0, "x"), Value(1.00001, "k")
    y = x
    for _ in range(depth):
        y = y * k
    forward = jvp(y, {x: 2.0, k: 3.0})  # 2·k^n + 3·n·k^(n-1)·x
    assert forward == pytest.approx(2 * k.data**depth + 3 * depth * k.data ** (depth - 1), rel=1e-9)
    backward(y, record=False)
    assert forward == pytest.approx(2 * x.grad + 3 * k.grad, rel=1e-9)  # 100,000 roundings each way
    assert len(trace_jvp(y, {k: 1.0})) == 2 * depth


def test_shared_subgraph_costs_one_step_per_link_not_per_path() -> None:
    """A doubling chain of 40 levels has 2**40 paths from a to the root; jvp sums them in 80 steps."""
    a = Value(1.0, "a")
    node = a
    for _ in range(40):
        node = node + node
    assert jvp(node, {a: 1.0}) == 2.0**40
    assert len(trace_jvp(node, {a: 1.0})) == 80


def test_jvp_stores_nothing_on_the_values() -> None:
    """Forward mode leaves every .grad as it was (a tangent lives only in the pass)."""
    w, x = Value(2.0, "w"), Value(3.0, "x")
    m = w * x
    backward(m)
    assert jvp(m, {w: 1.0, x: 1.0}) == 5.0
    assert (w.grad, x.grad, m.grad) == (3.0, 2.0, 1.0)


def test_unseeded_and_unreachable_leaves_have_tangent_zero() -> None:
    """A leaf missing from seeds moves by 0; a seeded leaf the root does not use changes nothing."""
    w, x, other = Value(2.0, "w"), Value(3.0, "x"), Value(5.0, "other")
    assert jvp(w * x, {}) == 0.0
    assert jvp(w * x, {other: 7.0, x: 1.0}) == 2.0
    assert jvp(w, {w: 4.0}) == 4.0  # a leaf as the root: its own seed


def test_bad_seeds_are_named() -> None:
    """A non-leaf, a key that is not a Value, a tangent that is not a number, seeds that are not a mapping."""
    w, x = Value(2.0, "w"), Value(3.0, "x")
    m = gg.multiply(w, x, "m")
    with pytest.raises(ValueError, match=r"'m' is not a leaf \(it was made by ×\)"):
        jvp(m, {m: 1.0})
    with pytest.raises(TypeError, match="got the key str 'w'"):
        jvp(m, {"w": 1.0})
    with pytest.raises(TypeError, match="the tangent of 'w'.*str '1'"):
        jvp(m, {w: "1"})
    with pytest.raises(TypeError, match=r"seeds must map leaf Values to numbers, such as \{w: 1.0\}; got list"):
        jvp(m, [w])
    with pytest.raises(TypeError, match=r"expected a Value \(or a non-empty list of Values\) as the root, got float"):
        jvp(2.0, {w: 1.0})


@st.composite
def programs_with_outputs(draw: st.DrawFn):
    """A random DAG, some of its nodes as outputs (repeats allowed) and a number per output (the vector v)."""
    program = draw(programs())
    count = len(program.leaves) + len(program.steps)
    outputs = draw(st.lists(st.integers(0, count - 1), min_size=1, max_size=4))
    return program, outputs, draw(st.lists(tangent, min_size=len(outputs), max_size=len(outputs)))


@given(programs_with_outputs())
def test_backward_seeded_with_a_vector_is_torch_autograd_grad_with_grad_outputs(drawn) -> None:
    """backward(outputs, gradient=v) leaves vᵀJ in the leaves' grads: torch.autograd.grad(..., grad_outputs=v)."""
    program, picked, v = drawn
    nodes, _ = build_glassgrad(program)
    leaves = nodes[: len(program.leaves)]
    outputs = [nodes[i] for i in picked]
    backward(outputs, gradient=v)
    ours = [leaf.grad for leaf in leaves]

    scale = [0.0] * len(leaves)
    for output, weight in zip(outputs, v, strict=True):
        _, backward_scale = error_scales(nodes, output)
        for i, leaf in enumerate(leaves):
            scale[i] += abs(weight) * backward_scale.get(id(leaf), 0.0)

    torch_nodes, _ = build_torch(program)
    torch_leaves = torch_nodes[: len(program.leaves)]
    torch_outputs = [torch_nodes[i] for i in picked]
    theirs = torch.autograd.grad(
        torch_outputs,
        torch_leaves,
        grad_outputs=[torch.tensor(weight, dtype=torch.float64) for weight in v],
        allow_unused=True,
        materialize_grads=True,
    )
    for i, (mine, reference) in enumerate(zip(ours, theirs, strict=True)):
        assert abs(mine - reference.item()) <= TOLERANCE * scale[i] + 1e-300, f"v{i}"


def test_vector_seed_with_one_output_inside_another() -> None:
    """Outputs y = w·x and z = y + w: z's gradient flows through y as well as y's own seed."""
    w, x = Value(2.0, "w"), Value(3.0, "x")
    y = w * x
    z = y + w
    backward([z, y], gradient=[10.0, 1.0])
    assert (y.grad, w.grad, x.grad) == (11.0, 11.0 * 3.0 + 10.0, 11.0 * 2.0)
    backward([y, y], gradient=[1.0, 2.0])  # a repeated output is seeded twice, as in PyTorch
    assert (w.grad, x.grad) == (9.0, 6.0)
    backward([y, z], gradient=4.0)  # one number seeds every output
    assert w.grad == 4.0 * 3.0 + 4.0 * 4.0


def test_vector_seed_errors_are_named() -> None:
    """Lengths that differ, a list of gradients for one root, an empty or a non-Value root."""
    w = Value(2.0, "w")
    y = w * w
    with pytest.raises(ValueError, match="2 roots but 1 gradients"):
        backward([y, w], gradient=[1.0])
    with pytest.raises(TypeError, match="one root takes one number"):
        backward(y, gradient=[1.0])
    with pytest.raises(TypeError, match="non-empty list of Values"):
        backward([], gradient=[])
    with pytest.raises(TypeError, match="expected a Value as the root, got float"):
        backward([y, 1.0])
    with pytest.raises(TypeError, match="backward's gradient expects a real number"):
        backward(y, gradient="1")
