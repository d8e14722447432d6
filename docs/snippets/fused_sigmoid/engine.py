import math

from glassgrad.scratch import (ParentLink, Value, add, backward,
                               dependency_safe_order, multiply, square,
                               subtract)
from glassgrad.viz import (draw_graph, show, show_backward_steps,
                           side_by_side_graphs)
