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
const BLUE = [37, 99, 235], ORANGE = [234, 88, 12];

/**
 * The network diagram: a column per layer (the input features first), each neuron drawn as a small map of its
 * output over the plane, each edge as a line whose colour is its weight's sign (blue −, orange +) and whose
 * width is its size. Every number comes from the weights Python sent; a click on a neuron names it.
 */
export class NetworkDiagram {
  /**
   * @param {HTMLCanvasElement} canvas
   * @param {(layer: number, neuron: number) => void} clicked  a neuron was clicked (layer 1 is the first hidden)
   */
  constructor(canvas, clicked) {
    this.canvas = canvas;
    /** @type {{x: number, y: number, size: number, layer: number, neuron: number}[]} */
    this.nodes = [];
    canvas.addEventListener("click", (event) => {
      const rect = canvas.getBoundingClientRect(), x = event.clientX - rect.left, y = event.clientY - rect.top;
      const hit = this.nodes.find((n) => n.layer > 0 && Math.abs(x - n.x) <= n.size / 2 + 2 && Math.abs(y - n.y) <= n.size / 2 + 2);
      if (hit) clicked(hit.layer, hit.neuron);
    });
  }

  /**
   * @param {Record<string, any>} run
   * @param {(x1: number, x2: number) => Float64Array[]} layersAt  every layer's outputs at a point of the plane
   */
  draw(run, layersAt) {
    const sizes = /** @type {number[]} */ (run.sizes), view = run.view;
    const ratio = window.devicePixelRatio || 1, width = this.canvas.clientWidth || 600;
    const widest = Math.max(...sizes), size = Math.max(10, Math.min(30, Math.floor(300 / widest) - 6)), gap = size + 6;
    const height = widest * gap + 8;
    this.canvas.style.height = `${height}px`;
    this.canvas.width = Math.round(width * ratio);
    this.canvas.height = Math.round(height * ratio);
    const c = /** @type {CanvasRenderingContext2D} */ (this.canvas.getContext("2d"));
    c.setTransform(ratio, 0, 0, ratio, 0, 0);
    const column = (width - 2 * size) / Math.max(1, sizes.length - 1);
    this.nodes = [];
    sizes.forEach((n, layer) => {
      for (let j = 0; j < n; j++) this.nodes.push({ x: size + layer * column, y: height / 2 + (j - (n - 1) / 2) * gap, size, layer, neuron: j });
    });
    const at = (/** @type {number} */ layer, /** @type {number} */ j) => /** @type {{x: number, y: number}} */ (this.nodes.find((n) => n.layer === layer && n.neuron === j));
    // Edges: weights in the order Python sends them (layer by layer, neuron by neuron, its weights then its bias).
    let top = 1e-12;
    for (const w of run.weights) top = Math.max(top, Math.abs(w));
    let k = 0;
    for (let layer = 1; layer < sizes.length; layer++) {
      for (let j = 0; j < sizes[layer]; j++) {
        for (let i = 0; i < sizes[layer - 1]; i++) {
          const w = run.weights[k + i], from = at(layer - 1, i), to = at(layer, j);
          c.beginPath(); c.moveTo(from.x, from.y); c.lineTo(to.x, to.y);
          c.strokeStyle = `rgba(${(w < 0 ? BLUE : ORANGE).join(",")},${0.25 + 0.75 * Math.abs(w) / top})`;
          c.lineWidth = 0.5 + 3.5 * Math.abs(w) / top;
          c.stroke();
        }
        k += sizes[layer - 1] + 1;
      }
    }
    // Neurons: each one's output over the plane, as a small map.
    const maps = this.nodes.map(() => new Float64Array(MAP * MAP));
    for (let q = 0; q < MAP; q++) {
      for (let p = 0; p < MAP; p++) {
        const x1 = view[0] + ((p + 0.5) * (view[1] - view[0])) / MAP, x2 = view[3] - ((q + 0.5) * (view[3] - view[2])) / MAP;
        const outputs = layersAt(x1, x2);
        this.nodes.forEach((node, m) => { maps[m][q * MAP + p] = outputs[node.layer][node.neuron]; });
      }
    }
    const cell = document.createElement("canvas");
    cell.width = MAP; cell.height = MAP;
    const paint = /** @type {CanvasRenderingContext2D} */ (cell.getContext("2d"));
    this.nodes.forEach((node, m) => {
      let scale = 1e-12;
      for (const v of maps[m]) scale = Math.max(scale, Math.abs(v));
      const image = paint.createImageData(MAP, MAP);
      maps[m].forEach((v, o) => {
        const colour = v < 0 ? BLUE : ORANGE;
        image.data.set([colour[0], colour[1], colour[2], Math.round(255 * Math.min(1, Math.abs(v) / scale))], 4 * o);
      });
      paint.putImageData(image, 0, 0);
      c.fillStyle = "#fff";
      c.fillRect(node.x - size / 2, node.y - size / 2, size, size);
      c.imageSmoothingEnabled = false;
      c.drawImage(cell, node.x - size / 2, node.y - size / 2, size, size);
      c.lineWidth = 1; c.strokeStyle = "#888";
      c.strokeRect(node.x - size / 2, node.y - size / 2, size, size);
    });
  }
}
