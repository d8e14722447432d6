// @ts-check
// Inspect: one training example's loss graph, drawn by glassgrad.viz in Python (the one HTML that comes from
// Python: it goes through the sanitizer), drawn once per shape of model, then only its numbers change (by id).
import { sanitize } from "./session.js";
import { short } from "./state.js";

export const PREFIX = "lab-graph"; // the inspected figure's id prefix (glassgrad_site.lab.graph.PREFIX)

/** The Inspect panel and what it shows. */
export class InspectPanel {
  /** @param {(name: string) => HTMLElement} $  the lab's elements by data-lab name */
  constructor($) {
    this.$ = $;
    this.panel = $("inspect");
    this.inspected = -1; // the training example shown, or -1
    this.shown = false;
    /** @type {boolean | null} the drawn graph's view: true, a node per neuron; false, every Value */
    this.drawnView = null;
  }

  /** @returns {boolean} whether the reader asked for a node per neuron (not every Value) */
  neurons() {
    return !(/** @type {HTMLInputElement} */ (this.$("every-value")).checked);
  }

  close() {
    this.panel.hidden = true;
    for (const name of ["graph", "player", "gradcheck-text"]) this.$(name).textContent = "";
    this.shown = false;
    this.drawnView = null;
    this.inspected = -1;
  }

  /** The player replays one state of the graph: drop it (and its marks) when the numbers move on. */
  dropPlayer() {
    this.$("player").textContent = "";
    this.panel.querySelectorAll(".gg-active, .gg-current, .gg-appended").forEach((el) => {
      el.classList.remove("gg-active", "gg-current", "gg-appended");
    });
  }

  /**
   * Write the example's numbers into the drawn graph, by element id, as text.
   * @param {Record<string, string>} numbers
   */
  rewrite(numbers) {
    const figure = this.$("graph");
    for (const [id, value] of Object.entries(numbers)) {
      const text = String(value);
      const match = /^(.*-node-\d+)-data$/.exec(id);
      if (match) {
        const box = figure.querySelector(`#${match[1]} .gg-t-value`);
        if (box && box.textContent !== text) box.textContent = text;
      } else if (/-grad$/.test(id)) {
        const grad = figure.querySelector(`#${id}`);
        if (grad && grad.textContent !== text) { grad.textContent = text; grad.classList.remove("gg-t-empty"); }
      } else {
        const locals = figure.querySelectorAll(`#${id} .gg-t-local`), local = locals[locals.length - 1];
        const at = local ? String(local.textContent).lastIndexOf("= ") : -1; // "∂m/∂w = 3", or "∂m/∂w" above "= 3"
        if (local && at >= 0) {
          const next = String(local.textContent).slice(0, at + 2) + text;
          if (local.textContent !== next) local.textContent = next;
        }
      }
    }
  }

  /**
   * Show what glassgrad_site.lab.page.inspect answered.
   * @param {Record<string, any>} answer
   * @param {Record<string, any>} run  the current run (its step, sizes, names)
   */
  async show(answer, run) {
    const graph = this.$("graph");
    let drawn = false;
    if (answer.html) {
      const fragment = await sanitize(answer.html, PREFIX);
      graph.textContent = "";
      graph.appendChild(fragment);
      // Drawn at its natural size (node text 12 px), in a box that scrolls both ways: scaled to the column,
      // a graph with a box per parameter would have text too small to read.
      const svg = graph.querySelector("svg");
      if (svg && svg.style.maxWidth) svg.style.minWidth = svg.style.maxWidth;
      drawn = true;
    }
    const player = await sanitize(answer.player, PREFIX);
    this.dropPlayer();
    this.rewrite(answer.numbers);
    const section = player.querySelector(".gg-player");
    if (section) section.setAttribute("data-gg-graph", PREFIX); // the page attaches it to the figure above
    this.$("player").appendChild(player);
    const players = /** @type {any} */ (window).glassgrad?.players;
    if (players) players.initAll(this.$("player"));
    this.inspected = answer.index;
    this.shown = true;
    this.drawnView = answer.neurons;
    this.panel.hidden = false;
    const box = /** @type {HTMLElement | null} */ (graph.querySelector(".gg-scroll")), loss = graph.querySelector("g.gg-root");
    if (drawn && box && loss) { // a new drawing starts where backward starts: at the loss, on the right
      const at = box.getBoundingClientRect(), root = loss.getBoundingClientRect();
      box.scrollLeft += root.right - at.right + 24;
      box.scrollTop += root.top - at.top - box.clientHeight / 2;
    }
    this.$("inspect-text").textContent = describe(answer, run);
    this.$("gradcheck-text").textContent = "";
  }

  /** @param {Record<string, any>} result  what glassgrad_site.lab.page.gradcheck answered */
  checked(result) {
    this.$("gradcheck-text").textContent = `${result.passed ? "✓ " : "✗ "}gradcheck on point ${result.index}: the engine's gradients of its loss with respect to all ${result.checked} inputs (every parameter, x1 and x2) ${result.passed ? "agree" : "do not agree"} with central differences; the largest error is ${Number(result.error).toExponential(1)}.`;
  }
}

/**
 * The sentence above the graph: which example, its loss, and what the boxes are.
 * @param {Record<string, any>} answer
 * @param {Record<string, any>} run
 */
function describe(answer, run) {
  const label = answer.label < 0 ? "−1 (blue)" : "+1 (orange)", score = `L${run.sizes.length - 1}.n0.z`;
  const inside = answer.neurons
    ? ` Values: the point (x1, x2), each neuron as one box (Ln.k: its weighted sum and its ReLU together, its weights and bias folded in), the score s (${score}) and the loss's own nodes; ${answer.links} ParentLinks. The local derivative on a link into a neuron is that neuron's ∂h/∂x = ReLU′(z)·w: the two links it stands for, multiplied. Tick “Show every Value” to see the graph as the engine built it.`
    : ` Values: the point (x1, x2), the ${run.names.length} parameters, what the network computed from them up to its score s (${score}), and the loss's own nodes; ${answer.links} ParentLinks, each with its local derivative.`;
  return `Training point ${answer.index} at (${short(answer.point[0])}, ${short(answer.point[1])}), label y = ${label}, at step ${run.step}: its loss is ${short(answer.loss)}. The graph has ${answer.values}${inside} The grads are this example's loss differentiated alone: its share of the step's gradient, before averaging and L2. Scroll the graph to see it all.`;
}
