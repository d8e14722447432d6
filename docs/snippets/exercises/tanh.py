import math

from glassgrad.scratch import ParentLink, Value


def tanh(u, label=""):
    t = math.tanh(u.data)
    return Value(t, label,
                 parents=(ParentLink(u, 1.0 - t * t),),   # ∂t/∂u = 1 - t²
                 op="tanh")
