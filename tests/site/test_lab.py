"""The training lab's Python (glassgrad_site.lab): its steps, its script, Inspect and gradcheck, natively."""

from __future__ import annotations

import math
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from glassgrad import Value, backward, dependency_safe_order
from glassgrad_site.lab import page as lab
from glassgrad_site.lab.graph import collapse, neuron_view
from glassgrad_site.lab.model import Lab, features_of
from glassgrad_site.lab.settings import DEFAULTS, FEATURES

from strategies import build_glassgrad, build_torch, error_scales, programs


def script_losses(source: str) -> list[float]:
    """Run a downloaded script in a fresh Python; the losses it prints, in step order."""
    run = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, timeout=120, check=True)
    lines = run.stdout.splitlines()
    assert [line.split()[:2] for line in lines] == [["step", str(k)] for k in range(1, len(lines) + 1)]
    return [float(line.split()[3]) for line in lines]


@pytest.mark.parametrize(
    "settings",
    [
        {"size": 40},
        {
            "data": "spiral",
            "size": 60,
            "loss": "cross-entropy",
            "layers": [6, 5],
            "batch": 7,
            "decay": 0.05,
            "added": [[0.5, -0.25, 1], [1.5, 1.0, -1]],
            "removed": [0, 4],
            "features": ["x1", "x2", "sin x1", "x1x2"],
            "activation": "tanh",
        },
        {"data": "xor", "size": 20, "loss": "mse", "reg": "l1", "reg_rate": 0.01, "rate": 0.05, "layers": [4]},
        {"data": "blobs", "size": 30, "layers": [5], "activation": "sigmoid", "added": [[0.1, 0.2, 2]]},
        {"data": "wave", "size": 30, "layers": [6], "activation": "linear", "reg": "none", "rate": 0.1},
    ],
)
def test_the_downloaded_script_prints_the_labs_losses_bit_for_bit(settings: dict) -> None:
    """Every step's loss, as the page got it from `step`, is the script's to the last bit (repr round-trips floats)."""
    started = lab.start(settings)
    assert started["step"] == 0 and started["loss"] is None
    losses = [lab.step()["loss"] for _ in range(12)]
    assert script_losses(lab.script("http://127.0.0.1:8000/lab/")) == losses


def test_edits_to_the_data_and_settings_are_applied_and_cleaned() -> None:
    """Added points join the training set with their labels, removed ones leave it; junk falls back to defaults."""
    plain = lab.start({"size": 20})
    edited = lab.start({"size": 20, "added": [[0.5, 0.5, -1], ["x", 1, 1], [0, 0, 7]], "removed": [2, 99, -1]})
    assert len(edited["points"]) == 10 - 1 + 1 and edited["points"][-1] == [0.5, 0.5] and edited["labels"][-1] == -1
    assert plain["points"][2] not in edited["points"] and edited["origins"][-1] == -1
    assert len(edited["messages"]) == 3  # the two unreadable added points, the removals out of the set
    junk = lab.start({"data": "<b>", "loss": None, "size": "many", "rate": float("nan"), "layers": "8", "batch": -5})
    assert junk["settings"] | {"batch": 100} == DEFAULTS
    assert junk["settings"]["batch"] == 1
    said = " ".join(junk["messages"])
    for culprit in ("'<b>'", "None", "'many'", "Learning rate", "'8'", "Batch -5"):
        assert culprit in said, (culprit, said)


def test_the_default_run_learns_the_moons() -> None:
    lab.start({})
    first = lab.step()
    for _ in range(40):
        last = lab.step()
    assert last["loss"] < first["loss"] / 3 and last["train_accuracy"] >= 0.85 and last["test_accuracy"] >= 0.85


def test_state_holds_weights_gradients_and_updates_in_parameter_order() -> None:
    """The page's table and its heat map read these: the update is what the step added to each number."""
    before = lab.start({"size": 40, "layers": [3]})
    after = lab.step()
    assert len(after["weights"]) == len(before["names"]) == (2 + 1) * 3 + 3 + 1
    for old, new, update in zip(before["weights"], after["weights"], after["updates"]):
        assert new == old + update or new - old == pytest.approx(update, abs=1e-15)
    assert after["updates"] == [-(0.5 * g) for g in after["grads"]]
    assert 0.0 <= after["test_accuracy"] <= 1.0 and after["train_loss"] > 0


def test_inspect_draws_once_then_sends_numbers_for_the_same_figure() -> None:
    """The first Inspect draws the example's graph; later ones (other examples, later steps) send only numbers."""
    lab.start({"size": 24, "layers": [3], "loss": "mse"})
    lab._figures.clear()
    first = lab.inspect(2)
    assert first["html"] and 'id="lab-graph"' in first["html"] and 'data-gg-graph="lab-graph"' in first["player"]
    assert first["loss"] == lab._current().example(2).data
    shown = {first["numbers"][f"lab-graph-node-{i}-data"] for i in range(first["values"])}
    assert {f"{x:g}" for x in first["point"]} <= shown  # the example's inputs x1 and x2 are in the graph
    lab.step()
    later = lab.inspect(5)
    assert later["html"] is None and set(later["numbers"]) == set(first["numbers"])
    assert lab.inspect(5, draw=True)["html"] == first["html"]  # the page may ask for it again: the same layout
    assert later["numbers"] != first["numbers"]
    assert all(f'id="{key}"' in first["html"] for key in first["numbers"] if "-edge-" in key or key.endswith("-grad"))
    with pytest.raises(IndexError, match="no training point 12"):
        lab.inspect(12)
    lab.start({"size": 24, "layers": [3], "loss": "hinge"})  # another shape of graph: laid out again
    assert lab.prepare()["seconds"] > 0 and lab.inspect(0)["html"] is None
    assert lab.inspect(0, draw=True)["html"] != first["html"]


def test_gradcheck_agrees_on_an_example_and_rebuilds_the_same_loss() -> None:
    lab.start({"size": 24, "layers": [4, 3], "loss": "cross-entropy"})
    lab.step()
    result = lab.gradcheck(7)
    assert result["passed"] and result["checked"] == (2 + 1) * 4 + (4 + 1) * 3 + (3 + 1) + 2
    lab.start({"size": 24, "data": "blobs", "layers": [3], "activation": "tanh", "features": ["x1", "x2", "sin x1"]})
    lab.step()
    result = lab.gradcheck(5)
    assert result["passed"] and result["checked"] == (3 + 1) * 3 + (3 + 1) * 3 + 3


def test_scores_are_the_engine_graphs_numbers() -> None:
    lab.start({"size": 24})
    model = lab._current().model
    grid = [[-1.5, -1.0], [0.0, 0.0], [2.0, 1.25]]
    assert lab.scores(grid) == [model([Value(a), Value(b)]).data for a, b in grid]  # type: ignore[union-attr]


def test_inspect_draws_with_the_graphviz_the_worker_was_given(monkeypatch: pytest.MonkeyPatch) -> None:
    """In the browser there is no `dot` program: the lab's figure goes through the renderer `worker.start` received."""
    from glassgrad.viz.graph import dot_svg
    from glassgrad_runtime import worker

    sources: list[str] = []
    monkeypatch.setattr(worker, "_renderer", lambda source: sources.append(source) or dot_svg(source))
    lab.start({"size": 16, "layers": [2], "loss": "mse"})
    lab._figures.clear()
    assert lab.inspect(1)["html"] and len(sources) == 1


# --- Inspect's node-per-neuron view (`collapse`) ----------------------------------------------------------


@settings(max_examples=40)
@given(program=programs(), picks=st.lists(st.booleans(), min_size=12, max_size=12))
def test_a_collapsed_graph_gives_its_kept_values_pytorchs_gradients(program, picks: list[bool]) -> None:
    """Hide any interior values: backward on the copy gives every kept value (all the leaves, the root and the
    interior values not hidden) the gradient PyTorch gives it on the whole graph."""
    pytest.importorskip("torch")
    nodes, root = build_glassgrad(program)
    interior = nodes[len(program.leaves) :]
    hidden = [node for node, hide in zip(interior, picks) if hide and node is not root]
    copy = collapse(root, hidden)
    backward(copy)
    torch_nodes, torch_root = build_torch(program)
    torch_root.backward()
    _, scale = error_scales(nodes, root)
    kept = {node.label: node for node in dependency_safe_order(copy)}
    gone = {id(node) for node in hidden}
    for node, twin in zip(nodes, torch_nodes):
        if id(node) in gone:
            assert node.label not in kept
            continue
        assert kept[node.label].data == node.data
        expected = twin.grad.item() if twin.grad is not None else 0.0
        assert abs(kept[node.label].grad - expected) <= 1e-9 * scale[id(node)] + 1e-300


def test_the_neuron_view_folds_each_neuron_into_one_node_with_pytorchs_gradients() -> None:
    """Default lab, one example: x1, x2, 16 neurons, the score and the hinge's 5 nodes; the link from an input into
    a neuron holds ReLU'(z)·w, and every gradient is PyTorch's for the same weights."""
    torch = pytest.importorskip("torch")
    run = Lab({"size": 40})
    run.step()
    whole = run.example(3)
    view = neuron_view(run, whole)
    backward(view)
    nodes = {node.label: node for node in dependency_safe_order(view)}
    assert len(nodes) == 2 + 8 + 8 + 1 + 5 and nodes["L1.n2"].op == "ReLU∘Σ" and nodes["L3.n0.z"].op == "Σ"
    assert not any(node.label.endswith((".h", ".b")) or ".w" in node.label for node in nodes.values())
    neuron = run.model.layers[1].neurons[4]
    z = sum((w.data * nodes[f"L1.n{i}"].data for i, w in enumerate(neuron.w)), neuron.b.data)
    links = {link.value.label: link.local_grad for link in nodes["L2.n4"].parents}
    assert links == {f"L1.n{i}": (w.data if z > 0 else 0.0) for i, w in enumerate(neuron.w)}

    # PyTorch, float64, the same weights: the gradient of this example's hinge loss at x and at every hidden neuron.
    (a, b), label = run.points[3], run.labels[3]
    assert isinstance(label, int)
    x = torch.tensor([a, b], dtype=torch.float64, requires_grad=True)
    hidden, out = [], x
    for k, layer in enumerate(run.model.layers):
        weights = torch.tensor([[w.data for w in n.w] for n in layer.neurons], dtype=torch.float64)
        biases = torch.tensor([n.b.data for n in layer.neurons], dtype=torch.float64)
        out = weights @ out + biases
        if k < len(run.model.layers) - 1:
            out = torch.relu(out)
            out.retain_grad()
            hidden.append(out)
    loss = torch.relu(1 - label * out[0])
    loss.backward()
    assert view.data == pytest.approx(loss.item(), rel=1e-12)
    assert [nodes["x1"].grad, nodes["x2"].grad] == pytest.approx(x.grad.tolist(), rel=1e-9, abs=1e-12)
    for k, activations in enumerate(hidden, start=1):
        grads = [nodes[f"L{k}.n{i}"].grad for i in range(len(activations))]
        assert grads == pytest.approx(activations.grad.tolist(), rel=1e-9, abs=1e-12)


def test_inspect_shows_either_view_and_a_step_rewrites_the_one_drawn() -> None:
    lab.start({"size": 24})
    lab._figures.clear()
    neurons = lab.inspect(2)
    every = lab.inspect(2, neurons=False)
    assert neurons["neurons"] is True and every["neurons"] is False
    assert (neurons["values"], every["values"]) == (24, 145) and neurons["loss"] == every["loss"]
    assert neurons["html"] != every["html"] and lab.inspect(2, neurons=False)["html"] is None
    for shown in (neurons, every):
        numbers = lab.step(1, 2, shown["neurons"])["numbers"]
        assert set(numbers) == set(shown["numbers"]) and numbers != shown["numbers"]
        assert all(f'id="{key}"' in shown["html"] for key in numbers if key.endswith("-grad"))


def test_one_neuron_expands_to_its_values_with_the_whole_graphs_gradients_the_rest_stay_folded() -> None:
    """L2.n3 expanded: its 8 weights, its bias, its weighted sum and its activation are back (24 + 10 Values),
    with the gradients backward gives them in the whole graph; every other neuron is still one node."""
    run = Lab({"size": 40})
    run.step()
    whole = run.example(5)
    view = neuron_view(run, whole, expand="L2.n3")
    backward(whole), backward(view)
    full = {node.label: node for node in dependency_safe_order(whole)}
    kept = {node.label: node for node in dependency_safe_order(view)}
    opened = {f"L2.n3.w{i}" for i in range(8)} | {"L2.n3.b", "L2.n3.z", "L2.n3.h"}
    assert len(kept) == 34 and opened <= set(kept) and "L2.n3" not in kept and kept["L2.n4"].op == "ReLU∘Σ"
    assert not any(".w" in label for label in set(kept) - opened)
    for label in opened:
        assert kept[label].data == full[label].data and kept[label].grad == pytest.approx(full[label].grad, abs=1e-12)
    # Its weighted sum's links are the engine's own: ∂z/∂w_i is the input L1.n_i, not a folded product.
    links = {link.value.label: link.local_grad for link in kept["L2.n3.z"].parents}
    assert {f"L2.n3.w{i}": full[f"L1.n{i}.h"].data for i in range(8)}.items() <= links.items()


def test_inspect_expands_a_neuron_draws_bare_links_and_says_each_folded_neurons_z() -> None:
    lab.start({"size": 24})
    lab._figures.clear()
    folded, opened = lab.inspect(4), lab.inspect(4, neurons="L1.n2")
    assert opened["neurons"] == "L1.n2" and (folded["values"], opened["values"]) == (24, 24 + 4)
    assert folded["loss"] == opened["loss"] and opened["html"] != folded["html"]
    assert "gg-t-local" not in folded["html"] and "gg-t-local" in lab.inspect(4, neurons=False)["html"]
    # A folded neuron's z, the Σ of the whole graph (its activation is the node's data).
    z = {
        node.label.removesuffix(".z"): node.data
        for node in dependency_safe_order(lab._current().example(4))
        if node.op == "Σ"
    }
    pre = {key: value for key, value in folded["numbers"].items() if key.endswith("-pre")}
    assert len(pre) == 16 and sorted(map(float, pre.values())) == pytest.approx(
        sorted(z[f"L{k}.n{i}"] for k in (1, 2) for i in range(8)), rel=1e-5
    )
    numbers = lab.step(1, 4, "L1.n2")["numbers"]
    assert set(numbers) == set(opened["numbers"]) and numbers != opened["numbers"]
    with pytest.raises(ValueError, match="not 'x1'"):
        lab.inspect(4, neurons="x1")


@given(x1=st.floats(-4, 4), x2=st.floats(-4, 4))
def test_the_labs_input_features_are_pytorchs(x1: float, x2: float) -> None:
    torch = pytest.importorskip("torch")
    a, b = torch.tensor(x1, dtype=torch.float64), torch.tensor(x2, dtype=torch.float64)
    expected = [a, b, a * a, b * b, a * b, torch.sin(a), torch.sin(b)]
    got = features_of(FEATURES, x1, x2)
    assert got == pytest.approx([t.item() for t in expected], rel=1e-15, abs=1e-300)
    assert got[:5] == [t.item() for t in expected[:5]]  # products: the same IEEE operations, the same bits
    assert math.isfinite(sum(got))
