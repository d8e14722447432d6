// @ts-check
// The training lab (docs/lab.md): the page glue. The real glassgrad trains in the page's long-lived Python
// (session.js), one call of glassgrad_site.lab.page.step per training step, looped from here, so Pause waits at
// most for the step under way. Before Python is ready, the page draws the run the build wrote into it.
import { curve } from "./curves.js";
import { InspectPanel } from "./inspect.js";
import { NetworkDiagram, ParameterTable } from "./network.js";
import { HeatPainter, gridPoint, gridSize } from "./heat.js";
import { buffers, forward, listenOnPlane, nearest, paintPlane, palette } from "./plane.js";
import { LabPython } from "./session.js";
import { builtModel, download, isDefault, readHash, writeHash } from "./state.js";
import { Controls } from "./controls.js";
import { measures, planeCaption } from "./words.js";

/**
 * Set up the lab in `root`; returns what ends it (the page is left).
 * @param {HTMLElement} root
 */
function setUp(root) {
  root.dataset.ggReady = "1";
  root.hidden = false;
  const $ = (/** @type {string} */ name) => /** @type {HTMLElement} */ (root.querySelector(`[data-lab="${name}"]`));
  /** @type {Record<string, HTMLButtonElement>} */
  const buttons = {};
  root.querySelectorAll("[data-lab-do]").forEach((b) => { buttons[/** @type {HTMLElement} */ (b).dataset.labDo || ""] = /** @type {HTMLButtonElement} */ (b); });
  const status = $("status"), plane = /** @type {HTMLCanvasElement} */ ($("plane"));
  const built = builtModel();
  let settings = { ...built.defaults, ...readHash(built.defaults, window.location.hash) };
  const python = new LabPython(say);
  const inspect = new InspectPanel($);
  const diagram = new NetworkDiagram(/** @type {HTMLCanvasElement} */ ($("network")), (layer, neuron) => {
    const label = layer === (run ? run.sizes.length - 1 : 0) ? `L${layer}.n${neuron}.z` : `L${layer}.n${neuron}`;
    if (inspect.drawnView === false) /** @type {HTMLInputElement} */ ($("every-value")).checked = false;
    showInspect(inspect.shown ? inspect.inspected : -1).then(() => inspect.focusNode(label));
  }, drawAll);
  const table = new ParameterTable(/** @type {HTMLDetailsElement} */ ($("params")), $("param-rows"));
  let running = false, inFlight = false, stopAt = 0, left = false;
  /** @type {(import("./plane.js").Network & Record<string, any>) | null} what start() returned, then updated by each step */
  let run = null;
  /** @type {number[][]} per step: [step, train loss, test loss, train accuracy, test accuracy] */
  let history = [];
  /** @type {number[]} every step's loss, as Python computed it */
  let losses = [];
  let preparedShape = "";
  const cross = [0.5, 0.5]; // the keyboard's cross on the plane, as shares of its width and height
  let out = buffers([2, 1]), grid = 20;
  const heat = new HeatPainter();
  const timings = { steps: /** @type {number[]} */ ([]), heat: /** @type {number[]} */ ([]), python: /** @type {number[]} */ ([]), inspect: 0, inspections: 0 };

  /** @param {string} text */
  function say(text) { status.textContent = text; }
  const controls = new Controls(root, built.defaults, (change) => {
    settings = { ...settings, ...change };
    if (python.ready) restart();
  });
  /** @type {number[]} when the latest steps ended (ms), for the steps per second */
  let ended = [];
  function perSecond() {
    const now = performance.now();
    ended = ended.filter((t) => now - t < 2000);
    return running && ended.length > 1 ? (1000 * (ended.length - 1)) / (ended[ended.length - 1] - ended[0]) : 0;
  }

  // --- a run ------------------------------------------------------------------------------------------
  /** @param {import("./plane.js").Network & Record<string, any>} state  what glassgrad_site.lab.page.start returned */
  function started(state) {
    run = state;
    settings = state.settings;
    controls.show(settings);
    $("plane-caption").textContent = planeCaption(state.task);
    $("accuracy-figure").hidden = state.task === "regression";
    $("metrics").textContent = measures(state, 0);
    if (python.ready) writeHash(settings);
    out = buffers(state.sizes);
    grid = gridSize(state.sizes);
    heat.want(state, grid, out);
    history = [];
    losses = [];
    inspect.close();
    table.fill(state, true);
    drawAll();
    const notes = (state.messages || []).join(" ");
    say(`step 0 · the network starts from random weights (seed ${settings.seed})${python.ready ? ": press Train or Step." : "."}${notes ? ` ${notes}` : ""}`);
    if (python.ready) window.setTimeout(prepare, 1000);
  }
  /** @param {unknown} error */
  function failed(error) {
    running = false; inFlight = false;
    busy();
    say(`Python stopped: ${error instanceof Error ? error.message : String(error)} Press Train or Step to start it again.`);
    python.forgetIfDead();
  }
  // Lay out the inspected graph (Graphviz: a second or two of Python) while the lab is idle, once per shape.
  function prepare() {
    const view = inspect.neurons(), shape = `${settings.layers}|${settings.loss}|${view}`;
    if (shape === preparedShape || running || inFlight || !python.ready) return;
    preparedShape = shape;
    python.call("prepare", [view]).catch(() => { preparedShape = ""; });
  }
  function restart() {
    pause();
    return python.call("start", [settings]).then(started, failed);
  }
  /** @param {Record<string, any>} state  what glassgrad_site.lab.page.step returned */
  function apply(state) {
    if (!run) return;
    Object.assign(run, state);
    losses = losses.concat(state.losses);
    history.push([state.step, state.train_loss, state.test_loss, state.train_accuracy, state.test_accuracy]);
    timings.python.push(state.seconds * 1000);
    ended.push(performance.now());
    say(`step ${state.step}${running ? " · training" : ""}`);
    $("metrics").textContent = measures(run, perSecond());
    if (state.numbers) inspect.rewrite(state.numbers);
    heat.want(run, grid, out);
    drawAll();
  }
  function oneStep() {
    inFlight = true;
    const t0 = performance.now();
    return python.call("step", [1, inspect.shown ? inspect.inspected : -1, inspect.drawnView ?? true]).then((state) => {
      inFlight = false;
      timings.steps.push(performance.now() - t0);
      apply(state);
    }, (error) => { inFlight = false; throw error; });
  }
  function loop() {
    if (!running || !run) return;
    if (stopAt && run.step >= stopAt) { pause(); say(`step ${run.step} · stopped after ${stopAt} steps`); return; }
    // The next step at once: Python runs in its worker while this thread draws (at most once per frame).
    oneStep().then(() => { if (running) loop(); else paused(); }, failed);
  }
  function train() {
    if (running) { pause(); return; }
    stopAt = controls.stopAt();
    ended = [];
    running = true;
    busy();
    if (inspect.shown) inspect.dropPlayer();
    if (!inFlight) loop();
  }
  function pause() {
    if (!running) return;
    running = false; // the step under way finishes; none starts after it
    busy();
    if (!inFlight) paused();
  }
  function paused() {
    busy();
    prepare();
    if (inspect.shown && inspect.inspected >= 0) showInspect(inspect.inspected); // a fresh replay of its backward pass
  }
  function step() {
    if (running || inFlight) return;
    oneStep().then(() => { if (inspect.shown) showInspect(inspect.inspected); }, failed);
  }
  function busy() {
    const ready = python.ready && run !== null;
    buttons.train.textContent = running ? "Pause" : "Train";
    buttons.train.setAttribute("aria-pressed", running ? "true" : "false");
    for (const name of ["train", "step", "reset", "inspect", "download", "suggest"]) buttons[name].disabled = !ready;
    buttons.step.disabled = !ready || running;
  }

  // --- drawing: at most once per frame; the heat map a slice per frame (heat.js) ------------------------------
  let frameAsked = 0, changed = false;
  function drawAll() {
    changed = true;
    if (!frameAsked) frameAsked = window.requestAnimationFrame(frame);
  }
  function frame() {
    frameAsked = 0;
    const t0 = performance.now(), slicing = heat.busy, whole = heat.advance(), spent = performance.now() - t0;
    const colours = palette(root), state = run;
    if (slicing) timings.heat.push(spent);
    if (state && (whole || changed)) paintPlane(plane, colours, heat.cells, { run: state, ringed: inspect.shown ? inspect.inspected : -1, cross: document.activeElement === plane ? cross : null });
    if (changed && state) {
      curve(/** @type {HTMLCanvasElement} */ ($("loss-curve")), colours, history, 1, 2, false);
      curve(/** @type {HTMLCanvasElement} */ ($("accuracy-curve")), colours, history, 3, 4, true);
      table.fill(state, false);
      diagram.draw(state, (x1, x2) => { forward(state, x1, x2, out); return out; }, colours.ink);
    }
    changed = false;
    if (heat.busy && !frameAsked) frameAsked = window.requestAnimationFrame(frame);
  }

  // --- Inspect --------------------------------------------------------------------------------------------
  /** @param {number} index  a training example, or -1 for the one with the largest loss */
  function showInspect(index) {
    if (running) pause();
    const t0 = performance.now(), view = inspect.neurons();
    return python.call("inspect", [index, !inspect.shown || inspect.drawnView !== view, view])
      .then((answer) => inspect.show(answer, /** @type {Record<string, any>} */ (run)))
      .then(() => {
        timings.inspect = performance.now() - t0;
        timings.inspections += 1;
        drawAll();
      })
      .catch(failed);
  }

  // --- clicks on the plane ----------------------------------------------------------------------------------
  /** What a click at (x, y), in CSS pixels from the plane's top left corner, does: the chosen action.
   * @param {number} x @param {number} y */
  function actAt(x, y) {
    if (!run || !python.ready) return;
    const box = { width: plane.clientWidth, height: plane.clientHeight };
    const checked = /** @type {HTMLInputElement | null} */ (root.querySelector('input[name="gg-lab-click"]:checked'));
    const mode = checked ? checked.value : "inspect";
    if (mode === "inspect") {
      const k = nearest(run, box, x, y);
      if (k >= 0) showInspect(k);
      return;
    }
    if (mode === "remove") {
      const gone = nearest(run, box, x, y);
      if (gone < 0) return;
      const origin = run.origins[gone];
      if (origin >= 0) settings.removed = settings.removed.concat([origin]);
      else settings.added = settings.added.filter((/** @type {unknown} */ _, /** @type {number} */ k) => k !== -1 - origin);
    } else {
      const view = run.view;
      const x1 = view[0] + (x / box.width) * (view[1] - view[0]), x2 = view[3] - (y / box.height) * (view[3] - view[2]);
      settings.added = settings.added.concat([[Number(x1.toFixed(3)), Number(x2.toFixed(3)), mode === "add+1" ? 1 : run.task === "classes" ? 0 : -1]]);
    }
    restart();
  }
  listenOnPlane(plane, cross, actAt, drawAll);

  // --- controls -------------------------------------------------------------------------------------------
  buttons.train.addEventListener("click", train);
  buttons.step.addEventListener("click", step);
  buttons.reset.addEventListener("click", restart);
  buttons.inspect.addEventListener("click", () => showInspect(-1));
  buttons.gradcheck.addEventListener("click", () => {
    if (inspect.inspected < 0) return;
    $("gradcheck-text").textContent = "Checking…";
    python.call("gradcheck", [inspect.inspected]).then((result) => inspect.checked(result), failed);
  });
  $("every-value").addEventListener("change", () => {
    if (inspect.shown && inspect.inspected >= 0) { inspect.dropPlayer(); showInspect(inspect.inspected); }
    prepare();
  });
  buttons["close-inspect"].addEventListener("click", () => { inspect.dropPlayer(); inspect.close(); drawAll(); });
  buttons.download.addEventListener("click", () => {
    python.call("script", [window.location.href]).then((text) => download(text, built.file_name), failed);
  });
  $("params").addEventListener("toggle", () => { if (run) table.fill(run, false); });
  buttons.suggest.addEventListener("click", () => {
    settings = { ...built.defaults, ...built.suggested.spiral };
    restart();
  });
  window.addEventListener("resize", drawAll);

  // At once: the run the build wrote (when the address asks for the defaults), the controls, and Python loading.
  controls.show(settings);
  if (isDefault(built.defaults, readHash(built.defaults, window.location.hash))) started(built.start);
  busy();
  python.open().then(() => {
    if (left) return undefined;
    return python.call("start", [settings]).then((state) => { started(state); busy(); });
  }).catch(failed);

  // For the page's tests and the curious: the grid the heat map used, and its scores.
  /** @type {any} */ (window).glassgrad.lab = {
    timings,
    grid() {
      const state = /** @type {Record<string, any>} */ (run), points = [];
      for (let j = 0; j < grid; j++) for (let i = 0; i < grid; i++) points.push(gridPoint(state.view, grid, i, j));
      return { points, scores: Array.from(heat.now(state, grid, out)) };
    },
    history: () => history.slice(),
    losses: () => losses.slice(),
    state: () => run,
    ready: () => python.ready && run !== null,
    running: () => running || inFlight,
    call: (/** @type {string} */ name, /** @type {unknown[]} */ args) => python.call(name, args),
  };

  return () => {
    left = true;
    running = false;
    python.close();
    /** @type {any} */ (window).glassgrad.lab = null;
  };
}

/** @type {(() => void) | null} */
let closeCurrent = null;
function setUpAll() {
  const win = /** @type {any} */ (window);
  win.glassgrad = win.glassgrad || {};
  const root = /** @type {HTMLElement | null} */ (document.querySelector("[data-gg-lab]:not([data-gg-ready])"));
  if (closeCurrent && (root || !document.querySelector("[data-gg-lab]"))) { closeCurrent(); closeCurrent = null; }
  if (root) closeCurrent = setUp(root);
}
const documents = /** @type {any} */ (window).document$;
if (documents && documents.subscribe) documents.subscribe(setUpAll);
else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUpAll);
else setUpAll();
