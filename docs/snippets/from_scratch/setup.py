# Chapter 2's other figures: glassgrad.viz draws any graph of Values from their
# public fields (data, grad, label, op, parents), so it draws this page's engine.
from glassgrad.viz import (animate_order, beside, collapsed, draw_graph, legend,
                           show_backward_steps, show_complete_state,
                           show_dependency_order, show_order_walk,
                           show_parent_link)
from glassgrad.viz.graph import walk
