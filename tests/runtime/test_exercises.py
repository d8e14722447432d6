"""The exercises' checker (glassgrad.exercises) on the page's own solutions and on wrong answers.

Each solution is the file the Exercises page shows; each wrong answer is that file with one
change a reader might make. The checker must pass the first and name the wrong edge of the
second, with the expected derivative PyTorch (float64) computes at the inputs it tried.
"""

from __future__ import annotations

import re

import pytest
from exercise_cases import DIVIDE_HEAD, MISTAKES, broken, source

from glassgrad.exercises import EXERCISES, Verdict, check
from glassgrad_runtime import execute
from glassgrad_runtime.checking import marked_figure


def check_program(name: str, program: str, seed: int | None = None) -> Verdict:
    """The checker's verdict on `program` (run here as plain Python would) for exercise `name`."""
    namespace: dict = {}
    exec(compile(program, "<program>", "exec"), namespace)
    return check(name, namespace, seed=seed)


def torch_local(name: str, inputs: dict[str, float], operand: str) -> float:
    """The local derivative of exercise `name`'s operation with respect to `operand`, by PyTorch float64."""
    torch = pytest.importorskip("torch")
    leaves = {
        key: torch.tensor(value, dtype=torch.float64, requires_grad=True) for key, value in inputs.items() if key != "k"
    }
    formulas = {
        "divide": lambda t: t["u"] / t["v"],
        "tanh": lambda t: torch.tanh(t["u"]),
        "power": lambda t: t["u"] ** inputs["k"],
        "sigmoid": lambda t: torch.sigmoid(t["z"]),
    }
    formulas[name](leaves).backward()
    return leaves[operand].grad.item()


@pytest.mark.parametrize("name", list(EXERCISES))
def test_each_solution_on_the_page_passes(name: str) -> None:
    verdict = check_program(name, source(name))
    assert verdict.passed, verdict.message
    assert verdict.message.startswith("Passed")
    assert verdict.graph is None and marked_figure(verdict, "ggok") == ""  # nothing marked, nothing drawn


@pytest.mark.parametrize("name", list(EXERCISES))
def test_each_starting_code_does_not_pass(name: str) -> None:
    verdict = check_program(name, source(name, "_start"))
    assert not verdict.passed
    assert "Passed" not in verdict.message


WRONG_EDGES = [
    # (exercise, change to the solution, the edge named, a phrase of the explanation)
    ("divide", ("dq_du = 1.0 / v.data", "dq_du = -u.data / (v.data * v.data)"), "∂q/∂u", "swapped"),
    ("divide", ("dq_dv = -u.data", "dq_dv = u.data"), "∂q/∂v", "sign is flipped"),
    ("tanh", ("1.0 - t * t", "1.0 - u.data * u.data"), "∂t/∂u", "Your number is 1 − u² here"),
    ("power", ("k * u.data ** (k - 1)", "k * u.data ** k"), "∂p/∂u", "the power is not lowered by one"),
    ("sigmoid", ("s * (1.0 - s)", "s * s"), "∂s/∂z", "Your number is s² here"),
]


@pytest.mark.parametrize(
    ("name", "change", "edge", "phrase"), WRONG_EDGES, ids=[f"{w[0]}-{w[1][1]}" for w in WRONG_EDGES]
)
def test_a_wrong_local_derivative_is_named_with_pytorchs_value(
    name: str, change: tuple[str, str], edge: str, phrase: str
) -> None:
    verdict = check_program(name, broken(name, *change))
    assert not verdict.passed
    assert verdict.message.startswith(f"The edge {edge} is wrong at ") and verdict.edge == edge
    assert phrase in verdict.message + verdict.answer
    assert verdict.inputs is not None and verdict.operand is not None
    assert verdict.expected == pytest.approx(torch_local(name, verdict.inputs, verdict.operand), rel=1e-12, abs=1e-15)
    assert f"holds {verdict.given:.6g}" in verdict.message
    # The figure marks that edge, and only it, in the "bad" colour with a ✗.
    figure = str(marked_figure(verdict, "ggtest"))
    marked = re.findall(r'<g id="ggtest-edge-(\d+)-(\d+)" class="edge gg-link gg-wrong"', figure)
    output, k = verdict.marked[0]
    assert marked == [(str(len(verdict.graph.parents)), str(k))]  # the output comes after its operands
    assert f"✗ {edge}" in figure
    assert figure.count('data-gg-wrong="true"') == 1


RULES = [
    # (exercise, a learner's wrong local derivative (issue 44), the edge, the rule in symbols, the mistake named)
    ("tanh", ("1.0 - t * t", "1.0 - t"), "∂t/∂u", "1 − t²", "Your number is 1 − t here: t is not squared."),
    (
        "sigmoid",
        ("s * (1.0 - s)", "1.0 - s"),
        "∂s/∂z",
        "s(1 − s)",
        "Your number is 1 − s here: the factor s is missing.",
    ),
    ("power", ("k * u.data ** (k - 1)", "u.data ** (k - 1)"), "∂p/∂u", "k·u^(k−1)", "the factor k is missing."),
    (
        "divide",
        ("-u.data / (v.data * v.data)", "-1.0 / (v.data * v.data)"),
        "∂q/∂v",
        "−u/v²",
        "the factor u is missing.",
    ),
]


@pytest.mark.parametrize(("name", "change", "edge", "rule", "mistake"), RULES, ids=[rule[0] for rule in RULES])
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_wrong_local_derivative_gets_its_rule_in_symbols_at_the_inputs_tried(
    name: str, change: tuple[str, str], edge: str, rule: str, mistake: str, seed: int
) -> None:
    verdict = check_program(name, broken(name, *change), seed=seed)
    assert verdict.edge == edge and verdict.inputs is not None and verdict.expected is not None
    where = ", ".join(f"{key} = {value:.6g}" for key, value in verdict.inputs.items())
    lines = verdict.message.splitlines()
    assert lines[0] == f"The edge {edge} is wrong at {where}."
    assert lines[1].startswith(f"At these inputs {edge} = {verdict.expected:.6g}; ")  # the numbers first,
    assert mistake in lines[2]  # the mistake recognised,
    assert lines[3].startswith(f"The rule: {edge} = {rule}")  # then the rule in symbols,
    assert lines[4].startswith(f"At {where}: ")  # worked out at those inputs
    worked = float(lines[4].rsplit(" = ", 1)[1].rstrip("."))
    oracle = torch_local(name, verdict.inputs, verdict.operand)
    assert worked == pytest.approx(oracle, rel=1e-5, abs=1e-6)  # printed to 6 digits
    assert verdict.answer.split(": ", 1)[1] in source(name)  # the right line, as the page's solution writes it


def test_the_buggy_sigmoid_points_at_the_sigma_edge() -> None:
    verdict = check_program("sigmoid", source("sigmoid", "_start"))
    assert verdict.message.splitlines()[0].startswith("The edge ∂s/∂z is wrong")
    z = verdict.inputs["z"]
    s = torch_sigmoid(z)
    assert verdict.given == pytest.approx(s * s, rel=1e-12)
    assert verdict.graph.op == "σ" and verdict.marked == [(verdict.graph, 0)]


def torch_sigmoid(z: float) -> float:
    torch = pytest.importorskip("torch")
    return torch.sigmoid(torch.tensor(z, dtype=torch.float64)).item()


def test_operands_linked_in_the_wrong_order_are_named() -> None:
    verdict = check_program("divide", broken("divide", "ParentLink(u, dq_du),", "ParentLink(v, dq_du),"))
    assert verdict.message.startswith("q.parents[0] points to v; it should point to u")


def test_a_wrong_value_is_named_before_any_derivative() -> None:
    verdict = check_program("divide", broken("divide", "q = u.data / v.data", "q = v.data / u.data"))
    assert verdict.message.startswith("The value is wrong at u = ")
    assert verdict.expected == pytest.approx(verdict.inputs["u"] / verdict.inputs["v"], rel=1e-15)


@pytest.mark.parametrize(
    ("order", "message"),
    [
        ("[L, q, b, p, a, x]", "L is at position 0, before its parent p."),  # backward's order, not the forward one
        ("[x, a, p, q, b, L]", "q is at position 3, before its parent b."),
        ("[x, a, p, b, L]", "order is missing q: list all 6 Values of the graph."),
        ("[x, a, x, p, b, q, L]", "x appears twice in order (positions 0 and 2): list each Value once."),
    ],
)
def test_a_wrong_order_names_the_first_node_placed_before_a_parent(order: str, message: str) -> None:
    verdict = check_program("order", broken("order", "[x, a, p, b, q, L]", order))
    assert not verdict.passed
    assert verdict.message.startswith(message)
    if "before its parent" in message:
        node, parent = re.match(r"(\w+) is at position \d+, before its parent (\w+)", message).groups()
        ((output, k),) = verdict.marked
        assert (output.label, output.parents[k].value.label) == (node, parent)
        assert f"✗ ∂{node}/∂{parent}" in marked_figure(verdict, "ggorder")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        # Overwriting instead of adding: w * w keeps one of its two contributions.
        (
            "link.value.grad += contribution",
            "link.value.grad = contribution",
            "was lost.\nAdd each contribution to .grad (+=)",
        ),
        # Forward order: every output is visited before its gradient is known.
        ("for output in reversed(safe_order):", "for output in safe_order:", "No contribution reached b."),
        ("link.value.grad += contribution", "link.value.grad -= contribution", "The sign is flipped"),
        ("    root.grad = 1.0\n", "", "Set root.grad = 1.0 (dL/dL) before the loop."),
    ],
    ids=["missing-accumulation", "wrong-order", "wrong-sign", "no-seed"],
)
def test_a_wrong_backward_names_the_lost_contribution(old: str, new: str, message: str) -> None:
    verdict = check_program("backward", broken("backward", old, new))
    assert not verdict.passed
    assert message in verdict.message + "\n" + verdict.answer
    assert verdict.show_grad  # the figure shows the reader's gradients


def test_the_lost_contribution_of_w_times_w_is_pytorchs_half() -> None:
    torch = pytest.importorskip("torch")
    verdict = check_program(
        "backward", broken("backward", "link.value.grad += contribution", "link.value.grad = contribution"), seed=3
    )
    w_value = verdict.graph.parents[0].value.data
    w = torch.tensor(w_value, dtype=torch.float64, requires_grad=True)
    (w * w).backward()
    assert verdict.message.startswith(f"On w * w, w.grad is {w.grad.item() / 2:.6g}; it should be {w.grad.item():.6g}.")
    assert verdict.marked == [(verdict.graph, 0)]
    assert "✗ ∂L/∂w" in marked_figure(verdict, "ggww")


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("new_w = w - lr * wv.grad", "new_w = w + lr * wv.grad", "a step up the gradient"),
        ("new_b = b - lr * bv.grad", "new_b = b - bv.grad", "forgot the learning rate"),
    ],
)
def test_a_wrong_training_step_says_which_weight(old: str, new: str, message: str) -> None:
    torch = pytest.importorskip("torch")
    verdict = check_program("train-step", broken("train-step", old, new))
    assert not verdict.passed and message in verdict.message
    n = verdict.inputs
    w, b = (torch.tensor(n[key], dtype=torch.float64, requires_grad=True) for key in "wb")
    ((torch.sigmoid(w * n["x"] + b) - n["y"]) ** 2).backward()
    leaf = {"w": w, "b": b}[verdict.operand]
    assert verdict.expected == pytest.approx(leaf.item() - n["lr"] * leaf.grad.item(), rel=1e-12)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        # Overwriting instead of adding: w * w keeps one of its two links' contributions.
        ("tangent[node] += tangent", "tangent[node] = tangent", "is missing: add every link's contribution (+=)"),
        ("tangent[link.value] * link.local_grad", "tangent[link.value]", "multiply each by its link's local_grad"),
        ("tangent[node] += tangent", "tangent[node] -= tangent", "The sign is flipped"),
        ("seeds.get(node, 0.0)", "0.0", "A leaf's tangent is its seed"),
    ],
    ids=["missing-accumulation", "no-local-grad", "wrong-sign", "no-seed"],
)
def test_a_wrong_forward_mode_names_the_value_and_the_edge(old: str, new: str, message: str) -> None:
    verdict = check_program("forward", broken("forward", old, new), seed=5)
    assert not verdict.passed
    assert message in verdict.message
    assert verdict.message.startswith("On w * w with the seeds w = ")
    assert "tangent[link.value] × link.local_grad" in verdict.answer  # the rule waits in the answer


def test_forward_modes_expected_tangent_is_pytorchs_jvp() -> None:
    """The tangent the checker expects of L (w * w, w seeded) is torch.func.jvp's, and the marked edge is L's."""
    torch = pytest.importorskip("torch")
    verdict = check_program("forward", broken("forward", "tangent[node] += tangent", "tangent[node] = tangent"), seed=3)
    seed = float(re.search(r"with the seeds w = (\S+),", verdict.message).group(1))
    w_value = verdict.graph.parents[0].value.data
    _, tangent = torch.func.jvp(
        lambda w: w * w, (torch.tensor(w_value, dtype=torch.float64),), (torch.tensor(seed, dtype=torch.float64),)
    )
    assert verdict.expected == pytest.approx(tangent.item(), rel=1e-12)
    assert verdict.given == pytest.approx(tangent.item() / 2, rel=1e-12)
    assert verdict.marked == [(verdict.graph, 0)] and verdict.edge == "∂L/∂w"
    assert (
        "✗ ∂L/∂w" in marked_figure(verdict, "ggfw")
        and marked_figure(verdict, "ggfw").count('data-gg-wrong="true"') == 1
    )


def test_the_forward_checkers_own_tangents_are_glassgrads_jvp() -> None:
    """The reference forward mode of the checker agrees with glassgrad.jvp on chapter 1's graph, every value."""
    import glassgrad
    from glassgrad import exercises, scratch
    from glassgrad.examples import linear_loss

    ours, fast = linear_loss(scratch, w=-1.5, x=0.5, b=2.0, y=0.25), linear_loss(w=-1.5, x=0.5, b=2.0, y=0.25)
    seeds = {"w": 1.0, "x": -2.0, "b": 0.5, "y": 3.0}
    reference = exercises.forward._reference_tangents(ours["L"], {id(ours[k]): t for k, t in seeds.items()})
    for name in ours:
        assert reference[id(ours[name])] == glassgrad.jvp(fast[name], {fast[k]: t for k, t in seeds.items()})


def test_errors_in_the_readers_code_are_named_with_their_line() -> None:
    syntax = execute("def divide(u, v, label=''):\n    return (\n", exercise="divide")
    assert syntax["message"].startswith("Syntax error on line") and syntax["passed"] is False
    missing = execute("x = 1\n", exercise="divide")
    assert missing["message"] == "The program defines no divide: keep the name divide from the starting code."
    raising = execute(broken("power", "k * u.data ** (k - 1)", "k * u.data ** k / u.data"), exercise="power")
    assert raising["message"].startswith("While checking power(u, k) at u = 0, k = 2:\nZeroDivisionError on line 7")
    assert raising["passed"] is False
    assert raising["message"].endswith("7 | dp_du = k * u.data ** k / u.data   # k·u^(k-1)")


def test_the_same_seed_gives_the_same_inputs_and_another_seed_others() -> None:
    wrong = broken("tanh", "1.0 - t * t", "1.0 - t")
    assert check_program("tanh", wrong, seed=1).message == check_program("tanh", wrong, seed=1).message
    assert check_program("tanh", wrong, seed=1).inputs != check_program("tanh", wrong, seed=2).inputs


def test_an_unknown_exercise_lists_the_exercises() -> None:
    with pytest.raises(KeyError, match="divide, tanh, power"):
        check("nope", {})


def test_the_checker_imports_neither_torch_graphviz_nor_matplotlib() -> None:
    import subprocess
    import sys

    code = "import sys, glassgrad.exercises; print(sorted({'torch', 'graphviz', 'matplotlib'} & set(sys.modules)))"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout == "[]\n"


def test_a_check_gives_the_runtimes_messages_and_a_marked_figure() -> None:
    typo = "from glassgrad.scratch import Value\n\ndef divide(u, v, label=''):\n    return Valeu(u.data / v.data)\n"
    result = execute(typo, "ggrun1", exercise="divide")
    assert result["passed"] is False and result["figure"] == ""
    assert result["message"].startswith("While checking divide(u, v) at u = ")
    assert "Unknown name 'Valeu' on line 4" in result["message"]
    result = execute(source("sigmoid", "_start"), "ggrun2", exercise="sigmoid")
    assert result["message"].startswith("The edge ∂s/∂z is wrong")
    assert 'id="ggrun2-edge-1-0" class="edge gg-link gg-wrong"' in result["figure"]
    passed = execute(source("sigmoid"), "ggrun3", exercise="sigmoid")
    assert passed["passed"] is True and passed["message"].startswith("Passed") and passed["figure"] == ""


@pytest.mark.parametrize(("name", "program", "says"), MISTAKES, ids=[f"{m[0]}-{i}" for i, m in enumerate(MISTAKES)])
def test_an_honest_mistake_gets_a_verdict_that_names_it(name: str, program: str, says: str) -> None:
    verdict = check_program(name, program)
    assert not verdict.passed
    assert says in verdict.message, verdict.message
    result = execute(program, "ggm", exercise=name)  # the page's way: a message, never an exception
    assert result["passed"] is False and says.split(" at u = ")[0] in result["message"]
    assert "Traceback" not in result["message"] and "glassgrad/exercises.py" not in result["message"]


def test_the_readers_error_while_checking_is_explained_with_its_line() -> None:
    program = DIVIDE_HEAD + "    return Value(q, label, parents=(ParentLink(u, None), ParentLink(v, 0.0)), op='/')\n"
    message = execute(program, exercise="divide")["message"]
    assert "\nType error on line 6: float() argument must be a string or a real number, not 'NoneType'" in message
    assert message.endswith("6 | return Value(q, label, parents=(ParentLink(u, None), ParentLink(v, 0.0)), op='/')")
    interrupted = execute(DIVIDE_HEAD + "    raise KeyboardInterrupt\n", exercise="divide")["message"]
    assert "\nThe program raised KeyboardInterrupt on line 6" in interrupted


def test_a_table_of_the_inputs_one_check_used_fails_the_next() -> None:
    seen: dict[tuple[float, float], tuple[float, float, float]] = {}
    namespace: dict = {}
    exec(compile(source("divide"), "<program>", "exec"), namespace)
    real = namespace["divide"]

    def recording(u, v, label=""):
        out = real(u, v, label)
        seen[(u.data, v.data)] = (out.data, out.parents[0].local_grad, out.parents[1].local_grad)
        return out

    assert check("divide", {"divide": recording}, seed=5).passed

    def table(u, v, label=""):
        from glassgrad.scratch import ParentLink, Value

        q, du, dv = seen.get((u.data, v.data), (0.0, 0.0, 0.0))
        return Value(q, label, parents=(ParentLink(u, du), ParentLink(v, dv)), op="/")

    verdict = check("divide", {"divide": table})  # new inputs
    assert not verdict.passed and verdict.message.startswith("The value is wrong at u = ")


def test_inputs_are_new_at_every_check_and_include_negative_numbers() -> None:
    wrong = broken("tanh", "1.0 - t * t", "1.0 - t")
    assert check_program("tanh", wrong).inputs != check_program("tanh", wrong).inputs
    tried: list[tuple[float, float]] = []

    def power(u, k, label=""):
        from glassgrad.scratch import ParentLink, Value

        tried.append((u.data, k))
        return Value(u.data**k, label, parents=(ParentLink(u, k * u.data ** (k - 1)),), op="**")

    assert check("power", {"power": power}).passed
    assert any(u < 0 and k == 2 for u, k in tried) and any(u < 0 and k == 3 for u, k in tried)
    assert all(u > 0 for u, k in tried if k != int(k))  # a fractional power only of a positive number


@pytest.mark.parametrize("name", ["divide", "tanh", "power", "sigmoid"])
def test_the_first_check_names_the_rule_and_holds_the_code_back(name: str) -> None:
    hidden = execute(source(name, "_start"), exercise=name)
    rule = {"divide": "1/v", "tanh": "1 − t²", "power": "k·u^(k−1)", "sigmoid": "s(1 − s)"}[name]
    code = {
        "divide": "1.0 / v.data",
        "tanh": "1.0 - t * t",
        "power": "k * u.data ** (k - 1)",
        "sigmoid": "s * (1.0 - s)",
    }
    assert hidden["passed"] is False and hidden["edge"] and hidden["message"].startswith(f"The edge {hidden['edge']}")
    assert f"The rule: {hidden['edge']} = {rule}" in hidden["message"]
    assert code[name] not in hidden["message"] and hidden["answer"] == "" and hidden["has_answer"] is True
    shown = execute(source(name, "_start"), exercise=name, reveal=True)
    assert code[name] in shown["message"] and code[name] in shown["answer"]
    assert code[name] in source(name)  # the line the page's solution has
