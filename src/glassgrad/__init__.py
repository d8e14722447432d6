"""glassgrad: a small, fast scalar autograd engine that shows its work."""

from typing import TYPE_CHECKING

from glassgrad.autograd import (
    BackwardStep,
    BackwardSteps,
    CycleError,
    ForwardStep,
    ForwardSteps,
    OrderEvent,
    backward,
    dependency_safe_order,
    trace_dependency_safe_order,
)
from glassgrad.checks import gradcheck
from glassgrad.forward_mode import jvp, trace_jvp
from glassgrad.ops import (
    add,
    divide,
    exponential,
    log,
    multiply,
    negate,
    plus_one,
    power,
    reciprocal,
    relu,
    sigmoid,
    square,
    subtract,
    tanh,
)
from glassgrad.protocol import is_value
from glassgrad.value import ParentLink, Value

__all__ = [
    "BackwardStep",
    "BackwardSteps",
    "CycleError",
    "ForwardStep",
    "ForwardSteps",
    "OrderEvent",
    "ParentLink",
    "Value",
    "add",
    "backward",
    "dependency_safe_order",
    "is_value",
    "divide",
    "exponential",
    "gradcheck",
    "jvp",
    "log",
    "multiply",
    "negate",
    "plus_one",
    "power",
    "reciprocal",
    "relu",
    "sigmoid",
    "square",
    "subtract",
    "tanh",
    "trace_dependency_safe_order",
    "trace_jvp",
]


if TYPE_CHECKING:
    __version__: str
else:

    def __getattr__(name: str) -> str:
        """``glassgrad.__version__``: the installed version, read from the package's metadata when first asked for.

        pyproject.toml is the one place the version is written. Read lazily, so ``import glassgrad`` does not load
        importlib.metadata (the playground imports glassgrad in the reader's browser, from files without metadata).
        (Hidden from type checkers, for which a module ``__getattr__`` would make every unknown name a ``str``.)
        """
        if name == "__version__":
            from importlib.metadata import version

            return version("glassgrad")
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
