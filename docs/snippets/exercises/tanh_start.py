import math

from glassgrad.scratch import ParentLink, Value


def tanh(u, label=""):
    t = math.tanh(u.data)
    dt_du = 0.0   # ∂t/∂u = ? (use t)
    return Value(t, label,
                 parents=(ParentLink(u, dt_du),),
                 op="tanh")
