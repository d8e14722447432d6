import math

from glassgrad.scratch import ParentLink, Value


def sigmoid(z, label=""):
    s = 1.0 / (1.0 + math.exp(-z.data))
    return Value(s, label,
                 parents=(ParentLink(z, s * s),),   # this local derivative has a bug
                 op="σ")
