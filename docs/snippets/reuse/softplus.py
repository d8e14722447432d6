import math

from glassgrad import ParentLink, Value


def softplus(u, label=""):
    """log(1 + exp(u)); local derivative sigmoid(u)."""
    u = u if isinstance(u, Value) else Value(u)
    z = u.data
    # Stable: never exp of a large positive number.
    out = max(z, 0.0) + math.log1p(math.exp(-abs(z)))
    if z >= 0:
        local = 1.0 / (1.0 + math.exp(-z))
    else:
        local = math.exp(z) / (1.0 + math.exp(z))
    return Value(out, label, (ParentLink(u, local),), "softplus")
