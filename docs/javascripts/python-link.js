// python-link.js: one Python (Pyodide) in a module worker (python-worker.js, whose header gives the protocol),
// and the sentences that tell its progress. python-session.js (Runs and Checks) and python-lab-mode.js (the
// lab's long-lived Python) start workers only through `startPython`.
//
// Trust: nothing a worker says is trusted. Only the worker's private MessageChannel port is read (a program
// calling postMessage on the worker reaches no one), and only objects; the page owns the time limit.
import { workerURL } from "./sanitizer.js";
import { timeLimit } from "./url.js";

/** Where the site serves Pyodide, Graphviz, DOMPurify and the bundle of glassgrad. */
export const ASSETS = new URL("../assets/playground/", import.meta.url).href;

/** Seconds Python may take to download and start, on a slow connection. */
export const LOAD_LIMIT_S = 120;

/** The time limit for a program (?limit=SECONDS, read once) and, if ?limit= was unusable, a sentence saying so. */
export const { limit, note: limitNote } = timeLimit(window.location.search);

/**
 * @typedef {{type: string, id?: string, text?: string, overflow?: boolean, [key: string]: any}} Message
 * @typedef {object} Python  one worker: its state and the one listener its messages go to
 * @property {"download" | "start"} phase
 * @property {number} loaded  bytes downloaded so far
 * @property {number} total   bytes announced so far
 * @property {number} seconds  how long loading took, once ready
 * @property {boolean} ready
 * @property {Message | null} failed  the failure that kept it from loading
 * @property {boolean} closed
 * @property {boolean} busy  a request was sent (a worker error is then the program's)
 * @property {((message: Message) => void) | null} listener
 * @property {(message: object, transfer?: Transferable[]) => void} post
 * @property {() => void} close
 */

const tenths = new Intl.NumberFormat("en", { maximumFractionDigits: 1 });  // made once: each lab call tells its time

/** @param {number} n */
export function seconds(n) { return tenths.format(n) + " s"; }

/** @param {number} n */
function megabytes(n) { return (n / 1e6).toFixed(1); }

/** A request's id: 128 random bits in hex. */
export function randomId() {
  const bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => (b + 256).toString(16).slice(1)).join("");
}

/** @returns {Python} a worker starting to load Python now */
export function startPython() {
  const worker = new Worker(workerURL(), { type: "module" });  // (a TrustedScriptURL under Trusted Types)
  const channel = new MessageChannel();
  /** @type {Python} */
  const py = {
    phase: "download", loaded: 0, total: 0, seconds: 0, ready: false, failed: null, closed: false, busy: false,
    listener: null,
    post(message, transfer) { py.busy = true; channel.port1.postMessage(message, transfer || []); },
    close() {
      py.closed = true;
      py.listener = null;
      channel.port1.onmessage = null;
      channel.port1.close();
      worker.onerror = null;
      worker.terminate();
    },
  };
  /** @param {unknown} data */
  function deliver(data) {
    if (py.closed || !data || typeof data !== "object") return;
    const message = /** @type {Message} */ (data);
    if (message.type === "progress") {
      py.phase = message.phase === "start" ? "start" : "download";
      py.loaded = Number(message.loaded) || 0;
      py.total = Number(message.total) || 0;
    } else if (message.type === "ready") {
      py.ready = true;
      py.seconds = Number(message.seconds) || 0;
    } else if (message.type === "failed" && !py.ready) py.failed = message;
    if (py.listener) py.listener(message);
  }
  channel.port1.onmessage = (event) => deliver(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    // Once a program has been sent, an error here is the program's (the time limit covers the rest).
    if (!py.busy) deliver({ type: "failed", id: "", text: event.message || "the worker could not start" });
  };
  worker.postMessage({ type: "connect", base: ASSETS }, [channel.port2]);
  return py;
}

/** @param {Python} py */
export function loadingText(py) {
  if (py.ready) return "Python is ready (loaded in " + seconds(py.seconds) + ").";
  if (py.phase === "start") return "Starting Python…";
  return py.total ? "Downloading Python: " + megabytes(py.loaded) + " of " + megabytes(py.total) + " MB…" : "Downloading Python…";
}

/**
 * What to say when a Python that had loaded died.
 * @param {Message} failed
 * @param {string} again  the button that starts afresh
 */
export function diedText(failed, again) {
  if (failed.overflow) {
    return "Python ran out of stack space and was restarted: something was nested too deeply to free or print " +
      "(a chain of many values dropped inside a function, for example; one kept in a global name is freed safely). " +
      "Press " + again + " to try again.";
  }
  return "Python stopped with a fatal error (" + String(failed.text || "unknown") + ") and was restarted. Press " + again + " to try again.";
}
