# Chapter 2's imports; run hidden at the top of the page (engine_source comes from docs/snippets/engine_source.py).
import inspect

import torch

from glassgrad import (
    CycleError,
    ParentLink,
    Value,
    add,
    backward,
    dependency_safe_order,
    multiply,
    square,
    subtract,
)
from glassgrad.examples import LINEAR_INPUTS, linear_loss
from glassgrad.torch_reference import compare
from glassgrad.torch_reference import linear_loss as torch_linear_loss
from glassgrad.viz import (
    draw_graph,
    legend,
    show_backward_steps,
    show_complete_state,
    show_dependency_order,
    show_order_walk,
    show_parent_link,
)
