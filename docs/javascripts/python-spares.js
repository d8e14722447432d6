// python-spares.js: the Pythons a session keeps loaded ahead (its spares), so that a Run or a Check takes one
// that is ready instead of waiting for Python to load. Bookkeeping only, over a `start` function
// (python-link.js's startPython in the page, a stand-in in tests/js): no timers, no DOM.
//
//   import { spares } from "./python-spares.js";
//   const pool = spares(startPython, { size: 2, atOnce: 1, onMessage });
//   pool.fill(n)   start loading spares until n (at most `size`; default `size`) are loaded or loading, at most
//                  `atOnce` at a time (a Python handed out while still loading counts). On two cores, one at a
//                  time: a second load beside the first delays it (the reader may be waiting for it) by about
//                  a third, though a Run right after the first then finds the second ready (2.9 s and 2.8 s
//                  against 3.8 s and 0.3 s, scripts/bench_playground.py). With four cores or more, each load
//                  has a core of its own: python-session.js asks for two at once there.
//   pool.take()    a Python for one request, never handed out twice: the oldest ready spare, else the one
//                  furthest along, else a new one; the pool then refills to `size` (once nothing it handed
//                  out is still loading).
//   pool.next()    the spare take() would give now (to show its progress), or null
//   pool.close()   every spare closed; the pool starts no more
//
// While a spare waits, its messages go to onMessage(py, message) (optional). A spare that fails to load is
// dropped and not replaced until the next fill() or take(): a Python that cannot load would fail again.

/**
 * @typedef {import("./python-link.js").Python} Python
 * @typedef {import("./python-link.js").Message} Message
 * @typedef {{fill: (n?: number) => void, take: () => Python, next: () => Python | null, close: () => void}} Spares
 */

/**
 * @param {() => Python} start  starts loading a Python
 * @param {{size?: number, atOnce?: number, onMessage?: ((py: Python, message: Message) => void) | null}} [options]
 * @returns {Spares}
 */
export function spares(start, { size = 2, atOnce = 1, onMessage = null } = {}) {
  /** @type {Python[]} */
  const kept = [];  // in the order they were started: the first is the furthest along
  /** @type {Python | null} */
  let handedOut = null;  // the last one taken, if it was still loading then
  let wanted = 0, closed = false;

  /** How many are loading now: the spares not ready yet, and the one handed out while loading. */
  const loading = () => kept.filter((py) => !py.ready).length +
    (handedOut !== null && !handedOut.ready && !handedOut.closed && !handedOut.failed ? 1 : 0);

  /** @param {Python} py */
  function remove(py) {
    const at = kept.indexOf(py);
    if (at >= 0) kept.splice(at, 1);
    py.listener = null;
  }
  function grow() {
    if (closed || kept.length >= wanted || loading() >= atOnce) return;
    const py = start();
    kept.push(py);
    py.listener = (message) => {
      if (message.type === "failed") {
        remove(py);
        py.close();
        if (py.ready) grow();  // one that had loaded died: a new one will load
      } else if (message.type === "ready") grow();
      if (onMessage) onMessage(py, message);
    };
    grow();  // the next, if more may load at once
  }

  return {
    fill(n = size) {
      wanted = Math.max(wanted, Math.min(n, size));
      grow();
    },
    take() {
      const py = kept.find((spare) => spare.ready) || kept[0] || start();
      remove(py);
      handedOut = py.ready ? null : py;
      wanted = size;
      grow();
      return py;
    },
    next() { return kept.find((spare) => spare.ready) || kept[0] || null; },
    close() {
      closed = true;
      for (const py of kept.splice(0)) { py.listener = null; py.close(); }
    },
  };
}
