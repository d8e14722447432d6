from glassgrad.scratch import ParentLink, Value


def divide(u, v, label=""):
    q = u.data / v.data
    return Value(q, label,
                 parents=(ParentLink(u, 1.0 / v.data),                  # ∂q/∂u = 1/v
                          ParentLink(v, -u.data / (v.data * v.data))),  # ∂q/∂v = -u/v²
                 op="/")
