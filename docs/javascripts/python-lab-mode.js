// python-lab-mode.js: LAB MODE, for a page's own Python code (never a reader's program): one long-lived Python.
//
//   import { open } from "./python-session.js";
//   const lab = await open({modules, onStatus});   modules: names to import from the site's zip, or
//                                                  {name: source} to write and import.
//   lab.call("module.function", args, transfer) -> Promise of the value   one call at a time (a second call
//       while one is under way is refused), each under the time limit. args: numbers, strings, arrays, plain
//       objects, typed arrays (they arrive through pyodide.toPy; list in `transfer` the ArrayBuffers to move
//       rather than copy). The value comes back through toJs (dicts as objects; buffers as typed arrays,
//       moved). A Python exception rejects the call (the lab stays open); the time limit, or a Python that
//       died, rejects it and closes the lab (lab.closed): open a new one.
//   lab.busy(), lab.close(), lab.closed
import { LOAD_LIMIT_S, diedText, limit, loadingText, randomId, seconds, startPython } from "./python-link.js";

/**
 * @typedef {object} Lab
 * @property {boolean} closed
 * @property {(name: string, args?: unknown[], transfer?: Transferable[]) => Promise<any>} call
 * @property {() => boolean} busy
 * @property {() => void} close
 */

/**
 * @param {{modules?: string[] | Record<string, string>, onStatus?: (text: string) => void}} [options]
 * @returns {Promise<Lab>}
 */
export function open(options = {}) {
  const py = startPython();
  /** @type {{id: string, timer: number, resolve: (value: any) => void, reject: (error: Error) => void} | null} */
  let pending = null;
  /** @param {boolean} ok @param {any} value */
  function settle(ok, value) {
    const call = pending;
    pending = null;
    if (!call) return;
    window.clearTimeout(call.timer);
    if (ok) call.resolve(value);
    else call.reject(value instanceof Error ? value : new Error(String(value)));
  }
  /** @type {Lab} */
  const lab = {
    closed: false,
    busy: () => pending !== null,
    close() {
      lab.closed = true;
      py.close();
      settle(false, new Error("The lab's Python was closed."));
    },
    call(name, args, transfer) {
      return request({ type: "call", name: String(name), args: args || [] }, transfer || [], limit,
        "Stopped: " + String(name) + " ran for more than " + seconds(limit) + "; the lab's Python was closed.");
    },
  };
  /**
   * @param {Record<string, unknown>} message @param {Transferable[]} transfer
   * @param {number} seconds @param {string} late  what the time limit says
   */
  function request(message, transfer, seconds, late) {
    if (lab.closed) return Promise.reject(new Error("The lab's Python was closed: open a new one."));
    if (pending) return Promise.reject(new Error("One call at a time: wait for the one under way."));
    return new Promise((resolve, reject) => {
      const id = randomId();
      const timer = window.setTimeout(() => {
        settle(false, new Error(late));
        lab.close();
      }, seconds * 1000);
      pending = { id, timer, resolve, reject };
      py.post(Object.assign({}, message, { id }), transfer);
    });
  }
  py.listener = (message) => {
    if ((message.type === "progress" || message.type === "ready") && options.onStatus) options.onStatus(loadingText(py));
    else if (message.type === "returned" && pending && message.id === pending.id) settle(true, message.value);
    else if (message.type === "failed" && pending && (message.id === pending.id || message.id === "")) {
      const died = !py.ready || message.overflow;
      if (died) { lab.closed = true; py.close(); }
      settle(false, new Error(py.ready ? (died ? diedText(message, "open") : String(message.text)) : "Python could not start: " + String(message.text)));
    }
  };
  return request({ type: "open", modules: options.modules || [] }, [], LOAD_LIMIT_S,
    "Python did not start within " + seconds(LOAD_LIMIT_S) + ".").then(() => lab);
}
