// @ts-check
// Inspect: one training example's loss graph, drawn by glassgrad.viz in Python (the one HTML that comes from
// Python: it goes through the sanitizer), drawn once per shape of model, then only its numbers change (by id).
// In the view of a node per neuron, a neuron is a button: it redraws the graph with that neuron's Values (again:
// collapsed); its links are drawn bare, and pointing at a node or a link (or focusing a node) says their numbers.
import { sanitize } from "./session.js";
import { inspectText } from "./words.js";
import { GraphZoom } from "./zoom.js";

export const PREFIX = "lab-graph"; // the inspected figure's id prefix (glassgrad_site.lab.graph.PREFIX)

/**
 * The neuron a node's label belongs to: "L1.n3" for L1.n3, L1.n3.h, L1.n3.w0; "" for any other label
 * (glassgrad_site.lab.graph.neuron_of).
 * @param {string} label
 * @returns {string}
 */
export function neuronOf(label) {
  const match = /^(L\d+\.n\d+)(\.|$)/.exec(label);
  return match ? match[1] : "";
}

/** The Inspect panel and what it shows. */
export class InspectPanel {
  /** @param {(name: string) => HTMLElement} $  the lab's elements by data-lab name */
  constructor($) {
    this.$ = $;
    this.panel = $("inspect");
    this.inspected = -1; // the training example shown, or -1
    this.shown = false;
    /** @type {boolean | string | null} the drawn graph's view (`neurons`) */
    this.drawnView = null;
    this.zoom = new GraphZoom($("zoom"));
    this.expanded = ""; // the neuron drawn as its Values (L1.n3), or ""
    /** @type {Record<string, string>} the shown example's numbers, by element id (as `rewrite` got them) */
    this.numbers = {};
    /** @type {Record<string, string>} each link's name (∂L2.n3/∂L1.n0), by element id */
    this.linkNames = {};
    this.listen($("graph"));
  }

  /** @returns {boolean | string} the view the reader asked for: true, a node per neuron; a neuron's label, the
   * same with that neuron's Values; false, every Value (glassgrad_site.lab.page.View) */
  neurons() {
    if ((/** @type {HTMLInputElement} */ (this.$("every-value"))).checked) return false;
    return this.expanded || true;
  }

  /**
   * Clicks, keys and pointing in the graph's figure (it outlives each drawing).
   * @param {HTMLElement} figure
   */
  listen(figure) {
    /** @type {{x: number, y: number}} */
    let down = { x: 0, y: 0 };
    figure.addEventListener("pointerdown", (event) => { down = { x: event.clientX, y: event.clientY }; });
    figure.addEventListener("click", (event) => {
      if (Math.hypot(event.clientX - down.x, event.clientY - down.y) > 5) return; // the end of a drag
      this.toggle(/** @type {Element} */ (event.target).closest("g.gg-lab-neuron"));
    });
    figure.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== " ") return;
      const node = /** @type {Element} */ (event.target).closest("g.gg-lab-neuron");
      if (!node) return;
      event.preventDefault();
      this.toggle(node);
    });
    for (const kind of ["pointerover", "focusin"]) {
      figure.addEventListener(kind, (event) => {
        const element = /** @type {Element} */ (event.target).closest("g.gg-value, g.gg-link");
        if (element) this.say(element);
      });
    }
  }

  /**
   * Expand the neuron of `node` (or collapse it again): the page redraws on the checkbox's change.
   * @param {Element | null} node
   */
  toggle(node) {
    const neuron = node ? neuronOf(node.getAttribute("data-gg-label") || "") : "";
    if (!neuron) return;
    this.expanded = neuron === this.expanded ? "" : neuron;
    this.$("every-value").dispatchEvent(new Event("change")); // page.js: show this example again, in the new view
  }

  /**
   * Say the numbers of a node (its z if collapsed, data, grad, and each link into it) or of one link, below the bar.
   * @param {Element} element
   */
  say(element) {
    const figure = this.$("graph"), out = this.$("graph-readout");
    const link = (/** @type {Element} */ edge) => `${this.linkNames[edge.id] ?? "?"} = ${this.numbers[edge.id] ?? "?"}`;
    if (element.matches("g.gg-link")) {
      out.textContent = `Link ${link(element)}: the local derivative, how much the first moves per unit of the second.`;
      return;
    }
    const label = element.getAttribute("data-gg-label") || "", index = element.getAttribute("data-gg-index");
    const pre = this.numbers[`${element.id}-pre`], neuron = neuronOf(label);
    const links = Array.from(figure.querySelectorAll(`g.gg-link[id^="${PREFIX}-edge-${index}-"]`)).map(link);
    const what = pre === undefined ? "" : ` (weighted sum z = ${pre}, then its activation)`;
    const act = !neuron || this.drawnView === false ? "" : neuron === this.expanded ? ` Click or press Enter: fold ${neuron} into one node again.` : ` Click or press Enter: show its Values.`;
    out.textContent = `${label}${what}: data ${this.numbers[`${element.id}-data`] ?? "?"}, ${this.numbers[`${element.id}-grad`] ?? "grad ?"}.${links.length ? ` Links into it: ${links.join(", ")}.` : " A leaf."}${act}`;
  }

  /** Make each neuron's node in a neuron view a button that expands (or folds) it. */
  markNeurons() {
    if (this.drawnView === false) return;
    const svg = this.$("graph").querySelector("svg");
    if (svg) svg.setAttribute("role", "group"); // not an image: it holds buttons (an image's parts are hidden)
    this.$("graph").querySelectorAll("g.gg-value").forEach((node) => {
      const label = node.getAttribute("data-gg-label") || "", neuron = neuronOf(label);
      if (!neuron || (neuron === this.expanded && label !== `${neuron}.h` && label !== `${neuron}.z`)) return;
      node.classList.add("gg-lab-neuron");
      node.setAttribute("tabindex", "0");
      node.setAttribute("role", "button");
      node.setAttribute("aria-label", neuron === this.expanded ? `${label}: fold neuron ${neuron} into one node` : `${label}: show its Values`);
    });
  }

  close() {
    this.panel.hidden = true;
    for (const name of ["graph", "player", "gradcheck-text", "graph-readout"]) this.$(name).textContent = "";
    this.shown = false;
    this.drawnView = null;
    this.inspected = -1;
    this.expanded = "";
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
    this.numbers = numbers;
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
    this.linkNames = answer.link_names || {};
    this.panel.hidden = false;
    if (drawn) {
      this.markNeurons();
      this.$("graph-readout").textContent = "";
      this.zoom.attach(graph, this.expanded && this.drawnView === this.expanded ? this.expanded : ""); // readable (node text 12 px or more)
    }
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
