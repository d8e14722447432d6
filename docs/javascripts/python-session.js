// python-session.js: the one place in the page's JavaScript that runs a reader's program (Pyodide, in
// python-worker.js, started through python-link.js). The Playground and the Exercises use it; the lab's own
// Python is `open` (python-lab-mode.js, re-exported here).
//
// A Check has two Pythons, so that no program can reach the checker that judges it. The program runs in
// a fresh one, which answers only with a record of what the program's answer produced on the inputs of a
// random seed, as plain data (glassgrad.exercises.sealed.record). The session's JUDGE, one long-lived
// Python opened with `open` (python-lab-mode.js) that never runs a reader's program, checks that record
// with its own checker, on the inputs of the same seed, and draws the verdict. A record that does not
// answer the judge's own calls fails; nothing else the run's worker says can make a Check pass.
//
//   import { session, limit, limitNote } from "./python-session.js";
//
//   const runs = session({checks})    Runs and Checks, one at a time (checks: true when the page Checks: the
//                                     judge then opens with the first warm()). EVERY request runs in a Python no
//                                     earlier program touched: a fresh worker per request, terminated after its
//                                     answer, taken from the spares loaded in the background (python-spares.js)
//                                     from the first warm() or request on.
//     runs.warm(onStatus)             the reader shows intent: start the spares now; onStatus(text), optional,
//                                     hears its progress ("Downloading Python: 3.1 of 12.0 MB…", ...).
//     runs.run({code, prefix, exercise, reveal}, {onStatus, onOutput}) -> Promise of an outcome:
//                                     {result} (glassgrad_runtime's Result: {error}, {note}, or {summary, figure,
//                                     order, cards}; for an exercise the judge's {passed, message, figure, ...}:
//                                     HTML strings to pass through sanitizer.js), or {message} when there is no
//                                     result (stopped, time limit, Python could not start or died, the judge
//                                     could not answer), which says what happened.
//                                     onOutput(chunks, dropped, droppedChars): the printed text, in batches (see
//                                     console.js). The time limit holds from this call: while Python loads (its
//                                     own limit, LOAD_LIMIT_S), then `limit` seconds for the program.
//     runs.stop(), runs.busy(), runs.close()
import { LOAD_LIMIT_S, diedText, limit, loadingText, randomId, seconds, startPython } from "./python-link.js";
import { open } from "./python-lab-mode.js";
import { spares } from "./python-spares.js";

export { limit, limitNote } from "./python-link.js";
export { open };

/** Spare Pythons kept loaded: a Run right after a Run, or after Stop, takes the second. */
const SPARES = 2;
/** How many load at once: two where the machine has the cores for both (see python-spares.js). */
const AT_ONCE = (navigator.hardwareConcurrency || 1) >= 4 ? 2 : 1;
const MAX_RECORD_CHARS = 5e6;  // a Check's record, at most (as the worker bounds a result)
const JUDGE = "glassgrad_runtime.worker";  // the judge's module: `judge(record, exercise, seed, prefix, reveal)`

/** A Check's seed: 32 random bits (the checker's inputs, the same in both Pythons). */
function randomSeed() { return window.crypto.getRandomValues(new Uint32Array(1))[0]; }

/**
 * @typedef {import("./python-link.js").Python} Python
 * @typedef {import("./python-link.js").Message} Message
 * @typedef {{result?: Record<string, any>, message?: string}} Outcome
 * @typedef {{code: string, prefix?: string, exercise?: string, reveal?: boolean}} Request
 * @typedef {(chunks: Array<[string, string]>, dropped: number, droppedChars: number) => void} OnOutput
 * @typedef {{onStatus?: (text: string) => void, onOutput?: OnOutput}} Callbacks
 * @typedef {{id: string, again: string, timer: number, py: Python, running?: boolean, resolve: (outcome: Outcome) => void}} Pending
 * @typedef {import("./python-lab-mode.js").Lab} Lab
 */

/**
 * A sequence of Runs or Checks, each in a fresh Python.
 * @param {{checks?: boolean}} [options]
 */
export function session(options = {}) {
  /** @type {Promise<Lab> | null} */
  let judge = null;  // opened once; again only after it closed (time limit, died) or failed to open
  /** @type {Pending | null} */
  let current = null;
  /** @type {((text: string) => void) | null} */
  let watcher = null;
  let closed = false;

  /** @returns {Promise<Lab>} */
  function openJudge() {
    if (!judge) {
      const opening = (judge = open({ modules: [JUDGE] }));
      opening.catch(() => { if (judge === opening) judge = null; });
    }
    return judge;
  }
  /** The judge's verdict on `record`. @param {Request} what @param {string} record @param {number} seed */
  async function judged(what, record, seed) {
    let lab = await openJudge();
    if (lab.closed || lab.busy()) {  // (busy: still judging a Check that was stopped)
      lab.close();
      judge = null;
      lab = await openJudge();
    }
    return lab.call(JUDGE + ".judge", [record, String(what.exercise), seed, String(what.prefix || "ggrun"), what.reveal === true]);
  }

  // The spare a request would take tells warm()'s watcher its progress.
  const pool = spares(startPython, {
    size: SPARES,
    atOnce: AT_ONCE,
    onMessage(py, message) {
      if (!watcher || (py !== pool.next() && message.type !== "failed")) return;
      if (message.type === "failed") {
        watcher("Python could not start: " + String(message.text) + ".");
        watcher = null;
        return;
      }
      if (message.type === "progress" || message.type === "ready") watcher(loadingText(py));
      if (message.type === "ready") watcher = null;
    },
  });
  /** @param {Pending} request @param {Outcome} outcome */
  function finish(request, outcome) {
    if (current !== request) return;
    current = null;
    window.clearTimeout(request.timer);
    request.py.close();  // used once: its Python goes with it
    if (!closed && (!request.py.failed || request.py.ready)) pool.fill();  // (a Python that cannot load would fail again)
    request.resolve(outcome);
  }
  /** @param {Pending} request @param {number} seconds @param {string} text */
  function arm(request, seconds, text) {
    window.clearTimeout(request.timer);
    request.timer = window.setTimeout(() => finish(request, { message: text }), seconds * 1000);
  }

  /**
   * @param {Request} what
   * @param {Callbacks} [callbacks]
   * @returns {Promise<Outcome>}
   */
  function run(what, callbacks = {}) {
    const say = callbacks.onStatus || (() => {});
    const check = typeof what.exercise === "string";
    const again = check ? "Check" : "Run", thing = check ? "check" : "program";
    if (current) finish(current, { message: "Stopped: another request began." });
    watcher = null;
    const py = pool.take();
    const seed = randomSeed();
    if (check) openJudge().catch(() => {});  // in parallel with the run (at once when already open)
    const tooLong = "Stopped: the " + thing + " ran for more than " + seconds(limit) + ". Press " + again + " to start again.";
    const running = (check ? "Checking" : "Running") + "… (stopped after " + seconds(limit) + ")";
    return new Promise((resolve) => {
      /** @type {Pending} */
      const request = { id: randomId(), again, timer: 0, py, resolve };
      current = request;
      // The clock starts now: Python's loading under its own limit, then the program's.
      if (py.ready) arm(request, limit, tooLong);
      else arm(request, LOAD_LIMIT_S, "Python did not start within " + seconds(LOAD_LIMIT_S) + " (the download may have stalled). Press " + again + " to try again.");
      py.listener = (message) => {
        if (current !== request) return;
        const mine = message.id === request.id;
        if (message.type === "progress") say(loadingText(py));
        else if (message.type === "ready") arm(request, limit, tooLong);
        else if (message.type === "running" && mine) {
          request.running = true;
          say(running);
          pool.fill();  // its Python has loaded: the spares may load now
        } else if (message.type === "output" && mine && Array.isArray(message.chunks)) {
          if (callbacks.onOutput) {
            callbacks.onOutput(/** @type {Array<[string, string]>} */ (message.chunks.filter(Array.isArray)), Math.max(0, Number(message.dropped) || 0), Math.max(0, Number(message.droppedChars) || 0));
          }
        } else if (message.type === "result" && mine && check) {
          // The run's Python has said all it may: a record, which only the judge reads.
          const given = message.result && typeof message.result.record === "string" ? message.result.record : "";
          const record = given && given.length <= MAX_RECORD_CHARS ? given : JSON.stringify({ error: given ? "The check's record is too big." : "The check gave no answer." });
          py.close();
          window.clearTimeout(request.timer);  // the program is done: the judge has limits of its own (lab mode)
          judged(what, record, seed).then(
            (verdict) => finish(request, { result: verdict && typeof verdict === "object" ? verdict : { error: "The check gave no answer." } }),
            (error) => finish(request, { message: "The check could not be judged: " + String(error && error.message) + " Press Check to try again." }));
        } else if (message.type === "result" && mine) {
          finish(request, { result: message.result && typeof message.result === "object" ? message.result : { error: "The " + thing + " gave no answer." } });
        } else if (message.type === "failed" && (mine || message.id === "")) {
          finish(request, { message: py.ready ? diedText(message, again) : "Python could not start: " + String(message.text) + ". Press " + again + " to try again." });
        }
      };
      say(py.ready ? running : loadingText(py));
      py.post({ type: "run", id: request.id, code: String(what.code), prefix: String(what.prefix || "ggrun"), exercise: check ? what.exercise : null, seed });
    });
  }

  return {
    run,
    /** @param {(text: string) => void} [onStatus] */
    warm(onStatus) {
      if (closed) return;
      pool.fill();
      if (options.checks) openJudge().catch(() => {});
      const spare = pool.next();
      if (!onStatus || !spare) return;
      watcher = spare.ready ? null : onStatus;
      onStatus(loadingText(spare));
    },
    busy: () => current !== null,
    stop() { if (current) finish(current, { message: "Stopped. Press " + current.again + " to start again." }); },
    close() {
      closed = true;
      if (current) finish(current, { message: "Stopped." });
      pool.close();
      if (judge) judge.then((lab) => lab.close(), () => {});
      judge = null;
    },
  };
}
