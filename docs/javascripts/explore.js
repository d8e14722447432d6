// explore.js: the explorable running examples (glassgrad_site.explore draws them and computes their frames).
// A frame is a list of numbers as the figures print them; slot q lists the [element id, template] pairs that
// show number q. Single-leaf moves on the grid use the build's frames; any other setting is computed by the
// same Python in the page (python-lab-mode.js's `open`, then lab.call of MODULE.compute). Nothing is
// computed here: this file only reads the controls, picks a frame and writes its numbers by id.
import { open } from "./python-lab-mode.js";

const MODULE = "glassgrad_site.explore";
const URL_DELAY_MS = 300;  // the address follows a drag at most this often (browsers throttle replaceState)

/** @typedef {{name: string, value: number, grid: number[]}} Leaf */
/** @typedef {{example: string, leaves: Leaf[], slots: string[][][], frames: Object<string, string[][]>}} Data */
/** @typedef {import("./python-lab-mode.js").Lab} Lab */

/** @type {Promise<Lab>|null} one Python for every explorer of the page, opened on first need */
let opening = null;

/**
 * The page's Python, opened once (python-session.js's lab mode; it imports MODULE from the site's bundle).
 * @param {function(string): void} onStatus
 * @returns {Promise<Lab>}
 */
function python(onStatus) {
  if (!opening) {
    opening = open({ modules: [MODULE], onStatus }).catch((/** @type {Error} */ error) => {
      opening = null;
      throw error;
    });
  }
  return /** @type {Promise<Lab>} */ (opening);
}

/**
 * A reader's text as a number, or a short sentence saying why it is not one.
 * @param {string} text
 * @returns {{value: number}|{error: string}}
 */
export function parse(text) {
  const trimmed = text.trim().replace(/^\u2212/, "-");  // a typographic minus, as the page prints it
  if (trimmed === "") return { error: "type a number" };
  const value = Number(trimmed);
  if (Number.isNaN(value)) return { error: "not a number" };
  if (!Number.isFinite(value)) return { error: "must be finite" };
  return { value };
}

/**
 * Where `value` sits on `grid` (its index), or -1 off the grid.
 * @param {number[]} grid
 * @param {number} value
 * @returns {number}
 */
export function gridIndex(grid, value) {
  const step = (grid[grid.length - 1] - grid[0]) / (grid.length - 1);
  const k = Math.round((value - grid[0]) / step);
  return k >= 0 && k < grid.length && Math.abs(grid[k] - value) < 1e-9 ? k : -1;
}

/**
 * The precomputed frame for `values`, if at most one leaf is off its default and that one is on its grid.
 * @param {Data} data
 * @param {Object<string, number>} values
 * @returns {string[]|null}
 */
export function precomputed(data, values) {
  const moved = data.leaves.filter((leaf) => values[leaf.name] !== leaf.value);
  if (moved.length > 1) return null;
  const leaf = moved.length ? moved[0] : data.leaves[0];
  const k = gridIndex(leaf.grid, values[leaf.name]);
  return k < 0 ? null : data.frames[leaf.name][k];
}

/**
 * Leaf values from the address (?w=2.5&b=0): only known leaves, only numbers.
 * @param {Data} data
 * @param {string} search
 * @returns {Object<string, number>}
 */
export function fromAddress(data, search) {
  const params = new URLSearchParams(search);
  /** @type {Object<string, number>} */
  const values = {};
  for (const leaf of data.leaves) {
    const parsed = params.has(leaf.name) ? parse(String(params.get(leaf.name))) : { value: leaf.value };
    values[leaf.name] = "value" in parsed ? parsed.value : leaf.value;
  }
  return values;
}

/**
 * One explorer: its controls, the elements of every slot, the current and the last good values.
 * @param {HTMLElement} section
 */
function explorer(section) {
  const holder = section.querySelector("script.gg-explore-data");
  if (!holder) return;
  /** @type {Data} */
  const data = JSON.parse(holder.textContent || "{}");
  const slots = data.slots.map((pairs) => pairs.map(([id, template]) => ({ element: document.getElementById(id), template })));
  const controls = /** @type {HTMLElement} */ (section.querySelector(".gg-explore-controls"));
  const badge = /** @type {HTMLElement} */ (section.querySelector(".gg-explore-badge"));
  /** @type {Object<string, {range: HTMLInputElement, field: HTMLInputElement, message: HTMLElement}>} */
  const inputs = {};
  for (const leaf of data.leaves) {
    const find = (/** @type {string} */ selector) => /** @type {any} */ (section.querySelector(selector + '[data-gg-leaf="' + leaf.name + '"]'));
    const field = find('input[type="text"]');
    inputs[leaf.name] = { range: find('input[type="range"]'), field, message: /** @type {HTMLElement} */ (document.getElementById(field.getAttribute("aria-describedby"))) };
  }
  /** @type {Object<string, number>} */
  let good = Object.fromEntries(data.leaves.map((leaf) => [leaf.name, leaf.value]));
  let wanted = good, asking = false, urlTimer = 0, shown = "";

  /** @param {string[]} numbers */
  function show(numbers) {
    const key = numbers.join(" ");
    if (key === shown) return;
    shown = key;
    slots.forEach((pairs, q) => {
      for (const { element, template } of pairs) {
        if (element) element.textContent = template.replace("{}", numbers[q]);
      }
    });
  }

  /** @param {string} text @param {string} state */
  function say(text, state) {
    badge.textContent = text;
    badge.setAttribute("data-gg-source", state);
  }

  /** @param {string} leaf @param {string} text */
  function note(leaf, text) {
    inputs[leaf].message.textContent = text;
    inputs[leaf].field.setAttribute("aria-invalid", String(text !== ""));
  }

  function remember() {
    window.clearTimeout(urlTimer);
    urlTimer = window.setTimeout(() => {
      const url = new URL(window.location.href);
      for (const leaf of data.leaves) {
        if (good[leaf.name] === leaf.value) url.searchParams.delete(leaf.name);
        else url.searchParams.set(leaf.name, String(good[leaf.name]));
      }
      window.history.replaceState(window.history.state, "", url.href);
    }, URL_DELAY_MS);
  }

  /**
   * Show the numbers for `values`: a precomputed frame at once, else Python's (one call at a time, the latest wins).
   * @param {Object<string, number>} values
   * @param {string} [leaf] the leaf the reader changed, which hears about a setting the engine cannot compute
   */
  function update(values, leaf) {
    wanted = values;
    const frame = precomputed(data, values);
    if (frame) {
      good = values;
      show(frame);
      say("precomputed", "precomputed");
      remember();
      return;
    }
    if (asking) return;  // the answer under way asks again for the latest values
    asking = true;
    say("starting Python in your browser…", "loading");
    python((status) => say(status, "loading"))
      .then((lab) => lab.call(MODULE + ".compute", [data.example, values]))
      .then((answer) => {
        asking = false;
        if (wanted !== values) return update(wanted, leaf);
        if (answer.error) {
          wanted = good;
          if (leaf) note(leaf, answer.error + ": the numbers shown are the last good ones");
          say("computed now in your browser", "python");
          return;
        }
        good = values;
        show(answer.numbers);
        say("computed now in your browser", "python");
        remember();
      })
      .catch((/** @type {Error} */ error) => {
        asking = false;
        say("could not compute: " + error.message, "failed");
      });
  }

  /** @param {string} leaf @param {number} value @param {boolean} fromField */
  function set(leaf, value, fromField) {
    note(leaf, "");
    if (fromField) inputs[leaf].range.value = String(value);
    else inputs[leaf].field.value = String(value);
    update({ ...wanted, [leaf]: value }, leaf);
  }

  /** @param {Object<string, number>} values */
  function load(values) {
    for (const leaf of data.leaves) {
      inputs[leaf.name].range.value = inputs[leaf.name].field.value = String(values[leaf.name]);
      note(leaf.name, "");
    }
    update(values);
  }

  for (const leaf of data.leaves) {
    const { range, field } = inputs[leaf.name];
    range.addEventListener("input", () => set(leaf.name, Number(range.value), false));
    field.addEventListener("input", () => {
      const parsed = parse(field.value);
      if ("error" in parsed) note(leaf.name, parsed.error + ": the numbers shown are the last good ones");
      else set(leaf.name, parsed.value, true);
    });
    field.addEventListener("change", () => {  // leaving a field with bad text: it shows the last good value again
      if ("error" in parse(field.value)) { field.value = String(good[leaf.name]); note(leaf.name, ""); }
    });
  }
  section.querySelector(".gg-explore-reset")?.addEventListener("click", () => load(Object.fromEntries(data.leaves.map((leaf) => [leaf.name, leaf.value]))));
  controls.hidden = false;
  const start = fromAddress(data, window.location.search);
  if (data.leaves.some((leaf) => start[leaf.name] !== leaf.value)) load(start);
}

/** Every explorer of the page not yet started (Material's instant navigation swaps pages without reloading). */
function startAll() {
  document.querySelectorAll(".gg-explore:not([data-gg-ready])").forEach((section) => {
    section.setAttribute("data-gg-ready", "");
    explorer(/** @type {HTMLElement} */ (section));
  });
}

if (typeof document !== "undefined") {
  startAll();
  const doc$ = /** @type {any} */ (window).document$;
  if (doc$) doc$.subscribe(startAll);
}
