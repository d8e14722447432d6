"""glassgrad_runtime: runs a reader's program for the site's Playground and Exercises, in the browser and at build time.

`execute` compiles and runs a program once, then draws the graph of its ``L`` (a Run) or checks it with
`glassgrad.exercises.check` (a Check), and returns what the page shows as data (`glassgrad_runtime.result`).
A Check is recorded in the program's Python and judged in another (`glassgrad.exercises.sealed`, shown by
`glassgrad_runtime.checking`), so that no program reaches the checker. `glassgrad_runtime.worker` is what the
browser's Web Workers call: ``start`` once per fresh Python, ``execute`` once per run, with output streamed and
capped, ``judge`` in the page's judge. The engine never imports this package; the site's bundle ships it to the browser.
"""

from glassgrad_runtime.run import execute

__all__ = ["execute"]
