import math

from glassgrad.scratch import ParentLink, Value


def tanh(u, label=""):
    t = math.tanh(u.data)
    dt_du = 1.0 - t * t   # 1 - t²
    return Value(t, label,
                 parents=(ParentLink(u, dt_du),),
                 op="tanh")
