"""Second hardening round (issue 22): copies of deep graphs, bounded drawings, escaped names, named culprits, threads."""

from __future__ import annotations

import copy
import math
import pickle
import sys
import threading
from pathlib import Path

import pytest

import glassgrad as gg
from glassgrad import ParentLink, Value
from glassgrad.checks import gradcheck
from glassgrad.nn import MLP, train


def chain(n: int) -> Value:
    y = Value(0.5, "x")
    for _ in range(n):
        y = y * 1.0001
    return y


@pytest.fixture
def low_recursion_limit():
    """Recursion limit 200 for the test: a copy that recursed per node could not pass by luck."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(200)
    yield
    sys.setrecursionlimit(old)


# --- 1. pickling and copies keep no state past the call ---------------------------------------------------


def test_a_deep_graph_pickles_again_after_a_dump_of_two_roots(low_recursion_limit) -> None:
    y = chain(3000)
    both = pickle.loads(pickle.dumps([y, y * 2]))
    assert both[1].parents[0].value is both[0] and both[0].data == y.data
    again = pickle.loads(pickle.dumps(y))  # failed with RecursionError after the dump above
    assert again.data == y.data and again.parents[0].value.data == y.parents[0].value.data


@pytest.mark.parametrize("first", [copy.copy, copy.deepcopy, pickle.dumps])
def test_deepcopy_and_pickle_of_a_deep_graph_work_after_any_copy(low_recursion_limit, first) -> None:
    y = chain(3000)
    first([y, y * 2])
    first(y)
    twin = copy.deepcopy(y)
    twin.backward()
    y.backward()
    assert twin.data == y.data and twin is not y
    leaf = twin
    while leaf.parents:
        leaf = leaf.parents[0].value
    assert leaf.label == "x" and leaf.grad == pytest.approx(1.0001**3000)


class Tagged(Value):
    """A subclass with a __dict__: an attribute pickle refuses makes a dump fail half-way."""


def test_a_dump_that_fails_half_way_leaves_nothing_behind(low_recursion_limit) -> None:
    y = chain(1500)
    bad = Tagged(1.0, "bad")
    bad.hook = lambda: None  # pickle cannot save a lambda
    with pytest.raises((pickle.PicklingError, AttributeError, TypeError)):
        pickle.dumps(y * bad)
    assert gg.copying._scheduled() == set()
    assert pickle.loads(pickle.dumps(y)).data == y.data


def test_a_shallow_copy_shares_the_parents_not_the_links() -> None:
    w, x = Value(2.0, "w"), Value(3.0, "x")
    m = w * x
    twin = copy.copy(m)
    assert [link.value for link in twin.parents] == [w, x] and twin.parents[0] is not m.parents[0]
    assert (twin.data, twin.op) == (6.0, "×")


# --- 7. a subclass with __eq__ and __hash__ ---------------------------------------------------------------


class ByData(Value):
    """Equal when the numbers are: the fast walk must still tell two such nodes apart."""

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Value) and self.data == other.data

    def __hash__(self) -> int:
        return hash(self.data)


def test_a_subclass_with_eq_and_hash_is_walked_by_identity() -> None:
    a, b = ByData(2.0, "a"), ByData(2.0, "b")
    L = a * b
    L.backward()
    L.backward()
    assert (a.grad, b.grad) == (2.0, 2.0)  # merged, a second backward gave 4.0
    assert gg.dependency_safe_order(L) == [a, b, L] and gg.dependency_safe_order(L)[1] is b


def test_pickling_keeps_a_subclass_and_its_attributes() -> None:
    a = ByData(2.0, "a")
    a.note = "kept"
    back = pickle.loads(pickle.dumps(a * 3.0))
    parent = back.parents[0].value
    assert type(parent) is ByData and parent.note == "kept" and parent.label == "a"
    assert type(copy.copy(a)) is ByData and copy.copy(a).note == "kept"


# --- 6. threads --------------------------------------------------------------------------------------------

_GRAD = Value.__dict__["grad"]  # the slot: a subclass can pause on a write to it


def test_concurrent_accumulating_backwards_into_a_shared_leaf_lose_nothing() -> None:
    """Thread 1 pauses inside its pass; thread 2's whole pass must not happen in that pause."""
    paused, second_done = threading.Event(), threading.Event()

    class Shared(Value):
        __slots__ = ()
        grad = property(_GRAD.__get__, None)

        @grad.setter
        def grad(self, new: float) -> None:
            if threading.current_thread().name == "first" and not paused.is_set():
                paused.set()
                second_done.wait(timeout=0.5)  # before the fix, thread 2 ran its whole pass here
            _GRAD.__set__(self, new)

    w = Shared(1.0, "w")
    losses = [w * 3.0, w * 5.0]
    first = threading.Thread(target=lambda: losses[0].backward(accumulate=True), name="first")
    first.start()
    assert paused.wait(timeout=10)
    second = threading.Thread(target=lambda: (losses[1].backward(accumulate=True), second_done.set()))
    second.start()
    first.join()
    second.join()
    assert w.grad == 8.0  # 3 + 5: each pass added whole


def test_the_thread_rules_are_in_the_api_reference() -> None:
    assert "Threads:" in gg.backward.__doc__ and "independent" in gg.backward.__doc__
    assert "threads" in Value.backward.__doc__


# --- 4. errors name the culprit ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: Value(1.0, "x", parents=None),
            TypeError,
            r"Value 'x': parents must be an iterable of ParentLink.*NoneType",
        ),
        (
            lambda: gradcheck(lambda a: a * a, [1.0], eps=0),
            ValueError,
            r"gradcheck: eps must be a positive finite.*got 0",
        ),
        (lambda: gradcheck(lambda a: a * a, [1.0], eps=math.inf), ValueError, r"gradcheck: eps"),
        (
            lambda: train([Value(1.0)], lambda: Value(1.0) * 1.0, steps=1, learning_rate="0.1", progress=False),
            TypeError,
            r"train: learning_rate expects a real number.*str '0.1'",
        ),
        (
            lambda: train(
                [Value(1.0)], lambda: Value(1.0) * 1.0, steps=1, learning_rate=lambda step: None, progress=False
            ),
            TypeError,
            r"train: learning_rate\(0\) expects a real number.*NoneType",
        ),
        (
            lambda: MLP(2, 3),
            TypeError,
            r"MLP: nouts must be a list of layer widths.*int 3; for one layer of 3 write \[3\]",
        ),
    ],
)
def test_bad_arguments_name_what_was_wrong(call, error, message) -> None:
    with pytest.raises(error, match=message):
        call()


def test_assigning_a_non_number_to_data_is_refused_at_once() -> None:
    x = Value(1.0, "x")
    with pytest.raises(TypeError, match=r"Value\('x', data=1, grad=0\)\.data expects a real number.*str '3'"):
        x.data = "3"
    x.data = 3  # any real number, stored as a float
    assert type(x.data) is float and (x * 2.0).data == 6.0
    with pytest.raises(AttributeError, match="cannot be deleted"):
        del x.data


def test_a_links_fields_cannot_be_deleted() -> None:
    link = ParentLink(Value(1.0, "w"), 2.0)
    for field in ("value", "local_grad"):
        with pytest.raises(AttributeError, match=f"ParentLink.{field} cannot be deleted"):
            delattr(link, field)
    assert link.value.label == "w" and link.local_grad == 2.0


def test_a_label_of_none_is_no_label_in_ops_as_in_value() -> None:
    w = Value(2.0, None)
    assert w.label == "" and gg.ops.multiply(w, 3.0, None).label == "" and gg.ops.tanh(w, None).label == ""


# --- 5. the claims ------------------------------------------------------------------------------------------------


def test_accumulate_gives_pytorchs_gradients_not_micrograds() -> None:
    micrograd = pytest.importorskip("micrograd.engine")
    torch = pytest.importorskip("torch")

    def linear(V):
        w, x, b, y = V(2.0), V(3.0), V(1.0), V(10.0)
        return w, (w * x + b - y) ** 2

    w, L = linear(Value)
    L.backward(accumulate=True)
    L.backward(accumulate=True)
    tw, tL = linear(lambda v: torch.tensor(v, dtype=torch.float64, requires_grad=True))
    tL.backward(retain_graph=True)
    tL.backward()
    mw, mL = linear(micrograd.Value)
    mL.backward()
    mL.backward()
    assert w.grad == tw.grad.item() == -36.0 and mw.grad == -90.0  # the README's numbers
    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text(encoding="utf-8")
    assert "-36 in glassgrad with `accumulate=True` and in PyTorch, -90 in micrograd" in readme
    assert "For micrograd's behaviour" not in readme


def test_tanh_and_pow_docstrings_say_what_pytorch_does_differently() -> None:
    assert "fma(-t, t, 1)" in gg.ops.tanh.__doc__ and "as PyTorch does" not in gg.ops.tanh.__doc__
    assert "x * x * x" in gg.ops._pow.__doc__ and "as PyTorch computes it" not in gg.ops._pow.__doc__
