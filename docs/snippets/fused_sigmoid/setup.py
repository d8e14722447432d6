# Chapter 3's imports and one helper; run hidden at the top of the page.
import inspect
import math

from glassgrad import backward, exponential, negate, plus_one, reciprocal, sigmoid
from glassgrad.examples import SIGMOID_INPUTS, sigmoid_neuron
from glassgrad.torch_reference import compare
from glassgrad.torch_reference import sigmoid_neuron as torch_sigmoid_neuron
from glassgrad.viz import draw_graph, legend, show_backward_steps


def engine_source(obj) -> str:
    """The current source of `obj` from src/glassgrad, as a Markdown code fence titled with its file."""
    path = inspect.getsourcefile(obj).replace("\\", "/")
    path = "src/glassgrad/" + path.rsplit("/glassgrad/", 1)[1]
    return f'````python title="{path}"\n{inspect.getsource(obj).rstrip()}\n````\n'
