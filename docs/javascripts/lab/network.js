// @ts-check
// The network's numbers: the table of every parameter (its value, its gradient, its last update).
import { short } from "./state.js";

/** The parameter table, rebuilt when the model changes, filled only while it is open. */
export class ParameterTable {
  /**
   * @param {HTMLDetailsElement} details
   * @param {HTMLElement} body  its tbody
   */
  constructor(details, body) {
    this.details = details;
    this.body = body;
    /** @type {HTMLElement[][]} */
    this.rows = [];
  }

  /**
   * @param {Record<string, any>} run  names, weights, grads, updates (glassgrad_site.lab.page.start / step)
   * @param {boolean} rebuild
   */
  fill(run, rebuild) {
    if (rebuild || this.rows.length !== run.names.length) {
      this.body.textContent = "";
      this.rows = run.names.map((/** @type {string} */ name) => {
        const tr = document.createElement("tr"), cells = [];
        const th = document.createElement("th");
        th.scope = "row"; th.textContent = name; tr.appendChild(th);
        for (let k = 0; k < 3; k++) { const td = document.createElement("td"); tr.appendChild(td); cells.push(td); }
        this.body.appendChild(tr);
        return cells;
      });
    }
    if (!this.details.open) return;
    this.rows.forEach((cells, k) => {
      cells[0].textContent = short(run.weights[k]);
      cells[1].textContent = short(run.grads[k]);
      cells[2].textContent = short(run.updates[k]);
    });
  }
}

const MAP = 12; // cells per side of a neuron's small map
const LABELS = 44; // px left of the inputs for their names
/** @type {Record<string, string>} the input features' names as the page writes them */
const NAMES = { x1: "x₁", x2: "x₂", "x1^2": "x₁²", "x2^2": "x₂²", x1x2: "x₁x₂", "sin x1": "sin x₁", "sin x2": "sin x₂" };
const BLUE = [37, 99, 235], ORANGE = [234, 88, 12];

/**
 * The network diagram: a column per layer (the input features first), each neuron drawn as a small map of its
 * output over the plane, each edge as a line whose colour is its weight's sign (blue −, orange +) and whose
 * width is its size. Every number comes from the weights Python sent; a click on a neuron names it. It draws
 * only while on screen (an IntersectionObserver); scrolled back into view, it asks for a redraw.
 */
export class NetworkDiagram {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(layer: number, neuron: number) => void} clicked  a neuron was clicked (layer 1 is the first hidden)
   * @param {() => void} shown  the diagram came into view (draw it then)
   */
  constructor(canvas, clicked, shown) {
    this.canvas = canvas;
    /** @type {{x: number, y: number, size: number, layer: number, neuron: number}[][]} by layer, then neuron */
    this.nodes = [];
    this.onScreen = true;
    this.stale = false;
    this.shape = "";
    /** the neurons' maps, side by side: one image for all of them */
    this.atlas = document.createElement("canvas");
    canvas.addEventListener("click", (event) => {
      const rect = canvas.getBoundingClientRect(), x = event.clientX - rect.left, y = event.clientY - rect.top;
      const hit = this.nodes.flat().find((n) => n.layer > 0 && Math.abs(x - n.x) <= n.size / 2 + 2 && Math.abs(y - n.y) <= n.size / 2 + 2);
      if (hit) clicked(hit.layer, hit.neuron);
    });
    if (typeof IntersectionObserver === "function") {
      new IntersectionObserver((entries) => {
        this.onScreen = entries[entries.length - 1].isIntersecting;
        if (this.onScreen && this.stale) shown();
      }).observe(canvas);
    }
  }

  /**
   * Place the neurons (again only when the layer sizes or the width changed) and size the canvas.
   * @param {number[]} sizes
   */
  layOut(sizes) {
    const ratio = window.devicePixelRatio || 1, width = this.canvas.clientWidth || 600;
    const widest = Math.max(...sizes), size = Math.max(10, Math.min(30, Math.floor(300 / widest) - 6)), gap = size + 6;
    const height = widest * gap + 8, shape = `${sizes}|${width}|${ratio}`;
    if (shape === this.shape) return { width, height };
    this.shape = shape;
    this.canvas.style.height = `${height}px`;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    const left = LABELS + size / 2, column = (width - left - size) / Math.max(1, sizes.length - 1);
    this.nodes = sizes.map((n, layer) => Array.from({ length: n }, (_, j) => ({ x: left + layer * column, y: height / 2 + (j - (n - 1) / 2) * gap, size, layer, neuron: j })));
    return { width, height };
  }

  /**
   * @param {Record<string, any>} run
   * @param {(x1: number, x2: number) => Float64Array[]} layersAt  every layer's outputs at a point of the plane
   * @param {string} [ink]  the colour of the inputs' names
   */
  draw(run, layersAt, ink = "#888") {
    const sizes = /** @type {number[]} */ (run.sizes), view = run.view, weights = /** @type {number[]} */ (run.weights);
    const { width, height } = this.layOut(sizes), ratio = window.devicePixelRatio || 1; // placed even off screen: clicks find them
    if (!this.onScreen) { this.stale = true; return; }
    this.stale = false;
    const c = /** @type {CanvasRenderingContext2D} */ (this.canvas.getContext("2d"));
    c.setTransform(ratio, 0, 0, ratio, 0, 0);
    c.clearRect(0, 0, width, height);
    // Edges: weights in the order Python sends them (layer by layer, neuron by neuron, its weights then its bias).
    let top = 1e-12;
    for (const w of weights) top = Math.max(top, Math.abs(w));
    let k = 0;
    for (let layer = 1; layer < sizes.length; layer++) {
      for (let j = 0; j < sizes[layer]; j++) {
        const to = this.nodes[layer][j];
        for (let i = 0; i < sizes[layer - 1]; i++) {
          const w = weights[k + i], from = this.nodes[layer - 1][i];
          c.beginPath(); c.moveTo(from.x, from.y); c.lineTo(to.x, to.y);
          c.strokeStyle = `rgba(${(w < 0 ? BLUE : ORANGE).join(",")},${0.25 + 0.75 * Math.abs(w) / top})`;
          c.lineWidth = 0.5 + 3.5 * Math.abs(w) / top;
          c.stroke();
        }
        k += sizes[layer - 1] + 1;
      }
    }
    // Neurons: each one's output over the plane, as a small map; all the maps in one image, put once.
    const nodes = this.nodes.flat(), maps = nodes.map(() => new Float64Array(MAP * MAP));
    for (let q = 0; q < MAP; q++) {
      for (let p = 0; p < MAP; p++) {
        const x1 = view[0] + ((p + 0.5) * (view[1] - view[0])) / MAP, x2 = view[3] - ((q + 0.5) * (view[3] - view[2])) / MAP;
        const outputs = layersAt(x1, x2);
        for (let m = 0; m < nodes.length; m++) maps[m][q * MAP + p] = outputs[nodes[m].layer][nodes[m].neuron];
      }
    }
    if (this.atlas.width !== MAP * nodes.length) { this.atlas.width = MAP * nodes.length; this.atlas.height = MAP; }
    const paint = /** @type {CanvasRenderingContext2D} */ (this.atlas.getContext("2d"));
    const image = paint.createImageData(MAP * nodes.length, MAP), pixels = image.data;
    maps.forEach((map, m) => {
      let scale = 1e-12;
      for (const v of map) scale = Math.max(scale, Math.abs(v));
      for (let o = 0; o < MAP * MAP; o++) {
        const v = map[o], colour = v < 0 ? BLUE : ORANGE, at = 4 * ((o / MAP | 0) * MAP * nodes.length + m * MAP + (o % MAP));
        pixels[at] = colour[0]; pixels[at + 1] = colour[1]; pixels[at + 2] = colour[2];
        pixels[at + 3] = Math.round(255 * Math.min(1, Math.abs(v) / scale));
      }
    });
    paint.putImageData(image, 0, 0);
    c.imageSmoothingEnabled = false;
    c.lineWidth = 1; c.strokeStyle = "#888";
    nodes.forEach((node, m) => {
      const size = node.size, left = node.x - size / 2, top = node.y - size / 2;
      c.fillStyle = "#fff";
      c.fillRect(left, top, size, size);
      c.drawImage(this.atlas, m * MAP, 0, MAP, MAP, left, top, size, size);
      c.strokeRect(left, top, size, size);
    });
    c.fillStyle = ink; c.font = "12px sans-serif"; c.textAlign = "right"; c.textBaseline = "middle";
    (/** @type {string[]} */ (run.features) || []).forEach((name, i) => {
      const node = this.nodes[0][i];
      if (node) c.fillText(NAMES[name] || name, node.x - node.size / 2 - 4, node.y);
    });
  }
}
