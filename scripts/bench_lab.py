"""The training lab measured in headless Chromium on a local server (`make bench`), next to the same steps natively.

Builds the site into a temporary folder (or takes `--site DIR`, a site already built), opens the lab, trains the
default model (MLP(2, [8, 8, 1]) on 100 two moons), the same without regularisation (a plain run: what the new
controls cost), MLP(2, [16, 16, 1]) and the spiral's suggested setup, and reports: a training step in the
browser (Python's own time, and the round trip the page waits for) against the same step natively in this process;
while training, the gaps between animation frames (99th percentile, longest) and the longest main-thread task
(PerformanceObserver "longtask"); the heat map's main-thread time per frame (it is computed a slice per frame);
the time from Inspect to the drawn graph of an example, the first time for a shape of model (laid out while the lab was idle) and afterwards.
A measurement, not a test: it fails only if the lab does not train.

Usage: `python scripts/bench_lab.py` (`--steps N`, default 40; `--site DIR`).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from bench_playground import site_in_browser

from glassgrad_site.lab.settings import SUGGESTED

WATCH = """() => {
  window.__frames = []; window.__tasks = [];
  const frame = t => { window.__frames.push(t); window.__watching && requestAnimationFrame(frame); };
  window.__watching = true; requestAnimationFrame(frame);
  new PerformanceObserver(list => list.getEntries().forEach(e => window.__tasks.push(e.duration))).observe({type: "longtask"});
}"""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else 0.0


def native_step_ms(settings: dict[str, Any], steps: int) -> float:
    """The best time of `glassgrad_site.lab.page.step` natively (the same code the page calls in Pyodide): the least
    disturbed by other work on the machine, as `timeit` advises."""
    import glassgrad_site.lab.page as lab

    lab.start(settings)
    return min(lab.step()["seconds"] * 1000 for _ in range(steps))


def native_loop_s() -> float:
    """The plain-Python loop (`glassgrad_site.lab.page.plain_loop`) natively, best of 5."""
    import glassgrad_site.lab.page as lab

    return min(lab.plain_loop() for _ in range(5))


def measure(browser: Any, url: str, steps: int) -> dict[str, float]:
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(url, wait_until="networkidle", timeout=180_000)
    page.wait_for_function("() => window.glassgrad.lab && window.glassgrad.lab.ready()", timeout=300_000)
    page.click("[data-lab-do=step]")
    page.wait_for_function(
        "() => window.glassgrad.lab && window.glassgrad.lab.state() && window.glassgrad.lab.state().step >= 1",
        timeout=180_000,
    )
    page.wait_for_timeout(4000)  # the inspected graph is laid out while the lab is idle
    page.evaluate(
        "window.glassgrad.lab.timings.steps.length = 0; window.glassgrad.lab.timings.python.length = 0; window.glassgrad.lab.timings.heat.length = 0"
    )
    loops = [page.evaluate("window.glassgrad.lab.call('plain_loop', [])") for _ in range(5)]
    page.evaluate(WATCH)
    page.fill("[data-lab-set=stop]", str(steps + 1))
    first = page.evaluate("window.glassgrad.lab.state().step")
    training = time.perf_counter()
    page.click("[data-lab-do=train]")
    page.wait_for_function(
        f"() => window.glassgrad.lab.state().step >= {steps + 1} && !window.glassgrad.lab.running()", timeout=600_000
    )
    trained = (steps + 1 - first) / (time.perf_counter() - training)
    page.evaluate("window.__watching = false")
    frames = page.evaluate("window.__frames")
    tasks = page.evaluate("window.__tasks")
    timings = page.evaluate("window.glassgrad.lab.timings")
    if page.evaluate("window.glassgrad.lab.losses()")[-1] >= page.evaluate("window.glassgrad.lab.losses()")[0]:
        raise SystemExit("the lab's loss did not fall")
    gaps = [b - a for a, b in zip(frames, frames[1:])]
    started = time.perf_counter()
    page.click("[data-lab-do=inspect]")
    page.wait_for_selector("[data-lab=graph] svg g.gg-value", timeout=120_000)
    first_inspect = time.perf_counter() - started
    page.click("[data-lab-do=step]")
    page.wait_for_function(f"() => window.glassgrad.lab.state().step >= {steps + 2}", timeout=60_000)
    page.wait_for_timeout(500)
    started = time.perf_counter()
    page.locator("[data-lab=player]").evaluate("el => el.textContent = ''")
    page.click("[data-lab-do=inspect]")
    page.wait_for_selector("[data-lab=player] .gg-player", timeout=120_000)
    again = time.perf_counter() - started
    page.close()
    return {
        "loop": min(loops),
        "python": min(timings["python"]),
        "round trip": statistics.median(timings["steps"]),
        "per second": trained,
        "gap p99": percentile(gaps, 0.99),
        "gap max": max(gaps),
        "longest task": max(tasks, default=0.0),
        "heat median": statistics.median(timings["heat"]),
        "heat max": max(timings["heat"]),
        "inspect": first_inspect,
        "inspect again": again,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=40)
    parser.add_argument("--site", type=Path, help="a site already built (default: build one)")
    args = parser.parse_args()

    models: dict[str, tuple[dict[str, Any], str]] = {
        "[8, 8] (the default)": ({}, ""),
        "[8, 8], no regularisation (a plain run)": ({"reg": "none"}, "#reg=none"),
        "[16, 16]": ({"layers": [16, 16]}, "#layers=16,16"),
        "spiral, the suggested setup": (
            SUGGESTED["spiral"],
            "#"
            + urlencode(
                {k: ",".join(map(str, v)) if isinstance(v, list) else v for k, v in SUGGESTED["spiral"].items()}
            ),
        ),
    }
    results = {}
    with site_in_browser(args.site, "the lab's measurement") as (address, _, browser):
        for name, (settings, hash_) in models.items():
            results[name] = measure(browser, f"{address}lab/{hash_}", args.steps)
            results[name]["native"] = native_step_ms(settings, args.steps)
            results[name]["native loop"] = native_loop_s()

    print(
        f"\n## Training lab: MLP(2, [..., 1]) on 100 two moons, {args.steps} steps (headless Chromium, {os.cpu_count()} cores)\n"
    )
    print("| measure | " + " | ".join(results) + " |")
    print("| --- |" + " ---: |" * len(results))
    for r in results.values():
        r["browser ÷ native"] = r["python"] / r["native"]
        r["floor"] = r["loop"] / r["native loop"]
        r["against the floor"] = r["browser ÷ native"] / r["floor"]
    rows = {
        "a step natively (glassgrad_site.lab.page.step), best": "{native:.1f} ms",
        "a step in the browser, Python's own time, best": "{python:.1f} ms",
        "browser ÷ native": "{browser ÷ native:.2f}×",
        "the floor: plain-Python loops, browser ÷ native": "{floor:.2f}×",
        "browser ÷ (native × floor): target ≤ 1.15": "{against the floor:.2f}",
        "steps per second while training (steps ÷ time)": "{per second:.1f}",
        "a step's round trip, as the page waits for it": "{round trip:.1f} ms",
        "gap between frames while training, 99th percentile": "{gap p99:.1f} ms",
        "longest gap between frames": "{gap max:.1f} ms",
        "longest main-thread task while training": "{longest task:.0f} ms",
        "heat map's work in a frame (main thread), median / longest": "{heat median:.1f} / {heat max:.1f} ms",
        "Inspect to the drawn graph, first time": "{inspect:.2f} s",
        "Inspect again (numbers and a new player)": "{inspect again:.2f} s",
    }
    for label, cell in rows.items():
        print(f"| {label} | " + " | ".join(cell.format_map(r) for r in results.values()) + " |")
    default, plain = results["[8, 8] (the default)"], results["[8, 8], no regularisation (a plain run)"]
    print(
        "\nThe new controls' cost at the default setup (L2 regularisation): "
        f"{default['per second']:.1f} steps per second against {plain['per second']:.1f} without it, "
        f"{default['per second'] / plain['per second']:.2f}× (target: at least 0.90×); Python's own step, best: "
        f"{plain['python'] / default['python']:.2f}×."
    )


if __name__ == "__main__":
    main()
