// One Python (Pyodide) in a Web Worker, for python-session.js: the only script that starts this worker and
// reads what it says. Everything is loaded from the site itself: Pyodide, Graphviz compiled to WebAssembly
// (@viz-js/viz) and one zip of glassgrad, graphviz and glassgrad_runtime (scripts/site_assets.py).
//
// A worker serves ONE program: the session sends one "run" and terminates the worker after its answer,
// so every program starts in a Python no earlier program touched. (Lab mode, "open" then "call"s, keeps
// one Python for the lab page's own code.) Before any Python code runs, the worker's ways out of the site
// are taken away (`seal`): no fetch, XMLHttpRequest, WebSocket, EventSource, importScripts, nested
// workers, BroadcastChannel, storage, fonts, eval, Function or string timers; the loader keeps its own
// fetch. The program can still reach this worker's JavaScript, so the page trusts nothing it says.
//
// Protocol:
//   page -> worker, once, on the worker itself: {type: "connect", base}, with a MessagePort transferred.
//     `base` is the URL of assets/playground/. The worker starts loading at once. Everything else goes over
//     that port; the page listens to nothing else (a program calling postMessage on the worker reaches no one).
//   page -> worker (port): {type: "run", id, code, prefix, exercise, seed}  run `code`, or with `exercise`
//                                                            (a name) record checking it as that exercise's
//                                                            answer on the inputs of `seed` (an integer)
//                          {type: "open", id, modules}       lab mode: import modules (an array of names in
//                                                            the zip, or {name: source})
//                          {type: "call", id, name, args}    lab mode: call "module.function"(*args)
//   worker -> page (port): {type: "progress", phase, loaded, total}  phase "download" (bytes so far, of
//                                                            the total announced so far) or "start"
//                          {type: "ready", seconds}          Python is loaded (seconds since connect)
//                          {type: "running", id}             the program starts now
//                          {type: "output", id, chunks, dropped, droppedChars}  printed text, in batches:
//                                                            [["stdout" | "stderr", text], ...], then the
//                                                            lines and characters left out after them (a
//                                                            run's output stops at 200,000 characters;
//                                                            then only counts, at most 4 a second)
//                          {type: "result", id, result}      glassgrad_runtime's answer, as data (at most
//                                                            1 million characters and 100,000 elements of
//                                                            HTML; past that an {error}); a check's: {record}
//                          {type: "returned", id, value}     a lab call's value (typed arrays transferred)
//                          {type: "failed", id, text, overflow}  Python could not load, or died (overflow:
//                                                            the JavaScript stack ran out)
"use strict";

// Private references, taken before anything else runs.
const apply = Reflect.apply, fromEntries = Object.fromEntries, now = performance.now.bind(performance);
const dataOf = Object.getOwnPropertyDescriptor(MessageEvent.prototype, "data").get;
const postOnPort = MessagePort.prototype.postMessage;
const loaderFetch = self.fetch.bind(self);
const MAX_RUN_CHARS = 200000;  // characters of one run's output sent on (the page shows as many)
const BATCH_MS = 50, COUNT_MS = 250;  // at most one batch of text per BATCH_MS; past the cap, a count per COUNT_MS
const MAX_RESULT_CHARS = 1e6, MAX_RESULT_ELEMENTS = 100000;  // an answer's HTML, at most (more takes the page too long to draw)
const PROGRESS_MS = 100;

let port = null;
let python = null;  // {pyodide, runtime}, once loaded
let served = false;  // this worker has taken its one program

function send(message, transfer) { apply(postOnPort, port, [message, transfer || []]); }

// Pyodide's own downloads go through this fetch, which counts their bytes for the progress line.
const bytes = { loaded: 0, total: 0, open: 0, sent: 0, wasm: false, sized: false };
function report(force) {
  if (!force && now() - bytes.sent < PROGRESS_MS) return;
  bytes.sent = now();
  // The total is told once Python's own download (the largest) has begun: before, it would grow as files start.
  send({ type: "progress", phase: bytes.open || !bytes.wasm ? "download" : "start", loaded: bytes.loaded, total: bytes.sized ? bytes.total : 0 });
}
// The response itself goes to the loader untouched (the browser then caches Python's compiled WebAssembly,
// which it keys on the response's address); a copy of its body is read for the count.
async function countingFetch(url, options) {
  bytes.open += 1;
  let response;
  try {
    response = await loaderFetch(url, options);
  } catch (error) {
    bytes.open -= 1;
    throw error;
  }
  const wasm = /\.wasm$/.test(String(response.url || url));
  bytes.total += Number(response.headers.get("content-length")) || 0;
  if (wasm) bytes.sized = true;
  const copy = response.clone();
  (async function () {
    try {
      if (copy.body) {
        const reader = copy.body.getReader();
        for (let part = await reader.read(); !part.done; part = await reader.read()) {
          bytes.loaded += part.value.byteLength;
          report(false);
        }
      }
    } catch { /* the loader reports its own failures */ }
    bytes.open -= 1;
    if (wasm) bytes.wasm = true;  // Python's own download, the last to finish
    report(true);
  })();
  return response;
}

// What a program could use to reach beyond the site (or to run JavaScript from a string, which could
// `import()` from anywhere). Each goes from the worker's global scope; the functions' constructors too.
const OUTSIDE = [
  "fetch", "XMLHttpRequest", "WebSocket", "WebSocketStream", "WebTransport", "EventSource", "importScripts",
  "Worker", "SharedWorker", "BroadcastChannel", "indexedDB", "caches", "CacheStorage", "FontFace", "fonts",
  "RTCPeerConnection", "RTCDataChannel", "close", "eval",
  // Storage that outlives a run (and is shared with other tabs): the file systems, IndexedDB, Cache Storage.
  "webkitRequestFileSystem", "webkitRequestFileSystemSync", "webkitResolveLocalFileSystemURL",
  "webkitResolveLocalFileSystemSyncURL", "requestFileSystem", "requestFileSystemSync", "webkitIndexedDB",
];
function refuse(name) {
  const blocked = function () { throw new TypeError(name + " is not available to a program here"); };
  Object.defineProperty(blocked, "name", { value: name });
  return blocked;
}
function seal() {
  for (const name of OUTSIDE) {
    try { delete self[name]; } catch { /* not configurable: overwritten below */ }
    if (name in self) Object.defineProperty(self, name, { value: refuse(name), writable: false, configurable: false });
  }
  if (self.navigator) for (const name of ["sendBeacon", "serviceWorker", "storage", "storageBuckets"]) {
    try { Object.defineProperty(Object.getPrototypeOf(self.navigator), name, { value: undefined }); } catch { /* absent */ }
  }
  // Function and its kin construct code from strings: each keeps its name and prototype (Pyodide checks them).
  const kinds = [function () {}, async function () {}, function* () {}, async function* () {}];
  for (const sample of kinds) {
    const prototype = Object.getPrototypeOf(sample), real = prototype.constructor;
    const blocked = refuse(real.name);
    blocked.prototype = prototype;
    Object.defineProperty(prototype, "constructor", { value: blocked, writable: false, configurable: false });
    if (self[real.name] === real) Object.defineProperty(self, real.name, { value: blocked, writable: false, configurable: false });
  }
  for (const name of ["setTimeout", "setInterval"]) {
    const timer = self[name];
    Object.defineProperty(self, name, {
      value: function (handler) {
        if (typeof handler !== "function") throw new TypeError(name + " takes a function here");
        return apply(timer, self, arguments);
      },
      writable: false, configurable: false,
    });
  }
}

async function load(base) {
  const started = now();
  report(true);
  self.fetch = countingFetch;
  // The downloads (and the two WebAssembly compilations) overlap.
  const vizReady = import(base + "viz/viz.js").then(function (Viz) { return Viz.instance(); });
  const bundleReady = countingFetch(base + "glassgrad.zip").then(function (response) {
    if (!response.ok) throw new Error("glassgrad.zip: HTTP " + response.status);
    return response.arrayBuffer();
  });
  const { loadPyodide } = await import(base + "pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: base + "pyodide/" });
  const viz = await vizReady;
  pyodide.unpackArchive(await bundleReady, "zip", { extractDir: "/home/pyodide/playground" });
  seal();  // before any Python of ours or of a program runs
  report(true);
  const render = function (source) { return viz.renderString(String(source), { format: "svg" }); };
  pyodide.runPython("import sys\nsys.path.insert(0, '/home/pyodide/playground')\n");
  const runtime = pyodide.pyimport("glassgrad_runtime.worker");
  runtime.start(render);
  python = { pyodide: pyodide, runtime: runtime };
  send({ type: "ready", seconds: (now() - started) / 1000 });
}

// Output, capped per RUN here too (a program can reach the emitter and call it itself): the first
// MAX_RUN_CHARS characters are sent, in batches at least BATCH_MS apart; past them only the counts of what
// was left out, at most every COUNT_MS.
function emitter(id) {
  let room = MAX_RUN_CHARS, lines = 0, chars = 0, told = -Infinity;
  let batch = [];  // what calls closer together than BATCH_MS collect (Python's own batches are further apart)
  function tell() {
    if (batch.length || lines || chars) send({ type: "output", id: id, chunks: batch, dropped: lines, droppedChars: chars });
    batch = [];
    lines = chars = 0;
    told = now();
  }
  const emit = function (chunks, dropped, droppedChars) {
    lines += Math.max(0, Number(dropped) || 0);
    chars += Math.max(0, Number(droppedChars) || 0);
    if (room > 0) {
      for (const chunk of chunks.toJs()) {
        const text = String(chunk[1]);
        const kept = text.slice(0, room);
        room -= kept.length;
        if (kept) batch.push([chunk[0] === "stderr" ? "stderr" : "stdout", kept]);
        if (kept.length < text.length) {  // the rest of the run's output is counted, never sent
          const cut = text.slice(kept.length);
          chars += cut.length;
          lines += cut.split("\n").length - 1;
        }
      }
    }
    chunks.destroy();
    if (now() - told >= (batch.length ? BATCH_MS : COUNT_MS)) tell();
  };
  emit.finish = tell;  // what is left, before the answer
  return emit;
}

// The answer as the page will receive it, or a message when it is too big to show (counted before it is sent).
function bounded(result) {
  let chars = 0, elements = 0;
  for (const value of Object.values(result)) {
    if (typeof value !== "string") continue;
    chars += value.length;
    for (let at = value.indexOf("<"); at >= 0 && elements <= MAX_RESULT_ELEMENTS; at = value.indexOf("<", at + 1)) elements += 1;
  }
  if (chars <= MAX_RESULT_CHARS && elements <= MAX_RESULT_ELEMENTS) return result;
  const text = "The result is too big to show (" + (chars / 1e6).toFixed(1) + " million characters, " +
    (elements > MAX_RESULT_ELEMENTS ? "over " + MAX_RESULT_ELEMENTS.toLocaleString("en") : elements.toLocaleString("en")) + " elements; at most " +
    (MAX_RESULT_CHARS / 1e6) + " million and " + MAX_RESULT_ELEMENTS.toLocaleString("en") + "): draw a smaller graph.";
  return "record" in result ? { record: JSON.stringify({ error: text }) } : { error: text };
}

function run(id, request) {
  served = true;
  send({ type: "running", id: id });
  const exercise = typeof request.exercise === "string" ? request.exercise : undefined;  // (null would be jsnull)
  const emit = emitter(id);
  const execute = python.runtime.execute, args = [String(request.code), String(request.prefix || "ggrun"), emit];
  const seed = Number.isSafeInteger(request.seed) ? request.seed : 0;
  const answer = exercise === undefined
    ? execute(...args)
    : execute.callKwargs(...args, { exercise: exercise, seed: seed });
  emit.finish();
  try {
    send({ type: "result", id: id, result: bounded(answer.toJs({ dict_converter: fromEntries })) });
  } finally {
    answer.destroy();
  }
}

function open(id, modules) {
  served = true;
  const pyodide = python.pyodide;
  if (modules && !Array.isArray(modules) && typeof modules === "object") {
    pyodide.FS.mkdirTree("/home/pyodide/lab");
    pyodide.runPython("import sys\nsys.path.insert(0, '/home/pyodide/lab')\n");
    for (const name of Object.keys(modules)) pyodide.FS.writeFile("/home/pyodide/lab/" + name + ".py", String(modules[name]));
    modules = Object.keys(modules);
  }
  for (const name of modules || []) pyodide.pyimport(String(name));
  send({ type: "returned", id: id, value: null });
}

function buffersOf(value, found) {
  if (ArrayBuffer.isView(value)) found.push(value.buffer);
  else if (Array.isArray(value)) value.forEach(function (item) { buffersOf(item, found); });
  else if (value && typeof value === "object") Object.values(value).forEach(function (item) { buffersOf(item, found); });
  return found;
}

function call(id, name, args) {
  const pyodide = python.pyodide, dot = String(name).lastIndexOf(".");
  const module = pyodide.pyimport(String(name).slice(0, dot));
  const pyArgs = (Array.isArray(args) ? args : []).map(function (arg) { return pyodide.toPy(arg); });
  let answer = null;
  try {
    answer = apply(module[String(name).slice(dot + 1)], null, pyArgs);
  } finally {
    module.destroy();
    pyArgs.forEach(function (arg) { if (arg && typeof arg.destroy === "function") arg.destroy(); });
  }
  let value = answer;
  if (answer && typeof answer.toJs === "function") {
    value = answer.toJs({ dict_converter: fromEntries, create_pyproxies: false });
    answer.destroy();
  }
  send({ type: "returned", id: id, value: value }, buffersOf(value, []));
}

function failure(error) {
  const text = String(error && error.message ? error.message : error);
  const overflow = error instanceof RangeError || /call stack|stack overflow|too much recursion/i.test(text);
  const lines = text.trim().split("\n").filter(function (line) { return line.trim() && !/^For more information/.test(line); });
  return { text: String(lines[lines.length - 1] || text).slice(0, 500), overflow: overflow };
}

let ready = null;
async function onRequest(base, request) {
  if (!request || typeof request !== "object") return;
  const id = typeof request.id === "string" ? request.id : "";
  try {
    await ready;
    if (request.type === "run" && !served && id) run(id, request);
    else if (request.type === "open" && !served && id) open(id, request.modules);
    else if (request.type === "call" && id && typeof request.name === "string") call(id, request.name, request.args);
  } catch (error) {
    send(Object.assign({ type: "failed", id: id }, failure(error)));
  }
}

self.onmessage = function (event) {
  const message = apply(dataOf, event, []);
  if (port || !message || message.type !== "connect" || !event.ports.length) return;
  port = event.ports[0];
  const base = String(message.base);
  ready = load(base);
  ready.catch(function (error) { send(Object.assign({ type: "failed", id: "" }, failure(error))); });
  port.onmessage = function (portEvent) { onRequest(base, apply(dataOf, portEvent, [])); };
  self.onmessage = null;  // from now on the worker listens to its port only
};
