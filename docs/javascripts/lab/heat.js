// @ts-check
// The heat map: the model's output over the plane, a colour per cell, from the weights Python sent (plane.js's
// forward pass). While the lab trains, HeatPainter computes it a few rows per frame, within a time budget, and
// shows each map once it is whole: no frame waits for all of it.
import { COLOURS, forward } from "./plane.js";

const GRID = 100; // heat-map cells per side, at most
const BUDGET = 1.5e6; // multiply-adds per refresh: about 5 ms of main thread (a bigger model gets fewer cells)

/** @param {number[]} sizes @returns {number} cells per side of the heat map for this model */
export function gridSize(sizes) {
  let work = 0;
  for (let k = 1; k < sizes.length; k++) work += sizes[k - 1] * sizes[k];
  return Math.max(20, Math.min(GRID, Math.floor(Math.sqrt(BUDGET / work))));
}

/**
 * The centre of cell (i, j) of a grid over `view`: column i from the left, row j from the top.
 * @param {number[]} view  [x from, x to, y from, y to]
 * @param {number} grid
 * @param {number} i
 * @param {number} j
 */
export function gridPoint(view, grid, i, j) {
  return [view[0] + ((i + 0.5) * (view[1] - view[0])) / grid, view[3] - ((j + 0.5) * (view[3] - view[2])) / grid];
}

/**
 * A colour and an opacity for an output: the sign of a score, the winning class, or a regression's value.
 * @param {string} task  "binary", "classes" or "regression"
 * @param {Float64Array} output  the last layer's outputs
 * @returns {[number[], number]}
 */
export function tint(task, output) {
  if (task === "classes") {
    let best = 0;
    for (let c = 1; c < output.length; c++) if (output[c] > output[best]) best = c;
    let total = 0;
    for (let c = 0; c < output.length; c++) total += Math.exp(output[c] - output[best]);
    return [COLOURS[best], (1 / total - 1 / output.length) * 1.5];
  }
  const t = Math.max(-1, Math.min(1, output[0] / 1.5));
  return [t < 0 ? COLOURS[0] : COLOURS[1], Math.abs(t)];
}

/**
 * Write a cell's colour at `o` in an image's pixels: its colour, opaque as its opacity says (40 to 160 of 255).
 * @param {Uint8ClampedArray} pixels
 * @param {number} o
 * @param {[number[], number]} tinted  what `tint` gives
 */
function setPixel(pixels, o, tinted) {
  const [colour, alpha] = tinted;
  pixels[o] = colour[0]; pixels[o + 1] = colour[1]; pixels[o + 2] = colour[2];
  pixels[o + 3] = Math.round(40 + 120 * Math.max(0, Math.min(1, alpha)));
}

/**
 * Paint `cells` (grid × grid pixels) with what `value(i, j)` gives each cell; return the outputs it read.
 * @param {HTMLCanvasElement} cells
 * @param {number} grid
 * @param {(i: number, j: number) => [number[], number]} value  a colour and an opacity from 0 to 1
 */
export function paint(cells, grid, value) {
  if (cells.width !== grid) { cells.width = grid; cells.height = grid; }
  const context = /** @type {CanvasRenderingContext2D} */ (cells.getContext("2d"));
  const image = context.createImageData(grid, grid), pixels = image.data;
  for (let j = 0; j < grid; j++) {
    for (let i = 0; i < grid; i++) {
      setPixel(pixels, 4 * (j * grid + i), value(i, j));
    }
  }
  context.putImageData(image, 0, 0);
}

/**
 * The model's output over the plane into `cells` (grid × grid pixels); returns the first output of every cell.
 * @param {HTMLCanvasElement} cells
 * @param {number} grid
 * @param {Record<string, any>} run
 * @param {Float64Array[]} out  from `buffers(run.sizes)`
 */
export function heatMap(cells, grid, run, out) {
  const scores = new Float64Array(grid * grid), last = out[out.length - 1];
  paint(cells, grid, (i, j) => {
    const p = gridPoint(run.view, grid, i, j);
    forward(/** @type {import("./plane.js").Network} */ (run), p[0], p[1], out);
    scores[j * grid + i] = last[0];
    return tint(run.task || "binary", last);
  });
  return scores;
}

const SLICE_MS = 6; // the most a frame spends on the heat map

/** A heat map painted in slices: rows until the frame's budget is spent, then on at the next frame. */
export class HeatPainter {
  constructor() {
    /** the map on show, grid × grid pixels (drawn scaled over the plane) */
    this.cells = document.createElement("canvas");
    this.cells.width = 1;
    /** @type {{run: Record<string, any>, grid: number, out: Float64Array[]} | null} the latest weights, waiting for their map */
    this.wanted = null;
    /** @type {{run: Record<string, any>, grid: number, out: Float64Array[], image: ImageData, row: number} | null} */
    this.job = null;
  }

  /** @returns {boolean} whether a map is waiting or under way */
  get busy() {
    return this.wanted !== null || this.job !== null;
  }

  /**
   * Paint the map of these weights next (a map under way is finished first, then this one starts).
   * @param {Record<string, any>} run  its weights, sizes, features, activation, view, task
   * @param {number} grid
   * @param {Float64Array[]} out  from plane.js's `buffers(run.sizes)`
   */
  want(run, grid, out) {
    this.wanted = { run: { ...run }, grid, out };
  }

  /**
   * Compute rows until `deadline` (performance.now()); returns whether a whole new map went on show.
   * @param {number} [deadline]  (default: this frame's budget from now)
   */
  advance(deadline = performance.now() + SLICE_MS) {
    if (!this.job && this.wanted) {
      const { run, grid, out } = this.wanted;
      this.wanted = null;
      this.job = { run, grid, out, image: new ImageData(grid, grid), row: 0 };
    }
    const job = this.job;
    if (!job) return false;
    const { run, grid, out, image } = job, last = out[out.length - 1], task = run.task || "binary";
    while (job.row < grid) {
      for (let i = 0; i < grid; i++) {
        const p = gridPoint(run.view, grid, i, job.row);
        forward(/** @type {import("./plane.js").Network} */ (run), p[0], p[1], out);
        setPixel(image.data, 4 * (job.row * grid + i), tint(task, last));
      }
      job.row += 1;
      if (performance.now() > deadline) break;
    }
    if (job.row < grid) return false;
    if (this.cells.width !== grid) { this.cells.width = grid; this.cells.height = grid; }
    /** @type {CanvasRenderingContext2D} */ (this.cells.getContext("2d")).putImageData(image, 0, 0);
    this.job = null;
    return true;
  }

  /**
   * The whole map of `run` now, in one go (before the first frame, and for the page's tests): the first output
   * of every cell, row by row from the top.
   * @param {Record<string, any>} run
   * @param {number} grid
   * @param {Float64Array[]} out
   */
  now(run, grid, out) {
    this.job = null;
    this.wanted = null;
    return heatMap(this.cells, grid, run, out);
  }
}
