# Chapter 2's figures: glassgrad.viz draws any graph of Values from their public fields
# (data, grad, label, op, parents), so it draws the engine this page writes.
import glassgrad.scratch
from glassgrad.examples import LINEAR_INPUTS, linear_loss
from glassgrad.torch_reference import linear_loss as pytorch_linear_loss
from glassgrad.viz import (
    animate_backward,
    animate_order,
    draw_graph,
    legend,
    show_backward_steps,
    show_complete_state,
    show_dependency_order,
    show_order_walk,
    show_parent_link,
)
from glassgrad.viz.graph import walk

preview = linear_loss(glassgrad.scratch)  # chapter 1's graph, built with this chapter's engine
preview_steps = glassgrad.scratch.backward(preview["L"])
