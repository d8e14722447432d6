// The playground's Python, in a Web Worker so that a program that never ends cannot freeze the page
// (the page terminates this worker). Everything is loaded from the site itself: Pyodide, Graphviz
// compiled to WebAssembly (@viz-js/viz) and one zip of glassgrad, graphviz and the runner.
"use strict";

let ready = null;
let runner = null;
let checker = null;

function say(type, fields) {
  self.postMessage(Object.assign({ type: type }, fields));
}

async function load(base) {
  const started = performance.now();
  say("progress", { text: "Loading Python (Pyodide), Graphviz and glassgrad…" });
  // The three downloads (and the two WebAssembly compilations) overlap.
  const vizReady = import(base + "viz/viz.js").then(function (Viz) { return Viz.instance(); });
  const bundleReady = fetch(base + "glassgrad.zip").then(function (response) {
    if (!response.ok) throw new Error("glassgrad.zip: HTTP " + response.status);
    return response.arrayBuffer();
  });
  const { loadPyodide } = await import(base + "pyodide/pyodide.mjs");
  const pyodide = await loadPyodide({ indexURL: base + "pyodide/" });
  say("progress", { text: "Loading glassgrad…" });
  const viz = await vizReady;
  pyodide.unpackArchive(await bundleReady, "zip", { extractDir: "/home/pyodide/playground" });
  // The one swap: glassgrad.viz draws exactly as at build time, with this Graphviz instead of `dot`.
  pyodide.registerJsModule("playground_js", {
    render_svg: function (source) { return viz.renderString(source, { format: "svg" }); },
  });
  pyodide.runPython(
    "import sys\n" +
    "sys.path.insert(0, '/home/pyodide/playground')\n" +
    "import glassgrad.viz.graph, playground_js, playground_runner\n" +
    "glassgrad.viz.graph.render_svg = playground_js.render_svg\n"
  );
  runner = pyodide.globals.get("playground_runner").run;
  // The exercises page's Check: glassgrad.exercises on the reader's code, with the playground's error messages.
  checker = pyodide.runPython(
    "import glassgrad.exercises\n" +
    "lambda name, code, prefix: glassgrad.exercises.check_program(\n" +
    "    name, code, explain=playground_runner.explain, filename=playground_runner.FILENAME).as_dict(prefix)\n"
  );
  say("ready", { seconds: (performance.now() - started) / 1000 });
}

self.onmessage = async function (event) {
  const message = event.data;
  try {
    if (!ready) ready = load(message.base);
    await ready;
    if (message.type !== "run" && message.type !== "check") return;
    say("running", {});
    const proxy = message.type === "check"
      ? checker(message.exercise, message.code, message.prefix)
      : runner(message.code, message.prefix);
    const result = proxy.toJs({ dict_converter: Object.fromEntries });
    proxy.destroy();
    say("result", { result: result });
  } catch (error) {
    say("failed", { text: String(error && error.message ? error.message : error) });
  }
};
