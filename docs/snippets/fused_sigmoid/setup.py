# Chapter 3's figures: glassgrad.viz draws any graph of Values from their public fields.
from glassgrad.viz import animate_backward, animate_order, draw_graph, legend, show_backward_steps, side_by_side
