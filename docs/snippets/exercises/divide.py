from glassgrad.scratch import ParentLink, Value


def divide(u, v, label=""):
    q = u.data / v.data
    dq_du = 1.0 / v.data                    # 1/v
    dq_dv = -u.data / (v.data * v.data)     # -u/v²
    return Value(q, label,
                 parents=(ParentLink(u, dq_du),
                          ParentLink(v, dq_dv)),
                 op="/")
