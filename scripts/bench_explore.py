"""The explorers measured in headless Chromium on a local server (`make bench`).

Builds the site into a temporary folder (or takes `--site DIR`, a site already built) and, on each explorer
(chapters 2 and 3, the forward-mode page), times a change until its new numbers are on screen (p95 and longest, ms):
on the precomputed path (a slider moved on its grid) and, on chapter 2, on the engine in the page (Pyodide: values
off the grid; its first start not counted). It also records the longest main-thread task while a slider is dragged
with the mouse, on either path, and the main thread's own work (script and layout) for one precomputed change,
which depends less on the machine's other load than the time to the screen. A measurement, not a test: it fails only if an explorer does not answer.

Usage: `python scripts/bench_explore.py` (`--site DIR`).
"""

from __future__ import annotations

import argparse
import os
import statistics
from pathlib import Path
from typing import Any

from bench_playground import site_in_browser

# One change, timed until the frame after the numbers are written (what the reader sees).
TIMED = """async ([selector, value, done]) => {
  const element = document.querySelector(selector), start = performance.now();
  const seen = new Promise(resolve => {
    const check = () => document.getElementById(done).textContent === value ? resolve() : setTimeout(check, 0);
    check(); });
  element.value = value;
  element.dispatchEvent(new Event('input', {bubbles: true}));
  await seen;
  await new Promise(resolve => requestAnimationFrame(() => setTimeout(resolve, 0)));
  return performance.now() - start;
}"""
# The main thread's own work for one change on the precomputed path: the script, then the layout it causes (ms each).
WORK = """([selector, values]) => values.map(value => {
  const element = document.querySelector(selector), start = performance.now();
  element.value = value;
  element.dispatchEvent(new Event('input', {bubbles: true}));
  document.body.getBoundingClientRect();
  return performance.now() - start;
})"""
LONG_TASKS = """() => { window.ggLong = []; new PerformanceObserver(list => {
  for (const entry of list.getEntries()) window.ggLong.push(entry.duration); }).observe({type: 'longtask'}); }"""
EXPLORERS = {  # page, the explorer's id prefix, its w slider's grid (w's default ± 4)
    "chapter 2": ("chapters/2-from-scratch/", "ggx-linear", 2.0),
    "chapter 3": ("chapters/3-fused-sigmoid/", "ggx-neuron", 0.5),
    "forward mode": ("beyond/forward-mode/", "ggx-forward", 2.0),
}


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1]


def drag(tab: Any, selector: str) -> float:
    """Drag the slider `selector` back and forth with the mouse; the longest main-thread task meanwhile (ms)."""
    tab.evaluate(LONG_TASKS)
    box = tab.locator(selector).bounding_box()
    y = box["y"] + box["height"] / 2
    tab.mouse.move(box["x"] + 8, y)
    tab.mouse.down()
    for step in range(120):
        tab.mouse.move(box["x"] + 8 + (box["width"] - 16) * (step % 60) / 60, y)
    tab.mouse.up()
    tab.wait_for_timeout(500)  # the last answers land
    return max(tab.evaluate("window.ggLong"), default=0.0)


def measure(browser: Any, address: str, name: str) -> dict[str, float]:
    page, prefix, default = EXPLORERS[name]
    tab = browser.new_page(viewport={"width": 1280, "height": 900})
    tab.goto(address + page)
    tab.locator(f"#{prefix}-explore").scroll_into_view_if_needed()
    grid = [f"{default + (k - 40) / 10:.10g}" for k in range(81)]
    fast = [tab.evaluate(TIMED, [f"#{prefix}-range-w", v, f"{prefix}-say-w"]) for v in grid[::-1] + grid]
    work = tab.evaluate(WORK, [f"#{prefix}-range-w", grid[::-1] + grid])
    result = {"fast p95": p95(fast), "fast max": max(fast), "work": statistics.median(work)}
    result["drag"] = drag(tab, f"#{prefix}-range-x")
    if name == "chapter 2":
        tab.click(f"#{prefix}-explore .gg-explore-reset")
        tab.evaluate(TIMED, [f"#{prefix}-field-w", "2.01", f"{prefix}-say-w"])  # starts Python (not timed)
        off_grid = [f"{2 + k / 1000:g}" for k in range(2, 102)]
        slow = [tab.evaluate(TIMED, [f"#{prefix}-field-w", v, f"{prefix}-say-w"]) for v in off_grid]
        result |= {"python p95": p95(slow), "python max": max(slow), "python drag": drag(tab, f"#{prefix}-range-x")}
    tab.close()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, help="a site already built (default: build one)")
    args = parser.parse_args()
    with site_in_browser(args.site, "the explorers' measurement") as (address, _, browser):
        results = {name: measure(browser, address, name) for name in EXPLORERS}

    print(f"\n## Explorers: a change to its numbers on screen (headless Chromium, {os.cpu_count()} cores)\n")
    print(
        "| explorer | precomputed: p95 / longest | its work per change (median) | in-page Python: p95 / longest "
        "| longest task while dragging |"
    )
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, r in results.items():
        python = f"{r['python p95']:.1f} / {r['python max']:.1f} ms" if "python p95" in r else "—"
        dragging = f"{r['drag']:.0f} ms" + (f" ({r['python drag']:.0f} ms in Python)" if "python drag" in r else "")
        print(f"| {name} | {r['fast p95']:.1f} / {r['fast max']:.1f} ms | {r['work']:.1f} ms | {python} | {dragging} |")
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(
        f"\nLoad average during the run: {load}. Targets: p95 ≤ 100 ms on either path; no main-thread task over 50 ms while dragging (0: none over 50 ms)."
    )


if __name__ == "__main__":
    main()
