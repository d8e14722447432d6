"""Pictures and cards for glassgrad graphs: inline SVG and HTML fragments built from live objects.

The graph drawings need the graphviz package and Graphviz's ``dot``, the plots matplotlib
(``pip install "glassgrad[viz]"``); each is imported only when a figure needs it, and the engine
core never imports them. Every function returns an `HtmlFragment`: ``print(fragment)`` in a
markdown-exec block with ``html="1"``, or leave it as the last expression of a Jupyter cell; `show(fragment)`
displays it in Jupyter and, in plain Python, writes it to an HTML page to open in a browser.
Outside the site, add `stylesheet()` once for the colours.

Graph figures carry stable element ids (``{prefix}-node-{i}``, ``{prefix}-edge-{i}-{k}``, ...: ``i`` is the
position in ``dependency_safe_order(root)``, ``k`` the link), documented in `glassgrad.viz.graph`. `GraphIds`
computes them without drawing, a `GraphFigure` carries its own, and trace cards drawn with ``graph=`` name them.

To fit a phone, draw a graph top to bottom (``draw_graph(root, rankdir="TB")``); `glassgrad.viz.layout` places
figures: two graphs side by side at one scale, one rendering per screen width, a tall graph beside its trace.
"""

from glassgrad.viz.animate import PlayerFragment, animate_backward, animate_order, side_by_side
from glassgrad.viz.cards import show_backward_steps, show_complete_state
from glassgrad.viz.figures import order_violations, show_dependency_order, show_order_walk, show_parent_link
from glassgrad.viz.forward import animate_forward
from glassgrad.viz.graph import GraphFigure, GraphIds, draw_graph
from glassgrad.viz.html import HtmlFragment, escape, legend, stylesheet
from glassgrad.viz.html import fmt as fmt  # for the site's own code
from glassgrad.viz.html import stylesheet_text as stylesheet_text
from glassgrad.viz.layout import beside, collapsed, side_by_side_graphs, wide_or_narrow
from glassgrad.viz.plot import decision_boundary, line_plot
from glassgrad.viz.showing import show, show_with

__all__ = [
    "GraphFigure",
    "GraphIds",
    "HtmlFragment",
    "PlayerFragment",
    "animate_backward",
    "animate_forward",
    "animate_order",
    "beside",
    "collapsed",
    "draw_graph",
    "escape",
    "legend",
    "line_plot",
    "decision_boundary",
    "order_violations",
    "show",
    "show_backward_steps",
    "show_complete_state",
    "show_dependency_order",
    "show_order_walk",
    "show_parent_link",
    "show_with",
    "side_by_side",
    "side_by_side_graphs",
    "stylesheet",
    "wide_or_narrow",
]
