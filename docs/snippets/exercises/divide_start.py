from glassgrad.scratch import ParentLink, Value


def divide(u, v, label=""):
    q = u.data / v.data
    dq_du = 0.0   # ∂q/∂u = ?
    dq_dv = 0.0   # ∂q/∂v = ?
    return Value(q, label,
                 parents=(ParentLink(u, dq_du),
                          ParentLink(v, dq_dv)),
                 op="/")
