from glassgrad import ParentLink, Value, backward, sigmoid
from glassgrad import exponential, negate, plus_one, reciprocal


def atomic_sigmoid(z):
    """σ as four small nodes: n = −z, q = exp(n), d = 1 + q, s = 1/d."""
    return reciprocal(plus_one(exponential(negate(z, "n"), "q"), "d"), "s")


def fused_sigmoid(z):
    """glassgrad's node: a stable forward formula, local derivative s(1 − s)."""
    return sigmoid(z, "s")


def complementary_sigmoid(z):
    """A fused node whose local derivative is σ(z)·σ(−z): no 1 − s anywhere."""
    s = sigmoid(z.data).data
    s_mirror = sigmoid(-z.data).data  # σ(−z) = 1 − σ(z), without subtracting
    return Value(s, "s", (ParentLink(z, s * s_mirror),), "σ")


FORMS = {
    "atomic": atomic_sigmoid,
    "fused": fused_sigmoid,
    "complementary": complementary_sigmoid,
}


def run(form, z):
    """(σ(z), dσ/dz) as glassgrad computes them with one of the three forms."""
    leaf = Value(z, "z")
    s = FORMS[form](leaf)
    backward(s, record=False)
    return s.data, leaf.grad
