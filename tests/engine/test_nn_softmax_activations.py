"""glassgrad.nn's pieces the lab trains with: softmax cross-entropy, the hidden activations and a one-neuron hidden
layer, each against PyTorch in float64 (the lab's input features: tests/site/test_lab.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from glassgrad import Value, backward
from glassgrad.nn import MLP, softmax_cross_entropy

torch = pytest.importorskip("torch")
F = torch.nn.functional

finite = st.floats(-60, 60, allow_nan=False)


@given(scores=st.lists(finite, min_size=2, max_size=6), data=st.data())
def test_softmax_cross_entropy_is_pytorchs_value_and_gradient(scores: list[float], data: st.DataObject) -> None:
    label = data.draw(st.integers(0, len(scores) - 1))
    leaves = [Value(s) for s in scores]
    loss = softmax_cross_entropy(leaves, label)
    backward(loss)
    twin = torch.tensor(scores, dtype=torch.float64, requires_grad=True)
    expected = F.cross_entropy(twin.unsqueeze(0), torch.tensor([label]))
    expected.backward()
    assert loss.data == pytest.approx(expected.item(), rel=1e-12, abs=1e-12)
    assert [leaf.grad for leaf in leaves] == pytest.approx(twin.grad.tolist(), rel=1e-9, abs=1e-15)


def test_softmax_cross_entropy_names_a_wrong_label() -> None:
    with pytest.raises(ValueError, match="label must be a class from 0 to 2, got 3"):
        softmax_cross_entropy([Value(0.0)] * 3, 3)


@given(
    activation=st.sampled_from(["relu", "tanh", "sigmoid", "linear"]),
    x=st.lists(st.floats(-3, 3), min_size=3, max_size=3),
    widths=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    seed=st.integers(0, 1000),
)
def test_an_mlp_with_any_activation_is_pytorchs(activation: str, x: list[float], widths: list[int], seed: int) -> None:
    """Forward number, the input's gradient and every parameter's gradient; `evaluate` is the call's number
    bit for bit. One-neuron hidden layers included (micrograd's layer gives a lone Value there)."""
    model = MLP(3, [*widths, 2], rng=seed, activation=activation)
    inputs = [Value(v) for v in x]
    outputs = model(inputs)
    assert model.evaluate(x) == [out.data for out in outputs]  # type: ignore[union-attr]
    total = outputs[0] * 2.0 + outputs[1]  # type: ignore[index]
    backward(total)

    act = {"relu": torch.relu, "tanh": torch.tanh, "sigmoid": torch.sigmoid, "linear": lambda z: z}[activation]
    out = torch.tensor(x, dtype=torch.float64, requires_grad=True)
    twin_input, params = out, []
    for k, layer in enumerate(model.layers):
        weights = torch.tensor([[w.data for w in n.w] for n in layer.neurons], dtype=torch.float64, requires_grad=True)
        biases = torch.tensor([n.b.data for n in layer.neurons], dtype=torch.float64, requires_grad=True)
        params.append((layer, weights, biases))
        out = weights @ out + biases
        if k < len(model.layers) - 1:
            out = act(out)
    (out[0] * 2.0 + out[1]).backward()
    assert total.data == pytest.approx((out[0] * 2.0 + out[1]).item(), rel=1e-12, abs=1e-12)
    assert [v.grad for v in inputs] == pytest.approx(twin_input.grad.tolist(), rel=1e-9, abs=1e-12)
    for layer, weights, biases in params:
        got = [w.grad for n in layer.neurons for w in n.w]
        assert got == pytest.approx(weights.grad.flatten().tolist(), rel=1e-9, abs=1e-12)
        assert [n.b.grad for n in layer.neurons] == pytest.approx(biases.grad.tolist(), rel=1e-9, abs=1e-12)


def test_an_unknown_activation_is_named() -> None:
    with pytest.raises(ValueError, match="activation must be one of relu, tanh, sigmoid, linear, got 'gelu'"):
        MLP(2, [3, 1], activation="gelu")
