"""Neural-network building blocks on `Value`s: `Neuron`, `Layer`, `MLP`, and a gradient-descent loop.

The shapes and call conventions are micrograd's, so code written for ``micrograd.nn`` runs
unchanged: ``MLP(nin, [h1, ..., nout])`` has ReLU hidden layers and a linear last layer, and
weights start uniform in [-1, 1] with biases at 0. Two differences, both for reproducibility
and speed, neither changes a number:

- weights come from Python's global `random`, as micrograd's do (so ``random.seed(s)`` then
  ``MLP(...)`` gives micrograd's weights), unless a constructor gets ``rng``: a `random.Random`
  or an int seed, for a model that is the same whatever else drew random numbers;
- a neuron's ``w·x + b`` is one fused node (`weighted_sum`) instead of a chain of × and +
  nodes: the same forward number and the same gradients, with far fewer nodes to walk.

Examples:
    >>> model = MLP(2, [4, 4, 1], rng=0)
    >>> len(model.parameters())
    37
    >>> score = model([0.5, -1.0])
    >>> score.backward()
    >>> all(p.grad == p.grad for p in model.parameters())  # no nan anywhere
    True
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence

from glassgrad.ops import relu, sigmoid, tanh
from glassgrad.training import ProgressBar, ProgressCallback, train
from glassgrad.value import Value, _fused, as_float

__all__ = [
    "ACTIVATIONS",
    "MLP",
    "Layer",
    "Module",
    "Neuron",
    "ProgressBar",
    "ProgressCallback",
    "RandomSource",
    "softmax_cross_entropy",
    "train",
    "weighted_sum",
]

RandomSource = random.Random | int
"""Where initial weights come from: a `random.Random` (drawn from in order) or an int seed."""


def _as_rng(rng: RandomSource | None) -> random.Random:
    """A `random.Random` from an int seed; a given generator is used as is (so draws continue);
    None is Python's global generator (the one `random.seed` seeds)."""
    if rng is None or rng is random:
        return random  # type: ignore[return-value]  # the module's functions draw from its hidden instance
    if isinstance(rng, random.Random):
        return rng
    if isinstance(rng, int) and not isinstance(rng, bool):
        return random.Random(rng)
    raise TypeError(f"rng must be a random.Random or an int seed, got {type(rng).__name__} {rng!r:.60}")


def weighted_sum(weights: Sequence[Value], inputs: Sequence[Value | float], bias: Value, label: str = "") -> Value:
    """``bias + w₀x₀ + w₁x₁ + ...`` as one fused node; local derivatives ∂/∂wᵢ = xᵢ, ∂/∂xᵢ = wᵢ, ∂/∂b = 1.

    The sum is taken in micrograd's order (bias first, then each product), so the forward
    number equals the unfused chain of `multiply` and `add` nodes bit for bit. A plain-number
    input gets no link: it is data, not something to differentiate.

    Args:
        weights: one `Value` per input.
        inputs: `Value`s or plain numbers, as many as `weights`.
        bias: the `Value` added to the products.
        label: display name of the result.

    Returns:
        The new `Value` (op ``"Σ"``), with one `ParentLink` per weight, per `Value` input, and the bias.

    Raises:
        ValueError: if `weights` and `inputs` have different lengths.
        TypeError: if an input is neither a `Value` nor a real number, or a weight or the bias is not a `Value`.

    Examples:
        >>> w = [Value(2.0, "w0"), Value(-1.0, "w1")]
        >>> z = weighted_sum(w, [3.0, 4.0], Value(0.5, "b"))
        >>> z.data, [(link.value.label, link.local_grad) for link in z.parents]
        (2.5, [('w0', 3.0), ('w1', 4.0), ('b', 1.0)])
    """
    if len(weights) != len(inputs):
        raise ValueError(f"weighted_sum: {len(weights)} weights but {len(inputs)} inputs")
    # The links are saved packed, operands and local derivatives side by side (built when `parents` is read).
    try:
        total = bias._data
        operands: list[Value | None] = []
        local_grads: list[float] = []
        for weight, x in zip(weights, inputs):
            w_data = weight._data
            if type(x) is Value or isinstance(x, Value):
                x_data = x._data
                total += w_data * x_data
                operands += (weight, x)
                local_grads += (x_data, w_data)
            else:
                x_data = x if type(x) is float else as_float(x, "weighted_sum input")
                total += w_data * x_data
                operands.append(weight)
                local_grads.append(x_data)
    except AttributeError:  # a weight or the bias is not a Value
        culprit = next(w for w in (*weights, bias) if not isinstance(w, Value))
        raise TypeError(
            f"weighted_sum: weights and bias must be Values, got {type(culprit).__name__} {culprit!r:.60}"
        ) from None
    operands += (bias, None)  # None closes the operands (see glassgrad.value)
    local_grads.append(1.0)
    return _fused(total, label, "Σ", operands, local_grads)


def _relu(x: float) -> float:
    """`relu(Value(x)).data` on a plain float: 0 below zero, x itself otherwise (-0.0 and nan kept)."""
    return 0.0 if x < 0.0 else x


def _sigmoid(x: float) -> float:
    """`sigmoid(Value(x)).data` on a plain float (the same formula, so the same bits)."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    exp_x = math.exp(x)
    return exp_x / (1.0 + exp_x)


ACTIVATIONS: dict[str, tuple[Callable[[Value, str], Value], Callable[[float], float]]] = {
    "relu": (relu, _relu),
    "tanh": (tanh, math.tanh),
    "sigmoid": (sigmoid, _sigmoid),
}
"""A hidden neuron's activation by name: the op on a `Value`, and the same number on a plain float (for `evaluate`).
``"linear"`` is no activation at all."""


def _activation(name: str) -> tuple[Callable[[Value, str], Value], Callable[[float], float]] | None:
    if name == "linear":
        return None
    if name not in ACTIVATIONS:
        raise ValueError(f"activation must be one of relu, tanh, sigmoid, linear, got {name!r:.60}")
    return ACTIVATIONS[name]


def softmax_cross_entropy(scores: Sequence[Value], label: int, name: str = "") -> Value:
    """``-log softmax(scores)[label]``, the loss of a `label` among ``len(scores)`` classes, as one fused node.

    Computed as ``log Σ exp(sᵢ - m) + m - s_label`` with ``m = max(s)``, so no exponential overflows; the
    local derivative on the link to ``sᵢ`` is ``softmaxᵢ - [i = label]``, as PyTorch's ``cross_entropy`` gives.

    Args:
        scores: one `Value` per class (the network's outputs, not yet normalised).
        label: the right class, from 0.
        name: display name of the result.

    Raises:
        ValueError: if `label` is not the index of one of the scores.

    Examples:
        >>> loss = softmax_cross_entropy([Value(2.0), Value(0.0), Value(-1.0)], 0)
        >>> round(loss.data, 6), [round(link.local_grad, 6) for link in loss.parents]
        (0.169846, [-0.156205, 0.114195, 0.04201])
    """
    if not (isinstance(label, int) and 0 <= label < len(scores)):
        raise ValueError(f"softmax_cross_entropy: label must be a class from 0 to {len(scores) - 1}, got {label!r:.60}")
    data = [score._data for score in scores]
    top = max(data)
    exps = [math.exp(x - top) for x in data]
    total = sum(exps)
    local_grads = [e / total for e in exps]
    local_grads[label] -= 1.0
    loss = math.log(total) + top - data[label]
    return _fused(loss, name, "softmax CE", [*scores, None], local_grads)


class Module:
    """Anything with parameters: gives `zero_grad` to every model built from `Value`s.

    Subclasses override `parameters`.
    """

    def parameters(self) -> list[Value]:
        """Return the trainable `Value`s, in a fixed order (empty for the base class).

        Returns:
            A new list; changing it does not change the model.
        """
        return []

    def evaluate(self, x: Sequence[float]) -> float | list[float]:
        """The model's output for the plain numbers `x`, as plain floats: no `Value` is made, no graph is built.

        Bit for bit ``model(x).data`` (the same additions in the same order), for plotting a model over
        a grid or measuring its accuracy, where nothing is differentiated. The base class has no forward pass.
        """
        raise NotImplementedError(f"{type(self).__name__} defines no forward pass")

    def zero_grad(self) -> None:
        """Set ``.grad`` of every parameter to 0.

        `glassgrad.backward` already clears the gradients it fills; this matters when
        accumulating over several ``backward(accumulate=True)`` calls, as with PyTorch.
        """
        for parameter in self.parameters():
            parameter.grad = 0.0


class Neuron(Module):
    """One unit: ``relu(w·x + b)`` (or another `activation`), or ``w·x + b`` when ``nonlin`` is false.

    Args:
        nin: number of inputs (and of weights).
        nonlin: apply the activation to the weighted sum.
        rng: a `random.Random` to draw the weights from (uniform in [-1, 1]), or an int seed;
            by default Python's global generator.
        name: prefix of the display labels: weights ``{name}w0, {name}w1, ...``, bias ``{name}b``,
            the weighted sum ``{name}z`` and the activation ``{name}h``.
        activation: ``"relu"`` (micrograd's), ``"tanh"``, ``"sigmoid"`` or ``"linear"`` (none).

    Raises:
        TypeError: if `rng` is neither a `random.Random` nor an int.
        ValueError: if `activation` is not one of those.

    Examples:
        >>> neuron = Neuron(2, rng=0)
        >>> [p.label for p in neuron.parameters()]
        ['w0', 'w1', 'b']
        >>> neuron([1.0, 2.0]).data == max(0.0, neuron.w[0].data + 2 * neuron.w[1].data)
        True
    """

    def __init__(
        self,
        nin: int,
        nonlin: bool = True,
        *,
        rng: RandomSource | None = None,
        name: str = "",
        activation: str = "relu",
    ) -> None:
        self._act = _activation(activation) if nonlin else None
        draw = _as_rng(rng)
        self.w = [Value(draw.uniform(-1, 1), f"{name}w{i}") for i in range(nin)]
        self.b = Value(0.0, f"{name}b")
        self.nonlin = nonlin
        self.activation = activation if nonlin else "linear"
        self.name = name
        self._z_label = f"{name}z"
        self._h_label = f"{name}h"

    def __call__(self, x: Sequence[Value | float]) -> Value:
        """Return the neuron's output for the inputs `x` (`Value`s or plain numbers).

        Raises:
            ValueError: if `x` does not have one entry per weight.
        """
        z = weighted_sum(self.w, x, self.b, self._z_label)
        return self._act[0](z, self._h_label) if self._act is not None else z

    def evaluate(self, x: Sequence[float]) -> float:
        """``self(x).data`` computed on plain floats, without building a graph (see [glassgrad.nn.Module.evaluate][]).

        Raises:
            ValueError: if `x` does not have one entry per weight.
        """
        if len(x) != len(self.w):
            raise ValueError(f"weighted_sum: {len(self.w)} weights but {len(x)} inputs")
        total = self.b._data
        for weight, x_i in zip(self.w, x):
            total += weight._data * (x_i if type(x_i) is float else as_float(x_i, "evaluate input"))
        return self._act[1](total) if self._act is not None else total

    def parameters(self) -> list[Value]:
        """Return the weights, then the bias."""
        return [*self.w, self.b]

    def __repr__(self) -> str:
        kind = {"relu": "ReLU", "tanh": "Tanh", "sigmoid": "Sigmoid"}.get(self.activation, "Linear")
        return f"{kind}Neuron({len(self.w)})"


class Layer(Module):
    """`nout` neurons reading the same inputs.

    Args:
        nin: inputs per neuron.
        nout: number of neurons (outputs).
        nonlin: ReLU on every neuron.
        rng: a `random.Random` or an int seed (default: the global generator); the neurons draw
            from it one after the other.
        name: label prefix; neuron ``j`` gets ``{name}n{j}.``.
        activation: each neuron's (see [`Neuron`][glassgrad.nn.Neuron]).

    Raises:
        TypeError: if `rng` is neither a `random.Random` nor an int.

    Examples:
        >>> layer = Layer(3, 2, rng=0)
        >>> len(layer([1.0, 0.0, -1.0])), len(layer.parameters())
        (2, 8)
    """

    def __init__(
        self,
        nin: int,
        nout: int,
        nonlin: bool = True,
        *,
        rng: RandomSource | None = None,
        name: str = "",
        activation: str = "relu",
    ) -> None:
        draw = _as_rng(rng)
        self.neurons = [Neuron(nin, nonlin, rng=draw, name=f"{name}n{j}.", activation=activation) for j in range(nout)]

    def __call__(self, x: Sequence[Value | float]) -> Value | list[Value]:
        """Return each neuron's output for the inputs `x`; a lone `Value` for a one-neuron layer (as micrograd)."""
        out = [neuron(x) for neuron in self.neurons]
        return out[0] if len(out) == 1 else out

    def evaluate(self, x: Sequence[float]) -> float | list[float]:
        """``self(x)``'s numbers on plain floats, without building a graph (see [glassgrad.nn.Module.evaluate][])."""
        out = [neuron.evaluate(x) for neuron in self.neurons]
        return out[0] if len(out) == 1 else out

    def parameters(self) -> list[Value]:
        """Return every neuron's parameters, neuron by neuron."""
        return [p for neuron in self.neurons for p in neuron.parameters()]

    def __repr__(self) -> str:
        return f"Layer of [{', '.join(str(neuron) for neuron in self.neurons)}]"


class MLP(Module):
    """A multi-layer perceptron: ReLU hidden layers (or another `activation`), a linear last layer.

    Args:
        nin: number of inputs.
        nouts: the width of each layer, the last one being the number of outputs.
        rng: a `random.Random` or an int seed (the same seed gives the same model); by default
                Python's global generator, as in micrograd.
        name: label prefix; layer ``i`` (from 1) gets ``{name}L{i}.``.
        activation: the hidden neurons' (see [`Neuron`][glassgrad.nn.Neuron]): ``"relu"``, ``"tanh"``, ``"sigmoid"`` or ``"linear"``.

    Raises:
        TypeError: if `rng` is neither a `random.Random` nor an int, or `nouts` is not a list.
        ValueError: if `nouts` is empty, or `activation` is unknown.

    Examples:
        >>> model = MLP(2, [8, 8, 1], rng=1)
        >>> model
        MLP of [Layer of [ReLUNeuron(2), ...], Layer of [ReLUNeuron(8), ...], Layer of [LinearNeuron(8)]]
        >>> MLP(2, [8, 8, 1], rng=1)([0.1, 0.2]).data == model([0.1, 0.2]).data
        True
    """

    def __init__(
        self,
        nin: int,
        nouts: Sequence[int],
        *,
        rng: RandomSource | None = None,
        name: str = "",
        activation: str = "relu",
    ) -> None:
        if isinstance(nouts, (str, bytes)) or not isinstance(nouts, Iterable):
            raise TypeError(
                f"MLP: nouts must be a list of layer widths such as [16, 1], got {type(nouts).__name__} {nouts!r:.60}"
                + (f"; for one layer of {nouts} write [{nouts}]" if isinstance(nouts, int) else "")
            )
        if not nouts:
            raise ValueError("MLP needs at least one layer width in nouts")
        draw = _as_rng(rng)
        sizes = [nin, *nouts]
        self.layers = [
            Layer(
                sizes[i],
                sizes[i + 1],
                nonlin=i != len(nouts) - 1,
                rng=draw,
                name=f"{name}L{i + 1}.",
                activation=activation,
            )
            for i in range(len(nouts))
        ]

    def __call__(self, x: Sequence[Value | float]) -> Value | list[Value]:
        """Run the inputs `x` through the layers in turn; a single `Value` when the last layer has one neuron."""
        out: Sequence[Value | float] | Value = x
        for layer in self.layers:
            out = layer([out] if isinstance(out, Value) else out)  # a one-neuron hidden layer gave a lone Value
        return out  # type: ignore[return-value]

    def evaluate(self, x: Sequence[float]) -> float | list[float]:
        """``self(x)``'s numbers on plain floats, without building a graph (see [glassgrad.nn.Module.evaluate][]).

        Examples:
            >>> model = MLP(2, [4, 1], rng=0)
            >>> model.evaluate([0.5, -1.0]) == model([0.5, -1.0]).data
            True
        """
        out: Sequence[float] | float = x
        for layer in self.layers:
            out = layer.evaluate([out] if isinstance(out, float) else out)
        return out  # type: ignore[return-value]

    def parameters(self) -> list[Value]:
        """Return every layer's parameters, layer by layer."""
        return [p for layer in self.layers for p in layer.parameters()]

    def __repr__(self) -> str:
        layers = []
        for layer in self.layers:
            neurons = layer.neurons
            shown = str(neurons[0]) + (", ..." if len(neurons) > 1 else "")
            layers.append(f"Layer of [{shown}]")
        return f"MLP of [{', '.join(layers)}]"
