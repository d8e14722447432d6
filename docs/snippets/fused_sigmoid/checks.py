# 1. Every node the two graphs share has the same value and the same gradient.
shared = [name for name in fused if name in atomic]
for name in shared:
    assert math.isclose(fused[name].data, atomic[name].data), name
    assert math.isclose(fused[name].grad, atomic[name].grad), name

# 2. Backward visited the edges in the expected order.
def edges(steps):
    return [(step.output.label, step.parent.label) for step in steps]

assert edges(fused_steps) == [
    ("L", "e"), ("e", "s"), ("e", "y"), ("s", "z"),
    ("z", "m"), ("z", "b"), ("m", "w"), ("m", "x"),
]
assert edges(atomic_steps) == [
    ("L", "e"), ("e", "s"), ("e", "y"), ("s", "d"),
    ("d", "q"), ("q", "n"), ("n", "z"), ("z", "m"),
    ("z", "b"), ("m", "w"), ("m", "x"),
]

# 3. The fused local derivative is the product of the four atomic ones.
fused_local = next(step.local for step in fused_steps
                   if step.output.label == "s")
atomic_locals = [step.local for step in atomic_steps
                 if step.output.label in {"s", "d", "q", "n"}]
assert math.isclose(math.prod(atomic_locals), fused_local)

print("✓ fused and atomic agree on", len(shared), "shared nodes")
print("  sigmoid local:", len(atomic_locals), "atomic factors =",
      fused_local, "= 1 fused factor")
final = [f"{name} = {fused[name].grad:g}" for name in ("w", "x", "b", "y")]
print("  final gradients:", ", ".join(final))
