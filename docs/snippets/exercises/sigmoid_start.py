import math

from glassgrad.scratch import ParentLink, Value


def sigmoid(z, label=""):
    s = 1.0 / (1.0 + math.exp(-z.data))
    ds_dz = s * s   # this has a bug
    return Value(s, label,
                 parents=(ParentLink(z, ds_dz),),
                 op="σ")
