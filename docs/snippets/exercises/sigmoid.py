import math

from glassgrad.scratch import ParentLink, Value


def sigmoid(z, label=""):
    s = 1.0 / (1.0 + math.exp(-z.data))
    return Value(s, label,
                 parents=(ParentLink(z, s * (1.0 - s)),),   # ∂s/∂z = s(1 - s)
                 op="σ")
