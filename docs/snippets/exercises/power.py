from glassgrad.scratch import ParentLink, Value


def power(u, k, label=""):
    """u ** k for a constant number k (k is a plain number, not a Value)."""
    p = u.data ** k
    return Value(p, label,
                 parents=(ParentLink(u, k * u.data ** (k - 1)),),   # ∂p/∂u = k·u^(k-1)
                 op=f"**{k:g}")
