from glassgrad.scratch import ParentLink, Value


def power(u, k, label=""):
    """u ** k for a constant number k (k is a plain number, not a Value)."""
    p = u.data ** k
    dp_du = 0.0   # ∂p/∂u = ?
    return Value(p, label,
                 parents=(ParentLink(u, dp_du),),
                 op=f"**{k:g}")
