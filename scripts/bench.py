"""Benchmark glassgrad against micrograd and PyTorch scalar autograd (`make bench`).

Each measurement runs in a fresh subprocess of its own: what else a process has imported
(torch above all) changes what Python's cycle collector must traverse on large graphs.
The cycle collector stays on, because it is part of the real cost of building a graph.
Times are process CPU time (the machine may be shared), medians of repeated runs.

Workloads, the same source code for every engine:

1. a ReLU MLP 16 -> 32 -> 1 over 64 points, squared error summed (about 73,000 nodes):
   training-loop steps of forward (graph build), backward and free; for glassgrad both
   `L.backward()` and `glassgrad.backward(L)` (every chain-rule step recorded);
2. chains of ReLU nodes, 10^3 to 10^6 long: build + backward time and peak resident memory, next to a
   plain-Python baseline chain (no autograd) that shows how this machine alone scales;
3. bytes per node of the MLP graph (tracemalloc), glassgrad against micrograd.

Run `python scripts/bench.py` (writes the tables into README.md between the bench markers),
`--quick` for tiny sizes (never writes README.md), `--no-readme` to only print.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
START_MARKER = "<!-- bench:start -->"
END_MARKER = "<!-- bench:end -->"

# Engine keys, in table order, with the name printed for each.
ENGINES = {
    "glassgrad": "glassgrad `L.backward()`",
    "glassgrad-steps": "glassgrad `backward(L)` (steps recorded)",
    "micrograd": "micrograd 0.1.0",
    "torch": "PyTorch scalar tensors (float64)",
}
CHAIN_ENGINES = ("glassgrad", "micrograd", "torch", "plain")  # "plain": the no-autograd baseline below
MEMORY_ENGINES = ("glassgrad", "micrograd")
WORKER_TIMEOUT_S = 600
# Process CPU time, not wall time: the machine may be shared, and waiting for a core is not the engine's cost.
CLOCK = time.process_time


@dataclass(frozen=True)
class Sizes:
    """How big each workload is and how many timed runs give each median."""

    n_in: int
    n_hidden: int
    n_points: int
    mlp_rounds: int  # fresh processes per engine, the engines taking turns: load changes hit them all alike
    mlp_runs: int  # timed steps per process, after one warm-up step
    chains: tuple[int, ...]
    chain_rounds: int  # fresh processes per engine and length, taking turns like the MLP rounds
    chain_runs: int  # timed chains per process


FULL = Sizes(n_in=16, n_hidden=32, n_points=64, mlp_rounds=5, mlp_runs=3, chains=(10**3, 10**4, 10**5, 10**6), chain_rounds=3, chain_runs=3)
# The 2,000 chain is past micrograd's recursion limit, so --quick also exercises the failure cell.
QUICK = Sizes(n_in=4, n_hidden=8, n_points=4, mlp_rounds=2, mlp_runs=2, chains=(200, 2000), chain_rounds=2, chain_runs=2)


# --------------------------------------------------------------------------------------------
# Worker side: runs in a fresh process, imports one engine only, prints one JSON line.
# --------------------------------------------------------------------------------------------


@dataclass
class Engine:
    """The few calls that differ between engines; the model code itself is shared."""

    parameter: Callable[[float], Any]  # a leaf that needs a gradient
    constant: Callable[[float], Any]  # an input wrapped as a value (no gradient needed)
    backward: Callable[[Any], None]
    zero_grad: Callable[[list[Any]], None]
    grad: Callable[[Any], float]
    data: Callable[[Any], float]
    count_nodes: Callable[[Any], int] | None


def load_engine(key: str) -> Engine:
    """Import exactly one engine (so the process holds nothing else) and wrap it."""
    if key in ("glassgrad", "glassgrad-steps"):
        import glassgrad

        def zero_nothing(params: list[Any]) -> None:
            pass  # glassgrad's backward clears every reachable .grad itself

        if key == "glassgrad":
            backward = lambda loss: loss.backward()  # noqa: E731
        else:
            backward = lambda loss: glassgrad.backward(loss)  # noqa: E731
        return Engine(
            parameter=glassgrad.Value,
            constant=glassgrad.Value,
            backward=backward,
            zero_grad=zero_nothing,
            grad=lambda v: v.grad,
            data=lambda v: v.data,
            count_nodes=lambda root: len(glassgrad.dependency_safe_order(root)),
        )
    if key == "micrograd":
        from micrograd.engine import Value as MicroValue

        def zero_micro(params: list[Any]) -> None:
            for p in params:
                p.grad = 0  # micrograd accumulates into .grad across calls

        return Engine(
            parameter=MicroValue,
            constant=MicroValue,
            backward=lambda loss: loss.backward(),
            zero_grad=zero_micro,
            grad=lambda v: float(v.grad),
            data=lambda v: float(v.data),
            count_nodes=count_micrograd_nodes,
        )
    if key == "plain":
        return Engine(
            parameter=PlainNode,
            constant=PlainNode,
            backward=plain_backward,
            zero_grad=lambda params: None,
            grad=lambda v: v.grad,
            data=lambda v: v.data,
            count_nodes=None,
        )
    if key == "torch":
        import torch

        torch.set_num_threads(1)  # scalar work: threads only add hand-off cost

        def zero_torch(params: list[Any]) -> None:
            for p in params:
                p.grad = None

        return Engine(
            parameter=lambda x: torch.tensor(x, dtype=torch.float64, requires_grad=True),
            constant=lambda x: torch.tensor(x, dtype=torch.float64),
            backward=lambda loss: loss.backward(),
            zero_grad=zero_torch,
            grad=lambda v: v.grad.item(),
            data=lambda v: v.item(),
            count_nodes=None,
        )
    raise ValueError(f"unknown engine {key!r}")


class PlainNode:
    """The chain baseline: one slotted object per node, its number and the node before it; no autograd.

    Building it and walking back once is the least any Python graph engine does per node, so its
    growth from 10^5 to 10^6 nodes is what this machine's memory and cycle collector alone cost.
    """

    __slots__ = ("data", "grad", "previous")

    def __init__(self, data: float, previous: PlainNode | None = None) -> None:
        self.data, self.grad, self.previous = data, 0.0, previous

    def relu(self) -> PlainNode:
        return PlainNode(self.data if self.data > 0.0 else 0.0, self)


def plain_backward(root: PlainNode) -> None:
    """Visit every node once, from the root back to the leaf (a chain's whole backward, without the calculus)."""
    node: PlainNode | None = root
    while node is not None:
        node.grad = 1.0
        node = node.previous


def count_micrograd_nodes(root: Any) -> int:
    """Every micrograd Value reachable from `root` (iterative: the graph is deep)."""
    seen = {id(root)}
    stack = [root]
    while stack:
        node = stack.pop()
        for parent in node._prev:
            if id(parent) not in seen:
                seen.add(id(parent))
                stack.append(parent)
    return len(seen)


def make_mlp_data(sizes: Sizes) -> tuple[list[list[float]], list[float], list[float]]:
    """The same points, targets and initial weights for every engine (fixed seed)."""
    rng = random.Random(1234)
    points = [[rng.uniform(-1.0, 1.0) for _ in range(sizes.n_in)] for _ in range(sizes.n_points)]
    targets = [rng.uniform(-1.0, 1.0) for _ in range(sizes.n_points)]
    n_weights = sizes.n_hidden * (sizes.n_in + 1) + sizes.n_hidden + 1
    weights = [rng.uniform(-1.0, 1.0) / sizes.n_in**0.5 for _ in range(n_weights)]
    return points, targets, weights


def mlp_loss(engine: Engine, params: list[Any], points: list[list[float]], targets: list[float], sizes: Sizes) -> Any:
    """Squared error of a ReLU MLP n_in -> n_hidden -> 1, summed over the points (micrograd style)."""
    stride = sizes.n_in + 1
    hidden = [(params[k * stride : k * stride + sizes.n_in], params[k * stride + sizes.n_in]) for k in range(sizes.n_hidden)]
    out_start = sizes.n_hidden * stride
    out_weights, out_bias = params[out_start : out_start + sizes.n_hidden], params[-1]
    loss = None
    for point, target in zip(points, targets):
        xs = [engine.constant(x) for x in point]
        acts = [sum((w * x for w, x in zip(ws, xs)), b).relu() for ws, b in hidden]
        prediction = sum((w * a for w, a in zip(out_weights, acts)), out_bias)
        squared_error = (prediction - target) ** 2
        loss = squared_error if loss is None else loss + squared_error
    return loss


def time_mlp(key: str, sizes: Sizes, measure_memory: bool) -> dict[str, Any]:
    """Times of training-loop steps on the MLP: build, backward, drop the graph.

    No explicit collection between runs: the cycle collector runs when it would in a real
    loop, so a graph made of reference cycles (micrograd's closures) is paid for here too.
    One warm-up run first.
    """
    engine = load_engine(key)
    points, targets, weights = make_mlp_data(sizes)
    params = [engine.parameter(w) for w in weights]
    forward_s, backward_s, free_s = [], [], []
    for run in range(sizes.mlp_runs + 1):
        engine.zero_grad(params)
        t0 = CLOCK()
        loss = mlp_loss(engine, params, points, targets, sizes)
        t1 = CLOCK()
        engine.backward(loss)
        t2 = CLOCK()
        if run == sizes.mlp_runs:  # the last run's numbers, to check that every engine did the same work
            loss_value, grads = engine.data(loss), [engine.grad(p) for p in params]
            nodes = engine.count_nodes(loss) if engine.count_nodes else None
        t3 = CLOCK()
        del loss  # the graph goes: refcounting frees an acyclic graph here
        t4 = CLOCK()
        if run > 0:  # run 0 warms caches and the allocator
            forward_s.append(t1 - t0)
            backward_s.append(t2 - t1)
            free_s.append(t4 - t3)
    result: dict[str, Any] = {
        "forward_s": forward_s,
        "backward_s": backward_s,
        "free_s": free_s,
        "loss": loss_value,
        "grads": grads,
        "nodes": nodes,
    }
    if measure_memory:
        result["bytes_per_node"], result["tracked_per_node"] = mlp_memory_per_node(engine, sizes, points, targets, weights)
    return result


def mlp_memory_per_node(
    engine: Engine, sizes: Sizes, points: list[list[float]], targets: list[float], weights: list[float]
) -> tuple[float, float]:
    """Bytes (tracemalloc) and cycle-collector-tracked objects the MLP graph holds per node, after backward."""
    import tracemalloc

    gc.collect()
    tracked_before = len(gc.get_objects())
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    params = [engine.parameter(w) for w in weights]
    loss = mlp_loss(engine, params, points, targets, sizes)
    engine.backward(loss)
    held = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    gc.collect()  # drop temporaries the collector has not reached yet, so only the graph is counted
    tracked = len(gc.get_objects()) - tracked_before
    assert engine.count_nodes is not None
    nodes = engine.count_nodes(loss)
    return held / nodes, tracked / nodes


def reset_peak_rss() -> bool:
    """Reset the kernel's peak-RSS mark (Linux: write 5 to clear_refs); False if unsupported."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def rss_kib(field: str) -> int:
    """A memory field of this process from /proc/self/status (VmRSS, VmHWM), in KiB."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field} not in /proc/self/status")


def time_chain(key: str, length: int, runs: int) -> dict[str, Any]:
    """Build + backward times of `runs` chains of `length` ReLU nodes, their peak memory, and how many
    full collections Python's cycle collector ran in each (they, not the engine, grow faster than the chain)."""
    engine = load_engine(key)
    times: list[float] = []
    full_collections: list[int] = []
    peak_kib = 0
    for _ in range(runs):
        gc.collect()
        can_reset = reset_peak_rss()  # False off Linux: the memory cells then say n/a
        base_kib = rss_kib("VmRSS") if can_reset else 0
        full_before = gc.get_stats()[2]["collections"]
        t0 = CLOCK()
        leaf = engine.parameter(1.5)
        node = leaf
        for _ in range(length):
            node = node.relu()
        try:
            engine.backward(node)
        except RecursionError:
            return {"error": "RecursionError"}  # micrograd's recursive topological sort
        times.append(CLOCK() - t0)
        full_collections.append(gc.get_stats()[2]["collections"] - full_before)
        if engine.grad(leaf) != 1.0:
            raise AssertionError(f"{key}: chain gradient {engine.grad(leaf)} != 1")
        if can_reset:
            peak_kib = max(peak_kib, rss_kib("VmHWM") - base_kib)
        del node, leaf
    return {
        "times_ms": [1e3 * t for t in times],
        "peak_mib": peak_kib / 1024 if can_reset else None,
        "full_collections": full_collections,
    }


def worker(spec: dict[str, Any]) -> dict[str, Any]:
    """Run one measurement described by `spec` (in this fresh process)."""
    assert gc.isenabled(), "the cycle collector must stay on: it is part of the cost"
    sizes = Sizes(**{**spec["sizes"], "chains": tuple(spec["sizes"]["chains"])})
    if spec["task"] == "mlp":
        return time_mlp(spec["engine"], sizes, spec.get("memory", False))
    if spec["task"] == "chain":
        return time_chain(spec["engine"], spec["length"], spec["runs"])
    raise ValueError(f"unknown task {spec['task']!r}")


# --------------------------------------------------------------------------------------------
# Driver side: spawns the workers, prints the tables, writes README.md.
# --------------------------------------------------------------------------------------------


def run_worker(spec: dict[str, Any]) -> dict[str, Any]:
    """Run `spec` in a fresh interpreter; a crash becomes an error cell, not a crash here."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", json.dumps(spec)]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=WORKER_TIMEOUT_S, env=env, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return {"error": f"timeout ({WORKER_TIMEOUT_S} s)"}
    if proc.returncode != 0:
        last = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": last[:80]}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def fmt_ms(ms: float) -> str:
    """Milliseconds with about three significant digits."""
    return f"{ms:,.0f}" if ms >= 100 else f"{ms:.1f}" if ms >= 1 else f"{ms:.3f}"


def fmt_count(n: int) -> str:
    """10^k for exact powers of ten, else digits with commas."""
    k = len(str(n)) - 1
    return f"10^{k}" if n == 10**k and k >= 3 else f"{n:,}"


def merge_rounds(results: list[dict[str, Any]]) -> dict[str, Any]:
    """One engine's MLP rounds as medians over all their steps (the first error wins)."""
    for r in results:
        if "error" in r:
            return r
    merged = {**results[0]}  # loss, gradients, nodes and memory come from the first round
    forward_s = [t for r in results for t in r["forward_s"]]
    backward_s = [t for r in results for t in r["backward_s"]]
    free_s = [t for r in results for t in r["free_s"]]
    merged["forward_ms"] = 1e3 * statistics.median(forward_s)
    merged["backward_ms"] = 1e3 * statistics.median(backward_s)
    merged["free_ms"] = 1e3 * statistics.median(free_s)
    merged["total_ms"] = 1e3 * statistics.median(f + b + d for f, b, d in zip(forward_s, backward_s, free_s))
    return merged


def merge_chain_rounds(results: list[dict[str, Any]]) -> dict[str, Any]:
    """One engine's rounds on one chain length: the median run (its time and full collections) and the
    highest peak memory; the first error wins."""
    for r in results:
        if "error" in r:
            return r
    times = [t for r in results for t in r["times_ms"]]
    collections = [c for r in results for c in r["full_collections"]]
    median_run = sorted(range(len(times)), key=times.__getitem__)[len(times) // 2]  # the upper one of an even count
    peaks = [r["peak_mib"] for r in results if r["peak_mib"] is not None]
    return {
        "ms": times[median_run],
        "peak_mib": max(peaks) if peaks else None,
        "full_collections": collections[median_run],
    }


def gradients_agree(results: dict[str, dict[str, Any]]) -> tuple[bool, float]:
    """Do all engines give the same loss and parameter gradients? Return (ok, largest relative error)."""
    ok_results = [r for r in results.values() if "error" not in r]
    reference = ok_results[0]
    worst = 0.0
    for r in ok_results[1:]:
        pairs = [(r["loss"], reference["loss"]), *zip(r["grads"], reference["grads"])]
        for got, want in pairs:
            worst = max(worst, abs(got - want) / max(1.0, abs(want)))
    return worst < 1e-9, worst


def mlp_table(results: dict[str, dict[str, Any]], sizes: Sizes) -> list[str]:
    """Markdown table of the MLP timings, with the ratio of each total to glassgrad's."""
    base = results["glassgrad"].get("total_ms")
    lines = [
        f"**MLP {sizes.n_in} → {sizes.n_hidden} → 1 over {sizes.n_points} points**, squared error summed: one "
        f"training-loop step = forward (build the graph) + backward + free (drop the graph), no explicit "
        f"collection between steps; median of {sizes.mlp_rounds * sizes.mlp_runs} steps: {sizes.mlp_rounds} fresh "
        f"processes per engine, the engines taking turns, {sizes.mlp_runs} steps each after a warm-up:",
        "",
        "| engine | nodes | forward ms | backward ms | free ms | total ms | × glassgrad |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for key, name in ENGINES.items():
        r = results[key]
        if "error" in r:
            lines.append(f"| {name} | | fails: {r['error']} | | | | |")
            continue
        nodes = f"{r['nodes']:,}" if r["nodes"] else "n/a"
        ratio = f"{r['total_ms'] / base:.2f}×" if base else "n/a"
        lines.append(
            f"| {name} | {nodes} | {fmt_ms(r['forward_ms'])} | {fmt_ms(r['backward_ms'])} | {fmt_ms(r['free_ms'])} "
            f"| {fmt_ms(r['total_ms'])} | {ratio} |"
        )
    return lines


def chain_table(chains: dict[str, dict[int, dict[str, Any]]], sizes: Sizes) -> list[str]:
    """Markdown table of chain time and peak memory per length, with glassgrad's growth per step."""
    names = {"glassgrad": "glassgrad", "micrograd": "micrograd", "torch": "PyTorch", "plain": "plain Python"}
    header = (
        "| nodes | "
        + " | ".join(f"{names[k]} ms | {names[k]} peak MiB" for k in CHAIN_ENGINES)
        + " | glassgrad time ÷ previous | plain Python time ÷ previous | glassgrad full collections |"
    )
    lines = [
        f"**Chains of ReLU nodes**, build + backward, median of {sizes.chain_rounds * sizes.chain_runs} runs: "
        f"{sizes.chain_rounds} fresh processes per engine and length, the engines taking turns, {sizes.chain_runs} "
        f"runs each; peak resident memory above the start of a run. *Plain Python* is the baseline: "
        f"one slotted object per node holding its number and the node before it, then one pass back to the "
        f"leaf, no autograd; its growth is what this machine's memory and cycle collector alone cost. "
        f"*Full collections*: how many times, in glassgrad's median run, Python's cycle collector traversed "
        f"every object in the process (with the default thresholds, after about every 70,000 new objects, "
        f"but only once the objects kept since the last one are a quarter of those it kept):",
        "",
        header,
        "| ---: |" + " ---: | ---: |" * len(CHAIN_ENGINES) + " ---: | ---: | ---: |",
    ]
    previous: dict[str, float | None] = {"glassgrad": None, "plain": None}
    for length in sizes.chains:
        cells = [fmt_count(length)]
        for key in CHAIN_ENGINES:
            r = chains[key][length]
            if "error" in r:
                cells += [f"fails: {r['error']}{' †' if r.get('not_run') else ''}", ""]
            else:
                cells += [fmt_ms(r["ms"]), f"{r['peak_mib']:.1f}" if r["peak_mib"] is not None else "n/a"]
        growths = []
        for key in previous:
            r = chains[key][length]
            growths.append(f"{r['ms'] / previous[key]:.1f}×" if previous[key] and "error" not in r else "")
            previous[key] = r.get("ms")
        collections = chains["glassgrad"][length].get("full_collections")
        lines.append("| " + " | ".join(cells + growths + ["" if collections is None else str(collections)]) + " |")
    if any(r.get("not_run") for results in chains.values() for r in results.values()):
        lines += ["", "† not run: it already failed on a shorter chain, and a longer chain is only deeper."]
    return lines


def memory_table(results: dict[str, dict[str, Any]]) -> list[str]:
    """Markdown table of bytes per node of the MLP graph."""
    lines = [
        "**Memory of the MLP graph** after forward + backward: bytes it holds (tracemalloc) and objects the "
        "cycle collector must traverse (`gc.get_objects()`), each ÷ its nodes:",
        "",
        "| engine | nodes | bytes per node | GC-tracked objects per node |",
        "| --- | ---: | ---: | ---: |",
    ]
    for key in MEMORY_ENGINES:
        r = results[key]
        if "error" in r:
            lines.append(f"| {ENGINES[key]} | | fails: {r['error']} | |")
        else:
            lines.append(f"| {ENGINES[key]} | {r['nodes']:,} | {r['bytes_per_node']:.0f} | {r['tracked_per_node']:.1f} |")
    return lines


def check_targets(mlp: dict[str, dict[str, Any]], chains: dict[str, dict[int, dict[str, Any]]], sizes: Sizes) -> list[tuple[str, str, bool]]:
    """The project's speed and memory targets: (target, measured, passed) for each."""

    def total(key: str) -> float | None:
        return mlp[key].get("total_ms")

    def ratio(numerator: float | None, denominator: float | None) -> float | None:
        return numerator / denominator if numerator and denominator else None

    longest, shorter = sizes.chains[-1], sizes.chains[-2]
    checks = [
        ("MLP: glassgrad ≥ 4× faster than micrograd", ratio(total("micrograd"), total("glassgrad")), lambda x: x >= 4.0),
        ("MLP: glassgrad ≥ 2.5× faster than PyTorch scalar autograd", ratio(total("torch"), total("glassgrad")), lambda x: x >= 2.5),
        ("MLP: recording the steps costs ≤ 1.5× the time without", ratio(total("glassgrad-steps"), total("glassgrad")), lambda x: x <= 1.5),
        (
            f"chain: {fmt_count(longest)} nodes take ≤ 12× the time of {fmt_count(shorter)}",
            ratio(chains["glassgrad"][longest].get("ms"), chains["glassgrad"][shorter].get("ms")),
            lambda x: x <= 12.0,
        ),
        (
            "memory: glassgrad ≤ ½ of micrograd's bytes per node",
            ratio(mlp["glassgrad"].get("bytes_per_node"), mlp["micrograd"].get("bytes_per_node")),
            lambda x: x <= 0.5,
        ),
    ]
    return [(name, f"{value:.2f}×" if value is not None else "n/a", value is not None and passes(value)) for name, value, passes in checks]


def targets_table(targets: list[tuple[str, str, bool]]) -> list[str]:
    """Markdown table of the targets with PASS or FAIL."""
    lines = ["| target | measured | result |", "| --- | ---: | --- |"]
    lines += [f"| {name} | {measured} | {'PASS' if passed else 'FAIL'} |" for name, measured, passed in targets]
    return lines


def machine_line() -> str:
    """Where the numbers come from: Python, platform, CPUs and their load, torch version."""
    try:
        from importlib.metadata import version

        torch_version = version("torch")
    except Exception:  # the bench extra may be missing; the table then says so in its cells
        torch_version = "not installed"
    load = f", load average {os.getloadavg()[0]:.1f} at the end" if hasattr(os, "getloadavg") else ""
    return (
        f"Python {platform.python_version()} on {platform.system()} {platform.machine()}, "
        f"{os.cpu_count()} CPUs{load}, PyTorch {torch_version}, cycle collector on, each engine in its own process."
    )


def replace_readme_section(text: str, body: str) -> str:
    """`text` with everything between the bench markers replaced by `body`."""
    pattern = re.compile(re.escape(START_MARKER) + r".*?" + re.escape(END_MARKER), re.DOTALL)
    if not pattern.search(text):
        raise ValueError(f"README.md has no {START_MARKER} ... {END_MARKER} section")
    return pattern.sub(lambda _: f"{START_MARKER}\n{body}\n{END_MARKER}", text, count=1)


def run(sizes: Sizes, progress: Callable[[str], None]) -> str:
    """Run every measurement and return the report (markdown)."""
    size_spec = {**sizes.__dict__, "chains": list(sizes.chains)}
    rounds: dict[str, list[dict[str, Any]]] = {key: [] for key in ENGINES}
    for round_index in range(sizes.mlp_rounds):
        for key in ENGINES:
            progress(f"MLP round {round_index + 1}/{sizes.mlp_rounds}: {key}")
            memory = key in MEMORY_ENGINES and round_index == 0
            rounds[key].append(run_worker({"task": "mlp", "engine": key, "sizes": size_spec, "memory": memory}))
    mlp = {key: merge_rounds(results) for key, results in rounds.items()}
    chain_rounds: dict[str, dict[int, list[dict[str, Any]]]] = {key: {} for key in CHAIN_ENGINES}
    for round_index in range(sizes.chain_rounds):
        for key in CHAIN_ENGINES:
            for length in sizes.chains:
                rounds_so_far = chain_rounds[key].setdefault(length, [])
                failed = [r for n, results in chain_rounds[key].items() if n <= length for r in results if "error" in r]
                if failed:  # a longer chain (or the same one again) fails the same way, so it is not run
                    if not any("error" in r for r in rounds_so_far):
                        rounds_so_far.append({"error": failed[0]["error"], "not_run": True})
                    continue
                progress(f"chain round {round_index + 1}/{sizes.chain_rounds}: {length:,} {key}")
                spec = {"task": "chain", "engine": key, "sizes": size_spec, "length": length, "runs": sizes.chain_runs}
                rounds_so_far.append(run_worker(spec))
    chains = {key: {length: merge_chain_rounds(results) for length, results in by_length.items()} for key, by_length in chain_rounds.items()}
    agree, worst = gradients_agree(mlp)
    targets = check_targets(mlp, chains, sizes)
    lines = [
        machine_line(),
        "",
        *mlp_table(mlp, sizes),
        "",
        f"Loss and all {len(mlp['glassgrad'].get('grads', []))} parameter gradients agree across engines: "
        f"{'yes' if agree else 'NO'} (largest relative difference {worst:.1e}).",
        "",
        *chain_table(chains, sizes),
        "",
        *memory_table(mlp),
        "",
        *targets_table(targets),
    ]
    longest, shorter = sizes.chains[-1], sizes.chains[-2]
    plain_long, plain_short = chains["plain"][longest].get("ms"), chains["plain"][shorter].get("ms")
    if plain_long and plain_short:
        lines += [
            "",
            f"For scale: the plain-Python baseline chain grows {plain_long / plain_short:.2f}× from "
            f"{fmt_count(shorter)} to {fmt_count(longest)} nodes on this machine, with no autograd at all.",
        ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Command line: run the benchmark, print it, and write it into README.md."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="tiny sizes, a few seconds (never writes README.md)")
    parser.add_argument("--no-readme", action="store_true", help="print only; leave README.md alone")
    parser.add_argument("--worker", help=argparse.SUPPRESS)  # internal: one measurement, as JSON
    args = parser.parse_args(argv)
    if args.worker:
        print(json.dumps(worker(json.loads(args.worker))))
        return 0
    sizes = QUICK if args.quick else FULL
    started = time.perf_counter()
    report = run(sizes, lambda msg: print(f"  running {msg} ...", file=sys.stderr, flush=True))
    print(report)
    print(f"\n(benchmark took {time.perf_counter() - started:.0f} s)", file=sys.stderr)
    if not (args.quick or args.no_readme):
        README.write_text(replace_readme_section(README.read_text(encoding="utf-8"), report), encoding="utf-8")
        print(f"wrote the tables into {README.relative_to(ROOT)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
