"""Benchmark glassgrad against micrograd and PyTorch scalar tensors (`make bench`), with pyperf.

pyperf spawns the workers, calibrates and computes the statistics; each benchmark runs in fresh
processes that import one engine only (what a process holds changes what the cycle collector
traverses; the collector stays on, as it is part of the real cost). Workloads, the same code for
every engine: a training step of a ReLU MLP 16 -> 32 -> 1 over 64 points (about 73,000 nodes:
forward, backward, drop the graph); the lab's training step, each engine with its own `nn.MLP`:
MLP(2, [16, 16, 1]) on 100 two-moons points, hinge loss + 1e-4·L2, full batch (micrograd's demo); a chain of
100,000 ReLU nodes next to a plain-Python chain
with no autograd (the floor); and, in a fresh process per engine, the collector's tracked objects
per MLP node and its full collections during the chain.

Usage: `python scripts/bench.py` (add `--quick` for tiny sizes, `-o results.json` to keep pyperf's data,
`--record FILE` to also write the tables, with the machine and the date, to FILE: `make bench` records them in
docs/snippets/made_fast/bench.md, which the page "the same engine, made fast" shows).
"""

from __future__ import annotations

import datetime
import json
import math
import os
import platform
import random
import subprocess
import sys
import time

QUICK = "--quick" in sys.argv
N_IN, N_HIDDEN, N_POINTS, CHAIN = (4, 8, 4, 2_000) if QUICK else (16, 32, 64, 100_000)
MLP_ENGINES = {
    "glassgrad": "glassgrad `L.backward()`",
    "glassgrad-steps": "glassgrad `backward(L)` (steps recorded)",
    "micrograd": "micrograd 0.1.0",
    "torch": "PyTorch scalar tensors (float64)",
}
CHAIN_ENGINES = {"glassgrad": "glassgrad", "torch": "PyTorch scalar tensors", "plain": "plain Python, no autograd"}
TARGETS = (("micrograd", 4.0), ("torch", 2.5))  # glassgrad must be at least this many times as fast
MOONS_POINTS, MOONS_LAYERS = (10, [4, 4, 1]) if QUICK else (100, [16, 16, 1])
MOONS_ENGINES = {"glassgrad": "glassgrad `nn.MLP`", "micrograd": "micrograd 0.1.0 `nn.MLP`"}
MOONS_TARGET = 20.0  # the lab's training step: glassgrad at least this many times as fast as micrograd


class Plain:
    """The chain's floor: one slotted object per node, its number and the node before it."""

    __slots__ = ("data", "grad", "previous")

    def __init__(self, data, previous=None):
        self.data, self.grad, self.previous = data, 0.0, previous

    def relu(self):
        return Plain(self.data if self.data > 0.0 else 0.0, self)

    def backward(self):
        node = self
        while node is not None:  # one visit per node, back to the leaf, without the calculus
            node.grad = 1.0
            node = node.previous


def engine(key):
    """(make a parameter, wrap a constant, run backward, clear grads) for one engine, imported here only."""
    if key.startswith("glassgrad"):
        import glassgrad

        run = glassgrad.backward if key == "glassgrad-steps" else (lambda loss: loss.backward())
        return glassgrad.Value, glassgrad.Value, run, lambda params: None  # backward clears by itself
    if key == "micrograd":
        from micrograd.engine import Value

        def zero(params):
            for p in params:
                p.grad = 0

        return Value, Value, lambda loss: loss.backward(), zero
    if key == "torch":
        import torch

        torch.set_num_threads(1)  # scalar work: threads only add hand-off cost

        def zero(params):
            for p in params:
                p.grad = None

        def parameter(x):
            return torch.tensor(x, dtype=torch.float64, requires_grad=True)

        return parameter, lambda x: torch.tensor(x, dtype=torch.float64), lambda loss: loss.backward(), zero
    return Plain, Plain, lambda root: root.backward(), lambda params: None


def mlp_data():
    """The same points, targets and initial weights for every engine."""
    rng = random.Random(1234)
    points = [[rng.uniform(-1, 1) for _ in range(N_IN)] for _ in range(N_POINTS)]
    targets = [rng.uniform(-1, 1) for _ in range(N_POINTS)]
    weights = [rng.uniform(-1, 1) / N_IN**0.5 for _ in range(N_HIDDEN * (N_IN + 1) + N_HIDDEN + 1)]
    return points, targets, weights


def mlp_loss(constant, params, points, targets):
    """Squared error of a ReLU MLP N_IN -> N_HIDDEN -> 1, summed over the points (micrograd style)."""
    stride = N_IN + 1
    hidden = [(params[k * stride : k * stride + N_IN], params[k * stride + N_IN]) for k in range(N_HIDDEN)]
    out_weights, out_bias = params[N_HIDDEN * stride : -1], params[-1]
    loss = None
    for point, target in zip(points, targets):
        xs = [constant(x) for x in point]
        acts = [sum((w * x for w, x in zip(ws, xs)), b).relu() for ws, b in hidden]
        error = (sum((w * a for w, a in zip(out_weights, acts)), out_bias) - target) ** 2
        loss = error if loss is None else loss + error
    return loss


def bench_mlp(loops, key):
    parameter, constant, backward, zero = engine(key)
    points, targets, weights = mlp_data()
    params = [parameter(w) for w in weights]
    started = time.perf_counter()
    for _ in range(loops):
        zero(params)
        loss = mlp_loss(constant, params, points, targets)
        backward(loss)
        del loss  # dropping the graph is part of the step
    return time.perf_counter() - started


def moons_data():
    """Two noisy half-moons, labels -1 (upper) and +1 (lower); made here, so no process imports another engine."""
    rng = random.Random(0)
    points, labels = [], []
    half = MOONS_POINTS // 2
    for i in range(MOONS_POINTS):
        t = math.pi * (i % half) / (half - 1)
        upper = i < half
        x, y = (math.cos(t), math.sin(t)) if upper else (1.0 - math.cos(t), 0.5 - math.sin(t))
        points.append([x + rng.gauss(0.0, 0.1), y + rng.gauss(0.0, 0.1)])
        labels.append(-1 if upper else 1)
    return points, labels


def bench_moons(loops, key):
    """One training step of micrograd's demo, in each engine's own `nn`: forward, hinge + L2, backward, update."""
    if key == "micrograd":
        from micrograd.nn import MLP
    else:
        from glassgrad.nn import MLP
    random.seed(1337)  # both draw the initial weights from the global generator, in the same order
    model = MLP(2, MOONS_LAYERS)
    params = model.parameters()
    points, labels = moons_data()
    started = time.perf_counter()
    for _ in range(loops):
        scores = [model(point) for point in points]
        hinge = [(1 + -label * score).relu() for label, score in zip(labels, scores)]
        loss = sum(hinge) * (1.0 / len(hinge)) + 1e-4 * sum(p * p for p in params)
        model.zero_grad()
        loss.backward()
        for p in params:
            p.data -= 0.01 * p.grad
        del loss, scores, hinge  # dropping the graph is part of the step
    return time.perf_counter() - started


def bench_chain(loops, key):
    parameter, _, backward, _ = engine(key)
    started = time.perf_counter()
    for _ in range(loops):
        node = parameter(1.5)
        for _ in range(CHAIN):
            node = node.relu()
        backward(node)
        del node
    return time.perf_counter() - started


def counters(key):
    """The cycle collector's view of one engine, in this (fresh) process."""
    import gc

    parameter, constant, backward, _ = engine(key)
    nodes = None
    if key != "plain":  # the plain chain has no arithmetic: no MLP
        points, targets, weights = mlp_data()
        gc.collect()
        before = len(gc.get_objects())
        params = [parameter(w) for w in weights]
        loss = mlp_loss(constant, params, points, targets)
        backward(loss)
        gc.collect()
        tracked = len(gc.get_objects()) - before
        nodes = graph_size(loss)
        del loss, params
    full_before = gc.get_stats()[2]["collections"]
    try:
        bench_chain(1, key)
        chain = gc.get_stats()[2]["collections"] - full_before
    except RecursionError:
        chain = "fails: RecursionError"
    per_node = round(tracked / nodes, 2) if nodes else "n/a (graph in C++)"
    return {"tracked_per_node": per_node, "full_collections_in_chain": chain}


def graph_size(root):
    """How many values the graph behind `root` holds (None for PyTorch, whose graph lives in C++)."""
    if type(root).__module__.startswith("torch"):
        return None
    operands = (
        (lambda v: v._prev)
        if type(root).__module__.startswith("micrograd")
        else (lambda v: [link.value for link in v.parents])
    )
    seen, stack = {id(root)}, [root]
    while stack:
        for parent in operands(stack.pop()):
            if id(parent) not in seen:
                seen.add(id(parent))
                stack.append(parent)
    return len(seen)


def fresh_counters(key):
    out = subprocess.run(
        [sys.executable, __file__, "--counters", key] + (["--quick"] if QUICK else []),
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return json.loads(out)


def report(mlp, chain, moons):
    """The tables: times side by side, the collector's counters, and the targets (printed; returned as text too)."""
    lines: list[str] = []
    out = lines.append
    base = mlp["glassgrad"].median()
    out(f"\n**MLP {N_IN} → {N_HIDDEN} → 1 over {N_POINTS} points**, one training step (forward + backward + free):\n")
    out("| engine | median ms | × glassgrad | tracked objects per node |\n| --- | ---: | ---: | ---: |")
    for key, name in MLP_ENGINES.items():
        seen = fresh_counters(key)["tracked_per_node"] if key != "glassgrad-steps" else ""
        out(f"| {name} | {mlp[key].median() * 1e3:,.1f} | {mlp[key].median() / base:.2f}× | {seen} |")
    out(
        f"\n**MLP(2, {MOONS_LAYERS}) on {MOONS_POINTS} two-moons points**, the lab's training step "
        "(hinge + 1e-4·L2, full batch: forward, backward, update), each engine's own `nn.MLP`:\n"
    )
    out("| engine | median ms | × glassgrad |\n| --- | ---: | ---: |")
    for key, name in MOONS_ENGINES.items():
        out(f"| {name} | {moons[key].median() * 1e3:,.1f} | {moons[key].median() / moons['glassgrad'].median():.2f}× |")
    out(f"\n**A chain of {CHAIN:,} ReLU nodes**, build + backward:\n")
    out("| engine | median ms | × plain Python | full collections |\n| --- | ---: | ---: | ---: |")
    for key, name in CHAIN_ENGINES.items():
        full = fresh_counters(key)["full_collections_in_chain"]
        out(
            f"| {name} | {chain[key].median() * 1e3:,.1f} | {chain[key].median() / chain['plain'].median():.2f}× | {full} |"
        )
    out(f"| micrograd 0.1.0 | {fresh_counters('micrograd')['full_collections_in_chain']} | | |")
    out("\n| target | measured | result |\n| --- | ---: | --- |")
    failed = False
    for key, wanted in TARGETS:
        ratio = mlp[key].median() / base
        failed |= ratio < wanted
        out(
            f"| MLP: glassgrad ≥ {wanted:g}× faster than {MLP_ENGINES[key]} | {ratio:.2f}× | "
            f"{'PASS' if ratio >= wanted else 'FAIL'} |"
        )
    ratio = moons["micrograd"].median() / moons["glassgrad"].median()
    failed |= ratio < MOONS_TARGET
    out(
        f"| two moons, MLP(2, {MOONS_LAYERS}): glassgrad ≥ {MOONS_TARGET:g}× faster than micrograd 0.1.0 | "
        f"{ratio:.2f}× | {'PASS' if ratio >= MOONS_TARGET else 'FAIL'} |"
    )
    text = "\n".join(lines)
    print(text)
    return (1 if failed and not QUICK else 0), text


def main():
    if "--counters" in sys.argv:
        print(json.dumps(counters(sys.argv[sys.argv.index("--counters") + 1])))
        return 0
    import pyperf

    options = (
        {"processes": 1, "values": 1, "warmups": 0, "loops": 1}
        if QUICK
        else {"processes": 4, "values": 3, "warmups": 1}
    )

    def keep_quick(cmd, args):
        if QUICK:
            cmd.append("--quick")

    runner = pyperf.Runner(add_cmdline_args=keep_quick, **options)
    runner.argparser.add_argument("--quick", action="store_true", help="tiny sizes, one process each")
    runner.argparser.add_argument(
        "--record", metavar="FILE", help="also write the tables, with the machine and the date, to FILE"
    )
    mlp = {key: runner.bench_time_func(f"mlp {key}", bench_mlp, key) for key in MLP_ENGINES}
    chain = {key: runner.bench_time_func(f"chain {key}", bench_chain, key) for key in CHAIN_ENGINES}
    moons = {key: runner.bench_time_func(f"moons {key}", bench_moons, key) for key in MOONS_ENGINES}
    if runner.args.worker:
        return 0
    status, tables = report(mlp, chain, moons)
    if runner.args.record:
        with open(runner.args.record, "w", encoding="utf-8") as record:
            record.write(f"{machine()}\n{tables}\n")
    return status


def machine():
    """One line for the record: the date, the processor, its cores and the Python that ran the benchmark."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            cpu = next(line.split(":", 1)[1].strip() for line in info if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    date = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")
    return (
        f"Recorded by `make bench` on {date}: {cpu}, {os.cpu_count()} cores, {platform.system()}, "
        f"Python {platform.python_version()}{', quick sizes' if QUICK else ''}."
    )


if __name__ == "__main__":
    sys.exit(main())
