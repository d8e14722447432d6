import math


class Dual:
    """A number with its tangent: how fast it moves when an input moves."""

    def __init__(self, value, tangent=0.0):
        self.value = value
        self.tangent = tangent

    def __add__(self, other):  # (u + v)' = u' + v'
        return Dual(self.value + other.value, self.tangent + other.tangent)

    def __mul__(self, other):  # (u·v)' = u'·v + u·v'
        return Dual(self.value * other.value,
                    self.tangent * other.value + self.value * other.tangent)

    def __repr__(self):
        return f"Dual({self.value:g}, tangent {self.tangent:g})"


def sigmoid(u):  # σ'(z) = σ(z)·(1 − σ(z))
    s = 1 / (1 + math.exp(-u.value))
    return Dual(s, s * (1 - s) * u.tangent)
