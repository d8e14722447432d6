"""glassgrad: a small, fast scalar autograd engine that shows its work."""

from glassgrad.autograd import (
    BackwardStep,
    BackwardSteps,
    CycleError,
    OrderEvent,
    backward,
    dependency_safe_order,
    trace_dependency_safe_order,
)
from glassgrad.checks import gradcheck
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
from glassgrad.value import ParentLink, Value

__all__ = [
    "BackwardStep",
    "BackwardSteps",
    "CycleError",
    "OrderEvent",
    "ParentLink",
    "Value",
    "add",
    "backward",
    "dependency_safe_order",
    "divide",
    "exponential",
    "gradcheck",
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
]
__version__ = "0.1.0"
