import math

from glassgrad.scratch import ParentLink, Value


def sigmoid(u, label=""):
    s = 1.0 / (1.0 + math.exp(-u.data))
    return Value(s, label,
                 parents=(ParentLink(u, s * (1.0 - s)),),   # ∂s/∂u = s(1 - s)
                 op="σ")
