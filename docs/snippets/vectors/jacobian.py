from glassgrad import trace_jvp

inputs, outputs = [w, x, b], [p, q]

rows, reverse_updates = [], 0
for j in range(len(outputs)):  # reverse: one pass per output, 1 on output j
    unit = [1.0 if k == j else 0.0 for k in range(len(outputs))]
    reverse_updates += len(backward(outputs, gradient=unit))
    rows.append([leaf.grad for leaf in inputs])

columns, forward_updates = [], 0
for leaf in inputs:  # forward: one pass per input, 1 on that input
    steps = trace_jvp(outputs, {leaf: 1.0})
    columns.append([steps.tangents[output] for output in outputs])
    forward_updates += len(steps)

print(f"reverse mode: {len(rows)} passes, {reverse_updates} link updates,",
      "row by row:")
for row in rows:
    print("   ", row)
print(f"forward mode: {len(columns)} passes, {forward_updates} link updates,",
      "column by column:")
for column in columns:
    print("   ", column)
