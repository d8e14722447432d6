"""Measure the explorer of chapter 2 in Chromium: from a change to the new numbers on screen (p95, ms), on the
precomputed path (slider moves on the grid) and on the engine in the page (Pyodide, values off the grid), and the
longest main-thread task while a slider is dragged.

Usage: python scripts/bench_explore.py URL_OF_THE_SITE (for example http://127.0.0.1:8000/).
"""

from __future__ import annotations

import statistics
import sys

from playwright.sync_api import sync_playwright

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
LONG_TASKS = """() => { window.ggLong = []; new PerformanceObserver(list => {
  for (const entry of list.getEntries()) window.ggLong.push(entry.duration); }).observe({type: 'longtask'}); }"""


def p95(times: list[float]) -> float:
    return statistics.quantiles(times, n=20)[-1]


def main(site: str) -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium",
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        tab = browser.new_page(viewport={"width": 1280, "height": 900})
        tab.goto(site + "chapters/2-from-scratch/")
        tab.evaluate(LONG_TASKS)
        grid = [f"{-2 + k / 10:g}" for k in range(81)]
        fast = [tab.evaluate(TIMED, ["#ggx-linear-range-w", v, "ggx-linear-say-w"]) for v in grid[::-1] + grid]
        slider = tab.locator("#ggx-linear-range-x").bounding_box()
        tab.mouse.move(slider["x"] + 8, slider["y"] + slider["height"] / 2)
        tab.mouse.down()
        for step in range(120):
            tab.mouse.move(slider["x"] + 8 + (slider["width"] - 16) * (step % 60) / 60, slider["y"] + 10)
        tab.mouse.up()
        longest_drag = max(tab.evaluate("window.ggLong"), default=0.0)
        tab.evaluate(TIMED, ["#ggx-linear-field-w", "2.01", "ggx-linear-say-w"])  # starts Python (not timed)
        off_grid = [f"{2 + k / 1000:g}" for k in range(2, 102)]
        slow = [tab.evaluate(TIMED, ["#ggx-linear-field-w", v, "ggx-linear-say-w"]) for v in off_grid]
        browser.close()
    print(f"precomputed: {len(fast)} changes, p95 {p95(fast):.1f} ms, max {max(fast):.1f} ms")
    print(f"in-page Python: {len(slow)} changes, p95 {p95(slow):.1f} ms, max {max(slow):.1f} ms")
    print(f"longest main-thread task while dragging: {longest_drag:.0f} ms (0: none over 50 ms)")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "http://127.0.0.1:8000/")
