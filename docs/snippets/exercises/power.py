from glassgrad.scratch import ParentLink, Value


def power(u, k, label=""):
    """u ** k for a constant number k (k is a plain number, not a Value)."""
    p = u.data ** k
    dp_du = k * u.data ** (k - 1)   # k·u^(k-1)
    return Value(p, label,
                 parents=(ParentLink(u, dp_du),),
                 op=f"**{k:g}")
