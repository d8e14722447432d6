// The spare Pythons a session keeps loaded (docs/javascripts/python-spares.js), over stand-in Pythons.
import assert from "node:assert/strict";
import { test } from "node:test";
import { spares } from "../../docs/javascripts/python-spares.js";

/** Stand-in Pythons: `started` lists them in order; `load(py)` and `fail(py)` deliver what python-link.js would. */
function fakes() {
  /** @type {any[]} */
  const started = [];
  const start = () => {
    const py = {
      number: started.length + 1, ready: false, failed: null, closed: false, listener: null,
      close() { py.closed = true; py.listener = null; },
    };
    started.push(py);
    return py;
  };
  /** @param {any} py @param {any} message */
  const deliver = (py, message) => { if (!py.closed && py.listener) py.listener(message); };
  return {
    started,
    start: /** @type {any} */ (start),
    /** @param {any} py */
    load(py) { py.ready = true; deliver(py, { type: "ready", seconds: 1 }); },
    /** @param {any} py */
    fail(py) { if (!py.ready) py.failed = { type: "failed" }; deliver(py, { type: "failed", id: "", text: "no" }); },
  };
}

/**
 * A pool over stand-in Pythons.
 * @param {Parameters<typeof spares>[1]} [options]
 */
function pooled(options = { size: 2 }) {
  const python = fakes();
  return { python, pool: spares(python.start, options) };
}

test("nothing loads before fill() or take(); fill(1) loads one only, a later fill() the rest", () => {
  const { python, pool } = pooled();
  assert.equal(python.started.length, 0);
  assert.equal(pool.next(), null);
  pool.fill(1);
  python.load(python.started[0]);
  assert.deepEqual([python.started.length, pool.next()], [1, python.started[0]]);
  pool.fill();
  assert.equal(python.started.length, 2);
});

test("spares load one at a time, the next once the previous is ready, up to the size", () => {
  const { python, pool } = pooled();
  pool.fill();
  assert.equal(python.started.length, 1);  // a second would slow the first
  python.load(python.started[0]);
  assert.equal(python.started.length, 2);
  python.load(python.started[1]);
  assert.equal(python.started.length, 2);  // both ready: no third
  pool.fill();
  assert.equal(python.started.length, 2);
});

test("with atOnce: 2, two load together; a Python handed out while loading counts as one of them", () => {
  const { python, pool } = pooled({ size: 2, atOnce: 2 });
  pool.fill();
  assert.equal(python.started.length, 2);  // both at once
  const first = pool.take();  // the first Run, before either is ready
  assert.equal(first, python.started[0]);
  assert.equal(python.started.length, 2);  // the one taken and the one kept are loading: no third yet
  python.load(first);
  pool.fill();  // as the session does once the Run's Python has loaded
  assert.equal(python.started.length, 3);  // the pool's second place loads
  python.load(python.started[1]);
  assert.equal(pool.take(), python.started[1]);  // a Run right after the first finds a ready one
});

test("a Run right after a Run takes a ready spare, and each Python is handed out once", () => {
  const { python, pool } = pooled();
  pool.fill();
  python.load(python.started[0]);
  python.load(python.started[1]);
  const first = pool.take(), second = pool.take();
  assert.equal(first, python.started[0]);
  assert.equal(second, python.started[1]);
  assert.ok(first.ready && second.ready);
  assert.equal(first.listener, null);  // the taker listens now
  assert.equal(python.started.length, 3);  // refilling: one at a time
  const third = pool.take();
  assert.equal(third, python.started[2]);  // not ready, but the furthest along
  assert.ok(new Set([first, second, third]).size === 3);
});

test("a ready spare is taken before an older one still loading, and one loading before a new one", () => {
  const { python, pool } = pooled();
  pool.fill();
  python.load(python.started[0]);
  const [older] = [python.started[1]];
  pool.take();  // the ready one; the pool refills once `older` is ready
  assert.equal(pool.next(), older);
  assert.equal(pool.take(), older);
  assert.equal(python.started.length, 2);  // older still loading (handed out): nothing else starts beside it
  pool.fill();
  assert.equal(python.started.length, 2);
  python.load(older);  // the request's Python has loaded: the session fills again
  pool.fill();
  assert.equal(python.started.length, 3);
});

test("take() with no spare starts a Python of its own", () => {
  const { python, pool } = pooled();
  const py = pool.take();
  assert.equal(py, python.started[0]);
  assert.equal(python.started.length, 1);  // the spares wait until it has loaded
  python.load(py);
  pool.fill();
  assert.equal(python.started.length, 2);
});

test("a spare that cannot load is dropped and not retried until asked", () => {
  const { python, pool } = pooled();
  pool.fill();
  python.fail(python.started[0]);
  assert.ok(python.started[0].closed);
  assert.equal(pool.next(), null);
  assert.equal(python.started.length, 1);
  pool.fill();
  assert.equal(python.started.length, 2);
});

test("a spare that died after loading is replaced", () => {
  const { python, pool } = pooled({ size: 1 });
  pool.fill();
  python.load(python.started[0]);
  python.fail(python.started[0]);
  assert.equal(python.started.length, 2);
  assert.equal(pool.next(), python.started[1]);
});

test("onMessage hears the spares while they wait, not once they are taken", () => {
  const python = fakes();
  /** @type {Array<[number, string]>} */
  const heard = [];
  const pool = spares(python.start, { size: 1, onMessage: (py, message) => heard.push([/** @type {any} */ (py).number, message.type]) });
  pool.fill();
  const py = python.started[0];
  py.listener({ type: "progress", phase: "download", loaded: 1, total: 2 });
  python.load(py);
  pool.take();
  assert.equal(py.listener, null);
  assert.deepEqual(heard, [[1, "progress"], [1, "ready"]]);
});

test("close() ends every spare, and the pool starts no more", () => {
  const { python, pool } = pooled();
  pool.fill();
  python.load(python.started[0]);
  pool.close();
  assert.ok(python.started.every((py) => py.closed));
  pool.fill();
  assert.equal(python.started.length, 2);
});
