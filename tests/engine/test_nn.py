"""glassgrad.nn and glassgrad.data: shapes, seeding, micrograd compatibility, the fused weighted sum, `train`."""

from __future__ import annotations

import io
import math
import random
import sys

import pytest

from glassgrad import Value, add, backward, gradcheck, multiply
from glassgrad.data import make_moons
from glassgrad.nn import MLP, Layer, Neuron, ProgressBar, train, weighted_sum


def unfused_neuron_output(weights: list[Value], inputs: list[Value | float], bias: Value) -> Value:
    """micrograd's neuron sum ``b + w0·x0 + w1·x1 + ...`` as a chain of separate × and + nodes."""
    total = bias
    for weight, x in zip(weights, inputs):
        total = add(total, multiply(weight, x))
    return total


# --- weighted_sum: the fused node -------------------------------------------------------------


def test_weighted_sum_matches_the_unfused_chain_bit_for_bit() -> None:
    """Same forward number and same gradients as the × and + chain it replaces."""
    rng = random.Random(7)
    data = [rng.uniform(-2, 2) for _ in range(9)]
    fused_w, fused_x = [Value(v) for v in data[:4]], [Value(v) for v in data[4:8]]
    fused_b = Value(data[8])
    chain_w, chain_x = [Value(v) for v in data[:4]], [Value(v) for v in data[4:8]]
    chain_b = Value(data[8])

    fused = weighted_sum(fused_w, fused_x, fused_b).tanh()
    chain = unfused_neuron_output(chain_w, chain_x, chain_b).tanh()
    backward(fused)
    backward(chain)

    assert fused.data == chain.data
    for mine, theirs in zip(fused_w + fused_x + [fused_b], chain_w + chain_x + [chain_b]):
        assert mine.grad == theirs.grad


def test_weighted_sum_passes_gradcheck() -> None:
    """Its saved local derivatives agree with central differences, for every weight, input and the bias."""
    error = gradcheck(lambda w0, w1, x0, x1, b: weighted_sum([w0, w1], [x0, x1], b).tanh(), [0.3, -0.8, 1.5, 0.4, 0.1])
    assert error < 1e-8


def test_weighted_sum_links_plain_numbers_only_to_the_weight() -> None:
    """A float input is data: the weight gets the link (local = the number), the float gets none."""
    w = [Value(2.0, "w0"), Value(-1.0, "w1")]
    x1 = Value(4.0, "x1")
    z = weighted_sum(w, [3.0, x1], Value(0.5, "b"))
    assert [(link.value.label, link.local_grad) for link in z.parents] == [
        ("w0", 3.0),
        ("w1", 4.0),
        ("x1", -1.0),
        ("b", 1.0),
    ]
    assert z.data == 0.5 + 2.0 * 3.0 + (-1.0) * 4.0
    assert z.op == "Σ"


def test_weighted_sum_refuses_mismatched_lengths_and_non_numbers() -> None:
    """A length mismatch is a ValueError; a string input is the engine's TypeError."""
    with pytest.raises(ValueError, match="2 weights but 1 inputs"):
        weighted_sum([Value(1.0), Value(2.0)], [1.0], Value(0.0))
    with pytest.raises(TypeError, match="weighted_sum input"):
        weighted_sum([Value(1.0)], ["3"], Value(0.0))  # type: ignore[list-item]
    with pytest.raises(TypeError, match="weights and bias must be Values, got float 2.0"):
        weighted_sum([Value(1.0), 2.0], [1.0, 1.0], Value(0.0))  # type: ignore[list-item]
    with pytest.raises(TypeError, match="got int 0"):
        weighted_sum([Value(1.0)], [1.0], 0)  # type: ignore[arg-type]


def test_weighted_sum_links_are_built_once_and_then_are_the_truth() -> None:
    """Read twice, `parents` is the same tuple; a link changed by hand changes what backward pushes."""
    w, x, b = Value(2.0, "w"), Value(3.0, "x"), Value(1.0, "b")
    z = weighted_sum([w], [x], b)
    assert z.parents is z.parents
    z.parents[0].local_grad = 10.0
    backward(z)
    assert (w.grad, x.grad, b.grad) == (10.0, 2.0, 1.0)
    with pytest.raises(TypeError, match="ParentLink.local_grad"):
        z.parents[1].local_grad = "2"  # type: ignore[assignment]


# --- Neuron, Layer, MLP -------------------------------------------------------------------------


@pytest.mark.parametrize("nin, nouts", [(2, [8, 8, 1]), (3, [4, 4, 4, 2]), (1, [1])])
def test_mlp_parameter_count_and_output_shape(nin: int, nouts: list[int]) -> None:
    """One weight per input plus a bias per neuron; a list of outputs, or one Value for one output."""
    model = MLP(nin, nouts, rng=3)
    sizes = [nin, *nouts]
    expected = sum((fan_in + 1) * fan_out for fan_in, fan_out in zip(sizes, sizes[1:]))
    assert len(model.parameters()) == expected
    assert len({id(p) for p in model.parameters()}) == expected  # no parameter is listed twice
    out = model([0.5] * nin)
    if nouts[-1] == 1:
        assert isinstance(out, Value)
    else:
        assert isinstance(out, list) and len(out) == nouts[-1]


@pytest.mark.parametrize("nouts", [[16, 16, 1], [3, 2]])
def test_evaluate_is_the_forward_number_bit_for_bit_without_a_graph(nouts: list[int]) -> None:
    """`evaluate` gives what calling the model gives, to the last bit, on random inputs and on ReLU's edge cases."""
    model = MLP(2, nouts, rng=5)
    rng = random.Random(0)
    inputs = [[rng.uniform(-3, 3), rng.uniform(-3, 3)] for _ in range(200)] + [[0.0, 0.0], [-0.0, 1e-300], [1, 2]]
    for x in inputs:
        called = model(x)
        expected = called.data if isinstance(called, Value) else [v.data for v in called]
        assert repr(model.evaluate(x)) == repr(expected)  # repr: -0.0 and nan compare as their bits
    neuron = Neuron(2, rng=1)
    neuron.b.data = math.nan
    assert math.isnan(neuron.evaluate([1.0, 2.0])) and math.isnan(neuron([1.0, 2.0]).data)
    with pytest.raises(ValueError, match="2 weights but 3 inputs"):
        model.evaluate([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="evaluate input"):
        model.evaluate([Value(1.0), 2.0])  # type: ignore[list-item]


def test_hidden_layers_use_relu_and_the_last_layer_is_linear() -> None:
    """micrograd's convention: every layer but the last has ReLU neurons."""
    model = MLP(2, [3, 3, 2], rng=0)
    assert [[n.nonlin for n in layer.neurons] for layer in model.layers] == [[True] * 3, [True] * 3, [False] * 2]
    hidden = model.layers[0]([1.0, -2.0])
    assert all(h.data >= 0.0 for h in hidden)


def test_neuron_computes_relu_of_weighted_sum() -> None:
    """The neuron's number is max(0, b + Σ wᵢxᵢ), and a linear neuron skips the max."""
    x = [0.7, -1.3, 2.0]
    for nonlin in (True, False):
        neuron = Neuron(3, nonlin, rng=11)
        neuron.b.data = 0.25
        z = 0.25 + sum(w.data * xi for w, xi in zip(neuron.w, x))
        assert neuron(x).data == pytest.approx(max(0.0, z) if nonlin else z, rel=1e-15)


def test_same_seed_same_model_and_a_shared_rng_continues() -> None:
    """An int seed reproduces the model; two models from one Random get different weights."""
    first = [p.data for p in MLP(2, [4, 1], rng=5).parameters()]
    again = [p.data for p in MLP(2, [4, 1], rng=5).parameters()]
    other = [p.data for p in MLP(2, [4, 1], rng=6).parameters()]
    assert first == again
    assert first != other
    shared = random.Random(5)
    assert [p.data for p in MLP(2, [4, 1], rng=shared).parameters()] == first
    assert [p.data for p in MLP(2, [4, 1], rng=shared).parameters()] != first


def test_initial_weights_are_uniform_in_minus_one_one_and_biases_zero() -> None:
    """micrograd's initialisation: w ~ U(-1, 1), b = 0."""
    model = MLP(4, [16, 16, 1], rng=2)
    for layer in model.layers:
        for neuron in layer.neurons:
            assert all(-1.0 <= w.data <= 1.0 for w in neuron.w)
            assert neuron.b.data == 0.0


def test_labels_name_each_parameter() -> None:
    """Parameters carry readable, unique labels (layer, neuron, weight index)."""
    model = MLP(2, [2, 1], rng=0)
    labels = [p.label for p in model.parameters()]
    assert labels[:3] == ["L1.n0.w0", "L1.n0.w1", "L1.n0.b"]
    assert labels[-1] == "L2.n0.b"
    assert len(set(labels)) == len(labels)


def test_bad_arguments_are_refused() -> None:
    """A non-integer seed and an MLP without layers fail loudly."""
    with pytest.raises(TypeError, match="rng must be"):
        Neuron(2, rng="seed")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rng must be"):
        Layer(2, 2, rng=True)
    with pytest.raises(ValueError, match="at least one layer"):
        MLP(2, [])


def test_zero_grad_clears_accumulated_gradients() -> None:
    """After accumulating two backward calls, zero_grad puts every parameter gradient back to 0."""
    model = MLP(2, [3, 1], rng=1)
    for _ in range(2):
        model([1.0, 2.0]).backward(accumulate=True)
    assert any(p.grad != 0.0 for p in model.parameters())
    model.zero_grad()
    assert all(p.grad == 0.0 for p in model.parameters())


def test_repr_is_micrograds() -> None:
    """Neurons and layers print as in micrograd."""
    assert repr(Neuron(3, rng=0)) == "ReLUNeuron(3)"
    assert repr(Layer(2, 2, nonlin=False, rng=0)) == "Layer of [LinearNeuron(2), LinearNeuron(2)]"


# --- micrograd compatibility --------------------------------------------------------------------


def test_matches_micrograd_weights_outputs_and_gradients() -> None:
    """Random(s) draws micrograd's weights after random.seed(s); outputs are equal, gradients agree."""
    micrograd_nn = pytest.importorskip("micrograd.nn")
    state = random.getstate()
    try:
        random.seed(1337)
        theirs = micrograd_nn.MLP(2, [8, 8, 1])
    finally:
        random.setstate(state)  # leave the global generator as the other tests expect it
    mine = MLP(2, [8, 8, 1], rng=random.Random(1337))
    assert [p.data for p in mine.parameters()] == [p.data for p in theirs.parameters()]

    points, labels = make_moons(12, noise=0.1, seed=4)
    my_loss = sum((1 + -label * mine(point)).relu() for point, label in zip(points, labels))
    their_loss = sum((1 + -label * theirs(list(point))).relu() for point, label in zip(points, labels))
    my_loss.backward()
    their_loss.backward()
    assert my_loss.data == pytest.approx(their_loss.data, rel=1e-14)
    for p, q in zip(mine.parameters(), theirs.parameters()):
        assert p.grad == pytest.approx(q.grad, rel=1e-12, abs=1e-15)


# --- train and the progress bar -------------------------------------------------------------------


def test_train_runs_gradient_descent() -> None:
    """On (w - 3)², each step moves w by lr·2(w - 3), so after many steps w ≈ 3; losses are per step."""
    w = Value(0.0, "w")
    losses = train([w], lambda: (w - 3.0) ** 2, steps=3, learning_rate=0.1, progress=False)
    expected_w = 0.0
    expected_losses = []
    for _ in range(3):
        expected_losses.append((expected_w - 3.0) ** 2)
        expected_w -= 0.1 * 2.0 * (expected_w - 3.0)
    assert losses == pytest.approx(expected_losses, rel=1e-15)
    assert w.data == pytest.approx(expected_w, rel=1e-15)


def test_train_calls_a_learning_rate_schedule_with_the_step_index() -> None:
    """A callable learning rate is asked once per step, with steps 0, 1, 2, ..."""
    asked: list[int] = []
    w = Value(1.0)

    def schedule(step: int) -> float:
        asked.append(step)
        return 0.0

    train([w], lambda: w * w, steps=4, learning_rate=schedule, progress=False)
    assert asked == [0, 1, 2, 3]
    assert w.data == 1.0  # rate 0: nothing moves


def test_train_reports_progress_to_a_callback() -> None:
    """The callback sees (step from 1, steps, loss) with the same losses train returns."""
    seen: list[tuple[int, int, float]] = []
    w = Value(2.0)
    losses = train([w], lambda: w * w, steps=3, learning_rate=0.1, progress=lambda *args: seen.append(args))
    assert seen == [(1, 3, losses[0]), (2, 3, losses[1]), (3, 3, losses[2])]


def test_train_is_quiet_by_default_when_not_interactive(capsys: pytest.CaptureFixture[str]) -> None:
    """Under pytest (not a terminal, not a notebook) the default shows no bar; True forces it to stderr."""
    w = Value(2.0)
    train([w], lambda: w * w, steps=2, learning_rate=0.1)
    assert capsys.readouterr() == ("", "")
    losses = train([w], lambda: w * w, steps=2, learning_rate=0.1, progress=True)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.endswith(f"] 2/2  loss {losses[-1]:.4g}\n")


def test_train_refuses_a_loss_that_is_not_a_value() -> None:
    """A loss function returning a float cannot be differentiated."""
    with pytest.raises(TypeError, match="must return a Value"):
        train([], lambda: 1.0, steps=1, learning_rate=0.1, progress=False)  # type: ignore[arg-type,return-value]


def test_progress_bar_fills_and_ends_the_line() -> None:
    """Each call redraws one line (carriage return); the last step ends it with a newline."""
    out = io.StringIO()
    bar = ProgressBar(out, width=4)
    for step in (1, 2, 3, 4):
        bar(step, 4, 1.0 / step)
    frames = out.getvalue().split("\r")[1:]
    assert frames == [
        "[#---] 1/4  loss 1",
        "[##--] 2/4  loss 0.5",
        "[###-] 3/4  loss 0.3333",
        "[####] 4/4  loss 0.25\n",
    ]


# --- make_moons -----------------------------------------------------------------------------------


def test_moons_are_reproducible_and_seeded_privately() -> None:
    """Same seed, same data; another seed, other noise; the global generator is untouched."""
    state = random.getstate()
    first = make_moons(50, noise=0.2, seed=1)
    assert random.getstate() == state
    assert make_moons(50, noise=0.2, seed=1) == first
    assert make_moons(50, noise=0.2, seed=2) != first


def test_noiseless_moons_lie_on_their_half_circles() -> None:
    """Without noise, label -1 points are on the unit upper half circle, +1 on the shifted lower one."""
    points, labels = make_moons(41, noise=0.0, seed=0)
    assert labels.count(-1) == 20 and labels.count(1) == 21
    for (x1, x2), label in zip(points, labels):
        if label == -1:
            assert math.hypot(x1, x2) == pytest.approx(1.0, abs=1e-12) and x2 >= -1e-12
        else:
            assert math.hypot(x1 - 1.0, x2 - 0.5) == pytest.approx(1.0, abs=1e-12) and x2 <= 0.5 + 1e-12


def test_moons_noise_has_the_requested_spread() -> None:
    """Offsets from the noiseless points (same seed, so same shuffle) have standard deviation ≈ `noise`."""
    clean, clean_labels = make_moons(2000, noise=0.0, seed=3)
    noisy, noisy_labels = make_moons(2000, noise=0.1, seed=3)
    assert noisy_labels == clean_labels  # the generator draws the same numbers whatever the noise
    offsets = [n - c for noisy_point, clean_point in zip(noisy, clean) for n, c in zip(noisy_point, clean_point)]
    spread = math.sqrt(sum(o * o for o in offsets) / len(offsets))
    assert spread == pytest.approx(0.1, abs=0.005)


def test_moons_refuse_bad_arguments() -> None:
    """Fewer than two points or a negative noise is an error."""
    with pytest.raises(ValueError, match="at least 2"):
        make_moons(1)
    with pytest.raises(ValueError, match="cannot be negative"):
        make_moons(10, noise=-0.1)


def test_in_a_jupyter_kernel_train_shows_its_bar_by_default(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In a notebook (an IPython kernel shell) the default shows the bar; a plain IPython import does not."""
    import types

    class ZMQInteractiveShell:  # the class name Jupyter's kernel shell has
        pass

    fake = types.ModuleType("IPython")
    fake.get_ipython = lambda: None  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "IPython", fake)
    w = Value(2.0)
    train([w], lambda: w * w, steps=2, learning_rate=0.1)
    assert capsys.readouterr().err == ""
    fake.get_ipython = lambda: ZMQInteractiveShell()  # type: ignore[attr-defined]
    losses = train([w], lambda: w * w, steps=2, learning_rate=0.1)
    assert capsys.readouterr().err.endswith(f"] 2/2  loss {losses[-1]:.4g}\n")
