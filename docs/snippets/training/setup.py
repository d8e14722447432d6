# Page set-up (not shown): imports and the two helpers the checks and figures below use.
from glassgrad import Value, add, backward, dependency_safe_order, multiply
from glassgrad.examples import SIGMOID_INPUTS, sigmoid_neuron
from glassgrad.viz import draw_graph, wide_or_narrow
from glassgrad.viz.plot import Series, decision_boundary, line_plot


def max_relative_gap(ours, theirs):
    """Largest |a - b| / max(|a|, |b|) over two equally long lists of numbers (0 for equal lists)."""
    assert len(ours) == len(theirs), (len(ours), len(theirs))
    return max((abs(a - b) / max(abs(a), abs(b)) if a != b else 0.0) for a, b in zip(ours, theirs))


def loss_figure(ours, theirs, *, title):
    """Both runs' loss per step on a log axis: glassgrad solid, PyTorch dashed on top of it."""
    return line_plot(
        [
            Series("glassgrad", list(enumerate(ours))),
            Series("PyTorch (float64)", list(enumerate(theirs)), dashed=True),
        ],
        x_label="step",
        y_label="loss (before the step's update)",
        log_y=True,
        title=title,
    )
