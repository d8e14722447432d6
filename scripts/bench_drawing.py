"""Drawing at its limits (`make bench`): dense random DAGs up to the largest `draw_graph` accepts, with times.

A dense DAG: each new value combines the previous one with a random earlier one (× or +), so edges
span many ranks, the case Graphviz's layout is slowest on. For each size: values, links, layout nodes
(`glassgrad.viz.graph.layout_cost`), wall seconds, Graphviz's CPU seconds and the HTML size; then the
largest graph of the other figures, and how long refusing a graph of 1.5 million values takes.
Every accepted graph should draw within about 10 s on 2 cores. Usage: `python scripts/bench_drawing.py [--quick]`.
"""

from __future__ import annotations

import random
import resource
import sys
import time

from glassgrad import Value
from glassgrad.viz import animate_order, draw_graph, show_order_walk
from glassgrad.viz.graph import MAX_LAYOUT, layout_cost, walk

QUICK = "--quick" in sys.argv


def dense_dag(values: int, seed: int = 0) -> Value:
    rng = random.Random(seed)
    nodes = [Value(rng.uniform(-1.0, 1.0), f"x{i}") for i in range(4)]
    while len(nodes) < values:
        earlier = rng.choice(nodes)
        nodes.append(nodes[-1] * earlier if rng.random() < 0.5 else nodes[-1] + earlier)
    return nodes[-1]


def largest_dense_dag() -> int:
    """The most values a dense DAG (seed 0) may have within draw_graph's layout limit (bisection)."""
    low, high = 4, 1000
    while low < high:
        middle = (low + high + 1) // 2
        if layout_cost(walk(dense_dag(middle))) <= MAX_LAYOUT:
            low = middle
        else:
            high = middle - 1
    return low


def cpu() -> tuple[float, float]:
    """(this process's CPU seconds, its finished children's: Graphviz's dot)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


def timed(draw, root) -> str:
    """Wall seconds, CPU seconds (Python and Graphviz: what a busy machine cannot inflate), Graphviz's share, MB."""
    (own, children), start = cpu(), time.perf_counter()
    html = str(draw(root))
    wall, (own_after, children_after) = time.perf_counter() - start, cpu()
    graphviz = children_after - children
    return f"{wall:7.2f} {own_after - own + graphviz:6.2f} {graphviz:11.2f} {len(html) / 1e6:8.2f}"


def main() -> None:
    print(
        "Drawing dense random DAGs (seconds on this machine; CPU counts Python and Graphviz's dot, Graphviz dot alone)"
    )
    print(
        f"{'values':>7} {'links':>6} {'layout nodes':>13} {'wall s':>7} {'CPU s':>6} {'Graphviz s':>11} {'HTML MB':>8}"
    )
    largest = largest_dense_dag()
    sizes = [25, 50] if QUICK else sorted({25, 50, 100, 150, 200, 250, largest})
    for size in sizes:
        root = dense_dag(size)
        order = walk(root)
        links = sum(len(node.parents) for node in order)
        print(f"{len(order):7} {links:6} {layout_cost(order):13,} {timed(draw_graph, root)}")
    try:
        draw_graph(dense_dag(largest + 1))
        print(f"  {largest + 1} values: drawn, although past the layout limit (unexpected)")
    except ValueError:
        print(f"  {largest + 1} values: refused (layout limit {MAX_LAYOUT:,})")

    print("\nOther figures at their default limits")
    print(f"{'figure':>30} {'wall s':>7} {'CPU s':>6} {'Graphviz s':>11} {'HTML MB':>8}")
    for name, draw, root in [
        ("draw_graph, 999-value sum", draw_graph, sum((Value(float(i)) for i in range(499)), Value(0.0))),
        ("animate_order, 100 values", animate_order, dense_dag(100)),
        ("show_order_walk, 300 values", show_order_walk, dense_dag(300)),
    ]:
        print(f"{name:>30} {timed(draw, root)}")

    steps = 10_000 if QUICK else 750_000
    node = Value(0.0, "x")
    for _ in range(steps):
        node = node + 1.0  # a chain: each step adds a sum and a constant leaf
    start = time.perf_counter()
    try:
        draw_graph(node)
    except ValueError:
        pass
    print(f"\nRefusing a graph of {2 * steps + 1:,} values: {time.perf_counter() - start:.3f} s")


if __name__ == "__main__":
    main()
