// The playground's Python, in a Web Worker: a program that never ends cannot freeze the page (the page
// terminates this worker). Everything is loaded from the site itself: Pyodide, Graphviz compiled to
// WebAssembly (@viz-js/viz) and one zip of glassgrad, graphviz, the runner and the sandbox.
//
// Protocol (any page script may use it; playground.js does):
//   page -> worker, once, on the worker itself: {type: "connect", base}, with a MessagePort transferred.
//     `base` is the URL of assets/playground/. Everything else goes over that port, in both directions;
//     the page listens to nothing else, so a program calling postMessage on the worker reaches no one.
//   page -> worker (port): {type: "load"}                    start loading Python now (optional)
//                          {type: "run", id, code, prefix}   run `code`; `id` is the page's secret for this
//                                                            run (a random string), `prefix` the figures' ids
//   worker -> page (port): {type: "progress", text}          while loading
//                          {type: "ready", seconds}          Python is loaded
//                          {type: "running", id}             the program starts now (start its clock)
//                          {type: "output", id, chunks, dropped}  printed text, in batches: chunks is
//                                                            [["stdout" | "stderr", text], ...], dropped the
//                                                            lines left out before them
//                          {type: "result", id, result}      the runner's dict, as data: {error} or
//                                                            {summary, figure, order, cards} (HTML strings
//                                                            the page must sanitize before showing them)
//                          {type: "failed", id, text}        Python could not load, or died (the page
//                                                            then needs a new worker)
// The reader's program runs inside this worker and can reach its JavaScript: the port and the run's id
// are kept where Python cannot see them, so the program can print, but cannot answer for the worker.
"use strict";

const fromEntries = Object.fromEntries, now = performance.now.bind(performance);
const dataOf = Object.getOwnPropertyDescriptor(MessageEvent.prototype, "data").get;
const apply = Reflect.apply;
let ready = null;
let sandbox = null;
let port = null;
let send = null;

async function load(base) {
  const started = now();
  send({ type: "progress", text: "Loading Python (Pyodide), Graphviz and glassgrad…" });
  // The three downloads (and the two WebAssembly compilations) overlap.
  const vizReady = import(base + "viz/viz.js").then(function (Viz) { return Viz.instance(); });
  const bundleReady = fetch(base + "glassgrad.zip").then(function (response) {
    if (!response.ok) throw new Error("glassgrad.zip: HTTP " + response.status);
    return response.arrayBuffer();
  });
  const { loadPyodide } = await import(base + "pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: base + "pyodide/" });
  send({ type: "progress", text: "Loading glassgrad…" });
  const viz = await vizReady;
  pyodide.unpackArchive(await bundleReady, "zip", { extractDir: "/home/pyodide/playground" });
  // The one swap: glassgrad.viz draws exactly as at build time, with this Graphviz instead of `dot`.
  pyodide.registerJsModule("playground_js", {
    render_svg: function (source) { return viz.renderString(source, { format: "svg" }); },
  });
  pyodide.runPython(
    "import sys\n" +
    "sys.path.insert(0, '/home/pyodide/playground')\n" +
    "import playground_js, playground_sandbox\n" +
    "playground_sandbox.prepare(playground_js.render_svg)\n"
  );
  sandbox = pyodide.pyimport("playground_sandbox");
  send({ type: "ready", seconds: (now() - started) / 1000 });
}

function run(id, code, prefix) {
  sandbox.begin();  // the interpreter as it was before any program, then the clock starts
  send({ type: "running", id: id });
  const emit = function (chunks, dropped) {
    send({ type: "output", id: id, chunks: chunks.toJs(), dropped: dropped });
    chunks.destroy();
  };
  const pair = sandbox.run(String(code), String(prefix), emit);
  let built = null;
  try {
    const result = pair.get(0).toJs({ dict_converter: fromEntries });
    built = pair.get(1);
    send({ type: "result", id: id, result: result });
  } finally {
    pair.destroy();
  }
  // After the answer: free what the program built, one object at a time (see sandbox.py). Should that
  // fail, the objects are freed the usual way, later: the answer is already on the page.
  try { sandbox.dismantle(built); } catch (error) { /* nothing to tell the page */ }
  built.destroy();
}

async function onRequest(base, request) {
  if (!request || typeof request !== "object") return;
  const id = typeof request.id === "string" ? request.id : "";
  try {
    if (!ready) ready = load(base);
    await ready;
    if (request.type === "run" && id && typeof request.code === "string") run(id, request.code, String(request.prefix || "ggrun"));
  } catch (error) {
    send({ type: "failed", id: id, text: String(error && error.message ? error.message : error) });
  }
}

self.onmessage = function (event) {
  const message = apply(dataOf, event, []);
  if (port || !message || message.type !== "connect" || !event.ports.length) return;
  port = event.ports[0];
  send = MessagePort.prototype.postMessage.bind(port);
  const base = String(message.base);
  port.onmessage = function (portEvent) { onRequest(base, apply(dataOf, portEvent, [])); };
  self.onmessage = null;  // from now on the worker listens to its port only
};
