# Chapter 3's imports; run hidden at the top of the page (engine_source comes from docs/snippets/engine_source.py).
import math

from glassgrad import backward, exponential, negate, plus_one, reciprocal, sigmoid
from glassgrad.examples import SIGMOID_INPUTS, sigmoid_neuron
from glassgrad.torch_reference import compare
from glassgrad.torch_reference import sigmoid_neuron as torch_sigmoid_neuron
from glassgrad.viz import draw_graph, legend, show_backward_steps
