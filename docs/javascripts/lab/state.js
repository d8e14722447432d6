// @ts-check
// The lab's state as data: its defaults (written into the page by the build, from the Python model: one place)
// and the address that holds a run's settings (#data=moons&layers=8,8&...). The page reads the address as
// plain text; Python checks and clamps every field (glassgrad_site.lab.settings) and says what it changed.

/**
 * @typedef {Record<string, any>} Settings  what glassgrad_site.lab.settings.DEFAULTS holds
 * @typedef {{defaults: Settings, start: import("./plane.js").Network & Record<string, any>, suggested: Record<string, Settings>, file_name: string}} BuiltModel
 */

/**
 * What the build wrote into the page: the defaults and the default run at step 0 (so the page draws before
 * Python is ready).
 * @returns {BuiltModel}
 */
export function builtModel() {
  const script = document.querySelector('script[type="application/json"][data-lab="model"]');
  if (!script) throw new Error("the lab's model is missing from the page");
  return JSON.parse(script.textContent || "{}");
}

/** @param {unknown} value */
function listText(value) {
  return Array.isArray(value) ? value.join(",") : String(value);
}

/**
 * The settings the address asks for, as the reader (or a link) wrote them: unknown keys are left out, the rest
 * is sent to Python as text or lists of text, which checks it.
 * @param {Settings} defaults
 * @param {string} hash  location.hash
 * @returns {Settings}
 */
export function readHash(defaults, hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  /** @type {Settings} */
  const raw = {};
  for (const key of Object.keys(defaults)) {
    const name = key === "added" ? "add" : key === "removed" ? "remove" : key;
    if (!params.has(name)) continue;
    const text = String(params.get(name)).slice(0, 20000);
    if (key === "added") raw.added = text.split(";").filter(Boolean).map((item) => item.split(","));
    else if (Array.isArray(defaults[key])) raw[key] = text.split(",").map((item) => item.trim()).filter(Boolean);
    else raw[key] = text;
  }
  return raw;
}

/**
 * Put the (checked) settings in the address, without a new history entry.
 * @param {Settings} settings
 */
export function writeHash(settings) {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(settings)) {
    if (key === "added") {
      if (value.length) params.set("add", value.map(listText).join(";"));
    } else if (key === "removed") {
      if (value.length) params.set("remove", listText(value));
    } else params.set(key, listText(value));
  }
  const url = `${window.location.href.split("#")[0]}#${params.toString()}`;
  window.history.replaceState(window.history.state, "", url);
}

/**
 * Whether `raw` asks for nothing but the defaults (then the run the build wrote is the one to draw).
 * @param {Settings} defaults
 * @param {Settings} raw
 */
export function isDefault(defaults, raw) {
  return Object.keys(raw).every((key) => listText(raw[key]) === listText(defaults[key]));
}

/**
 * The value an input shows for a setting.
 * @param {unknown} value
 */
export function shown(value) {
  return Array.isArray(value) ? value.join(", ") : String(value);
}

/**
 * A number for the reader: 4 significant digits, or an exponent for the very large and the very small.
 * @param {number} x
 */
export function short(x) {
  if (x === 0) return "0";
  const a = Math.abs(x);
  return a >= 1e-3 && a < 1e4 ? Number(x.toPrecision(4)).toString() : x.toExponential(2);
}

/**
 * @param {number | null | undefined} x
 * @param {number} digits
 */
export function fixed(x, digits) {
  return x === null || x === undefined ? "—" : Number(x).toFixed(digits);
}

/**
 * Save `text` as a file the reader downloads (the run's script: glassgrad_site.lab.export.FILE_NAME).
 * @param {string} text
 * @param {string} name
 */
export function download(text, name) {
  const link = document.createElement("a");
  link.href = URL.createObjectURL(new Blob([text], { type: "text/x-python" }));
  link.download = name;
  document.body.appendChild(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(link.href), 10000);
}
