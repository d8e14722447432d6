// @ts-check
// Inspect's graph window: zoom (the buttons, Ctrl + wheel or a pinch, the + and − keys) from the whole graph
// fitted to the window up to twice the readable size, and pan (drag with the mouse, or scroll). A new drawing
// opens whole if it is readable so (node text 12 px or more), else at the readable size around the loss, where
// backward starts (or around the node it is asked to show).

const TEXT = 12; // the font size, in SVG units, of a box's data and grad (glassgrad.viz draws them so)
const READABLE = 1; // CSS px per SVG unit at which that text is 12 px
const MOST = 2; // the largest zoom, in CSS px per SVG unit
const OPENING = 1.25; // the largest zoom a drawing opens at, whole (node text 15 px)

/** The zoom and pan of the inspected graph, with its bar of buttons and the line that says the text size. */
export class GraphZoom {
  /**
   * @param {HTMLElement} bar  holds buttons data-lab-zoom="fit|out|in|read" and an element data-lab="zoom-text"
   */
  constructor(bar) {
    this.bar = bar;
    /** @type {SVGSVGElement | null} */
    this.svg = null;
    /** @type {HTMLElement | null} the window that scrolls */
    this.box = null;
    this.scale = READABLE;
    this.width = 1; // the drawing's size in SVG units (its viewBox)
    this.height = 1;
    bar.querySelectorAll("[data-lab-zoom]").forEach((button) => {
      button.addEventListener("click", () => {
        const how = /** @type {HTMLElement} */ (button).dataset.labZoom;
        if (how === "fit") this.fit();
        else if (how === "read") this.zoomTo(READABLE);
        else this.zoomTo(this.scale * (how === "in" ? 1.25 : 0.8));
      });
    });
  }

  /** @returns {number} the scale at which the whole drawing fits the window */
  fitted() {
    if (!this.box) return READABLE;
    return Math.min(this.box.clientWidth / this.width, this.box.clientHeight / this.height, MOST);
  }

  /**
   * A new drawing in `figure`: take its svg and its window, show it whole if that is readable, else at the
   * readable size with the loss in view (or the node whose label starts with `near`).
   * @param {HTMLElement} figure
   * @param {string} [near]
   */
  attach(figure, near = "") {
    const svg = figure.querySelector("svg"), box = /** @type {HTMLElement | null} */ (figure.querySelector(".gg-scroll"));
    if (!svg || !box) return;
    this.svg = svg;
    this.box = box;
    const view = svg.viewBox.baseVal;
    this.width = view && view.width ? view.width : 1;
    this.height = view && view.height ? view.height : 1;
    svg.style.minWidth = "0";
    svg.style.maxWidth = "none";
    box.style.overflow = "auto";
    this.listen(box);
    this.scale = READABLE;
    svg.style.width = svg.style.height = "1px"; // the window without scroll bars, to measure what fits
    const whole = this.fitted();
    this.zoomTo(whole >= READABLE ? Math.min(whole, OPENING) : READABLE);
    const nodes = Array.from(svg.querySelectorAll("g.gg-value"));
    const node = near ? nodes.find((g) => (g.getAttribute("data-gg-label") || "").startsWith(near)) : svg.querySelector("g.gg-root");
    if (node) this.bringIntoView(node, near ? 0.5 : 0.75);
  }

  /**
   * Scroll the window so `element` sits at `across` of its width, half way down.
   * @param {Element} element
   * @param {number} across
   */
  bringIntoView(element, across) {
    if (!this.box) return;
    const at = this.box.getBoundingClientRect(), to = element.getBoundingClientRect();
    this.box.scrollLeft += to.left + to.width / 2 - at.left - across * this.box.clientWidth;
    this.box.scrollTop += to.top + to.height / 2 - at.top - this.box.clientHeight / 2;
  }

  fit() {
    this.zoomTo(this.fitted());
  }

  /**
   * Zoom to `scale` CSS px per SVG unit (kept between the fitted size and `MOST`), keeping the point at
   * (x, y) of the window (default: its middle) where it is.
   * @param {number} scale
   * @param {number} [x]
   * @param {number} [y]
   */
  zoomTo(scale, x, y) {
    const box = this.box, svg = this.svg;
    if (!box || !svg) return;
    const low = Math.min(READABLE, this.fitted()), next = Math.max(low, Math.min(MOST, scale));
    const px = x === undefined ? box.clientWidth / 2 : x, py = y === undefined ? box.clientHeight / 2 : y;
    const ux = (box.scrollLeft + px) / this.scale, uy = (box.scrollTop + py) / this.scale; // in SVG units
    this.scale = next;
    svg.style.width = `${this.width * next}px`;
    svg.style.height = `${this.height * next}px`;
    box.scrollLeft = ux * next - px;
    box.scrollTop = uy * next - py;
    const text = TEXT * next, whole = next <= this.fitted() + 1e-9;
    const said = /** @type {HTMLElement | null} */ (this.bar.querySelector('[data-lab="zoom-text"]'));
    if (said) said.textContent = `node text ${text.toFixed(text < 10 ? 1 : 0)} px${whole ? ": the whole graph" : ""}${text < TEXT ? " (zoom in to read it)" : ""}`;
  }

  /**
   * Drag to pan (a mouse; a finger scrolls the window itself), Ctrl + wheel (a trackpad's pinch) to zoom.
   * @param {HTMLElement} box
   */
  listen(box) {
    if (box.dataset.labZoom) return;
    box.dataset.labZoom = "1";
    box.addEventListener("wheel", (event) => {
      if (!event.ctrlKey) return;
      event.preventDefault();
      const at = box.getBoundingClientRect();
      this.zoomTo(this.scale * Math.exp(-event.deltaY / 300), event.clientX - at.left, event.clientY - at.top);
    }, { passive: false });
    /** @type {{x: number, y: number, left: number, top: number} | null} */
    let drag = null;
    box.addEventListener("pointerdown", (event) => {
      if (event.pointerType !== "mouse" || event.button !== 0) return;
      drag = { x: event.clientX, y: event.clientY, left: box.scrollLeft, top: box.scrollTop };
    });
    box.addEventListener("pointermove", (event) => {
      if (!drag) return;
      box.scrollLeft = drag.left - (event.clientX - drag.x);
      box.scrollTop = drag.top - (event.clientY - drag.y);
    });
    for (const end of ["pointerup", "pointerleave", "pointercancel"]) box.addEventListener(end, () => { drag = null; });
    box.addEventListener("keydown", (event) => {
      const by = event.key === "+" || event.key === "=" ? 1.25 : event.key === "-" ? 0.8 : 0;
      if (!by) return;
      event.preventDefault();
      this.zoomTo(this.scale * by);
    });
  }
}
