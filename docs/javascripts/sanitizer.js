// sanitizer.js: the only way HTML from a worker (a reader's program's result) reaches the page, by ALLOW-LIST.
// DOMPurify (served by the site, loaded on first use) keeps only the tags and attributes listed here; its hooks
// then check every value: an id must carry the output's own prefix (the page chose it for this run), a class
// must be one of the figures' own, a value may reference nothing but a fragment of the same output
// (`url(#id)` with an own id), and `style` never passes: the sizes the figures need are read from it as
// numbers and set again through the CSSOM. A <label> becomes its control's aria-label (no `for` passes).
// A player's frames (<script class="gg-frames">, JSON) are read, checked and put back as inert JSON.
//
// Trusted Types, where the browser has them: this module holds the page's one policy, "glassgrad" (the CSP that
// docs/hooks/content_security_policy.py writes allows no other). It makes HTML of a string only while sanitize()
// parses a worker's output inertly (DOMParser, then DOMPurify, which is given this policy), script text only of
// JSON (a player's frames, in a <script type="application/json">), and a script URL only of python-worker.js.
//
//   import { sanitize } from "./sanitizer.js";
//   sanitize(html, prefix) -> Promise of a DocumentFragment of this document
//   workerURL() -> python-worker.js's address, as the policy's TrustedScriptURL where there is one (for new Worker)
//   createSanitizer(purify, window) -> the same, synchronous, for a DOMPurify and a window (tests/js uses jsdom)

const ALLOWED_TAGS = [
  "div", "span", "p", "code", "pre", "b", "strong", "em", "i", "sub", "sup", "small", "var", "br", "dl", "dt", "dd",
  "ol", "ul", "li", "details", "summary", "figure", "figcaption", "h4", "h5", "section", "button", "select", "option",
  "table", "thead", "tbody", "tr", "th", "td", "caption",
  "svg", "g", "title", "desc", "path", "polygon", "polyline", "ellipse", "circle", "rect", "line", "text", "tspan",
  "defs", "marker", "lineargradient", "radialgradient", "stop",
];
const ALLOWED_ATTR = [
  "id", "class", "hidden", "role", "tabindex", "title", "aria-label", "aria-hidden", "aria-pressed", "aria-current",
  "aria-live", "aria-describedby", "type", "value", "selected", "colspan", "rowspan", "open", "start",
  "viewbox", "xmlns", "transform", "d", "points", "x", "y", "x1", "y1", "x2", "y2", "cx", "cy", "r", "rx", "ry",
  "width", "height", "fill", "fill-opacity", "stroke", "stroke-width", "stroke-dasharray", "stroke-opacity",
  "opacity", "font-family", "font-size", "font-weight", "font-style", "text-anchor", "dominant-baseline",
  "marker-end", "marker-start", "markerwidth", "markerheight", "refx", "refy", "orient", "offset", "stop-color",
  "preserveaspectratio",
];
const ID = /^[A-Za-z][\w-]{0,200}$/;
/** An output's HTML, at most (the worker bounds its answers the same way; a bigger one is refused, not parsed). */
export const MAX_HTML_CHARS = 1e6, MAX_ELEMENTS = 100000;
const NUMBER = "\\d{1,5}(?:\\.\\d{1,4})?";
// The data-gg-* attributes kept, with the values they may hold ("own": an id of this output).
/** @type {Record<string, RegExp | "own">} */
const KEPT_DATA = {
  "data-gg-action": /^(reset|back|forward|end|play|fullscreen)$/,
  "data-gg-edge": "own", "data-gg-op": "own", "data-gg-output-node": "own", "data-gg-parent-node": "own",
  "data-gg-role": /^[\w -]{0,60}$/, "data-gg-wrong": /^(true|false)$/, "data-gg-label": /^[^<>]{0,200}$/,
  "data-gg-index": /^\d{1,6}$/, "data-gg-step": /^\d{1,6}$/, "data-gg-player": /^[\w-]{1,30}$/,
  "data-gg-rankdir": /^(LR|TB)$/, "data-gg-prefix": ID,
};
// The figures' own classes (glassgrad.viz writes them; the page's, like gg-player--overlay, are not among them).
const CLASSES = new Set((
  "gg gg-active gg-append gg-appended gg-collapsed gg-arrow gg-bad gg-beside gg-beside-graph gg-beside-side gg-boxes gg-card gg-card-head gg-chip gg-compare " +
  "gg-compare-cell gg-compare-title gg-contribution gg-current gg-dim gg-done gg-edge gg-events gg-fit " +
  "gg-fit-narrow gg-fit-wide gg-forward gg-frames gg-grad gg-graph gg-highlight gg-js gg-leaf gg-legend " +
  "gg-legend-item gg-legend-note gg-link gg-link-card gg-local gg-mark gg-ok gg-on-path gg-op gg-order gg-order-list " +
  "gg-order-name gg-order-note gg-order-row gg-out gg-output gg-parent gg-pending gg-player gg-player-card " +
  "gg-player-controls gg-player-graph gg-player-path gg-player-speed gg-player-speed-label gg-player-status " +
  "gg-player-title gg-player-trace gg-plot gg-plot-grid gg-pointer gg-root gg-schedule-list gg-scroll gg-seed " +
  "gg-shown gg-side-by-side gg-side-cell gg-skip gg-skipped gg-source gg-state gg-state-order gg-step " +
  "gg-step-calc gg-step-head gg-step-no gg-steps gg-storage gg-storage-u gg-storage-update gg-storage-v gg-svg " +
  "gg-swatch gg-tag gg-target gg-trace gg-upstream gg-value gg-values gg-violations gg-walk gg-wrong node edge graph"
).split(" "));
const CLASS_FAMILIES = /^gg-(f|s|t|plot-series)-[a-z0-9][\w-]{0,40}$/;  // a figure's generated names
/** @param {string} name */
const ownClass = (name) => CLASSES.has(name) || CLASS_FAMILIES.test(name);
// Sizes read from a style attribute (the figures' widths, scroll boxes and grids), set again through the CSSOM.
const SIZE = new RegExp(`^(auto|0|-?${NUMBER}(px|%|em|rem|fr))$`);
/** @type {Record<string, RegExp>} */
const STYLES = {
  "width": SIZE, "height": SIZE, "min-width": SIZE, "max-width": SIZE, "overflow-x": /^(auto|hidden|visible)$/,
  "grid-template-columns": new RegExp(`^((minmax\\(${NUMBER}px, ?${NUMBER}fr\\)|${NUMBER}(px|fr|%)|auto) ?){1,12}$`),
  "grid-template-rows": /^(repeat\(\d{1,2}, ?auto\)|auto)$/,
  "--gg-player-graph": SIZE, "--gg-beside-graph": SIZE,  // a graph's column: as wide as it is shown at most
};
const PAINT = /^(none|transparent|currentColor|#[0-9a-fA-F]{3,8}|[a-z]{3,20}|rgba?\([\d., %]{5,40}\))$/;
const LOCAL_URL = /^url\(#([A-Za-z][\w-]{0,200})\)$/;

/** The name of the page's one Trusted Types policy. */
export const POLICY_NAME = "glassgrad";
const WORKER = new URL("python-worker.js", import.meta.url).href;
let parsing = 0;  // > 0 while sanitize() parses: the only time the policy turns a string into HTML

/**
 * @param {any} factory  the window's trustedTypes, if the browser has them
 * @returns {any} the policy, or null without Trusted Types
 */
function createPolicy(factory) {
  if (!factory || typeof factory.createPolicy !== "function") return null;
  return factory.createPolicy(POLICY_NAME, {
    /** @param {string} text */
    createHTML(text) {
      if (parsing <= 0) throw new TypeError("HTML reaches this page only through sanitizer.js's sanitize()");
      return text;
    },
    /** @param {string} text */
    createScript(text) { JSON.parse(text); return text; },  // a player's frames: data, never code
    /** @param {string} url */
    createScriptURL(url) {
      if (String(url) !== WORKER) throw new TypeError("the only script this page starts is python-worker.js");
      return url;
    },
  });
}
const policy = createPolicy(/** @type {any} */ (globalThis).trustedTypes);

/** @returns {string} python-worker.js's address, a TrustedScriptURL under Trusted Types (new Worker takes either). */
export function workerURL() {
  return policy ? policy.createScriptURL(WORKER) : WORKER;
}

// Every attribute that may pass (the hook checks its value); data-gg-sizes and data-gg-player-slot are ours.
const ALLOWED = new Set([...ALLOWED_ATTR, ...Object.keys(KEPT_DATA), "data-gg-sizes", "data-gg-player-slot"]);

/** @param {string} text @returns {Array<[string, string]>} the declarations of STYLES it holds */
export function sizesOf(text) {
  /** @type {Array<[string, string]>} */
  const kept = [];
  for (const declaration of String(text).split(";")) {
    const colon = declaration.indexOf(":");
    if (colon < 0) continue;
    const name = declaration.slice(0, colon).trim().toLowerCase(), value = declaration.slice(colon + 1).trim();
    if (Object.hasOwn(STYLES, name) && STYLES[name].test(value)) kept.push([name, value]);
  }
  return kept;
}

/**
 * A sanitizer over one DOMPurify instance (its hooks are ours) and the window whose document receives the output.
 * @param {any} purify  DOMPurify, or DOMPurify(window) in node
 * @param {Window & typeof globalThis} win
 * @returns {(html: string, prefix: string) => DocumentFragment}
 */
export function createSanitizer(purify, win) {
  let owner = "";  // while sanitizing: the prefix every id must carry
  /** @param {string} id */
  const own = (id) => ID.test(id) && owner !== "" && (id === owner || id.startsWith(owner + "-"));
  /** @param {string} name @param {string} value */
  function allowed(name, value) {
    if (!ALLOWED.has(name)) return false;
    if (name === "id") return own(value);
    if (name === "class") return value !== "" && value.split(" ").every(ownClass);
    if (name === "type") return value === "button";
    if (name === "aria-describedby") return value.split(/\s+/).every(own);
    if (name === "data-gg-sizes") return value !== "" && sizesOf(value).map((pair) => pair.join(":")).join(";") === value;
    if (name === "data-gg-player-slot") return /^\d{1,4}$/.test(value);
    if (name.startsWith("data-")) {
      const rule = KEPT_DATA[name];
      return rule === "own" ? own(value) : rule.test(value);
    }
    if (/url\s*\(|\\|&#|:\s*\/\/|javascript:|expression\s*\(/i.test(value)) {  // a reference: to this output only
      const local = LOCAL_URL.exec(value);
      return local !== null && own(local[1]);
    }
    if (name === "fill" || name === "stroke" || name === "stop-color") return PAINT.test(value);
    return true;
  }
  purify.addHook("uponSanitizeAttribute", (/** @type {Element} */ _node, /** @type {any} */ data) => {
    if (data.attrName === "class") {  // the figures' own classes stay, others go
      data.attrValue = String(data.attrValue).split(/\s+/).filter(ownClass).join(" ");
    }
    if (!allowed(String(data.attrName).toLowerCase(), String(data.attrValue))) data.keepAttr = false;
  });
  const config = {
    ALLOWED_TAGS, ALLOWED_ATTR: [...ALLOWED], ALLOW_DATA_ATTR: true, ALLOW_ARIA_ATTR: true,  // (the hook decides)
    ALLOW_UNKNOWN_PROTOCOLS: false, KEEP_CONTENT: true,
    ...(policy ? { TRUSTED_TYPES_POLICY: policy } : {}),  // (else DOMPurify would ask for a policy of its own)
  };

  /** @param {string} text  a player's frames, JSON */
  function cleanFrames(text) {
    const parsed = JSON.parse(text), frames = [];
    if (!parsed || !Array.isArray(parsed.frames)) return null;
    for (const frame of parsed.frames.slice(0, 5000)) {
      if (!frame || typeof frame !== "object") continue;
      /** @type {{marks: Record<string, string>, texts: Record<string, string>, label: string, text: string, focus: string}} */
      const clean = { marks: {}, texts: {}, label: String(frame.label || ""), text: String(frame.text || ""), focus: own(String(frame.focus || "")) ? String(frame.focus) : "" };
      for (const id of Object.keys(frame.marks || {})) {
        const marks = String(frame.marks[id]).split(/\s+/).filter(ownClass).join(" ");
        if (own(id) && marks) clean.marks[id] = marks;
      }
      for (const id of Object.keys(frame.texts || {})) {
        if (own(id)) clean.texts[id] = String(purify.sanitize(String(frame.texts[id]), config));
      }
      frames.push(clean);
    }
    return frames.length ? { frames } : null;
  }

  /** @param {Document} parsed  the worker's HTML, parsed inertly: our marks in, the worker's out */
  function prepare(parsed) {
    /** @type {Array<object>} */
    const frames = [];
    for (const name of ["data-gg-sizes", "data-gg-player-slot"]) {
      for (const forged of parsed.querySelectorAll(`[${name}]`)) forged.removeAttribute(name);
    }
    for (const sized of parsed.querySelectorAll("[style]")) {  // sizes pass as checked data, never as style
      const sizes = sizesOf(sized.getAttribute("style") || "").map((pair) => pair.join(":")).join(";");
      sized.removeAttribute("style");
      if (sizes) sized.setAttribute("data-gg-sizes", sizes);
    }
    for (const holder of parsed.querySelectorAll("script.gg-frames")) {
      const player = holder.closest(".gg-player");
      let clean = null;
      try { clean = cleanFrames(holder.textContent || ""); } catch { clean = null; }
      if (player && clean && own(player.id)) { player.setAttribute("data-gg-player-slot", String(frames.length)); frames.push(clean); }
    }
    for (const script of parsed.querySelectorAll("script")) script.remove();  // read: never passed on
    for (const label of parsed.querySelectorAll("label")) {  // its text names its control; `for` does not pass
      const target = label.getAttribute("for") || "";
      const control = own(target) ? parsed.getElementById(target) : label.querySelector("select, button");
      if (control && !control.hasAttribute("aria-label")) control.setAttribute("aria-label", (label.textContent || "").trim().slice(0, 200));
      const span = parsed.createElement("span");
      span.setAttribute("class", label.getAttribute("class") || "");
      span.append(...label.childNodes);
      label.replaceWith(span);
    }
    return frames;
  }
  /** @param {DocumentFragment} safe @param {Array<object>} frames */
  function finish(safe, frames) {
    for (const sized of safe.querySelectorAll("[data-gg-sizes]")) {
      const style = /** @type {HTMLElement} */ (sized).style;
      for (const [name, value] of sizesOf(sized.getAttribute("data-gg-sizes") || "")) style.setProperty(name, value);
      sized.removeAttribute("data-gg-sizes");
    }
    for (const player of safe.querySelectorAll("[data-gg-player-slot]")) {
      const clean = frames[Number(player.getAttribute("data-gg-player-slot"))];
      player.removeAttribute("data-gg-player-slot");
      if (!clean) continue;
      const holder = win.document.createElement("script");
      holder.type = "application/json";
      holder.className = "gg-frames";
      const json = JSON.stringify(clean).replace(/</g, "\\u003c");
      holder.textContent = policy ? policy.createScript(json) : json;
      player.appendChild(holder);
    }
    return safe;
  }

  return function sanitize(html, prefix) {
    const text = String(html);
    let elements = 0;
    for (let at = text.indexOf("<"); at >= 0 && elements <= MAX_ELEMENTS; at = text.indexOf("<", at + 1)) elements += 1;
    if (text.length > MAX_HTML_CHARS || elements > MAX_ELEMENTS) {
      throw new RangeError(`it is too big to show (${text.length.toLocaleString("en")} characters; at most ${MAX_HTML_CHARS.toLocaleString("en")} characters and ${MAX_ELEMENTS.toLocaleString("en")} elements)`);
    }
    owner = ID.test(String(prefix || "")) ? String(prefix) : "";
    parsing += 1;
    try {
      const source = "<body>" + text;
      const parsed = new win.DOMParser().parseFromString(policy ? policy.createHTML(source) : source, "text/html");  // inert: nothing runs
      const frames = prepare(parsed);
      const range = parsed.createRange();  // the nodes themselves go to DOMPurify: no second serialising and parsing
      range.selectNodeContents(parsed.body);
      return finish(purify.sanitize(range.extractContents(), Object.assign({ RETURN_DOM_FRAGMENT: true }, config)), frames);
    } finally {
      owner = "";
      parsing -= 1;
    }
  };
}

/** @type {Promise<(html: string, prefix: string) => DocumentFragment> | null} */
let loading = null;

/** Loads DOMPurify from the site (once); the Run button's intent calls it early. */
export function preload() {
  if (!loading) {
    const url = new URL("../assets/playground/dompurify/purify.es.mjs", import.meta.url).href;
    loading = import(url).then((module) => createSanitizer(module.default, window));
  }
  return loading;
}

/**
 * @param {string} html  what the worker sent
 * @param {string} prefix  the prefix the page sent with the request: every id must carry it
 * @returns {Promise<DocumentFragment>}
 */
export function sanitize(html, prefix) {
  return preload().then((clean) => clean(html, prefix));
}
