// page.js: the glue every page script shares. The theme's instant navigation swaps a page's content
// without loading the scripts again, so each script sets its page up through `everyPage`.

/**
 * Calls `setUp` once the page is there, and again after each instant navigation (the theme's `document$`).
 * @param {() => void} setUp
 */
export function everyPage(setUp) {
  const documents = /** @type {any} */ (window).document$;
  if (documents && typeof documents.subscribe === "function") documents.subscribe(setUp);
  else if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", setUp);
  else setUp();
}

/**
 * A new element with attributes (strings) and text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, string>} [attrs]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
export function element(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

/**
 * The players' script (glassgrad.js, a classic script: Jupyter inlines it too) sets up the players inside `root`.
 * @param {ParentNode} root
 */
export function initPlayers(root) {
  const players = /** @type {any} */ (window).glassgrad?.players;
  if (players) players.initAll(root);
}
