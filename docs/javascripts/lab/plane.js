// @ts-check
// The plane: the data points over the model's output, which is computed here from the weights Python sent
// (the same additions in the same order as glassgrad.nn's weighted_sum: the same bits for ReLU), and the
// model's forward pass that the network diagram's small maps use too.

/** @type {number[][]} class colours: blue (−1 or class 0), orange (+1 or class 1), green (class 2) */
export const COLOURS = [[37, 99, 235], [234, 88, 12], [22, 163, 74]];

/** @type {Record<string, (x1: number, x2: number) => number>} the input features (glassgrad_site.lab.model.FEATURES) */
export const FEATURES = {
  x1: (x1) => x1,
  x2: (_, x2) => x2,
  "x1^2": (x1) => x1 * x1,
  "x2^2": (_, x2) => x2 * x2,
  x1x2: (x1, x2) => x1 * x2,
  "sin x1": (x1) => Math.sin(x1),
  "sin x2": (_, x2) => Math.sin(x2),
};

/** @type {Record<string, (z: number) => number>} a hidden neuron's activation, as the engine computes it */
const ACTIVATIONS = {
  relu: (z) => (z < 0 ? 0 : z), // keeps -0 and NaN, as glassgrad's does
  tanh: Math.tanh,
  sigmoid: (z) => 1 / (1 + Math.exp(-z)),
  linear: (z) => z,
};

/**
 * The page's colours (read once per frame: reading styles can cost a style recalculation).
 * @param {Element} root
 */
export function palette(root) {
  const style = getComputedStyle(root), read = (/** @type {string} */ name, /** @type {string} */ fallback) => style.getPropertyValue(name).trim() || fallback;
  return { ink: read("--md-default-fg-color", "#000"), paper: read("--md-default-bg-color", "#fff"), light: read("--md-default-fg-color--light", "#666"), accent: read("--md-accent-fg-color", "#009485") };
}

/**
 * @typedef {{sizes: number[], weights: number[], features: string[], activation: string}} Network
 *   weights: layer by layer, neuron by neuron, its weights then its bias (glassgrad_site.lab.model.Lab.weights)
 */

/** @param {number[]} sizes @returns {Float64Array[]} one buffer per layer, for `forward` */
export function buffers(sizes) {
  return sizes.map((n) => new Float64Array(n));
}

/**
 * The network's forward pass on plain numbers (glassgrad.nn.Module.evaluate): every layer's outputs land in `out`.
 * @param {Network} net
 * @param {number} x1
 * @param {number} x2
 * @param {Float64Array[]} out  from `buffers(net.sizes)`
 */
export function forward(net, x1, x2, out) {
  const { sizes, weights } = net;
  const act = ACTIVATIONS[net.activation] || ACTIVATIONS.relu;
  let input = out[0];
  net.features.forEach((name, i) => { input[i] = FEATURES[name](x1, x2); });
  let k = 0;
  for (let layer = 1; layer < sizes.length; layer++) {
    const fanIn = sizes[layer - 1], last = layer === sizes.length - 1, output = out[layer];
    for (let j = 0; j < sizes[layer]; j++) {
      let total = weights[k + fanIn]; // the bias first, then each product, as weighted_sum adds them
      for (let i = 0; i < fanIn; i++) total += weights[k + i] * input[i];
      k += fanIn + 1;
      output[j] = last ? total : act(total);
    }
    input = output;
  }
}

/**
 * A canvas sized to its box at the screen's pixel ratio; its context draws in CSS pixels.
 * @param {HTMLCanvasElement} canvas
 */
export function sized(canvas) {
  const ratio = window.devicePixelRatio || 1, width = canvas.clientWidth || canvas.width, height = canvas.clientHeight || canvas.height;
  if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
    canvas.width = Math.round(width * ratio);
    canvas.height = Math.round(height * ratio);
  }
  const context = /** @type {CanvasRenderingContext2D} */ (canvas.getContext("2d"));
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  return { context, width, height };
}

/**
 * Where a point of the plane lands on a canvas box.
 * @param {number[]} view
 * @param {{width: number, height: number}} box
 * @param {number} x1
 * @param {number} x2
 */
export function toCanvas(view, box, x1, x2) {
  return [((x1 - view[0]) / (view[1] - view[0])) * box.width, ((view[3] - x2) / (view[3] - view[2])) * box.height];
}

/**
 * The colour of a point's label: its class, or for regression the sign of its target.
 * @param {string} task
 * @param {number} label
 */
export function labelColour(task, label) {
  const colour = task === "classes" ? COLOURS[label] || COLOURS[0] : label < 0 ? COLOURS[0] : COLOURS[1];
  return `rgb(${colour.join(",")})`;
}

/**
 * Draw the points on the plane: training points filled, test points as rings, a ring around `ringed`.
 * @param {CanvasRenderingContext2D} c
 * @param {{width: number, height: number}} box
 * @param {Record<string, any>} run  what glassgrad_site.lab.page.start returned
 * @param {number} ringed  the inspected training point, or -1
 * @param {string} ink
 */
export function drawPoints(c, box, run, ringed, ink) {
  const task = run.task || "binary";
  /** @param {number[]} point @param {string} colour @param {boolean} filled @param {boolean} ring */
  const dot = (point, colour, filled, ring) => {
    const at = toCanvas(run.view, box, point[0], point[1]);
    c.beginPath();
    c.arc(at[0], at[1], ring ? 7 : 4, 0, 2 * Math.PI);
    if (filled) { c.fillStyle = colour; c.fill(); c.lineWidth = 1; c.strokeStyle = "#fff"; c.stroke(); }
    else { c.lineWidth = ring ? 2.5 : 1.5; c.strokeStyle = ring ? ink : colour; c.stroke(); }
  };
  run.test_points.forEach((/** @type {number[]} */ p, /** @type {number} */ k) => dot(p, labelColour(task, run.test_labels[k]), false, false));
  run.points.forEach((/** @type {number[]} */ p, /** @type {number} */ k) => dot(p, labelColour(task, run.labels[k]), true, false));
  if (ringed >= 0 && run.points[ringed]) dot(run.points[ringed], ink, false, true);
}

/**
 * The training point nearest to (x, y) on the canvas, within 14 px, or -1.
 * @param {Record<string, any>} run
 * @param {{width: number, height: number}} box
 * @param {number} x
 * @param {number} y
 */
export function nearest(run, box, x, y) {
  let best = -1, bestDistance = 14 * 14;
  run.points.forEach((/** @type {number[]} */ p, /** @type {number} */ k) => {
    const at = toCanvas(run.view, box, p[0], p[1]), d = (at[0] - x) ** 2 + (at[1] - y) ** 2;
    if (d < bestDistance) { best = k; bestDistance = d; }
  });
  return best;
}

/**
 * Draw the plane: the heat map (as last painted: heat.js), the points, and the keyboard's cross where Enter acts
 * (when it has the focus).
 * @param {HTMLCanvasElement} plane
 * @param {{ink: string, paper: string}} palette  the page's colours now
 * @param {HTMLCanvasElement} cells  the heat map's own small canvas
 * @param {{run: Record<string, any>, ringed: number, cross: number[] | null}} what
 */
export function paintPlane(plane, palette, cells, what) {
  const box = sized(plane), c = box.context, ink = palette.ink;
  c.clearRect(0, 0, box.width, box.height);
  c.imageSmoothingEnabled = true;
  if (cells.width > 1) c.drawImage(cells, 0, 0, box.width, box.height);
  drawPoints(c, box, what.run, what.ringed, ink);
  if (what.cross) {
    const cx = what.cross[0] * box.width, cy = what.cross[1] * box.height;
    const paper = palette.paper;
    c.beginPath();
    c.moveTo(cx - 12, cy); c.lineTo(cx + 12, cy); c.moveTo(cx, cy - 12); c.lineTo(cx, cy + 12);
    for (const [pen, width] of /** @type {[string, number][]} */ ([[paper, 5], [ink, 2]])) { c.lineWidth = width; c.strokeStyle = pen; c.stroke(); }
  }
}

/** @type {Record<string, [number, number]>} */
const MOVES = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/**
 * Clicks on the plane, and the keyboard's click: arrow keys move `cross` (Shift: further), Enter or Space acts there.
 * @param {HTMLCanvasElement} plane
 * @param {number[]} cross  shares of the plane's width and height, changed in place
 * @param {(x: number, y: number) => void} act  a click at (x, y) CSS pixels from the plane's top left corner
 * @param {() => void} redraw
 */
export function listenOnPlane(plane, cross, act, redraw) {
  plane.addEventListener("click", (event) => {
    const rect = plane.getBoundingClientRect();
    act(event.clientX - rect.left - plane.clientLeft, event.clientY - rect.top - plane.clientTop);
  });
  plane.addEventListener("keydown", (event) => {
    if (Object.prototype.hasOwnProperty.call(MOVES, event.key)) {
      const by = event.shiftKey ? 0.1 : 0.02, move = MOVES[event.key];
      cross[0] = Math.min(1, Math.max(0, cross[0] + move[0] * by));
      cross[1] = Math.min(1, Math.max(0, cross[1] + move[1] * by));
      redraw();
    } else if (event.key === "Enter" || event.key === " ") {
      act(cross[0] * plane.clientWidth, cross[1] * plane.clientHeight);
    } else return;
    event.preventDefault();
  });
  plane.addEventListener("focus", redraw);
  plane.addEventListener("blur", redraw);
}
