from glassgrad import Value

u, v = Value(2.0, "u"), Value(0.5, "v")
made = {
    "u + v": u + v,
    "u - v": u - v,
    "u * v": u * v,
    "u / v": u / v,
    "u ** 3": u ** 3,
    "-u": -u,
    "2 * u": 2 * u,
    "u.relu()": u.relu(),
    "u.exp()": u.exp(),
    "u.log()": u.log(),
    "u.sigmoid()": u.sigmoid(),
    "u.tanh()": u.tanh(),
}


def name(value):
    """A leaf's label, or its number if it has none (the 2 of 2 * u)."""
    return value.label or f"{value.data:g}"


print("| you write | op | data | local derivatives saved |")
print("| --- | :---: | ---: | --- |")
for text, result in made.items():
    links = ", ".join(f"∂/∂{name(link.value)} = {link.local_grad:.4g}"
                      for link in result.parents)
    print(f"| `{text}` | {result.op} | {result.data:.4g} | {links} |")
