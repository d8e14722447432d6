from glassgrad.scratch import ParentLink, Value


def divide(u, v, label=""):
    q = u.data / v.data
    return Value(q, label,
                 parents=(ParentLink(u, 0.0),    # ∂q/∂u = ?
                          ParentLink(v, 0.0)),   # ∂q/∂v = ?
                 op="/")
