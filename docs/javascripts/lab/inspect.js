// @ts-check
// Inspect: one training example's loss graph, drawn by glassgrad.viz in Python (the one HTML that comes from
// Python: it goes through the sanitizer), drawn once per shape of model, then only its numbers change (by id).
import { sanitize } from "./session.js";
import { inspectText } from "./words.js";
import { GraphZoom } from "./zoom.js";

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
    this.zoom = new GraphZoom($("zoom"));
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
    if (drawn) this.zoom.attach(graph); // readable (node text 12 px), at the loss, where backward starts
    this.$("inspect-text").textContent = inspectText(answer, run);
    this.$("gradcheck-text").textContent = "";
  }

  /**
   * Bring the node of a neuron (by its label, such as L1.n3) into view in the drawn graph, and mark it.
   * @param {string} label
   */
  focusNode(label) {
    const graph = this.$("graph");
    graph.querySelectorAll(".gg-lab-picked").forEach((el) => el.classList.remove("gg-lab-picked"));
    const node = Array.from(graph.querySelectorAll("g.gg-value")).find((g) => (g.textContent || "").trim().startsWith(label));
    if (!node) return;
    node.classList.add("gg-lab-picked");
    this.zoom.bringIntoView(node, 0.5);
    node.scrollIntoView({ block: "nearest", inline: "nearest" });
  }

  /** @param {Record<string, any>} result  what glassgrad_site.lab.page.gradcheck answered */
  checked(result) {
    this.$("gradcheck-text").textContent = `${result.passed ? "✓ " : "✗ "}gradcheck on point ${result.index}: the engine's gradients of its loss with respect to all ${result.checked} inputs (every parameter, x1 and x2) ${result.passed ? "agree" : "do not agree"} with central differences; the largest error is ${Number(result.error).toExponential(1)}.`;
  }
}
