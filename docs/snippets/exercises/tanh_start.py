import math

from glassgrad.scratch import ParentLink, Value


def tanh(u, label=""):
    t = math.tanh(u.data)
    return Value(t, label,
                 parents=(ParentLink(u, 0.0),),   # ∂t/∂u = ? (use t)
                 op="tanh")
