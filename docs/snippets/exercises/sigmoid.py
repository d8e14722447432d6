import math

from glassgrad.scratch import ParentLink, Value


def sigmoid(z, label=""):
    s = 1.0 / (1.0 + math.exp(-z.data))
    ds_dz = s * (1.0 - s)   # s(1 - s)
    return Value(s, label,
                 parents=(ParentLink(z, ds_dz),),
                 op="σ")
