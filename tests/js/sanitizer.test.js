// The sanitizer (docs/javascripts/sanitizer.js) against hostile fragments, on DOMPurify over jsdom.
import assert from "node:assert/strict";
import { test } from "node:test";
import createDOMPurify from "dompurify";
import { JSDOM } from "jsdom";
import { MAX_HTML_CHARS, createSanitizer, sizesOf } from "../../docs/javascripts/sanitizer.js";

const { window } = new JSDOM("<!doctype html><body></body>");
const sanitize = createSanitizer(createDOMPurify(window), /** @type {any} */ (window));
const PREFIX = "ggrun7";

/** @param {string} html */
function clean(html) {
  const holder = window.document.createElement("div");
  holder.appendChild(sanitize(html, PREFIX));
  return holder;
}

// Each: a fragment a program could return, and what must not survive of it.
const HOSTILE = [
  ['<svg><rect fill="url(http://other.example/x?secret)"/></svg>', "other.example"],
  ['<svg><g mask="url(https://other.example/m)" clip-path="url(//other.example/c)"/></svg>', "other.example"],
  ['<svg><path marker-end="url(http://other.example/#m)" filter="url(http://other.example/f)"/></svg>', "other.example"],
  ['<svg><rect fill="url(#somebody-else)"/></svg>', "somebody-else"],
  ['<svg><rect fill="u&#114;l(http://other.example/)"/></svg>', "other.example"],
  ['<svg><rect stroke="URL( \'http://other.example/\' )"/></svg>', "other.example"],
  ['<div style="background:url(http://other.example/)">x</div>', "other.example"],
  ['<div style="position:fixed;inset:0">x</div>', "fixed"],
  ["<style>body{background:url(http://other.example/)}</style>", "other.example"],
  ['<img src="http://other.example/i.png">', "other.example"],
  ['<svg><image href="http://other.example/i.png"/></svg>', "other.example"],
  ['<svg><use href="http://other.example/s.svg#a"/></svg>', "other.example"],
  ['<a href="http://other.example/">link</a>', "other.example"],
  ['<div class="gg-player--overlay md-header">x</div>', "overlay"],
  ['<div class="md-header">x</div>', "md-header"],
  ['<div class="gg-pg-summary">x</div>', "gg-pg"],
  ['<label for="__palette_1">x</label>', "__palette_1"],
  ['<label for="__palette_1">x</label>', "<label"],
  ['<button popovertarget="__drawer" commandfor="__drawer" command="show-modal">x</button>', "__drawer"],
  ['<button form="f" formaction="http://other.example/">x</button>', "other.example"],
  ['<form action="http://other.example/"><input name="q"></form>', "<form"],
  ['<form action="http://other.example/"><input name="q"></form>', "<input"],
  ['<base href="http://other.example/">', "other.example"],
  ['<div id="__palette_1">x</div>', "__palette_1"],
  ['<div data-gg-sandbox="" data-gg-graph="page-fig">x</div>', "data-gg-graph"],
  ['<div aria-describedby="__search">x</div>', "__search"],
  ['<img src=x onerror="alert(1)">', "onerror"],
  ["<script>alert(1)</script>", "alert"],
  ['<svg><a href="javascript:alert(1)"><text>x</text></a></svg>', "javascript"],
  ['<iframe src="http://other.example/"></iframe>', "other.example"],
  ['<object data="http://other.example/"></object>', "other.example"],
  ['<svg><foreignObject><div>in</div></foreignObject></svg>', "foreignobject"],
  ['<math><mi xlink:href="http://other.example/">x</mi></math>', "other.example"],
  ['<div data-gg-sizes="width:1px">x</div>', "data-gg-sizes"],
  ['<meta http-equiv="refresh" content="0;url=http://other.example/">', "other.example"],
  ['<link rel="stylesheet" href="http://other.example/s.css">', "other.example"],
];

for (const [fragment, gone] of HOSTILE) {
  test(`nothing of ${JSON.stringify(gone)} survives ${fragment}`, () => {
    assert.ok(!clean(fragment).innerHTML.toLowerCase().includes(gone.toLowerCase()), clean(fragment).innerHTML);
  });
}

test("a figure's own ids, classes, references and sizes are kept (sizes through the CSSOM, not as style)", () => {
  const out = clean(
    `<div class="gg-figure gg-player" id="${PREFIX}-fig" style="--gg-player-graph: 260px; position: fixed">` +
    `<svg style="width:100%;height:auto;max-width:260px" viewBox="0 0 10 10"><defs><linearGradient id="${PREFIX}-g"/></defs>` +
    `<rect fill="url(#${PREFIX}-g)" stroke="#64748b"/></svg></div>`,
  );
  const figure = out.querySelector(`#${PREFIX}-fig`);
  assert.ok(figure);
  assert.equal(figure.getAttribute("class"), "gg-player");  // gg-figure is no class of a figure's
  assert.equal(/** @type {any} */ (figure).style.getPropertyValue("--gg-player-graph"), "260px");
  assert.equal(/** @type {any} */ (figure).style.getPropertyValue("position"), "");
  assert.equal(out.querySelector("rect")?.getAttribute("fill"), `url(#${PREFIX}-g)`);
  assert.equal(/** @type {any} */ (out.querySelector("svg")).style.getPropertyValue("max-width"), "260px");
  assert.ok(!out.innerHTML.includes("data-gg-sizes"));
});

test("a label names its control and leaves no for", () => {
  const out = clean(`<label class="gg-player-speed-label" for="${PREFIX}-speed">Speed</label><select id="${PREFIX}-speed" class="gg-player-speed"><option value="1" selected>1×</option></select>`);
  assert.equal(out.querySelector("select")?.getAttribute("aria-label"), "Speed");
  assert.equal(out.querySelector("label"), null);
  assert.equal(out.querySelector(".gg-player-speed-label")?.textContent, "Speed");
});

test("a player's frames come back as inert JSON of own ids and own classes", () => {
  const frames = { frames: [{ label: "1", text: "<b>x</b><img src=x onerror=alert(1)>", focus: "__search", marks: { [`${PREFIX}-n1`]: "gg-current md-header", "__search": "gg-current" }, texts: { [`${PREFIX}-t`]: "<em>ok</em><script>alert(1)</script>" } }] };
  const out = clean(`<div class="gg-player" id="${PREFIX}-player"><script class="gg-frames" type="application/json">${JSON.stringify(frames).replace(/</g, "\\u003c")}</script></div>`);
  const holder = out.querySelector("script.gg-frames");
  assert.ok(holder);
  const parsed = JSON.parse(holder.textContent || "");
  assert.deepEqual(parsed.frames[0].marks, { [`${PREFIX}-n1`]: "gg-current" });
  assert.equal(parsed.frames[0].focus, "");
  assert.equal(parsed.frames[0].texts[`${PREFIX}-t`], "<em>ok</em>");
});

test("a forged frames holder outside a player of this output is dropped", () => {
  const out = clean(`<div class="gg-player" id="other-player"><script class="gg-frames">{"frames":[{"marks":{}}]}</script></div>`);
  assert.equal(out.querySelector("script"), null);
  assert.equal(out.querySelector("[id]"), null);
});

test("sizesOf keeps only sizes", () => {
  assert.deepEqual(sizesOf("width:100%; position:fixed; max-width: 12.5px; height: calc(1px)"), [["width", "100%"], ["max-width", "12.5px"]]);
});

test("an output over the bounds is refused before it is parsed", () => {
  assert.throws(() => sanitize("<b></b>".repeat(60000), PREFIX), /too big to show/);
  assert.throws(() => sanitize("x".repeat(MAX_HTML_CHARS + 1), PREFIX), /too big to show/);
  assert.equal(clean("<b>ok</b>".repeat(1000)).querySelectorAll("b").length, 1000);
});
